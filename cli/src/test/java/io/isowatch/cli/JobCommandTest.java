package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import io.isowatch.job.JobOptions;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The job command's options: one per job option key, and one-line usage errors. */
class JobCommandTest {

    @Test
    void help_listsEveryKeyWithItsDefault() {
        CheckCommandTest.Run r = CheckCommandTest.run("job", "--help");
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        String help = r.out().replaceAll("\\s+", ""); // picocli wraps long defaults, even at dots
        for (Map.Entry<String, String> e : JobOptions.DEFAULTS.entrySet()) {
            assertTrue(help.contains("--" + e.getKey() + "=VALUE"), e.getKey() + " missing: " + r.out());
            String dflt = e.getValue().isEmpty() ? "none" : e.getValue();
            assertTrue(help.contains("(default:" + dflt + ")"), e.getKey() + " default missing: " + r.out());
        }
    }

    @Test
    void helpSubcommand_showsTheSameKeys() {
        // `help job` builds every subcommand, not only the one named: the keys must be there too.
        CheckCommandTest.Run r = CheckCommandTest.run("help", "job");
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertTrue(r.out().contains("--bootstrap-servers=VALUE"), r.out());
        assertEquals(CheckCommandTest.run("job", "--help").out(), r.out());
    }

    @Test
    void unknownOption_isAOneLineErrorAnd255() {
        CheckCommandTest.Run r = CheckCommandTest.run("job", "--bootstrap-servers", "localhost:9092", "--paralelism", "2");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().startsWith("isowatch: Unknown options: '--paralelism', '2'")
                || r.err().startsWith("isowatch: Unknown option: '--paralelism'"), r.err());
    }

    @Test
    void badValue_namesTheOption() {
        CheckCommandTest.Run r = CheckCommandTest.run("job", "--bootstrap-servers", "localhost:9092",
                "--max-out-of-orderness", "soon");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().startsWith("isowatch: option max-out-of-orderness: cannot read \"soon\""), r.err());
    }

    @Test
    void missingBootstrapServers_isAUsageError() {
        CheckCommandTest.Run r = CheckCommandTest.run("job", "--parallelism", "2");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().startsWith("isowatch: --bootstrap-servers is required"), r.err());
    }

    @Test
    void unreachableBroker_isOneLineNamingItAnd255WithinTheTimeout() {
        long start = System.nanoTime();
        CheckCommandTest.Run r = CheckCommandTest.run("job", "--bootstrap-servers", "127.0.0.1:1", "--kafka-timeout", "2s");
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(ExitCodes.ERROR, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("isowatch job: cannot reach Kafka at 127.0.0.1:1 within 2s"), r.err());
        assertTrue(seconds < 20, "took " + seconds + " s");
    }

    @Test
    void fromCheckpointThatDoesNotExist_isAUsageError() {
        CheckCommandTest.Run r = CheckCommandTest.run("job", "--bootstrap-servers", "127.0.0.1:1", "--kafka-timeout", "1s",
                "--from-checkpoint", "/nonexistent/chk-1");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("/nonexistent/chk-1 does not exist"), r.err());
    }

    @Test
    void unknownBindAddress_isAUsageErrorBeforeTheClusterStarts() {
        CheckCommandTest.Run r = CheckCommandTest.run("job", "--bootstrap-servers", "127.0.0.1:9", "--bind-address",
                "no-such-host.invalid");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().startsWith("isowatch: --bind-address: unknown address no-such-host.invalid"), r.err());
    }
}
