package io.isowatch.gen;

/**
 * Message templates for misuse of {@link RegisterGenerator} that {@link GeneratorMessages} words
 * for the list-append generator; the rest are shared from there.
 */
final class RegisterMessages {

    private RegisterMessages() {
    }

    static String tooManyToCollect(long txnCount) {
        return "txnCount " + txnCount + " is too large to collect into a list; iterate a RegisterGenerator instead";
    }
}
