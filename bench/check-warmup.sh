#!/usr/bin/env bash
# How much of a check is the JVM warming up: on the three histories of bench/check-ab.sh, the
# reference's check (bench/ab-launchers.sh) beside this tree's, run as users run it (cold: a
# fresh JVM), and this tree's check of the same file once the JVM is warm (the third of three
# checks of it in one JVM, as `isowatch check FILE FILE FILE` reports each), plus a fresh JVM's
# check of a one-transaction history (starting the JVM and the CLI). Start plus warm is what a
# check would take if the JIT had nothing left to compile, with ahead-of-time compiled code;
# the reference's time over it is the ratio such a build could reach. Usage:
#   bench/check-warmup.sh REFERENCE [TXNS] [RUNS]
set -euo pipefail
reference="${1:?usage: bench/check-warmup.sh REFERENCE [TXNS] [RUNS]}"
txns="${2:-500000}"
runs="${3:-3}"
# shellcheck source=bench/ab-launchers.sh
. "$(dirname "${BASH_SOURCE[0]}")/ab-launchers.sh"

tiny="$(mktemp --suffix=.jsonl)"
results="$(mktemp)"
trap 'rm -f "$tiny" "$results"' EXIT
"$here/isowatch" gen -n 1 -o "$tiny"

# The seconds the last of three checks of $2 in one JVM took, as the check reports it.
warm() {
  JAVA_OPTS=-Xmx1g "$here/isowatch" check -q -m "$1" "$2" "$2" "$2" \
    | sed -n 's/.* checked in \([0-9.]*\) s$/\1/p' | tail -n 1
}

for shape in "list-append default" "list-append contended" "rw-register contended"; do
  read -r workload kind <<< "$shape"
  file=$(bench_history "$workload" "$kind" "$txns")
  for run in $(seq 1 "$runs"); do
    read -r ref cold <<< "$(pair "$run" -m "$workload" "$file")"
    start=$(seconds new "$tiny")
    hot=$(warm "$workload" "$file")
    echo "$workload-$kind $run $ref $cold $start $hot" >> "$results"
    awk -v s="$workload $kind" -v r="$run" -v a="$ref" -v c="$cold" -v t="$start" -v w="$hot" 'BEGIN {
      printf "%s run %d: reference %.2f s; this tree cold %.2f s (x%.2f); start %.2f + warm %.2f = %.2f s (x%.2f)\n",
        s, r, a, c, a / c, t, w, t + w, a / (t + w) }'
  done
done
awk "$median_awk"'
  { key = $1; n[key]++; ref[key, n[key]] = $3; ratio[key, n[key]] = $3 / $4; bound[key, n[key]] = $3 / ($5 + $6)
    if (!(key in seen)) { seen[key]; order[++shapes] = key } }
  END {
    print "\nmedians                      cold ratio   ratio without warm-up"
    for (s = 1; s <= shapes; s++) {
      key = order[s]
      printf "%-28s x%-10.2f x%.2f\n", key, median(ratio, key, n[key]), median(bound, key, n[key])
    }
  }' "$results"
