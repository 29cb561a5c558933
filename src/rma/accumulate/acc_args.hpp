// One accumulate-family operation, as the paths that apply it (native atomics, the lock table,
// owner computes, deferred queues) receive it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace remora::rma {

// accumulate (result null), get_accumulate / fetch_and_op (result set) or compare_and_swap
// (compare set, count 1). offset is in bytes.
struct AccArgs {
  int target = 0;
  uint64_t offset = 0;
  const void* origin = nullptr;
  const void* compare = nullptr;
  void* result = nullptr;
  size_t count = 0;
  int type = 0;
  int op = 0;
  const void* alpha = nullptr;
};

}  // namespace remora::rma
