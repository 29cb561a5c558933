// Helpers the algorithms share: relative ranks, byte addressing, blocks and the two ring
// phases (reduce-scatter and allgather) that ring allreduce, reduce_scatter, allgather and the
// scatter-allgather broadcast are made of.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "coll/algorithms/algorithms.hpp"
#include "remora/types.h"

namespace remora::coll {

inline int relative_rank(int rank, int root, int size) {
  return (rank - root + size) % size;
}
inline int absolute_rank(int relative, int root, int size) {
  return (relative + root) % size;
}
inline int modulo(int value, int size) {
  return ((value % size) + size) % size;
}
inline uint8_t* bytes_at(void* base, size_t offset) {
  return static_cast<uint8_t*>(base) + offset;
}
inline const uint8_t* bytes_at(const void* base, size_t offset) {
  return static_cast<const uint8_t*>(base) + offset;
}
// The caller's input: the send buffer, or the receive buffer when in place.
inline const void* input_of(const CollectiveArgs& args) {
  return args.in_place ? args.recv : args.send;
}
inline bool is_floating(int type) {
  return type >= REMORA_FLOAT;
}

// Blocks of a buffer, in bytes.
struct Blocks {
  std::vector<size_t> offset, bytes;
  size_t size() const { return offset.size(); }
  size_t end(size_t block) const { return offset[block] + bytes[block]; }
};
// count elements split into parts nearly equal blocks.
Blocks even_blocks(size_t count, size_t extent, size_t parts);
// Blocks given by per-block counts and displacements in elements.
Blocks blocks_of(const std::vector<size_t>& counts, const std::vector<size_t>& displs,
                 size_t extent);

// Ring reduce-scatter over all ranks on acc (blocks.size() == ranks): after size-1 steps rank r
// holds block (r + 1 + shift) mod size reduced over every rank. tmp is as large as acc.
// Returns, per step, the send and the reduce it issued.
struct RingSteps {
  std::vector<Schedule::StepId> sends, reduces;
};
RingSteps ring_reduce_scatter(Schedule& schedule, uint8_t* acc, uint8_t* tmp, const Blocks& blocks,
                              int shift, const CollectiveArgs& args, Schedule::StepId after);

// Ring allgather: rank at ring position `position` (of size) holds block `position` of buf;
// after size-1 steps every block is everywhere. Peers are given, so the ring may run over
// relative ranks. recv_after[s] (when given) must be done before step s's receive lands.
// Returns the last steps.
Schedule::Deps ring_allgather(Schedule& schedule, uint8_t* buf, const Blocks& blocks, int position,
                              int left, int right, uint32_t first_tag, const Schedule::Deps& after,
                              const std::vector<Schedule::Deps>& recv_after = {});

}  // namespace remora::coll
