#!/usr/bin/env bash
# A CPU hog beside the tests: `stress-ng --cpu N` (Debian's stress-ng, installed on first use), so
# anyone can check that the suite waits for events and not for fixed budgets a busy machine misses.
#
#   bash scripts/cpu-hog.sh run [--cpus N] -- COMMAND...   hog on, COMMAND, hog off; COMMAND's exit status
#   bash scripts/cpu-hog.sh start [--cpus N]               hog on in the background (until `stop`)
#   bash scripts/cpu-hog.sh stop                           hog off
#   bash scripts/cpu-hog.sh status                         running or not, and the load average
#
# N defaults to 2 (one busy worker per core of a 2-core CI machine). The hog runs in a session of its
# own and is stopped by its process group id, kept in $PINCER_HOG_PIDFILE (default: /tmp/pincer-cpu-hog.pid).
# Example, the whole suite beside the hog:  bash scripts/cpu-hog.sh run -- npm test
set -euo pipefail

PIDFILE=${PINCER_HOG_PIDFILE:-${TMPDIR:-/tmp}/pincer-cpu-hog.pid}
CPUS=2

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

ensure_stress_ng() {
  command -v stress-ng >/dev/null && return
  echo "cpu-hog: installing stress-ng (Debian package)" >&2
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends stress-ng >/dev/null \
    || { $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends stress-ng >/dev/null; }
}

running_pgid() {
  [ -f "$PIDFILE" ] || return 1
  local pgid
  pgid=$(cat "$PIDFILE")
  # The pid must still be the stress-ng we started (pids are reused).
  [ -n "$pgid" ] && kill -0 "$pgid" 2>/dev/null && grep -q stress-ng "/proc/$pgid/comm" 2>/dev/null || return 1
  echo "$pgid"
}

start() {
  if pgid=$(running_pgid); then echo "cpu-hog: already running (process group $pgid)"; return; fi
  ensure_stress_ng
  # setsid: the hog leads its own process group, so `stop` ends its workers with it. The timeout is a
  # safety net for a hog whose stop never came (a killed terminal), not part of the measurement.
  setsid stress-ng --cpu "$CPUS" --timeout 3h --quiet </dev/null >/dev/null 2>&1 &
  echo $! >"$PIDFILE"
  echo "cpu-hog: stress-ng --cpu $CPUS running (process group $!); load average $(load)"
}

stop() {
  local pgid
  if ! pgid=$(running_pgid); then rm -f "$PIDFILE"; echo "cpu-hog: not running"; return; fi
  kill -TERM -- "-$pgid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pgid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL -- "-$pgid" 2>/dev/null || true
  rm -f "$PIDFILE"
  echo "cpu-hog: stopped; load average $(load)"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
while [ $# -gt 0 ]; do
  case "$1" in
    --cpus) CPUS=${2:?--cpus needs a number}; shift 2 ;;
    --) shift; break ;;
    *) [ "$cmd" = run ] && break; echo "cpu-hog: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
done
[[ "$CPUS" =~ ^[1-9][0-9]*$ ]] || { echo "cpu-hog: --cpus wants a positive number" >&2; exit 2; }

case "$cmd" in
  start) start ;;
  stop) stop ;;
  status)
    if pgid=$(running_pgid); then echo "cpu-hog: running (process group $pgid); load average $(load)"
    else echo "cpu-hog: not running; load average $(load)"; fi ;;
  run)
    [ $# -gt 0 ] || { echo "cpu-hog: run needs a command after --" >&2; exit 2; }
    start
    trap stop EXIT
    trap 'exit 130' INT TERM
    status=0
    "$@" || status=$?
    echo "cpu-hog: the command exited with status $status; load average $(load)"
    exit "$status" ;;
  -h|--help|help) usage ;;
  *) usage >&2; exit 2 ;;
esac
