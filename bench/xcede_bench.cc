// Benchmarks of the XCEDE decoder (beside a plain memcpy of the same bytes,
// the floor any decoder of this buffer has), the state-table build, and the
// xcede_fuzz invariant checker per input.
#include <benchmark/benchmark.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/xcede_input.h"
#include "impl/states.h"
#include "impl/subjects.h"
#include "impl/xcede.h"
#include "verify/build_paths.h"

namespace {

using idlespec::xcede::Record;

// A 4-record payload (the 2020 RFC's buffer size): POWER9 mailing-list
// values and two deeper hints, at the 512 MHz timebase.
const std::vector<Record> kFourRecords = {
    {1, 0x400, 1}, {2, 0x3e8000, 0}, {3, 0x7d0000, 1}, {4, 0xfa0000, 1}};

std::vector<uint8_t> four_record_payload() { return idlespec::xcede::encode(kFourRecords); }

void BM_Decode4Records(benchmark::State& state) {
  const std::vector<uint8_t> payload = four_record_payload();
  for (auto _ : state) {
    idlespec::xcede::Decoded d = idlespec::xcede::decode(payload);
    benchmark::DoNotOptimize(d);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(payload.size()));
  state.SetLabel(std::to_string(payload.size()) + " bytes");
}
BENCHMARK(BM_Decode4Records);

void BM_Memcpy4Records(benchmark::State& state) {
  const std::vector<uint8_t> payload = four_record_payload();
  std::vector<uint8_t> copy(payload.size());
  for (auto _ : state) {
    benchmark::DoNotOptimize(payload.data());
    std::memcpy(copy.data(), payload.data(), payload.size());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(payload.size()));
  state.SetLabel(std::to_string(payload.size()) + " bytes");
}
BENCHMARK(BM_Memcpy4Records);

// The table a POWER10 dedicated LPAR gets from the four records, with the
// CEDE(0) fix-up and (arg 1) the XCEDE states exposed.
void BM_BuildTable4Records(benchmark::State& state) {
  idlespec::states::Options options;
  options.lpar = {idlespec::Platform::power10, idlespec::Platform::power10, false};
  options.expose_xcede = state.range(0) != 0;
  for (auto _ : state) {
    idlespec::states::Table t = idlespec::states::build(kFourRecords, options);
    benchmark::DoNotOptimize(t);
  }
}
BENCHMARK(BM_BuildTable4Records)->ArgName("expose")->Arg(0)->Arg(1);

// The checker on the 4-record payload, POWER10 dedicated, XCEDE exposed.
void BM_XcedeFuzzCheck4Records(benchmark::State& state) {
  idlespec::fuzz::FuzzConfig config;
  config.expose_xcede = true;
  std::vector<uint8_t> input = idlespec::fuzz::config_bytes(config);
  const std::vector<uint8_t> payload = four_record_payload();
  input.insert(input.end(), payload.begin(), payload.end());
  for (auto _ : state) {
    auto v = idlespec::fuzz::check_xcede_input<idlespec::ReferenceSubject>(input);
    benchmark::DoNotOptimize(v);
  }
}
BENCHMARK(BM_XcedeFuzzCheck4Records);

// The checker over the stored corpus, round robin: time per input.
void BM_XcedeFuzzCheckCorpus(benchmark::State& state) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(idlespec::build::source_dir()) / "fuzz/corpus/xcede_fuzz";
  std::vector<std::vector<uint8_t>> inputs;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::ifstream f(entry.path(), std::ios::binary);
    inputs.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  if (inputs.empty()) {
    state.SkipWithError(("no corpus in " + dir.string()).c_str());
    return;
  }
  size_t bytes = 0;
  for (const auto& in : inputs) bytes += in.size();
  size_t next = 0;
  size_t violations = 0;
  for (auto _ : state) {
    violations +=
        idlespec::fuzz::check_xcede_input<idlespec::ReferenceSubject>(inputs[next]).size();
    next = next + 1 == inputs.size() ? 0 : next + 1;
  }
  state.SetItemsProcessed(int64_t(state.iterations()));
  state.SetLabel(std::to_string(inputs.size()) + " inputs, mean " +
                 std::to_string(bytes / inputs.size()) + " bytes, " + std::to_string(violations) +
                 " violations");
}
BENCHMARK(BM_XcedeFuzzCheckCorpus);

}  // namespace
