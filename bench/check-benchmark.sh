#!/usr/bin/env bash
# End-to-end benchmark of `isowatch check`: wall-clock time, including JVM start and parsing, of
# checking a generated strict-serializable history, with a 1 GiB heap. Usage:
#   bench/check-benchmark.sh [TXNS] [WORKLOAD]      (defaults: 1000000 list-append)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
txns="${1:-1000000}"
workload="${2:-list-append}"
file="${TMPDIR:-/tmp}/isowatch-bench-${workload}-${txns}.jsonl"
launcher="$here/isowatch"

if [ ! -s "$file" ]; then
  echo "generating $txns $workload transactions into $file" >&2
  "$launcher" gen --workload "$workload" -n "$txns" --seed 1 -o "$file"
fi
ls -l "$file" >&2
for run in 1 2 3; do
  start=$(date +%s.%N)
  JAVA_OPTS="-Xmx1g" "$launcher" check -q -m "$workload" "$file" > /dev/null
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" -v n="$txns" -v r="$run" \
    'BEGIN { t = e - s; printf "run %d: %.2f s wall, %.0f txn/s\n", r, t, n / t }'
done
