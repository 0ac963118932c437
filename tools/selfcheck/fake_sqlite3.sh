#!/bin/sh
# Runs fake_sqlite3.mjs (see there) as a program, for compare_with_duckdb.mjs --sqlite3.
exec node "$(dirname "$0")/fake_sqlite3.mjs" "$@"
