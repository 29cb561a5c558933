// Which path an accumulate-family operation takes (docs/rma.md, "Accumulate strategies" and
// "Across nodes"). The rule depends only on the window's strategy (agreed by every rank at
// creation), on whether the target's memory is mapped by this process, on whether the target
// is this rank, and on the element (type, offset). Every process that maps a location
// therefore updates it the same way, and a process that does not map it ships the update to
// the owner, which applies it with this same rule as its own (mapped) target: every path to
// one location is atomic with every other. Each strategy's rule is its descriptor's path
// function (acc_strategy.cpp). A window whose accumulates may cross nodes over MPI (`auto`,
// Window::acc_path) takes the transport's accumulates (AccPath::Transport) for every target
// instead, before this rule: MPI's accumulates are atomic only with each other.
#pragma once

#include <cstdint>

#include "rma/accumulate/acc_strategy.hpp"

namespace remora::rma {

// For windows allocated by Remora (windows over user memory have their own rule,
// UserMemory and Window::acc_path).
inline AccPath choose_acc_path(AccStrategy strategy, AccTarget target, int type, uint64_t offset) {
  return acc_strategy(strategy).path(target, type, offset);
}

}  // namespace remora::rma
