// C API: layouts (remora/layout.h) and the layout-taking window operations (remora/win.h).
// Layouts are local objects, usable before remora_init; live handles are kept in a set so that
// stale ones are reported instead of dereferenced. The operations walk the runs that are
// contiguous in both layouts and issue the contiguous operation for each (rma/layout.hpp).
#include <memory>
#include <mutex>
#include <type_traits>
#include <unordered_set>

#include "api/win_checks.hpp"
#include "core/error.hpp"
#include "remora/layout.h"
#include "rma/layout.hpp"
#include "rma/reduce_op.hpp"

using remora::fail;
using remora::rma::Layout;
using remora::rma::MatchedRun;
using remora::rma::Window;

struct remora_layout_s {
  Layout layout;
};

namespace {

std::mutex live_mutex;
std::unordered_set<const remora_layout_s*> live_layouts;

template <typename Make>
int make_layout(const char* function, remora_layout_t* out, const Make& make) {
  if (out == nullptr) return fail(REMORA_ERR_ARG, "%s: layout is NULL", function);
  auto handle = std::make_unique<remora_layout_s>();
  if (int status = make(&handle->layout)) return status;
  std::lock_guard lock(live_mutex);
  live_layouts.insert(handle.get());
  *out = handle.release();
  return REMORA_SUCCESS;
}

int find_layout(const char* function, const char* name, remora_layout_t handle,
                const Layout** layout) {
  if (handle == nullptr) return fail(REMORA_ERR_ARG, "%s: %s is NULL", function, name);
  std::lock_guard lock(live_mutex);
  if (live_layouts.count(handle) == 0)
    return fail(REMORA_ERR_ARG, "%s: %s=%p is not a live layout (freed, or never created)",
                function, name, static_cast<void*>(handle));
  *layout = &handle->layout;
  return REMORA_SUCCESS;
}

// Remora is initialized (reported first, as by every window call), both layouts are live and
// they touch the same number of elements.
int find_pair(const char* function, remora_layout_t origin_handle, const char* origin_name,
              remora_layout_t target_handle, const Layout** origin, const Layout** target) {
  remora::api::Runtime* runtime = nullptr;
  if (int status = remora::api::enter(function, &runtime)) return status;
  if (int status = find_layout(function, origin_name, origin_handle, origin)) return status;
  if (int status = find_layout(function, "target_layout", target_handle, target)) return status;
  if ((*origin)->elements() != (*target)->elements())
    return fail(REMORA_ERR_ARG,
                "%s: %s has %zu elements but target_layout has %zu (they must be equal)", function,
                origin_name, (*origin)->elements(), (*target)->elements());
  return REMORA_SUCCESS;
}

// Put (Buffer = const void) and get (Buffer = void): one contiguous transfer per matched run.
template <typename Buffer>
int transfer(const char* function, remora_win_t win, int target, size_t disp, Buffer* buffer,
             remora_layout_t buffer_handle, remora_layout_t target_handle, remora_datatype_t type) {
  constexpr bool is_put = std::is_const_v<Buffer>;
  const char* buffer_name = is_put ? "origin" : "result";
  const char* layout_name = is_put ? "origin_layout" : "result_layout";
  const Layout *local = nullptr, *remote = nullptr;
  if (int status = find_pair(function, buffer_handle, layout_name, target_handle, &local, &remote))
    return status;
  Window* window = nullptr;
  uint64_t offset = 0;
  size_t bytes = 0;
  if (int status =
          remora::api::win_prepare_transfer(function, win, target, disp, remote->extent(), type,
                                            buffer, buffer_name, &window, &offset, &bytes))
    return status;
  const size_t element = remora::rma::datatype_size(type);
  using Byte = std::conditional_t<is_put, const unsigned char, unsigned char>;
  auto* base = static_cast<Byte*>(buffer);
  return remora::rma::matched_runs(*local, *remote, [&](const MatchedRun& run) {
    Byte* data = base + run.origin * element;
    const uint64_t at = offset + run.target * element;
    if constexpr (is_put)
      return window->put(function, target, at, data, run.count * element);
    else
      return window->get(function, target, at, data, run.count * element);
  });
}

// Accumulate (result NULL) and get_accumulate: one contiguous accumulate per matched run.
int accumulate(const char* function, remora_win_t win, int target, size_t disp, const void* origin,
               void* result, bool wants_result, remora_layout_t origin_handle,
               remora_layout_t target_handle, remora_datatype_t type, remora_op_t op,
               const void* alpha) {
  const Layout *local = nullptr, *remote = nullptr;
  if (int status =
          find_pair(function, origin_handle, "origin_layout", target_handle, &local, &remote))
    return status;
  Window* window = nullptr;
  remora::rma::AccArgs args;
  if (int status = remora::api::win_prepare_accumulate(
          function, win, target, disp, origin, remote->extent(), type, op, alpha, &window, &args))
    return status;
  if (wants_result && remote->elements() > 0)
    if (int status = remora::api::check_pointer(function, "result", result)) return status;
  const size_t element = remora::rma::datatype_size(type);
  const uint64_t offset = args.offset;
  return remora::rma::matched_runs(*local, *remote, [&](const MatchedRun& run) {
    remora::rma::AccArgs piece = args;
    piece.offset = offset + run.target * element;
    if (origin != nullptr)
      piece.origin = static_cast<const unsigned char*>(origin) + run.origin * element;
    if (result != nullptr)
      piece.result = static_cast<unsigned char*>(result) + run.origin * element;
    piece.count = run.count;
    return window->accumulate(function, piece);
  });
}

}  // namespace

extern "C" {

int remora_layout_contiguous(size_t count, remora_layout_t* layout) {
  REMORA_API_ENTRY();
  return make_layout("remora_layout_contiguous", layout, [count](Layout* out) {
    return Layout::contiguous("remora_layout_contiguous", count, out);
  });
}

int remora_layout_vector(size_t count, size_t blocklen, size_t stride, remora_layout_t* layout) {
  REMORA_API_ENTRY();
  return make_layout("remora_layout_vector", layout, [=](Layout* out) {
    return Layout::vector("remora_layout_vector", count, blocklen, stride, out);
  });
}

int remora_layout_subarray(int ndims, const size_t* sizes, const size_t* subsizes,
                           const size_t* starts, int order, remora_layout_t* layout) {
  REMORA_API_ENTRY();
  return make_layout("remora_layout_subarray", layout, [=](Layout* out) {
    return Layout::subarray("remora_layout_subarray", ndims, sizes, subsizes, starts, order, out);
  });
}

int remora_layout_elements(remora_layout_t layout, size_t* count) {
  REMORA_API_ENTRY();
  const Layout* found = nullptr;
  if (int status = find_layout("remora_layout_elements", "layout", layout, &found)) return status;
  if (count == nullptr) return fail(REMORA_ERR_ARG, "remora_layout_elements: count is NULL");
  *count = found->elements();
  return REMORA_SUCCESS;
}

int remora_layout_extent(remora_layout_t layout, size_t* extent) {
  REMORA_API_ENTRY();
  const Layout* found = nullptr;
  if (int status = find_layout("remora_layout_extent", "layout", layout, &found)) return status;
  if (extent == nullptr) return fail(REMORA_ERR_ARG, "remora_layout_extent: extent is NULL");
  *extent = found->extent();
  return REMORA_SUCCESS;
}

int remora_layout_free(remora_layout_t* layout) {
  REMORA_API_ENTRY();
  const Layout* found = nullptr;
  if (layout == nullptr) return fail(REMORA_ERR_ARG, "remora_layout_free: layout is NULL");
  if (int status = find_layout("remora_layout_free", "*layout", *layout, &found)) return status;
  {
    std::lock_guard lock(live_mutex);
    live_layouts.erase(*layout);
  }
  delete *layout;
  *layout = nullptr;
  return REMORA_SUCCESS;
}

int remora_win_put_layout(remora_win_t win, int target, size_t disp, const void* origin,
                          remora_layout_t origin_layout, remora_layout_t target_layout,
                          remora_datatype_t type) {
  REMORA_API_ENTRY();
  return transfer("remora_win_put_layout", win, target, disp, origin, origin_layout, target_layout,
                  type);
}

int remora_win_get_layout(remora_win_t win, int target, size_t disp, void* result,
                          remora_layout_t result_layout, remora_layout_t target_layout,
                          remora_datatype_t type) {
  REMORA_API_ENTRY();
  return transfer("remora_win_get_layout", win, target, disp, result, result_layout, target_layout,
                  type);
}

int remora_win_accumulate_layout(remora_win_t win, int target, size_t disp, const void* origin,
                                 remora_layout_t origin_layout, remora_layout_t target_layout,
                                 remora_datatype_t type, remora_op_t op, const void* alpha) {
  REMORA_API_ENTRY();
  return accumulate("remora_win_accumulate_layout", win, target, disp, origin, nullptr, false,
                    origin_layout, target_layout, type, op, alpha);
}

int remora_win_get_accumulate_layout(remora_win_t win, int target, size_t disp, const void* origin,
                                     void* result, remora_layout_t origin_layout,
                                     remora_layout_t target_layout, remora_datatype_t type,
                                     remora_op_t op, const void* alpha) {
  REMORA_API_ENTRY();
  return accumulate("remora_win_get_accumulate_layout", win, target, disp, origin, result, true,
                    origin_layout, target_layout, type, op, alpha);
}

// Request forms: the blocking layout operation inside a passive-target epoch, then a request
// (complete when made, as for rput and friends: every piece has completed locally).
int remora_win_rput_layout(remora_win_t win, int target, size_t disp, const void* origin,
                           remora_layout_t origin_layout, remora_layout_t target_layout,
                           remora_datatype_t type, remora_request_t* request) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_win_rput_layout";
  return remora::api::win_request_on(function, win, target, request, [&] {
    return transfer(function, win, target, disp, origin, origin_layout, target_layout, type);
  });
}

int remora_win_rget_layout(remora_win_t win, int target, size_t disp, void* result,
                           remora_layout_t result_layout, remora_layout_t target_layout,
                           remora_datatype_t type, remora_request_t* request) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_win_rget_layout";
  return remora::api::win_request_on(function, win, target, request, [&] {
    return transfer(function, win, target, disp, result, result_layout, target_layout, type);
  });
}

int remora_win_raccumulate_layout(remora_win_t win, int target, size_t disp, const void* origin,
                                  remora_layout_t origin_layout, remora_layout_t target_layout,
                                  remora_datatype_t type, remora_op_t op, const void* alpha,
                                  remora_request_t* request) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_win_raccumulate_layout";
  return remora::api::win_request_on(function, win, target, request, [&] {
    return accumulate(function, win, target, disp, origin, nullptr, false, origin_layout,
                      target_layout, type, op, alpha);
  });
}

int remora_win_rget_accumulate_layout(remora_win_t win, int target, size_t disp, const void* origin,
                                      void* result, remora_layout_t origin_layout,
                                      remora_layout_t target_layout, remora_datatype_t type,
                                      remora_op_t op, const void* alpha,
                                      remora_request_t* request) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_win_rget_accumulate_layout";
  return remora::api::win_request_on(function, win, target, request, [&] {
    return accumulate(function, win, target, disp, origin, result, true, origin_layout,
                      target_layout, type, op, alpha);
  });
}

}  // extern "C"
