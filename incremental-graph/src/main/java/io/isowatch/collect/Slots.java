package io.isowatch.collect;

/**
 * Hands out small numbers for things alive at the same time, reusing released ones: pending
 * transactions (about as many as there are clients) keep their data in slots so numbered, instead
 * of in a column with a cell for every transaction ever seen. The owner keeps the slots' data and
 * grows it when {@link #take} returns its length. Not thread-safe.
 */
public final class Slots {

    private final IntList free = new IntList();
    private int used;

    /** A slot no one holds: a released one if any, else the next new one. */
    public int take() {
        if (free.isEmpty()) {
            return used++;
        }
        int slot = free.get(free.size() - 1);
        free.swapRemove(free.size() - 1);
        return slot;
    }

    /** How many slots are held: taken and not released. */
    public int held() {
        return used - free.size();
    }

    /** Gives {@code slot} back for reuse. */
    public void release(int slot) {
        free.add(slot);
    }
}
