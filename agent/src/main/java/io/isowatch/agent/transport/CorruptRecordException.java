package io.isowatch.agent.transport;

import io.isowatch.history.codec.BinaryFormatException;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A spool record that is not a readable event: damaged bytes, or written by a newer isowatch.
 * The {@link SpoolTailer} that met it has already moved past it, so a reader that catches this
 * continues with the next record; the shipper hands it to {@link ChronicleHistoryLog#quarantine}.
 * Carries the record's index and raw bytes, so that it can be kept aside and examined.
 */
public final class CorruptRecordException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final long index;
    private final transient byte[] bytes;
    private final int errorOffset;

    CorruptRecordException(Path spool, long index, byte[] bytes, BinaryFormatException cause) {
        super("spool " + spool + ", index " + Long.toHexString(index) + " (" + bytes.length + " bytes), byte "
                + cause.offset() + ": " + cause.getMessage(), cause);
        this.index = index;
        this.bytes = Objects.requireNonNull(bytes, "bytes");
        this.errorOffset = cause.offset();
    }

    /** The record's Chronicle index in the spool. */
    public long index() {
        return index;
    }

    /** The record's raw bytes (a copy). */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The byte at which decoding failed. */
    public int errorOffset() {
        return errorOffset;
    }

    /** What the decoder found wrong, without the location. */
    public String reason() {
        return getCause().getMessage();
    }
}
