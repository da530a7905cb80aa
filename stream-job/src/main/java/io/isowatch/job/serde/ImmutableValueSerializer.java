package io.isowatch.job.serde;

import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Base of the stateless serializers of the job's immutable records: a copy is the value itself
 * and there is nothing to reuse, so subclasses write only the layout ({@code serialize},
 * {@code deserialize}), the length and the snapshot.
 */
abstract class ImmutableValueSerializer<T> extends TypeSerializerSingleton<T> {

    private static final long serialVersionUID = 1L;

    @Override
    public final boolean isImmutableType() {
        return true;
    }

    @Override
    public final T copy(T from) {
        return from;
    }

    @Override
    public final T copy(T from, T reuse) {
        return from;
    }

    @Override
    public final T deserialize(T reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    /** Re-encodes the value; a fixed-length layout may copy the bytes instead. */
    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }
}
