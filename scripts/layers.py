#!/usr/bin/env python3
"""The engine's layer order, and the check that no include in format/ runs up it.

format/ is a stack of folders, each using only the folders below it; ext/ (the SQLite module) sits on
top, and nothing in format/ may include ext/ or SQLite. This script reads every source file under
format/ and prints each include that runs upward ("the upward edges"), one per line; it exits 1 when
there is one, so the ctest `layers` fails. `--graph` prints every include between two folders instead,
with its direction.

    python3 scripts/layers.py               # upward edges; exit status 1 if any
    python3 scripts/layers.py --graph       # the whole folder-to-folder include graph
    python3 scripts/layers.py --self-test   # the check finds what it must in a made-up tree
"""
import os
import re
import sys
import tempfile

# Bottom to top. A folder may include its own files and those of folders before it here.
LAYERS = [
    "util",       # Status, bounds-checked byte reader, CRC-32, text codecs, task pool
    "remote",     # HTTP(S) and S3 objects (libcurl, SigV4): knows nothing of Parquet
    "thrift",     # Thrift compact protocol
    "metadata",   # the footer's structures and their (de)serialisation
    "codec",      # compression codecs
    "encoding",   # one decoder and encoder per encoding
    "crypto",     # Parquet modular encryption
    "schema",     # the schema tree
    "value",      # physical values to SQL values (and back as text)
    "variant",    # the Variant logical type
    "geo",        # geometries: WKB, WKT and the geospatial statistics of GEOMETRY/GEOGRAPHY
    "bloom",      # split-block Bloom filters and their hashing
    "file",       # the open file: byte ranges, footer, memory, chunk cache, Bloom filter and page index
    "page",       # page headers, checksums, decryption, decompression
    "column",     # a column chunk's values and levels
    "record",     # nested records assembled from leaves
    "predicate",  # pruning and filtering (pure functions over statistics and batches)
    "reader",     # the table scan
    "writer",     # the file writer
]
TOP = "ext"  # the SQLite module: above every layer

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def layer_of(path):
    parts = path.split("/")
    if parts[0] == "format" and len(parts) > 2:
        return parts[1]
    if parts[0] == "ext":
        return TOP
    return None


def includes(root):
    """(source, included path) for every include in format/."""
    for dirpath, _, files in os.walk(os.path.join(root, "format")):
        for name in sorted(files):
            if not name.endswith((".h", ".cc")):
                continue
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            with open(full, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for m in INCLUDE.finditer(text):
                yield rel, m.group(2)


def self_test():
    """Plants one include of each kind in a made-up tree and checks what the check reports."""
    files = {
        "format/util/a.h": '#include <cstdint>\n',
        "format/page/p.h": '#include "format/util/a.h"\n#include "format/reader/r.h"\n',
        "format/reader/r.h": '#include "format/page/p.h"\n#include "ext/sqlite_api.h"\n',
        "format/value/v.cc": '#  include <sqlite3.h>\n',
    }
    with tempfile.TemporaryDirectory() as root:
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        upward, unknown = check(root)
        want = [
            "format/page/p.h -> format/reader/r.h (page < reader)",
            "format/reader/r.h -> ext/sqlite_api.h (reader < ext)",
            "format/value/v.cc -> sqlite3.h (SQLite)",
        ]
        if upward != want or unknown:
            print("self-test failed: found", upward, unknown)
            return 1
        with open(os.path.join(root, "format/extra.h"), "w"):
            pass
        os.makedirs(os.path.join(root, "format/nowhere"))
        with open(os.path.join(root, "format/nowhere/n.h"), "w") as f:
            f.write('#include "format/util/a.h"\n')
        _, unknown = check(root)
        if unknown != {"nowhere"}:
            print("self-test failed: unknown folders", unknown)
            return 1
    print("self-test passed")
    return 0


def check(root, graph=None):
    """The upward includes under root/format, and the folders missing from LAYERS."""
    rank = {name: i for i, name in enumerate(LAYERS)}
    upward, unknown = [], set()
    for src, inc in sorted(includes(root)):
        src_layer = layer_of(src)
        if src_layer not in rank:
            if src_layer is not None:
                unknown.add(src_layer)
            continue
        if os.path.basename(inc).startswith("sqlite3"):
            upward.append(f"{src} -> {inc} (SQLite)")
            continue
        dst_layer = layer_of(inc)
        if dst_layer is None or dst_layer == src_layer:
            continue
        if dst_layer != TOP and dst_layer not in rank:
            unknown.add(dst_layer)
            continue
        if graph is not None:
            graph.setdefault((src_layer, dst_layer), []).append(src)
        if dst_layer == TOP or rank[dst_layer] > rank[src_layer]:
            upward.append(f"{src} -> {inc} ({src_layer} < {dst_layer})")
    return upward, unknown


def main(argv):
    if "--self-test" in argv:
        return self_test()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    rank = {name: i for i, name in enumerate(LAYERS)}
    graph = {}
    upward, unknown = check(root, graph)
    if unknown:
        print("folders of format/ missing from LAYERS in scripts/layers.py: " + ", ".join(sorted(unknown)))
        return 1
    if "--graph" in argv:
        for (a, b), srcs in sorted(graph.items(), key=lambda e: (rank[e[0][0]], rank.get(e[0][1], len(rank)))):
            arrow = "UP" if b == TOP or rank[b] > rank[a] else "down"
            print(f"{a:>10} -> {b:<10} {len(srcs):3d} include(s)  {arrow}")
        return 1 if upward else 0
    for line in upward:
        print(line)
    print(f"{len(upward)} upward include(s); layer order: {' < '.join(LAYERS)} < {TOP}")
    return 1 if upward else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
