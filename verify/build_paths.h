// Where this build finds its own files at run time: the checkout CMake was
// configured from, the harnesses and shims of harness/, and the idle_core
// oracle archive the idle_core harness links.
//
// They are defined in one generated file (verify/build_paths.cc.in, written
// at configure time) and not as -D definitions on every compile line: a
// compile line that names the checkout differs between two clones of the
// same commit, and ccache (CI's compiler cache) would then miss on every
// object.
#pragma once

namespace idlespec::build {

const char* source_dir();      // the idlespec tree (spec, corpora, scripts)
const char* harness_dir();     // source_dir()/harness: harnesses, shims, candidate ABI
const char* harness_oracle();  // libidlespec_harness_oracle.a in the build tree

}  // namespace idlespec::build
