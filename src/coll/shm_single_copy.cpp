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

}  // namespace

bool allreduce(const ShmArea& area, const CollectiveArgs& args) {
  const size_t threshold = area.single_copy_bytes();
  return threshold != 0 && args.count * args.extent >= threshold;
}

bool bcast(const ShmArea& area, const CollectiveArgs& args) {
  return allreduce(area, args);  // the same threshold
}

int bcast_copy(const ShmArea& area, const CollectiveArgs& args, int buffer) {
  const int me = area.rank(), root = args.root;
  const size_t bytes = args.count * args.extent;
  const size_t share = bytes / static_cast<size_t>(area.size());  // the root's writes
  auto* data = static_cast<uint8_t*>(args.recv);
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

void publish(uint8_t* slot, const void* input, void* result) {
  const Addresses a{reinterpret_cast<uintptr_t>(input), reinterpret_cast<uintptr_t>(result)};
  std::memcpy(slot, &a, sizeof a);
}

int reduce_slice(const ShmArea& area, const CollectiveArgs& args, int buffer,
                 std::vector<uint8_t>* scratch) {
  const int me = area.rank(), size = area.size();
  size_t offset = 0, bytes = 0;
  slice(args, size, me, &offset, &bytes);
  const size_t piece = ShmArea::kCellBytes / args.extent * args.extent;
  // [0, piece): another member's piece; [piece, 2 piece): in place, this member's own input
  // piece, saved before rank 0's piece overwrites it.
  scratch->resize(2 * piece);
  uint8_t* theirs = scratch->data();
  uint8_t* own = scratch->data() + piece;
  const auto* input = static_cast<const uint8_t*>(input_of(args));
  auto* result = static_cast<uint8_t*>(args.recv) + offset;
  for (size_t done = 0; done < bytes; done += piece) {
    const size_t length = std::min(piece, bytes - done);
    uint8_t* target = result + done;
    const uint8_t* mine = input + offset + done;
    if (args.in_place && me != 0) {
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
  }
  return REMORA_SUCCESS;
}

int gather_slices(const ShmArea& area, const CollectiveArgs& args, int buffer) {
  const int me = area.rank(), size = area.size();
  auto* result = static_cast<uint8_t*>(args.recv);
  for (int rank = 0; rank < size; ++rank) {
    if (rank == me) continue;
    size_t offset = 0, bytes = 0;
    slice(args, size, rank, &offset, &bytes);
    if (bytes == 0) continue;
    if (int status = area.read_from(rank, addresses(area, rank, buffer).result + offset,
                                    result + offset, bytes))
      return status;
  }
  return REMORA_SUCCESS;
}

}  // namespace remora::coll::shm_single_copy
