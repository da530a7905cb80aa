package io.isowatch.history.codec;

/** The message templates of the binary event format, kept together so their wording stays uniform. */
final class BinaryMessages {

    private BinaryMessages() {
    }

    static String badMagic(int found) {
        return String.format("not an isowatch binary event: magic number 0x%08x (%s); this reader supports 0x%08x (%s)",
                found, printable(found), BinaryEventCodec.MAGIC, printable(BinaryEventCodec.MAGIC));
    }

    static String badVersion(int found) {
        return "isowatch binary event format version " + found + " is not supported; this reader supports version "
                + BinaryEventCodec.VERSION + " (was the event written by a newer isowatch?)";
    }

    static String truncated(int needed, int available) {
        return "truncated event: needed " + needed + " more byte(s), " + available + " left";
    }

    static String tooShortForHeader(int length) {
        return "truncated event: " + length + " byte(s) cannot hold the " + BinaryEventCodec.HEADER_SIZE
                + "-byte header (magic number and version)";
    }

    static String varintTooLong() {
        return "malformed varint: more than 10 bytes";
    }

    static String countTooLarge(String what, long count, int remaining) {
        return what + " count " + Long.toUnsignedString(count) + " cannot fit in the " + remaining + " byte(s) left";
    }

    static String negativeSequence(long sequence) {
        return "sequence " + Long.toUnsignedString(sequence) + " is out of range (must be below 2^63)";
    }

    static String protocolDeclaredLate(long sequence) {
        return "event " + sequence + " declares the agent protocol (type flag 0x80), which only a history's first "
                + "event (sequence 0) may do";
    }

    static String unknownType(int code) {
        return "unknown operation type code " + code + " (expected 0 invoke, 1 ok, 2 fail or 3 info)";
    }

    static String unknownMicroOp(int position, int tag) {
        return "micro-op " + position + ": unknown tag " + tag
                + " (expected 0 append, 1 write, 2 read of unknown result, 3 read)";
    }

    static String badStringRef(int position, long ref, int strings) {
        return "micro-op " + position + ": string reference " + ref + " is past the event's " + strings
                + " string(s)";
    }

    static String trailingBytes(int extra) {
        return "event is followed by " + extra + " unexpected byte(s); each record must hold exactly one event";
    }

    static String invalidEvent(String detail) {
        return "decoded fields do not form a valid event: " + detail;
    }

    static String bufferTooSmall(int needed, int available) {
        return "event needs " + needed + " bytes, the destination has " + available;
    }

    private static String printable(int magic) {
        StringBuilder b = new StringBuilder("\"");
        for (int shift = 24; shift >= 0; shift -= 8) {
            int c = (magic >>> shift) & 0xff;
            if (c >= 0x20 && c < 0x7f) {
                b.append((char) c);
            } else {
                b.append(String.format("\\x%02x", c));
            }
        }
        return b.append('"').toString();
    }
}
