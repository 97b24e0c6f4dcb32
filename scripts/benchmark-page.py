#!/usr/bin/env python3
"""Writes site/benchmarks.md from `rowmotion-bench --json` output: the
measured table and an SVG bar chart of ListDiff against the standard
library per case (log scale). `make bench-page` measures and regenerates it.
The measured part is never typed by hand; what follows the MARKER line (the
site build's figures and the history of the measurements) is, and a
regeneration keeps it as it is."""
import json
import math
import sys

CASE_NAMES = {
    "A": "5,000 rows: 1,000 deleted, 1,000 inserted, 200 moved at random",
    "B": "100,000 rows: 10,000 deleted, 10,000 inserted, 2,000 moved at random",
    "C": "10,000 rows reversed",
    "D": "10,000 rows, one inserted at the front",
    "E": "10,000 rows, the last moved to the front",
    "F": "10,000 rows, the first moved to the end",
    "S": "10,000 rows, two swapped (rows 100 and 9,000)",
    "I": "10,000 rows, one inserted in the middle",
    "L": "10,000 rows, the last deleted",
    "A-sections": "A with the rows in sections of 100",
    "B-sections": "B with the rows in sections of 100",
}


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def milliseconds(value):
    return f"{value:,.2f}" if value < 100 else f"{value:,.0f}"


def chart(results):
    """Bars per case, ListDiff and the standard library, on a log axis."""
    low = min(min(r["listdiff_ms"], r["stdlib_ms"]) for r in results)
    high = max(max(r["listdiff_ms"], r["stdlib_ms"]) for r in results)
    lo_exp, hi_exp = math.floor(math.log10(low)), math.ceil(math.log10(high))
    label_width, plot_width, bar, gap, top = 175, 450, 11, 10, 34
    width = label_width + plot_width + 70
    height = top + len(results) * (2 * bar + gap) + 30

    def x(value):
        return label_width + plot_width * (math.log10(value) - lo_exp) / (hi_exp - lo_exp)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="bench-chart" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="bench-chart-title">',
           '<title id="bench-chart-title">ListDiff and the standard library: milliseconds per case, log scale</title>',
           '<style>text{font:11px system-ui,sans-serif;fill:currentColor}.g{stroke:#8884;stroke-width:1}'
           '.l{fill:#0a84ff}.s{fill:#ff9f0a}</style>',
           f'<rect class="l" x="{label_width}" y="6" width="12" height="10"/><text x="{label_width + 16}" y="15">ListDiff</text>',
           f'<rect class="s" x="{label_width + 80}" y="6" width="12" height="10"/>'
           f'<text x="{label_width + 96}" y="15">difference(from:).inferringMoves()</text>']
    for exponent in range(lo_exp, hi_exp + 1):
        gx = x(10 ** exponent)
        tick = f"{10 ** exponent:,g} ms"
        out.append(f'<line class="g" x1="{gx:.1f}" y1="{top - 6}" x2="{gx:.1f}" y2="{height - 24}"/>'
                   f'<text x="{gx:.1f}" y="{height - 10}" text-anchor="middle">{tick}</text>')
    y = top
    for result in results:
        label = f'{result["case"].split("/")[0]} ({result["rows"]:,} rows)'
        out.append(f'<text x="{label_width - 8}" y="{y + bar + 3}" text-anchor="end">{escape(label)}</text>')
        for value, style, offset in ((result["listdiff_ms"], "l", 0), (result["stdlib_ms"], "s", bar)):
            end = x(value)
            out.append(f'<rect class="{style}" x="{label_width}" y="{y + offset}" width="{max(end - label_width, 1):.1f}" height="{bar - 1}"/>'
                       f'<text x="{end + 4:.1f}" y="{y + offset + bar - 2}">{milliseconds(value)}</text>')
        y += 2 * bar + gap
    out.append("</svg>")
    return "\n".join(out)


MARKER = "<!-- Written by hand from here on: make bench-page keeps it. -->"


def kept_part(existing):
    """What follows the marker in the page as it is (the marker included), or nothing."""
    index = existing.find(MARKER)
    return existing[index:] if index >= 0 else ""


def scale_section(scale):
    """The site at scale: `rowmotion-bench scale --json`'s figures as a table, a
    row per kind of edit, each from the command line and through `serve`."""
    clean = scale["clean_ms"]
    hugo = lambda key: f'{milliseconds(scale[key])} ms' if scale.get(key) is not None else "—"

    def share(value):
        return f"{100 * value / clean:.1f} %"
    rows = [
        ("clean build", f'{milliseconds(clean)} ms', "100 %", "≤ 1.5 s", "", "", hugo("hugo_clean_ms")),
        ("no-change build", f'{milliseconds(scale["no_change_ms"])} ms', share(scale["no_change_ms"]), "≤ 5 %", "", "", "—"),
    ]
    for edit in scale["edits"]:
        text = edit["edit"] == "a page's text"
        serve = edit.get("serve_event_ms")
        rows.append((edit["edit"], f'{milliseconds(edit["command_line_ms"])} ms', share(edit["command_line_ms"]), "≤ 10 %",
                     f"{milliseconds(serve)} ms" if serve is not None else "—", "≤ 20 ms" if text else "≤ 100 ms",
                     hugo("hugo_one_edit_ms") + (f' / {hugo("hugo_serve_event_ms")}' if scale.get("hugo_serve_event_ms") is not None else "")
                     if text else "—"))
    rows.append(("peak memory, clean build", f'{scale["clean_peak_mb"]:.0f} MB', "", "≤ 250 MB", "", "",
                 f'{scale["hugo_peak_mb"]:.0f} MB' if scale.get("hugo_peak_mb") is not None else "—"))
    lines = ["## The site at scale", "",
             f'A documentation site of {scale["pages"]:,} generated pages (four folders deep; on every page a table, a',
             f'Swift block, two links and a list) and {scale["examples"]:,} examples, built by the `rowmotion` binary as users',
             "run it, output in `/dev/shm`: a clean build, one with nothing changed, and every kind of edit,",
             "each built from the command line (a new process, its graph from the store) and saved while `serve`",
             "runs (until its live event); Hugo on the same pages (`hugo`, `hugo server`'s LiveReload message)",
             "beside. Medians.", "",
             '<table class="bench-table">',
             "<thead><tr><th></th><th>command line</th><th>% of a clean build</th><th>goal</th><th>serve: save → event</th>"
             "<th>goal</th><th>Hugo</th></tr></thead>",
             "<tbody>"]
    for row in rows:
        lines.append("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>")
    lines += ["</tbody>", "</table>", "",
              "Reproduce with `swift run -c release rowmotion-bench scale --in /dev/shm` (`--json`, `--serve-only`,",
              "`--pages N`). Hugo has no no-change build: it renders every page again. Hugo renders the same",
              "Markdown (a `rowmotion` block as a code block) but makes no example pages, players or filmstrips;",
              "the goal of a clean build 5× faster than Hugo's is measured on the bench's pages (below).", ""]
    return lines


def page(results, source, kept="", scale=None):
    ints = [r for r in results if r["case"].endswith("/int")]
    lines = [
        "---", "title: Benchmarks", "order: 8",
        "description: ListDiff against the standard library's diff, measured in the same run.", "---",
        "# Benchmarks", "",
        "ListDiff against the standard library's `difference(from:).inferringMoves()` on the same inputs,",
        "in the same run, on this project's machine (2 cores). Moves are compared with the independently",
        f"computed minimum. Generated by `make bench-page` from `{escape(source)}`; the numbers are medians.", "",
        chart(ints), "",
        # libcmark has no table extension: the table is HTML.
        '<table class="bench-table">',
        "<thead><tr><th>case</th><th>rows</th><th>ListDiff</th><th>standard library</th><th>ratio</th>"
        "<th>moves</th><th>minimum</th></tr></thead>",
        "<tbody>",
    ]
    for r in results:
        ratio = r["stdlib_ms"] / r["listdiff_ms"] if r["listdiff_ms"] else float("inf")
        lines.append(f'<tr><td>{escape(r["case"])}</td><td>{r["rows"]:,}</td><td>{milliseconds(r["listdiff_ms"])} ms</td>'
                     f'<td>{milliseconds(r["stdlib_ms"])} ms</td><td>{ratio:,.1f}×</td><td>{r["moves"]:,}</td>'
                     f'<td>{r["min_moves"]:,}</td></tr>')
    lines += ["</tbody>", "</table>"]
    lines += ["", "The chart shows the `Int` ids; `/uuid` is the same case with 36-character string ids.", ""]
    close = [r["case"] for r in results if r["stdlib_ms"] < 1.25 * r["listdiff_ms"]]
    if close:
        lines += [f"Near 1× ({', '.join(close)}): with nothing to reorder, both sides hash every id once, and the",
                  "ratio moves between about 0.8× and 1.2× from run to run on this shared 2-core machine.", ""]
    for key, text in CASE_NAMES.items():
        if any(r["case"].split("/")[0] == key for r in results):
            lines.append(f"- **{key}**: {text}.")
    lines += ["", "Reproduce with `swift run -c release rowmotion-bench` (a table) or `--json`. The site build has a",
              "benchmark of its own: `swift run -c release rowmotion-bench site` (below).", ""]
    if scale:
        lines += scale_section(scale)
    text = "\n".join(lines)
    return text + ("\n" + kept if kept else "")


def main():
    arguments = sys.argv[1:]
    scale = None
    if "--scale" in arguments:
        at = arguments.index("--scale")
        with open(arguments[at + 1], encoding="utf-8") as handle:
            scale = json.load(handle)
        del arguments[at:at + 2]
    if len(arguments) not in (1, 2):
        sys.exit("usage: benchmark-page.py BENCH.json [PAGE.md] [--scale SCALE.json]  (BENCH.json: the output of rowmotion-bench --json;\n"
                 "       SCALE.json: of rowmotion-bench scale --json; PAGE.md is rewritten, keeping its hand-written part;\n"
                 "       without it the page goes to stdout)")
    with open(arguments[0], encoding="utf-8") as handle:
        results = json.load(handle)
    if len(arguments) == 1:
        sys.stdout.write(page(results, "rowmotion-bench --json", scale=scale))
        return
    try:
        with open(arguments[1], encoding="utf-8") as handle:
            kept = kept_part(handle.read())
    except FileNotFoundError:
        kept = ""
    text = page(results, "rowmotion-bench --json", kept, scale=scale)
    with open(arguments[1] + ".tmp", "w", encoding="utf-8") as handle:
        handle.write(text)
    import os
    os.replace(arguments[1] + ".tmp", arguments[1])


if __name__ == "__main__":
    main()
