#!/usr/bin/env bash
# Builds the libFuzzer targets in fuzz/ with clang (ASan + UBSan) and runs each for a set time.
#   FUZZ_SECONDS   seconds per target (default 60)
#   FUZZ_TARGETS   which targets (default: every fuzz/*.cc)
#   FUZZ_JOBS      parallel fuzzing processes per target (default 1)
# Corpora live in fuzz/corpus/<target>/ (seeded here from the conformance files, grown by each run,
# not checked in); crashes are written to fuzz/crashes/<target>/ and make the run fail. A summary
# (CPU seconds, executions, crashes per target) is printed at the end and saved to
# fuzz/results/latest.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET=${FUZZ_SECONDS:-60}
JOBS=${FUZZ_JOBS:-1}
BUILD=build-fuzz
TESTING=tests/data/parquet-testing

bash scripts/install-deps.sh --with-clang
CC=clang CXX=clang++ cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPQ_FUZZ=ON \
  -DPQ_BUILD_TESTS=OFF -DPQ_WERROR=OFF >/dev/null
cmake --build "$BUILD" -j "$(nproc)" >/dev/null

targets=${FUZZ_TARGETS:-$(ls fuzz/*.cc | xargs -n1 basename | sed 's/\.cc$//')}

seed() {  # seed <target> <dir>
  local target=$1 dir=$2
  mkdir -p "$dir"
  [ -n "$(ls -A "$dir" 2>/dev/null)" ] && return 0
  case "$target" in
    fuzz_scan|fuzz_vtab)
      for f in "$TESTING"/data/*.parquet "$TESTING"/data/*.parquet.encrypted \
               "$TESTING"/shredded_variant/case-0[0-4]*.parquet tests/data/*.parquet; do
        if [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 1048576 ]; then cp "$f" "$dir/$(basename "$f")"; fi
      done ;;
    fuzz_thrift)
      # Each conformance file's footer: the FileMetaData bytes before the length and magic.
      python3 - "$dir" "$TESTING"/data/*.parquet <<'PY'
import os, struct, sys
out = sys.argv[1]
for path in sys.argv[2:]:
    b = open(path, 'rb').read()
    if len(b) < 12 or b[-4:] != b'PAR1': continue
    n = struct.unpack('<I', b[-8:-4])[0]
    if n + 8 > len(b): continue
    open(os.path.join(out, os.path.basename(path) + '.footer'), 'wb').write(b[-8 - n:-8])
PY
      ;;
    fuzz_variant)
      for m in "$TESTING"/variant/*.metadata; do
        v=${m%.metadata}.value
        [ -f "$v" ] || continue
        python3 -c 'import sys,struct; m=open(sys.argv[1],"rb").read(); v=open(sys.argv[2],"rb").read(); sys.stdout.buffer.write(struct.pack("<H", len(m)) + m + v)' \
          "$m" "$v" > "$dir/$(basename "${m%.metadata}")"
      done ;;
    fuzz_structure)
      # Choices, not files: a few byte strings pick bases and mutations; the fuzzer finds the rest.
      python3 - "$dir" <<'PY'
import os, sys
for i in range(10):
    open(os.path.join(sys.argv[1], 'choices-%d' % i), 'wb').write(bytes((i * 37 + k * 11) % 256 for k in range(64)))
PY
      ;;
    fuzz_page)
      # Control bytes (codec, type, encoding, level) + a little plain data; the fuzzer finds the rest.
      for i in 0 1 2 3 4 5 6 7; do
        printf "\x00\x0$i\x00\x01\x04\x00\x00\x00\x02\x03\x04\x05\x06\x07\x08\x09" > "$dir/plain-$i"
      done
      # An LZO page (codec 7 of the target's list) in hadoop-lzo's framing, claiming 64 bytes:
      # [u32 BE 64][u32 BE 68] then one LZO1X block of 64 literal bytes (17 + 64) and its end marker.
      python3 -c 'import sys; body = bytes(range(64)); sys.stdout.buffer.write(bytes([7, 1, 0, 0, 4, 0]) + (64).to_bytes(4, "big") + (68).to_bytes(4, "big") + bytes([17 + 64]) + body + bytes([0x11, 0, 0]))' > "$dir/lzo-framed" ;;
  esac
}

mkdir -p fuzz/results
summary=fuzz/results/latest.txt
printf "%-14s %10s %12s %8s\n" target cpu_s executions crashes > "$summary"
status=0
for t in $targets; do
  corpus=fuzz/corpus/$t
  crashes=fuzz/crashes/$t
  seed "$t" "$corpus"
  mkdir -p "$crashes"
  log=fuzz/results/$t.log
  parallel=""; [ "$JOBS" -gt 1 ] && parallel="-jobs=$JOBS -workers=$JOBS"
  echo "fuzz: $t for ${SECONDS_PER_TARGET}s ($JOBS job(s))"
  start=$(awk '{print $14+$15}' /proc/self/stat 2>/dev/null || echo 0)
  set +e
  /usr/bin/time -f "%U %S" -o "fuzz/results/$t.time" \
    "$BUILD/$t" "$corpus" -max_total_time="$SECONDS_PER_TARGET" $parallel \
    -rss_limit_mb=2048 -max_len=1048576 -timeout=20 -print_final_stats=1 \
    -artifact_prefix="$crashes/" >"$log" 2>&1
  rc=$?
  set -e
  cpu=$(awk '{printf "%.0f", $1+$2}' "fuzz/results/$t.time" 2>/dev/null || echo "?")
  # (grep fails when a pattern matches no file; under pipefail that must not end the run)
  execs=$({ grep -h "stat::number_of_executed_units" "$log" fuzz-*.log 2>/dev/null || true; } | awk '{s+=$2} END {print s+0}')
  found=$(ls "$crashes" | grep -cE '^(crash|leak|timeout|oom)-' || true)
  printf "%-14s %10s %12s %8s\n" "$t" "$cpu" "$execs" "$found" >> "$summary"
  if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then status=1; echo "fuzz: $t FAILED (see $log, $crashes)"; fi
  rm -f fuzz-*.log
done
cat "$summary"
exit $status
