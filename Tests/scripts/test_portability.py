"""Rowmotion builds on macOS as well as Linux. This machine is Linux, so the
compiler cannot tell us when Linux-only code slips in: this check reads every
Swift file instead. Glibc (or Musl) and Linux-only paths may appear only inside
an `#if os(Linux)` / `#if canImport(Glibc)` branch, and such a branch that
imports a C library must have a Darwin (or `#else`) branch beside it."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ["Sources", "Plugins", "Benchmarks", "Tests"]
LINUX_CONDITION = re.compile(r"os\(Linux\)|canImport\((Glibc|Musl)\)")
OTHER_BRANCH = re.compile(r"canImport\(Darwin\)|os\((macOS|iOS)\)|^#else\b")
LINUX_ONLY = [
    (re.compile(r"^\s*(@preconcurrency\s+)?import\s+(Glibc|Musl)\b"), "imports a Linux C library"),
    (re.compile(r"\b(Glibc|Musl)\."), "calls a Linux C library"),
    (re.compile(r"\"/(proc|sys)/|x86_64-linux-gnu|aarch64-linux-gnu"), "names a Linux-only path"),
]


def problems(text, name="<text>"):
    """Lines of Linux-only code outside Linux branches, and Linux branches
    importing a C library with no other branch, as `name:line: message`."""
    found = []
    stack = []  # one entry per open #if: {"linux": bool (current branch), "imports": line or None, "other": bool}
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("#if "):
            stack.append({"linux": bool(LINUX_CONDITION.search(stripped)), "imports": None, "other": False})
            continue
        if stripped.startswith("#elseif") or stripped.startswith("#else"):
            if stack:
                if OTHER_BRANCH.search(stripped):
                    stack[-1]["other"] = True
                stack[-1]["linux"] = bool(LINUX_CONDITION.search(stripped))
            continue
        if stripped.startswith("#endif"):
            if stack:
                group = stack.pop()
                if group["imports"] is not None and not group["other"]:
                    found.append(f"{name}:{group['imports']}: a Linux-only import with no Darwin or #else branch")
            continue
        if stripped.startswith("//"):
            continue
        guarded = any(group["linux"] for group in stack)
        for pattern, what in LINUX_ONLY:
            if pattern.search(line):
                if not guarded:
                    found.append(f"{name}:{number}: {what} outside #if os(Linux) / canImport(Glibc): {stripped}")
                elif what == "imports a Linux C library":
                    stack[-1]["imports"] = number
    return found


def test_swift_sources_keep_linux_only_code_behind_linux_conditions():
    files = [path for folder in FOLDERS for path in sorted((ROOT / folder).rglob("*.swift"))
             if ".build" not in path.parts]
    assert len(files) > 50, f"found only {len(files)} Swift files"
    found = []
    for path in files:
        found += problems(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert found == []


def test_the_check_flags_an_unguarded_import_a_lone_linux_branch_and_a_proc_path():
    assert problems("import Glibc\n")[0].endswith("import Glibc")
    assert problems("#if canImport(Glibc)\nimport Glibc\n#endif\n") == [
        "<text>:2: a Linux-only import with no Darwin or #else branch"]
    assert problems('let x = "/proc/self/status"\n')
    assert problems("#if os(Linux)\nlet x = \"/proc/self/status\"\n#endif\n") == []
    assert problems("#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Darwin)\nimport Darwin\n#endif\n") == []
