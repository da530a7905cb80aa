package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import io.isowatch.localkafka.InJvmKafka;
import io.isowatch.testkit.ListeningSockets;
import io.isowatch.testkit.ListeningSockets.Listener;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nothing the demo, replay or a local {@code job} opens listens beyond loopback: every socket this JVM
 * opens for listening while the command runs (read from the kernel, {@link ListeningSockets}) is
 * bound to 127.0.0.1 — the findings console, Kafka's broker and controller, Flink's REST endpoint
 * and blob server, the metrics reporter — or to the address {@code --bind-address} names.
 */
class LoopbackOnlyIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @Test
    void demo_everyPortListensOn127001Only_andThePrintedUrlsAnswer() throws Exception {
        int metricsPort = freePort();
        CompletableFuture<String> scraped = new CompletableFuture<>();
        CompletableFuture<String> withDelays = new CompletableFuture<>();
        CheckCommandTest.Run r;
        Set<Listener> opened;
        try (ListeningSockets.Watch watch = ListeningSockets.watch()) {
            Thread scraper = scrapeWhenListening(metricsPort, scraped, text -> text.contains("flink_jobmanager_"),
                    text -> true);
            // A scrape reads the counters one after another while alerts arrive, so one taken as an
            // alert lands can show it in one series and not the next: keep a scrape in which none did.
            java.util.function.Predicate<String> settled = text -> infBucketTotal(text) > 0 && infBucketsEqualCounts(text);
            Thread delays = scrapeWhenListening(metricsPort, withDelays, settled, settled);
            r = CheckCommandTest.run("demo", "--duration", "3", "--rate", "500", "--metrics-port",
                    Integer.toString(metricsPort));
            opened = watch.opened();
            scraper.interrupt();
            delays.interrupt();
        }
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertOnlyOn(LOOPBACK, opened);
        // console, Kafka broker and controller, Flink REST and blob server, metrics: the watch saw them all.
        assertTrue(opened.size() >= 6, "fewer listeners than the demo opens: " + opened);
        assertTrue(opened.contains(new Listener(LOOPBACK, printedPort(r.out(), "findings console: http://127\\.0\\.0\\.1:(\\d+)/"))));
        assertTrue(opened.contains(new Listener(LOOPBACK, printedPort(r.out(), "Kafka at 127\\.0\\.0\\.1:(\\d+)"))));
        assertEquals(metricsPort, printedPort(r.out(), "Flink metrics at http://127\\.0\\.0\\.1:(\\d+)/"));
        assertTrue(opened.contains(new Listener(LOOPBACK, metricsPort)), opened.toString());
        String metrics = scraped.getNow("(never scraped)");
        assertTrue(metrics.contains("flink_jobmanager_"), "the reporter serves Flink's metrics, named as Flink names them: "
                + metrics.substring(0, Math.min(500, metrics.length())));
        assertDelayHistogram(withDelays.getNow("(never scraped with a finding's delay)"));
    }

    private static final String DELAY = "flink_taskmanager_job_task_operator_isowatch_le_detection_delay_seconds";
    private static final Pattern SAMPLE = Pattern.compile("^(" + Pattern.quote(DELAY) + "_(?:bucket|sum|count))\\{(.*)\\} (\\S+)$",
            Pattern.MULTILINE);
    private static final Pattern LE = Pattern.compile("le=\"([^\"]*)\",?");

    /** The +Inf buckets' values summed over subtasks: the findings with a known delay so far. */
    private static double infBucketTotal(String text) {
        double total = 0;
        Matcher m = SAMPLE.matcher(text);
        while (m.find()) {
            if (m.group(1).endsWith("_bucket") && m.group(2).contains("le=\"+Inf\"")) {
                total += Double.parseDouble(m.group(3));
            }
        }
        return total;
    }

    /** Whether each subtask's +Inf bucket equals its count in this scrape (both present). */
    private static boolean infBucketsEqualCounts(String text) {
        java.util.Map<String, Double> inf = new java.util.HashMap<>();
        java.util.Map<String, Double> counts = new java.util.HashMap<>();
        Matcher m = SAMPLE.matcher(text);
        while (m.find()) {
            String series = LE.matcher(m.group(2)).replaceAll("").replaceAll(",$", "");
            if (m.group(1).endsWith("_count")) {
                counts.put(series, Double.parseDouble(m.group(3)));
            } else if (m.group(1).endsWith("_bucket") && m.group(2).contains("le=\"+Inf\"")) {
                inf.put(series, Double.parseDouble(m.group(3)));
            }
        }
        return !inf.isEmpty() && inf.equals(counts);
    }

    /**
     * The detection delay as Prometheus histograms, one per subtask: buckets of the documented
     * bounds and +Inf, cumulative, +Inf equal to the count, and a sum; at least one finding counted.
     */
    private static void assertDelayHistogram(String text) {
        java.util.Map<String, java.util.TreeMap<Double, Double>> buckets = new java.util.HashMap<>();
        java.util.Map<String, Double> counts = new java.util.HashMap<>();
        java.util.Map<String, Double> sums = new java.util.HashMap<>();
        Matcher m = SAMPLE.matcher(text);
        while (m.find()) {
            Matcher le = LE.matcher(m.group(2));
            String series = le.replaceAll("").replaceAll(",$", "");
            double value = Double.parseDouble(m.group(3));
            if (m.group(1).endsWith("_bucket")) {
                assertTrue(le.reset().find(), m.group());
                double bound = le.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le.group(1));
                buckets.computeIfAbsent(series, k -> new java.util.TreeMap<>()).put(bound, value);
            } else if (m.group(1).endsWith("_count")) {
                counts.put(series, value);
            } else {
                sums.put(series, value);
            }
        }
        assertTrue(infBucketTotal(text) > 0, "a finding's delay counted; scraped:\n" + text.lines()
                .filter(l -> l.contains("isowatch")).collect(Collectors.joining("\n")));
        assertEquals(counts.keySet(), buckets.keySet(), "a count beside each subtask's buckets");
        assertEquals(counts.keySet(), sums.keySet(), "a sum beside each subtask's buckets");
        for (var e : buckets.entrySet()) {
            List<Double> bounds = List.copyOf(e.getValue().keySet());
            assertEquals(List.of(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, Double.POSITIVE_INFINITY), bounds,
                    e.getKey());
            double previous = 0;
            for (double v : e.getValue().values()) {
                assertTrue(v >= previous, "cumulative buckets: " + e.getValue());
                previous = v;
            }
            assertEquals(counts.get(e.getKey()), e.getValue().get(Double.POSITIVE_INFINITY), "+Inf is the count");
            assertTrue(sums.get(e.getKey()) >= 0, e.getKey());
        }
    }

    @Test
    void demo_bindAddress_movesEveryPortThere() throws Exception {
        InetAddress other = InetAddress.getByName("127.0.0.2"); // loopback too, on Linux
        int metricsPort = freePort();
        CheckCommandTest.Run r;
        Set<Listener> opened;
        try (ListeningSockets.Watch watch = ListeningSockets.watch()) {
            r = CheckCommandTest.run("demo", "--isolation", "serializable", "-c", "serializable", "--duration", "1",
                    "--rate", "200", "--metrics-port", Integer.toString(metricsPort), "--bind-address", "127.0.0.2",
                    "--ui-bind", "127.0.0.2");
            opened = watch.opened();
        }
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertOnlyOn(other, opened);
        assertTrue(opened.size() >= 6, opened.toString());
        assertTrue(opened.contains(new Listener(other, printedPort(r.out(), "Kafka at 127\\.0\\.0\\.2:(\\d+)"))));
        assertEquals(metricsPort, printedPort(r.out(), "Flink metrics at http://127\\.0\\.0\\.2:(\\d+)/"));
    }

    @Test
    void demo_unknownBindAddress_isAUsageErrorBeforeAnythingListens() throws Exception {
        try (ListeningSockets.Watch watch = ListeningSockets.watch()) {
            CheckCommandTest.Run r = CheckCommandTest.run("demo", "--bind-address", "no-such-host.invalid");
            assertEquals(ExitCodes.ERROR, r.code());
            assertTrue(r.err().startsWith("isowatch: --bind-address: unknown address no-such-host.invalid"), r.err());
            assertEquals(Set.of(), watch.opened());
        }
    }

    @Test
    void replay_brokerAndClusterListenOn127001Only() throws Exception {
        Set<Listener> opened;
        CheckCommandTest.Run r;
        try (ListeningSockets.Watch watch = ListeningSockets.watch()) {
            r = CheckCommandTest.run("replay", "-q", CheckCommandTest.golden("valid-concurrent").toString());
            opened = watch.opened();
        }
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertOnlyOn(LOOPBACK, opened);
        assertTrue(opened.size() >= 4, "Kafka broker and controller, Flink REST and blob server: " + opened);
    }

    /**
     * {@code isowatch job}'s local cluster: its REST endpoint, blob server and metrics port listen
     * on 127.0.0.1. The test then cancels the job through that REST endpoint, from loopback, as
     * anyone on the network could before.
     */
    @Test
    void job_localClusterListensOn127001Only() throws Exception {
        InJvmKafka kafka = InJvmKafka.shared();
        String topic = "loopback-only-history";
        kafka.createTopic(topic, 1);
        // The job's start-up check wants all three of its topics.
        kafka.createTopic("loopback-only-alerts", 1);
        kafka.createTopic("loopback-only-dead-letters", 1);
        int metricsPort = freePort();
        CompletableFuture<CheckCommandTest.Run> run;
        Set<Listener> opened;
        try (ListeningSockets.Watch watch = ListeningSockets.watch()) {
            run = CompletableFuture.supplyAsync(() -> CheckCommandTest.run("job", "--bootstrap-servers",
                    kafka.bootstrapServers(), "--history-topic", topic, "--alerts-topic", "loopback-only-alerts",
                    "--dead-letter-topic", "loopback-only-dead-letters", "--checkpoint-interval", "0",
                    "--checkpoint-dir", Path.of("target", "loopback-only-checkpoints").toString(),
                    "--metrics-port", Integer.toString(metricsPort)));
            String rest = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (rest == null && System.nanoTime() < deadline && !run.isDone()) {
                rest = runningJob(watch.opened());
                Thread.sleep(200);
            }
            opened = watch.opened();
            assertTrue(rest != null, "no running job found on any new listener; the job printed: "
                    + (run.isDone() ? run.get().err() : "(still running)") + "; listeners " + opened);
            HttpResponse<String> cancelled = HTTP.send(HttpRequest.newBuilder(URI.create(rest + "?mode=cancel"))
                    .method("PATCH", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(202, cancelled.statusCode(), cancelled.body());
        }
        CheckCommandTest.Run r = run.get(60, TimeUnit.SECONDS);
        assertTrue(r.err().contains("metrics at http://127.0.0.1:" + metricsPort + "/"), r.err());
        assertOnlyOn(LOOPBACK, opened);
        assertTrue(opened.contains(new Listener(LOOPBACK, metricsPort)), opened.toString());
        assertTrue(opened.size() >= 3, "REST, blob server and metrics: " + opened);
    }

    private static void assertOnlyOn(InetAddress address, Set<Listener> opened) {
        List<Listener> elsewhere = new ArrayList<>();
        for (Listener l : opened) {
            if (!l.address().equals(address)) {
                elsewhere.add(l);
            }
        }
        assertEquals(List.of(), elsewhere, "listening on other addresses than " + address.getHostAddress()
                + " (all: " + opened + ")");
    }

    /** The REST address of the one running job, found by asking each new listener for Flink's job list. */
    private static String runningJob(Set<Listener> listeners) {
        Pattern running = Pattern.compile("\\{\"id\":\"([0-9a-f]{32})\",\"status\":\"RUNNING\"\\}");
        for (Listener l : listeners) {
            String base = "http://" + l + "/jobs";
            try {
                HttpResponse<String> jobs = HTTP.send(HttpRequest.newBuilder(URI.create(base))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                Matcher m = running.matcher(jobs.body());
                if (jobs.statusCode() == 200 && m.find()) {
                    return base + "/" + m.group(1);
                }
            } catch (IOException notHttp) {
                // The blob server and others speak no HTTP.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    /**
     * Scrapes http://127.0.0.1:port/ until an answer is {@code done}, or the thread is interrupted;
     * the last answer that is {@code worthKeeping} is kept.
     */
    private static Thread scrapeWhenListening(int port, CompletableFuture<String> body,
                                              java.util.function.Predicate<String> done,
                                              java.util.function.Predicate<String> worthKeeping) {
        Thread t = new Thread(() -> {
            URI uri = URI.create("http://127.0.0.1:" + port + "/");
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    String text = HTTP.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();
                    if (worthKeeping.test(text)) {
                        body.obtrudeValue(text);
                    }
                    if (done.test(text)) {
                        return;
                    }
                } catch (IOException notYet) {
                    // not listening yet
                } catch (InterruptedException e) {
                    return;
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "metrics-scraper");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static int printedPort(String out, String regex) {
        Matcher m = Pattern.compile(regex).matcher(out);
        assertTrue(m.find(), "not printed: " + regex + " in\n" + out);
        return Integer.parseInt(m.group(1));
    }

    /** A port free a moment ago, for options that take a fixed port. */
    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, LOOPBACK)) {
            return s.getLocalPort();
        }
    }
}
