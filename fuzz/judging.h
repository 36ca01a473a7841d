// Whether a fuzz driver judges what its subject does. Every fuzz target,
// replay and test judges (Judging::every_step); Judging::subject_only drives
// the subject through the same input and judges nothing, for one use only:
// the benchmark's subject_only_fuzz (fuzz/noop/subject_only_fuzz.cc), which
// measures what the subject alone costs, so that `make bench` can say how
// much of a target's time its oracle takes.
#pragma once

namespace idlespec::fuzz {

enum class Judging { every_step, subject_only };

}  // namespace idlespec::fuzz
