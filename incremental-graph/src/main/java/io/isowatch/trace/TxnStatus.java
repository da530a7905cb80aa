package io.isowatch.trace;

/** What a trace needs to know of a transaction's outcome. */
public interface TxnStatus {

    /** Invoked, not yet complete. */
    boolean pending(int txn);

    /** Completed ok or info: it may have taken effect, so it takes part in the graph. */
    boolean possible(int txn);

    /** Completed ok. */
    boolean committed(int txn);

    /** Completed fail: it definitely did not take effect. */
    boolean failed(int txn);
}
