#include "fuzz/xcede_input.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "impl/text.h"

namespace idlespec::fuzz {

FuzzInput split_input(std::span<const uint8_t> data) {
  const uint8_t b0 = data.size() > 0 ? data[0] : 0;
  const uint8_t b1 = data.size() > 1 ? data[1] : 0;
  FuzzInput in;
  in.config.lpar.processor = kPlatformChoices[b0 & 3];
  in.config.lpar.compat = std::min(kPlatformChoices[(b0 >> 2) & 3], in.config.lpar.processor);
  in.config.lpar.shared_processor = (b0 >> 4) & 1;
  in.config.expose_xcede = (b0 >> 5) & 1;
  in.config.capacity = kCapacityChoices[b1 & 7];
  in.config.tb_hz = kTbChoices[(b1 >> 3) & 7];
  in.buffer = data.subspan(std::min(data.size(), kConfigBytes));
  return in;
}

std::vector<uint8_t> config_bytes(const FuzzConfig& c) {
  auto index_of = [](const auto& table, auto value) {
    const auto it = std::find(std::begin(table), std::end(table), value);
    return static_cast<uint8_t>(it == std::end(table) ? 0 : it - std::begin(table));
  };
  const uint8_t b0 = index_of(kPlatformChoices, c.lpar.processor) |
                     index_of(kPlatformChoices, c.lpar.compat) << 2 |
                     uint8_t(c.lpar.shared_processor) << 4 | uint8_t(c.expose_xcede) << 5;
  const uint8_t b1 = index_of(kCapacityChoices, c.capacity) | index_of(kTbChoices, c.tb_hz) << 3;
  return {b0, b1};
}

std::string describe(const FuzzConfig& c) {
  return strprintf("%s in %s mode, %s, expose %s, capacity %u, tb %llu Hz",
                   std::string(platform_name(c.lpar.processor)).c_str(),
                   std::string(platform_name(c.lpar.compat)).c_str(),
                   c.lpar.shared_processor ? "shared" : "dedicated", c.expose_xcede ? "on" : "off",
                   c.capacity, static_cast<unsigned long long>(c.tb_hz));
}

std::string describe_input(std::span<const uint8_t> data) {
  const FuzzInput in = split_input(data);
  return describe(in.config) + "; buffer " + oracle::hex(in.buffer);
}

states::Options table_options(const FuzzConfig& config) {
  states::Options options;
  options.lpar = config.lpar;
  options.tb_hz = config.tb_hz;
  options.expose_xcede = config.expose_xcede;
  return options;
}

void report_and_abort(const char* target, std::span<const uint8_t> data,
                      const Violations& violations) {
  const FuzzInput in = split_input(data);
  for (const Violation& v : violations) {
    std::fprintf(stderr, "==%s== %s violated: %s\n", target, v.clause.c_str(), v.message.c_str());
  }
  std::fprintf(stderr, "==%s== config (%zu bytes): %s\n", target,
               std::min(data.size(), kConfigBytes), describe(in.config).c_str());
  std::fprintf(stderr, "==%s== buffer (%zu bytes): %s\n", target, in.buffer.size(),
               oracle::hex(in.buffer).c_str());
  std::fprintf(stderr, "==%s== input (%zu bytes): %s\n", target, data.size(),
               oracle::hex(data).c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace idlespec::fuzz
