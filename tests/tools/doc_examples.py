#!/usr/bin/env python3
"""Runs the SQL examples of the README and of every docs/ page through the sqlite3 shell (ctest
doc_examples), so that every example runs as written and gives what the page says.

Usage: doc_examples.py <build dir holding parquet.so> <sqlite3 shell> <page.md> [<page.md> ...]

What runs: every fenced block whose info string is `sql`, in page order, each page in one fresh shell
session (`sqlite3 -batch :memory:`), so a page's later blocks see the tables its earlier blocks made and
every page sets up what it uses itself (`.load ./build/parquet` included). Statements are split the way
the shell splits them (complete SQL statements; a line starting with `.` is a dot-command).

What a page states: lines `--> text` right after a statement are the output the shell prints for it,
one line each, compared exactly (trailing blanks aside); `--> error: text` says the statement fails
with an error containing text. A statement without `-->` lines must not fail; its output is not
checked.

Where it runs: a fresh folder laid out like the repository root (every top-level entry linked, `build`
linked to the build folder, `examples/` a real folder of links), in which `examples/trips.parquet` is
first made by examples/make_sample.sql, as `make demo` makes it. So relative paths in the examples mean
what they mean to a user at the repository root, and the files the examples write land in the scratch
folder, removed afterwards.
"""
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([A-Za-z0-9_+-]*)")
RESULT = "--> "


class Statement:
    def __init__(self, page, line, text):
        self.page = page          # the page's path
        self.line = line          # 1-based line of the statement's first line in the page
        self.text = text          # the statement as written (dot-command or SQL)
        self.expected = []        # lines stated with `-->`
        self.error = None         # substring of the stated error (`--> error: ...`), or None


def sql_blocks(path):
    """Yields (first line number, lines) of each ```sql block of a Markdown file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, lang = m.group(2), m.group(3).lower()
        start = i + 1
        j = start
        while j < len(lines) and not lines[j].strip().startswith(fence):
            j += 1
        if lang == "sql":
            yield start + 1, lines[start:j]
        i = j + 1


def parse_statements(path):
    """The statements of a page's sql blocks, with what the page states about each."""
    statements = []
    for first_line, block in sql_blocks(path):
        pending = []       # lines of a statement not yet complete
        pending_line = 0
        last = None        # the statement `-->` lines attach to
        for k, raw in enumerate(block):
            line_no = first_line + k
            stripped = raw.strip()
            if not pending and stripped.startswith("-->"):
                if last is None:
                    raise SystemExit(f"{path}:{line_no}: a '-->' line with no statement before it")
                body = stripped[3:].strip() if stripped == "-->" else stripped[len(RESULT):]
                if body.startswith("error:") and not last.expected:
                    last.error = body[len("error:"):].strip()
                else:
                    last.expected.append(body.rstrip())
                continue
            if not pending and (stripped == "" or stripped.startswith("--")):
                if stripped == "":
                    last = None
                continue
            if not pending and stripped.startswith("."):
                last = Statement(path, line_no, stripped)
                statements.append(last)
                continue
            if not pending:
                pending_line = line_no
            pending.append(raw)
            text = "\n".join(pending)
            if sqlite3.complete_statement(text):
                last = Statement(path, pending_line, text)
                statements.append(last)
                pending = []
        if pending:
            raise SystemExit(f"{path}:{pending_line}: statement not terminated by ';' in its block")
    return statements


def make_sandbox(root, build, shell):
    """A scratch folder that looks like the repository root to the examples (see the module doc)."""
    sandbox = tempfile.mkdtemp(prefix="doc-examples-")
    for entry in os.listdir(root):
        if entry in ("examples", ".git") or entry.startswith("build"):
            continue
        os.symlink(os.path.join(root, entry), os.path.join(sandbox, entry))
    os.symlink(os.path.abspath(build), os.path.join(sandbox, "build"))
    examples = os.path.join(sandbox, "examples")
    os.mkdir(examples)
    for entry in os.listdir(os.path.join(root, "examples")):
        if not entry.endswith(".parquet"):
            os.symlink(os.path.join(root, "examples", entry), os.path.join(examples, entry))
    with open(os.path.join(root, "examples", "make_sample.sql"), encoding="utf-8") as f:
        made = subprocess.run([shell, "-bail", "-batch", "-cmd", ".load ./build/parquet", ":memory:"],
                              input=f.read(), text=True, capture_output=True, cwd=sandbox)
    if made.returncode != 0:
        raise SystemExit(f"examples/make_sample.sql failed: {made.stderr}")
    return sandbox


def run_page(statements, shell, sandbox):
    """Runs one page's statements in one shell session; returns the failures as messages."""
    script = []
    line_of = {}  # script line (1-based) of each SQL statement's first line -> its index
    for n, st in enumerate(statements):
        script.append(f".print @@doc-example {n}")
        line_of[len(script) + 1] = n
        script.extend(st.text.split("\n"))
    proc = subprocess.run([shell, "-batch", ":memory:"], input="\n".join(script) + "\n", text=True,
                          capture_output=True, cwd=sandbox, timeout=600)
    outputs = {}
    current = None
    for line in proc.stdout.split("\n"):
        m = re.fullmatch(r"@@doc-example (\d+)", line)
        if m:
            current = int(m.group(1))
            outputs[current] = []
        elif current is not None:
            outputs[current].append(line.rstrip())
    errors = {}
    unplaced = []
    placed = False  # the last error line was tied to a statement: its context lines follow it
    for line in proc.stderr.split("\n"):
        if not line.strip():
            continue
        m = re.match(r"(?:Parse|Runtime) error near line (\d+): (.*)", line)
        if m and int(m.group(1)) in line_of:
            errors.setdefault(line_of[int(m.group(1))], []).append(m.group(2))
            placed = True
        elif m is None and placed and line.startswith(" "):
            continue  # the shell's excerpt of the statement, with a caret under the error
        else:
            unplaced.append(line)
            placed = False
    failures = []
    for n, st in enumerate(statements):
        where = f"{st.page}:{st.line}"
        got = outputs.get(n, [])
        while got and got[-1] == "":
            got.pop()
        err = errors.get(n)
        if st.error is not None:
            if not err:
                failures.append(f"{where}: expected an error containing '{st.error}', got success")
            elif not any(st.error in e for e in err):
                failures.append(f"{where}: expected an error containing '{st.error}', got: {err[0]}")
            continue
        if err:
            failures.append(f"{where}: {st.text.splitlines()[0]} ... failed: {'; '.join(err)}")
            continue
        if st.expected and got != st.expected:
            failures.append(f"{where}: output differs\n  statement: {st.text}\n  stated:\n" +
                            "".join(f"    {x}\n" for x in st.expected) + "  printed:\n" +
                            "".join(f"    {x}\n" for x in got))
    if unplaced:
        failures.append(f"{statements[0].page if statements else '?'}: the shell printed errors not "
                        f"tied to a statement (a failing dot-command?):\n  " + "\n  ".join(unplaced))
    # The shell exits with 1 after any error, so a page whose stated errors all occurred exits so too.
    if proc.returncode != 0 and not failures and not errors:
        failures.append(f"{statements[0].page}: the shell exited with {proc.returncode}")
    return failures


def main(argv):
    if len(argv) < 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    build, shell, pages = argv[1], argv[2], argv[3:]
    if shutil.which(shell) is None and not os.path.exists(shell):
        print(f"doc_examples: the sqlite3 shell '{shell}' is missing", file=sys.stderr)
        return 1
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sandbox = make_sandbox(root, build, shell)
    total, failed = 0, 0
    try:
        for page in pages:
            statements = parse_statements(page)
            if not statements:
                continue
            total += len(statements)
            failures = run_page(statements, shell, sandbox)
            failed += len(failures)
            for f in failures:
                print(f, file=sys.stderr)
    finally:
        shutil.rmtree(sandbox, ignore_errors=True)
    print(f"{total} statements in {len(pages)} pages, {failed} failures")
    return 0 if failed == 0 and total > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
