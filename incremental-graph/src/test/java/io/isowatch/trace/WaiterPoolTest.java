package io.isowatch.trace;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WaiterPoolTest {

    @Test
    void release_reusesEntries_andLeavesOtherListsIntact() {
        WaiterPool pool = new WaiterPool();
        int a = WaiterPool.END;
        int b = WaiterPool.END;
        for (int i = 0; i < 3; i++) {
            a = pool.push(a, i, (byte) 0);
            b = pool.push(b, 10 + i, (byte) 1);
        }
        List<Integer> released = entries(pool, a);
        pool.release(a);
        int c = WaiterPool.END;
        for (int i = 0; i < 3; i++) {
            c = pool.push(c, 20 + i, (byte) 1);
        }
        assertEquals(List.of(12, 11, 10), txns(pool, b));
        assertEquals(List.of(22, 21, 20), txns(pool, c));
        List<Integer> reused = entries(pool, c);
        reused.sort(null);
        released.sort(null);
        assertEquals(released, reused, "c took the entries a gave back");
        pool.release(WaiterPool.END);
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
