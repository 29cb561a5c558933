// The accumulate strategies of a window (docs/rma.md, "Accumulate strategies"): one descriptor
// each, in one list, from which the names (info key acc_strategy, REMORA_ACC_STRATEGY), the
// error messages and the path rule come. Adding a strategy is a value in win.h's
// remora_acc_strategy_t, a path function and one line of the list in acc_strategy.cpp (and the
// choice in core/config_vars.def, which a unit test compares with this list).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "remora/win.h"

namespace remora::rma {

enum class AccStrategy : uint64_t {
  Auto = REMORA_ACC_AUTO,
  Native = REMORA_ACC_NATIVE,
  Caller = REMORA_ACC_CALLER,
  Owner = REMORA_ACC_OWNER
};

// The path an accumulate-family operation takes.
enum class AccPath {
  Native,     // CPU atomics on the mapped target memory
  LockTable,  // lock the target's stripes, then update (in place where mapped; caller computes)
  Owner,      // an active message to the owner, which applies it (owner computes)
  Transport,  // the transport's accumulates (MPI's, on a window across nodes: Window::acc_path)
};

struct AccTarget {
  bool mapped;  // the target's memory is mapped here (same node): CPU atomics can reach it
  bool self;    // the target is this rank
};

struct AccStrategyDescriptor {
  AccStrategy strategy;
  const char* name;
  // The path for an element (type, offset) of a target, for windows Remora allocates. It must
  // depend on nothing else (not on the count): every rank then updates a location the same way.
  AccPath (*path)(AccTarget target, int type, uint64_t offset);
};

// Every strategy, in the order of remora_acc_strategy_t.
std::span<const AccStrategyDescriptor> acc_strategies();
// The descriptor named name, or nullptr.
const AccStrategyDescriptor* find_acc_strategy(std::string_view name);
const AccStrategyDescriptor& acc_strategy(AccStrategy strategy);
// "auto, native, caller, owner" (separator ", ") or "auto|native|caller|owner".
std::string acc_strategy_names(std::string_view separator);

}  // namespace remora::rma
