package io.isowatch.agentcli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * UTF-8 bytes into a {@link Writer}: a command whose output is bytes (a JSON-lines history)
 * writes through the launcher's stdout writer, so tests and the launchers see it where they see
 * every other command's output. A character split between two writes is decoded once whole.
 * Closing flushes the writer and leaves it open. Not thread-safe.
 */
final class WriterOutputStream extends OutputStream {

    private final Writer writer;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
    private final ByteBuffer bytes = ByteBuffer.allocate(8192);
    private final CharBuffer chars = CharBuffer.allocate(8192);

    WriterOutputStream(Writer writer) {
        this.writer = writer;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            int n = Math.min(len, bytes.remaining());
            bytes.put(b, off, n);
            off += n;
            len -= n;
            decode();
        }
    }

    /** Decodes what is buffered, keeping an incomplete trailing character for the next write. */
    private void decode() throws IOException {
        bytes.flip();
        while (true) {
            boolean overflow = decoder.decode(bytes, chars, false).isOverflow();
            chars.flip();
            writer.append(chars);
            chars.clear();
            if (!overflow) {
                break;
            }
        }
        bytes.compact();
    }

    @Override
    public void flush() throws IOException {
        writer.flush();
    }

    @Override
    public void close() throws IOException {
        writer.flush();
    }
}
