// The collective operations and their algorithms: which algorithm serves which operation,
// their names (REMORA_* variables, error messages), and the automatic choice.
#pragma once

#include <cstddef>
#include <string>

namespace remora::coll {

enum class Operation {
  Barrier,
  Bcast,
  Reduce,
  Allreduce,
  ReduceScatter,
  Gather,
  Scatter,
  Allgather,
  Alltoall,
  Scan,
};

// Values equal those of remora_coll_algorithm_t.
enum class Algorithm {
  Auto = 0,
  Dissemination,
  Binomial,
  Binary,
  Flat,
  Sequential,
  ScatterAllgather,
  RecursiveDoubling,
  Ring,
  Rabenseifner,
  Bruck,
  Pairwise,
  ApplicationBypass,
  Shm,  // node-level shared memory (coll/shm_area.hpp)
};
constexpr int kAlgorithmCount = static_cast<int>(Algorithm::Shm) + 1;

const char* algorithm_name(Algorithm algorithm);  // "recursive_doubling"
const char* operation_name(Operation operation);  // "allreduce"
bool supports(Operation operation, Algorithm algorithm);
// "binomial, binary, flat, sequential" (what an error message lists).
std::string supported_names(Operation operation);
// A name from a REMORA_* variable ("auto" included); false when unknown.
bool parse_algorithm(const std::string& name, Algorithm* algorithm);

// The choice for Auto when neither the call nor the environment names an algorithm.
// bytes: the message size per rank the operation moves (count * element size).
Algorithm default_algorithm(Operation operation, size_t bytes, int size);

}  // namespace remora::coll
