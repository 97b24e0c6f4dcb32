"""scripts/benchmark-page.py turns `rowmotion-bench --json` into the
benchmarks page: every case in the table, one bar pair per Int case in a
chart that is valid SVG, and the same input gives the same page."""
import importlib.util
import re
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("benchmark_page", ROOT / "scripts" / "benchmark-page.py")
benchmark_page = importlib.util.module_from_spec(spec)
spec.loader.exec_module(benchmark_page)

RESULTS = [
    {"case": "A/int", "rows": 5000, "listdiff_ms": 0.4, "stdlib_ms": 84.0, "moves": 180, "min_moves": 180},
    {"case": "F/int", "rows": 10000, "listdiff_ms": 0.15, "stdlib_ms": 0.3, "moves": 1, "min_moves": 1},
    {"case": "B/int", "rows": 100000, "listdiff_ms": 5.8, "stdlib_ms": 5483.0, "moves": 1800, "min_moves": 1800},
    {"case": "A/uuid", "rows": 5000, "listdiff_ms": 0.55, "stdlib_ms": 85.0, "moves": 180, "min_moves": 180},
]


def test_page_hasEveryCase_andAValidChartWithTwoBarsPerIntCase():
    text = benchmark_page.page(RESULTS, "test")
    assert text == benchmark_page.page(RESULTS, "test")
    for result in RESULTS:
        assert f'<tr><td>{result["case"]}</td>' in text
    assert ("<tr><td>B/int</td><td>100,000</td><td>5.80 ms</td><td>5,483 ms</td><td>945.3×</td>"
            "<td>1,800</td><td>1,800</td></tr>") in text
    svg = re.search(r"<svg.*?</svg>", text, re.S).group(0)
    root = ET.fromstring(svg)
    bars = [e for e in root.iter("{http://www.w3.org/2000/svg}rect") if e.get("class") in ("l", "s") and e.get("y") not in ("6",)]
    assert len(bars) == 2 * 3
    # The standard library's B bar is the longest, ListDiff's F bar the shortest.
    widths = [float(bar.get("width")) for bar in bars]
    assert max(widths) == widths[5] and min(widths) == widths[2]


def test_regenerating_keeps_the_hand_written_part_after_the_marker(tmp_path):
    results = tmp_path / "bench.json"
    results.write_text(__import__("json").dumps(RESULTS))
    target = tmp_path / "benchmarks.md"
    target.write_text("old table\n\n" + benchmark_page.MARKER + "\n\n## Site build\n\nA diary.\n")
    import subprocess, sys
    subprocess.run([sys.executable, str(ROOT / "scripts" / "benchmark-page.py"), str(results), str(target)], check=True)
    text = target.read_text()
    assert "old table" not in text and '<tr><td>B/int</td>' in text
    assert text.endswith(benchmark_page.MARKER + "\n\n## Site build\n\nA diary.\n")
    # And the project's own page has the marker, so its diary survives `make bench-page`.
    assert benchmark_page.MARKER in (ROOT / "site" / "benchmarks.md").read_text()


SCALE = {"pages": 10049, "examples": 1000, "clean_ms": 2000.0, "no_change_ms": 290.0, "clean_peak_mb": 395.0,
         "edits": [{"edit": "a page's text", "command_line_ms": 2600.0, "serve_event_ms": 44.0},
                   {"edit": "a page added", "command_line_ms": 300.0, "serve_event_ms": None}],
         "hugo_clean_ms": 772.0, "hugo_one_edit_ms": 717.3, "hugo_peak_mb": 186.0, "hugo_serve_event_ms": 500.7}


def test_the_scale_figures_become_a_table_of_their_own_with_shares_of_a_clean_build():
    text = benchmark_page.page(RESULTS, "test", scale=SCALE)
    assert "## The site at scale" in text and "10,049 generated pages" in text
    # A row per kind of edit: the command line's time and share, then serve's, Hugo's beside the text edit only.
    assert ("<tr><td>a page's text</td><td>2,600 ms</td><td>130.0 %</td><td>≤ 10 %</td><td>44.00 ms</td>"
            "<td>≤ 20 ms</td><td>717 ms / 501 ms</td></tr>") in text, re.search(r"<tr><td>a page's.*?</tr>", text).group(0)
    assert "<tr><td>a page added</td><td>300 ms</td><td>15.0 %</td><td>≤ 10 %</td><td>—</td><td>≤ 100 ms</td><td>—</td></tr>" in text
    assert "<tr><td>no-change build</td><td>290 ms</td><td>14.5 %</td>" in text
    # Without Hugo's figures, dashes.
    without = {key: value for key, value in SCALE.items() if not key.startswith("hugo")}
    assert "<td>—</td>" in benchmark_page.page(RESULTS, "test", scale=without)
    # The table is in the generated part, before the hand-written one.
    assert text.index("## The site at scale") < len(benchmark_page.page(RESULTS, "test", scale=SCALE))
