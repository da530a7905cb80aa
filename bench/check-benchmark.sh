#!/usr/bin/env bash
# End-to-end benchmark of `isowatch check`: wall-clock time, including JVM start and parsing, of
# checking a generated strict-serializable history with a 1 GiB heap, beside the time the same
# launcher takes only to read the file (`check --parse-only`), so every run shows how far checking
# is from reading. Usage:
#   bench/check-benchmark.sh [TXNS] [WORKLOAD] [SHAPE] [FORMAT]
# WORKLOAD: list-append (default) or rw-register.
# SHAPE: gen's defaults (default), or "contended": 20 processes, 100 keys, 2% fail, 1% info.
# FORMAT: jsonl (default: JSON lines) or edn (Jepsen's history.edn shape).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
txns="${1:-1000000}"
workload="${2:-list-append}"
shape="${3:-default}"
format="${4:-jsonl}"
launcher="${ISOWATCH:-$here/isowatch}"
case "$shape" in
  default) gen_flags=() ;;
  contended) gen_flags=(--concurrency 20 --keys 100 --fail-rate 0.02 --info-rate 0.01) ;;
  *) echo "unknown shape '$shape': default or contended" >&2; exit 2 ;;
esac
case "$format" in
  jsonl) gen_flags+=(--format json) ;;
  edn) gen_flags+=(--format edn) ;;
  *) echo "unknown format '$format': jsonl or edn" >&2; exit 2 ;;
esac
file="${TMPDIR:-/tmp}/isowatch-bench-${workload}-${shape}-${txns}.${format}"

if [ ! -s "$file" ]; then
  echo "generating $txns $workload transactions ($shape) into $file" >&2
  "$launcher" gen --workload "$workload" -n "$txns" --seed 1 "${gen_flags[@]}" -o "$file"
fi
ls -l "$file" >&2
# bench/check-ab.sh uses this script only to make the file.
[ -z "${GENERATE_ONLY:-}" ] || exit 0
seconds() {
  local start end
  start=$(date +%s.%N)
  JAVA_OPTS="-Xmx1g" "$launcher" check -q -m "$workload" "$@" "$file" > /dev/null
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }'
}
for run in 1 2 3; do
  read_s=$(seconds --parse-only)
  check_s=$(seconds)
  awk -v r="$run" -v c="$check_s" -v p="$read_s" -v n="$txns" \
    'BEGIN { printf "run %d: check %.2f s wall (%.0f txn/s); read only %.2f s; check/read %.2f\n", r, c, n / c, p, c / p }'
done
