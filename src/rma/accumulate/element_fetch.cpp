#include "rma/accumulate/element_fetch.hpp"

#include <cstring>

#include "remora/status.h"
#include "rma/locks/lock_table.hpp"

namespace remora::rma {
namespace {

// update_one's fetch (reduce_op.cpp) for one (T, Op), then the release: the stripe's
// compare-and-swap (acquire) and release store order these plain accesses with every other
// holder's.
template <typename T, int Op>
struct HeldFetchEntry {
  static constexpr bool kAvailable = true;
  static int run(LockTable& table, int64_t stripe, unsigned char* element, const void* origin,
                 void* result) {
    T old;
    std::memcpy(&old, element, sizeof(T));
    std::memcpy(result, &old, sizeof(T));
    if constexpr (Op == REMORA_OP_NO_OP) {
      (void)origin;  // not read: a fetch
    } else {
      T source;
      std::memcpy(&source, origin, sizeof(T));
      const T updated = combine<Op, T>(old, source, T{});
      std::memcpy(element, &updated, sizeof(T));
    }
    table.unlock_element(stripe);
    return REMORA_SUCCESS;
  }
};

}  // namespace

constinit const FetchTable<HeldFetch> kHeldFetch = make_fetch_table<HeldFetch, HeldFetchEntry>();

}  // namespace remora::rma
