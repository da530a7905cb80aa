package io.isowatch.history.codec;

import io.isowatch.history.Op;

import java.io.Closeable;

/** One input format's op parser; {@link HistoryReader} picks one and delegates to it. */
interface OpSource extends Closeable {

    /** The next client op, or null at the end of the input. */
    Op next();

    /** Non-client ops skipped so far. */
    long skipped();

    @Override
    void close();
}
