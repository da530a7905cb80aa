package io.isowatch.explain;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Evidence;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.checker.Validity;
import io.isowatch.checker.Verdict;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A {@link Verdict} and its findings as bytes, read back whole: what lets a verdict made on one
 * task (the stream job's checker) be rendered by {@link VerdictText} and {@link VerdictJson}
 * elsewhere exactly as {@code check} renders its own. Unlike the JSON, which drops what its
 * readers need not see (transaction ids, invocation indices, the kind of a string atom), this
 * form keeps every field of every finding.
 *
 * <p><b>Layout.</b> A magic number ({@value #MAGIC_TEXT}) and a version byte; the string atoms
 * the verdict uses, each as its {@link AtomTable.Kind} and UTF-8 name, in the order of their
 * codes; then the verdict field by field. Enums travel by name, so reordering an enum does not
 * change the meaning of old bytes. An atom is a tag byte followed by the integer (tag 0) or the
 * position of the string in that list (tag 1). So writer and reader need not share an
 * {@link AtomTable}: the reader interns the names into its own. Read into a fresh table, the
 * string atoms keep their relative order, so whatever a renderer sorts by atom (a read's
 * duplicate elements, say) comes out in the order the writer's table gave it.
 *
 * <p>The reader rejects a foreign magic number, an unknown version and an unknown tag with an
 * {@link IOException} naming what it found.
 */
public final class VerdictCodec {

    /** "IWVD": isowatch verdict. */
    public static final int MAGIC = 0x49575644;
    private static final String MAGIC_TEXT = "IWVD";
    /** The layout this codec writes, and the only one it reads. */
    public static final int VERSION = 1;

    private static final int CYCLE = 0;
    private static final int BAD_READ = 1;
    private static final int INTERNAL = 2;
    private static final int DUPLICATE_ELEMENTS = 3;
    private static final int INCOMPATIBLE_ORDER = 4;
    private static final int DIRTY_UPDATE = 5;
    private static final int LOST_UPDATE = 6;
    private static final int CYCLIC_VERSIONS = 7;
    private static final int CYCLE_EXISTS = 8;
    private static final int UNDECIDED = 9;

    private static final int WW = 0;
    private static final int WR = 1;
    private static final int RW = 2;
    private static final int PROCESS = 3;
    private static final int REALTIME = 4;
    /** A realtime edge between two agents of a fleet (decision 0021); a reader from before it refuses the tag. */
    private static final int REALTIME_ACROSS = 5;

    private static final int INTEGER = 0;
    private static final int STRING = 1;

    private static final int APPEND = 0;
    private static final int WRITE = 1;
    private static final int READ = 2;

    private VerdictCodec() {
    }

    /** Writes the verdict; {@code atoms} names its string keys and values. */
    public static void write(DataOutput out, Verdict v, AtomTable atoms) throws IOException {
        // A first pass over the verdict, writing nothing, finds the string atoms it uses.
        Writer collect = new Writer(new DataOutputStream(OutputStream.nullOutputStream()), atoms, null,
                new TreeSet<>());
        collect.verdict(v);
        long[] strings = collect.seen().stream().mapToLong(Long::longValue).toArray();
        out.writeInt(MAGIC);
        out.writeByte(VERSION);
        Writer w = new Writer(out, atoms, strings, null);
        out.writeInt(strings.length);
        for (long atom : strings) {
            out.writeByte(atoms.kindOf(atom).ordinal());
            w.string((String) atoms.valueOf(atom));
        }
        w.verdict(v);
    }

    /**
     * Reads a verdict written by {@link #write}, interning its string keys and values into
     * {@code atoms}.
     *
     * @throws IOException when the bytes are not a verdict of a version this codec reads
     */
    public static Verdict read(DataInput in, AtomTable atoms) throws IOException {
        int magic = in.readInt();
        if (magic != MAGIC) {
            throw new IOException("not a verdict: magic number 0x" + Integer.toHexString(magic) + ", expected 0x"
                    + Integer.toHexString(MAGIC) + " (" + MAGIC_TEXT + ")");
        }
        int version = in.readUnsignedByte();
        if (version != VERSION) {
            throw new IOException("verdict format version " + version + " is not supported; this reader knows "
                    + "version " + VERSION + " only");
        }
        Reader r = Reader.start(in, atoms);
        Validity valid = r.enumOf(Validity.class);
        int nTypes = r.count();
        List<AnomalyType> types = new ArrayList<>(nTypes);
        for (int i = 0; i < nTypes; i++) {
            types.add(r.enumOf(AnomalyType.class));
        }
        int nAnomalies = r.count();
        Map<AnomalyType, List<Finding>> anomalies = new LinkedHashMap<>();
        for (int i = 0; i < nAnomalies; i++) {
            AnomalyType t = r.enumOf(AnomalyType.class);
            int n = r.count();
            List<Finding> fs = new ArrayList<>(n);
            for (int j = 0; j < n; j++) {
                fs.add(r.finding());
            }
            anomalies.put(t, List.copyOf(fs));
        }
        SortedSet<String> not = r.stringSet();
        SortedSet<String> alsoNot = r.stringSet();
        Verdict.Stats stats = new Verdict.Stats(in.readLong(), in.readLong(), in.readLong(), in.readLong(),
                in.readLong(), in.readLong());
        return new Verdict(valid, List.copyOf(types), anomalies, not, alsoNot, stats);
    }

    /**
     * The verdict with its string atoms re-coded from {@code from} into {@code into}: a copy that
     * shares no table with the original, so it can go to another thread while the writer's table
     * keeps growing.
     */
    public static Verdict copy(Verdict v, AtomTable from, AtomTable into) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            write(new DataOutputStream(bytes), v, from);
            return read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), into);
        } catch (IOException e) {
            throw new UncheckedIOException("copying a verdict in memory failed", e);
        }
    }

    /**
     * Writes one verdict's parts. Collecting ({@code strings} null), it only gathers the string
     * atoms into {@code seen}; writing, it names each by its position in {@code strings}.
     */
    private record Writer(DataOutput out, AtomTable atoms, long[] strings, SortedSet<Long> seen) {

        void verdict(Verdict v) throws IOException {
            string(v.valid().name());
            out.writeInt(v.anomalyTypes().size());
            for (AnomalyType t : v.anomalyTypes()) {
                string(t.name());
            }
            out.writeInt(v.anomalies().size());
            for (Map.Entry<AnomalyType, List<Finding>> e : v.anomalies().entrySet()) {
                string(e.getKey().name());
                out.writeInt(e.getValue().size());
                for (Finding f : e.getValue()) {
                    finding(f);
                }
            }
            stringSet(v.not());
            stringSet(v.alsoNot());
            Verdict.Stats s = v.stats();
            for (long n : new long[] {s.txns(), s.ok(), s.info(), s.fail(), s.ops(), s.edges()}) {
                out.writeLong(n);
            }
        }

        void finding(Finding f) throws IOException {
            if (f instanceof Finding.Cycle c) {
                out.writeByte(CYCLE);
                string(c.type().name());
                out.writeInt(c.steps().size());
                for (Finding.Step s : c.steps()) {
                    txn(s.from());
                    txn(s.to());
                    evidence(s.evidence());
                }
            } else if (f instanceof Finding.BadRead b) {
                out.writeByte(BAD_READ);
                string(b.type().name());
                txn(b.reader());
                out.writeInt(b.mopIndex());
                atom(b.element());
                out.writeBoolean(b.writer() != null);
                if (b.writer() != null) {
                    txn(b.writer());
                }
            } else if (f instanceof Finding.Internal i) {
                out.writeByte(INTERNAL);
                txn(i.txn());
                out.writeInt(i.mopIndex());
                atomArray(i.expected());
                out.writeBoolean(i.unknownPrefix());
            } else if (f instanceof Finding.DuplicateElements d) {
                out.writeByte(DUPLICATE_ELEMENTS);
                txn(d.txn());
                out.writeInt(d.mopIndex());
                out.writeInt(d.counts().size());
                for (Map.Entry<Long, Integer> e : d.counts().entrySet()) {
                    atom(e.getKey());
                    out.writeInt(e.getValue());
                }
            } else if (f instanceof Finding.IncompatibleOrder o) {
                out.writeByte(INCOMPATIBLE_ORDER);
                atom(o.key());
                atomArray(o.shorter());
                atomArray(o.longer());
            } else if (f instanceof Finding.DirtyUpdate d) {
                out.writeByte(DIRTY_UPDATE);
                atom(d.key());
                atomArray(d.values());
                txn(d.aborted());
                txn(d.committed());
            } else if (f instanceof Finding.LostUpdate l) {
                out.writeByte(LOST_UPDATE);
                atom(l.key());
                atomArray(l.value());
                txns(l.txns());
            } else if (f instanceof Finding.CyclicVersions c) {
                out.writeByte(CYCLIC_VERSIONS);
                atom(c.key());
                atomArray(c.cycle());
                string(c.source());
            } else if (f instanceof Finding.CycleExists c) {
                out.writeByte(CYCLE_EXISTS);
                string(c.type().name());
                string(c.model());
                string(c.subgraph());
                txns(c.scc());
            } else {
                Finding.Undecided u = (Finding.Undecided) f;
                out.writeByte(UNDECIDED);
                string(u.type().name());
                string(u.reason());
                txns(u.txns());
            }
        }

        void evidence(Evidence e) throws IOException {
            if (e instanceof Evidence.WriteWrite ww) {
                out.writeByte(WW);
                atom(ww.key());
                atom(ww.previous());
                atom(ww.value());
            } else if (e instanceof Evidence.WriteRead wr) {
                out.writeByte(WR);
                atom(wr.key());
                atom(wr.value());
            } else if (e instanceof Evidence.ReadWrite rw) {
                out.writeByte(RW);
                atom(rw.key());
                out.writeBoolean(rw.initial());
                atom(rw.previous());
                atom(rw.value());
            } else if (e instanceof Evidence.Process p) {
                out.writeByte(PROCESS);
                out.writeLong(p.process());
            } else {
                Evidence.Realtime rt = (Evidence.Realtime) e;
                out.writeByte(rt.agents() == null ? REALTIME : REALTIME_ACROSS);
                out.writeLong(rt.completedIndex());
                out.writeLong(rt.completedTime());
                out.writeLong(rt.invokedIndex());
                out.writeLong(rt.invokedTime());
                if (rt.agents() != null) {
                    string(rt.agents().completedOn());
                    string(rt.agents().invokedOn());
                    out.writeLong(rt.agents().clockUncertaintyNanos());
                }
            }
        }

        void txns(List<Txn> txns) throws IOException {
            out.writeInt(txns.size());
            for (Txn t : txns) {
                txn(t);
            }
        }

        void txn(Txn t) throws IOException {
            out.writeInt(t.id());
            out.writeLong(t.invokeIndex());
            out.writeLong(t.invokeTime());
            Op op = t.completion();
            out.writeLong(op.index());
            out.writeLong(op.time());
            string(op.type().name());
            out.writeLong(op.process());
            out.writeLong(op.sourceLine());
            out.writeInt(op.value().size());
            for (MicroOp m : op.value()) {
                if (m instanceof MicroOp.Append a) {
                    out.writeByte(APPEND);
                    atom(a.key());
                    atom(a.value());
                } else if (m instanceof MicroOp.Write w) {
                    out.writeByte(WRITE);
                    atom(w.key());
                    atom(w.value());
                } else {
                    MicroOp.Read r = (MicroOp.Read) m;
                    out.writeByte(READ);
                    atom(r.key());
                    atomArray(r.values());
                }
            }
        }

        /** A nullable array of atoms: its length, or -1 for null. */
        void atomArray(long[] values) throws IOException {
            out.writeInt(values == null ? -1 : values.length);
            if (values != null) {
                for (long v : values) {
                    atom(v);
                }
            }
        }

        void atom(long atom) throws IOException {
            if (!AtomTable.isString(atom)) {
                out.writeByte(INTEGER);
                out.writeLong(atom);
            } else if (strings == null) {
                seen.add(atom);
            } else {
                out.writeByte(STRING);
                out.writeInt(Arrays.binarySearch(strings, atom));
            }
        }

        void stringSet(SortedSet<String> values) throws IOException {
            out.writeInt(values.size());
            for (String s : values) {
                string(s);
            }
        }

        /** Length-prefixed UTF-8: no 64 KiB limit, unlike {@code writeUTF}. */
        void string(String s) throws IOException {
            byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
            out.writeInt(bytes.length);
            out.write(bytes);
        }
    }

    /** Reads one verdict's parts. */
    private record Reader(DataInput in, long[] strings) {

        private static final AtomTable.Kind[] KINDS = AtomTable.Kind.values();

        /** Reads the list of string atoms into {@code atoms}: their codes, by position. */
        static Reader start(DataInput in, AtomTable atoms) throws IOException {
            Reader header = new Reader(in, null);
            long[] strings = new long[header.count()];
            for (int i = 0; i < strings.length; i++) {
                int kind = in.readUnsignedByte();
                if (kind >= KINDS.length) {
                    throw new IOException("unknown kind " + kind + " of a string atom in a verdict");
                }
                strings[i] = atoms.of(KINDS[kind], header.string());
            }
            return new Reader(in, strings);
        }

        Finding finding() throws IOException {
            int tag = in.readUnsignedByte();
            return switch (tag) {
                case CYCLE -> {
                    AnomalyType type = enumOf(AnomalyType.class);
                    int n = count();
                    List<Finding.Step> steps = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        steps.add(new Finding.Step(txn(), txn(), evidence()));
                    }
                    yield new Finding.Cycle(type, steps);
                }
                case BAD_READ -> {
                    AnomalyType type = enumOf(AnomalyType.class);
                    Txn reader = txn();
                    int mop = in.readInt();
                    long element = atom();
                    yield new Finding.BadRead(type, reader, mop, element, in.readBoolean() ? txn() : null);
                }
                case INTERNAL -> new Finding.Internal(txn(), in.readInt(), atomsOrNull(), in.readBoolean());
                case DUPLICATE_ELEMENTS -> {
                    Txn txn = txn();
                    int mop = in.readInt();
                    int n = count();
                    Map<Long, Integer> counts = new HashMap<>();
                    for (int i = 0; i < n; i++) {
                        counts.put(atom(), in.readInt());
                    }
                    yield new Finding.DuplicateElements(txn, mop, counts);
                }
                case INCOMPATIBLE_ORDER -> new Finding.IncompatibleOrder(atom(), atomsOrNull(), atomsOrNull());
                case DIRTY_UPDATE -> new Finding.DirtyUpdate(atom(), atomsOrNull(), txn(), txn());
                case LOST_UPDATE -> new Finding.LostUpdate(atom(), atomsOrNull(), txns());
                case CYCLIC_VERSIONS -> new Finding.CyclicVersions(atom(), atomsOrNull(), string());
                case CYCLE_EXISTS -> new Finding.CycleExists(enumOf(AnomalyType.class), string(), string(), txns());
                case UNDECIDED -> new Finding.Undecided(enumOf(AnomalyType.class), string(), txns());
                default -> throw new IOException("unknown finding tag " + tag + " in a verdict");
            };
        }

        Evidence evidence() throws IOException {
            int tag = in.readUnsignedByte();
            return switch (tag) {
                case WW -> new Evidence.WriteWrite(atom(), atom(), atom());
                case WR -> new Evidence.WriteRead(atom(), atom());
                case RW -> new Evidence.ReadWrite(atom(), in.readBoolean(), atom(), atom());
                case PROCESS -> new Evidence.Process(in.readLong());
                case REALTIME -> new Evidence.Realtime(in.readLong(), in.readLong(), in.readLong(), in.readLong());
                case REALTIME_ACROSS -> new Evidence.Realtime(in.readLong(), in.readLong(), in.readLong(), in.readLong(),
                        new Evidence.Agents(string(), string(), in.readLong()));
                default -> throw new IOException("unknown evidence tag " + tag + " in a verdict");
            };
        }

        List<Txn> txns() throws IOException {
            int n = count();
            List<Txn> txns = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                txns.add(txn());
            }
            return txns;
        }

        Txn txn() throws IOException {
            int id = in.readInt();
            long invokeIndex = in.readLong();
            long invokeTime = in.readLong();
            long index = in.readLong();
            long time = in.readLong();
            OpType type = enumOf(OpType.class);
            long process = in.readLong();
            long sourceLine = in.readLong();
            int n = count();
            List<MicroOp> mops = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int tag = in.readUnsignedByte();
                mops.add(switch (tag) {
                    case APPEND -> new MicroOp.Append(atom(), atom());
                    case WRITE -> new MicroOp.Write(atom(), atom());
                    case READ -> new MicroOp.Read(atom(), atomsOrNull());
                    default -> throw new IOException("unknown micro-op tag " + tag + " in a verdict");
                });
            }
            return new Txn(id, invokeIndex, invokeTime, new Op(index, time, type, process, mops, sourceLine));
        }

        long[] atomsOrNull() throws IOException {
            int n = in.readInt();
            if (n < -1) {
                throw new IOException("negative length " + n + " of atoms in a verdict");
            }
            if (n == -1) {
                return null;
            }
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = atom();
            }
            return values;
        }

        long atom() throws IOException {
            int tag = in.readUnsignedByte();
            if (tag == INTEGER) {
                return in.readLong();
            }
            int i = tag == STRING ? in.readInt() : -1;
            if (i < 0 || i >= strings.length) {
                throw new IOException("bad atom (tag " + tag + ", string " + i + " of " + strings.length
                        + ") in a verdict");
            }
            return strings[i];
        }

        SortedSet<String> stringSet() throws IOException {
            int n = count();
            SortedSet<String> out = new TreeSet<>();
            for (int i = 0; i < n; i++) {
                out.add(string());
            }
            return out;
        }

        <E extends Enum<E>> E enumOf(Class<E> type) throws IOException {
            String name = string();
            try {
                return Enum.valueOf(type, name);
            } catch (IllegalArgumentException e) {
                throw new IOException("unknown " + type.getSimpleName() + " " + name + " in a verdict", e);
            }
        }

        int count() throws IOException {
            int n = in.readInt();
            if (n < 0) {
                throw new IOException("negative count " + n + " in a verdict");
            }
            return n;
        }

        String string() throws IOException {
            byte[] bytes = new byte[count()];
            in.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }
}
