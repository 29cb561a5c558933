#include "coll/algorithm.hpp"

#include <span>

namespace remora::coll {
namespace {

constexpr const char* kNames[kAlgorithmCount] = {
    "auto",       "dissemination",     "binomial",           "binary", "flat",
    "sequential", "scatter_allgather", "recursive_doubling", "ring",   "rabenseifner",
    "bruck",      "pairwise",          "application_bypass"};

using A = Algorithm;
constexpr A kBarrier[] = {A::Dissemination};
constexpr A kBcast[] = {A::Binomial, A::ScatterAllgather};
constexpr A kReduce[] = {A::Binomial, A::ApplicationBypass};
constexpr A kAllreduce[] = {A::RecursiveDoubling, A::Ring, A::Rabenseifner};
constexpr A kRing[] = {A::Ring};
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
  // Latency-bound (small messages, few ranks): trees and recursive doubling; bandwidth-bound:
  // the algorithms that split the data so every rank sends about bytes * (size - 1) / size.
  constexpr size_t kLarge = 64 * 1024;
  const bool large = bytes >= kLarge && static_cast<size_t>(size) <= bytes;
  switch (operation) {
    case Operation::Bcast:
      return large && size > 2 ? Algorithm::ScatterAllgather : Algorithm::Binomial;
    case Operation::Allreduce:
      return large && size > 2 ? Algorithm::Rabenseifner : Algorithm::RecursiveDoubling;
    case Operation::Gather:
    case Operation::Scatter:
      return Algorithm::Binomial;
    case Operation::Alltoall:
      return bytes <= 256 && size >= 8 ? Algorithm::Bruck : Algorithm::Pairwise;
    default:
      return algorithms_of(operation).front();
  }
}

}  // namespace remora::coll
