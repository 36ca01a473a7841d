// Benchmark of validate's extraction (extract/extract.h) on generated
// sources of two sizes: small tables and #ifdef'd helpers, the function under
// test at the end. scripts/bench.sh prints the time per byte of the large
// source over that of the small one: extraction is linear when the ratio is
// near 1.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "extract/extract.h"

namespace {

std::string generated_source(size_t bytes) {
  std::string src;
  for (int i = 0; src.size() < bytes; ++i) {
    const std::string n = std::to_string(i);
    src += "/* block " + n + " */\nstatic int table_" + n + "[] = { 1, 2, 3, 4 };\n";
    src += "#ifdef CONFIG_OPTION_" + n + "\nstatic int fn_" + n +
           "(int a)\n{\n\tif (a > 2)\n\t\treturn table_" + n + "[a & 3];\n\treturn a;\n}\n#endif\n";
  }
  src += "int last(int a)\n{\n\treturn fn_7(a) + fn_123(a);\n}\n";
  return src;
}

void BM_Extract(benchmark::State& state) {
  const std::string src = generated_source(size_t(state.range(0)) * 1024);
  const std::vector<std::string> names = {"last"};
  for (auto _ : state) {
    idlespec::extraction::Extraction ex = idlespec::extraction::extract(src, names, "bench.c");
    benchmark::DoNotOptimize(ex);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(src.size()));
}
BENCHMARK(BM_Extract)->ArgName("KiB")->Arg(512)->Arg(5120)->Unit(benchmark::kMillisecond);

}  // namespace
