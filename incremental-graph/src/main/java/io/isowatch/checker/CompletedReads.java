package io.isowatch.checker;

import io.isowatch.history.MicroOp;
import io.isowatch.history.MicroOpList;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.List;

/**
 * What a list-append read of {@code nil} means once a transaction has committed.
 *
 * <p>Jepsen writes {@code [:r k nil]} in an invocation, where nil means "not known yet", and in
 * the {@code :ok} completion of a read that found nothing, where it is the value read: the
 * key's initial state. Elle's list-append files such a read under the initial state
 * ({@code read-index}: {@code (or (peek v) ::init)}), never adds it to a key's observed values
 * ({@code sorted-values} skips nil and {@code []} alike), and checks it against the
 * transaction's own appends as the empty list ({@code op-int-case}: {@code (or nil [])}). So an
 * {@code :ok} completion's nil read is the empty list here. (An rw-register read of nil needs no
 * rewriting: it already stands for the register's initial value.)
 *
 * <p>An {@code :info} completion's nil stays unknown: Elle's {@code read-index} skips
 * {@code :info} reads of nil, "because those nils denote the default read value, NOT that we
 * actually observed nil". {@code :fail} reads are not used at all. See docs/elle-compatibility.md.
 */
final class CompletedReads {

    private static final long[] EMPTY = new long[0];

    private CompletedReads() {
    }

    /**
     * The completion with each nil read of an {@code :ok} completion made the empty read; the op
     * itself when there is nothing to change (no allocation then).
     */
    static Op resolve(Op completion) {
        if (completion.type() != OpType.OK) {
            return completion;
        }
        List<MicroOp> mops = completion.value();
        if (!MicroOpList.hasUnknownRead(mops)) {
            return completion;
        }
        int first = firstNilRead(mops); // there is one: the list says so
        List<MicroOp> resolved = new ArrayList<>(mops.size());
        for (int i = 0; i < mops.size(); i++) {
            MicroOp m = mops.get(i);
            resolved.add(i >= first && m instanceof MicroOp.Read r && !r.known() ? new MicroOp.Read(r.key(), EMPTY) : m);
        }
        return new Op(completion.index(), completion.time(), completion.type(), completion.process(), resolved,
                completion.sourceLine());
    }

    private static int firstNilRead(List<MicroOp> mops) {
        for (int i = 0; i < mops.size(); i++) {
            if (mops.get(i) instanceof MicroOp.Read r && !r.known()) {
                return i;
            }
        }
        return -1;
    }
}
