// The single-copy bcast and allreduce of the shm algorithm, shared by its schedule
// (coll/algorithms/ shm.cpp) and its fast path (coll/shm_fast.cpp), which lay out the same three
// rounds:
//   round 0: every member publishes the addresses of its input and its result buffer inline
//            (ShmArea::kInlineBytes) and waits for all; then reduces slice r of the vector (r
//            its rank; even_blocks' split) in rank order, reading the other members' slices of
//            their inputs with process_vm_readv, one cell-sized piece at a time;
//   round 1: waits for all (every slice is reduced), then copies the other slices of the result
//            from their owners' result buffers;
//   round 2: waits for all (nobody reads its buffers any more).
// bcast, two rounds:
//   round 0: every member publishes the address of its buffer inline and waits for all; then
//            the root writes the first 1/P of the message into every other member's buffer
//            (process_vm_writev) while each of them reads the rest from the root's buffer
//            (process_vm_readv): at P = 2 both copy half at once;
//   round 1: waits for all (every copy is done).
// Both run from ShmArea::single_copy_bytes on (when the members may read each other's memory).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "coll/algorithms/common.hpp"
#include "coll/shm_area.hpp"

namespace remora::coll::shm_single_copy {

constexpr size_t kAllreduceRounds = 3, kBcastRounds = 2;

// Whether a bcast of args runs single-copy on area (alike on every member).
bool bcast(const ShmArea& area, const CollectiveArgs& args);
// bcast round 0's work, after all arrived (buffer: round 0's): the root's writes or this
// member's read.
int bcast_copy(const ShmArea& area, const CollectiveArgs& args, int buffer);

// Whether an allreduce of args runs single-copy on area (alike on every member).
bool allreduce(const ShmArea& area, const CollectiveArgs& args);
// Round 0's inline data: the two addresses (bcast: input is the buffer, result unused).
void publish(uint8_t* slot, const void* input, void* result);
// Round 0's work, after all arrived (buffer: round 0's). scratch: a cell-sized piece.
int reduce_slice(const ShmArea& area, const CollectiveArgs& args, int buffer,
                 std::vector<uint8_t>* scratch);
// Round 1's work (buffer: round 0's, where the addresses are).
int gather_slices(const ShmArea& area, const CollectiveArgs& args, int buffer);

}  // namespace remora::coll::shm_single_copy
