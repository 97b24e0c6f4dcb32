#!/usr/bin/env bash
# Runs `make test` (as CI does: .ci/run with CI=true) RUNS times in this
# checkout while a clean `swift build` of LOAD_CLONE loops beside it, the
# way a shared 2-core CI machine is busy; prints each run's status and time.
#   scripts/test-under-load.sh LOAD_CLONE [RUNS]
# LOAD_CLONE is another clone of this repository (it builds into its own
# .build-load). Logs: .build/under-load-N.log.
set -uo pipefail
load_clone=${1:?"usage: $0 LOAD_CLONE [RUNS]"}
runs=${2:-5}
cd "$(dirname "$0")/.."
mkdir -p .build
stop=$(mktemp)
rm -f "$stop"
( while [ ! -e "$stop" ]; do
    (cd "$load_clone" && rm -rf .build-load && swift build --scratch-path .build-load > /dev/null 2>&1)
  done ) &
load=$!
trap 'touch "$stop"; kill "$load" 2> /dev/null; pkill -f -- "--scratch-path .build-load" 2> /dev/null; rm -f "$stop"' EXIT
passed=0
for run in $(seq 1 "$runs"); do
    started=$(date +%s)
    CI=true bash .ci/run > ".build/under-load-$run.log" 2>&1
    status=$?
    [ "$status" -eq 0 ] && passed=$((passed + 1))
    echo "run $run: exit $status after $(( $(date +%s) - started )) s (.build/under-load-$run.log)"
done
echo "$passed of $runs passed under load"
[ "$passed" -eq "$runs" ]
