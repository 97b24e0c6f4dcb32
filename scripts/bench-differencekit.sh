#!/bin/sh
# ListDiff beside DifferenceKit 1.3.0 on rowmotion-bench's diff cases.
#
#   scripts/bench-differencekit.sh DIFFERENCEKIT [CASE ...]     (RUNS=15 by default)
#
# DIFFERENCEKIT is a checkout, or a bare clone, of
# https://github.com/ra1028/DifferenceKit (tag 1.3.0). DifferenceKit is not
# a dependency of the project, so the two are compared in a package of
# their own, assembled here under .build/differencekit-bench: its sources
# (without the UIKit and AppKit extensions), ListDiff's, the benchmark's
# cases, and Benchmarks/differencekit/main.swift; built in release with
# cross-module optimization for both libraries alike. CASE: A, C,
# A-sections, D, ... (every case when none is named).
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 DIFFERENCEKIT-CHECKOUT-OR-BARE-CLONE [CASE ...]" >&2
    exit 2
fi
dk=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/.build/differencekit-bench"
rm -rf "$work/Sources"
mkdir -p "$work/Sources/DifferenceKit" "$work/Sources/ListDiff" "$work/Sources/SeededRandom" "$work/Sources/bench"
if [ -d "$dk/Sources" ]; then
    cp "$dk"/Sources/*.swift "$work/Sources/DifferenceKit/"
elif git --git-dir="$dk" rev-parse --verify -q HEAD >/dev/null; then
    mkdir -p "$work/archive"
    git --git-dir="$dk" archive HEAD Sources | tar -x -C "$work/archive"
    cp "$work"/archive/Sources/*.swift "$work/Sources/DifferenceKit/"
    rm -rf "$work/archive"
else
    echo "$dk: error: neither a DifferenceKit checkout (no Sources/) nor a git repository" >&2
    exit 1
fi
cp "$root"/Sources/ListDiff/*.swift "$work/Sources/ListDiff/"
cp "$root"/Sources/SeededRandom/*.swift "$work/Sources/SeededRandom/"
cp "$root/Benchmarks/rowmotion-bench/Cases.swift" "$root/Benchmarks/rowmotion-bench/Report.swift" \
   "$root/Benchmarks/differencekit/main.swift" "$work/Sources/bench/"
cat > "$work/Package.swift" <<'PACKAGE'
// swift-tools-version:5.9
import PackageDescription
let optimized: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"])]
let package = Package(
    name: "differencekit-bench",
    targets: [
        .target(name: "DifferenceKit", swiftSettings: optimized),
        .target(name: "SeededRandom"),
        .target(name: "ListDiff", swiftSettings: optimized),
        .executableTarget(name: "bench", dependencies: ["DifferenceKit", "ListDiff", "SeededRandom"]),
    ]
)
PACKAGE
swift build --package-path "$work" -c release >&2
exec "$work/.build/release/bench" "$@"
