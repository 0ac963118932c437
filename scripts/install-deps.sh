#!/usr/bin/env bash
# Installs what the build and the tests need, and nothing that is already there.
#   Debian packages: compiler toolchain, SQLite, the codecs (liblzo2 for LZO included), xxHash, OpenSSL,
#   libcurl with the system's CA certificates, GoogleTest, python3, and nginx (the remote tests serve
#   files with it on 127.0.0.1; they make a test certificate with the openssl command).
#   npm (test peers only), under tools/node_modules: @duckdb/node-api, to cross-check values, three
#   other writers (parquet-wasm with apache-arrow, nodejs-polars, hyparquet-writer) whose files
#   tools/other_writers_check.mjs reads, hyparquet with lzo-wasm (FFmpeg's LZO1X decoder), the
#   independent reader of LZO pages (tools/lzo_check.mjs), s3rver (an S3-compatible server the remote
#   tests start on 127.0.0.1), aws4 (an independent Signature Version 4 signer they compare with),
#   better-sqlite3, which runs the README's Node snippet (tests/tools/load_snippets.py), and
#   hyparquet-compressors (zstd for hyparquet, the peer reader of the bench's remote section).
# Run by `make deps`, which `make test` and `make demo` call first. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config sqlite3 libsqlite3-dev libzstd-dev libsnappy-dev zlib1g-dev
          liblz4-dev libbrotli-dev liblzo2-dev libxxhash-dev libssl-dev libcurl4-openssl-dev ca-certificates
          openssl googletest libgtest-dev nodejs npm nginx python3)
if [ "${1:-}" = "--with-clang" ]; then packages+=(clang libclang-rt-14-dev); shift; fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# nodejs/npm may come from elsewhere than Debian: accept any working ones.
if command -v node >/dev/null && command -v npm >/dev/null; then
  tmp=(); for p in "${missing[@]}"; do [ "$p" = nodejs ] || [ "$p" = npm ] || tmp+=("$p"); done
  missing=("${tmp[@]+"${tmp[@]}"}")
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  # Installing nginx must not start the system's nginx service (it would listen on port 80): the
  # tests run their own on 127.0.0.1. policy-rc.d answering 101 tells the package not to start it.
  policy=/usr/sbin/policy-rc.d; made_policy=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null && $SUDO chmod +x "$policy" && made_policy=1
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  if [ "$made_policy" = 1 ]; then $SUDO rm -f "$policy"; fi
fi

# Every package of tools/package.json must be there (a checkout from before one was added has the
# others): npm install adds what is missing.
npm_missing=0
for p in @duckdb/node-api apache-arrow parquet-wasm nodejs-polars nodejs-polars-linux-x64-gnu hyparquet \
         hyparquet-compressors hyparquet-writer lzo-wasm s3rver aws4 better-sqlite3; do
  [ -d "tools/node_modules/$p" ] || npm_missing=1
done
if [ "${SKIP_NPM:-0}" != 1 ] && [ "$npm_missing" = 1 ]; then
  echo "install-deps: installing the test peers of tools/package.json into tools/"
  (cd tools && npm install --no-audit --no-fund --loglevel=error >/dev/null)
fi
