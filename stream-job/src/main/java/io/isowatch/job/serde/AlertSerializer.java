package io.isowatch.job.serde;

import io.isowatch.sinks.Alert;

import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Flink serializer of {@link Alert}. Layout: id, history, type, title as Flink strings; the model count
 * (int) and each model; detected-at and detection delay (longs); explanation and finding JSON.
 */
public final class AlertSerializer extends ImmutableValueSerializer<Alert> {

    private static final long serialVersionUID = 1L;

    /** The one instance; the serializer is stateless. */
    public static final AlertSerializer INSTANCE = new AlertSerializer();

    @Override
    public Alert createInstance() {
        return null;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(Alert a, DataOutputView out) throws IOException {
        StringValue.writeString(a.id(), out);
        StringValue.writeString(a.history(), out);
        StringValue.writeString(a.type(), out);
        StringValue.writeString(a.title(), out);
        out.writeInt(a.models().size());
        for (String m : a.models()) {
            StringValue.writeString(m, out);
        }
        out.writeLong(a.detectedAtMillis());
        out.writeLong(a.detectionDelayMillis());
        StringValue.writeString(a.explanation(), out);
        StringValue.writeString(a.findingJson(), out);
    }

    @Override
    public Alert deserialize(DataInputView in) throws IOException {
        String id = StringValue.readString(in);
        String history = StringValue.readString(in);
        String type = StringValue.readString(in);
        String title = StringValue.readString(in);
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("alert " + id + ": negative model count " + n + " in state or on the network");
        }
        List<String> models = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            models.add(StringValue.readString(in));
        }
        long detectedAt = in.readLong();
        long delay = in.readLong();
        return new Alert(id, history, type, title, models, detectedAt, delay, StringValue.readString(in),
                StringValue.readString(in));
    }

    @Override
    public TypeSerializerSnapshot<Alert> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Snapshot of the stateless serializer. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<Alert> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
