package io.isowatch.agent.transport;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.Op;
import io.isowatch.history.codec.BinaryEventCodec;
import io.isowatch.history.codec.HistoryReader;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** One consumed record taken apart: its identity from the headers and its op from the value, binary or JSON. */
record Shipped(String agent, long seq, String key, int partition, byte[] value, Op op) {

    /** The (agent, seq) identity. */
    String identity() {
        return agent + "/" + seq;
    }

    /**
     * Parses a record, checking that headers and value agree on the identity: a binary value
     * through the spool's codec, a JSON value through isowatch's own {@link HistoryReader} (which
     * must ignore the agent and seq fields).
     */
    static Shipped of(ConsumerRecord<byte[], byte[]> record) {
        String agent = header(record, KafkaShipper.AGENT_HEADER);
        long seq = Long.parseLong(header(record, KafkaShipper.SEQ_HEADER));
        String key = new String(record.key(), StandardCharsets.UTF_8);
        if (BinaryEventCodec.startsWithMagic(record.value())) {
            HistoryEvent event = new BinaryEventCodec(new AtomTable()).decode(record.value());
            assertEquals(agent + "/" + seq, event.source() + "/" + event.sequence(), "identity in headers and value");
            Op op = event.op();
            return new Shipped(agent, seq, key, record.partition(), record.value(),
                    new Op(op.index(), op.time(), op.type(), op.process(), op.value()));
        }
        String json = new String(record.value(), StandardCharsets.UTF_8);
        assertEquals(true, json.endsWith(",\"agent\":\"" + agent + "\",\"seq\":" + seq + "}"), json);
        Op op;
        try (HistoryReader reader = HistoryReader.open("record.jsonl",
                new ByteArrayInputStream(record.value()), new AtomTable())) {
            op = reader.next();
        }
        Op plain = new Op(op.index(), op.time(), op.type(), op.process(), op.value());
        return new Shipped(agent, seq, key, record.partition(), record.value(), plain);
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header h = record.headers().lastHeader(name);
        assertNotNull(h, "header " + name);
        return new String(h.value(), StandardCharsets.UTF_8);
    }

    static List<Shipped> all(List<ConsumerRecord<byte[], byte[]>> records) {
        List<Shipped> out = new ArrayList<>(records.size());
        for (ConsumerRecord<byte[], byte[]> r : records) {
            out.add(of(r));
        }
        return out;
    }

    /** A stop condition: every identity in {@code expected} has been seen. */
    static Predicate<List<ConsumerRecord<byte[], byte[]>>> covers(Set<String> expected) {
        return records -> {
            if (records.size() < expected.size()) {
                return false;
            }
            Set<String> seen = records.stream()
                    .map(r -> new String(r.headers().lastHeader(KafkaShipper.AGENT_HEADER).value(), StandardCharsets.UTF_8)
                            + "/" + new String(r.headers().lastHeader(KafkaShipper.SEQ_HEADER).value(), StandardCharsets.US_ASCII))
                    .collect(Collectors.toSet());
            return seen.containsAll(expected);
        };
    }

    /**
     * Keeps the first copy of each identity, asserting that every later copy is the same record
     * (same key, partition and value bytes).
     */
    static Map<String, Shipped> dedupe(List<Shipped> shipped) {
        Map<String, Shipped> first = new LinkedHashMap<>();
        for (Shipped s : shipped) {
            Shipped earlier = first.putIfAbsent(s.identity(), s);
            if (earlier != null) {
                assertEquals(earlier.key(), s.key(), "key of a duplicate of " + s.identity());
                assertEquals(earlier.partition(), s.partition(), "partition of a duplicate of " + s.identity());
                assertArrayEquals(earlier.value(), s.value(), "value of a duplicate of " + s.identity());
            }
        }
        return first;
    }

    /**
     * Asserts that each agent's records are keyed by the agent and lie in one partition, and that
     * their first copies come in sequence order: the history's order, which the job needs.
     */
    static void assertOrderedPerAgent(List<Shipped> shipped) {
        Map<String, Long> last = new LinkedHashMap<>();
        Set<String> seen = new java.util.HashSet<>();
        Map<String, Integer> partitionOf = new LinkedHashMap<>();
        for (Shipped s : shipped) {
            assertEquals(s.agent(), s.key(), "record key is the agent");
            Integer p = partitionOf.putIfAbsent(s.agent(), s.partition());
            assertEquals(p == null ? s.partition() : p, s.partition(), "one partition per agent: " + s.agent());
            if (!seen.add(s.identity())) {
                continue;
            }
            Long previous = last.put(s.agent(), s.seq());
            if (previous != null && previous > s.seq()) {
                throw new AssertionError(s.agent() + ": seq " + s.seq() + " after " + previous);
            }
        }
    }

    /** Asserts that the deduplicated records are exactly {@code expected}, by identity and content. */
    static void assertExactly(List<HistoryEvent> expected, Map<String, Shipped> deduped) {
        assertEquals(expected.size(), deduped.size(), "distinct identities");
        for (HistoryEvent e : expected) {
            Shipped s = deduped.get(e.source() + "/" + e.sequence());
            assertNotNull(s, "missing " + e.source() + "/" + e.sequence());
            assertEquals(e.op(), s.op(), "content of " + s.identity());
        }
    }

    /** The value of a counter or gauge in {@code registry}, by its exported name. */
    static double metric(PrometheusRegistry registry, String name) {
        String base = name.endsWith("_total") ? name.substring(0, name.length() - "_total".length()) : name;
        for (MetricSnapshot snapshot : registry.scrape()) {
            if (!snapshot.getMetadata().getPrometheusName().equals(base)) {
                continue;
            }
            if (snapshot instanceof CounterSnapshot c) {
                return c.getDataPoints().get(0).getValue();
            }
            if (snapshot instanceof GaugeSnapshot g) {
                return g.getDataPoints().get(0).getValue();
            }
        }
        throw new AssertionError("no metric " + name + " in " + Arrays.toString(
                registry.scrape().stream().map(m -> m.getMetadata().getPrometheusName()).toArray()));
    }
}
