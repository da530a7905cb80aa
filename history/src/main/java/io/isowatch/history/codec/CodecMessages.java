package io.isowatch.history.codec;

/** The message templates of the codec package, kept together so their wording stays uniform. */
final class CodecMessages {

    private CodecMessages() {
    }

    static String missingField() {
        return "missing from the op (every op needs its type: invoke, ok, fail or info)";
    }

    static String unknownType(String found) {
        return "unknown operation type " + quote(found) + " (expected invoke, ok, fail or info)";
    }

    static String expectedTypeName(String found) {
        return "expected an operation type (invoke, ok, fail or info), found " + found;
    }

    static String expectedInteger(String what, String found) {
        return "expected " + what + ", found " + found;
    }

    static String integerOutOfRange(String found) {
        return "integer " + found + " does not fit in 64 bits";
    }

    static String atomOutOfRange(int position, String found) {
        return "micro-op " + position + ": " + integerOutOfRange(found);
    }

    static String reservedInteger(int position, String atomTableReason) {
        return "micro-op " + position + ": " + atomTableReason;
    }

    static String expectedMicroOps(String found) {
        return "expected a list of micro-ops such as [[\"append\", 1, 2], [\"r\", 3, null]], found " + found;
    }

    static String expectedMicroOp(int position, String found) {
        return "micro-op " + position + ": expected a list [f, key, value], found " + found;
    }

    static String expectedMicroOpName(int position, String found) {
        return "micro-op " + position + ": expected a function name (append, r or w), found " + found;
    }

    static String unknownMicroOp(int position, String name) {
        return "micro-op " + position + ": unknown function " + quote(name) + " (expected append, r or w)";
    }

    static String microOpArity(int position, int found) {
        return "micro-op " + position + ": expected 3 elements [f, key, value], found " + found;
    }

    static String badAtom(int position, String role, String found) {
        return "micro-op " + position + ": " + role + " must be an integer or a string, found " + found;
    }

    static String writeOfNil(int position) {
        return "micro-op " + position + ": a write needs an integer or string value, found null";
    }

    static String badReadResult(int position, String found) {
        return "micro-op " + position + ": a read's result must be a list, a single integer or string, or null;"
                + " found " + found;
    }

    static String expectedOp(String found) {
        return "expected an op map such as {\"type\": \"invoke\", ...}, found " + found;
    }

    static String trailingAfterList(String found) {
        return "expected the end of input after the closing bracket of the history, found " + found;
    }

    static String unterminatedList() {
        return "the history's opening bracket is never closed";
    }

    static String invalidJson(String jacksonMessage) {
        return "invalid JSON: " + jacksonMessage;
    }

    static String invalidEdn(String detail) {
        return "invalid EDN: " + detail;
    }

    /** Renders a string value as it would appear in JSON, for a message. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
