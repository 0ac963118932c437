#!/usr/bin/env python3
"""Runs the README's loading snippets, in C, Python and Node, against the built extension (ctest
load_snippets), so that the code a user copies loads the extension and prints what the README says.

Usage: load_snippets.py --build DIR --sqlite3 SHELL --python PYTHON --node NODE --cc CC README.md

What runs: the one ```c, the one ```python and the one ```js block of the page. Each names the installed
extension by the string literal "parquet" (or 'parquet'), exactly once; the test puts the built
extension's path there instead, and changes nothing else. The C snippet is compiled with CC against the
system SQLite (pkg-config sqlite3), the Python snippet runs under PYTHON (Debian's /usr/bin/python3,
whose sqlite3 module can load extensions), the Node snippet under NODE with better-sqlite3 from
tools/node_modules (tools/package.json).

What a snippet states: a line that prints (`printf(`, `print(`, `console.log(`) ends with a comment
(`// text` or `# text`) giving the line it prints; the snippet's output must be those lines, in order.

Where it runs: the scratch folder of doc_examples.py (the repository root's entries, with
examples/trips.parquet made as `make demo` makes it). A missing peer (compiler, Python without extension
loading, Node, better-sqlite3) fails the test and says what is missing.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doc_examples  # noqa: E402  (the scratch folder and the Markdown fences)

LANGS = {"c": "//", "python": "#", "js": "//"}
PRINTS = re.compile(r"\b(printf|print|console\.log)\(")


class Snippet:
    def __init__(self, lang, line, text):
        self.lang = lang   # "c", "python" or "js"
        self.line = line   # 1-based line of the block's first line in the page
        self.text = text   # the block as written


def snippets(page):
    """The page's c, python and js blocks, by language; an error unless there is exactly one of each."""
    found = {lang: [] for lang in LANGS}
    with open(page, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = doc_examples.FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, lang = m.group(2), m.group(3).lower()
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence):
            j += 1
        if lang in found:
            found[lang].append(Snippet(lang, i + 2, "\n".join(lines[i + 1:j]) + "\n"))
        i = j + 1
    for lang, blocks in found.items():
        if len(blocks) != 1:
            raise SystemExit(f"{page}: expected one ```{lang} block, found {len(blocks)}")
    return {lang: blocks[0] for lang, blocks in found.items()}


def expected_output(snippet):
    """The lines the snippet says it prints: the trailing comment of each printing line."""
    marker = LANGS[snippet.lang]
    out = []
    for line in snippet.text.split("\n"):
        if PRINTS.search(line) and f" {marker} " in line:
            out.append(line.rsplit(f" {marker} ", 1)[1].strip())
    return out


def with_build_path(snippet, ext_path):
    """The snippet with the installed name "parquet" replaced by the built extension's path."""
    hits = [q for q in ('"parquet"', "'parquet'") if q in snippet.text]
    count = sum(snippet.text.count(q) for q in hits)
    if count != 1:
        raise SystemExit(f"{snippet.lang} snippet (line {snippet.line}): expected the extension named "
                         f"\"parquet\" once, found {count} times")
    quote = hits[0][0]
    return snippet.text.replace(hits[0], quote + ext_path + quote)


def run(cmd, cwd, env=None, what=""):
    try:
        return subprocess.run(cmd, cwd=cwd, env=env, text=True, capture_output=True, timeout=120)
    except FileNotFoundError:
        raise SystemExit(f"load_snippets: {what or cmd[0]} is missing ({cmd[0]} not found)")


def check(snippet, proc, failures):
    want = expected_output(snippet)
    got = [line.rstrip() for line in proc.stdout.rstrip("\n").split("\n")] if proc.stdout.strip() else []
    if proc.returncode != 0:
        failures.append(f"{snippet.lang} snippet (README line {snippet.line}) exited with {proc.returncode}:"
                        f"\n{proc.stderr.strip()}")
    elif got != want:
        failures.append(f"{snippet.lang} snippet (README line {snippet.line}) printed {got}, the README says "
                        f"{want}")
    else:
        print(f"{snippet.lang}: ok ({'; '.join(got)})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--sqlite3", default="sqlite3")
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--node", default="node")
    ap.add_argument("--cc", default="cc")
    ap.add_argument("page")
    args = ap.parse_args()

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ext_path = os.path.join(os.path.abspath(args.build), "parquet")
    if not os.path.exists(ext_path + ".so"):
        raise SystemExit(f"load_snippets: no built extension at {ext_path}.so")
    blocks = snippets(args.page)
    for s in blocks.values():
        if not expected_output(s):
            raise SystemExit(f"{s.lang} snippet (line {s.line}): states no output (`print(...)  # text`)")

    # The peers, checked before anything runs so that a missing one says what it is.
    node_modules = os.path.join(root, "tools", "node_modules")
    if not os.path.isdir(os.path.join(node_modules, "better-sqlite3")):
        raise SystemExit("load_snippets: better-sqlite3 is missing from tools/node_modules "
                         "(scripts/install-deps.sh installs it)")
    probe = run([args.python, "-c", "import sqlite3; print(hasattr(sqlite3.Connection, "
                 "'enable_load_extension'))"], cwd=root, what=f"Python ({args.python})")
    if probe.stdout.strip() != "True":
        raise SystemExit(f"load_snippets: {args.python} cannot load SQLite extensions (its sqlite3 module "
                         f"has no enable_load_extension); give --python one that can, such as Debian's "
                         f"/usr/bin/python3")

    sandbox = doc_examples.make_sandbox(root, args.build, args.sqlite3)
    failures = []
    try:
        # C: compiled against the system SQLite.
        c = blocks["c"]
        src = os.path.join(sandbox, "snippet.c")
        with open(src, "w", encoding="utf-8") as f:
            f.write(with_build_path(c, ext_path))
        flags = run(["pkg-config", "--cflags", "--libs", "sqlite3"], cwd=sandbox, what="pkg-config")
        if flags.returncode != 0:
            raise SystemExit(f"load_snippets: pkg-config finds no sqlite3: {flags.stderr.strip()}")
        exe = os.path.join(sandbox, "snippet")
        built = run([args.cc, "-std=c99", "-Wall", "-Werror", src, "-o", exe] + flags.stdout.split(),
                    cwd=sandbox, what="a C compiler")
        if built.returncode != 0:
            failures.append(f"c snippet (README line {c.line}) does not compile:\n{built.stderr.strip()}")
        else:
            check(c, run([exe], cwd=sandbox), failures)

        # Python.
        py = blocks["python"]
        check(py, run([args.python, "-c", with_build_path(py, ext_path)], cwd=sandbox,
                      what=f"Python ({args.python})"), failures)

        # Node, with better-sqlite3 from tools/node_modules (a CommonJS snippet, as the README shows).
        js = blocks["js"]
        script = os.path.join(sandbox, "snippet.cjs")
        with open(script, "w", encoding="utf-8") as f:
            f.write(with_build_path(js, ext_path))
        env = dict(os.environ, NODE_PATH=node_modules)
        check(js, run([args.node, script], cwd=sandbox, env=env, what="Node"), failures)
    finally:
        shutil.rmtree(sandbox, ignore_errors=True)

    for f in failures:
        print(f, file=sys.stderr)
    print(f"{len(blocks)} snippets, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
