#include "coll/shm_vforms.hpp"

#include <algorithm>
#include <cstring>

#include "coll/algorithms/algorithms.hpp"
#include "coll/shm_area.hpp"

namespace remora::coll {
namespace {

constexpr size_t kCell = ShmArea::kCellBytes;

// memcpy without the null pointers of empty blocks (undefined even for 0 bytes).
void copy(uint8_t* target, const uint8_t* source, size_t bytes) {
  if (bytes > 0) std::memcpy(target, source, bytes);
}

const uint8_t* bytes(const void* pointer) {
  return static_cast<const uint8_t*>(pointer);
}

}  // namespace

bool ShmVectorPlan::serves(Operation operation, const CollectiveArgs& args) {
  return args.vector_form && (operation == Operation::Gather || operation == Operation::Scatter ||
                              operation == Operation::Alltoall);
}

ShmVectorPlan::ShmVectorPlan(const ShmArea& area, Operation operation, const CollectiveArgs& args,
                             uint64_t sequence)
    : area_(area),
      operation_(operation),
      args_(args),
      me_(area.rank()),
      size_(area.size()),
      slot_(ShmArea::slot_of(sequence)),
      cell0_(static_cast<int>(sequence & 1)),
      extent_(args.extent) {
  const auto ranks = static_cast<size_t>(size_);
  piece_ = piece_of(size_, extent_);
  if (operation_ == Operation::Scatter) inline_count_ = ShmArea::kInlineBytes / ranks / extent_;
  if (operation_ == Operation::Alltoall) {
    input_ = bytes(args_.send);
    input_displs_ = &args_.send_displs;
    if (args_.in_place) {
      // The input is recvbuf, which the rounds overwrite: work from a copy of it.
      size_t total = 0;
      for (size_t rank = 0; rank < ranks; ++rank)
        total = std::max(total, (args_.recv_displs[rank] + args_.recv_counts[rank]) * extent_);
      input_copy_.assign(bytes(args_.recv), bytes(args_.recv) + total);
      input_ = input_copy_.data();
      input_displs_ = &args_.recv_displs;
    }
    direct_bytes_ =
        alltoallv_direct_bytes(size_, extent_, area.single_copy_bytes(Operation::Alltoall));
    size_t sends = 0, direct_sent = 0, direct_read = 0;
    for (int rank = 0; rank < size_; ++rank) {
      if (rank == me_) continue;
      const size_t sent = block_of(rank), read = args_.recv_counts[static_cast<size_t>(rank)];
      sends = std::max(sends, rounds_of(sent));
      reads_ = std::max(reads_, rounds_of(read));
      if (direct(sent)) direct_sent += sent * extent_;
      if (direct(read)) direct_read += read * extent_;
    }
    // Direct blocks read in round 0 (after every member's address); a member that sends one
    // waits in a later round until every member is past round 0 (nobody reads its input any
    // more), so it takes at least two rounds.
    direct_sends_ = direct_sent != 0;
    if (direct_read != 0) reads_ = std::max<size_t>(reads_, 1);
    rounds_ = std::max(sends, reads_);
    if (direct_sends_) rounds_ = std::max<size_t>(rounds_, 2);
    direct_total_ = std::max(direct_sent, direct_read);
    return;
  }
  direct_bytes_ = area.single_copy_bytes(operation_);
  const int root = args_.root;
  if (me_ != root) {
    // A single-copy block: round 0 publishes the address, round 1 waits for the root.
    rounds_ = direct(args_.count) ? 2 : rounds_of(args_.count);
    if (direct(args_.count)) direct_total_ = args_.count * extent_ * static_cast<size_t>(size_ - 1);
    // scatterv: the root's slot carries this block when it is inline (gatherv's members wait
    // for nobody in round 0).
    slot_arrivals_ = operation_ == Operation::Scatter && args_.count != 0 && !direct(args_.count) &&
                     inline_block(args_.count);
    return;
  }
  // The root waits in round 0 for every other member (scatterv: when one is single-copy); each
  // publishes in its slot only a nonempty block that is inline (gatherv) or single-copy.
  bool all_in_slot = true;
  for (int rank = 0; rank < size_; ++rank) {
    if (rank == root) continue;
    rounds_ = std::max(rounds_, rounds_of(block_of(rank)));
    root_waits_ = root_waits_ || direct(block_of(rank));
    if (direct(block_of(rank))) direct_total_ += block_of(rank) * extent_;
    all_in_slot = all_in_slot && slot_carries(block_of(rank));
  }
  slot_arrivals_ = all_in_slot;
}

size_t ShmVectorPlan::piece_of(int size, size_t extent) {
  return std::max<size_t>(1, ShmArea::alltoall_piece(size, extent));
}

size_t ShmVectorPlan::alltoallv_direct_bytes(int size, size_t extent, size_t single_copy_bytes) {
  // A single-copy block's address takes the first 8 bytes of its piece of round 0's cell.
  return piece_of(size, extent) * extent >= sizeof(uint64_t) ? single_copy_bytes : 0;
}

bool ShmVectorPlan::slot_carries(size_t count) const {
  if (count == 0) return false;  // the member stores only its past mark
  if (direct(count)) return true;
  return operation_ == Operation::Gather && inline_block(count);
}

bool ShmVectorPlan::direct(size_t count) const {
  return direct_block(count, extent_, direct_bytes_);
}

size_t ShmVectorPlan::block_of(int rank) const {
  const auto r = static_cast<size_t>(rank);
  switch (operation_) {
    case Operation::Gather:
      return me_ == args_.root ? args_.recv_counts[r] : args_.count;
    case Operation::Scatter:
      return me_ == args_.root ? args_.send_counts[r] : args_.count;
    default:  // alltoallv: the block this member sends to rank
      return args_.in_place ? args_.recv_counts[r] : args_.send_counts[r];
  }
}

bool ShmVectorPlan::inline_block(size_t count) const {
  if (operation_ == Operation::Gather) return count * extent_ <= ShmArea::kInlineBytes;
  return count <= inline_count_;  // scatterv (alltoallv: inline_count_ 0)
}

size_t ShmVectorPlan::rounds_of(size_t count) const {
  if (count == 0) return 0;
  if (direct(count)) return operation_ == Operation::Alltoall ? 0 : 1;  // the root's
  if (operation_ == Operation::Gather) return (count * extent_ + kCell - 1) / kCell;
  if (inline_block(count)) return 1;
  return (count + piece_ - 1) / piece_;
}

void ShmVectorPlan::copy_own() const {
  if (args_.in_place) return;  // the own block stays where it is
  const auto mine = static_cast<size_t>(me_);
  uint8_t* recv = static_cast<uint8_t*>(args_.recv);
  switch (operation_) {
    case Operation::Gather:
      if (me_ == args_.root)
        copy(recv + args_.recv_displs[mine] * extent_, bytes(args_.send), args_.count * extent_);
      break;
    case Operation::Scatter:
      if (me_ == args_.root)
        copy(recv, bytes(args_.send) + args_.send_displs[mine] * extent_, args_.count * extent_);
      break;
    default:
      copy(recv + args_.recv_displs[mine] * extent_,
           bytes(args_.send) + args_.send_displs[mine] * extent_,
           args_.recv_counts[mine] * extent_);
      break;
  }
}

unsigned ShmVectorPlan::writes(size_t k) const {
  const bool at_root = me_ == args_.root;
  switch (operation_) {
    case Operation::Gather:
      if (at_root) return 0;
      if (direct(args_.count)) return k == 0 ? ShmArea::kSlotData : 0;  // the address
      return inline_block(args_.count) ? ShmArea::kSlotData : ShmArea::kCellData;
    case Operation::Scatter: {
      if (!at_root) return k == 0 && direct(args_.count) ? ShmArea::kSlotData : 0;
      unsigned writes = 0;
      for (int rank = 0; rank < size_; ++rank) {
        const size_t count = block_of(rank);
        if (rank == me_ || k >= rounds_of(count) || direct(count)) continue;
        writes |= inline_block(count) ? ShmArea::kSlotData : ShmArea::kCellData;
      }
      return writes;
    }
    default:
      if (k == 0 && direct_sends_) return ShmArea::kCellData;  // the direct blocks' addresses
      for (int rank = 0; rank < size_; ++rank)
        if (rank != me_ && k < rounds_of(block_of(rank))) return ShmArea::kCellData;
      return 0;
  }
}

int ShmVectorPlan::wait_for(size_t k) const {
  const int root = args_.root;
  if (operation_ != Operation::Alltoall && me_ != root && direct(args_.count))
    return k == 0 ? ShmArea::kNoRank : root;
  switch (operation_) {
    case Operation::Gather:
      return me_ == root ? ShmArea::kAllRanks : ShmArea::kNoRank;
    case Operation::Scatter:
      if (me_ == root) return k == 0 && root_waits_ ? ShmArea::kAllRanks : ShmArea::kNoRank;
      return root;
    default:  // a direct sender's last round: until every reader is past round 0
      return k < reads_ || (direct_sends_ && k + 1 == rounds_) ? ShmArea::kAllRanks
                                                               : ShmArea::kNoRank;
  }
}

void ShmVectorPlan::publish(size_t k, int buffer) const {
  if (operation_ != Operation::Alltoall && me_ != args_.root && direct(args_.count)) {
    const void* buffer_used = operation_ == Operation::Gather ? args_.send : args_.recv;
    const auto address = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(buffer_used));
    std::memcpy(area_.cell(me_, slot_, true), &address, sizeof address);
    return;
  }
  switch (operation_) {
    case Operation::Gather: {
      const size_t block = args_.count * extent_, offset = k * kCell;
      const bool in_slot = inline_block(args_.count);
      copy(area_.cell(me_, in_slot ? slot_ : buffer, in_slot), bytes(args_.send) + offset,
           std::min(kCell, block - offset));
      break;
    }
    case Operation::Scatter: {
      const size_t first = k * piece_, mine = static_cast<size_t>(me_);
      for (size_t r = 0; r < args_.send_counts.size(); ++r) {
        const size_t count = args_.send_counts[r];
        if (r == mine || first >= count || direct(count)) continue;
        const uint8_t* from = bytes(args_.send) + (args_.send_displs[r] + first) * extent_;
        if (inline_block(count))
          copy(area_.cell(me_, slot_, true) + r * inline_count_ * extent_, from, count * extent_);
        else
          copy(area_.cell(me_, buffer) +
                   ShmArea::alltoall_index(static_cast<int>(r), me_) * piece_ * extent_,
               from, std::min(piece_, count - first) * extent_);
      }
      break;
    }
    default: {
      const size_t first = k * piece_;
      uint8_t* cell = area_.cell(me_, buffer);
      for (int rank = 0; rank < size_; ++rank) {
        const auto r = static_cast<size_t>(rank);
        const size_t count = block_of(rank);
        if (rank == me_ || first >= count) continue;
        uint8_t* at = cell + ShmArea::alltoall_index(rank, me_) * piece_ * extent_;
        const uint8_t* from = input_ + ((*input_displs_)[r] + first) * extent_;
        if (direct(count)) {  // its address, in round 0 (it takes no round of the cells)
          const auto address = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(from));
          if (k == 0) std::memcpy(at, &address, sizeof address);
          continue;
        }
        copy(at, from, std::min(piece_, count - first) * extent_);
      }
      break;
    }
  }
}

void ShmVectorPlan::consume(size_t k, int buffer) const {
  uint8_t* recv = static_cast<uint8_t*>(args_.recv);
  const auto mine = static_cast<size_t>(me_);
  switch (operation_) {
    case Operation::Gather: {
      if (me_ != args_.root) break;  // a single-copy block's rank waits for the root
      const size_t offset = k * kCell;
      for (int rank = 0; rank < size_; ++rank) {
        const auto r = static_cast<size_t>(rank);
        const size_t count = args_.recv_counts[r], block = count * extent_;
        if (rank == me_ || offset >= block || direct(count)) continue;
        const bool in_slot = inline_block(count);
        copy(recv + args_.recv_displs[r] * extent_ + offset,
             area_.cell(rank, in_slot ? slot_ : buffer, in_slot), std::min(kCell, block - offset));
      }
      break;
    }
    case Operation::Scatter: {
      const size_t count = args_.count, first = k * piece_;
      const int root = args_.root;
      if (me_ == root || direct(count)) break;  // the root reads nothing; single-copy: written
      if (inline_block(count))
        copy(recv, area_.cell(root, slot_, true) + mine * inline_count_ * extent_, count * extent_);
      else
        copy(recv + first * extent_,
             area_.cell(root, buffer) + ShmArea::alltoall_index(me_, root) * piece_ * extent_,
             std::min(piece_, count - first) * extent_);
      break;
    }
    default: {
      const size_t first = k * piece_;
      for (int rank = 0; rank < size_; ++rank) {
        const auto r = static_cast<size_t>(rank);
        const size_t count = args_.recv_counts[r];
        if (rank == me_ || first >= count || direct(count)) continue;  // direct: transfer()
        copy(recv + (args_.recv_displs[r] + first) * extent_,
             area_.cell(rank, buffer) + ShmArea::alltoall_index(me_, rank) * piece_ * extent_,
             std::min(piece_, count - first) * extent_);
      }
      break;
    }
  }
}

int ShmVectorPlan::transfer(size_t k) const {
  if (k != 0) return REMORA_SUCCESS;
  if (operation_ == Operation::Alltoall) return read_direct();
  if (me_ != args_.root) return REMORA_SUCCESS;
  const bool gathering = operation_ == Operation::Gather;
  const std::vector<size_t>& counts = gathering ? args_.recv_counts : args_.send_counts;
  const std::vector<size_t>& displs = gathering ? args_.recv_displs : args_.send_displs;
  for (int rank = 0; rank < size_; ++rank) {
    const auto r = static_cast<size_t>(rank);
    if (rank == me_ || !direct(counts[r])) continue;
    uint64_t address = 0;
    std::memcpy(&address, area_.cell(rank, slot_, true), sizeof address);
    const size_t offset = displs[r] * extent_, bytes = counts[r] * extent_;
    const int status =
        gathering
            ? area_.read_from(rank, address, static_cast<uint8_t*>(args_.recv) + offset, bytes)
            : area_.write_to(rank, address, static_cast<const uint8_t*>(args_.send) + offset,
                             bytes);
    if (status != REMORA_SUCCESS) return status;
  }
  return REMORA_SUCCESS;
}

int ShmVectorPlan::read_direct() const {
  for (int rank = 0; rank < size_; ++rank) {
    const auto r = static_cast<size_t>(rank);
    const size_t count = args_.recv_counts[r];
    if (rank == me_ || !direct(count)) continue;
    uint64_t address = 0;
    std::memcpy(&address,
                area_.cell(rank, cell0_) + ShmArea::alltoall_index(me_, rank) * piece_ * extent_,
                sizeof address);
    const int status = area_.read_from(
        rank, address, static_cast<uint8_t*>(args_.recv) + args_.recv_displs[r] * extent_,
        count * extent_);
    if (status != REMORA_SUCCESS) return status;
  }
  return REMORA_SUCCESS;
}

}  // namespace remora::coll
