package io.isowatch.job;

import io.isowatch.history.HistoryEvent;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One transaction of one process, its invocation paired with its completion (ok, fail or info):
 * how the tests read the events the job feeds its checker.
 *
 * @param invocation the invoke event, or null for a completion let through without one
 *                   (the checker takes it for a transaction invoked at an unknown time)
 * @param completion the ok, fail or info event of the same agent and process
 */
public record CompletedTxn(HistoryEvent invocation, HistoryEvent completion) {

    public CompletedTxn {
        Objects.requireNonNull(completion, "completion");
        if (invocation != null && invocation.op().type() != OpType.INVOKE) {
            throw new IllegalArgumentException("invocation must be an invoke, got " + invocation.op().type());
        }
        if (!completion.op().type().isCompletion()) {
            throw new IllegalArgumentException("completion must be ok, fail or info, got invoke");
        }
        if (invocation != null && (!invocation.source().equals(completion.source())
                || invocation.op().process() != completion.op().process())) {
            throw new IllegalArgumentException("invocation (agent " + invocation.source() + ", process "
                    + invocation.op().process() + ") and completion (agent " + completion.source() + ", process "
                    + completion.op().process() + ") belong to different processes");
        }
    }

    /** The recording agent. */
    public String source() {
        return completion.source();
    }

    /** The client process. */
    public long process() {
        return completion.op().process();
    }

    /** ok, fail or info. */
    public OpType outcome() {
        return completion.op().type();
    }

    /**
     * Pairs the events fed to the checker: each completion with the last invocation of its (agent, process),
     * or with none when it was released alone.
     */
    public static List<CompletedTxn> pairs(List<HistoryEvent> events) {
        Map<String, HistoryEvent> open = new HashMap<>();
        List<CompletedTxn> out = new ArrayList<>();
        for (HistoryEvent e : events) {
            String process = e.source() + "/" + e.op().process();
            if (e.op().type() == OpType.INVOKE) {
                HistoryEvent before = open.put(process, e);
                if (before != null) {
                    throw new AssertionError("the checker was fed two invocations of " + process + " in a row: "
                            + before.sequence() + " and " + e.sequence());
                }
            } else {
                out.add(new CompletedTxn(open.remove(process), e));
            }
        }
        return out;
    }
}
