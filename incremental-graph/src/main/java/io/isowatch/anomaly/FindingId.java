package io.isowatch.anomaly;

import io.isowatch.history.AtomTable;
import io.isowatch.trace.TraceListener;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * A stable identity for a finding, so that whoever consumes alerts can drop repeats: the same
 * anomaly reported twice (after a job restart, or found again from another edge of the same
 * cycle) gets the same id, and different anomalies get different ids.
 *
 * <p>The id is the first {@value #BYTES} bytes of a SHA-256 digest, as lower-case hex
 * ({@value #HEX_LENGTH} characters), over a canonical encoding of what identifies the finding:
 * <ul>
 *   <li>the anomaly type's Elle name, always;</li>
 *   <li>the <em>history indices</em> of the transactions involved (the index of each one's
 *       completion), never the checker's dense ids, which depend on arrival order;</li>
 *   <li>keys and elements where the finding is about them, as {@link AtomTable#render rendered}
 *       text, never as raw atoms: a string's atom depends on the order a table saw it;</li>
 *   <li>a cycle rotated to begin at its smallest completion index, so the same ring of
 *       transactions reached from another edge gets the same id; the evidence on the steps
 *       (which key, which edge kind) is left out, as the type already says how the cycle was
 *       classified. Unordered sets of transactions (lost update, cycle-exists components)
 *       are sorted.</li>
 * </ul>
 * Pure and deterministic: no clock, no randomness, the same on every JVM.
 */
public final class FindingId {

    /** Bytes of the digest kept. */
    public static final int BYTES = 16;
    /** Length of an id in hex characters. */
    public static final int HEX_LENGTH = 2 * BYTES;

    /** Changes whenever the encoding below changes, so ids of different encodings never collide. */
    private static final String DOMAIN = "isowatch.finding-id.v1";

    private FindingId() {
    }

    /**
     * The id of {@code finding}, whose keys and elements are atoms of {@code atoms}. A finding
     * with integer keys and values only may be given any table.
     */
    public static String of(Finding finding, AtomTable atoms) {
        return of(finding, atoms, "");
    }

    /**
     * The id of {@code finding} in the named history: findings of different histories (agents)
     * never share an id, even with the same indices. An empty name gives {@link #of(Finding, AtomTable)}.
     */
    public static String of(Finding finding, AtomTable atoms, String history) {
        Canonical c = new Canonical(atoms);
        c.text(DOMAIN);
        if (!history.isEmpty()) {
            c.tag('H');
            c.text(history);
        }
        c.text(finding.type().elleName());
        if (finding instanceof Finding.Cycle cycle) {
            c.tag('C');
            c.indices(rotateToSmallest(indicesOf(cycle.txns())));
        } else if (finding instanceof Finding.BadRead r) {
            c.tag('B');
            c.number(r.reader().index());
            c.number(r.mopIndex());
            c.atom(r.element());
            c.number(r.writer() == null ? -1 : r.writer().index());
        } else if (finding instanceof Finding.Internal i) {
            c.tag('I');
            c.number(i.txn().index());
            c.number(i.mopIndex());
        } else if (finding instanceof Finding.DuplicateElements d) {
            // The transaction and micro-op fix the read; the counts follow from it.
            c.tag('D');
            c.number(d.txn().index());
            c.number(d.mopIndex());
        } else if (finding instanceof Finding.IncompatibleOrder o) {
            c.tag('O');
            c.atom(o.key());
            c.atoms(o.shorter());
            c.atoms(o.longer());
        } else if (finding instanceof Finding.DirtyUpdate d) {
            c.tag('U');
            c.atom(d.key());
            c.atoms(d.values());
            c.number(d.aborted().index());
            c.number(d.committed().index());
        } else if (finding instanceof Finding.LostUpdate l) {
            c.tag('L');
            c.atom(l.key());
            c.atoms(l.value());
            c.indices(sorted(indicesOf(l.txns())));
        } else if (finding instanceof Finding.CyclicVersions v) {
            c.tag('V');
            c.atom(v.key());
            c.text(v.source());
            c.texts(rotateToLeast(renderVersions(v.cycle(), atoms)));
        } else if (finding instanceof Finding.CycleExists e) {
            c.tag('E');
            c.text(e.model());
            c.text(e.subgraph());
            c.indices(sorted(indicesOf(e.scc())));
        } else {
            Finding.Undecided u = (Finding.Undecided) finding;
            c.tag('N');
            c.text(u.reason());
            c.indices(sorted(indicesOf(u.txns())));
        }
        return HexFormat.of().formatHex(Arrays.copyOf(c.digest(), BYTES));
    }

    /** The id of a finding whose keys and values are all integers. */
    public static String of(Finding finding) {
        return of(finding, new AtomTable());
    }

    private static long[] indicesOf(List<Txn> txns) {
        long[] out = new long[txns.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = txns.get(i).index();
        }
        return out;
    }

    private static long[] sorted(long[] a) {
        long[] out = a.clone();
        Arrays.sort(out);
        return out;
    }

    /**
     * The rotation of the ring {@code a} that starts at its smallest element; among several
     * starts at that element (a ring that passes one transaction twice), the rotation that is
     * lexicographically least.
     */
    static long[] rotateToSmallest(long[] a) {
        int n = a.length;
        int best = 0;
        for (int s = 1; s < n; s++) {
            for (int k = 0; k < n; k++) {
                long x = a[(s + k) % n];
                long y = a[(best + k) % n];
                if (x != y) {
                    if (x < y) {
                        best = s;
                    }
                    break;
                }
            }
        }
        long[] out = new long[n];
        for (int k = 0; k < n; k++) {
            out[k] = a[(best + k) % n];
        }
        return out;
    }

    /** The lexicographically least rotation of a ring of strings. */
    static List<String> rotateToLeast(List<String> ring) {
        int n = ring.size();
        int best = 0;
        for (int s = 1; s < n; s++) {
            for (int k = 0; k < n; k++) {
                int cmp = ring.get((s + k) % n).compareTo(ring.get((best + k) % n));
                if (cmp != 0) {
                    if (cmp < 0) {
                        best = s;
                    }
                    break;
                }
            }
        }
        List<String> out = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            out.add(ring.get((best + k) % n));
        }
        return out;
    }

    /** Versions as text, the initial nil as {@code nil}; a closing repeat of the first is dropped. */
    private static List<String> renderVersions(long[] cycle, AtomTable atoms) {
        int n = cycle.length;
        if (n > 1 && cycle[0] == cycle[n - 1]) {
            n--;
        }
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(cycle[i] == TraceListener.NIL ? "nil" : atoms.render(cycle[i]));
        }
        return out;
    }

    /** A length-prefixed, type-tagged encoding: no two different field sequences encode alike. */
    private static final class Canonical {
        private final AtomTable atoms;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);

        Canonical(AtomTable atoms) {
            this.atoms = atoms;
        }

        void tag(char t) {
            bytes.write((byte) t);
        }

        void number(long v) {
            bytes.write('n');
            for (int shift = 56; shift >= 0; shift -= 8) {
                bytes.write((int) (v >>> shift) & 0xff);
            }
        }

        void text(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            bytes.write('s');
            length(b.length);
            bytes.writeBytes(b);
        }

        void atom(long atom) {
            text(atoms.render(atom));
        }

        void atoms(long[] values) {
            if (values == null) {
                bytes.write('0');
                return;
            }
            bytes.write('a');
            length(values.length);
            for (long v : values) {
                atom(v);
            }
        }

        void texts(List<String> values) {
            bytes.write('t');
            length(values.size());
            for (String v : values) {
                text(v);
            }
        }

        void indices(long[] values) {
            bytes.write('i');
            length(values.length);
            for (long v : values) {
                number(v);
            }
        }

        private void length(int n) {
            for (int shift = 24; shift >= 0; shift -= 8) {
                bytes.write((n >>> shift) & 0xff);
            }
        }

        byte[] digest() {
            try {
                return MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray());
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java platform has SHA-256", e);
            }
        }
    }
}
