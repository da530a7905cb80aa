package io.isowatch.anomaly;

import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.Workload;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConsistencyModelTest {

    @Test
    void alias_keepsItsSpelling_andHasElleCanonicalAndFriendlyNames() {
        ConsistencyModel m = ConsistencyModel.of("serializable");
        assertEquals("serializable", m.name());
        assertEquals("serializable", m.toString());
        assertEquals("PL-3", m.canonical());
        assertEquals("serializable", ConsistencyModel.of("PL-3").friendlyName());
        assertEquals("PL-SS", ConsistencyModel.STRICT_SERIALIZABLE.canonical());
        assertEquals("strong-serializable", ConsistencyModel.STRICT_SERIALIZABLE.friendlyName());
    }

    @Test
    void aliasAndCanonicalName_areTwoModels_asInElleModelSet() {
        assertNotEquals(ConsistencyModel.of("serializable"), ConsistencyModel.of("PL-3"));
        assertEquals(2, ConsistencyModel.ofNames(List.of("serializable", "PL-3", "serializable")).size());
    }

    @Test
    void unknownOrNullName_isRefused_namingTheValueAndTheKnownNames() {
        String message = assertThrows(IllegalArgumentException.class, () -> ConsistencyModel.of("bogus")).getMessage();
        assertTrue(message.startsWith("unknown consistency model \"bogus\"; known models"), message);
        assertTrue(message.contains("strict-serializable"), message);
        assertThrows(IllegalArgumentException.class, () -> new ConsistencyModel(null));
        assertThrows(IllegalArgumentException.class, () -> ConsistencyModel.ofNames(List.of("PL-2", "serialisable")));
    }

    @Test
    void checkerOptions_cannotHoldAModelElleDoesNotKnow() {
        // The record takes ConsistencyModels, so a bare string does not compile; the one way in
        // from text refuses the name before an options record exists.
        assertThrows(IllegalArgumentException.class,
                () -> CheckerOptions.defaults().toBuilder()
                        .consistencyModels(ConsistencyModel.ofNames(Set.of("bogus"))).build());
        assertEquals(Set.of(ConsistencyModel.STRICT_SERIALIZABLE), CheckerOptions.defaults().consistencyModels());
    }

    @Test
    void naturalOrder_andNames_areByName() {
        List<ConsistencyModel> models = new ArrayList<>(List.of(ConsistencyModel.of("serializable"),
                ConsistencyModel.of("PL-2"), ConsistencyModel.of("read-committed")));
        models.sort(null);
        assertEquals(List.of("PL-2", "read-committed", "serializable"), models.stream().map(ConsistencyModel::name).toList());
        assertEquals(List.of("PL-2", "read-committed", "serializable"), ConsistencyModel.names(Set.copyOf(models)));
    }

    @Test
    void checkerOptions_survivesJavaSerialization_equal() throws Exception {
        // The stream job ships the options inside a function, which Flink serializes this way.
        CheckerOptions options = CheckerOptions.defaults()
                .toBuilder().consistencyModels(ConsistencyModel.ofNames(Set.of("serializable", "PL-2",
                        "strict-serializable")))
                .anomalies(Set.of("G1a"))
                .workload(Workload.RW_REGISTER)
                .cycleSearchTimeoutMillis(250).build();
        assertEquals(options, deserialize(serialize(options)));
    }

    @Test
    void deserialization_refusesAModelElleDoesNotKnow() throws Exception {
        // A record is rebuilt through its constructor, so a stream naming an unknown model fails.
        byte[] bytes = serialize(ConsistencyModel.of("PL-2"));
        byte[] name = "PL-2".getBytes(StandardCharsets.UTF_8);
        int at = indexOf(bytes, name);
        assertTrue(at >= 0);
        bytes[at + 3] = '9';
        InvalidObjectException e = assertThrows(InvalidObjectException.class, () -> deserialize(bytes));
        assertTrue(e.getMessage().contains("\"PL-9\""), e.getMessage());
    }

    private static byte[] serialize(Object value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        return bytes.toByteArray();
    }

    private static Object deserialize(byte[] bytes) throws IOException, ClassNotFoundException {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return in.readObject();
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }
}
