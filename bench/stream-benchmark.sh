#!/usr/bin/env bash
# End-to-end benchmark of the checker job (io.isowatch.bench.StreamBenchmark): an in-JVM KRaft
# broker, the job on a local Flink cluster (RocksDB, checkpoints every 10 s) and a rate-controlled
# generator feeding the history topic, all in one JVM. Usage:
#   bench/stream-benchmark.sh [key=value ...]
#     mode=throughput rate=50000 warmup=30 duration=60     (rate=0: as fast as the producer goes)
#     at 100,000 txn/s use warmup=180: the JIT compiles the broker, the clients and Flink for minutes
#     on two busy cores (12-18% of all samples before 150 s, 2% after 180 s)
#     ramp=60: the rate climbs linearly from 0 over the first 60 s (part of the warm-up)
#     mode=soak rate=10000 duration=1800 sample=60
#     mode=drain txns=3000000 duration=600: fill the topic first, then time the job checking it
#   throughput and soak end by stopping the job with a drain (final watermark): the last lines give
#   the detection delay over every finding, the end's included, and how many were released only at
#   the end of the history (and of those, how many had their evidence complete > 2 s before the end)
#   other keys: agents clients keys stale format partitions parallelism ooo checkpoint backend models
#               fullgc dir managed profile   (see StreamBenchmark.DEFAULTS)
#   flink.<key>=<value>: any Flink setting for the job, e.g. flink.state.backend.rocksdb.compression.per.level=NO_COMPRESSION
# Build first (own build dir, so concurrent builds do not clash; the reactor builds what bench needs,
# nothing goes to the local repository):
#   ./mvnw -B -ntp -o clean package -DskipTests -pl bench -am -Diw.target=target-bench
# (clean: without it the shade plugin may take its own previous jar as input and keep stale job classes)
# JAVA_OPTS (default -Xmx4g -XX:+UseG1GC) and JAR (default bench/target-bench/benchmarks.jar) may be set;
# PATCH_CLASSES (a classes directory placed before the jar) runs a what-if with patched job classes.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="${JAR:-$here/bench/target-bench/benchmarks.jar}"
[ -f "$jar" ] || jar="$here/bench/target/benchmarks.jar"
flags="$(sed -n 's:.*<isowatch.jvm.flags>\(.*\)</isowatch.jvm.flags>.*:\1:p' "$here/pom.xml")"
# shellcheck disable=SC2086
exec java $flags ${JAVA_OPTS:--Xmx4g -XX:+UseG1GC} -cp "${PATCH_CLASSES:+$PATCH_CLASSES:}$jar" io.isowatch.bench.StreamBenchmark "$@"
