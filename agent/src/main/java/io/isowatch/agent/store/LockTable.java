package io.isowatch.agent.store;

/**
 * Exclusive per-key write locks held until a transaction ends (read-committed and
 * read-uncommitted), with deadlock detection: a transaction about to wait follows the chain of
 * lock holders and the locks they wait for; if the chain leads back to itself, waiting would
 * close a cycle, so it aborts instead ({@link AbortReason#DEADLOCK}). Every wait edge is added
 * by its waiter after such a check, under the table's monitor, so no cycle can form unseen.
 *
 * <p>One monitor guards the whole table: lock operations are a few field writes, and only
 * writes at these two levels use it. A release wakes every waiter, which rechecks its key.
 */
final class LockTable {

    /**
     * Takes {@code cell}'s write lock for {@code txn}, waiting while another transaction holds it.
     *
     * @return true when newly taken, false when {@code txn} already held it
     * @throws TransactionAbortedException when waiting would deadlock, or the thread is interrupted
     */
    synchronized boolean lock(Cell cell, StoreTransaction txn) {
        if (cell.writer == txn) {
            return false;
        }
        while (cell.writer != null) {
            if (leadsBackTo(cell.writer, txn)) {
                throw new TransactionAbortedException(AbortReason.DEADLOCK, "transaction " + txn.id()
                        + " would deadlock waiting for transaction " + cell.writer.id() + "'s write lock");
            }
            txn.waitingFor = cell;
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransactionAbortedException(AbortReason.DEADLOCK, "transaction " + txn.id()
                        + " was interrupted while waiting for a write lock");
            } finally {
                txn.waitingFor = null;
            }
        }
        cell.writer = txn;
        return true;
    }

    /** Releases {@code txn}'s lock on {@code cell} and drops its uncommitted value there, if any. */
    synchronized void unlock(Cell cell, StoreTransaction txn) {
        if (cell.writer == txn) {
            cell.dirty = null;
            cell.writer = null;
            notifyAll();
        }
    }

    /** Whether following holder → awaited lock → holder ... from {@code holder} reaches {@code txn}. */
    private static boolean leadsBackTo(StoreTransaction holder, StoreTransaction txn) {
        StoreTransaction t = holder;
        // A chain of waits visits each transaction at most once unless it is already a cycle;
        // existing cycles cannot exist (each was refused when it would have formed).
        while (t != null) {
            if (t == txn) {
                return true;
            }
            Cell awaited = t.waitingFor;
            t = awaited == null ? null : awaited.writer;
        }
        return false;
    }
}
