// The algorithms' descriptors (declared from list.def) and the operation kernels they call:
// each compiles one collective into steps of a schedule. Arguments are valid (the C API
// checked them) and the algorithm is one the operation supports, not Auto.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "coll/algorithm.hpp"
#include "coll/schedule.hpp"
#include "coll/shm_area.hpp"
#include "coll/shm_fast.hpp"
#include "coll/tree.hpp"

namespace remora::coll {

struct CollectiveArgs {
  const void* send = nullptr;  // nullptr when in_place
  void* recv = nullptr;
  bool in_place = false;
  size_t count = 0;  // elements; per rank for the block operations
  int type = 0;
  size_t extent = 0;  // bytes per element
  int op = 0;
  int root = 0;
  bool exclusive = false;    // scan: exscan
  bool vector_form = false;  // gatherv, scatterv, alltoallv, ...: counts may differ by rank
  // Per-rank counts and displacements in elements. The regular forms fill them uniformly, so
  // that each algorithm is written once for the v-form. Unused ones stay empty.
  std::vector<size_t> send_counts, send_displs, recv_counts, recv_displs;
};

#define REMORA_COLL_ALGORITHM(descriptor) extern const AlgorithmDescriptor descriptor;
#include "coll/algorithms/list.def"
#undef REMORA_COLL_ALGORITHM

void build_barrier(Schedule& schedule);
void build_bcast(Schedule& schedule, const CollectiveArgs& args, Algorithm algorithm);
// shape: the tree's (the application-bypass reduce's root may run it over a flat tree).
void build_reduce(Schedule& schedule, const CollectiveArgs& args,
                  TreeShape shape = TreeShape::Binomial);
void build_allreduce(Schedule& schedule, const CollectiveArgs& args, Algorithm algorithm);
// Block r of the result (recv_counts[r] elements) goes to rank r's recv.
void build_reduce_scatter(Schedule& schedule, const CollectiveArgs& args);
void build_gather(Schedule& schedule, const CollectiveArgs& args, Algorithm algorithm);
void build_scatter(Schedule& schedule, const CollectiveArgs& args, Algorithm algorithm);
void build_allgather(Schedule& schedule, const CollectiveArgs& args);
void build_alltoall(Schedule& schedule, const CollectiveArgs& args, Algorithm algorithm);
// exclusive: exscan (rank 0's recv is left untouched).
void build_scan(Schedule& schedule, const CollectiveArgs& args, bool exclusive);
// The shm algorithm (algorithms/shm.cpp) of an operation it supports, over comm's area.
void build_shm_rounds(Schedule& schedule, const std::shared_ptr<ShmArea>& area, Operation operation,
                      const CollectiveArgs& args);
// What the rounds of small_shm_rounds read, held by whoever outlives their use of it: a
// nonblocking call's request (coll/shm_request.hpp, which cancels its rounds before it goes) or
// the rounds' kept record (build_shm_rounds).
struct ShmSmallCall {
  const ShmArea* area = nullptr;
  const uint8_t* send = nullptr;  // nullptr: in place (the input is recv)
  uint8_t* recv = nullptr;
  size_t block = 0;   // bytes of each rank's block (bcast, reduce, allreduce: of the vector)
  size_t stride = 0;  // alltoall: bytes between the pieces in a cell
  int root = 0;       // bcast, reduce, gather
  size_t count = 0;   // reduce, allreduce: elements
  int op = 0, type = 0;
};
// The shm algorithm's one round of a small call, written without a copy of the arguments and
// with functions that capture only call: a barrier; a bcast, reduce or allreduce of at most
// ShmArea::kInlineBytes (the inline slots); a gather of regular blocks of at most one cell (in the
// inline slots up to ShmArea::kInlineBytes) and an alltoall of regular blocks that take one
// round (the cells, laid out as ShmArea::alltoall_piece says, as the alltoall's general rounds
// lay out their first round). small_shm_fits says which calls these are; small_shm_rounds (for one
// of them) fills *call and adds the round to *rounds. Both read the call's arguments as the
// application gave them (a nonblocking call of the C API's small entry), or as
// shm_small_args gives them of a call's CollectiveArgs.
bool small_shm_fits(const ShmArea& area, Operation operation, const ShmFast::Small& args);
void small_shm_rounds(const ShmArea& area, Operation operation, const ShmFast::Small& args,
                      ShmSmallCall* call, std::vector<ShmRounds::Round>* rounds);
// The two parts of small_shm_rounds: fills *call; the round's shape (the operation, whether
// this member is the root, inline or in the cells), equal for calls whose rounds are equal
// given their *call, so that a round list built for one serves the next (a recycled request's).
void small_shm_call(const ShmArea& area, Operation operation, const ShmFast::Small& args,
                    ShmSmallCall* call);
uint64_t small_shm_shape(const ShmArea& area, Operation operation, const ShmFast::Small& args);
// The regular form's arguments of args (alltoall: the block of recv_counts[0] elements as count).
ShmFast::Small shm_small_args(Operation operation, const CollectiveArgs& args);

}  // namespace remora::coll
