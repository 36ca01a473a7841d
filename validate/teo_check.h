// Internal to validate/: what teo's harness build and its Frama-C unit
// (validate/framac.cc) share, one reading of the file for both.
#pragma once

#include <string>
#include <vector>

#include "extract/extract.h"
#include "validate/component.h"

namespace idlespec::validate {

// `static DEFINE_PER_CPU(struct teo_cpu, teo_cpus);` defines nothing to the
// extractor: the line, with its #line marker, put ahead of the first item
// of `ex` using teo_cpus.
void add_teo_cpus(const Target& target, Extraction& ex);

// The file's struct teo_cpu / struct teo_bin as -D flags, one
// TEO_HAVE_<member> per member the harness reads (harness/harness_teo.c).
std::vector<std::string> teo_layout_defines(const Extraction& ex);

}  // namespace idlespec::validate
