"""Shared by the hostile-input and server-abuse tests: the built binary, run
with limits on time and memory so that a hang or a blow-up fails the test
instead of taking the machine."""
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The browser helper (the platform's Chromium or Chrome and its driver).
sys.path.insert(0, str(ROOT / "Tests" / "browser"))
# Relative to the repository (`make fuzz` names the release build so), since
# the tests run it from folders of their own.
BINARY = ROOT / os.environ.get("ROWMOTION_BINARY", ROOT / ".build" / "debug" / "rowmotion")
# Address space for one rowmotion process: the alias bomb passed 11 GB before.
MEMORY_LIMIT = 1 << 30


def limited(memory=MEMORY_LIMIT, files=None):
    """A preexec_fn that caps the child's address space (and descriptors)."""
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))
    return apply


def run(arguments, cwd, timeout=60, memory=MEMORY_LIMIT, env=None):
    """Runs rowmotion under the limits; a timeout raises, failing the test."""
    return subprocess.run([str(BINARY), *arguments], cwd=cwd, capture_output=True, timeout=timeout,
                          preexec_fn=limited(memory), env=env)
