#!/usr/bin/env bash
# A long checkpointed run of `isowatch job`, killed with SIGKILL twice and restarted, every process
# real: a KRaft broker (bench StandaloneBroker), `isowatch agent run` against the embedded store
# shipping to it, and `isowatch job` checkpointing every 10 s to a directory. The job is killed at
# a third and at two thirds of the run and started again at once (it resumes from its latest
# checkpoint on its own). Every 10 s the job's checkpoint figures are read from its Prometheus
# endpoint. At the end the alerts topic is compared one for one, by id, with `check`'s findings on
# the history the agent recorded (bench AlertParity; the topic's ids are kept in alerts.ids, so the
# comparison can be run again after the broker is gone).
#   bench/soak-job-kill.sh [DURATION_S=1800] [RATE=10000] [OUT=/tmp/isowatch-soak]
# Needs cli/target/isowatch-cli.jar and bench/target/benchmarks.jar (./mvnw -B -ntp package -DskipTests);
# both are copied first, so a rebuild during the run changes nothing.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
duration="${1:-1800}"
rate="${2:-10000}"
out="${3:-/tmp/isowatch-soak}"
models=serializable
metrics_port=9259
rm -rf "$out"
mkdir -p "$out"
cp "$here/cli/target/isowatch-cli.jar" "$out/isowatch.jar"
cp "$here/bench/target/benchmarks.jar" "$out/bench.jar"
flags="$(sed -n 's:.*<isowatch.jvm.flags>\(.*\)</isowatch.jvm.flags>.*:\1:p' "$here/pom.xml")"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# shellcheck disable=SC2086
java $flags -Xmx2g -cp "$out/bench.jar" io.isowatch.bench.StandaloneBroker "$out/bootstrap" \
  isowatch.history:2 isowatch.alerts:1 isowatch.dead-letters:1 > "$out/broker.log" 2>&1 &
pids+=($!)
for _ in $(seq 120); do [ -f "$out/bootstrap" ] && break; sleep 1; done
bootstrap="$(cat "$out/bootstrap")"
echo "broker at $bootstrap; output in $out"

job_pid=
start_job() {
  # shellcheck disable=SC2086
  java $flags -Xmx3g -jar "$out/isowatch.jar" job --bootstrap-servers "$bootstrap" \
    --checkpoint-dir "$out/checkpoints" --checkpoint-interval 10s --consistency-models "$models" \
    --metrics-port "$metrics_port" >> "$out/job.log" 2>&1 &
  job_pid=$!
  pids+=("$job_pid")
  echo "$(date +%T) job started (pid $job_pid)"
}
start_job

# shellcheck disable=SC2086
java $flags -Xmx2g -jar "$out/isowatch.jar" agent run --target embedded:serializable --agent-id soak \
  --rate "$rate" --duration "${duration}s" --stale-read-rate 0.0001 --bootstrap-servers "$bootstrap" \
  --spool-dir "$out/spool" --history-out "$out/history.jsonl" > "$out/agent.log" 2>&1 &
agent_pid=$!
pids+=("$agent_pid")

# Checkpoint figures every 10 s: elapsed, completed, failed, last size (bytes), last full size,
# last duration (ms), restarts of the job process so far.
printf 'elapsed_s\tcompleted\tfailed\tlast_size_bytes\tlast_full_size_bytes\tlast_duration_ms\tkills\n' > "$out/checkpoints.tsv"
metric() { awk -v m="$1" '$1 ~ "^"m"({|$)" {v=$2} END {print (v==""?"-":v)}' "$out/metrics.txt"; }
start=$(date +%s)
kills=0
while kill -0 "$agent_pid" 2>/dev/null; do
  sleep 10
  elapsed=$(( $(date +%s) - start ))
  if curl -s -m 5 "http://127.0.0.1:$metrics_port/" > "$out/metrics.txt" 2>/dev/null; then
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$elapsed" "$(metric flink_jobmanager_job_numberOfCompletedCheckpoints)" \
      "$(metric flink_jobmanager_job_numberOfFailedCheckpoints)" "$(metric flink_jobmanager_job_lastCheckpointSize)" \
      "$(metric flink_jobmanager_job_lastCheckpointFullSize)" "$(metric flink_jobmanager_job_lastCheckpointDuration)" \
      "$kills" >> "$out/checkpoints.tsv"
  fi
  if { [ "$kills" = 0 ] && [ "$elapsed" -ge $((duration / 3)) ]; } || { [ "$kills" = 1 ] && [ "$elapsed" -ge $((2 * duration / 3)) ]; }; then
    kill -9 "$job_pid"
    kills=$((kills + 1))
    echo "$(date +%T) job killed with SIGKILL ($kills) at ${elapsed}s"
    start_job
  fi
done
wait "$agent_pid" && agent_rc=0 || agent_rc=$?
echo "$(date +%T) agent ended with exit code $agent_rc"

# Let the job take in the rest, until its alerts topic stops growing for 30 s.
last=-1
while true; do
  sleep 30
  count=$(java -cp "$out/bench.jar" io.isowatch.bench.AlertParity --count "$bootstrap" isowatch.alerts 2>/dev/null || echo 0)
  [ "$count" = "$last" ] && break
  last=$count
done
kill "$job_pid" 2>/dev/null || true
grep -E "^isowatch job:" "$out/job.log" || true
echo "checkpoint directory: $(du -sh "$out/checkpoints" | cut -f1), $(ls "$out/checkpoints" | wc -l) job run(s)"
awk -F'\t' 'NR > 1 && $2 != "-" {n++; if ($4 + 0 > maxs) maxs = $4 + 0; if ($6 + 0 > maxd) maxd = $6 + 0; fail = $3}
  END {printf "checkpoint samples: %d; largest last checkpoint %.1f MB; longest %d ms; failed (last run) %s\n", n, maxs / 1e6, maxd, fail}' \
  "$out/checkpoints.tsv"
java -cp "$out/bench.jar" io.isowatch.bench.AlertParity --save "$bootstrap" isowatch.alerts "$out/alerts.ids"
java -Xmx12g -cp "$out/bench.jar" io.isowatch.bench.AlertParity "$out/history.jsonl" soak --ids "$out/alerts.ids" \
  "$models" | tee "$out/parity.txt"
