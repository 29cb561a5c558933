// Window::accumulate_rows: a patch accumulate (rows at a fixed stride at the target and at the
// origin) as one locked update in place where the target is mapped, else row by row.
#include "rma/locks/lock_table.hpp"
#include "rma/pscw.hpp"
#include "rma/reduce_op.hpp"
#include "rma/window.hpp"

namespace remora::rma {

int Window::accumulate_rows(const char* function, const AccArgs& args, size_t rows,
                            uint64_t target_stride, size_t origin_stride) {
  // The conditions of accumulate_in_place's in-place path: every accumulate to the target takes its
  // lock table in place (element_in_place_), a passive epoch to it, nothing deferred.
  unsigned char* part = element_in_place_[static_cast<size_t>(args.target)];
  if (part != nullptr && args.count > 0 && rows > 0 && epoch_.passive(args.target) &&
      !epoch_.fence_open() && !deferred_lock_ && pscw_->deferral() == nullptr) {
    LockTable& table = lock_tables_[static_cast<size_t>(args.target)];
    const size_t bytes = args.count * datatype_size(args.type);
    StripeList held;
    if (table.try_lock_rows_in_place(args.offset, bytes, target_stride, rows, &held)) {
      // The stripes' exchanges (acquire) and sequentially consistent release stores order these
      // plain accesses with every other holder's (LockTable::try_lock_in_place).
      const bool self = args.target == rank_;
      if (self) touch_local_edge();  // as apply_locked around updates of this rank's memory
      apply_op_rows(args.op, args.type, part + args.offset, target_stride, args.origin,
                    origin_stride, args.count, rows, args.alpha);
      if (self) touch_local_edge();
      table.unlock_rows_in_place(held);
      return REMORA_SUCCESS;
    }
  }
  // Busy stripes, many stripes, or another path: one accumulate per row (each waits for its
  // stripes, or takes the strategy's path).
  AccArgs row = args;
  for (size_t r = 0; r < rows; ++r) {
    row.offset = args.offset + r * target_stride;
    row.origin = static_cast<const unsigned char*>(args.origin) + r * origin_stride;
    if (int status = accumulate(function, row)) return status;
  }
  return REMORA_SUCCESS;
}

}  // namespace remora::rma
