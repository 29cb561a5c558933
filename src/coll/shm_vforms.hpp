// The rounds of the shm v-forms whose members do not know each other's blocks (gatherv,
// scatterv, alltoallv), shared by the schedule (coll/algorithms/shm.cpp) and the fast path
// (coll/shm_fast.cpp), which must lay out the same rounds.
//
// No member agrees with the others on a number of rounds: each takes the rounds its own blocks
// need, laid out so that the two members of every pair place and find their data alike from
// what both know (the block between them):
//   gatherv:   rank r publishes bytes [k * cell, (k + 1) * cell) of its block in round k, in the
//              call's inline slot of its ring when the block fits there (ShmArea::kInlineBytes),
//              else its cell;
//              the root takes as many rounds as the largest block needs and copies rank r's
//              data from the rounds r has;
//   scatterv:  the root publishes elements [k * piece, (k + 1) * piece) of block r at piece
//              ShmArea::alltoall_index(r, root) of its cell in round k (piece =
//              ShmArea::alltoall_piece: cell / ((p - 1) * extent), no piece for the root, as
//              scatter's); a block of at
//              most kInlineBytes / p bytes goes whole into the call's inline slot, at offset
//              r * (kInlineBytes / p / extent) elements; rank r reads the rounds its block has;
//   alltoallv: rank s publishes elements [k * piece, (k + 1) * piece) of its block for d at
//              piece ShmArea::alltoall_index(d, s) of its cell in round k (as alltoall's); rank d
//              reads it there from each s whose block for d has that round. Each member takes as
//              many rounds as its largest block (sent or received) needs. A block of at least
//              ShmArea::single_copy_bytes(Alltoall) takes no cell round: s writes the block's
//              address (in its input) into the first 8 bytes of the block's piece of round 0's
//              cell, d reads it after round 0's arrivals and copies the block with
//              process_vm_readv; a member that sends such a block waits in its last round (at
//              least round 1) for every member's arrival there or past: nobody reads its input
//              any more.
// In gatherv and scatterv a block of at least ShmArea::single_copy_bytes (when the members may
// read each other's memory) skips the cells: its rank publishes the address of its buffer in the
// call's inline slot in round 0, the root reads the block from there (gatherv, process_vm_readv) or
// writes it there (scatterv, process_vm_writev) after round 0's arrivals, and the rank waits in
// round 1 for the root's arrival there (or its past): the root is done with its buffer. A member's
// own block is a local copy. After its last round (at once when it has none) a member stores
// ShmArea::kPastRound into its arrive flag: members that wait for every member in later rounds (the
// gatherv root, alltoallv) then do not wait for it, and members that wait to reuse a cell see it
// has read everything.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "coll/algorithm.hpp"

namespace remora::coll {

struct CollectiveArgs;
class ShmArea;

class ShmVectorPlan {
 public:
  // Whether operation with args takes these rounds (the v-forms of gather, scatter, alltoall).
  static bool serves(Operation operation, const CollectiveArgs& args);
  // Elements per block and round of scatterv and alltoallv (ShmArea::alltoall_piece; at least
  // one, so that a p beyond kCellBytes / extent, unseen on one node, still moves).
  static size_t piece_of(int size, size_t extent);
  // alltoallv: blocks between two members of at least this many bytes go single-copy (0: none):
  // single_copy_bytes (the area's alltoall threshold) where a piece holds the block's 8-byte
  // address. The plan and ShmFast::small_serves (which must not take such a call) both ask here.
  static size_t alltoallv_direct_bytes(int size, size_t extent, size_t single_copy_bytes);
  // Whether a block of count elements goes single-copy from direct_bytes (0: none).
  static bool direct_block(size_t count, size_t extent, size_t direct_bytes) {
    return direct_bytes != 0 && count != 0 && count * extent >= direct_bytes;
  }
  // args must outlive the plan. Makes the in-place alltoallv's copy of its input. sequence:
  // the collective's (its inline slot: ShmArea::slot_of).
  ShmVectorPlan(const ShmArea& area, Operation operation, const CollectiveArgs& args,
                uint64_t sequence);
  ShmVectorPlan(const ShmVectorPlan&) = delete;
  ShmVectorPlan& operator=(const ShmVectorPlan&) = delete;

  size_t rounds() const { return rounds_; }  // this member's
  // The single-copy bytes the root moves, as far as this member knows (a member: its own
  // block for each other member; 0: none), which a wait for the root may spin through;
  // alltoallv: the larger of the direct bytes this member sends and receives.
  size_t direct_total() const { return direct_total_; }
  // Copies this member's own block (before the rounds: the in-place alltoallv reads its copy).
  void copy_own() const;
  // What round k writes (ShmArea::kCellData, ShmArea::kSlotData; 0: nothing).
  unsigned writes(size_t k) const;
  // Whether every member round k waits for publishes the round's id in its inline slot (round 0
  // of gatherv and scatterv, when the blocks awaited are inline or single-copy): arrivals are
  // then looked for in the slot first. Not when one of them publishes in its cell only (or
  // nothing, or only its past mark): the fast path's spin looks at arrive on few of its checks
  // while it looks for a slot (ShmArea::arrived's slot_only), so a member found only by its
  // arrive would be seen late, and a waiter that slept could sleep again after each wake-up.
  bool small(size_t k) const { return k == 0 && slot_arrivals_; }
  // Whose arrival round k waits for: a rank, ShmArea::kAllRanks or ShmArea::kNoRank.
  int wait_for(size_t k) const;
  // Writes round k's data into this member's cell `buffer` (the round's) and inline slot.
  void publish(size_t k, int buffer) const;
  // Reads round k's data from the members' cells and slots (after wait_for arrived).
  void consume(size_t k, int buffer) const;
  // The single-copy reads or writes of round k (round 0: the root's; alltoallv: every
  // receiver's); a failure as ShmArea::read_from returns it.
  int transfer(size_t k) const;

 private:
  // The block of rank r this member sends to or receives from it (elements).
  size_t block_of(int rank) const;
  // How many rounds a block of count elements takes.
  size_t rounds_of(size_t count) const;
  bool inline_block(size_t count) const;
  // The block goes single-copy (gatherv, scatterv: the root copies; alltoallv: the receiver).
  bool direct(size_t count) const;
  // alltoallv, round 0: reads the direct blocks sent to this member.
  int read_direct() const;
  // Whether the block of count elements between this member and another is published in round 0
  // with the round's id in the publisher's inline slot (inline data, or a single-copy address).
  bool slot_carries(size_t count) const;

  const ShmArea& area_;
  Operation operation_;
  const CollectiveArgs& args_;
  int me_, size_;
  int slot_;   // the call's inline slot
  int cell0_;  // round 0's cell (alltoallv: where the direct blocks' addresses are)
  size_t extent_;
  size_t piece_ = 0;            // scatterv, alltoallv: elements per block and round
  size_t inline_count_ = 0;     // scatterv: elements per rank in the inline slot
  size_t direct_bytes_ = 0;     // single-copy blocks from this size (0: none)
  bool direct_sends_ = false;   // alltoallv: this member sends a single-copy block
  size_t direct_total_ = 0;     // direct_total()
  bool root_waits_ = false;     // scatterv: the root waits for round 0's addresses
  bool slot_arrivals_ = false;  // small(0)
  size_t rounds_ = 0;
  size_t reads_ = 0;  // alltoallv: rounds with data for this member (the others only publish)
  const uint8_t* input_ = nullptr;  // alltoallv: the blocks sent (in place: input_copy_)
  const std::vector<size_t>* input_displs_ = nullptr;
  std::vector<uint8_t> input_copy_;
};

}  // namespace remora::coll
