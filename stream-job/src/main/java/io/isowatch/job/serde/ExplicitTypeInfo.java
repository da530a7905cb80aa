package io.isowatch.job.serde;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

import java.util.Objects;

/**
 * Type information that hands Flink a serializer of our own, so a type never falls back to Kryo
 * (the job runs with {@code pipeline.generic-types: false}, which would fail on it at once).
 * Opaque to Flink: not a key type, not a tuple, no fields.
 *
 * @param <T> the type described
 */
public final class ExplicitTypeInfo<T> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> type;
    private final TypeSerializer<T> serializer;

    public ExplicitTypeInfo(Class<T> type, TypeSerializer<T> serializer) {
        this.type = Objects.requireNonNull(type, "type");
        this.serializer = Objects.requireNonNull(serializer, "serializer");
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<T> getTypeClass() {
        return type;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer.duplicate();
    }

    @Override
    public String toString() {
        return "ExplicitTypeInfo<" + type.getSimpleName() + ">";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof ExplicitTypeInfo<?> that && that.canEqual(this) && that.type == type
                && that.serializer.equals(serializer);
    }

    @Override
    public int hashCode() {
        return type.hashCode() * 31 + serializer.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof ExplicitTypeInfo;
    }
}
