#!/usr/bin/env python3
"""Generates the data-heavy examples (stock ticker, episodes by tag, a
1,000-row list) from fixed seeds. Their output is committed; run this only
to change them: python3 scripts/generate-examples.py"""
import json
import random
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def yaml_row(row):
    parts = []
    for key, value in row.items():
        if isinstance(value, str):
            parts.append(f"{key}: {json.dumps(value)}")
        elif isinstance(value, bool):
            parts.append(f"{key}: {'true' if value else 'false'}")
        else:
            parts.append(f"{key}: {value}")
    return "{" + ", ".join(parts) + "}"


def stock_ticker():
    rng = random.Random(4)
    symbols = ["AAPL", "MSFT", "GOOG", "AMZN", "META", "NVDA", "TSLA", "ORCL", "INTC", "AMD",
               "IBM", "CSCO", "ADBE", "CRM", "NFLX", "PYPL", "QCOM", "TXN", "AVGO", "SHOP",
               "UBER", "LYFT", "SNAP", "SPOT", "SQ", "TWLO", "ZM", "DOCU", "OKTA", "NET"]
    prices = {s: round(rng.uniform(20, 400), 2) for s in symbols}
    opening = dict(prices)
    out = ["title: Stock ticker — thirty prices re-sorted by change",
           "description: |",
           "  Thirty stocks sorted by their change since the open. Every step updates some prices,",
           "  which reloads those rows and re-sorts the list: rows whose rank changes move, and a",
           "  price that changes on a row that also moves is reloaded in a second batch.",
           "  `version: price` makes the price alone decide whether a row changed.",
           "animation: fade",
           "version: price",
           "prefer: up",
           "steps:"]
    for step in range(8):
        if step:
            for symbol in rng.sample(symbols, 6):
                prices[symbol] = round(prices[symbol] * rng.uniform(0.95, 1.05), 2)
        rows = sorted(symbols, key=lambda s: (-(prices[s] - opening[s]) / opening[s], s))
        out.append(f"  - label: {'Open' if step == 0 else f'Tick {step}'}")
        out.append("    sections:")
        out.append("      - id: watchlist")
        out.append("        header: Watchlist")
        out.append("        items:")
        for s in rows:
            change = (prices[s] - opening[s]) / opening[s] * 100
            out.append("          - " + yaml_row({"id": s, "symbol": s, "price": prices[s], "change": f"{change:+.2f}%"}))
    (EXAMPLES / "stock-ticker.yml").write_text("\n".join(out) + "\n")


def episodes_by_tag():
    rng = random.Random(2)
    tags = ["swift", "uikit", "swiftui", "testing", "concurrency"]
    episodes = [{"id": f"ep{n}", "title": f"Episode {n}", "tags": rng.sample(tags, 2)} for n in range(1, 25)]
    out = ["title: Episodes by tag — filtered and shuffled on refresh",
           "description: |",
           "  Episodes grouped into sections by their first tag. Each refresh filters out some",
           "  episodes at random and shuffles their tags, so rows move between sections, sections",
           "  appear when their first episode arrives and disappear when their last one goes. Rows",
           "  leaving a deleted section or entering a new one are deleted and inserted, as UIKit",
           "  requires; rows between surviving sections move.",
           "animation: fade",
           "steps:"]
    for step in range(6):
        visible = [e for e in episodes if rng.random() > 0.3]
        if step:
            for e in rng.sample(visible, 4):
                rng.shuffle(e["tags"])
        groups = {}
        for e in visible:
            groups.setdefault(e["tags"][0], []).append(e)
        out.append(f"  - label: {'Initial' if step == 0 else f'Refresh {step}'}")
        out.append("    sections:")
        for tag in sorted(groups):
            out.append(f"      - id: {tag}")
            out.append(f"        header: {json.dumps('#' + tag)}")
            out.append("        items:")
            for e in groups[tag]:
                out.append("          - " + yaml_row({"id": e["id"], "title": e["title"]}))
    (EXAMPLES / "episodes-by-tag.yml").write_text("\n".join(out) + "\n")


def large_list():
    rng = random.Random(1000)
    rows = [f"row-{n:04d}" for n in range(1000)]
    next_id = 1000
    steps = []
    for step in range(20):
        if step:
            for _ in range(25):
                rows.pop(rng.randrange(len(rows)))
            for _ in range(25):
                rows.insert(rng.randrange(len(rows) + 1), f"row-{next_id:04d}")
                next_id += 1
            for _ in range(50):
                row = rows.pop(rng.randrange(len(rows)))
                rows.insert(rng.randrange(len(rows) + 1), row)
        steps.append({"label": "Initial" if step == 0 else f"Update {step}",
                      "items": list(rows)})
    document = {
        "title": "A thousand rows — twenty updates of a hundred changes each",
        "description": "A 1,000-row list updated twenty times: each update deletes 25 rows, inserts 25 and "
                       "moves 50, a hundred changes in all. Rows off-screen are not animated, as in UIKit. "
                       "Written in JSON, as exported data usually is.",
        "animation": "fade",
        "steps": steps,
    }
    # One step per line keeps the file small and its diffs readable.
    lines = [json.dumps({k: v for k, v in document.items() if k != "steps"})[:-1] + ', "steps": [']
    lines += [json.dumps(step) + ("," if n < len(steps) - 1 else "") for n, step in enumerate(steps)]
    lines.append("]}")
    (EXAMPLES / "large-list.json").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    stock_ticker()
    episodes_by_tag()
    large_list()
