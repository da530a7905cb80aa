package io.isowatch.job;

import io.isowatch.history.HistoryEvent;
import io.isowatch.history.OpType;

import java.util.Objects;

/**
 * One transaction of one process, its invocation paired with its completion (ok, fail or info);
 * the output of stage 1 and the unit the later stages check.
 *
 * @param invocation the invoke event
 * @param completion the ok, fail or info event of the same agent and process
 */
public record CompletedTxn(HistoryEvent invocation, HistoryEvent completion) {

    public CompletedTxn {
        Objects.requireNonNull(invocation, "invocation");
        Objects.requireNonNull(completion, "completion");
        if (invocation.op().type() != OpType.INVOKE) {
            throw new IllegalArgumentException("invocation must be an invoke, got " + invocation.op().type());
        }
        if (!completion.op().type().isCompletion()) {
            throw new IllegalArgumentException("completion must be ok, fail or info, got invoke");
        }
        if (!invocation.source().equals(completion.source()) || invocation.op().process() != completion.op().process()) {
            throw new IllegalArgumentException("invocation (agent " + invocation.source() + ", process "
                    + invocation.op().process() + ") and completion (agent " + completion.source() + ", process "
                    + completion.op().process() + ") belong to different processes");
        }
    }

    /** The recording agent. */
    public String source() {
        return invocation.source();
    }

    /** The client process. */
    public long process() {
        return invocation.op().process();
    }

    /** ok, fail or info. */
    public OpType outcome() {
        return completion.op().type();
    }
}
