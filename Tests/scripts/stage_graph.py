"""The reference graph of SiteGenerator's folders: which folder's files name
a type (or a top-level function) another folder declares, or extend it.
Read from the source text (comments and string literals left out), so the
check runs without a compiler: `python3 Tests/scripts/stage_graph.py`
prints the graph and any cycle."""
import collections
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCES = ROOT / "Sources" / "SiteGenerator"
PIPELINE = "(pipeline)"  # the files at SiteGenerator's top: the stages put together

DECLARATION = re.compile(r"^(?:(?:public|internal|fileprivate|private|final|indirect)\s+)*"
                         r"(?:struct|enum|class|protocol|actor|typealias|func|let|var)\s+([A-Za-z_]\w*)", re.M)
EXTENSION = re.compile(r"^(?:(?:public|internal|fileprivate|private)\s+)*extension\s+([A-Za-z_]\w*)", re.M)
IDENTIFIER = re.compile(r"\b([A-Za-z_]\w*)\b")


def strip(source):
    """Swift source without comments and string literals (their text is not a reference)."""
    out, i, n = [], 0, len(source)
    while i < n:
        if source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif source[i] == '"' or (source[i] == "#" and re.match(r'#+"', source[i:])):
            hashes = len(re.match(r"#*", source[i:]).group(0))
            j = i + hashes
            multi = source.startswith('"""', j)
            close = ('"""' if multi else '"') + "#" * hashes
            j += 3 if multi else 1
            while j < n and not source.startswith(close, j):
                if hashes == 0 and source[j] == "\\":
                    # an interpolation's code is a reference: keep it
                    if j + 1 < n and source[j + 1] == "(":
                        depth, k = 0, j + 1
                        while k < n:
                            depth += source[k] == "("
                            depth -= source[k] == ")"
                            if depth == 0:
                                break
                            k += 1
                        out.append(" " + source[j + 1:k + 1] + " ")
                        j = k + 1
                        continue
                    j += 2
                    continue
                j += 1
            out.append('""')
            i = j + len(close)
        else:
            out.append(source[i])
            i += 1
    return "".join(out)


def folder_of(path, sources=SOURCES):
    relative = path.relative_to(sources)
    return relative.parts[0] if len(relative.parts) > 1 else PIPELINE


def graph(sources=SOURCES):
    """(edges, declared, duplicates): edges[a][b] lists the references of
    folder a to folder b as "file:line name"; duplicates, the names two
    folders declare (a reference to one could not be told from the other)."""
    files = {path: strip(path.read_text()) for path in sorted(sources.rglob("*.swift"))}
    declared = {}
    duplicates = []
    for path, text in files.items():
        for match in DECLARATION.finditer(text):
            name, folder = match.group(1), folder_of(path, sources)
            if name in declared and declared[name] != folder:
                duplicates.append(f"{name}: {declared[name]} and {folder}")
            declared.setdefault(name, folder)
    edges = collections.defaultdict(lambda: collections.defaultdict(list))
    for path, text in files.items():
        folder = folder_of(path, sources)
        for number, line in enumerate(text.split("\n"), 1):
            for name in IDENTIFIER.findall(line):
                target = declared.get(name)
                if target and target != folder:
                    edges[folder][target].append(f"{path.relative_to(sources.parent)}:{number} {name}")
    return edges, declared, duplicates


def cycles(edges):
    """Each strongly connected group of more than one folder, as a sorted list."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]
    nodes = set(edges) | {b for a in edges for b in edges[a]}

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on.add(node)
        for nxt in edges.get(node, {}):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(nodes):
        if node not in index:
            visit(node)
    return found


if __name__ == "__main__":
    edges, declared, duplicates = graph()
    for a in sorted(edges):
        print(f"{a} -> " + ", ".join(f"{b} ({len(v)}: {v[0]})" for b, v in sorted(edges[a].items())))
    print("declared in two folders:", duplicates)
    print("cycles:", cycles(edges))
    sys.exit(1 if cycles(edges) or duplicates else 0)
