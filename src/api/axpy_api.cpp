// C API: AXPY batch mode (remora/array.h). Validates every argument, then hands over to
// arrays::AxpyBatch.
#include "api/array_checks.hpp"
#include "api/runtime.hpp"
#include "arrays/axpy_batch.hpp"
#include "core/error.hpp"
#include "remora/array.h"

using remora::fail;
using remora::api::check_pointer;
using remora::api::Runtime;
using remora::arrays::AxpyBatch;

namespace {

int find_batch(const char* function, remora_axpy_t handle, AxpyBatch** batch) {
  Runtime* runtime = nullptr;
  if (int status = remora::api::enter(function, &runtime)) return status;
  if (handle == nullptr || runtime->array_handles.axpy_batches.count(handle) == 0)
    return fail(REMORA_ERR_ARG,
                "%s: batch=%p is not an attached batch (detached, or never attached)", function,
                static_cast<void*>(handle));
  *batch = static_cast<AxpyBatch*>(handle);
  return REMORA_SUCCESS;
}

}  // namespace

int remora::api::attached_batches(const Runtime& runtime, const remora::arrays::Array* a) {
  int count = 0;
  for (remora_axpy_s* handle : runtime.array_handles.axpy_batches)
    if (&static_cast<AxpyBatch*>(handle)->array() == a) ++count;
  return count;
}

extern "C" {

int remora_axpy_attach(remora_array_t a, remora_axpy_detach_t detach, remora_axpy_t* batch) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_axpy_attach";
  Runtime* runtime = nullptr;
  if (int status = remora::api::enter(function, &runtime)) return status;
  if (int status = remora::api::check_not_in_handler(function)) return status;
  remora_distribution_kind_t kind;
  if (int status = remora_array_kind(a, &kind)) return status;  // checks a
  remora::arrays::Array* array = nullptr;  // and refuses byte arrays: AXPY adds elements
  if (int status = remora::api::find_array(function, "a", a, &array)) return status;
  if (detach != REMORA_AXPY_DETACH_EOM && detach != REMORA_AXPY_DETACH_NBX)
    return fail(REMORA_ERR_ARG,
                "%s: detach=%d is neither REMORA_AXPY_DETACH_EOM nor REMORA_AXPY_DETACH_NBX",
                function, static_cast<int>(detach));
  if (int status = check_pointer(function, "batch", batch)) return status;
  int ranks = 0;
  remora_array_ranks(a, &ranks, nullptr);
  if (ranks != runtime->transport->size())
    return fail(REMORA_ERR_UNSUPPORTED,
                "%s: a lives on a sub-communicator (%d of %d ranks); AXPY batches need an array "
                "of every rank",
                function, ranks, runtime->transport->size());
  AxpyBatch* created = nullptr;
  if (int status = AxpyBatch::attach(*runtime->transport, *array, detach, &created)) return status;
  runtime->array_handles.axpy_batches.insert(created);
  *batch = created;
  return REMORA_SUCCESS;
}

int remora_axpy(remora_axpy_t batch, remora_axpy_direction_t direction, const void* alpha,
                void* buffer, const int64_t* ld, const int64_t* lo, const int64_t* hi) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_axpy";
  AxpyBatch* b = nullptr;
  if (int status = find_batch(function, batch, &b)) return status;
  if (direction != REMORA_AXPY_LOCAL_TO_GLOBAL && direction != REMORA_AXPY_GLOBAL_TO_LOCAL)
    return fail(REMORA_ERR_ARG,
                "%s: direction=%d is neither REMORA_AXPY_LOCAL_TO_GLOBAL nor "
                "REMORA_AXPY_GLOBAL_TO_LOCAL",
                function, static_cast<int>(direction));
  if (int status = check_pointer(function, "alpha", alpha)) return status;
  if (int status = remora::api::check_transfer(function, b->array(), lo, hi, buffer, ld))
    return status;
  return b->axpy(direction, alpha, buffer, ld, lo, hi);
}

int remora_axpy_detach(remora_axpy_t* batch) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_axpy_detach";
  if (int status = check_pointer(function, "batch", batch)) return status;
  AxpyBatch* b = nullptr;
  if (int status = find_batch(function, *batch, &b)) return status;
  if (int status = remora::api::check_not_in_handler(function)) return status;
  const int status = b->detach();
  remora::api::current_runtime().array_handles.axpy_batches.erase(b);
  delete b;
  *batch = nullptr;
  return status;
}

}  // extern "C"
