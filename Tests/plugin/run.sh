#!/usr/bin/env bash
# The SwiftPM command plugin, run the way a user runs it: in a small package
# that depends on Rowmotion by path. Prints "N passed, M failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sources/App" "$work/examples" "$work/site"
cat > "$work/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "App",
    dependencies: [.package(path: "$root")],
    targets: [.target(name: "App")]
)
EOF
echo 'public let answer = 42' > "$work/Sources/App/App.swift"
printf 'title: Inbox\ndescription: New mail on top.\nsteps:\n  - items: [Welcome, Invoice]\n  - items: [Reminder, Welcome, Invoice]\n' > "$work/examples/inbox.yml"
printf '# App\n\n```rowmotion\nexample: inbox.yml\n```\n' > "$work/site/index.md"
cd "$work"
export ROWMOTION_PLUGIN_CONFIGURATION=debug
passed=0 failed=0
check() { if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $*" >&2; fi; }
# within SECONDS COMMAND...: whether COMMAND succeeds within that many seconds (tried each second).
within() { local seconds=$1; shift; for _ in $(seq 1 "$seconds"); do "$@" && return 0; sleep 1; done; return 1; }
answers() { python3 -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=5)" "$1" 2> /dev/null; }
port_free() { ! answers "$1"; }

swift package --allow-writing-to-package-directory rowmotion build --strict > build.log 2>&1
check test $? -eq 0
check test -f _site/index.html
check test -f _site/examples/inbox.html
check grep -q 'data-rowmotion-player="inbox.yml"' _site/index.html
check grep -q "rowmotion: building the tool (debug; the first time takes a minute or two)" build.log
# A first build takes minutes: the time it has taken is said as it goes, and at its end.
check grep -Eq "rowmotion: still building the tool \(debug\): [0-9]+ s so far" build.log
check grep -Eq "rowmotion: the tool built in [0-9]+ s" build.log
swift package --allow-writing-to-package-directory rowmotion check --strict > check.log 2>&1
check test $? -eq 0
# Built already: the plugin does not say the first time takes a minute.
check test "$(grep -c "the first time takes" check.log)" -eq 0
# Folders with no page and no example: an error through the plugin too, not an empty site.
swift package --allow-writing-to-package-directory rowmotion build --site Sources --examples Sources --out _empty > empty.log 2>&1
check test $? -ne 0
check grep -q "error: found no pages in 'Sources' and no examples in 'Sources'" empty.log
check test ! -e _empty
# check finds nothing in folders with no page and no example: an error through the plugin too.
swift package rowmotion-check --site Sources --examples Sources > check-empty.log 2>&1
check test $? -ne 0
check grep -q "error: found no pages in 'Sources' and no examples in 'Sources'" check-empty.log
# init through the plugin: its hint is the plugin's command.
swift package --allow-writing-to-package-directory rowmotion init fresh > init.log 2>&1
check test $? -eq 0
check grep -q "next: cd fresh, then swift package --allow-writing-to-package-directory rowmotion build, then open _site/index.html" init.log
check grep -q "created fresh/site/index.md" init.log
check grep -qx ".build/" fresh/.gitignore
# The read-only verbs need no permission.
swift package rowmotion-check --strict > readonly.log 2>&1
check test $? -eq 0
# Another plugin finds the tool built in the package's build folder too.
check test "$(grep -c "the first time takes" readonly.log)" -eq 0
check grep -q "checked 1 page and 1 example: 0 errors, 0 warnings" readonly.log
swift package rowmotion-diff examples/inbox.yml --format json > diff.log 2>&1
check test $? -eq 0
check grep -q '"insert": \[\[0, 0\]\]' diff.log
swift package rowmotion-check --help > help.log 2>&1
check test $? -eq 0
check grep -q "USAGE: rowmotion check" help.log
# serve through the plugin prints its address while it runs, and stops when
# the plugin is gone (its swift package killed) instead of holding the port.
swift package --allow-writing-to-package-directory rowmotion serve --port 0 > serve.log 2>&1 < /dev/null &
plugin_pid=$!
within 120 grep -q "serving _site at http://127.0.0.1:" serve.log
serving=$?
check test "$serving" -eq 0
[ "$serving" -eq 0 ] || { echo "--- serve.log"; tail -20 serve.log; } >&2
url=$(grep -o 'http://127.0.0.1:[0-9]*/' serve.log | head -1)
check answers "$url"
# A file broken while it serves: its located error shows at once, not when serve ends.
printf 'steps:\n  - items: [b, b]\n' > examples/serving-broken.yml
# Waits for the line itself (a rebuild under a loaded machine, relayed by the
# package manager, once took over 30 s); the log shows what came instead.
within 120 grep -q "examples/serving-broken.yml:2:16: error: duplicate row id 'b'" serve.log
relayed=$?
check test "$relayed" -eq 0
[ "$relayed" -eq 0 ] || { echo "--- serve.log"; tail -20 serve.log; } >&2
built_before=$(grep -c "built in" serve.log)
rm -f examples/serving-broken.yml
builds_more_than() { [ "$(grep -c "built in" serve.log)" -gt "$1" ]; }
check within 120 builds_more_than "$built_before"
# Bursts of lines, build after build: every line reaches the user, in the
# order the tool wrote it (a build's errors, then its "build failed"). The
# package manager reads a plugin's messages with no lock: two threads
# relaying at once garbled one, and it showed nothing after (round 6 or 7).
# last_build: "failed N" (N: its burst errors, printed before it) or "built".
last_build() {
    awk '/examples\/burst-[0-9]+\.yml:2:16: error: duplicate row id/ { errors++ }
         /built in [0-9]|build failed \(/ { last = $0; shown = errors; errors = 0 }
         END { print (last ~ /build failed/ ? "failed " shown : "built") }' serve.log
}
last_build_is() { [ "$(last_build)" = "$1" ]; }
bursts_relayed() {
    local round n
    for round in $(seq 1 10); do
        for n in $(seq 1 40); do printf 'steps:\n  - items: [b, b]\n' > "examples/burst-$n.yml"; done
        within 120 last_build_is "failed 40" || { echo "round $round: last build: $(last_build) (want: failed 40)"; return 1; }
        rm -f examples/burst-*.yml
        within 120 last_build_is built || { echo "round $round: last build: $(last_build) (want: built)"; return 1; }
    done
}
bursts_relayed >&2
bursts=$?
check test "$bursts" -eq 0
[ "$bursts" -eq 0 ] || { echo "--- serve.log"; tail -20 serve.log; } >&2
kill -KILL "$plugin_pid"
wait "$plugin_pid" 2> /dev/null
check within 10 port_free "$url"
# A broken example: the plugin fails, and the tool's located error reaches the user.
printf 'steps:\n  - items: [a, a]\n' > examples/broken.yml
swift package --allow-writing-to-package-directory rowmotion check > broken.log 2>&1
check test $? -ne 0
check grep -q "examples/broken.yml:2:16: error: duplicate row id 'a' in this snapshot" broken.log
# A package that depends on Rowmotion with traits: [] (ListDiff only): the
# plugin says which line to change instead of a missing module.
lean="$work/lean"
mkdir -p "$lean/Sources/Lean" "$lean/examples"
cat > "$lean/Package.swift" <<EOF
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Lean",
    dependencies: [.package(path: "$root", traits: [])],
    targets: [.target(name: "Lean", dependencies: [.product(name: "ListDiff", package: "$(basename "$root")")])]
)
EOF
printf 'import ListDiff\npublic let rows = 1\n' > "$lean/Sources/Lean/Lean.swift"
cp examples/inbox.yml "$lean/examples/"
(cd "$lean" && swift build > build.log 2>&1)
check test $? -eq 0
(cd "$lean" && swift package rowmotion-check > check.log 2>&1)
check test $? -ne 0
check grep -q "needs Rowmotion's Site trait, which this package's dependency on Rowmotion turns off (traits: \[\])" "$lean/check.log"
check grep -qF 'remove `traits: []` from that line in Package.swift' "$lean/check.log"
# In the words of the package's own line: a path, not a URL it does not have.
check grep -qF '.package(path: "' "$lean/check.log"
check grep -qF ', traits: []),' "$lean/check.log"
check test "$(grep -c "package(url" "$lean/check.log")" -eq 0
check test "$(grep -c "no such module" "$lean/check.log")" -eq 0
[ "$failed" -eq 0 ] || { echo "--- lean/check.log"; tail -20 "$lean/check.log"; } >&2
[ "$failed" -eq 0 ] || { echo "--- build.log"; tail -20 build.log; echo "--- broken.log"; tail -20 broken.log; } >&2
echo "plugin: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
