# Thin front over CMake. `make demo` and `make test` install what is missing first.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan

.PHONY: all deps build demo test test-asan test-tsan clean format bench fuzz bench-memory difftest

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD)/Makefile: CMakeLists.txt
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

build: $(BUILD)/Makefile
	cmake --build $(BUILD) -j $(JOBS)

# The demo needs no Node: its sample is written by the extension itself (examples/make_sample.sql).
demo:
	@SKIP_NPM=1 bash scripts/install-deps.sh
	@$(MAKE) --no-print-directory build
	@bash examples/demo.sh $(BUILD)/parquet

test: deps build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The differential test at length (tests/ext/differential_test.cc): generated queries on the parquet
# table and on a native copy of its rows must agree. PQ_DIFF_QUERIES and PQ_DIFF_SEED pass through.
difftest: build
	PQ_DIFF_QUERIES=$${PQ_DIFF_QUERIES:-100000} PQ_DIFF_SEED=$${PQ_DIFF_SEED:-1} \
	  $(BUILD)/test_ext --gtest_filter='DifferentialTest.GeneratedQueriesAgree'

# The same suite built with AddressSanitizer and UndefinedBehaviorSanitizer.
test-asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DPQ_SANITIZE=ON >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  PQ_SANITIZED=1 ctest --output-on-failure -j $(JOBS)

# The threaded code (tables' read-ahead workers, the export's encoding threads, several connections
# at once) under ThreadSanitizer: the SQL-level suite and the page reader's. Not part of `make test`
# (about 5 minutes on 2 cores).
test-tsan: deps
	cmake -S . -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPQ_WERROR=OFF \
	  -DCMAKE_C_FLAGS=-fsanitize=thread -DCMAKE_CXX_FLAGS=-fsanitize=thread \
	  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread >/dev/null
	cmake --build $(TSAN_BUILD) -j $(JOBS) --target parquet test_ext test_format_page
	TSAN_OPTIONS=halt_on_error=1 $(TSAN_BUILD)/test_ext
	TSAN_OPTIONS=halt_on_error=1 $(TSAN_BUILD)/test_format_page

format:
	clang-format -i $$(git ls-files '*.cc' '*.h')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD)

# libFuzzer targets (clang), each run FUZZ_SECONDS (default 60); see scripts/fuzz.sh.
fuzz:
	bash scripts/fuzz.sh

# The benchmark suite (bench/run.mjs): queries on the project's file, DuckDB's file and native SQLite,
# exports, peak memory, open time; writes bench/results/latest.md. BENCH_ROWS=1000000 for a quick run.
bench: deps build
	node bench/run.mjs $(BUILD)/parquet

# Peak memory of full scans of files with many row groups.
bench-memory: deps build
	bash bench/scan_memory.sh $(BUILD)/parquet
