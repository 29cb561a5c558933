#include "coll/algorithm.hpp"

#include <array>

namespace remora::coll {

#define REMORA_COLL_ALGORITHM(descriptor) extern const AlgorithmDescriptor descriptor;
#include "coll/algorithms/list.def"
#undef REMORA_COLL_ALGORITHM

namespace {

#define REMORA_COLL_ALGORITHM(descriptor) &descriptor,
constexpr const AlgorithmDescriptor* kAlgorithms[] = {
#include "coll/algorithms/list.def"
};
#undef REMORA_COLL_ALGORITHM

constexpr const char* kOperationNames[kOperationCount] = {
    "barrier", "bcast",   "reduce",    "allreduce", "reduce_scatter",
    "gather",  "scatter", "allgather", "alltoall",  "scan"};

}  // namespace

std::span<const AlgorithmDescriptor* const> algorithms() {
  return kAlgorithms;
}

namespace {

// Indexed by value: every blocking small call looks its algorithm up (supports, choose), and
// a scan of the list cost up to 14 steps each time. A value beyond the table (an algorithm
// added after Hierarchical) is found by the scan.
constexpr int kValues = static_cast<int>(Algorithm::Hierarchical) + 1;
struct ByValue {
  std::array<const AlgorithmDescriptor*, kValues> descriptors{};
  std::array<Operations, kValues> operations{};  // supports() without the descriptor's load
};
const ByValue& by_value() {
  static const ByValue table = [] {
    ByValue built;
    for (const AlgorithmDescriptor* descriptor : kAlgorithms) {
      const auto index = static_cast<size_t>(descriptor->algorithm);
      if (index >= built.descriptors.size()) continue;
      built.descriptors[index] = descriptor;
      built.operations[index] = descriptor->operations;
    }
    return built;
  }();
  return table;
}

}  // namespace

const AlgorithmDescriptor* find_algorithm(int value) {
  if (value >= 0 && value < kValues) return by_value().descriptors[static_cast<size_t>(value)];
  for (const AlgorithmDescriptor* descriptor : kAlgorithms)
    if (static_cast<int>(descriptor->algorithm) == value) return descriptor;
  return nullptr;
}

const char* algorithm_name(Algorithm algorithm) {
  if (algorithm == Algorithm::Auto) return "auto";
  const AlgorithmDescriptor* descriptor = find_algorithm(algorithm);
  return descriptor != nullptr ? descriptor->name : "?";
}

const char* operation_name(Operation operation) {
  const auto index = static_cast<int>(operation);
  return index >= 0 && index < kOperationCount ? kOperationNames[index] : "?";
}

bool parse_operation(const std::string& name, Operation* operation) {
  for (int index = 0; index < kOperationCount; ++index) {
    if (name == kOperationNames[index]) {
      *operation = static_cast<Operation>(index);
      return true;
    }
  }
  return false;
}

bool supports(Operation operation, Algorithm algorithm) {
  if (algorithm == Algorithm::Auto) return true;
  const auto value = static_cast<int>(algorithm);
  if (value >= 0 && value < kValues)
    return contains(by_value().operations[static_cast<size_t>(value)], operation);
  const AlgorithmDescriptor* descriptor = find_algorithm(algorithm);
  return descriptor != nullptr && contains(descriptor->operations, operation);
}

bool has_constraint(Algorithm algorithm, Constraint constraint) {
  const AlgorithmDescriptor* descriptor = find_algorithm(algorithm);
  return descriptor != nullptr && (descriptor->constraints & constraint) != 0;
}

std::string supported_names(Operation operation, const char* separator) {
  std::string names = "auto";
  for (const AlgorithmDescriptor* descriptor : kAlgorithms)
    if (contains(descriptor->operations, operation))
      names += separator + std::string(descriptor->name);
  return names;
}

bool parse_algorithm(const std::string& name, Algorithm* algorithm) {
  if (name == "auto") {
    *algorithm = Algorithm::Auto;
    return true;
  }
  for (const AlgorithmDescriptor* descriptor : kAlgorithms) {
    if (name == descriptor->name) {
      *algorithm = descriptor->algorithm;
      return true;
    }
  }
  return false;
}

Algorithm default_algorithm(Operation operation, size_t bytes, int size) {
  // Measured with bench/coll_algorithms at 2, 4 and 8 ranks on one node, shared-memory
  // transport with single-copy rendezvous (the table and the reasoning: docs/collectives.md,
  // "Measured defaults"). With two ranks every tree is the same single edge.
  constexpr size_t KiB = 1024;
  const bool several = size > 2;
  switch (operation) {
    case Operation::Bcast:
      // Each tree edge is one in-place read of the whole message; scatter-allgather's 2(P-1)
      // smaller messages each cost a wake-up, and never won.
      return Algorithm::Binomial;
    case Operation::Allreduce:
      return several && bytes >= 64 * KiB && static_cast<size_t>(size) <= bytes
                 ? Algorithm::Rabenseifner
                 : Algorithm::RecursiveDoubling;
    case Operation::Gather:
      // Tree gathers copy every block once per level; large blocks go straight to the root.
      if (size >= 8 && bytes >= 512 * KiB) return Algorithm::Sequential;
      return several && bytes >= 32 * KiB ? Algorithm::Flat : Algorithm::Binomial;
    case Operation::Scatter:
      return several && bytes >= 32 * KiB ? Algorithm::Flat : Algorithm::Binomial;
    case Operation::Alltoall:
      // Bruck's records copy the data log2(P) times and were never reliably faster here.
      return several && bytes >= 128 * KiB ? Algorithm::Ring : Algorithm::Pairwise;
    default:
      // The first algorithm of the list that serves the operation on any communicator.
      for (const AlgorithmDescriptor* descriptor : kAlgorithms)
        if (contains(descriptor->operations, operation) &&
            (descriptor->constraints & kNeedsSharedArea) == 0)
          return descriptor->algorithm;
      return Algorithm::Auto;  // no such operation: a unit test keeps this unreachable
  }
}

}  // namespace remora::coll
