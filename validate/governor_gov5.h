// GOV-5 through the walk (spec/governor.md): the file's prediction
// recomputed from its own inputs in the words a menu.c may keep it in. A
// choice is blamed on a wrap only when a word of that arithmetic does not
// hold its value on the step's inputs and the wrapped prediction's walk
// gives the file's choice where the exact one does not; a choice that no
// prediction explains is a walk of its own (a note), never an overflow.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace idlespec::validate::gov5 {

// What the file's prediction is made of, as its own state after the
// selection shows it.
struct PredictionInputs {
  uint64_t next_timer_ns = 0;  // the time to the next timer the file recorded
  uint32_t factor = 0;         // the correction factor of the bucket it recorded
  bool timer = false;          // it asked the tick layer (the timer estimate is in the min)
  // The typical intervals the prediction may take (the file's own
  // get_typical_interval() read back, the known predictors'), in us;
  // UINT_MAX is no typical interval.
  std::vector<std::pair<std::string, uint32_t>> typicals;
};

// One prediction the file's arithmetic gives with one word wrapped.
struct WrappedPrediction {
  std::string word;      // which word, in the spec's terms
  std::string overflow;  // the exact value that does not fit it
  uint64_t exact_ns = 0;
  uint64_t predicted_ns = 0;  // the prediction with that word wrapped
  std::string typical;        // whose typical interval the min took
};

// Every such prediction on these inputs; empty when every word holds its
// value (then no wrap can be observed at this step, whatever the choice).
std::vector<WrappedPrediction> wrapped_predictions(const PredictionInputs& in);

// The file's own predictions computed exactly from these inputs, one per
// typical interval (its own get_typical_interval() read back first): the
// minimum of the typical interval and the timer estimate, no word wrapped.
// A choice one of them explains is the file's predictor's, never a wrap.
std::vector<std::pair<std::string, uint64_t>> exact_predictions(const PredictionInputs& in);

// The finding's text: the word, its exact value, and the walk of the
// wrapped prediction that gives the file's choice.
std::string wrap_text(const WrappedPrediction& w, const std::string& walker,
                      const std::string& exact_choice);

}  // namespace idlespec::validate::gov5
