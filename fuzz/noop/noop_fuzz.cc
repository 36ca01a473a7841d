// The baseline for scripts/bench.sh: a libFuzzer target that does nothing,
// built with the same flags as the real ones, so that the exec/s of
// xcede_fuzz can be read as a fraction of what libFuzzer itself allows.
// Not a fuzz target: it lives outside the fuzz/*_fuzz.cc glob on purpose.
#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }
