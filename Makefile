# A thin front end over CMake presets. The two set-up commands:
#   make verify   install what is missing, build, run `idlespec verify`
#   make test     install what is missing (every group a test uses), build,
#                 run the whole ctest suite
# Also: make fuzz [FUZZ_SECONDS=60] [FUZZ_JOBS=N], make fuzz-ubsan, make bench, make asan,
#   make tsan, make format,
#   make fuzz-exposure [EXPOSURE_ARGS=--short]  time to exposure of every fuzz
#                      witness, libFuzzer beside AFL++ (installs AFL++: scripts/setup.sh fuzz)
#   make kernel-check  validate Debian's linux-source-6.1 and -6.12 against
#                      tests/kernel/expected.tsv (installs the two packages)
#   make mpi-check     the distributed model checker under mpirun -np 2 against
#                      the one-process one (installs Open MPI)

# ccache (when installed) hashes paths under the checkout relative to it and
# leaves the build directory out, so two clones or worktrees share objects.
export CCACHE_BASEDIR ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= 1

PRESET ?= release
BUILD := build/$(PRESET)
FUZZ_SECONDS ?= 60
VERIFY_ARGS ?=

.PHONY: all setup build verify test kernel-check mpi-check asan tsan fuzz fuzz-ubsan fuzz-exposure \
        fuzz-builds bench format clean

all: build

setup:
	@scripts/setup.sh

build: setup
	cmake --preset $(PRESET) >/dev/null
	cmake --build --preset $(PRESET)

verify: build
	$(BUILD)/idlespec verify $(VERIFY_ARGS)

# Every group a ctest uses (the HTML report's browser, the POWER targets,
# Frama-C), so that a fresh machine runs every test and skips none.
test: build
	scripts/setup.sh base html power framac
	ctest --preset $(PRESET)

kernel-check: build
	scripts/kernel-check.sh --bin $(BUILD)/idlespec

mpi-check: setup
	scripts/setup.sh mpi
	cmake --preset $(PRESET) >/dev/null
	cmake --build --preset $(PRESET) --target idlespec idlespec-mc-mpi
	scripts/mpi-check.sh --build $(BUILD)

asan: setup
	cmake --workflow --preset asan

# ThreadSanitizer: builds only the stress test binaries, runs label stress.
tsan: setup
	cmake --workflow --preset tsan

fuzz: setup
	cmake --preset fuzz >/dev/null
	cmake --build --preset fuzz
	ctest --preset fuzz
	$(if $(FUZZ_JOBS),FUZZ_JOBS=$(FUZZ_JOBS)) scripts/fuzz.sh $(FUZZ_SECONDS) build/fuzz

# UBSan in a build of its own, as OSS-Fuzz runs it: corpus replay and witness
# campaigns (the fuzz preset is the ASan build).
fuzz-ubsan: setup
	cmake --preset fuzz-ubsan >/dev/null
	cmake --build --preset fuzz-ubsan
	ctest --preset fuzz-ubsan

# The witnesses in the libFuzzer build and in the AFL++ build
# (afl-clang-fast++). AFL++ is installed first (scripts/setup.sh fuzz, as
# mpi-check and kernel-check install theirs); where it cannot be (not root),
# setup.sh prints the command and the libFuzzer side still runs:
# scripts/fuzz_exposure.sh's last line then says AFL++ is not installed.
WITNESSES = $$(cut -f1 build/fuzz/fuzz-witnesses.tsv)
fuzz-builds: setup
	@scripts/setup.sh fuzz || echo "make: AFL++ not installed; the time to exposure is libFuzzer's alone"
	cmake --preset fuzz >/dev/null
	cmake --build --preset fuzz
	if command -v afl-clang-fast++ >/dev/null && command -v afl-fuzz >/dev/null; then \
	  cmake --preset fuzz-afl >/dev/null && \
	  cmake --build --preset fuzz-afl --target $(WITNESSES); \
	fi

fuzz-exposure: fuzz-builds
	scripts/fuzz_exposure.sh $(EXPOSURE_ARGS) build/fuzz build/fuzz-afl

# BENCH_EXPOSURE=full: the whole time-to-exposure run (~30 min) instead of
# its short form.
bench: setup fuzz-builds
	$(MAKE) build PRESET=release
	cmake --build --preset fuzz --target subject_only_fuzz
	cmake --preset fuzz-ubsan >/dev/null
	cmake --build --preset fuzz-ubsan
	scripts/bench.sh build/release build/fuzz build/fuzz-ubsan build/fuzz-afl

# The C++ tree; harness/ and tests/validate/ hold C in the kernel's own
# style (tabs, kernel braces), as the code it is built beside.
format:
	git ls-files '*.cc' '*.h' ':!:harness/*' ':!:tests/validate/*' | xargs clang-format -i

clean:
	rm -rf build
