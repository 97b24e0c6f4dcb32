#!/usr/bin/env bash
# Builds every target and the tests, and fails if the compiler warned about
# any of this project's own files (dependencies' warnings are theirs). Only
# files compiled in this run are seen, so a fresh clone (CI) checks them all.
#
#   scripts/build-without-warnings.sh [swift]
set -uo pipefail
swift=${1:-swift}
root=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$swift" build --build-tests 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || exit "$status"
warnings=$(grep -E "^($root/)?(Sources|Tests|Plugins|Benchmarks)/[^:]+:[0-9]+:[0-9]+: warning:" "$log" | sort -u)
if [ -n "$warnings" ]; then
    echo "error: the build has compiler warnings in the project's own code:" >&2
    echo "$warnings" >&2
    exit 1
fi
