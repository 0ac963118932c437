#!/usr/bin/env bash
# `make install` and `make uninstall` into a DESTDIR (ctest make_install): the installed extension is
# stripped, the loader's link resolves to it, the sqlite3 shell loads it through the link and runs a
# query, and uninstall removes both. Usage: install_check.sh <build dir> [sqlite3 shell]
set -euo pipefail
build="$1"
shell="${2:-sqlite3}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
dest="$(mktemp -d)"
trap 'rm -rf "$dest"' EXIT
fail() { echo "install_check: $*" >&2; exit 1; }

make -s -C "$root" install DESTDIR="$dest" BUILD="$build" PREFIX=/usr/local LOADER_DIR=/usr/lib/loader \
  >"$dest.log" 2>&1 || { cat "$dest.log" >&2; rm -f "$dest.log"; fail "make install failed"; }
rm -f "$dest.log"
lib="$dest/usr/local/lib/parquet.so"
link="$dest/usr/lib/loader/parquet.so"
[ -f "$lib" ] || fail "no $lib"
[ -L "$link" ] || fail "no link $link"
[ "$(readlink "$link")" = "../../local/lib/parquet.so" ] || fail "link points to $(readlink "$link")"
# Stripped: no symbol table and no debug sections left.
if readelf -S "$lib" | grep -qE '\.symtab|\.debug_'; then fail "$lib is not stripped"; fi
size_kib=$(du -k "$lib" | cut -f1)
[ "$size_kib" -lt 20480 ] || fail "$lib is $size_kib KiB (more than 20 MiB: not the stripped build?)"
# Loaded through the link, the way the loader finds it by name.
out="$(cd "$dest" && "$shell" -batch :memory: ".load $link" \
        "SELECT json_extract(parquet_version(), '\$.parquet'), parquet_export('x.parquet', 'SELECT 42 AS v');")"
want="$(sed -n 's/^project(sqlite_parquet VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")|1"
[ "$out" = "$want" ] || fail "loading the installed extension gave '$out', expected '$want'"

make -s -C "$root" uninstall DESTDIR="$dest" PREFIX=/usr/local LOADER_DIR=/usr/lib/loader >/dev/null
[ ! -e "$lib" ] || fail "uninstall left $lib"
[ ! -L "$link" ] || fail "uninstall left $link"
echo "install_check: ok (installed size $size_kib KiB)"
