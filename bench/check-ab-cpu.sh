#!/usr/bin/env bash
# As bench/check-ab.sh (a reference against this tree's launcher, interleaved, -Xmx1g, the three
# 500k histories), with each check's CPU time (user + system, all its threads) beside its wall
# clock: on a machine shared with other work a check's CPU time moves far less than its wall
# clock. Usage:
#   bench/check-ab-cpu.sh REFERENCE [TXNS] [RUNS]
set -euo pipefail
reference="${1:?usage: bench/check-ab-cpu.sh REFERENCE [TXNS] [RUNS]}"
txns="${2:-500000}"
runs="${3:-5}"
# shellcheck source=bench/ab-launchers.sh
. "$(dirname "${BASH_SOURCE[0]}")/ab-launchers.sh"

TIMEFORMAT='%R %U %S'
# "WALL CPU" seconds of one command.
measure() {
  local t
  t=$( { time "$@" > /dev/null 2>&1; } 2>&1 )
  awk '{ printf "%.2f %.2f", $1, $2 + $3 }' <<< "$t"
}

for shape in "list-append default" "list-append contended" "rw-register contended"; do
  read -r workload kind <<< "$shape"
  file=$(bench_history "$workload" "$kind" "$txns")
  for run in $(seq 1 "$runs"); do
    if [ $((run % 2)) = 1 ]; then
      a=$(measure old -m "$workload" "$file"); b=$(measure new -m "$workload" "$file")
    else
      b=$(measure new -m "$workload" "$file"); a=$(measure old -m "$workload" "$file")
    fi
    read -r a_wall a_cpu <<< "$a"
    read -r b_wall b_cpu <<< "$b"
    echo "$workload $kind run $run: wall $a_wall -> $b_wall s; cpu $a_cpu -> $b_cpu s (load $(cut -d' ' -f1 /proc/loadavg))"
  done
done
