// C API: segments, put/get (contiguous and strided), flush and 64-bit atomics.
#include <algorithm>

#include "api/runtime.hpp"
#include "core/error.hpp"
#include "remora/segment.h"

using remora::api::check_pointer;
using remora::api::check_range;
using remora::api::check_rank;
using remora::api::check_segment;
using remora::api::enter;
using remora::api::Runtime;

namespace {

// Common checks of an access to rank's part of segment; rank_name is the argument's name.
int enter_access(const char* function, remora_segment_t segment, int rank, Runtime** runtime,
                 const char* rank_name = "target") {
  if (int status = enter(function, runtime)) return status;
  if (int status = check_segment(function, segment, **runtime)) return status;
  return check_rank(function, rank_name, rank, **runtime);
}

int contiguous(const char* function, remora_segment_t segment, int target, size_t offset,
               const void* buffer, const char* buffer_name, size_t bytes, Runtime** runtime) {
  if (int status = enter_access(function, segment, target, runtime)) return status;
  if (bytes > 0)
    if (int status = check_pointer(function, buffer_name, buffer)) return status;
  return check_range(function, segment, target, offset, bytes);
}

// Builds and checks the shape of a strided access (ARMCI convention).
int strided(const char* function, remora_segment_t segment, int target, size_t offset,
            const size_t* target_stride, const void* buffer, const char* buffer_name,
            const size_t* local_stride, const size_t* count, int levels,
            remora::transport::StridedShape* shape, Runtime** runtime) {
  if (int status = enter_access(function, segment, target, runtime)) return status;
  if (levels < 0 || levels > REMORA_MAX_STRIDE_LEVELS)
    return remora::fail(REMORA_ERR_ARG, "%s: stride_levels=%d is outside [0, %d]", function, levels,
                        REMORA_MAX_STRIDE_LEVELS);
  if (int status = check_pointer(function, "count", count)) return status;
  if (levels > 0) {
    if (int status = check_pointer(function, "target_stride", target_stride)) return status;
    if (int status = check_pointer(function, "local_stride", local_stride)) return status;
  }
  shape->levels = levels;
  size_t extent = count[0];  // bytes spanned at the target
  for (int i = 0; i <= levels; ++i) {
    shape->count[i] = count[i];
    if (i > 0) {
      shape->local_stride[i - 1] = local_stride[i - 1];
      shape->remote_stride[i - 1] = target_stride[i - 1];
      if (count[i] == 0) continue;
      if (target_stride[i - 1] != 0 && count[i] - 1 > (SIZE_MAX - extent) / target_stride[i - 1])
        return remora::fail(REMORA_ERR_RANGE, "%s: the strided shape overflows size_t", function);
      extent += (count[i] - 1) * target_stride[i - 1];
    }
  }
  if (shape->total_bytes() == 0) return REMORA_SUCCESS;
  if (int status = check_pointer(function, buffer_name, buffer)) return status;
  return check_range(function, segment, target, offset, extent);
}

int atomic(const char* function, remora_segment_t segment, int target, size_t offset,
           remora::transport::AtomicOp op, int64_t operand, int64_t compare, int64_t* old) {
  Runtime* runtime = nullptr;
  if (int status = enter_access(function, segment, target, &runtime)) return status;
  if (offset % 8 != 0)
    return remora::fail(REMORA_ERR_ALIGN, "%s: offset=%zu is not a multiple of 8", function,
                        offset);
  if (int status = check_range(function, segment, target, offset, 8)) return status;
  uint64_t previous = 0;
  const int status = runtime->transport->atomic(*segment->segment, target, offset, op,
                                                static_cast<uint64_t>(operand),
                                                static_cast<uint64_t>(compare), &previous);
  if (status == REMORA_SUCCESS && old != nullptr) *old = static_cast<int64_t>(previous);
  return status;
}

}  // namespace

extern "C" {

int remora_segment_allocate(size_t bytes, remora_segment_t* segment) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter("remora_segment_allocate", &runtime)) return status;
  if (int status = check_pointer("remora_segment_allocate", "segment", segment)) return status;
  if (int status = remora::api::check_not_in_handler("remora_segment_allocate")) return status;
  if (int status = remora::api::check_single_threaded("remora_segment_allocate")) return status;
  if (bytes > SIZE_MAX / 2)
    return remora::fail(REMORA_ERR_ARG,
                        "remora_segment_allocate: bytes=%zu is too large (a negative value "
                        "converted to size_t?)",
                        bytes);
  remora::transport::Segment* allocated = nullptr;
  if (int status = runtime->transport->allocate_segment(bytes, &allocated)) return status;
  auto* handle = new remora_segment_s{allocated};
  runtime->segments.insert(handle);
  *segment = handle;
  return REMORA_SUCCESS;
}

int remora_segment_free(remora_segment_t* segment) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter("remora_segment_free", &runtime)) return status;
  if (int status = check_pointer("remora_segment_free", "segment", segment)) return status;
  if (int status = check_segment("remora_segment_free", *segment, *runtime)) return status;
  if (int status = remora::api::check_not_in_handler("remora_segment_free")) return status;
  if (int status = remora::api::check_single_threaded("remora_segment_free")) return status;
  runtime->segments.erase(*segment);
  runtime->last_segment.store(nullptr, std::memory_order_relaxed);  // single-threaded here
  const int status = runtime->transport->free_segment((*segment)->segment);
  delete *segment;
  *segment = nullptr;
  return status;
}

int remora_segment_size(remora_segment_t segment, int rank, size_t* bytes) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter_access("remora_segment_size", segment, rank, &runtime, "rank"))
    return status;
  if (int status = check_pointer("remora_segment_size", "bytes", bytes)) return status;
  *bytes = segment->segment->bytes[static_cast<size_t>(rank)];
  return REMORA_SUCCESS;
}

int remora_segment_pointer(remora_segment_t segment, int rank, void** pointer) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter_access("remora_segment_pointer", segment, rank, &runtime, "rank"))
    return status;
  if (int status = check_pointer("remora_segment_pointer", "pointer", pointer)) return status;
  void* address = runtime->transport->address(*segment->segment, rank);
  if (address == nullptr)
    return remora::fail(REMORA_ERR_UNSUPPORTED,
                        "remora_segment_pointer: rank=%d's memory is not mapped on this node",
                        rank);
  *pointer = address;
  return REMORA_SUCCESS;
}

int remora_put(remora_segment_t segment, int target, size_t offset, const void* source,
               size_t bytes) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status =
          contiguous("remora_put", segment, target, offset, source, "source", bytes, &runtime))
    return status;
  return runtime->transport->put(*segment->segment, target, offset, source, bytes);
}

int remora_get(remora_segment_t segment, int target, size_t offset, void* destination,
               size_t bytes) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = contiguous("remora_get", segment, target, offset, destination, "destination",
                              bytes, &runtime))
    return status;
  return runtime->transport->get(*segment->segment, target, offset, destination, bytes);
}

int remora_put_strided(remora_segment_t segment, int target, size_t offset,
                       const size_t* target_stride, const void* source, const size_t* local_stride,
                       const size_t* count, int stride_levels) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  remora::transport::StridedShape shape;
  if (int status = strided("remora_put_strided", segment, target, offset, target_stride, source,
                           "source", local_stride, count, stride_levels, &shape, &runtime))
    return status;
  if (shape.total_bytes() == 0) return REMORA_SUCCESS;
  return runtime->transport->put_strided(*segment->segment, target, offset, source, shape);
}

int remora_get_strided(remora_segment_t segment, int target, size_t offset,
                       const size_t* target_stride, void* destination, const size_t* local_stride,
                       const size_t* count, int stride_levels) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  remora::transport::StridedShape shape;
  if (int status =
          strided("remora_get_strided", segment, target, offset, target_stride, destination,
                  "destination", local_stride, count, stride_levels, &shape, &runtime))
    return status;
  if (shape.total_bytes() == 0) return REMORA_SUCCESS;
  return runtime->transport->get_strided(*segment->segment, target, offset, destination, shape);
}

int remora_flush(remora_segment_t segment, int target) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter_access("remora_flush", segment, target, &runtime)) return status;
  return runtime->transport->flush(target);
}

int remora_flush_all(remora_segment_t segment) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter("remora_flush_all", &runtime)) return status;
  if (int status = check_segment("remora_flush_all", segment, *runtime)) return status;
  return runtime->transport->flush_all();
}

int remora_fetch_add(remora_segment_t segment, int target, size_t offset, int64_t value,
                     int64_t* old) {
  REMORA_API_ENTRY();
  return atomic("remora_fetch_add", segment, target, offset, remora::transport::AtomicOp::FetchAdd,
                value, 0, old);
}

int remora_swap(remora_segment_t segment, int target, size_t offset, int64_t value, int64_t* old) {
  REMORA_API_ENTRY();
  return atomic("remora_swap", segment, target, offset, remora::transport::AtomicOp::Swap, value, 0,
                old);
}

int remora_compare_swap(remora_segment_t segment, int target, size_t offset, int64_t expected,
                        int64_t desired, int64_t* old) {
  REMORA_API_ENTRY();
  return atomic("remora_compare_swap", segment, target, offset,
                remora::transport::AtomicOp::CompareSwap, desired, expected, old);
}

}  // extern "C"
