package io.isowatch.checker;

import io.isowatch.history.Op;

/** The checker's error texts, kept together so their wording stays consistent. */
final class Messages {

    private Messages() {
    }

    static String where(Op op) {
        return op.sourceLine() > 0 ? "line " + op.sourceLine() + " (index " + op.index() + ")"
                : "index " + op.index();
    }

    static String late(Op op, long lastReleased, int window) {
        return where(op) + ": event arrived after index " + lastReleased
                + " was already checked; it is more than " + window
                + " events out of order (raise the reorder window, --reorder-window)";
    }

    static final String ACCEPT_WITHOUT_AGENT = "accept(op) on a checker of a fleet's history: give each event's"
            + " agent, accept(op, agent)";

    static final String ACCEPT_WITH_AGENT = "accept(op, agent) on a checker of one agent's history: call"
            + " checkAsFleet(clockUncertainty) before the first event, or accept(op)";

    static final String NAMED_WITHOUT_FLEET = "agentNamed() on a checker of one agent's history: call checkAsFleet"
            + " first";

    static final String LINEARIZABLE_KEYS_IN_A_FLEET = "linearizable-keys orders a key's versions by realtime in"
            + " index order, which a history merged from several agents' clocks does not have; check a fleet's"
            + " history without it (sequential-keys and wfr-keys still apply)";

    static final String PROTOCOL_IN_A_FLEET = "a history from several agents cannot judge garbage reads at"
            + " completion (decision 0016 assumes one producer; merged by clocks, another agent's invocation of the"
            + " value may come after the read): its garbage reads wait for the end; do not call followAgentProtocol"
            + " or resumeAgentProtocol with checkAsFleet";

    static String fleetEventWithoutTime(Op op) {
        return where(op) + ": event has no :time; a history from several agents orders transactions of different"
                + " agents in real time by their times, so every event needs one";
    }

    static String doubleInvoke(Op op, Op open) {
        return where(op) + ": process " + op.process() + " invoked a new transaction while its invocation at "
                + where(open) + " had not completed";
    }

    static String reusedAfterInfo(Op op, Op info) {
        return where(op) + ": process " + op.process() + " began a transaction again after its :info completion at "
                + where(info) + "; a crashed process must not be reused";
    }

    static String writesDiffer(Op op, long invokeIndex, String invoked, String completed) {
        return where(op) + ": the " + op.type().jepsenName() + " completion writes " + completed
                + " but its invocation at index " + invokeIndex + " writes " + invoked
                + "; a completion may fill in what its reads returned, not change what the transaction"
                + " appends or writes (docs/elle-compatibility.md)";
    }

    static String otherWorkloadsMicroOp(Op op, int position, String mop, boolean listAppend) {
        return where(op) + ": micro-op " + position + " is " + mop + (listAppend
                ? ", a register write; a list-append history holds only :append and :r micro-ops"
                        + " (check registers with -m rw-register)"
                : ", an append; an rw-register history holds only :w and :r micro-ops"
                        + " (check lists with -m list-append)");
    }

    static String registerReadOfList(Op op, int position, String key, String list) {
        return where(op) + ": micro-op " + position + " reads key " + key + " as the list " + list
                + "; an rw-register read returns one value, or nil for the initial value"
                + " (for lists, check with -m list-append)";
    }

    static String duplicateAppend(Op op, String key, String value, long otherIndex) {
        return where(op) + ": value " + value + " appended to key " + key
                + " more than once (also by the transaction invoked at index " + otherIndex
                + "); list-append needs unique values per key";
    }

    static String duplicateAppendOfForgotten(Op op, String key, String value) {
        return where(op) + ": value " + value + " appended to key " + key
                + " more than once (also by a transaction invoked before the checker's retention window);"
                + " list-append needs unique values per key";
    }

    static String duplicateWrite(Op op, String key, String value, long otherIndex) {
        return where(op) + ": value " + value + " written to key " + key
                + " by two transactions (this one and the one invoked at index " + otherIndex
                + "); rw-register needs unique values per key";
    }
}
