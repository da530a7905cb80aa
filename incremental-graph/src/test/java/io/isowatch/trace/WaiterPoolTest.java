package io.isowatch.trace;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WaiterPoolTest {

    @Test
    void release_reusesEveryReleasedEntry_andLeavesOtherListsIntact() {
        WaiterPool pool = new WaiterPool();
        int a = push(pool, WaiterPool.END, 0, 3);
        int b = push(pool, WaiterPool.END, 10, 3);
        int d = push(pool, WaiterPool.END, 30, 2);
        List<Integer> released = new ArrayList<>(entries(pool, a));
        released.addAll(entries(pool, d));
        pool.release(a);
        pool.release(d);
        pool.release(WaiterPool.END);
        int c = push(pool, WaiterPool.END, 20, 5);
        assertEquals(List.of(12, 11, 10), txns(pool, b));
        assertEquals(List.of(24, 23, 22, 21, 20), txns(pool, c));
        List<Integer> reused = entries(pool, c);
        reused.sort(null);
        released.sort(null);
        assertEquals(released, reused, "c took the entries a and d gave back");
    }

    private static int push(WaiterPool pool, int head, int firstTxn, int count) {
        for (int i = 0; i < count; i++) {
            head = pool.push(head, firstTxn + i, (byte) 0);
        }
        return head;
    }

    private static List<Integer> txns(WaiterPool pool, int head) {
        List<Integer> out = new ArrayList<>();
        for (int e = head; e != WaiterPool.END; e = pool.next(e)) {
            out.add(pool.txn(e));
        }
        return out;
    }

    private static List<Integer> entries(WaiterPool pool, int head) {
        List<Integer> out = new ArrayList<>();
        for (int e = head; e != WaiterPool.END; e = pool.next(e)) {
            out.add(e);
        }
        return out;
    }
}
