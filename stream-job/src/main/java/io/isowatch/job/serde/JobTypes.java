package io.isowatch.job.serde;

import io.isowatch.history.HistoryEvent;
import io.isowatch.job.DeadLetter;
import io.isowatch.job.HistoryVerdict;
import io.isowatch.job.operators.ProcessProgress;
import io.isowatch.sinks.Alert;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.EitherTypeInfo;
import org.apache.flink.types.Either;

/** The type information of every stream and state value of the job, all explicit. */
public final class JobTypes {

    public static final TypeInformation<HistoryEvent> HISTORY_EVENT =
            new ExplicitTypeInfo<>(HistoryEvent.class, new HistoryEventSerializer());
    public static final TypeInformation<Alert> ALERT =
            new ExplicitTypeInfo<>(Alert.class, AlertSerializer.INSTANCE);
    public static final TypeInformation<DeadLetter> DEAD_LETTER =
            new ExplicitTypeInfo<>(DeadLetter.class, DeadLetterSerializer.INSTANCE);
    public static final TypeInformation<ProcessProgress> PROCESS_PROGRESS =
            new ExplicitTypeInfo<>(ProcessProgress.class, ProcessProgressSerializer.INSTANCE);
    public static final TypeInformation<HistoryVerdict> HISTORY_VERDICT =
            new ExplicitTypeInfo<>(HistoryVerdict.class, HistoryVerdictSerializer.INSTANCE);
    /** What the source emits: a decoded event, or the dead letter of a record that was not one. */
    public static final TypeInformation<Either<DeadLetter, HistoryEvent>> DECODED =
            new EitherTypeInfo<>(DEAD_LETTER, HISTORY_EVENT);

    private JobTypes() {
    }
}
