// The TEO proofs as checks of the verify registry: one verify::Check per
// proof, kind proof, component teo, paired with clauses as spec/teo.md's
// "- Checks:" lines pair them, each run against the five subjects. An
// unknown subject is unknown, never a pass.
#include <string_view>

#include "proofs/teo_proofs.h"
#include "verify/registry.h"

namespace idlespec::proofs {

const std::vector<TeoSubject>& teo_subjects() {
  static const std::vector<TeoSubject> s = {teo_subject_of<teo::V61>(), teo_subject_of<teo::V612>(),
                                            teo_subject_of<teo::V619>(), teo_subject_of<teo::V70>(),
                                            teo_subject_of<teo::Mainline>()};
  return s;
}

std::vector<std::string> teo_subject_names() {
  std::vector<std::string> names;
  for (const TeoSubject& s : teo_subjects()) names.push_back(s.name);
  return names;
}

const TeoSubject* find_teo_subject(std::string_view name) {
  for (const TeoSubject& s : teo_subjects()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const std::vector<TeoProofEntry>& teo_proof_catalog() {
  static const std::vector<TeoProofEntry> catalog = {
      {"teo_chosen_enabled", {"TEO-1"}, &prove_teo_chosen_enabled},
      {"teo_latency_limit", {"TEO-2"}, &prove_teo_latency_limit},
      {"teo_polling_tick", {"TEO-3"}, &prove_teo_polling_tick},
      {"teo_tick_kept_fits", {"TEO-4"}, &prove_teo_tick_kept_fits},
      {"teo_stopped_far_timer", {"TEO-5"}, &prove_teo_stopped_far_timer},
      {"teo_metrics_bounded", {"TEO-6"}, &prove_teo_metrics_bounded},
  };
  return catalog;
}

}  // namespace idlespec::proofs

namespace idlespec::verify {

// Called from verify/builtin_registry.cc (declared in verify/layers.h).
void register_teo_proofs(Registry& r) {
  for (const proofs::TeoProofEntry& p : proofs::teo_proof_catalog()) {
    Check c;
    c.kind = CheckKind::proof;
    c.name = p.name;
    c.component = "teo";
    c.clauses = p.clauses;
    c.subjects = proofs::teo_subject_names();
    c.run = [entry = p](const std::string& subject, const RunOptions& opts) {
      const proofs::TeoSubject* s = proofs::find_teo_subject(subject);
      if (!s) {
        CheckResult res;
        res.outcome = Outcome::unknown;
        res.detail = "proof " + entry.name + " does not run against subject '" + subject +
                     "' (its subjects: v6.1, v6.12, v6.19, v7.0, mainline)";
        return res;
      }
      return proofs::to_check_result(entry.prove(*s, proofs::proof_options(opts)), subject);
    };
    r.add(std::move(c));
  }
}

}  // namespace idlespec::verify
