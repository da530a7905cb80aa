#!/usr/bin/env bash
# `isowatch check` on histories whose reads are long (issue 35, item 6): how long a check takes
# (wall, and CPU: user + system, steadier on a shared machine), its peak memory (resident), exit
# code and stderr, for each shape below and read length. Usage:
#   bench/long-reads.sh [REFERENCE] [LENGTHS...]
# REFERENCE: a source tree (its ./isowatch runs) or a CLI jar (java <Chronicle flags> -jar JAR,
# with the launcher's check flags); default: this tree. LENGTHS default: 10000 100000 1000000.
# HEAP (default 1g) is the -Xmx, TIMEOUT (default 120) the seconds a check may take, SHAPES (default
# all) the shapes to run.
# Shapes, each for read length N (the files go to ${TMPDIR:-/tmp}/isowatch-long-reads):
#   garbage     one ok transaction reads key 1 as [1..N]; nobody appends to it
#   many        ten such transactions
#   prefixes    ten transactions read key 1 as [1..N/10], [1..2N/10], ... [1..N]; nobody appends
#   real        N transactions append 1..N to key 1, then ten read [1..N]
#   aborted     N transactions append 1..N to key 1 and fail, then one reads [1..N] (N G1a, as Elle)
#   repeats     one transaction appends 1, one reads [1 1 ... 1] (N times), then 1,000 read [1]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
reference="${1:-$here}"
shift || true
lengths=("${@:-10000 100000 1000000}")
read -r -a lengths <<< "${lengths[*]}"
heap="${HEAP:-1g}"
limit="${TIMEOUT:-120}"
dir="${TMPDIR:-/tmp}/isowatch-long-reads"
mkdir -p "$dir"
flags="$(sed -n 's:.*<isowatch.jvm.flags>\(.*\)</isowatch.jvm.flags>.*:\1:p' "$here/pom.xml")"

if [ -d "$reference" ]; then
  run() { JAVA_OPTS="-Xmx$heap" timeout "$limit" "$reference/isowatch" check -q "$@"; }
else
  # shellcheck disable=SC2086
  run() { timeout "$limit" java $flags -XX:+UseParallelGC -XX:TieredStopAtLevel=1 "-Xms$heap" "-Xmx$heap" -jar "$reference" check -q "$@"; }
fi

# Writes shape $1 with read length $2 as JSON lines on stdout; each transaction is an invocation
# and its completion, one process per transaction.
generate() {
  awk -v shape="$1" -v n="$2" '
    function op(type, value) {
      printf "{\"index\":%d,\"time\":%d,\"type\":\"%s\",\"process\":%d,\"f\":\"txn\",\"value\":%s\n", idx, idx, type, p, value
      idx++
    }
    function read_txn(from, to, repeat,   i) {
      op("invoke", "[[\"r\",1,null]]}")
      printf "{\"index\":%d,\"time\":%d,\"type\":\"ok\",\"process\":%d,\"f\":\"txn\",\"value\":[[\"r\",1,[", idx, idx, p
      for (i = from; i <= to; i++) printf "%s%d", i == from ? "" : ",", repeat ? 1 : i
      printf "]]]}\n"
      idx++; p++
    }
    function append_txn(e, outcome) {
      op("invoke", "[[\"append\",1," e "]]}"); op(outcome, "[[\"append\",1," e "]]}"); p++
    }
    BEGIN {
      if (shape == "garbage") read_txn(1, n)
      if (shape == "many") for (k = 0; k < 10; k++) read_txn(1, n)
      if (shape == "prefixes") for (k = 1; k <= 10; k++) read_txn(1, int(n * k / 10))
      if (shape == "real") { for (e = 1; e <= n; e++) append_txn(e, "ok"); for (k = 0; k < 10; k++) read_txn(1, n) }
      if (shape == "aborted") { for (e = 1; e <= n; e++) append_txn(e, "fail"); read_txn(1, n) }
      if (shape == "repeats") { append_txn(1, "ok"); read_txn(1, n, 1); for (k = 0; k < 1000; k++) read_txn(1, 1) }
    }'
}

printf '%-9s %9s %10s %5s %8s %8s %8s  %s\n' shape length bytes exit "wall s" "cpu s" "peak MB" "stderr (lines: first)"
for n in "${lengths[@]}"; do
  for shape in ${SHAPES:-garbage many prefixes real aborted repeats}; do
    file="$dir/$shape-$n.jsonl"
    [ -s "$file" ] || generate "$shape" "$n" > "$file"
    start=$(date +%s.%N)
    code=0
    /usr/bin/time -f '%M %U %S' -o "$dir/rss" bash -c "$(declare -f run); $(declare -p flags heap limit reference); run \"\$@\"" _ "$file" \
      > /dev/null 2> "$dir/stderr" || code=$?
    end=$(date +%s.%N)
    read -r rss user sys <<< "$(tail -n 1 "$dir/rss")"
    grep -v -e '^Command exited' -e '^Command terminated' "$dir/stderr" > "$dir/stderr.clean" || true
    lines=$(wc -l < "$dir/stderr.clean")
    awk -v s="$shape" -v n="$n" -v b="$(wc -c < "$file")" -v c="$code" -v t0="$start" -v t1="$end" -v m="${rss:-0}" \
      -v cpu="$(awk -v u="${user:-0}" -v y="${sys:-0}" 'BEGIN { print u + y }')" \
      -v l="$lines" -v first="$(head -n 1 "$dir/stderr.clean" | cut -c 1-150)" \
      'BEGIN { printf "%-9s %9d %10d %5d %8.2f %8.2f %8.0f  %d: %s\n", s, n, b, c, t1 - t0, cpu, m / 1024, l, first }'
  done
done
