#include "rma/acc_route.hpp"

#include "rma/native_atomics.hpp"

namespace remora::rma {

AccPath choose_acc_path(AccStrategy strategy, AccTarget target, int type, uint64_t offset) {
  switch (strategy) {
    case AccStrategy::Native:
    case AccStrategy::Auto:
      if (!target.mapped) return AccPath::Owner;
      return native_capable(type, offset) ? AccPath::Native : AccPath::LockTable;
    case AccStrategy::Owner:
      return target.self ? AccPath::LockTable : AccPath::Owner;
    case AccStrategy::Caller:
      break;
  }
  return AccPath::LockTable;
}

}  // namespace remora::rma
