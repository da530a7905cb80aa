# Sourced by the A/B scripts: `old` runs the reference's check, `new` this tree's launcher, both
# with -Xmx1g; `seconds CMD...` prints CMD's wall-clock time; `pair RUN ARGS...` prints the
# reference's and this tree's seconds for one check, the first run first on odd runs (these
# machines drift within minutes); `bench_history WORKLOAD SHAPE TXNS` prints the path of a benchmark
# history, made by bench/check-benchmark.sh the first time; `$median_awk` is an awk function,
# median(a, key, k), of a[key, 1..k]. The reference ($reference) is either a source tree, whose
# own ./isowatch launcher runs it (with the JVM flags of its day), or a CLI jar from before the
# launcher chose flags, run as java <Chronicle flags> -jar JAR.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
flags="$(sed -n 's:.*<isowatch.jvm.flags>\(.*\)</isowatch.jvm.flags>.*:\1:p' "$here/pom.xml")"

seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }'
}
if [ -d "$reference" ]; then
  old() { JAVA_OPTS=-Xmx1g "$reference/isowatch" check -q "$@"; }
else
  # shellcheck disable=SC2086
  old() { java $flags -Xmx1g -jar "$reference" check -q "$@"; }
fi
new() { JAVA_OPTS=-Xmx1g "$here/isowatch" check -q "$@"; }

pair() {
  local run="$1" a b
  shift
  if [ $((run % 2)) = 1 ]; then
    a=$(seconds old "$@"); b=$(seconds new "$@")
  else
    b=$(seconds new "$@"); a=$(seconds old "$@")
  fi
  echo "$a $b"
}

bench_history() {
  local file="${TMPDIR:-/tmp}/isowatch-bench-$1-$2-$3.jsonl"
  if [ ! -s "$file" ]; then
    GENERATE_ONLY=1 "$here/bench/check-benchmark.sh" "$3" "$1" "$2" >&2
  fi
  echo "$file"
}

# shellcheck disable=SC2034 # used by the scripts that source this one
median_awk='
  function median(a, key, k,   i, j, t, v) {
    for (i = 1; i <= k; i++) v[i] = a[key, i]
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
  }'
