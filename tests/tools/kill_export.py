#!/usr/bin/env python3
"""Crash-safety of parquet_export: kill -9 the exporting process at random moments.

Usage: kill_export.py EXTENSION [ITERATIONS] [SEED]

Each iteration starts the stock sqlite3 shell exporting a generated table over a target that already
holds a complete earlier export, kills it (SIGKILL) after a random delay, then checks:
  - the target is byte-identical to the earlier file, or is a complete new export (it opens and
    holds every row) -- never a partial file;
  - any file left beside it is a temporary named `.<target name>.tmp-<pid>-<16 hex>` of the killed
    process (so users can tell what it is), and nothing else.
Temporaries are removed between iterations (as a user would after a crash). Exits non-zero on the
first violation, printing it.
"""
import hashlib
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROWS = 20_000


def sha(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def export_sql(target, shift=0):
    # `shift` makes every iteration's file different, so a completed export is told from the old one.
    return (f"SELECT parquet_export('{target}', "
            f"'SELECT value + {shift} AS id, value * 0.5 AS x, printf(''name-%d'', value % 977) AS s "
            f"FROM generate_series(1, {ROWS})', 'row_group_size=20000, compression=zstd');")


def shell(ext, sql, **kw):
    return subprocess.Popen(['sqlite3', ':memory:', '-cmd', f'.load {ext}', sql],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def expected_rows(shift):
    return f'{ROWS}|{ROWS * (ROWS + 1) // 2 + shift * ROWS}'


def count_rows(ext, path):
    p = subprocess.run(['sqlite3', ':memory:', '-cmd', f'.load {ext}',
                        f"CREATE VIRTUAL TABLE temp.t USING parquet('{path}'); SELECT count(*), sum(id) FROM t;"],
                       capture_output=True, text=True)
    return p.returncode, p.stdout.strip(), p.stderr.strip()


def main():
    ext = os.path.abspath(sys.argv[1])
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 20261122)
    work = tempfile.mkdtemp(prefix='pq-kill-')
    target = os.path.join(work, 'out.parquet')
    try:
        # A complete first export: its time bounds the kill delays.
        start = time.monotonic()
        p = shell(ext, export_sql(target))
        out, err = p.communicate()
        full = time.monotonic() - start
        if p.returncode != 0 or count_rows(ext, target)[1] != expected_rows(0):
            print(f'first export failed: {err.decode()}')
            return 1
        temp_re = re.compile(r'^\.out\.parquet\.tmp-(\d+)-[0-9a-f]{16}$')
        outcomes = {'old': 0, 'new': 0}
        for i in range(iterations):
            before = sha(target)
            p = shell(ext, export_sql(target, i + 1), start_new_session=True)
            time.sleep(rng.uniform(0, full * 1.2))
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            for name in os.listdir(work):
                if name == 'out.parquet':
                    continue
                m = temp_re.match(name)
                if not m or int(m.group(1)) != p.pid:
                    print(f'iteration {i}: unexpected file left: {name} (killed pid {p.pid})')
                    return 1
                os.remove(os.path.join(work, name))
            if not os.path.exists(target):
                print(f'iteration {i}: the earlier complete file is gone')
                return 1
            if sha(target) == before:
                outcomes['old'] += 1
                continue
            rc, got, err = count_rows(ext, target)
            if rc != 0 or got != expected_rows(i + 1):
                print(f'iteration {i}: target changed and is not a complete export: {got!r} {err}')
                return 1
            outcomes['new'] += 1
        print(f'{iterations} kills: target kept the earlier file {outcomes["old"]} times, '
              f'held a complete new export {outcomes["new"]} times; never partial; '
              f'full export takes {full:.2f}s')
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
