// Global Arrays' mutexes: mutex i is the exclusive passive-target lock of rank i % P on window
// i / P, so locking one costs one remote atomic when free, and a waiter sleeps in the window's
// waiter registry (woken by the unlock) instead of spinning.
#pragma once

#include <vector>

#include "arrays/context.hpp"
#include "remora/array.h"
#include "rma/window.hpp"

struct remora_mutexes_s {};

namespace remora::arrays {

class MutexSet : public remora_mutexes_s {
 public:
  // Collective.
  static int create(const Context& context, int count, MutexSet** out);
  // Collective.
  int destroy();
  int count() const { return count_; }
  int lock(int index);
  int unlock(int index);
  bool held(int index) const { return held_[static_cast<size_t>(index)] != 0; }

 private:
  explicit MutexSet(const Context& context) : context_(context) {}
  Context context_;
  int count_ = 0;
  int ranks_ = 1;
  std::vector<rma::Window*> windows_;
  std::vector<char> held_;  // by this rank
};

}  // namespace remora::arrays
