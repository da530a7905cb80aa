package io.isowatch.history.codec;

import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The line reader ({@link JsonLinesOpReader}: scanner first, Jackson for what it is unsure of)
 * against the plain Jackson reader ({@link JsonOpReader}) over the whole input: the same ops
 * (with their lines and atoms), the same count of skipped ops, and the same error, word for
 * word, on every input — well-formed histories in many styles, and the same histories with a
 * few bytes deleted, inserted or changed.
 */
class JsonLinesOpReaderProperties {

    /** Everything a reader gives for one input: its ops rendered with their atoms, skips, error. */
    record Outcome(List<String> ops, long skipped, String error) {
    }

    @Property(tries = 1500, seed = "20261125")
    void wellFormedHistories_readAsJacksonReadsThem(@ForAll long seed) {
        String text = new HistoryText(new Random(seed)).history();
        Outcome expected = viaJackson(text);
        assertEquals(expected, viaLines(text), text);
    }

    @Property(tries = 3000, seed = "20261126")
    void damagedHistories_failOrReadAsJacksonDoes(@ForAll long seed) {
        Random random = new Random(seed);
        String text = damage(new HistoryText(random).history(), random);
        assertEquals(viaJackson(text), viaLines(text), text);
    }

    @Property(tries = 1000, seed = "20261129")
    void historiesArrivingInPieces_readAsJacksonReadsThem(@ForAll long seed) {
        // The scanner reads a line before its end is known, up to the bytes read so far. Input
        // that arrives a few bytes, or a few lines, at a time cuts lines anywhere: the scanner
        // runs out mid-line, mid-token, just after a brace or between \r and \n.
        Random random = new Random(seed);
        String text = wellFormedOrDamaged(random);
        int most = 1 + random.nextInt(random.nextBoolean() ? 40 : 600);
        InputStream pieces = new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)) {
            @Override
            public synchronized int read(byte[] buf, int off, int len) {
                return super.read(buf, off, Math.min(len, 1 + random.nextInt(most)));
            }
        };
        AtomTable atoms = new AtomTable();
        assertEquals(viaJackson(text), drain(new JsonLinesOpReader("h.jsonl", pieces, atoms), atoms, null), text);
    }

    @Property(tries = 300, seed = "20261127")
    void plainHistories_areMostlyDecodedByTheScanner(@ForAll long seed) {
        // The speed is the point of the line reader: the common shape must not fall back, times in
        // nanoseconds since the epoch (19 digits, as the agent stamps them) included.
        Random random = new Random(seed);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            text.append("{\"index\":").append(i).append(",\"time\":").append(1_767_225_600_000_000_000L + random.nextInt())
                    .append(",\"type\":\"invoke\",\"process\":").append(random.nextInt(5))
                    .append(",\"f\":\"txn\",\"value\":[[\"append\",").append(random.nextInt(9)).append(',').append(i)
                    .append("],[\"r\",\"k").append(random.nextInt(3)).append("\",[1,2,").append(i).append("]]]}\n");
        }
        OpBuilder ops = new OpBuilder("t", new AtomTable());
        JsonLineScanner scanner = new JsonLineScanner(ops, null);
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        int start = 0;
        long line = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                assertEquals(JsonLineScanner.OP, scanner.scan(bytes, start, i, ++line), "line " + line);
                assertTrue(ops.finish() != null);
                start = i + 1;
            }
        }
    }

    @Property(tries = 1500, seed = "20261128")
    void records_readWithTheirShipperFieldsAsJacksonReadsThem(@ForAll long seed) {
        // The stream job's path: a record in memory, the agent and seq fields handed over per op.
        Random random = new Random(seed);
        String text = wellFormedOrDamaged(random);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        AtomTable atoms = new AtomTable();
        ShippedIdentity identity = new ShippedIdentity();
        Outcome expected = drain(new JsonOpReader("r", new ByteArrayInputStream(bytes), new OpBuilder("r", atoms),
                identity, 0, false), atoms, identity);
        AtomTable lineAtoms = new AtomTable();
        ShippedIdentity lineIdentity = new ShippedIdentity();
        assertEquals(expected, drain(new JsonLinesOpReader("r", bytes, lineAtoms, lineIdentity), lineAtoms,
                lineIdentity), text);
    }

    @Example
    void aByteOrderMarkPastTheFirstLine_isTheErrorJacksonReports() {
        // Jackson skips a mark only at the very start; the line reader, handing over on line 2,
        // must not let it skip one there.
        String text = "{\"type\":\"ok\",\"process\":1,\"value\":[]}\n\uFEFF{\"type\":\"ok\",\"process\":2}\n";
        Outcome expected = viaJackson(text);
        assertTrue(expected.error() != null && expected.error().startsWith("h.jsonl:2:"), expected.toString());
        assertEquals(expected, viaLines(text));
    }

    @Example
    void readListsLeavingTheirPlainShapeMidway_readAsJacksonReadsThem() {
        // The scanner takes the plain run of a read's elements in one loop and hands the element
        // that breaks it to the general steps: each list here breaks it at another place.
        List<String> lists = List.of("[1,2,3]", "[0,10,7]", "[1,02]", "[1,-2,3]", "[1, 2]", "[1 ,2]", "[5,\"k\",6]",
                "[999999999999999999,1]", "[1,1000000000000000000]", "[1,9223372036854775808]", "[1,2.5]", "[1,2e3]",
                "[1,]", "[1,2", "[12", "[1,[2]]", "[1,null]", "[-0,1]", "[1,2]]", "[7,8,9] ");
        for (String list : lists) {
            String text = "{\"type\":\"ok\",\"process\":1,\"value\":[[\"r\",3," + list + "],[\"append\",3,4]]}\n"
                    + "{\"type\":\"ok\",\"process\":2,\"value\":[[\"r\",3,[4]]]}\n";
            assertEquals(viaJackson(text), viaLines(text), text);
        }
    }

    static Outcome viaJackson(String text) {
        AtomTable atoms = new AtomTable();
        return drain(new JsonOpReader("h.jsonl", new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
                new OpBuilder("h.jsonl", atoms), null, 0, false), atoms, null);
    }

    static Outcome viaLines(String text) {
        AtomTable atoms = new AtomTable();
        return drain(new JsonLinesOpReader("h.jsonl", new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
                atoms), atoms, null);
    }

    /** Every op (with the shipper's fields as they stood after it, when asked), the skips, the error. */
    private static Outcome drain(OpSource source, AtomTable atoms, ShippedIdentity identity) {
        List<String> ops = new ArrayList<>();
        String error = null;
        try (source) {
            for (Op op = source.next(); op != null; op = source.next()) {
                ops.add(render(op, atoms) + (identity == null ? "" : " " + shipped(identity)));
            }
        } catch (HistoryFormatException e) {
            error = e.getMessage();
        }
        return new Outcome(ops, source.skipped(), error);
    }

    private static String shipped(ShippedIdentity id) {
        return "agent " + id.hasAgent() + " " + id.agent() + " " + id.agentText() + " seq " + id.hasSeq() + " "
                + id.seq() + " " + id.seqText();
    }

    private static String render(Op op, AtomTable atoms) {
        StringBuilder s = new StringBuilder();
        s.append(op.index()).append(' ').append(op.time()).append(' ').append(op.type()).append(' ')
                .append(op.process()).append(" line ").append(op.sourceLine());
        for (MicroOp m : op.value()) {
            s.append(" [").append(m.getClass().getSimpleName()).append(' ').append(atoms.render(m.key()));
            if (m instanceof MicroOp.Append a) {
                s.append(' ').append(atoms.render(a.value()));
            } else if (m instanceof MicroOp.Write w) {
                s.append(' ').append(atoms.render(w.value()));
            } else if (m instanceof MicroOp.Read r && r.known()) {
                s.append(" (");
                for (long v : r.values()) {
                    s.append(atoms.render(v)).append(' ');
                }
                s.append(')');
            }
            s.append(']');
        }
        return s.toString();
    }

    /** A random history, damaged half the time. */
    private static String wellFormedOrDamaged(Random random) {
        String text = new HistoryText(random).history();
        return random.nextBoolean() ? damage(text, random) : text;
    }

    /** Deletes, inserts or replaces a few bytes, favouring the characters JSON's grammar turns on. */
    static String damage(String text, Random random) {
        String alphabet = "{}[],:\"\\ \t\r\n0123456789-.eEnultrfasx";
        StringBuilder s = new StringBuilder(text);
        int edits = 1 + random.nextInt(3);
        for (int i = 0; i < edits && s.length() > 0; i++) {
            int at = random.nextInt(s.length());
            char c = alphabet.charAt(random.nextInt(alphabet.length()));
            switch (random.nextInt(3)) {
                case 0 -> s.deleteCharAt(at);
                case 1 -> s.insert(at, c);
                default -> s.setCharAt(at, c);
            }
        }
        return s.toString();
    }

    /** Writes random histories in the many ways JSON allows and Jepsen, elle-cli and people write them. */
    static final class HistoryText {

        private final Random random;

        HistoryText(Random random) {
            this.random = random;
        }

        String history() {
            int ops = random.nextInt(12);
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < ops; i++) {
                lines.add(random.nextInt(12) == 0 ? nemesis(i) : clientOp(i));
            }
            String newline = random.nextInt(6) == 0 ? "\r\n" : "\n";
            if (random.nextInt(15) == 0) {
                return "[" + String.join("," + newline, lines) + "]" + newline;
            }
            StringBuilder s = new StringBuilder();
            if (random.nextInt(30) == 0) {
                s.append('\uFEFF');
            }
            for (String line : lines) {
                if (random.nextInt(10) == 0) {
                    s.append(space()).append(newline);
                }
                s.append(random.nextInt(20) == 0 ? line.replace(",", "," + newline) : line);
                if (random.nextInt(25) == 0 && !lines.isEmpty()) {
                    s.append(' ').append(lines.get(random.nextInt(lines.size())));
                }
                s.append(space()).append(newline);
            }
            if (random.nextBoolean() && s.toString().endsWith(newline)) {
                s.setLength(s.length() - newline.length());
            }
            return s.toString();
        }

        private String clientOp(int i) {
            List<String> fields = new ArrayList<>();
            if (random.nextInt(10) != 0) {
                fields.add(field("index", random.nextInt(20) == 0 ? "null" : Integer.toString(i)));
            }
            if (random.nextInt(4) != 0) {
                fields.add(field("time", random.nextInt(20) == 0 ? "null" : Long.toString(1000L * i + random.nextInt(999))));
            }
            if (random.nextInt(40) != 0) {
                fields.add(field("type", quoted(colon() + pick("invoke", "ok", "fail", "info", "ok", "invoke"))));
            }
            if (random.nextInt(40) != 0) {
                fields.add(field("process", random.nextInt(20) == 0 ? pick("\"p1\"", "null", "1.0", "-3") : Integer.toString(random.nextInt(6))));
            }
            fields.add(field("f", pick("\"txn\"", "\":txn\"", "\"read\"")));
            if (random.nextInt(30) != 0) {
                fields.add(field("value", random.nextInt(25) == 0 ? pick("null", "\"x\"", "{}", "[]") : microOps()));
            }
            if (random.nextInt(3) == 0) {
                fields.add(field("agent", pick("\"a1\"", "\"agent-7\"", "\"\"", "null", "3", "\"\\u0061\"")));
                fields.add(field("seq", pick(Integer.toString(i), "0", "-1", "1.0", "\"5\"", "null")));
            }
            if (random.nextInt(6) == 0) {
                fields.add(field(pick("error", "agent", "seq", "note", "\\u0065rror"), junk(0)));
            }
            if (random.nextInt(30) == 0 && !fields.isEmpty()) {
                fields.add(fields.get(random.nextInt(fields.size())));
            }
            Collections.shuffle(fields, random);
            return "{" + space() + String.join("," + space(), fields) + space() + "}";
        }

        private String nemesis(int i) {
            return "{\"index\":" + i + ",\"type\":\"info\",\"process\":\"nemesis\",\"f\":\"start-partition\",\"value\":"
                    + junk(0) + "}";
        }

        private String microOps() {
            int n = random.nextInt(4);
            List<String> mops = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String kind = pick("append", "r", "w", "r", "append");
                String key = atom();
                String third = switch (kind) {
                    case "r" -> switch (random.nextInt(4)) {
                        case 0 -> "null";
                        case 1 -> atom();
                        default -> list();
                    };
                    default -> random.nextInt(30) == 0 ? "null" : atom();
                };
                List<String> parts = new ArrayList<>(List.of(quoted(colon() + kind), key, third));
                if (random.nextInt(40) == 0) {
                    parts.remove(parts.size() - 1);
                } else if (random.nextInt(40) == 0) {
                    parts.add(atom());
                }
                mops.add("[" + space() + String.join("," + space(), parts) + space() + "]");
            }
            return "[" + space() + String.join("," + space(), mops) + space() + "]";
        }

        private String list() {
            int n = random.nextInt(5);
            List<String> items = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                items.add(atom());
            }
            return "[" + String.join("," + space(), items) + "]";
        }

        private String atom() {
            return switch (random.nextInt(14)) {
                case 0 -> quoted("k" + random.nextInt(4));
                case 1 -> quoted(pick(":x", "x y", "caf\u00e9", "tab\\tbed", "q\\\"uote", "\\u0041", "", "-1"));
                case 2 -> pick("999999999999999999", "-999999999999999999", "1000000000000000000",
                        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-0", "0");
                case 3 -> pick("1.5", "2e3", "true", "{}", "[1]", "-9223372036854775800");
                default -> Integer.toString(random.nextInt(40) - 2);
            };
        }

        /** Any JSON value at all, for fields the reader ignores and values of non-client ops. */
        private String junk(int depth) {
            int choice = random.nextInt(depth > 2 ? 6 : 8);
            return switch (choice) {
                case 0 -> quoted(pick("", "partition", "a\\\\b", "\\u00e9", "caf\u00e9", "line\\nbreak", "/"));
                case 1 -> pick("0", "-1", "3.25", "1e9", "-2.5E-3", "12345678901234567890123");
                case 2 -> pick("true", "false", "null");
                case 3, 4, 5 -> Integer.toString(random.nextInt(100));
                case 6 -> "[" + junk(depth + 1) + "," + space() + junk(depth + 1) + "]";
                default -> "{" + quoted(pick("n1", "n2", "k")) + ":" + space() + junk(depth + 1) + "}";
            };
        }

        private String field(String name, String value) {
            return quoted(name) + space() + ":" + space() + value;
        }

        private String quoted(String s) {
            return "\"" + s + "\"";
        }

        private String colon() {
            return random.nextInt(5) == 0 ? ":" : "";
        }

        private String space() {
            return switch (random.nextInt(8)) {
                case 0 -> " ";
                case 1 -> "\t";
                case 2 -> "  ";
                default -> "";
            };
        }

        private String pick(String... choices) {
            return choices[random.nextInt(choices.length)];
        }
    }
}
