#include "coll/algorithm.hpp"

#include <span>

namespace remora::coll {
namespace {

constexpr const char* kNames[kAlgorithmCount] = {
    "auto",       "dissemination",     "binomial",           "binary", "flat",
    "sequential", "scatter_allgather", "recursive_doubling", "ring",   "rabenseifner",
    "bruck",      "pairwise",          "application_bypass", "shm"};

using A = Algorithm;
constexpr A kBarrier[] = {A::Dissemination, A::Shm};
constexpr A kBcast[] = {A::Binomial, A::ScatterAllgather, A::Shm};
constexpr A kReduce[] = {A::Binomial, A::ApplicationBypass, A::Shm};
constexpr A kAllreduce[] = {A::RecursiveDoubling, A::Ring, A::Rabenseifner, A::Shm};
constexpr A kRing[] = {A::Ring, A::Shm};
constexpr A kGather[] = {A::Binomial, A::Binary, A::Flat, A::Sequential};
constexpr A kScatter[] = {A::Binomial, A::Binary, A::Flat};
constexpr A kAlltoall[] = {A::Bruck, A::Pairwise, A::Ring, A::Flat};
constexpr A kScan[] = {A::RecursiveDoubling};

// The first one is the default where default_algorithm has no rule.
std::span<const Algorithm> algorithms_of(Operation operation) {
  switch (operation) {
    case Operation::Barrier:
      return kBarrier;
    case Operation::Bcast:
      return kBcast;
    case Operation::Reduce:
      return kReduce;
    case Operation::Allreduce:
      return kAllreduce;
    case Operation::ReduceScatter:
    case Operation::Allgather:
      return kRing;
    case Operation::Gather:
      return kGather;
    case Operation::Scatter:
      return kScatter;
    case Operation::Alltoall:
      return kAlltoall;
    case Operation::Scan:
      return kScan;
  }
  return {};
}

}  // namespace

const char* algorithm_name(Algorithm algorithm) {
  const auto index = static_cast<int>(algorithm);
  return index >= 0 && index < kAlgorithmCount ? kNames[index] : "?";
}

const char* operation_name(Operation operation) {
  constexpr const char* names[] = {"barrier", "bcast",   "reduce",    "allreduce", "reduce_scatter",
                                   "gather",  "scatter", "allgather", "alltoall",  "scan"};
  return names[static_cast<int>(operation)];
}

bool supports(Operation operation, Algorithm algorithm) {
  if (algorithm == Algorithm::Auto) return true;
  for (Algorithm candidate : algorithms_of(operation))
    if (candidate == algorithm) return true;
  return false;
}

std::string supported_names(Operation operation) {
  std::string names = "auto";
  for (Algorithm algorithm : algorithms_of(operation))
    names += std::string(", ") + kNames[static_cast<int>(algorithm)];
  return names;
}

bool parse_algorithm(const std::string& name, Algorithm* algorithm) {
  for (int index = 0; index < kAlgorithmCount; ++index) {
    if (name == kNames[index]) {
      *algorithm = static_cast<Algorithm>(index);
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
      return algorithms_of(operation).front();
  }
}

}  // namespace remora::coll
