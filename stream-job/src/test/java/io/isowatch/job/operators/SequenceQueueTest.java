package io.isowatch.job.operators;

import io.isowatch.history.HistoryEvent;
import io.isowatch.job.Events;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The waiting queue against the sorted map it replaced, under the shapes a history's sequences
 * take: runs added in order and taken from the head, stragglers a little out of order, and rare
 * jumps far beyond what the ring spans.
 */
class SequenceQueueTest {

    private static HistoryEvent event(long sequence) {
        return Events.ok("agent", sequence, 1, sequence + 1);
    }

    @Test
    void randomOperations_answerAsATreeMapDoes() {
        for (long seed = 1; seed <= 20; seed++) {
            Random random = new Random(seed);
            SequenceQueue queue = new SequenceQueue();
            TreeMap<Long, HistoryEvent> reference = new TreeMap<>();
            long cursor = random.nextInt(1000);
            for (int step = 0; step < 20_000; step++) {
                int op = random.nextInt(100);
                if (op < 45) {
                    long s = cursor++;
                    addBoth(queue, reference, s);
                } else if (op < 60) {
                    addBoth(queue, reference, cursor + random.nextInt(200));
                } else if (op < 61) {
                    // A numbering that jumped far, either way: beyond what the ring spans.
                    long far = random.nextBoolean() ? cursor + SequenceQueue.MAX_SLOTS + random.nextInt(1000)
                            : Math.max(0, cursor - SequenceQueue.MAX_SLOTS - random.nextInt(1000));
                    addBoth(queue, reference, far);
                } else if (op < 80) {
                    Map.Entry<Long, HistoryEvent> head = reference.pollFirstEntry();
                    assertSame(head == null ? null : head.getValue(), queue.pollFirst(), "seed " + seed);
                } else if (op < 95) {
                    long s = reference.isEmpty() ? cursor : reference.firstKey() + random.nextInt(50);
                    assertSame(reference.remove(s), queue.remove(s), "seed " + seed + ", remove " + s);
                } else {
                    long s = cursor - random.nextInt(300);
                    assertEquals(reference.containsKey(s), queue.contains(s), "seed " + seed + ", contains " + s);
                }
                assertEquals(reference.size(), queue.size());
                assertSame(reference.isEmpty() ? null : reference.firstEntry().getValue(), queue.first());
                if (step % 500 == 0) {
                    assertEquals(new ArrayList<>(reference.values()), queue.inOrder(), "seed " + seed);
                }
            }
            assertEquals(new ArrayList<>(reference.values()), queue.inOrder(), "seed " + seed);
        }
    }

    private static void addBoth(SequenceQueue queue, TreeMap<Long, HistoryEvent> reference, long s) {
        if (!reference.containsKey(s)) { // the operator drops a copy of a waiting event before adding
            HistoryEvent e = event(s);
            reference.put(s, e);
            queue.add(e);
        }
    }

    @Test
    void aBacklogLargerThanTheFirstRing_comesOutInOrder_andTheQueueIsReusable() {
        SequenceQueue queue = new SequenceQueue();
        for (long s = 0; s < 300_000; s++) {
            queue.add(event(s));
        }
        assertEquals(300_000, queue.size());
        for (long s = 0; s < 300_000; s++) {
            assertEquals(s, queue.pollFirst().sequence());
        }
        assertNull(queue.pollFirst());
        queue.add(event(300_005));
        queue.add(event(300_001));
        assertEquals(List.of(300_001L, 300_005L), queue.inOrder().stream().map(HistoryEvent::sequence).toList());
    }

    @Test
    void aSequenceBeyondTheRingsSpan_waitsApart_andStillComesInOrder() {
        SequenceQueue queue = new SequenceQueue();
        for (long s = 10; s < 20; s++) {
            queue.add(event(s));
        }
        long far = 20 + 2L * SequenceQueue.MAX_SLOTS;
        queue.add(event(far));
        queue.add(event(5));
        assertEquals(12, queue.size());
        assertEquals(5, queue.first().sequence());
        List<Long> order = new ArrayList<>();
        for (HistoryEvent e = queue.pollFirst(); e != null; e = queue.pollFirst()) {
            order.add(e.sequence());
        }
        List<Long> expected = new ArrayList<>(List.of(5L));
        for (long s = 10; s < 20; s++) {
            expected.add(s);
        }
        expected.add(far);
        assertEquals(expected, order);
    }
}
