# Thin front over CMake. `make demo` and `make test` install what is missing first.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan

.PHONY: all deps build demo test test-asan test-tsan clean format bench fuzz bench-memory difftest \
        install uninstall

# `make install`: the extension, optimized and stripped, as $(PREFIX)/lib/parquet.so, plus a link to it
# named parquet.so in the folder the dynamic loader searches for a bare file name (LOADER_DIR), so that
# `.load parquet` and load_extension('parquet') find it with no path and no environment variable:
# SQLite dlopen()s "parquet" and then "parquet.so", and the loader looks such a name up only in its
# default folders (ldconfig's cache holds lib*.so names only, so /usr/local/lib is not searched for it).
# LOADER_DIR= (empty) installs no link. DESTDIR is prepended to both, for packaging.
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
MULTIARCH := $(shell cc -print-multiarch 2>/dev/null)
LOADER_DIR ?= /usr/lib$(if $(MULTIARCH),/$(MULTIARCH))

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

# The same suite built with AddressSanitizer and UndefinedBehaviorSanitizer. -O1 (assertions still
# on) runs the suite several times faster than -O0 and is what the sanitizers' authors recommend;
# warnings are made errors by the normal build, not this one (-O1 warns differently). ASan keeps
# freed memory in quarantine, 256 MiB by default: 64 keeps use-after-free detection while the
# hostile-file tests, which bound a probe's peak memory, measure the extension's memory rather than
# the quarantine's (tens of MiB of Bloom filters read and freed would fill it).
test-asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DPQ_SANITIZE=ON -DPQ_WERROR=OFF \
	  -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" -DCMAKE_C_FLAGS_DEBUG="-g -O1" >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:quarantine_size_mb=64 UBSAN_OPTIONS=print_stacktrace=1 \
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

install:
	@SKIP_NPM=1 bash scripts/install-deps.sh
	@$(MAKE) --no-print-directory build
	install -d "$(DESTDIR)$(LIBDIR)"
	install -m 0644 $(BUILD)/parquet.so "$(DESTDIR)$(LIBDIR)/parquet.so"
	strip --strip-unneeded "$(DESTDIR)$(LIBDIR)/parquet.so"
	@if [ -n "$(LOADER_DIR)" ] && [ "$(abspath $(LOADER_DIR))" != "$(abspath $(LIBDIR))" ]; then \
	  install -d "$(DESTDIR)$(LOADER_DIR)" && \
	  ln -sfn "$$(realpath -m --relative-to="$(LOADER_DIR)" "$(LIBDIR)/parquet.so")" "$(DESTDIR)$(LOADER_DIR)/parquet.so" && \
	  echo "linked $(DESTDIR)$(LOADER_DIR)/parquet.so -> $(LIBDIR)/parquet.so"; \
	fi
	@echo "installed $(DESTDIR)$(LIBDIR)/parquet.so ($$(du -k "$(DESTDIR)$(LIBDIR)/parquet.so" | cut -f1) KiB): .load parquet"

# Removes what `make install` put there (the loader's link only when it points to this installation).
uninstall:
	rm -f "$(DESTDIR)$(LIBDIR)/parquet.so"
	@link="$(DESTDIR)$(LOADER_DIR)/parquet.so"; \
	if [ -n "$(LOADER_DIR)" ] && [ -L "$$link" ] && \
	   [ "$$(readlink "$$link")" = "$$(realpath -m --relative-to="$(LOADER_DIR)" "$(LIBDIR)/parquet.so")" ]; then \
	  rm -f "$$link" && echo "removed $$link"; \
	fi

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
