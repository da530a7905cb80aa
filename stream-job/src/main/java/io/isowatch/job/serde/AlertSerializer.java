package io.isowatch.job.serde;

import io.isowatch.sinks.Alert;
import io.isowatch.sinks.Release;

import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.java.typeutils.runtime.DataInputViewStream;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataInputViewStreamWrapper;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Flink serializer of {@link Alert}. Layout, version {@value #VERSION}: a zero byte and the version
 * byte; id, history, type, title as Flink strings; the model count (int) and each model;
 * detected-at and detection delay (longs); explanation and finding JSON; whether it was released
 * at the end of its history (boolean) and the reason (string, empty when live); the agent count
 * (int) and each agent. Version 2 ended before the agents and is still read (no agents).
 *
 * <p>The first layout had no version: it began with the id, whose Flink string length is written
 * plus one, so its first byte is never zero. A leading zero therefore marks a versioned layout,
 * and anything else is read as the first layout (a live alert), so alerts an older job wrote (in
 * flight in an unaligned checkpoint, say) still restore. An unknown version is refused by number.
 */
public final class AlertSerializer extends ImmutableValueSerializer<Alert> {

    private static final long serialVersionUID = 1L;

    /** The layout written; see the class comment. */
    static final int VERSION = 3;
    /** The first byte of a versioned layout, never the first byte of the unversioned one. */
    private static final int VERSIONED = 0;

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
        out.writeByte(VERSIONED);
        out.writeByte(VERSION);
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
        out.writeBoolean(a.releasedAtEnd());
        StringValue.writeString(a.release().reason(), out);
        out.writeInt(a.agents().size());
        for (String agent : a.agents()) {
            StringValue.writeString(agent, out);
        }
    }

    @Override
    public Alert deserialize(DataInputView in) throws IOException {
        int first = in.readUnsignedByte();
        if (first != VERSIONED) {
            // The unversioned first layout: that byte began the id; read it again from there.
            return read(withFirstByte(first, in), false);
        }
        int version = in.readUnsignedByte();
        if (version != 2 && version != VERSION) {
            throw new IOException("alert layout version " + version + " in state or on the network; this job reads "
                    + "versions 1 (unversioned), 2 and " + VERSION + ": restore it with the job that wrote it");
        }
        return read(in, true, version >= 3);
    }

    private static Alert read(DataInputView in, boolean withRelease) throws IOException {
        return read(in, withRelease, false);
    }

    private static Alert read(DataInputView in, boolean withRelease, boolean withAgents) throws IOException {
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
        String explanation = StringValue.readString(in);
        String findingJson = StringValue.readString(in);
        Release release = Release.LIVE;
        if (withRelease) {
            boolean atEnd = in.readBoolean();
            String reason = StringValue.readString(in);
            release = atEnd ? new Release(true, reason) : Release.LIVE;
        }
        List<String> agents = new ArrayList<>();
        if (withAgents) {
            int a = in.readInt();
            if (a < 0) {
                throw new IOException("alert " + id + ": negative agent count " + a + " in state or on the network");
            }
            for (int i = 0; i < a; i++) {
                agents.add(StringValue.readString(in));
            }
        }
        return new Alert(id, history, type, title, models, detectedAt, delay, explanation, findingJson, release,
                agents);
    }

    /** {@code in} with the byte already read from it put back in front. */
    private static DataInputView withFirstByte(int first, DataInputView in) {
        return new DataInputViewStreamWrapper(new SequenceInputStream(
                new ByteArrayInputStream(new byte[] {(byte) first}), new DataInputViewStream(in)));
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
