package io.isowatch.localkafka;

import io.isowatch.testkit.ListeningSockets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The in-JVM broker listens on one address only, the controller too (the test kit binds that one
 * to every interface unless told otherwise), and serves there.
 */
class InJvmKafkaBindTest {

    @Test
    void byDefault_brokerAndControllerListenOn127001Only() {
        Set<ListeningSockets.Listener> before = ListeningSockets.ofThisProcess();
        try (InJvmKafka kafka = InJvmKafka.startDedicated()) {
            Set<ListeningSockets.Listener> opened = opened(before);
            assertEquals(2, opened.size(), "the broker's and the controller's listener: " + opened);
            for (ListeningSockets.Listener l : opened) {
                assertEquals("127.0.0.1", l.address().getHostAddress(), "listening beyond loopback: " + l + " of " + opened + ", bootstrap " + kafka.bootstrapServers());
            }
            assertTrue(kafka.bootstrapServers().startsWith("127.0.0.1:"), kafka.bootstrapServers());
            assertServes(kafka);
        }
    }

    @Test
    void givenAnAddress_listensAndAdvertisesThatOne() throws Exception {
        InetAddress other = InetAddress.getByName("127.0.0.2"); // loopback too, on Linux
        Set<ListeningSockets.Listener> before = ListeningSockets.ofThisProcess();
        try (InJvmKafka kafka = InJvmKafka.startDedicated(other)) {
            Set<ListeningSockets.Listener> opened = opened(before);
            assertEquals(2, opened.size(), opened.toString());
            for (ListeningSockets.Listener l : opened) {
                assertEquals(other, l.address(), l.toString());
            }
            assertTrue(kafka.bootstrapServers().startsWith("127.0.0.2:"), kafka.bootstrapServers());
            assertServes(kafka);
        }
    }

    private static Set<ListeningSockets.Listener> opened(Set<ListeningSockets.Listener> before) {
        Set<ListeningSockets.Listener> now = new HashSet<>(ListeningSockets.ofThisProcess());
        now.removeAll(before);
        return now;
    }

    private static void assertServes(InJvmKafka kafka) {
        kafka.createTopic("t", 1);
        kafka.send(List.of(new ProducerRecord<>("t", "k".getBytes(StandardCharsets.UTF_8),
                "v".getBytes(StandardCharsets.UTF_8))));
        List<ConsumerRecord<byte[], byte[]>> read = kafka.readTopic("t", r -> !r.isEmpty(), Duration.ofSeconds(30));
        assertEquals(1, read.size());
    }
}
