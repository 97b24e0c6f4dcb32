"""What the docs quote from the tool is what the tool does: the example
`rowmotion init` writes, and what `rowmotion diff` prints for it."""
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROWMOTION = ROOT / ".build" / "debug" / "rowmotion"
GUIDE = ROOT / "site" / "getting-started.md"


def fenced_blocks(text, language):
    return re.findall(r"^```" + language + r"\n(.*?)^```", text, flags=re.S | re.M)


def test_getting_started_quotes_the_example_init_writes_and_its_diff(tmp_path):
    subprocess.run([str(ROWMOTION), "init"], cwd=tmp_path, check=True, capture_output=True)
    example = (tmp_path / "examples" / "inbox.yml").read_text()
    guide = GUIDE.read_text()
    assert example in fenced_blocks(guide, "yaml"), "site/getting-started.md shows a different inbox.yml than rowmotion init writes"
    printed = subprocess.run([str(ROWMOTION), "diff", "examples/inbox.yml"], cwd=tmp_path, check=True,
                             capture_output=True, text=True).stdout
    assert printed.strip() + "\n" in fenced_blocks(guide, "swift"), "site/getting-started.md quotes a different rowmotion diff output"
