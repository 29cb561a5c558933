#include "rma/locked_update.hpp"

#include <cstring>
#include <vector>

#include "rma/lock_table.hpp"
#include "rma/reduce_op.hpp"
#include "rma/user_memory.hpp"
#include "rma/window.hpp"

namespace remora::rma {

int apply_locked(const WindowMemory& memory, const AccArgs& args) {
  transport::Transport& transport = *memory.transport;
  const transport::Segment& data = *memory.data;
  const size_t bytes = args.count * datatype_size(args.type);
  LockTable table(transport, *memory.sync, memory.layout, memory.granularity, args.target,
                  memory.node_local_locks);
  std::vector<uint64_t> held;
  if (int status = table.lock(args.offset, bytes, &held)) return status;
  auto touch_local_edge = [&memory, &args, &transport] {
    if (memory.local_edge != nullptr && args.target == transport.rank())
      memory.local_edge->fetch_add(1, std::memory_order_acq_rel);
  };
  touch_local_edge();
  auto read = [&](void* into) {
    if (memory.user != nullptr) return memory.user->read(args.target, args.offset, into, bytes);
    return transport.get(data, args.target, args.offset, into, bytes);
  };
  auto write = [&](const void* from) {
    if (memory.user != nullptr) return memory.user->write(args.target, args.offset, from, bytes);
    return transport.put(data, args.target, args.offset, from, bytes);
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
  transport.flush(args.target);  // the update is visible before the stripes are released
  touch_local_edge();
  table.unlock(held);
  return status;
}

}  // namespace remora::rma
