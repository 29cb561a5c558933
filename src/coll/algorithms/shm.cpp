// The shm algorithms: rounds of the shared area's engine (coll/shm_area.hpp). Every rank of a
// node reads the others' cells directly, so each operation is flat:
//   barrier:        one round without data, every rank waits for every other;
//   bcast:          the root publishes the message cell by cell; the others copy each cell out
//                   (two cells: the root fills the next one while the others read);
//   allreduce:      up to kFlatBytes one round: everyone publishes its vector and reduces all
//                   of them in rank order. Larger: per cell-sized chunk, everyone publishes its
//                   chunk, reduces slice r of the chunk over all ranks (reduce-scatter), then
//                   publishes that slice and copies everyone's slices (allgather);
//   reduce:         the same, but only the root reads the result (and up to kFlatBytes only the
//                   root reduces: the others publish and leave);
//   reduce_scatter: per round each rank publishes a piece of every block; rank r reduces its
//                   block's pieces (blocks that fit an inline slot together: one round there);
//   allgather:      per round each rank publishes a piece of its block; everyone copies all;
//   gather:         per round each rank but the root publishes a cell of its block; the root
//                   copies all;
//   scatter:        per round the root publishes a piece of every other rank's block (no piece
//                   for its own, ShmArea::alltoall_piece); rank r copies its own;
//   alltoall:       per round each rank publishes a piece of every block it sends to another
//                   rank; rank r copies the pieces for r from every other cell and its own
//                   block from its input (ShmArea::alltoall_piece).
// bcast, reduce, allreduce, allgather, gather, scatter and alltoall from the single-copy size on
// (when the members may read each other's memory) skip the cells: every member publishes its
// buffers' addresses and reads (or writes) the others' buffers directly
// (coll/shm_single_copy.hpp, process_vm_readv/writev).
// bcast and gather of blocks up to ShmArea::kInlineBytes, and scatter whose p blocks fit in it
// together, keep their one round's data in an inline slot of the ring, as the small reductions
// do, and so does reduce_scatter whose p blocks fit it together (alltoall keeps the cells:
// through the slots it measured slower at p = 2 with two slots per member).
// The v-forms of gather, scatter and alltoall, whose members do not know each other's block
// sizes, take rounds of their own (coll/shm_vforms.hpp): each member as many as its blocks
// need, shared with the fast path.
// Every element is reduced in rank order by one rank, so floating-point results are the same
// on every rank and reproducible.
#include <algorithm>
#include <cstring>
#include <memory>

#include "coll/algorithms/common.hpp"
#include "coll/shm_area.hpp"
#include "coll/shm_single_copy.hpp"
#include "coll/shm_vforms.hpp"
#include "rma/reduce_op.hpp"

namespace remora::coll {
namespace {

using Round = ShmRounds::Round;
constexpr size_t kFlatBytes = ShmArea::kFlatBytes;

// What the rounds' functions capture, by value: plain pointers, no reference counts to move.
// The rounds (ShmRounds) hold the area and keep the arguments' copy alive.
struct Context {
  ShmArea* area = nullptr;
  const CollectiveArgs* args = nullptr;
  int me = 0, size = 1;
  uint64_t sequence = 0;  // the schedule's
  const uint8_t* input() const { return static_cast<const uint8_t*>(input_of(*args)); }
  uint8_t* recv() const { return static_cast<uint8_t*>(args->recv); }
  // target = cell(0) op cell(1) op ... at byte offset, count elements (in rank order); small:
  // the inline slots.
  void reduce_cells(uint8_t* target, int buffer, size_t offset, size_t count,
                    bool small = false) const {
    const size_t bytes = count * args->extent;
    if (bytes == 0) return;
    std::memcpy(target, area->cell(0, buffer, small) + offset, bytes);
    for (int rank = 1; rank < size; ++rank)
      rma::apply_op(args->op, args->type, target, area->cell(rank, buffer, small) + offset, count);
  }
};

size_t chunks_of(size_t bytes, size_t chunk) {
  return (bytes + chunk - 1) / chunk;
}

void barrier_rounds(const Context&, std::vector<Round>* rounds) {
  rounds->push_back(Round{});
}

// Single-copy: the rounds of coll/shm_single_copy.hpp (round 0 publishes the addresses; every
// round but the last transfers). Returns false, adding none, when the operation is not.
bool single_copy_rounds(const Context& c, Operation operation, std::vector<Round>* rounds) {
  const size_t count = shm_single_copy::rounds(*c.area, operation, *c.args);
  if (count == 0) return false;
  const auto copy = std::make_shared<std::vector<uint8_t>>();
  const void* input = shm_single_copy::source(operation, *c.args, c.me, copy.get());
  const auto scratch = std::make_shared<std::vector<uint8_t>>();
  const int root = c.args->root;  // read by the rooted rounds only (gather, scatter)
  for (size_t k = 0; k < count; ++k) {
    Round round;
    round.small = k == 0;
    round.wait_for = shm_single_copy::wait_for(*c.area, operation, root, k);
    if (shm_single_copy::publishes(*c.area, operation, root, k))
      round.publish = [c, input, copy](uint8_t* slot) {
        shm_single_copy::publish(slot, input, c.recv());
      };
    if (k + 1 < count)
      round.transfer = [c, operation, scratch](int slot) {
        return shm_single_copy::transfer(*c.area, operation, *c.args, slot, scratch.get());
      };
    rounds->push_back(std::move(round));
  }
  return true;
}

void bcast_rounds(const Context& c, std::vector<Round>* rounds) {
  const size_t bytes = c.args->count * c.args->extent;
  const int root = c.args->root;
  for (size_t chunk = 0; chunk < chunks_of(bytes, ShmArea::kCellBytes); ++chunk) {
    const size_t offset = chunk * ShmArea::kCellBytes;
    const size_t length = std::min(ShmArea::kCellBytes, bytes - offset);
    Round round;
    round.small = bytes <= ShmArea::kInlineBytes;
    if (c.me == root) {
      round.publish = [c, offset, length](uint8_t* cell) {
        std::memcpy(cell, c.recv() + offset, length);
      };
      round.wait_for = ShmArea::kNoRank;
    } else {
      round.wait_for = root;
      round.consume = [c, offset, length, root, small = round.small](int buffer) {
        std::memcpy(c.recv() + offset, c.area->cell(root, buffer, small), length);
      };
    }
    rounds->push_back(std::move(round));
  }
}

// allreduce (root < 0) and reduce.
void reduction_rounds(const Context& c, int root, std::vector<Round>* rounds) {
  const CollectiveArgs& args = *c.args;
  const size_t bytes = args.count * args.extent;
  const bool result_here = root < 0 || c.me == root;
  if (bytes <= kFlatBytes) {
    if (bytes == 0) return;
    Round round;
    round.small = bytes <= ShmArea::kInlineBytes;
    round.publish = [c, bytes](uint8_t* cell) { std::memcpy(cell, c.input(), bytes); };
    round.wait_for = result_here ? ShmArea::kAllRanks : ShmArea::kNoRank;
    if (result_here)
      round.consume = [c, small = round.small](int buffer) {
        c.reduce_cells(c.recv(), buffer, 0, c.args->count, small);
      };
    rounds->push_back(std::move(round));
    return;
  }
  const size_t per_chunk = ShmArea::kCellBytes / args.extent;  // elements
  const size_t chunks = chunks_of(args.count, per_chunk);
  for (size_t chunk = 0; chunk < chunks; ++chunk) {
    const size_t first = chunk * per_chunk;
    const size_t count = std::min(per_chunk, args.count - first);
    // Slice s of the chunk: even blocks in elements (offsets in bytes within the cell).
    const auto slices =
        std::make_shared<Blocks>(even_blocks(count, args.extent, static_cast<size_t>(c.size)));
    const auto mine = static_cast<size_t>(c.me);
    Round scatter;
    scatter.publish = [c, first, count](uint8_t* cell) {
      std::memcpy(cell, c.input() + first * c.args->extent, count * c.args->extent);
    };
    scatter.wait_for = ShmArea::kAllRanks;
    const auto held = std::make_shared<std::vector<uint8_t>>(slices->bytes[mine]);  // my slice
    scatter.consume = [c, slices, mine, held](int buffer) {
      c.reduce_cells(held->data(), buffer, slices->offset[mine],
                     slices->bytes[mine] / c.args->extent);
    };
    Round gather;
    gather.publish = [slices, mine, held](uint8_t* cell) {
      if (!held->empty()) std::memcpy(cell + slices->offset[mine], held->data(), held->size());
    };
    gather.wait_for = result_here ? ShmArea::kAllRanks : ShmArea::kNoRank;
    if (result_here)
      gather.consume = [c, slices, first](int buffer) {
        uint8_t* target = c.recv() + first * c.args->extent;
        for (int rank = 0; rank < c.size; ++rank) {
          const auto r = static_cast<size_t>(rank);
          if (slices->bytes[r] > 0)
            std::memcpy(target + slices->offset[r], c.area->cell(rank, buffer) + slices->offset[r],
                        slices->bytes[r]);
        }
      };
    rounds->push_back(std::move(scatter));
    rounds->push_back(std::move(gather));
  }
}

// Block b (recv_counts[b] elements, back to back in the input) goes to rank b. Round k carries
// elements [k * piece, (k + 1) * piece) of every block, block b's at cell offset b * piece.
void reduce_scatter_rounds(const Context& c, Schedule& schedule, std::vector<Round>* rounds) {
  const CollectiveArgs& args = *c.args;
  const size_t extent = args.extent;
  auto displs = std::make_shared<std::vector<size_t>>();
  size_t total = 0, largest = 0;
  for (size_t count : args.recv_counts) {
    displs->push_back(total);
    total += count;
    largest = std::max(largest, count);
  }
  // Blocks that fit the inline slot together take it, block b at b * largest elements.
  const bool small = ShmArea::reduce_scatter_small(c.size, largest, extent);
  const size_t piece =
      small ? largest : ShmArea::kCellBytes / (static_cast<size_t>(c.size) * extent);
  if (largest == 0 || piece == 0) return;
  const uint8_t* input = c.input();
  bool uniform = true;
  for (size_t count : args.recv_counts) uniform = uniform && count == largest;
  if (args.in_place && !uniform) {
    // The result overwrites the start of recvbuf, which other blocks' input may occupy.
    uint8_t* copy = schedule.scratch(total * extent);
    std::memcpy(copy, input, total * extent);
    input = copy;
  }
  const auto mine = static_cast<size_t>(c.me);
  for (size_t k = 0; k < chunks_of(largest, piece); ++k) {
    const size_t first = k * piece;
    Round round;
    round.publish = [c, displs, first, piece, input, extent](uint8_t* cell) {
      for (size_t block = 0; block < displs->size(); ++block) {
        const size_t count = c.args->recv_counts[block];
        if (first >= count) continue;
        std::memcpy(cell + block * piece * extent, input + ((*displs)[block] + first) * extent,
                    std::min(piece, count - first) * extent);
      }
    };
    round.wait_for = ShmArea::kAllRanks;
    round.small = small;
    round.consume = [c, first, piece, mine, small](int buffer) {
      const size_t count = c.args->recv_counts[mine];
      if (first >= count) return;
      c.reduce_cells(c.recv() + first * c.args->extent, buffer, mine * piece * c.args->extent,
                     std::min(piece, count - first), small);
    };
    rounds->push_back(std::move(round));
  }
}

// Rank r's sendcount elements land at recv_displs[r]; every rank knows every count.
void allgather_rounds(const Context& c, std::vector<Round>* rounds) {
  const CollectiveArgs& args = *c.args;
  size_t largest = 0;
  for (size_t count : args.recv_counts) largest = std::max(largest, count);
  const size_t piece = ShmArea::kCellBytes / args.extent;
  if (largest == 0) return;
  const auto mine = static_cast<size_t>(c.me);
  const uint8_t* input = args.in_place ? c.recv() + args.recv_displs[mine] * args.extent
                                       : static_cast<const uint8_t*>(args.send);
  for (size_t k = 0; k < chunks_of(largest, piece); ++k) {
    const size_t first = k * piece;
    Round round;
    round.publish = [c, first, piece, mine, input](uint8_t* cell) {
      const size_t count = c.args->recv_counts[mine];
      if (first < count)
        std::memcpy(cell, input + first * c.args->extent,
                    std::min(piece, count - first) * c.args->extent);
    };
    round.wait_for = ShmArea::kAllRanks;
    round.consume = [c, first, piece](int buffer) {
      const size_t extent = c.args->extent;
      for (int rank = 0; rank < c.size; ++rank) {
        const auto r = static_cast<size_t>(rank);
        const size_t count = c.args->recv_counts[r];
        if (first >= count) continue;
        std::memcpy(c.recv() + (c.args->recv_displs[r] + first) * extent,
                    c.area->cell(rank, buffer), std::min(piece, count - first) * extent);
      }
    };
    rounds->push_back(std::move(round));
  }
}

// gather: round k carries bytes [k * cell, (k + 1) * cell) of every rank's block, each in its
// own cell; only the root reads. largest: the block (elements), the same on every member.
void gather_rounds(const Context& c, size_t largest, std::vector<Round>* rounds) {
  const CollectiveArgs& args = *c.args;
  const size_t extent = args.extent, bytes = largest * extent;
  const int root = args.root;
  const bool small = bytes <= ShmArea::kInlineBytes;
  for (size_t chunk = 0; chunk < chunks_of(bytes, ShmArea::kCellBytes); ++chunk) {
    const size_t offset = chunk * ShmArea::kCellBytes;
    Round round;
    round.small = small;
    if (c.me == root) {
      round.wait_for = ShmArea::kAllRanks;
      round.consume = [c, offset, root, small](int buffer) {
        for (int rank = 0; rank < c.size; ++rank) {
          const auto r = static_cast<size_t>(rank);
          const size_t block = c.args->recv_counts[r] * c.args->extent;
          if (offset >= block) continue;
          const size_t length = std::min(ShmArea::kCellBytes, block - offset);
          uint8_t* target = c.recv() + c.args->recv_displs[r] * c.args->extent + offset;
          if (rank != root)
            std::memcpy(target, c.area->cell(rank, buffer, small), length);
          else if (!c.args->in_place)
            std::memcpy(target, static_cast<const uint8_t*>(c.args->send) + offset, length);
        }
      };
    } else {
      const size_t block = args.count * extent;
      if (offset < block) {
        const size_t length = std::min(ShmArea::kCellBytes, block - offset);
        round.publish = [c, offset, length](uint8_t* cell) {
          std::memcpy(cell, static_cast<const uint8_t*>(c.args->send) + offset, length);
        };
      }
      round.wait_for = ShmArea::kNoRank;
    }
    rounds->push_back(std::move(round));
  }
}

// scatter: round k carries elements [k * piece, (k + 1) * piece) of every rank's block, block r
// at piece ShmArea::alltoall_index(r, root) of the root's cell (none for the root's own block:
// ShmArea::alltoall_piece); rank r copies its piece out. largest: as for gather.
void scatter_rounds(const Context& c, size_t largest, std::vector<Round>* rounds) {
  const CollectiveArgs& args = *c.args;
  const size_t extent = args.extent;
  const int root = args.root;
  const size_t piece = ShmArea::alltoall_piece(c.size, extent);
  if (largest == 0 || piece == 0) return;
  // All blocks in the inline slot (one round): block r at r * largest elements.
  const bool small = static_cast<size_t>(c.size) * largest * extent <= ShmArea::kInlineBytes;
  const auto at = [small, largest, piece, root](int rank) {
    return small ? static_cast<size_t>(rank) * largest
                 : ShmArea::alltoall_index(rank, root) * piece;
  };
  for (size_t k = 0; k < chunks_of(largest, piece); ++k) {
    const size_t first = k * piece;
    Round round;
    round.small = small;
    if (c.me == root) {
      round.publish = [c, first, piece, at, root, extent](uint8_t* cell) {
        const auto* send = static_cast<const uint8_t*>(c.args->send);
        for (int rank = 0; rank < c.size; ++rank) {
          const auto r = static_cast<size_t>(rank);
          const size_t count = c.args->send_counts[r];
          if (first >= count) continue;
          const size_t length = std::min(piece, count - first);
          const uint8_t* from = send + (c.args->send_displs[r] + first) * extent;
          if (rank != root)
            std::memcpy(cell + at(rank) * extent, from, length * extent);
          else if (!c.args->in_place)
            std::memcpy(c.recv() + first * extent, from, length * extent);
        }
      };
      round.wait_for = ShmArea::kNoRank;
    } else {
      round.wait_for = root;
      if (first < args.count)
        round.consume = [c, first, length = std::min(piece, args.count - first), at, root, extent,
                         small](int buffer) {
          std::memcpy(c.recv() + first * extent,
                      c.area->cell(root, buffer, small) + at(c.me) * extent, length * extent);
        };
    }
    rounds->push_back(std::move(round));
  }
}

// alltoall: round k carries elements [k * piece, (k + 1) * piece) of every block; rank r puts
// its piece for rank d at ShmArea::alltoall_index(d, r) pieces of its cell, and copies from
// every other rank's cell the piece there for r; its own block goes from input to result.
// input: the blocks sent (in place: a copy of recvbuf, whose own block is already in place).
void alltoall_rounds(const Context& c, const uint8_t* input, size_t largest,
                     std::vector<Round>* rounds) {
  const CollectiveArgs& args = *c.args;
  const size_t extent = args.extent;
  const size_t piece = ShmArea::alltoall_piece(c.size, extent);
  if (largest == 0 || piece == 0) return;
  for (size_t k = 0; k < chunks_of(largest, piece); ++k) {
    const size_t first = k * piece;
    Round round;
    round.publish = [c, input, first, piece, extent](uint8_t* cell) {
      const bool in_place = c.args->in_place;
      const auto& counts = in_place ? c.args->recv_counts : c.args->send_counts;
      const auto& displs = in_place ? c.args->recv_displs : c.args->send_displs;
      for (int rank = 0; rank < c.size; ++rank) {
        const auto r = static_cast<size_t>(rank);
        if (rank != c.me && first < counts[r])
          std::memcpy(cell + ShmArea::alltoall_index(rank, c.me) * piece * extent,
                      input + (displs[r] + first) * extent,
                      std::min(piece, counts[r] - first) * extent);
      }
    };
    round.wait_for = ShmArea::kAllRanks;
    round.consume = [c, input, first, piece, extent](int buffer) {
      for (int rank = 0; rank < c.size; ++rank) {
        const auto r = static_cast<size_t>(rank);
        const size_t count = c.args->recv_counts[r];
        if (first >= count) continue;
        uint8_t* target = c.recv() + (c.args->recv_displs[r] + first) * extent;
        const size_t length = std::min(piece, count - first) * extent;
        if (rank != c.me)
          std::memcpy(
              target,
              c.area->cell(rank, buffer) + ShmArea::alltoall_index(c.me, rank) * piece * extent,
              length);
        else if (!c.args->in_place)
          std::memcpy(target, input + (c.args->send_displs[r] + first) * extent, length);
      }
    };
    rounds->push_back(std::move(round));
  }
}

void gather_or_scatter(const Context& c, Operation operation, std::vector<Round>* rounds) {
  if (operation == Operation::Gather)
    gather_rounds(c, c.args->count, rounds);
  else
    scatter_rounds(c, c.args->count, rounds);
}

void alltoall(const Context& c, Schedule& schedule, std::vector<Round>* rounds) {
  const CollectiveArgs& args = *c.args;
  const uint8_t* input = static_cast<const uint8_t*>(args.send);
  if (args.in_place) {
    // The input is recvbuf, which the rounds overwrite: work from a copy of it.
    const size_t total = args.recv_counts.size() * args.recv_counts[0] * args.extent;
    uint8_t* copy = schedule.scratch(total);
    if (total > 0) std::memcpy(copy, args.recv, total);
    input = copy;
  }
  alltoall_rounds(c, input, args.recv_counts.empty() ? 0 : args.recv_counts[0], rounds);
}

// gatherv, scatterv, alltoallv: each member's own rounds (coll/shm_vforms.hpp); the last one
// (or with none, one without data) says it is past them all.
void vector_rounds(const Context& c, Operation operation, std::vector<Round>* rounds) {
  const uint64_t sequence = c.sequence;
  const auto plan = std::make_shared<const ShmVectorPlan>(*c.area, operation, *c.args, sequence);
  plan->copy_own();
  for (size_t k = 0; k < plan->rounds(); ++k) {
    // The round's cell (ShmRounds::buffer_of; the engine passes the slot to small rounds).
    const int buffer = static_cast<int>((sequence + k) & 1);
    Round round;
    round.small = plan->small(k);
    round.writes = plan->writes(k);
    if (round.writes != 0)
      round.publish = [plan, k, buffer](uint8_t*) { plan->publish(k, buffer); };
    round.wait_for = plan->wait_for(k);
    if (round.wait_for != ShmArea::kNoRank) {
      round.consume = [plan, k, buffer](int) { plan->consume(k, buffer); };
      round.transfer = [plan, k](int) { return plan->transfer(k); };
    }
    rounds->push_back(std::move(round));
  }
  if (rounds->empty()) {
    Round none;
    none.wait_for = ShmArea::kNoRank;
    rounds->push_back(std::move(none));
  }
  rounds->back().past = true;
}

}  // namespace

ShmFast::Small shm_small_args(Operation operation, const CollectiveArgs& args) {
  ShmFast::Small small;
  small.send = args.send;
  small.recv = args.recv;
  small.in_place = args.in_place;
  small.count = operation != Operation::Alltoall ? args.count
                : args.recv_counts.empty()       ? 0
                                                 : args.recv_counts[0];
  small.type = args.type;
  small.extent = args.extent;
  small.op = args.op;
  small.root = args.root;
  small.vector_form = args.vector_form;
  return small;
}

bool small_shm_fits(const ShmArea& area, Operation operation, const ShmFast::Small& args) {
  const size_t bytes = args.count * args.extent;
  if (args.vector_form || shm_single_copy::rounds_of(bytes, area.single_copy_bytes(operation)) != 0)
    return false;
  switch (operation) {
    case Operation::Barrier:
      return true;
    case Operation::Bcast:  // bcast_rounds' and reduction_rounds' one inline round
    case Operation::Reduce:
    case Operation::Allreduce:
      return bytes != 0 && bytes <= ShmArea::kInlineBytes;
    case Operation::Gather:  // one round (gather_rounds'): inline up to kInlineBytes, else cells
      return bytes != 0 && bytes <= ShmArea::kCellBytes;
    case Operation::Alltoall:
      return args.count != 0 && args.count <= ShmArea::alltoall_piece(area.size(), args.extent);
    default:
      return false;
  }
}

void small_shm_call(const ShmArea& area, Operation operation, const ShmFast::Small& args,
                    ShmSmallCall* call) {
  *call = ShmSmallCall{&area,
                       args.in_place ? nullptr : static_cast<const uint8_t*>(args.send),
                       static_cast<uint8_t*>(args.recv),
                       args.count * args.extent,
                       0,
                       args.root,
                       args.count,
                       args.op,
                       args.type};
  if (operation == Operation::Alltoall)
    call->stride = ShmArea::alltoall_piece(area.size(), args.extent) * args.extent;
}

uint64_t small_shm_shape(const ShmArea& area, Operation operation, const ShmFast::Small& args) {
  // The root too: a bcast's non-root waits for it (Round::wait_for).
  const bool at_root = area.rank() == args.root;
  const bool inline_data = args.count * args.extent <= ShmArea::kInlineBytes;
  return ((static_cast<uint64_t>(static_cast<uint32_t>(args.root)) * kOperationCount +
           static_cast<uint64_t>(operation)) *
              2 +
          (at_root ? 1 : 0)) *
             2 +
         (inline_data ? 1 : 0);
}

void small_shm_rounds(const ShmArea& area, Operation operation, const ShmFast::Small& args,
                      ShmSmallCall* call, std::vector<Round>* rounds) {
  small_shm_call(area, operation, args, call);
  Round round;
  const bool at_root = area.rank() == args.root;
  switch (operation) {
    case Operation::Barrier:  // barrier_rounds': no data, everyone waits for everyone
      break;
    case Operation::Bcast:  // bcast_rounds' one inline round; the buffer is recv
      round.small = true;
      if (at_root) {
        round.publish = [call](uint8_t* slot) { std::memcpy(slot, call->recv, call->block); };
        round.wait_for = ShmArea::kNoRank;
      } else {
        round.wait_for = args.root;
        round.consume = [call](int slot) {
          std::memcpy(call->recv, call->area->cell(call->root, slot, true), call->block);
        };
      }
      break;
    case Operation::Reduce:
    case Operation::Allreduce: {
      // reduction_rounds' one inline round: everyone publishes its vector, the ranks that get
      // the result reduce all of them in rank order.
      round.small = true;
      round.publish = [call](uint8_t* slot) {
        std::memcpy(slot, call->send != nullptr ? call->send : call->recv, call->block);
      };
      const bool result_here = operation == Operation::Allreduce || at_root;
      round.wait_for = result_here ? ShmArea::kAllRanks : ShmArea::kNoRank;
      if (result_here)
        round.consume = [call](int slot) {
          const ShmArea& a = *call->area;
          std::memcpy(call->recv, a.cell(0, slot, true), call->block);
          for (int rank = 1; rank < a.size(); ++rank)
            rma::apply_op(call->op, call->type, call->recv, a.cell(rank, slot, true), call->count);
        };
      break;
    }
    case Operation::Gather:
      // gather_rounds' one round with regular displacements: in the inline slots or the cells.
      round.small = call->block <= ShmArea::kInlineBytes;
      if (at_root) {
        round.consume = [call](int buffer) {
          const bool small = call->block <= ShmArea::kInlineBytes;
          for (int rank = 0; rank < call->area->size(); ++rank) {
            uint8_t* target = call->recv + static_cast<size_t>(rank) * call->block;
            if (rank != call->root)
              std::memcpy(target, call->area->cell(rank, buffer, small), call->block);
            else if (call->send != nullptr)
              std::memcpy(target, call->send, call->block);
          }
        };
      } else {
        round.publish = [call](uint8_t* slot) { std::memcpy(slot, call->send, call->block); };
        round.wait_for = ShmArea::kNoRank;
      }
      break;
    default:
      // alltoall_rounds' one round: every block within its piece of the cell, the own block
      // straight to the result. In place the input is recv, which this rank's publish copies out
      // before its consume overwrites it (its own block stays where it is).
      round.publish = [call](uint8_t* cell) {
        const uint8_t* input = call->send != nullptr ? call->send : call->recv;
        const int me = call->area->rank();
        for (int rank = 0; rank < call->area->size(); ++rank)
          if (rank != me)
            std::memcpy(cell + ShmArea::alltoall_index(rank, me) * call->stride,
                        input + static_cast<size_t>(rank) * call->block, call->block);
      };
      round.consume = [call](int buffer) {
        const int me = call->area->rank();
        for (int rank = 0; rank < call->area->size(); ++rank) {
          uint8_t* target = call->recv + static_cast<size_t>(rank) * call->block;
          if (rank != me)
            std::memcpy(
                target,
                call->area->cell(rank, buffer) + ShmArea::alltoall_index(me, rank) * call->stride,
                call->block);
          else if (call->send != nullptr)
            std::memcpy(target, call->send + static_cast<size_t>(rank) * call->block, call->block);
        }
      };
      break;
  }
  rounds->push_back(std::move(round));
}

void build_shm_rounds(Schedule& schedule, const std::shared_ptr<ShmArea>& area, Operation operation,
                      const CollectiveArgs& args) {
  const ShmFast::Small small = shm_small_args(operation, args);
  if (small_shm_fits(*area, operation, small)) {
    auto call = std::make_shared<ShmSmallCall>();
    std::vector<Round> rounds;
    small_shm_rounds(*area, operation, small, call.get(), &rounds);
    schedule.poll(ShmRounds::make(area, schedule.sequence(), std::move(rounds), std::move(call)));
    return;
  }
  Context c;
  auto kept = std::make_shared<const CollectiveArgs>(args);
  c.area = area.get();
  c.args = kept.get();
  c.me = area->rank();
  c.size = area->size();
  c.sequence = schedule.sequence();
  std::vector<Round> rounds;
  if (single_copy_rounds(c, operation, &rounds)) operation = Operation::Scan;  // no more rounds
  switch (operation) {
    case Operation::Barrier:
      barrier_rounds(c, &rounds);
      break;
    case Operation::Bcast:
      bcast_rounds(c, &rounds);
      break;
    case Operation::Reduce:
      reduction_rounds(c, args.root, &rounds);
      break;
    case Operation::Allreduce:
      reduction_rounds(c, -1, &rounds);
      break;
    case Operation::ReduceScatter:
      reduce_scatter_rounds(c, schedule, &rounds);
      break;
    case Operation::Allgather:
      allgather_rounds(c, &rounds);
      break;
    case Operation::Gather:
    case Operation::Scatter:
      if (ShmVectorPlan::serves(operation, args))
        vector_rounds(c, operation, &rounds);
      else
        gather_or_scatter(c, operation, &rounds);
      break;
    case Operation::Alltoall:
      if (ShmVectorPlan::serves(operation, args))
        vector_rounds(c, operation, &rounds);
      else
        alltoall(c, schedule, &rounds);
      break;
    default:
      break;
  }
  schedule.poll(ShmRounds::make(area, schedule.sequence(), std::move(rounds), std::move(kept)));
}

namespace {
void build_shm(Schedule& schedule, Operation operation, const CollectiveArgs& args,
               const BuildEnv&) {
  build_shm_rounds(schedule, schedule.shared_comm()->shm_area_ptr()->shared_from_this(), operation,
                   args);
}
}  // namespace

// The blocking calls that pick shm run on the fast path (coll/shm_fast.hpp) when they can;
// this builder makes the schedule of the others.
const AlgorithmDescriptor kShmAlgorithm{
    Algorithm::Shm, "shm",
    operations_of({Operation::Barrier, Operation::Bcast, Operation::Reduce, Operation::Allreduce,
                   Operation::ReduceScatter, Operation::Allgather, Operation::Gather,
                   Operation::Scatter, Operation::Alltoall}),
    kNeedsSharedArea | kIgnoresRankOrder, build_shm};

}  // namespace remora::coll
