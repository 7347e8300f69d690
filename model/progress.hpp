// How far a long job has got, for a caller that shows it (the command line draws a bar; the library
// has no terminal code). Called on the thread doing the job with the work done so far and the whole,
// in bytes of the input (gen: of the output, whose whole is an estimate until the end).
#pragma once

#include <cstddef>
#include <functional>

namespace anvil {

using ProgressFn = std::function<void(std::size_t done, std::size_t total)>;

// Calls a ProgressFn only when the work has moved on by a step since the last call, and once at the
// end, so that a loop over objects can report after each one at the cost of a comparison.
class ProgressSteps {
 public:
  static constexpr std::size_t kStep = std::size_t{1} << 20;

  ProgressSteps(const ProgressFn& fn, std::size_t total) : fn_(fn), total_(total) {}
  void at(std::size_t done) {
    if (done >= next_ && fn_) {
      fn_(done, total_);
      next_ = done + kStep;
    }
  }
  void finish() {
    if (fn_) fn_(total_, total_);
  }

 private:
  const ProgressFn& fn_;
  std::size_t total_;
  std::size_t next_ = kStep;
};

}  // namespace anvil
