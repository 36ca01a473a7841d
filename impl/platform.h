// Platforms and the CEDE(0) fix-up gate.
//
// A pseries LPAR runs on a processor (its PVR) in a compatibility mode that
// may be older than the processor: a POWER10 booted in POWER9 mode reports the
// POWER10 PVR but does not have the ISA 3.1 feature bit (CPU_FTR_ARCH_31).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace idlespec {

enum class Platform { power8 = 8, power9 = 9, power10 = 10, power11 = 11 };

inline constexpr Platform kAllPlatforms[] = {Platform::power8, Platform::power9, Platform::power10,
                                             Platform::power11};

std::string_view platform_name(Platform p);
std::optional<Platform> parse_platform(std::string_view name);

// One LPAR configuration as the pseries cpuidle probe sees it.
struct Lpar {
  Platform processor = Platform::power10;  // the PVR
  Platform compat = Platform::power10;     // architected mode, never newer than processor
  bool shared_processor = false;           // lppaca_shared_proc(): shared vs dedicated LPAR

  // CPU_FTR_ARCH_31: ISA 3.1 is in effect, i.e. the LPAR runs in POWER10 mode or newer.
  bool has_arch31() const { return compat >= Platform::power10; }
  // pvr_version_is(PVR_POWER10): the processor is a POWER10, whatever its mode.
  bool pvr_is_power10() const { return processor == Platform::power10; }
  bool valid() const { return compat <= processor; }
};

// STATES-6: the CEDE(0) exit-latency fix-up runs only on a dedicated LPAR whose
// CPU has ISA 3.1 or is a POWER10 by PVR. The 2021 change limited it to
// POWER10: the 2 us that POWER9 firmware advertises for XCEDE1 excludes the
// hypervisor-to-LPAR transition and the IPI, which together measure ~9.5 us at
// the 99th percentile, so POWER9 keeps the 10 us default. A POWER11 in POWER9
// mode has neither the feature bit nor the POWER10 PVR and keeps it as well.
inline bool cede0_fixup_applies(const Lpar& lpar) {
  return !lpar.shared_processor && (lpar.has_arch31() || lpar.pvr_is_power10());
}

}  // namespace idlespec
