#include "rma/accumulate/locked_update.hpp"

#include <cstring>
#include <vector>

#include "core/process_edge.hpp"
#include "rma/accumulate/acc_args.hpp"
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

int apply_with_table(const WindowMemory& memory, const AccArgs& args, LockTable& table) {
  transport::Transport& transport = *memory.transport;
  const size_t bytes = args.count * datatype_size(args.type);
  auto touch_local_edge = [&memory, &args, &transport] {
    if constexpr (kThreadSanitizer)
      if (memory.local_edge != nullptr && args.target == transport.rank())
        touch_process_edge(*memory.local_edge);
  };
  // Mapped memory whose stripes are CPU atomics on this node is updated in place: the
  // stripes' exchange (acquire) and sequentially consistent release store order the plain
  // accesses between holders, so no transport flush is needed before the release.
  auto* mapped = memory.user == nullptr && table.direct()
                     ? static_cast<unsigned char*>(transport.address(*memory.data, args.target))
                     : nullptr;
  StripeSet held;
  if (mapped != nullptr && table.lock_in_place(args.offset, bytes, &held)) {
    touch_local_edge();
    update_in_place(mapped + args.offset, args, bytes);
    touch_local_edge();
    table.unlock_in_place(held);
    return REMORA_SUCCESS;
  }
  if (int status = table.lock(args.offset, bytes, &held)) return status;
  touch_local_edge();
  int status = REMORA_SUCCESS;
  if (mapped != nullptr) {
    update_in_place(mapped + args.offset, args, bytes);
  } else {
    status = update_by_copy(memory, args, bytes);
    transport.flush(args.target);  // the update is visible before the stripes are released
  }
  touch_local_edge();
  table.unlock(held);
  return status;
}

}  // namespace

int apply_locked(const WindowMemory& memory, const AccArgs& args, LockTable* table) {
  if (table != nullptr) return apply_with_table(memory, args, *table);
  LockTable built(*memory.transport, *memory.sync, memory.geometry, memory.granularity, args.target,
                  memory.node_local_locks);
  return apply_with_table(memory, args, built);
}

}  // namespace remora::rma
