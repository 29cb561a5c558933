#include "rma/accumulate/acc_strategy.hpp"

#include "rma/accumulate/native_atomics.hpp"

namespace remora::rma {
namespace {

// Mapped targets: the lock table, updated in place (one CAS and one store per stripe around a
// vectorised loop). Targets on another node: owner computes.
AccPath auto_path(AccTarget target, int, uint64_t) {
  return target.mapped ? AccPath::LockTable : AccPath::Owner;
}

// Mapped targets: CPU atomics per element where native_capable(type, offset), else the lock
// table. Targets on another node: owner computes (the owner then applies CPU atomics).
AccPath native_path(AccTarget target, int type, uint64_t offset) {
  if (!target.mapped) return AccPath::Owner;
  return native_capable(type, offset) ? AccPath::Native : AccPath::LockTable;
}

// The lock table for every target, through the transport's atomics across nodes.
AccPath caller_path(AccTarget, int, uint64_t) {
  return AccPath::LockTable;
}

// Owner computes, except for this rank's own memory (the lock table here).
AccPath owner_path(AccTarget target, int, uint64_t) {
  return target.self ? AccPath::LockTable : AccPath::Owner;
}

constexpr AccStrategyDescriptor kStrategies[] = {
    {AccStrategy::Auto, "auto", auto_path},
    {AccStrategy::Native, "native", native_path},
    {AccStrategy::Caller, "caller", caller_path},
    {AccStrategy::Owner, "owner", owner_path},
};

}  // namespace

std::span<const AccStrategyDescriptor> acc_strategies() {
  return kStrategies;
}

const AccStrategyDescriptor* find_acc_strategy(std::string_view name) {
  for (const AccStrategyDescriptor& descriptor : kStrategies)
    if (name == descriptor.name) return &descriptor;
  return nullptr;
}

const AccStrategyDescriptor& acc_strategy(AccStrategy strategy) {
  return kStrategies[static_cast<uint64_t>(strategy)];
}

std::string acc_strategy_names(std::string_view separator) {
  std::string names;
  for (const AccStrategyDescriptor& descriptor : kStrategies) {
    if (!names.empty()) names += separator;
    names += descriptor.name;
  }
  return names;
}

}  // namespace remora::rma
