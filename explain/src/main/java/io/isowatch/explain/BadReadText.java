package io.isowatch.explain;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;

import java.util.List;
import java.util.OptionalLong;

/** The sentences for {@link Finding.BadRead}: G1a, G1b, future-read and garbage-read. */
final class BadReadText {

    private BadReadText() {
    }

    static String render(Finding.BadRead f, Binding b, AtomTable atoms, Notation n) {
        MicroOp.Read r = FindingText.read(f.reader().completion(), f.mopIndex());
        boolean reg = n == Notation.RW_REGISTER;
        String reader = b.name(f.reader());
        String writer = f.writer() == null ? "a transaction that" : b.name(f.writer()) + ", which";
        String k = atoms.render(r.key());
        String e = atoms.render(f.element());
        String lead = reader + (reg ? " read register " : " read key ") + k + " = " + OpText.readValue(r.values(), atoms, n, OpText.EXPLAINED);
        AnomalyType t = f.type();
        if (t == AnomalyType.G1A) {
            String outcome = f.writer() == null ? "aborted (:fail)"
                    : FindingText.outcome(f.writer().completion().type());
            return lead + ", but " + (reg ? e + " was written by " : "element " + e + " was appended by ")
                    + writer + " " + outcome;
        }
        if (t == AnomalyType.G1B) {
            String w = f.writer() == null ? "another transaction" : b.name(f.writer());
            OptionalLong later = f.writer() == null ? OptionalLong.empty()
                    : laterWrite(f.writer().completion().value(), r.key(), f.element());
            String then;
            if (later.isEmpty()) {
                then = reg ? "before writing register " + k + " again" : "before appending to key " + k + " again";
            } else {
                String v = atoms.render(later.getAsLong());
                then = reg ? "before overwriting it with " + v : "before also appending " + v;
            }
            return lead + (reg ? ", which " + w + " wrote to register " + k + " "
                    : ", ending in element " + e + ", which " + w + " appended to key " + k + " ")
                    + then + ": " + reader + " saw an intermediate state of " + w
                    + ", not the state " + w + " committed";
        }
        if (t == AnomalyType.FUTURE_READ) {
            return lead + (reg ? ", but " + reader + " itself writes " + e + " to register " + k
                    : ", but element " + e + " is appended by " + reader + " itself")
                    + " only later in the same transaction: it read its own future write";
        }
        if (t == AnomalyType.GARBAGE_READ) {
            return lead + (reg ? ", a value no transaction ever wrote"
                    : ", but that includes element " + e + " of key " + k + ", which no transaction ever appended");
        }
        return lead + ", and its " + (reg ? "value " : "element ") + e + " is evidence of " + t.elleName();
    }

    static String title(Finding.BadRead f, Binding b, boolean reg) {
        String reader = b.name(f.reader());
        String writer = f.writer() == null ? "another transaction" : b.name(f.writer());
        String thing = reg ? "a value" : "an element";
        AnomalyType t = f.type();
        if (t == AnomalyType.G1A) {
            return reader + " read " + thing + (reg ? " written by " : " appended by ") + writer + ", which aborted";
        }
        if (t == AnomalyType.G1B) {
            return reader + " read an intermediate " + (reg ? "value written by " : "element appended by ") + writer;
        }
        if (t == AnomalyType.FUTURE_READ) {
            return reader + " read " + thing + (reg ? " it writes" : " it appends") + " only later";
        }
        if (t == AnomalyType.GARBAGE_READ) {
            return reader + " read " + thing + (reg ? " no transaction wrote" : " no transaction appended");
        }
        return reader + " read " + thing;
    }

    /** The last value the writer put into {@code key} after {@code element}, if any. */
    private static OptionalLong laterWrite(List<MicroOp> mops, long key, long element) {
        boolean seen = false;
        OptionalLong last = OptionalLong.empty();
        for (MicroOp m : mops) {
            long v;
            if (m instanceof MicroOp.Append a && a.key() == key) {
                v = a.value();
            } else if (m instanceof MicroOp.Write w && w.key() == key) {
                v = w.value();
            } else {
                continue;
            }
            if (seen) {
                last = OptionalLong.of(v);
            } else if (v == element) {
                seen = true;
            }
        }
        return last;
    }
}
