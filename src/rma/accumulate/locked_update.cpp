#include "rma/accumulate/locked_update.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/process_edge.hpp"
#include "rma/accumulate/acc_args.hpp"
#include "rma/accumulate/acc_pieces.hpp"
#include "rma/locks/lock_table.hpp"
#include "rma/reduce_op.hpp"
#include "rma/user_memory.hpp"

namespace remora::rma {

namespace {

// The update itself on memory this process maps: in place, no copy of the target range.
void update_in_place(unsigned char* at, const AccArgs& args, size_t bytes) {
  if (args.result != nullptr) std::memcpy(args.result, at, bytes);
  if (args.compare != nullptr) {
    if (std::memcmp(at, args.compare, bytes) == 0) std::memcpy(at, args.origin, bytes);
  } else if (args.op != REMORA_OP_NO_OP) {
    apply_op(args.op, args.type, at, args.origin, args.count, args.alpha);
  }
}

// The update through the transport (or a window over user memory): read, compute, write back.
int update_by_copy(const WindowMemory& memory, const AccArgs& args, size_t bytes) {
  transport::Transport& transport = *memory.transport;
  auto read = [&](void* into) {
    if (memory.user != nullptr) return memory.user->read(args.target, args.offset, into, bytes);
    return transport.get(*memory.data, args.target, args.offset, into, bytes);
  };
  auto write = [&](const void* from) {
    if (memory.user != nullptr) return memory.user->write(args.target, args.offset, from, bytes);
    return transport.put(*memory.data, args.target, args.offset, from, bytes);
  };
  std::vector<unsigned char> current(bytes);
  int status = read(current.data());
  if (status == REMORA_SUCCESS) {
    if (args.result != nullptr) std::memcpy(args.result, current.data(), bytes);
    if (args.compare != nullptr) {
      if (std::memcmp(current.data(), args.compare, bytes) == 0) status = write(args.origin);
    } else if (args.op != REMORA_OP_NO_OP) {
      apply_op(args.op, args.type, current.data(), args.origin, args.count, args.alpha);
      status = write(current.data());
    }
  }
  return status;
}

void touch_local_edge(const WindowMemory& memory, const AccArgs& args) {
  if constexpr (kThreadSanitizer)
    if (memory.local_edge != nullptr && args.target == memory.transport->rank())
      touch_process_edge(*memory.local_edge);
}

// The update of args' range on the mapping, under its stripes (held by the caller): the
// stripes' exchange (acquire) and release store order these plain accesses between holders,
// so no transport flush is needed before the release.
void update_held(const WindowMemory& memory, const AccArgs& args, unsigned char* mapped,
                 size_t bytes) {
  touch_local_edge(memory, args);
  update_in_place(mapped + args.offset, args, bytes);
  touch_local_edge(memory, args);
}

int apply_in_pieces(const WindowMemory& memory, const AccArgs& args, LockTable& table,
                    unsigned char* mapped, const AccPieces& pieces);

// args' whole range at once: its stripes all or nothing. On the mapping, a range over several
// blocks of the table that finds a stripe busy at its first try (another origin updates the same
// bytes: the contended case) goes piece by piece instead, in pieces of one block
// (apply_in_pieces: skipping busy pieces, so two origins update different blocks at once rather
// than take the range in turn). The first try is the uncontended path's own, so the signal costs
// nothing there; split_when_busy is false for a piece of that split (one block: nothing to split).
int apply_range(const WindowMemory& memory, const AccArgs& args, LockTable& table,
                unsigned char* mapped, bool split_when_busy = true) {
  transport::Transport& transport = *memory.transport;
  const size_t bytes = args.count * datatype_size(args.type);
  StripeSet held;
  if (mapped != nullptr) {
    auto update_and_release = [&] {
      update_held(memory, args, mapped, bytes);
      table.unlock_in_place(held);
      return REMORA_SUCCESS;
    };
    if (table.try_lock_in_place(args.offset, bytes, &held)) return update_and_release();
    if (split_when_busy && args.compare == nullptr) {
      const AccPieces blocks(args.offset, bytes, datatype_size(args.type), table.granularity(),
                             table.granularity());
      if (blocks.count() > 1) return apply_in_pieces(memory, args, table, mapped, blocks);
    }
    if (table.lock_in_place(args.offset, bytes, &held)) return update_and_release();
  }
  if (int status = table.lock(args.offset, bytes, &held)) return status;
  touch_local_edge(memory, args);
  int status = REMORA_SUCCESS;
  if (mapped != nullptr) {
    update_in_place(mapped + args.offset, args, bytes);
  } else {
    status = update_by_copy(memory, args, bytes);
    transport.flush(args.target);  // the update is visible before the stripes are released
  }
  touch_local_edge(memory, args);
  table.unlock(held);
  return status;
}

// Piece i of args (acc_pieces.hpp): the same operation on a sub-range of whole elements.
AccArgs piece_args(const AccArgs& args, const AccPieces& pieces, size_t i, size_t element) {
  AccArgs piece = args;
  const uint64_t skip = pieces.begin(i) - args.offset;
  piece.offset = pieces.begin(i);
  piece.count = (pieces.end(i) - pieces.begin(i)) / element;
  if (args.origin != nullptr) piece.origin = static_cast<const unsigned char*>(args.origin) + skip;
  if (args.result != nullptr) piece.result = static_cast<unsigned char*>(args.result) + skip;
  return piece;
}

// A range of several pieces on the mapping, holding one piece at a time (so no order between
// pieces is needed against deadlock). Each origin starts at its own piece (rank / size of the
// way along) and goes round taking the pieces free at that moment, skipping busy ones, so
// origins contending for the same range work on different pieces at once rather than follow
// each other; when every piece left is busy it waits for the first of them (apply_range's wait).
int apply_in_pieces(const WindowMemory& memory, const AccArgs& args, LockTable& table,
                    unsigned char* mapped, const AccPieces& pieces) {
  const size_t element = datatype_size(args.type);
  const size_t count = pieces.count();
  const transport::Transport& transport = *memory.transport;
  const size_t start = static_cast<size_t>(transport.rank()) * count /
                       static_cast<size_t>(std::max(transport.size(), 1));
  uint64_t left = count == 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1;
  while (left != 0) {
    bool progressed = false;
    size_t waiting = count;  // the first piece left in the round, if none is free
    for (size_t k = 0; k < count; ++k) {
      const size_t i = (start + k) % count;
      if ((left >> i & 1) == 0) continue;
      if (pieces.begin(i) == pieces.end(i)) {
        left &= ~(uint64_t{1} << i);
        continue;
      }
      const AccArgs piece = piece_args(args, pieces, i, element);
      const size_t bytes = pieces.end(i) - pieces.begin(i);
      StripeSet held;
      if (!table.try_lock_in_place(piece.offset, bytes, &held)) {
        if (waiting == count) waiting = i;
        continue;
      }
      update_held(memory, piece, mapped, bytes);
      table.unlock_in_place(held);
      left &= ~(uint64_t{1} << i);
      progressed = true;
    }
    if (!progressed && waiting < count) {
      // A piece longer than one block may split further (apply_range); one block may not.
      const bool split = pieces.piece_bytes() > table.granularity();
      if (int status =
              apply_range(memory, piece_args(args, pieces, waiting, element), table, mapped, split))
        return status;
      left &= ~(uint64_t{1} << waiting);
    }
  }
  return REMORA_SUCCESS;
}

int apply_with_table(const WindowMemory& memory, const AccArgs& args, LockTable& table) {
  // Mapped memory whose stripes are CPU atomics on this node is updated in place.
  auto* mapped =
      memory.user == nullptr && table.direct()
          ? static_cast<unsigned char*>(memory.transport->address(*memory.data, args.target))
          : nullptr;
  const size_t element = datatype_size(args.type);
  // A range of at most one piece's least size is one piece: no division on the common path.
  if (mapped != nullptr && args.compare == nullptr &&
      args.count * element > AccPieces::least_piece()) {
    const AccPieces pieces(args.offset, args.count * element, element, table.granularity());
    if (pieces.count() > 1) return apply_in_pieces(memory, args, table, mapped, pieces);
  }
  return apply_range(memory, args, table, mapped);
}

}  // namespace

int apply_locked(const WindowMemory& memory, const AccArgs& args, LockTable* table) {
  if (table != nullptr) return apply_with_table(memory, args, *table);
  LockTable built(*memory.transport, *memory.sync, memory.geometry, memory.granularity, args.target,
                  memory.node_local_locks);
  return apply_with_table(memory, args, built);
}

}  // namespace remora::rma
