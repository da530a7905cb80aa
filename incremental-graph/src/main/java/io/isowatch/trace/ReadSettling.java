package io.isowatch.trace;

import org.roaringbitmap.longlong.Roaring64Bitmap;

/**
 * Whether a read can be judged garbage when it completes, rather than when the history ends
 * (decision 0016, amending 0009). Shared by all of one checker's traces.
 *
 * <p>Elle calls an element read garbage when no operation of the whole history appends it, so
 * in general the judgement waits for the end: a later event could still claim the element. A
 * history whose producer keeps the <em>agent protocol</em> rules that out at the read's
 * completion: every invocation is recorded, with the values it will write, before its
 * operation starts, and the history is fed in the order it was recorded. A writer whose value a
 * read returned started before the read returned, so its invocation came before the read's
 * completion and has been seen. An element no invocation seen so far claims was written by
 * nobody.
 *
 * <p>That holds for a key only while the checker knows every claim made on it since the
 * history began. The checker must have seen the history from its first event with nothing
 * skipped ({@link #live}); and an eviction may forget claims: a key whose trace was dropped
 * whole ({@link #dropped}) starts again knowing none of its earlier claims, and a register
 * trace that forgot a version's writer keeps no record of the value. Those keys wait for the
 * end, as every key does without the protocol.
 *
 * <p>Memory: the dropped keys, as a compressed bitmap; a workload that retires keys in order
 * (Elle's, the agent's) drops runs of consecutive keys, which cost a few bytes per run.
 */
public final class ReadSettling {

    private boolean live;
    /** Made on the first key dropped under the protocol: a checker that never follows it allocates none. */
    private Roaring64Bitmap droppedKeys;

    /** Settling never happens before the end: decision 0009's rule, for histories nobody vouches for. */
    public static ReadSettling atTheEnd() {
        return new ReadSettling();
    }

    /** Reads are judged at completion under the agent protocol, from the first event on. */
    public void followAgentProtocol() {
        live = true;
    }

    /**
     * Reads are judged at completion under the agent protocol by a checker that sees the history
     * from a cut (rebuilt after a restore, or with a fresh string table), except reads of the keys
     * in {@code touchedBefore}: a key touched before the cut may hold claims this checker never
     * saw, so it waits for the end, as a dropped key does. A key first touched after the cut has
     * every claim in what the checker is fed.
     */
    public void followFromCut(Roaring64Bitmap touchedBefore) {
        live = true;
        droppedKeys = touchedBefore.clone();
    }

    /**
     * The history as fed no longer keeps the protocol (an event was skipped, or a completion
     * came without its invocation): from now on reads wait for the end again. What was already
     * judged stays judged: it rested on a prefix that kept the protocol.
     */
    public void stop() {
        live = false;
    }

    /** Whether reads completing now are judged now (for keys whose claims are all known). */
    public boolean live() {
        return live;
    }

    /** Records that an eviction dropped {@code key}'s trace with every claim it knew. */
    public void dropped(long key) {
        if (live) {
            if (droppedKeys == null) {
                droppedKeys = new Roaring64Bitmap();
            }
            droppedKeys.addLong(key);
        }
    }

    /** Whether a trace made now for {@code key} would know every claim ever made on it. */
    public boolean knowsEveryClaimOf(long key) {
        return droppedKeys == null || !droppedKeys.contains(key);
    }
}
