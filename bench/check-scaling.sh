#!/usr/bin/env bash
# Where a check's time goes as the history grows: `isowatch check` of a reference against this
# tree's launcher (bench/ab-launchers.sh), interleaved, on contended list-append histories of
# 1,000 to 1,000,000 transactions (bench/check-benchmark.sh makes them). Prints each run, then per
# size the medians, their ratio and the cost of each further transaction (the slope from the size
# before): a check's time is a fixed part (JVM start, the JIT warming the code a check runs)
# plus a part per transaction, and the ratio at one size says little about either alone. Usage:
#   bench/check-scaling.sh REFERENCE [RUNS]
set -euo pipefail
reference="${1:?usage: bench/check-scaling.sh REFERENCE [RUNS]}"
runs="${2:-4}"
# shellcheck source=bench/ab-launchers.sh
. "$(dirname "${BASH_SOURCE[0]}")/ab-launchers.sh"

results="$(mktemp)"
trap 'rm -f "$results"' EXIT
for txns in 1000 100000 250000 500000 1000000; do
  file=$(bench_history list-append contended "$txns")
  for run in $(seq 1 "$runs"); do
    read -r a b <<< "$(pair "$run" "$file")"
    echo "$txns txns run $run: reference $a s, this tree $b s" | tee -a "$results"
  done
done
awk "$median_awk"'
  { n = $1; ref[n, ++count[n]] = $6; cur[n, count[n]] = $10; if (!(n in seen)) { seen[n]; order[++sizes] = n } }
  END {
    print "\ntxns       reference  this tree  ratio   per further txn: reference  this tree"
    for (s = 1; s <= sizes; s++) {
      n = order[s]; r = median(ref, n, count[n]); c = median(cur, n, count[n])
      line = sprintf("%-10d %7.2f s  %7.2f s  x%.2f", n, r, c, r / c)
      if (s > 1) line = line sprintf("   %8.2f us  %8.2f us", (r - pr) / (n - pn) * 1e6, (c - pc) / (n - pn) * 1e6)
      print line; pn = n; pr = r; pc = c
    }
  }' "$results"
