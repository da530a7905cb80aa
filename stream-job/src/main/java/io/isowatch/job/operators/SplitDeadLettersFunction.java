package io.isowatch.job.operators;

import io.isowatch.history.HistoryEvent;
import io.isowatch.job.DeadLetter;
import io.isowatch.job.serde.JobTypes;

import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.apache.flink.types.Either;

/**
 * Routes the source's output: decoded events go on, dead letters of malformed records go to
 * {@link #DEAD_LETTERS}. A source cannot emit side outputs itself; chained to the source, this
 * costs no serialization.
 */
public final class SplitDeadLettersFunction extends ProcessFunction<Either<DeadLetter, HistoryEvent>, HistoryEvent> {

    private static final long serialVersionUID = 1L;

    /** Malformed records, as the decoder reported them. */
    public static final OutputTag<DeadLetter> DEAD_LETTERS = new OutputTag<>("malformed-records", JobTypes.DEAD_LETTER);

    @Override
    public void processElement(Either<DeadLetter, HistoryEvent> value, Context ctx, Collector<HistoryEvent> out) {
        if (value.isRight()) {
            out.collect(value.right());
        } else {
            ctx.output(DEAD_LETTERS, value.left());
        }
    }
}
