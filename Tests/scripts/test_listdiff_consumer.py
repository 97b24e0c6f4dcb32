"""A package that needs only ListDiff turns the `Site` trait off
(`traits: []`) and then resolves none of the site generator's packages and
compiles none of their code: measured here on a consumer that depends on
this repository by path, built with the same toolchain."""
import json
import re
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE_PACKAGES = ["swift-argument-parser", "Yams", "swift-mustache", "TOMLKit"]


def test_a_listdiff_only_consumer_with_the_site_trait_off_resolves_and_builds_none_of_its_packages(tmp_path):
    (tmp_path / "Sources" / "App").mkdir(parents=True)
    (tmp_path / "Package.swift").write_text(f"""// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [.package(path: {json.dumps(str(ROOT))}, traits: [])],
    targets: [.executableTarget(name: "App", dependencies: [
        .product(name: "ListDiff", package: "{ROOT.name}"),
        .product(name: "SequenceRecorder", package: "{ROOT.name}"),
    ])]
)
""")
    (tmp_path / "Sources" / "App" / "main.swift").write_text("""import ListDiff
import SequenceRecorder

struct Row: DiffableRow, Equatable { let id: String }
let before = Snapshot(sectionID: "s", rows: [Row(id: "a"), Row(id: "b"), Row(id: "c")])
let after = Snapshot(sectionID: "s", rows: [Row(id: "c"), Row(id: "a"), Row(id: "b")])
let changeset = try Changeset(from: before, to: after)
var recorder = SequenceRecorder<String, Row>(title: "Consumer")
try recorder.record(before, label: "Initial")
try recorder.record(after, label: "c to the top")
print(changeset.moveCount, try recorder.json().contains("c to the top"))
""")
    started = time.monotonic()
    resolve = subprocess.run(["swift", "package", "resolve"], cwd=tmp_path, capture_output=True, text=True)
    resolved_in = time.monotonic() - started
    assert resolve.returncode == 0, resolve.stderr
    fetched = [name for name in SITE_PACKAGES if name.lower() in (resolve.stdout + resolve.stderr).lower()]
    assert fetched == [], f"resolved the site generator's packages: {fetched}"
    pins = json.loads((tmp_path / "Package.resolved").read_text())["pins"] if (tmp_path / "Package.resolved").exists() else []
    assert pins == []
    assert not (tmp_path / ".build" / "checkouts").exists() or not any((tmp_path / ".build" / "checkouts").iterdir())

    started = time.monotonic()
    build = subprocess.run(["swift", "build", "-v"], cwd=tmp_path, capture_output=True, text=True)
    built_in = time.monotonic() - started
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
    modules = sorted(set(re.findall(r"-module-name (\w+)", build.stdout)))
    assert not {"Yams", "TOMLKit", "Mustache", "ArgumentParser", "SiteGenerator", "SnapshotFormat"} & set(modules), modules
    run = subprocess.run([str(tmp_path / ".build" / "debug" / "App")], capture_output=True, text=True)
    assert run.stdout.split() == ["1", "true"], run.stdout + run.stderr
    print(f"ListDiff-only consumer: resolved in {resolved_in:.1f} s (no packages), built in {built_in:.1f} s: {', '.join(modules)}")
