// The single-copy transfers of the shm algorithm, shared by its schedule
// (coll/algorithms/shm.cpp) and its fast path (coll/shm_fast.cpp), which lay out the same
// rounds. Two rounds. Round 0: every member publishes the addresses of its input and its
// result buffer inline (ShmArea::kInlineBytes) and waits for all; then it moves data between its
// own buffers and the other members' with process_vm_readv / process_vm_writev (no cells).
// Round 1 waits for all: nobody reads or writes another member's buffers any more.
//   bcast: the root writes the first 1/P of the message into every other member's buffer
//            while each of them reads the rest from the root's: at P = 2 both copy half;
//   allreduce: member r reduces slice r of the vector (even_blocks' split) in rank order,
//            reading the other members' slices of their inputs one cell-sized piece at a
//            time, and writes each reduced piece into every other member's result;
//   reduce: the same, but a member other than the root writes each reduced piece of its slice
//            into the root's result only (every member reduces 1/P);
//   gather: every member but the root writes its block into the root's result;
//   scatter: every member but the root reads its block from the root's input;
//   allgather: every member reads every other member's block from its input;
//   alltoall: every member reads its block from every other member's input (in place: a copy
//            of the input, as the result overwrites it).
// Rooted (gather and scatter where every member is oversubscribed, ShmArea::rooted_single_copy):
// round 0: only the root publishes (its input and result) and waits for nobody; the others wait
// for the root and copy their block; round 1: the root waits for all, the others for nobody.
// So each member waits once per call, where each wait may cost a context switch.
// A member's own block is a local copy. Waits spin through the others' copy (spin_ns) where
// the node is not oversubscribed. They run when decisive_bytes() reaches
// ShmArea::single_copy_bytes (agreed when the area was made; 0: never): the same decision on
// every member.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "coll/algorithms/common.hpp"
#include "coll/shm_area.hpp"

namespace remora::coll::shm_single_copy {

// The bytes that decide whether an operation is single-copy: the message (bcast, reductions)
// or one block (the others; allgather: the largest).
size_t decisive_bytes(Operation operation, const CollectiveArgs& args);
// How many rounds operation takes single-copy on area (0: it does not), alike on every member.
size_t rounds(const ShmArea& area, Operation operation, const CollectiveArgs& args);
// How long a member's wait in a single-copy call may spin before it yields or sleeps: about as
// long as the busiest member's copy of the call takes at kSpinBytesPerUs (a wake-up after a
// sleep comes later than the copy's end; ShmCall::wait). spin_ns_for: for a copy of `bytes`.
constexpr uint64_t kSpinBytesPerUs = 1024, kMaxSpinNs = 2000000;
uint64_t spin_ns(const ShmArea& area, Operation operation, const CollectiveArgs& args);
uint64_t spin_ns_for(size_t bytes);
// rounds() of a regular form whose decisive_bytes are `bytes`, on an area whose
// single_copy_bytes(operation) is threshold (every operation takes the same rounds).
size_t rounds_of(size_t bytes, size_t threshold);
// Whether this member publishes its addresses in round k, and whose arrival it waits for
// (ShmArea::kAllRanks, kNoRank or a rank) then; root: the call's (-1: none).
bool publishes(const ShmArea& area, Operation operation, int root, size_t k);
int wait_for(const ShmArea& area, Operation operation, int root, size_t k);
// The input member `rank` publishes; alltoall in place: a copy of recvbuf, made in *copy.
const void* source(Operation operation, const CollectiveArgs& args, int rank,
                   std::vector<uint8_t>* copy);
// Round 0's inline data: the two addresses.
void publish(uint8_t* slot, const void* input, void* result);
// The work of round 0 after all arrived; slot: the call's inline slot (ShmArea::slot_of), where
// round 0 left the addresses. scratch: a few cell-sized pieces.
int transfer(const ShmArea& area, Operation operation, const CollectiveArgs& args, int slot,
             std::vector<uint8_t>* scratch);

}  // namespace remora::coll::shm_single_copy
