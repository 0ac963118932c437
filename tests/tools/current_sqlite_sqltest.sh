#!/usr/bin/env bash
# Runs the SQL tests (sql_tests/*.sql) with a current SQLite instead of the system's 3.40: the
# amalgamation that npm's better-sqlite3 bundles (tools/node_modules, which `make test` installs),
# compiled with the options better-sqlite3 compiles it with (its deps/defines.gypi), so this is the
# SQLite a Node program using the extension through better-sqlite3 runs. Releases differ in what
# they ask of a virtual table (LIMIT/OFFSET offered with more queries, DISTINCT handed to the table's
# sorted scan) and in what their API tolerates (sqlite3_value_numeric_type on a copy made by
# sqlite3_value_dup crashes from 3.53 on), so the same files must pass here too.
#
# Usage: current_sqlite_sqltest.sh WORK_DIR EXTENSION FILE.sql...
# The runner is built once in WORK_DIR (again when the amalgamation or the runner's source is newer).
# A missing amalgamation is a failure, never a skip.
set -euo pipefail

work=$1
extension=$2
shift 2
package=tools/node_modules/better-sqlite3
amalgamation=$package/deps/sqlite3/sqlite3.c
defines=$package/deps/defines.gypi
runner_source=tests/tools/sqltest/sqltest.cc
if [ ! -f "$amalgamation" ] || [ ! -f "$defines" ]; then
  echo "missing $amalgamation or $defines: run 'make deps' (npm install in tools/)" >&2
  exit 1
fi

mkdir -p "$work"
object=$work/sqlite3.o
runner=$work/sqltest
if [ ! -x "$runner" ] || [ "$amalgamation" -nt "$runner" ] || [ "$runner_source" -nt "$runner" ] ||
   [ "$defines" -nt "$runner" ]; then
  # Each 'NAME' or 'NAME=VALUE' of defines.gypi's list becomes -DNAME[=VALUE].
  mapfile -t flags < <(grep -o "'[A-Z][A-Z0-9_]*\(=[^']*\)\?'" "$defines" | tr -d "'" | sed 's/^/-D/')
  echo "compiling $amalgamation (${#flags[@]} options from $defines)"
  cc -O1 -c "$amalgamation" -o "$object" "${flags[@]}"
  c++ -std=c++20 -O1 -I"$(dirname "$amalgamation")" "$runner_source" "$object" -o "$runner" -lpthread -ldl -lm
fi
echo "SQLite $(grep -m1 -o '#define SQLITE_VERSION  *"[^"]*"' "$(dirname "$amalgamation")/sqlite3.h" | cut -d'"' -f2)"

failed=()
for file in "$@"; do
  if "$runner" "$extension" "$file" >"$work/last.log" 2>&1; then
    echo "ok   $file: $(tail -n 1 "$work/last.log")"
  else
    echo "FAIL $file:"
    cat "$work/last.log"
    failed+=("$file")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "${#failed[@]} file(s) failed with this SQLite: ${failed[*]}"
  exit 1
fi
echo "all $# files passed"
