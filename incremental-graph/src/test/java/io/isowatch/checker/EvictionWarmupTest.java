package io.isowatch.checker;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

class EvictionWarmupTest {

    // The warm-up is worth its CPU only if its checker really forgets, many times, and it must
    // never alarm: its history is serial, so a finding would be the checker's fault.

    @Test
    void listAppend_forgetsAllButTheWindow_andFindsNothing() {
        long forgotten = EvictionWarmup.run(Workload.LIST_APPEND);
        assertTrue(forgotten >= EvictionWarmup.TRANSACTIONS - 3L * EvictionWarmup.WINDOW,
                "forgot only " + forgotten + " of " + EvictionWarmup.TRANSACTIONS);
    }

    @Test
    void rwRegister_forgetsAllButTheWindow_andFindsNothing() {
        long forgotten = EvictionWarmup.run(Workload.RW_REGISTER);
        assertTrue(forgotten >= EvictionWarmup.TRANSACTIONS - 3L * EvictionWarmup.WINDOW,
                "forgot only " + forgotten + " of " + EvictionWarmup.TRANSACTIONS);
    }
}
