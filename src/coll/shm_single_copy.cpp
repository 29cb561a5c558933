#include "coll/shm_single_copy.hpp"

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "rma/reduce_op.hpp"

namespace remora::coll::shm_single_copy {
namespace {

struct Addresses {
  uint64_t input, result;
};
static_assert(sizeof(Addresses) <= ShmArea::kInlineBytes);

Addresses addresses(const ShmArea& area, int rank, int buffer) {
  Addresses a{};
  std::memcpy(&a, area.cell(rank, buffer, true), sizeof a);
  return a;
}

// Slice s of count elements (even_blocks' split), in bytes.
void slice(const CollectiveArgs& args, int size, int s, size_t* offset, size_t* bytes) {
  const auto parts = static_cast<size_t>(size), index = static_cast<size_t>(s);
  const size_t base = args.count / parts, extra = args.count % parts;
  *offset = (index * base + std::min(index, extra)) * args.extent;
  *bytes = (base + (index < extra ? 1 : 0)) * args.extent;
}

size_t largest(const std::vector<size_t>& counts) {
  size_t most = 0;
  for (size_t count : counts) most = std::max(most, count);
  return most;
}

uint8_t* result_of(const CollectiveArgs& args) {
  return static_cast<uint8_t*>(args.recv);
}

int bcast_copy(const ShmArea& area, const CollectiveArgs& args, int buffer) {
  const int me = area.rank(), root = args.root;
  const size_t bytes = args.count * args.extent;
  const size_t share = bytes / static_cast<size_t>(area.size());  // the root's writes
  uint8_t* data = result_of(args);
  if (me != root)
    return area.read_from(root, addresses(area, root, buffer).input + share, data + share,
                          bytes - share);
  if (share == 0) return REMORA_SUCCESS;
  for (int rank = 0; rank < area.size(); ++rank) {
    if (rank == me) continue;
    if (int status = area.write_to(rank, addresses(area, rank, buffer).input, data, share))
      return status;
  }
  return REMORA_SUCCESS;
}

// Reduces this member's slice of the vector and delivers it, piece by piece: root < 0
// (allreduce) into its own result and every other member's (nobody else reads or writes that
// slice of theirs: member s reads only slice s of the inputs), else into the root's result (a
// member other than the root reduces into scratch and writes it there).
int reduce_slice(const ShmArea& area, const CollectiveArgs& args, int root, int buffer,
                 std::vector<uint8_t>* scratch) {
  const int me = area.rank(), size = area.size();
  const bool to_root = root >= 0 && me != root;
  size_t offset = 0, bytes = 0;
  slice(args, size, me, &offset, &bytes);
  const size_t piece = ShmArea::kCellBytes / args.extent * args.extent;
  // [0, piece): another member's piece; [piece, 2 piece): in place, this member's own input
  // piece, saved before rank 0's piece overwrites it; to the root, [2 piece, 3 piece): the
  // reduced piece on its way there.
  scratch->resize((to_root ? 3 : 2) * piece);
  uint8_t* theirs = scratch->data();
  uint8_t* own = scratch->data() + piece;
  const auto* input = static_cast<const uint8_t*>(input_of(args));
  for (size_t done = 0; done < bytes; done += piece) {
    const size_t length = std::min(piece, bytes - done);
    uint8_t* target = to_root ? scratch->data() + 2 * piece : result_of(args) + offset + done;
    const uint8_t* mine = input + offset + done;
    if (args.in_place && me != 0 && !to_root) {
      std::memcpy(own, mine, length);
      mine = own;
    }
    // target = input 0 op input 1 op ... in rank order.
    for (int rank = 0; rank < size; ++rank) {
      const uint8_t* from = mine;
      if (rank != me) {
        uint8_t* into = rank == 0 ? target : theirs;
        if (int status = area.read_from(rank, addresses(area, rank, buffer).input + offset + done,
                                        into, length))
          return status;
        from = into;
      }
      if (rank == 0) {
        if (from != target) std::memcpy(target, from, length);
      } else {
        rma::apply_op(args.op, args.type, target, from, length / args.extent);
      }
    }
    for (int rank = 0; rank < size; ++rank) {
      if (rank == me || (root >= 0 && rank != root)) continue;
      if (int status = area.write_to(rank, addresses(area, rank, buffer).result + offset + done,
                                     target, length))
        return status;
    }
  }
  return REMORA_SUCCESS;
}

// gather (into the root's result) or scatter (from the root's input) of block `me`, regular form.
int rooted(const ShmArea& area, const CollectiveArgs& args, int buffer, bool gathering) {
  const int me = area.rank(), root = args.root;
  const size_t bytes = args.count * args.extent;
  const auto& displs = gathering ? args.recv_displs : args.send_displs;
  const size_t at = displs[static_cast<size_t>(me)] * args.extent;
  if (me != root) {
    const Addresses a = addresses(area, root, buffer);
    return gathering ? area.write_to(root, a.result + at, args.send, bytes)
                     : area.read_from(root, a.input + at, args.recv, bytes);
  }
  if (args.in_place) return REMORA_SUCCESS;  // the root's own block is where it belongs
  if (gathering)
    std::memcpy(result_of(args) + at, args.send, bytes);
  else
    std::memcpy(args.recv, bytes_at(args.send, at), bytes);
  return REMORA_SUCCESS;
}

// allgather: block r (recv_counts[r] elements) from rank r's input to recv_displs[r].
int allgather(const ShmArea& area, const CollectiveArgs& args, int buffer) {
  const int me = area.rank();
  for (int rank = 0; rank < area.size(); ++rank) {
    const auto r = static_cast<size_t>(rank);
    const size_t bytes = args.recv_counts[r] * args.extent;
    uint8_t* target = result_of(args) + args.recv_displs[r] * args.extent;
    if (bytes == 0) continue;
    if (rank == me) {
      if (!args.in_place) std::memcpy(target, args.send, bytes);
      continue;
    }
    if (int status = area.read_from(rank, addresses(area, rank, buffer).input, target, bytes))
      return status;
  }
  return REMORA_SUCCESS;
}

// alltoall (regular form): block me of every member's input, which is at me * count elements.
int alltoall(const ShmArea& area, const CollectiveArgs& args, int buffer) {
  const int me = area.rank();
  const size_t bytes = args.recv_counts[0] * args.extent;
  const size_t at = static_cast<size_t>(me) * bytes;
  for (int rank = 0; rank < area.size(); ++rank) {
    uint8_t* target = result_of(args) + args.recv_displs[static_cast<size_t>(rank)] * args.extent;
    const uint64_t from = addresses(area, rank, buffer).input + at;
    if (rank == me) {  // the published input is in this member's own address space
      if (!args.in_place) std::memcpy(target, reinterpret_cast<const void*>(from), bytes);
      continue;
    }
    if (int status = area.read_from(rank, from, target, bytes)) return status;
  }
  return REMORA_SUCCESS;
}

}  // namespace

size_t decisive_bytes(Operation operation, const CollectiveArgs& args) {
  switch (operation) {
    case Operation::Bcast:
    case Operation::Reduce:
    case Operation::Allreduce:
    case Operation::Gather:
    case Operation::Scatter:
      return args.count * args.extent;
    case Operation::Allgather:
      return largest(args.recv_counts) * args.extent;
    case Operation::Alltoall:
      return args.recv_counts.empty() ? 0 : args.recv_counts[0] * args.extent;
    default:
      return 0;
  }
}

size_t rounds(const ShmArea& area, Operation operation, const CollectiveArgs& args) {
  const size_t threshold = area.single_copy_bytes(operation);
  // The v-forms of the rooted operations and alltoall, whose members do not know each other's
  // blocks, take rounds of their own (gatherv and scatterv decide single-copy per block there:
  // coll/shm_vforms.hpp).
  if (args.vector_form && operation != Operation::Allgather &&
      operation != Operation::ReduceScatter)
    return 0;
  return rounds_of(decisive_bytes(operation, args), threshold);
}

size_t rounds_of(size_t bytes, size_t threshold) {
  if (threshold == 0 || bytes == 0 || bytes < threshold) return 0;
  return 2;
}

namespace {
bool rooted_rounds(const ShmArea& area, Operation operation) {
  return area.rooted_single_copy() &&
         (operation == Operation::Gather || operation == Operation::Scatter);
}
}  // namespace

bool publishes(const ShmArea& area, Operation operation, int root, size_t k) {
  if (rooted_rounds(area, operation)) return k == 0 && area.rank() == root;
  return k == 0;
}

int wait_for(const ShmArea& area, Operation operation, int root, size_t k) {
  if (!rooted_rounds(area, operation)) return ShmArea::kAllRanks;
  const bool at_root = area.rank() == root;
  if (k == 0) return at_root ? ShmArea::kNoRank : root;
  return at_root ? ShmArea::kAllRanks : ShmArea::kNoRank;
}

uint64_t spin_ns_for(size_t bytes) {
  return std::min<uint64_t>(bytes * 1000 / kSpinBytesPerUs, kMaxSpinNs);
}

uint64_t spin_ns(const ShmArea& area, Operation operation, const CollectiveArgs& args) {
  // allgather and alltoall: every member copies a block from each of the others and its own.
  const bool every_block = operation == Operation::Allgather || operation == Operation::Alltoall;
  const auto blocks = every_block ? static_cast<size_t>(area.size()) : 1;
  return spin_ns_for(decisive_bytes(operation, args) * blocks);
}

const void* source(Operation operation, const CollectiveArgs& args, int rank,
                   std::vector<uint8_t>* copy) {
  const auto* recv = static_cast<const uint8_t*>(args.recv);
  switch (operation) {
    case Operation::Bcast:
      return recv;
    case Operation::Gather:
    case Operation::Scatter:  // in place: the root's recvbuf (scatter) or sendbuf (gather) is
                              // unused
      return args.send;
    case Operation::Allgather:
      return args.in_place ? recv + args.recv_displs[static_cast<size_t>(rank)] * args.extent
                           : args.send;
    case Operation::Alltoall:
      if (!args.in_place) return args.send;
      copy->assign(recv, recv + args.recv_counts.size() * args.recv_counts[0] * args.extent);
      return copy->data();
    default:
      return input_of(args);
  }
}

void publish(uint8_t* slot, const void* input, void* result) {
  const Addresses a{reinterpret_cast<uintptr_t>(input), reinterpret_cast<uintptr_t>(result)};
  std::memcpy(slot, &a, sizeof a);
}

int transfer(const ShmArea& area, Operation operation, const CollectiveArgs& args,
             int addresses_buffer, std::vector<uint8_t>* scratch) {
  switch (operation) {
    case Operation::Bcast:
      return bcast_copy(area, args, addresses_buffer);
    case Operation::Allreduce:
      return reduce_slice(area, args, -1, addresses_buffer, scratch);
    case Operation::Reduce:
      return reduce_slice(area, args, args.root, addresses_buffer, scratch);
    case Operation::Gather:
      return rooted(area, args, addresses_buffer, true);
    case Operation::Scatter:
      return rooted(area, args, addresses_buffer, false);
    case Operation::Allgather:
      return allgather(area, args, addresses_buffer);
    case Operation::Alltoall:
      return alltoall(area, args, addresses_buffer);
    default:
      return REMORA_SUCCESS;
  }
}

}  // namespace remora::coll::shm_single_copy
