// C API: distributed arrays (remora/array.h), patch and element transfers, blocking and
// nonblocking, their completion, direct access and the atomic counter. Validates every argument,
// then hands over to the arrays layer, which trusts them.
#include <cinttypes>
#include <memory>

#include "api/array_checks.hpp"
#include "api/runtime.hpp"
#include "arrays/array.hpp"
#include "arrays/collective_ops.hpp"
#include "arrays/element_types.hpp"
#include "arrays/request.hpp"
#include "arrays/sync_tracker.hpp"
#include "core/error.hpp"
#include "progress/poll_pacing.hpp"
#include "remora/array.h"

using remora::fail;
using remora::api::check_alpha;
using remora::api::check_patch;
using remora::api::check_pointer;
using remora::api::check_transfer;
using remora::api::current_runtime;
using remora::api::enter;
using remora::api::enter_collective;
using remora::api::find_array;
using remora::api::Runtime;
using remora::api::type_name;
using remora::arrays::Array;
using remora::arrays::NbOperation;
using remora::arrays::Request;

namespace {

// Every subscript of an element list lies inside a.
int check_subscripts(const char* function, const Array& a, const void* values,
                     const int64_t* subscripts, size_t n) {
  if (n == 0) return REMORA_SUCCESS;
  if (int status = check_pointer(function, "values", values)) return status;
  if (int status = check_pointer(function, "subscripts", subscripts)) return status;
  const size_t ndim = static_cast<size_t>(a.ndim());
  for (size_t k = 0; k < n; ++k)
    for (size_t d = 0; d < ndim; ++d) {
      const int64_t i = subscripts[k * ndim + d];
      if (i < 0 || i >= a.dist().dims()[d])
        return fail(REMORA_ERR_RANGE,
                    "%s: subscripts[%zu]=%" PRId64
                    " (element %zu, dimension %zu) lies outside "
                    "array '%s' [0, %" PRId64 ")",
                    function, k * ndim + d, i, k, d, a.name().c_str(), a.dist().dims()[d]);
    }
  return REMORA_SUCCESS;
}

int find_request(const char* function, remora_array_request_t* handle, Request** request) {
  Runtime* runtime = nullptr;
  if (int status = enter(function, &runtime)) return status;
  if (int status = check_pointer(function, "request", handle)) return status;
  *request = current_runtime().array_handles.requests.find(*handle);
  if (*request == nullptr)
    return fail(REMORA_ERR_ARG,
                "%s: *request=%p is not a live array request (completed already, or never "
                "issued)",
                function, static_cast<void*>(*handle));
  return REMORA_SUCCESS;
}

// Validates a patch transfer (alpha too when acc) and finds its array.
int find_transfer(const char* function, remora_array_t a, const int64_t* lo, const int64_t* hi,
                  const void* buffer, const int64_t* ld, bool acc, const void* alpha,
                  Array** array) {
  if (int status = find_array(function, "a", a, array,
                              acc ? remora::api::ArrayUse::Compute : remora::api::ArrayUse::Move))
    return status;
  if (int status = check_transfer(function, **array, lo, hi, buffer, ld)) return status;
  return acc ? check_alpha(function, alpha) : REMORA_SUCCESS;
}

// The blocking transfers, named by the entry point that calls them.
int put(const char* function, remora_array_t a, const int64_t* lo, const int64_t* hi,
        const void* buffer, const int64_t* ld) {
  Array* array = nullptr;
  if (int status = find_transfer(function, a, lo, hi, buffer, ld, false, nullptr, &array))
    return status;
  return array->put(lo, hi, buffer, ld);
}

int get(const char* function, remora_array_t a, const int64_t* lo, const int64_t* hi, void* buffer,
        const int64_t* ld) {
  Array* array = nullptr;
  if (int status = find_transfer(function, a, lo, hi, buffer, ld, false, nullptr, &array))
    return status;
  return array->get(lo, hi, buffer, ld);
}

int acc(const char* function, remora_array_t a, const int64_t* lo, const int64_t* hi,
        const void* buffer, const int64_t* ld, const void* alpha) {
  Array* array = nullptr;
  if (int status = find_transfer(function, a, lo, hi, buffer, ld, true, alpha, &array))
    return status;
  return array->acc(lo, hi, buffer, ld, alpha);
}

// The nonblocking transfers: validated like the blocking ones, then queued (nonblocking.hpp).
int issue(const char* function, NbOperation::Kind kind, remora_array_t a, const int64_t* lo,
          const int64_t* hi, const void* buffer, const int64_t* ld, const void* alpha,
          remora_array_request_t* request) {
  if (int status = check_pointer(function, "request", request)) return status;
  Array* array = nullptr;
  if (int status = find_transfer(function, a, lo, hi, buffer, ld, kind == NbOperation::Kind::Acc,
                                 alpha, &array))
    return status;
  std::shared_ptr<NbOperation> op;
  if (int status = array->issue(kind, lo, hi, const_cast<void*>(buffer), ld, alpha, &op))
    return status;
  *request = current_runtime().array_handles.requests.add(std::move(op));
  return REMORA_SUCCESS;
}

// Frees a completed request and returns its operation's status.
int retire(Request* r, remora_array_request_t* request) {
  const int status = r->status();
  current_runtime().array_handles.requests.remove(r);
  *request = REMORA_ARRAY_REQUEST_NULL;
  return status;
}

}  // namespace

extern "C" {

int remora_array_put(remora_array_t a, const int64_t* lo, const int64_t* hi, const void* buffer,
                     const int64_t* ld) {
  REMORA_API_ENTRY();
  return put("remora_array_put", a, lo, hi, buffer, ld);
}

int remora_array_get(remora_array_t a, const int64_t* lo, const int64_t* hi, void* buffer,
                     const int64_t* ld) {
  REMORA_API_ENTRY();
  return get("remora_array_get", a, lo, hi, buffer, ld);
}

int remora_array_acc(remora_array_t a, const int64_t* lo, const int64_t* hi, const void* buffer,
                     const int64_t* ld, const void* alpha) {
  REMORA_API_ENTRY();
  return acc("remora_array_acc", a, lo, hi, buffer, ld, alpha);
}

int remora_array_nbput(remora_array_t a, const int64_t* lo, const int64_t* hi, const void* buffer,
                       const int64_t* ld, remora_array_request_t* request) {
  REMORA_API_ENTRY();
  return issue("remora_array_nbput", NbOperation::Kind::Put, a, lo, hi, buffer, ld, nullptr,
               request);
}

int remora_array_nbget(remora_array_t a, const int64_t* lo, const int64_t* hi, void* buffer,
                       const int64_t* ld, remora_array_request_t* request) {
  REMORA_API_ENTRY();
  return issue("remora_array_nbget", NbOperation::Kind::Get, a, lo, hi, buffer, ld, nullptr,
               request);
}

int remora_array_nbacc(remora_array_t a, const int64_t* lo, const int64_t* hi, const void* buffer,
                       const int64_t* ld, const void* alpha, remora_array_request_t* request) {
  REMORA_API_ENTRY();
  return issue("remora_array_nbacc", NbOperation::Kind::Acc, a, lo, hi, buffer, ld, alpha, request);
}

int remora_array_wait(remora_array_request_t* request) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_wait";
  Runtime* runtime = nullptr;
  if (int status = enter(function, &runtime)) return status;
  if (int status = check_pointer(function, "request", request)) return status;
  if (*request == REMORA_ARRAY_REQUEST_NULL) return REMORA_SUCCESS;  // waited already
  Request* r = nullptr;
  if (int status = find_request(function, request, &r)) return status;
  if (int status = remora::arrays::nb_queue().wait(*runtime->transport, [r] { return r->done(); }))
    return status;
  return retire(r, request);
}

int remora_array_test(remora_array_request_t* request, int* done) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_test";
  Runtime* runtime = nullptr;
  if (int status = enter(function, &runtime)) return status;
  if (int status = check_pointer(function, "request", request)) return status;
  if (int status = check_pointer(function, "done", done)) return status;
  *done = 1;
  if (*request == REMORA_ARRAY_REQUEST_NULL) return REMORA_SUCCESS;
  Request* r = nullptr;
  if (int status = find_request(function, request, &r)) return status;
  remora::progress::PacedTestCall call;
  // One step of progress: the oldest queued operation, else arrived messages.
  bool progressed = r->done() || remora::arrays::nb_queue().run_one();
  if (!progressed) progressed = runtime->transport->poll();
  call.finish(*runtime->transport, progressed || r->done(), [r] { return r->done(); });
  if (!r->done()) {
    *done = 0;
    return REMORA_SUCCESS;
  }
  return retire(r, request);
}

int remora_array_flush(remora_array_t a) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status = find_array("remora_array_flush", "a", a, &array, remora::api::ArrayUse::Move))
    return status;
  return array->flush();
}

int remora_array_flush_local(remora_array_t a) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status =
          find_array("remora_array_flush_local", "a", a, &array, remora::api::ArrayUse::Move))
    return status;
  return array->complete_issued();
}

int remora_array_pending(remora_array_t a, int64_t* count) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status = find_array("remora_array_pending", "a", a, &array, remora::api::ArrayUse::Move))
    return status;
  if (int status = check_pointer("remora_array_pending", "count", count)) return status;
  *count = array->issued();
  return REMORA_SUCCESS;
}

int remora_array_sync(void) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter_collective("remora_array_sync", &runtime)) return status;
  return remora::arrays::sync_all(remora::api::array_context(*runtime));
}

int remora_array_sync_comm(remora_comm_t comm) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_sync_comm";
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  int size = 0;
  if (comm == REMORA_COMM_NULL || remora_comm_size(comm, &size) != REMORA_SUCCESS)
    return fail(REMORA_ERR_ARG, "%s: comm=%p is not a live communicator", function,
                static_cast<void*>(comm));
  if (int status = remora::arrays::sync_tracker().flush_dirty()) return status;
  return remora_comm_barrier(comm, REMORA_COLL_AUTO);
}

int remora_array_access(remora_array_t a, const int64_t* lo, const int64_t* hi, void** pointer,
                        int64_t* ld) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_access";
  Array* array = nullptr;
  if (int status = find_array(function, "a", a, &array, remora::api::ArrayUse::Move)) return status;
  if (int status = check_patch(function, *array, lo, hi)) return status;
  if (int status = check_pointer(function, "pointer", pointer)) return status;
  if (array->ndim() > 1)
    if (int status = check_pointer(function, "ld", ld)) return status;
  return array->access(lo, hi, pointer, ld);
}

int remora_array_release(remora_array_t a, void* pointer) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status = find_array("remora_array_release", "a", a, &array, remora::api::ArrayUse::Move))
    return status;
  return array->release("remora_array_release", pointer, false);
}

int remora_array_release_update(remora_array_t a, void* pointer) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status =
          find_array("remora_array_release_update", "a", a, &array, remora::api::ArrayUse::Move))
    return status;
  return array->release("remora_array_release_update", pointer, true);
}

int remora_array_scatter(remora_array_t a, const void* values, const int64_t* subscripts,
                         size_t n) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status = find_array("remora_array_scatter", "a", a, &array, remora::api::ArrayUse::Move))
    return status;
  if (int status = check_subscripts("remora_array_scatter", *array, values, subscripts, n))
    return status;
  return array->scatter(values, subscripts, n);
}

int remora_array_gather(remora_array_t a, void* values, const int64_t* subscripts, size_t n) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status = find_array("remora_array_gather", "a", a, &array, remora::api::ArrayUse::Move))
    return status;
  if (int status = check_subscripts("remora_array_gather", *array, values, subscripts, n))
    return status;
  return array->gather(values, subscripts, n);
}

int remora_array_scatter_acc(remora_array_t a, const void* values, const int64_t* subscripts,
                             size_t n, const void* alpha) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status = find_array("remora_array_scatter_acc", "a", a, &array)) return status;
  if (int status = check_subscripts("remora_array_scatter_acc", *array, values, subscripts, n))
    return status;
  if (int status = check_alpha("remora_array_scatter_acc", alpha)) return status;
  return array->scatter_acc(values, subscripts, n, alpha);
}

int remora_array_read_inc(remora_array_t a, const int64_t* subscript, int64_t inc, int64_t* old) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_read_inc";
  Array* array = nullptr;
  if (int status = find_array(function, "a", a, &array)) return status;
  if (!remora::arrays::is_integer_type(array->type()))
    return fail(REMORA_ERR_ARG,
                "%s: a ('%s') has type REMORA_%s; read_inc needs REMORA_INT32 or REMORA_INT64",
                function, array->name().c_str(), type_name(array->type()));
  if (int status = check_pointer(function, "subscript", subscript)) return status;
  if (array->type() == REMORA_INT32 && (inc < INT32_MIN || inc > INT32_MAX))
    return fail(REMORA_ERR_ARG, "%s: inc=%" PRId64 " does not fit the REMORA_INT32 array '%s'",
                function, inc, array->name().c_str());
  if (int status = check_subscripts(function, *array, &inc, subscript, 1)) return status;
  return array->read_inc(subscript, inc, old);
}

}  // extern "C"
