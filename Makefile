# readperf: the two commands of README.md.
#
#   make demo    build, record the bundled workload with perf, print
#                `readperf report` and write the CSV files into demo-out/
#   make check   warnings-as-errors build + all tests, then an
#                AddressSanitizer/UBSan build + all tests again, then a
#                ThreadSanitizer build + the tests of several threads
#
# Both first install the Debian packages they need when some are missing
# (one `apt-get update`, one `apt-get install -y`), as root or through sudo.
# The build itself is CMake; see README.md for using it directly.
#
#   make install [PREFIX=/usr/local] [DESTDIR=]   the command, the library
#                (libreadperf.so.N and .a), headers, readperf.pc, man pages
#   make deb     the Debian packages readperf, libreadperf0, libreadperf-dev
#                (debian/), built from a copy of the tree into build-deb/
#   make abi-dump   refreshes the ABI baseline abi/libreadperf.so.N.abi that
#                tests/install/run_abi.sh compares with (docs/api.md)

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

PACKAGES := build-essential cmake pkg-config libelf-dev libdw-dev libzstd-dev libdeflate-dev \
            libiberty-dev zlib1g-dev libcmocka-dev linux-perf python3 \
            libtraceevent-dev libprotobuf-c-dev protobuf-c-compiler golang-go \
            scdoc man-db libcapstone-dev nodejs npm chromium \
            libsqlite3-dev sqlite3 python3-pyside2.qtsql libqt5sql5-sqlite libqt5sql5-psql libpq-dev libssl-dev postgresql \
            debhelper lintian abigail-tools libc6-dbg lld
# Packages that count as installed when their command is on PATH: a
# nodejs from elsewhere (NodeSource) bundles npm and conflicts with
# Debian's npm package, which apt would otherwise replace it with.
PACKAGES_BY_COMMAND := npm
JOBS ?= 2
CC ?= cc
DEMO_OUT := demo-out
WORKLOAD_CFLAGS := -O1 -g -fno-omit-frame-pointer -fno-inline
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all deps build install deb abi-dump demo check check-werror check-asan check-tsan bench fuzz valgrind clean

all: build

# Installs the packages dpkg does not list as installed.
deps:
	@if ! command -v dpkg-query >/dev/null 2>&1; then \
		echo "make: no dpkg-query (not Debian?): install by hand: $(PACKAGES)"; \
		exit 0; \
	fi; \
	missing=""; \
	for p in $(PACKAGES); do \
		dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q 'install ok installed' \
			&& continue; \
		case " $(PACKAGES_BY_COMMAND) " in \
		*" $$p "*) command -v "$$p" >/dev/null 2>&1 && continue ;; \
		esac; \
		missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	echo "make: installing missing packages:$$missing"; \
	if [ "$$(id -u)" = 0 ]; then sudo=""; \
	elif command -v sudo >/dev/null 2>&1; then sudo="sudo"; \
	else echo "make: run as root to install:$$missing" >&2; exit 1; fi; \
	$$sudo apt-get update; \
	DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y $$missing

build: deps
	cmake -S . -B build
	cmake --build build -j$(JOBS)

# DESTDIR stages the tree for a package; PREFIX is where it will live
# (configured too: with /usr, GNUInstallDirs picks lib/<multiarch>).
install: deps
	cmake -S . -B build -DCMAKE_INSTALL_PREFIX="$(PREFIX)"
	cmake --build build -j$(JOBS)
	DESTDIR="$(DESTDIR)" cmake --install build --prefix "$(PREFIX)"
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then ldconfig; fi

# dpkg-buildpackage -b -us -uc on a copy of the tree (tools/build-deb.sh):
# build-deb/*.deb.  DEB_BUILD_OPTIONS=nocheck skips the unit tests.
DEB_OUT ?= build-deb
deb: deps
	@opts="$${DEB_BUILD_OPTIONS:-}"; \
	case " $$opts " in *" parallel="*) ;; *) opts="$$opts parallel=$(JOBS)" ;; esac; \
	DEB_BUILD_OPTIONS="$$opts" tools/build-deb.sh $(DEB_OUT)
	@echo "== make deb: packages in $(DEB_OUT)/ (apt install ./$(DEB_OUT)/readperf_*.deb ...)"; \
	ls -1 $(DEB_OUT)/*.deb

# The ABI baseline: run when a release is tagged, and before the first
# release whenever the public API changes on purpose (docs/api.md).  Its
# own build directory, so that the dump does not depend on build/'s options.
RP_MAJOR = $(shell sed -n 's/^\#define RP_VERSION_MAJOR  *\([0-9][0-9]*\)$$/\1/p' include/readperf/version.h)
abi-dump: deps
	cmake -S . -B build-abi -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRP_SANITIZE=OFF -DBUILD_TESTING=OFF
	cmake --build build-abi -j$(JOBS) --target readperf-shared
	tools/abi-dump.sh build-abi/libreadperf.so.$(RP_MAJOR) abi/libreadperf.so.$(RP_MAJOR).abi
	@echo "== make abi-dump: abi/libreadperf.so.$(RP_MAJOR).abi written: commit it"

demo: build
	@mkdir -p $(DEMO_OUT)
	$(CC) $(WORKLOAD_CFLAGS) -o build/workload tests/workload/workload.c -lm
	@data=$(DEMO_OUT)/perf.data; \
	rm -f "$$data"; \
	if command -v perf >/dev/null 2>&1 && \
	   perf record -e cpu-clock -g -o "$$data" -- build/workload -t 1000 \
		>$(DEMO_OUT)/record.log 2>&1 && [ -s "$$data" ]; then \
		echo "== recorded build/workload with: perf record -e cpu-clock -g -o $$data"; \
	else \
		echo "******************************************************************"; \
		echo "* perf could not record here (not installed, or no permission:"; \
		echo "* see /proc/sys/kernel/perf_event_paranoid; $(DEMO_OUT)/record.log)."; \
		echo "* SHOWING THE COMMITTED SAMPLE tests/golden/demo.perf.data INSTEAD."; \
		echo "******************************************************************"; \
		cp tests/golden/demo.perf.data "$$data"; \
	fi; \
	echo "== readperf report $$data"; \
	build/readperf report "$$data"; \
	build/readperf csv -o $(DEMO_OUT) "$$data"; \
	echo "== CSV files written to $(CURDIR)/$(DEMO_OUT)/:"; \
	ls -l $(DEMO_OUT)/stat.csv $(DEMO_OUT)/overview.csv $(DEMO_OUT)/processes.csv $(DEMO_OUT)/results.csv

# The differential test must not skip in CI: a perf that cannot record fails.
check: deps
	$(MAKE) --no-print-directory check-werror
	$(MAKE) --no-print-directory check-asan
	$(MAKE) --no-print-directory check-tsan
	@echo "== make check: all tests passed (build/, build-asan/ and build-tsan/)"

check-werror: deps
	cmake -S . -B build -DRP_WERROR=ON -DRP_SANITIZE=OFF
	cmake --build build -j$(JOBS)
	cd build && RP_REQUIRE_PERF=1 ctest --output-on-failure -j$(JOBS)

check-asan: deps
	cmake -S . -B build-asan -DRP_WERROR=ON -DRP_SANITIZE=ON
	cmake --build build-asan -j$(JOBS)
	cd build-asan && RP_REQUIRE_PERF=1 ctest --output-on-failure -j$(JOBS)

# ThreadSanitizer over what runs on several threads: the reader thread,
# the stack walks' workers and script's formatting pool
# (perf/run_parallel: -j 1 = -j 4 on every kind of recording), and
# several recordings at once (outputs/run_multi), the pipeline's
# unit test of threads (unit/test_process_window), and the report's
# stage renaming rows of inlined frames (diff/run_dwarf_fork).  Only those are
# built; without -Werror (the sanitizer's instrumentation makes gcc's
# flow warnings fire on the unit tests).  About 3 minutes here.
TSAN_TESTS := perf/run_parallel|outputs/run_multi|unit/test_process_window|diff/run_dwarf_fork
check-tsan: deps
	cmake -S . -B build-tsan -DRP_WERROR=OFF -DRP_SANITIZE=thread
	cmake --build build-tsan -j$(JOBS) --target readperf-cli test_process_window
	cd build-tsan && RP_REQUIRE_PERF=1 TSAN_OPTIONS=halt_on_error=1 \
		ctest --output-on-failure -j$(JOBS) -R '$(TSAN_TESTS)'

# Not part of check: records ~100 MB and compares speed and memory with perf.
# Fuzzing (clang's libFuzzer) and valgrind: not part of make check.
FUZZ_SECONDS ?= 600
fuzz: deps
	@command -v clang >/dev/null && dpkg-query -W libclang-rt-14-dev >/dev/null 2>&1 || \
		{ apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y clang libclang-rt-14-dev; }
	CC=clang cmake -S . -B build-fuzz -DRP_FUZZ=ON -DRP_SANITIZE=ON
	cmake --build build-fuzz -j$(JOBS)
	tests/fuzz/fuzz_campaign.sh build-fuzz $(FUZZ_SECONDS)

valgrind: build
	@command -v valgrind >/dev/null || { apt-get update && apt-get install -y valgrind; }
	tests/robust/valgrind.sh build/readperf

bench: build
	bench/bench_report.sh build/readperf

clean:
	rm -rf build build-asan build-abi $(DEB_OUT) $(DEMO_OUT)
