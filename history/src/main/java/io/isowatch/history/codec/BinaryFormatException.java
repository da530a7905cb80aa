package io.isowatch.history.codec;

/**
 * Bytes handed to {@link BinaryEventCodec#decode} are not a binary history event this reader
 * can read: a foreign magic number, a format version it does not know, a truncated or
 * over-long record, or a field out of range. The message names what was found and, for the
 * magic number and version, what this reader supports.
 */
public final class BinaryFormatException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int offset;

    /**
     * @param offset  the byte offset of the fault relative to the start of the event
     * @param message what is wrong
     */
    public BinaryFormatException(int offset, String message) {
        super(message);
        this.offset = offset;
    }

    /** The byte offset of the fault, counted from the start of the event. */
    public int offset() {
        return offset;
    }
}
