# Sourced by the A/B scripts: `old` runs the reference's check, `new` this tree's launcher, both
# with -Xmx1g; `seconds CMD...` prints CMD's wall-clock time. The reference ($reference) is either
# a source tree, whose own ./isowatch launcher runs it (with the JVM flags of its day), or a CLI
# jar from before the launcher chose flags, run as java <Chronicle flags> -jar JAR.
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
