#!/usr/bin/env bash
# A/B of `isowatch check` in one sitting: a reference against this tree's launcher, interleaved
# (each pair's order alternating, since these machines drift within minutes), on the three
# histories bench/check-benchmark.sh makes (default and contended list-append, contended
# rw-register); each check beside the same launcher's --parse-only. Wall clock, JVM start
# included, -Xmx1g. The reference is a source tree or a CLI jar (bench/ab-launchers.sh). Usage:
#   bench/check-ab.sh REFERENCE [TXNS] [RUNS]
# Build a reference tree with: git worktree add /tmp/ref <commit> && (cd /tmp/ref && ./mvnw -B -ntp
# -q -DskipTests -pl cli -am package), then pass /tmp/ref (or /tmp/ref/cli/target/isowatch-cli.jar).
set -euo pipefail
reference="${1:?usage: bench/check-ab.sh REFERENCE [TXNS] [RUNS]}"
txns="${2:-500000}"
runs="${3:-3}"
# shellcheck source=bench/ab-launchers.sh
. "$(dirname "${BASH_SOURCE[0]}")/ab-launchers.sh"

for shape in "list-append default" "list-append contended" "rw-register contended"; do
  read -r workload kind <<< "$shape"
  file=$(bench_history "$workload" "$kind" "$txns")
  for run in $(seq 1 "$runs"); do
    read -r c_old c_new <<< "$(pair "$run" -m "$workload" "$file")"
    r_old=$(seconds old --parse-only -m "$workload" "$file"); r_new=$(seconds new --parse-only -m "$workload" "$file")
    awk -v w="$workload $kind" -v r="$run" -v a="$c_old" -v b="$c_new" -v c="$r_old" -v d="$r_new" \
      'BEGIN { printf "%s run %d: check %.2f -> %.2f s (x%.2f); read only %.2f -> %.2f s\n", w, r, a, b, a / b, c, d }'
  done
done
