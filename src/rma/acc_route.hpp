// Which path an accumulate-family operation takes (docs/rma.md, "Accumulate strategies" and
// "Across nodes"). The rule depends only on the window's strategy (agreed by every rank at
// creation), on whether the target's memory is mapped by this process, on whether the target
// is this rank, and on the element (type, offset). Every process that maps a location
// therefore updates it the same way, and a process that does not map it ships the update to
// the owner, which applies it with this same rule as its own (mapped) target: every path to
// one location is atomic with every other.
#pragma once

#include <cstdint>

#include "rma/window_options.hpp"

namespace remora::rma {

enum class AccPath {
  Native,     // CPU atomics on the mapped target memory
  LockTable,  // lock the target's stripes, read, compute, write back (caller computes)
  Owner,      // an active message to the owner, which applies it (owner computes)
};

struct AccTarget {
  bool mapped;  // the target's memory is mapped here (same node): CPU atomics can reach it
  bool self;    // the target is this rank
};

// For windows allocated by Remora (windows over user memory have their own rule,
// UserMemory and Window::acc_path).
//   native, auto: mapped target: CPU atomics where native_capable(type, offset), else the lock
//                 table; a target on another node: owner computes.
//   caller:       the lock table, whatever the target.
//   owner:        owner computes, except for this rank's own memory (the lock table here).
AccPath choose_acc_path(AccStrategy strategy, AccTarget target, int type, uint64_t offset);

}  // namespace remora::rma
