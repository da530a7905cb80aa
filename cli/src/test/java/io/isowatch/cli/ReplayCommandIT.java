package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code replay} runs golden histories through a real in-JVM KRaft broker and the checker job on
 * a local Flink cluster, and must print what {@code check} prints, with check's exit codes.
 */
class ReplayCommandIT {

    private static final Path VALID = CheckCommandTest.golden("valid-concurrent");
    private static final Path WRITE_SKEW = CheckCommandTest.golden("G2-item-write-skew");
    private static final Path READ_SKEW = CheckCommandTest.golden("G-single-item-read-skew");
    /** Issue 14's example: Jepsen's nil for a completed read of an empty key. */
    private static final Path NIL_WRITE_SKEW = CheckCommandTest.golden("G2-item-nil-reads-write-skew-serializable");
    private static final Path HISTORY_EDN = CheckCommandTest.golden("G-single-item-jepsen-history-edn-records");

    @Test
    void replay_json_equalsChecksJsonForEachFile() {
        String[] files = {VALID.toString(), WRITE_SKEW.toString(), READ_SKEW.toString(), NIL_WRITE_SKEW.toString(),
                HISTORY_EDN.toString()};
        CheckCommandTest.Run check = CheckCommandTest.run(args("check", "--format", "json", files));
        CheckCommandTest.Run replay = CheckCommandTest.run(args("replay", "--format", "json", files));
        assertEquals(ExitCodes.INVALID, check.code(), check.err());
        assertEquals(check.code(), replay.code(), replay.err());
        List<Map<String, Object>> expected = CheckCommandTest.jsonWithoutSeconds(check.out());
        assertEquals(expected, CheckCommandTest.jsonWithoutSeconds(replay.out()));
        assertEquals(List.of("G2-item"), expected.get(1).get("anomaly-types"));
        assertEquals(List.of("G-single-item"), expected.get(2).get("anomaly-types"));
        assertEquals(List.of("G2-item"), expected.get(3).get("anomaly-types"));
        assertEquals(List.of("G-single-item"), expected.get(4).get("anomaly-types"));
    }

    @Test
    void replay_text_validHistory_equalsChecksTextAndExitsZero() {
        CheckCommandTest.Run check = CheckCommandTest.run("check", "-q", VALID.toString());
        CheckCommandTest.Run replay = CheckCommandTest.run("replay", "-q", VALID.toString());
        assertEquals(ExitCodes.VALID, check.code(), check.err());
        assertEquals(check.code(), replay.code(), replay.err());
        assertEquals(withoutSeconds(check.out()), withoutSeconds(replay.out()));
    }

    @Test
    void replay_text_writeSkewAsSerializable_equalsChecksTextAndExitsOne() {
        CheckCommandTest.Run check = CheckCommandTest.run("check", "-q", "-c", "serializable", WRITE_SKEW.toString());
        CheckCommandTest.Run replay = CheckCommandTest.run("replay", "-c", "serializable", WRITE_SKEW.toString());
        assertEquals(ExitCodes.INVALID, check.code(), check.err());
        assertEquals(check.code(), replay.code(), replay.err());
        assertEquals(withoutSeconds(check.out()), withoutSeconds(replay.out()));
        assertTrue(replay.out().contains("G2-item: T1 -rw-> T2 -rw-> T1"), replay.out());
        assertTrue(replay.err().contains("running the checker job"), replay.err());
    }

    /**
     * One finding of each kind the checker reports, some only when the input ends (lost update,
     * garbage read, cycle-exists, unknown), and one history over string keys and elements: the
     * job's typed verdict printed as check prints its own, text for text.
     */
    @Test
    void replay_text_everyKindOfFinding_equalsChecksText(@TempDir Path dir) throws IOException {
        List<String> files = new ArrayList<>();
        for (String name : List.of("G1b-intermediate-read", "dirty-update-failed-then-ok-append",
                "duplicate-elements-repeated-element", "elle-cli-G1c-realtime-found-by-G0-realtime-search",
                "elle-cli-internal-read-misses-own-append-unknown-prefix", "lost-update-unread-appends",
                "garbage-read-unwritten-element", "incompatible-order-divergent-reads", "future-read-own-later-append",
                "elle-cli-valid-read-empty-unknown")) {
            files.add(CheckCommandTest.golden(name).toString());
        }
        Path strings = dir.resolve("G1a-string-keys.jsonl");
        Files.writeString(strings, Files.readString(CheckCommandTest.golden("G1a-aborted-read"))
                .replaceAll("\\[\"(append|r)\",([0-9]+),([0-9]+)\\]", "[\"$1\",\"key-$2\",\"ü$3\"]")
                .replaceAll("\\[\"r\",([0-9]+),", "[\"r\",\"key-$1\",")
                .replace("[1]", "[\"ü1\"]"));
        files.add(strings.toString());
        String[] args = files.toArray(String[]::new);
        CheckCommandTest.Run check = CheckCommandTest.run(args("check", "--max-shown", "3", args));
        CheckCommandTest.Run replay = CheckCommandTest.run(args("replay", "--max-shown", "3", args));
        assertEquals(ExitCodes.INVALID, check.code(), check.err());
        assertEquals(check.code(), replay.code(), replay.err());
        assertTrue(check.out().contains("G1a: T2 read an element appended by T1, which aborted"), check.out());
        assertTrue(check.out().contains("\"key-1\""), check.out());
        assertTrue(check.out().contains("lost-update: "), check.out());
        assertEquals(withoutSeconds(check.out()), withoutSeconds(replay.out()));
    }

    @Test
    void replay_unknownOption_isAUsageError() {
        CheckCommandTest.Run r = CheckCommandTest.run("replay", "-o", "pictures", VALID.toString());
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().startsWith("isowatch: Unknown option: '-o'"), r.err());
    }

    private static String[] args(String command, String flag, String value, String... files) {
        List<String> a = new ArrayList<>(List.of(command, "-q", flag, value));
        a.addAll(List.of(files));
        return a.toArray(String[]::new);
    }

    private static String withoutSeconds(String text) {
        return text.replaceAll("checked in [0-9.]+ s", "checked in _ s");
    }
}
