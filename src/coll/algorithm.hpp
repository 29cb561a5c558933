// The collective operations and their algorithms. Every algorithm is one descriptor (its name,
// the operations it serves, its constraints and its builder), defined beside its code in
// src/coll/algorithms/ and registered by one line of algorithms/list.def. From that one list
// come the check of a caller's remora_coll_algorithm_t, the names (REMORA_* variables, error
// messages, remora_coll_algorithms), the per-operation lists and the fallback defaults.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>

#include "remora/coll.h"

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
constexpr int kOperationCount = static_cast<int>(Operation::Scan) + 1;

// Values equal those of remora_coll_algorithm_t.
enum class Algorithm {
  Auto = REMORA_COLL_AUTO,
  Dissemination = REMORA_COLL_DISSEMINATION,
  Binomial = REMORA_COLL_BINOMIAL,
  Binary = REMORA_COLL_BINARY,
  Flat = REMORA_COLL_FLAT,
  Sequential = REMORA_COLL_SEQUENTIAL,
  ScatterAllgather = REMORA_COLL_SCATTER_ALLGATHER,
  RecursiveDoubling = REMORA_COLL_RECURSIVE_DOUBLING,
  Ring = REMORA_COLL_RING,
  Rabenseifner = REMORA_COLL_RABENSEIFNER,
  Bruck = REMORA_COLL_BRUCK,
  Pairwise = REMORA_COLL_PAIRWISE,
  ApplicationBypass = REMORA_COLL_APPLICATION_BYPASS,
  Shm = REMORA_COLL_SHM,  // node-level shared memory (coll/shm_area.hpp)
  Hierarchical =
      REMORA_COLL_HIERARCHICAL,  // node phase, then leaders (algorithms/hierarchical.cpp)
};

// A set of operations: bit (1 << Operation).
using Operations = uint32_t;
constexpr Operations operations_of(std::initializer_list<Operation> list) {
  Operations set = 0;
  for (Operation operation : list) set |= Operations{1} << static_cast<int>(operation);
  return set;
}
constexpr bool contains(Operations set, Operation operation) {
  return (set >> static_cast<int>(operation) & 1) != 0;
}

// What an algorithm needs or does differently from the others.
enum Constraint : uint32_t {
  kNoConstraint = 0,
  // Runs only through the communicator's shared-memory area (all its ranks on one node); a
  // call that picks it on a communicator without one runs the operation's message-based
  // default instead.
  kNeedsSharedArea = 1U << 0,
  // Runs over ranks, ignoring the communicator's rank order (remora_comm_set_order).
  kIgnoresRankOrder = 1U << 1,
  // Serves gather in its regular form only (its v-form's members do not know each other's
  // blocks); gatherv runs the operation's default instead.
  kRegularBlocksOnly = 1U << 2,
  // Runs only on a communicator that spans more than one node with more than one rank on some
  // node (elsewhere a call that picks it runs the operation's default).
  kNeedsSeveralNodes = 1U << 3,
};

class Schedule;
class BypassReduce;
class Collectives;
struct CollectiveArgs;

// What a builder gets beside the schedule and the arguments.
struct BuildEnv {
  BypassReduce* bypass = nullptr;      // the rank's application-bypass engine
  Collectives* collectives = nullptr;  // the rank's collectives layer (sub-collectives)
};

struct AlgorithmDescriptor {
  Algorithm algorithm;
  const char* name;  // "recursive_doubling": REMORA_* values, messages
  Operations operations;
  uint32_t constraints;  // Constraint bits
  // Compiles operation (one of operations) with args into schedule. args are valid (the C API
  // checked them); for an operation with a rank order, already permuted to positions.
  void (*build)(Schedule& schedule, Operation operation, const CollectiveArgs& args,
                const BuildEnv& env);
};

// Every algorithm, in the order of list.def (Auto is not one).
std::span<const AlgorithmDescriptor* const> algorithms();
// The descriptor of algorithm; nullptr for Auto and for values that are no algorithm.
const AlgorithmDescriptor* find_algorithm(int value);
inline const AlgorithmDescriptor* find_algorithm(Algorithm algorithm) {
  return find_algorithm(static_cast<int>(algorithm));
}

const char* algorithm_name(Algorithm algorithm);  // "recursive_doubling"; "auto"; "?"
const char* operation_name(Operation operation);  // "allreduce"
// The operation named name ("reduce_scatter"); false when unknown.
bool parse_operation(const std::string& name, Operation* operation);
bool supports(Operation operation, Algorithm algorithm);  // Auto serves every operation
bool has_constraint(Algorithm algorithm, Constraint constraint);
// "auto, binomial, binary, flat, sequential" (what an error message lists); separator "|"
// gives the REMORA_<OPERATION> choices of config_vars.def.
std::string supported_names(Operation operation, const char* separator = ", ");
// A name from a REMORA_* variable ("auto" included); false when unknown.
bool parse_algorithm(const std::string& name, Algorithm* algorithm);

// The choice for Auto when neither the call nor the environment names an algorithm.
// bytes: the message size per rank the operation moves (count * element size).
Algorithm default_algorithm(Operation operation, size_t bytes, int size);

}  // namespace remora::coll
