// C API: distributed arrays (remora/array.h). Validates every argument, then hands over to
// the arrays layer, which trusts them.
#include <cinttypes>
#include <memory>
#include <string>
#include <unordered_set>

#include "api/array_checks.hpp"
#include "api/runtime.hpp"
#include "arrays/array.hpp"
#include "arrays/collective_ops.hpp"
#include "arrays/element_types.hpp"
#include "arrays/local_gemm.hpp"
#include "arrays/mutex_set.hpp"
#include "arrays/patch_plan.hpp"
#include "arrays/process_grid.hpp"
#include "arrays/request.hpp"
#include "arrays/summa_gemm.hpp"
#include "arrays/sync_tracker.hpp"
#include "core/error.hpp"
#include "progress/test_pacing.hpp"
#include "remora/array.h"
#include "rma/reduce_op.hpp"

using remora::fail;
using remora::api::check_patch;
using remora::api::check_pointer;
using remora::api::check_transfer;
using remora::api::enter;
using remora::api::Runtime;
using remora::arrays::Array;
using remora::arrays::Distribution;
using remora::arrays::MutexSet;
using remora::arrays::NbOperation;
using remora::arrays::Request;

namespace remora::api {

// lo..hi is a non-empty patch inside a.
int check_patch(const char* function, const Array& a, const int64_t* lo, const int64_t* hi) {
  if (int status = check_pointer(function, "lo", lo)) return status;
  if (int status = check_pointer(function, "hi", hi)) return status;
  for (int d = 0; d < a.ndim(); ++d) {
    const int64_t dim = a.dist().dims()[static_cast<size_t>(d)];
    if (lo[d] > hi[d])
      return fail(REMORA_ERR_ARG, "%s: lo[%d]=%" PRId64 " > hi[%d]=%" PRId64 " (empty patch)",
                  function, d, lo[d], d, hi[d]);
    if (lo[d] < 0)
      return fail(REMORA_ERR_RANGE,
                  "%s: lo[%d]=%" PRId64 " lies outside dimension %d of array '%s' [0, %" PRId64 ")",
                  function, d, lo[d], d, a.name().c_str(), dim);
    if (hi[d] >= dim)
      return fail(REMORA_ERR_RANGE,
                  "%s: hi[%d]=%" PRId64 " lies outside dimension %d of array '%s' [0, %" PRId64 ")",
                  function, d, hi[d], d, a.name().c_str(), dim);
  }
  return REMORA_SUCCESS;
}

// A patch with a buffer and leading dimensions.
int check_transfer(const char* function, const Array& a, const int64_t* lo, const int64_t* hi,
                   const void* buffer, const int64_t* ld) {
  if (int status = check_patch(function, a, lo, hi)) return status;
  if (int status = check_pointer(function, "buffer", buffer)) return status;
  if (a.ndim() > 1)
    if (int status = check_pointer(function, "ld", ld)) return status;
  for (int d = 0; d + 1 < a.ndim(); ++d)
    if (ld[d] < hi[d + 1] - lo[d + 1] + 1)
      return fail(REMORA_ERR_ARG,
                  "%s: ld[%d]=%" PRId64 " is less than the patch's extent %" PRId64
                  " in dimension %d",
                  function, d, ld[d], hi[d + 1] - lo[d + 1] + 1, d + 1);
  return REMORA_SUCCESS;
}

}  // namespace remora::api

namespace {

// Live handles of this process, to reject destroyed or invented ones.
std::unordered_set<remora_array_s*>& live_arrays() {
  static std::unordered_set<remora_array_s*> arrays;
  return arrays;
}
std::unordered_set<remora_mutexes_s*>& live_mutexes() {
  static std::unordered_set<remora_mutexes_s*> sets;
  return sets;
}
remora::arrays::RequestTable& requests() {
  static remora::arrays::RequestTable table;
  return table;
}

}  // namespace

namespace remora::api {

int find_array(const char* function, const char* name, remora_array_t handle, Array** array) {
  Runtime* runtime = nullptr;
  if (int status = enter(function, &runtime)) return status;
  if (handle == nullptr) return fail(REMORA_ERR_ARG, "%s: %s is NULL", function, name);
  if (live_arrays().count(handle) == 0)
    return fail(REMORA_ERR_ARG, "%s: %s=%p is not a live array (destroyed, or never created)",
                function, name, static_cast<void*>(handle));
  *array = static_cast<Array*>(handle);
  return REMORA_SUCCESS;
}

// b lives on the same ranks as a (arrays of one collective operation must).
int check_same_ranks(const char* function, const char* name, const Array& a, const Array& b) {
  if (a.same_ranks(b)) return REMORA_SUCCESS;
  return fail(REMORA_ERR_ARG,
              "%s: %s ('%s') lives on other ranks than '%s' (arrays of one operation must be "
              "created on the same ranks)",
              function, name, b.name().c_str(), a.name().c_str());
}

}  // namespace remora::api

namespace {

using remora::api::check_same_ranks;
using remora::api::find_array;

const char* type_name(int type) {
  return remora::rma::datatype_name(type);
}

// Collective entry: initialized, not inside a handler.
int enter_collective(const char* function, Runtime** runtime) {
  if (int status = enter(function, runtime)) return status;
  return remora::api::check_not_in_handler(function);
}

int check_type(const char* function, int type) {
  if (!remora::arrays::is_array_type(type))
    return fail(REMORA_ERR_ARG,
                "%s: type=%d is not an array element type (REMORA_INT32, REMORA_INT64, "
                "REMORA_FLOAT, REMORA_DOUBLE, REMORA_FLOAT_COMPLEX, REMORA_DOUBLE_COMPLEX)",
                function, type);
  return REMORA_SUCCESS;
}

int check_shape(const char* function, int ndim, const int64_t* dims, int max_ndim) {
  if (ndim < 1 || ndim > max_ndim)
    return fail(REMORA_ERR_ARG, "%s: ndim=%d must lie in [1, %d]", function, ndim, max_ndim);
  if (int status = check_pointer(function, "dims", dims)) return status;
  for (int d = 0; d < ndim; ++d)
    if (dims[d] < 1)
      return fail(REMORA_ERR_ARG, "%s: dims[%d]=%" PRId64 " must be at least 1", function, d,
                  dims[d]);
  return REMORA_SUCCESS;
}

// grid NULL: near-square; else grid[0] x grid[1] with at most `ranks` ranks.
int check_grid(const char* function, const int* grid, int ranks, std::vector<int>* out) {
  if (grid == nullptr) {
    *out = remora::arrays::near_square_grid(ranks);
    return REMORA_SUCCESS;
  }
  for (int d = 0; d < 2; ++d)
    if (grid[d] < 1)
      return fail(REMORA_ERR_ARG, "%s: grid[%d]=%d must be at least 1", function, d, grid[d]);
  if (static_cast<int64_t>(grid[0]) * grid[1] > ranks)
    return fail(REMORA_ERR_ARG, "%s: grid=%dx%d needs more ranks than the %d available", function,
                grid[0], grid[1], ranks);
  *out = {grid[0], grid[1]};
  return REMORA_SUCCESS;
}

// The communicator new arrays are created on (remora_array_set_create_comm); NULL: the world.
remora_comm_t& create_comm() {
  static remora_comm_t comm = REMORA_COMM_NULL;
  return comm;
}

// *comm: the creation communicator (checked live), *ranks: its size.
int creation_comm(const char* function, remora_comm_t* comm, int* ranks) {
  *comm = create_comm();
  if (*comm == REMORA_COMM_NULL)
    if (int status = remora_comm_world(comm)) return status;
  if (remora_comm_size(*comm, ranks) != REMORA_SUCCESS)
    return fail(REMORA_ERR_ARG,
                "%s: the creation communicator %p (remora_array_set_create_comm) is no longer "
                "live",
                function, static_cast<void*>(*comm));
  return REMORA_SUCCESS;
}

int creation_ranks(const char* function, int* ranks) {
  remora_comm_t comm = REMORA_COMM_NULL;
  return creation_comm(function, &comm, ranks);
}

// comm: REMORA_COMM_NULL for the creation communicator.
int publish(const char* function, Runtime& runtime, Distribution dist, int type, const char* name,
            remora_array_t* out, remora_comm_t comm = REMORA_COMM_NULL) {
  if (int status = check_pointer(function, "array", out)) return status;
  if (int status = remora::api::check_not_in_handler(function)) return status;
  int ranks = 0;
  if (comm == REMORA_COMM_NULL)
    if (int status = creation_comm(function, &comm, &ranks)) return status;
  Array* array = nullptr;
  if (int status = Array::create(*runtime.transport, remora::arrays::sync_tracker(),
                                 std::move(dist), type, name, comm, &array))
    return status;
  live_arrays().insert(array);
  *out = array;
  return REMORA_SUCCESS;
}

// rank is one of the array's ranks (of the communicator it was created on).
int check_array_rank(const char* function, const Array& a, int rank) {
  if (rank < 0 || rank >= a.comm_size())
    return fail(REMORA_ERR_RANK, "%s: rank=%d is outside array '%s''s ranks [0, %d)", function,
                rank, a.name().c_str(), a.comm_size());
  return REMORA_SUCCESS;
}

int check_alpha(const char* function, const void* alpha) {
  return check_pointer(function, "alpha", alpha);
}

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

// b matches a in type and shape, and lives on the same ranks.
int check_conformable(const char* function, const char* name, const Array& a, const Array& b) {
  if (int status = check_same_ranks(function, name, a, b)) return status;
  if (b.type() != a.type())
    return fail(REMORA_ERR_ARG, "%s: %s has type REMORA_%s but the first array has REMORA_%s",
                function, name, type_name(b.type()), type_name(a.type()));
  if (b.dist().dims() != a.dist().dims())
    return fail(REMORA_ERR_ARG, "%s: %s ('%s') has a different shape from '%s'", function, name,
                b.name().c_str(), a.name().c_str());
  return REMORA_SUCCESS;
}

// a and b are live arrays of one type and shape.
int find_conformable(const char* function, remora_array_t a, remora_array_t b, Array** x,
                     Array** y) {
  if (int status = find_array(function, "a", a, x)) return status;
  if (int status = find_array(function, "b", b, y)) return status;
  return check_conformable(function, "b", **x, **y);
}

int find_request(const char* function, remora_array_request_t* handle, Request** request) {
  Runtime* runtime = nullptr;
  if (int status = enter(function, &runtime)) return status;
  if (int status = check_pointer(function, "request", handle)) return status;
  *request = requests().find(*handle);
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
  if (int status = find_array(function, "a", a, array)) return status;
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
  *request = requests().add(std::move(op));
  return REMORA_SUCCESS;
}

// Frees a completed request and returns its operation's status.
int retire(Request* r, remora_array_request_t* request) {
  const int status = r->status();
  requests().remove(r);
  *request = REMORA_ARRAY_REQUEST_NULL;
  return status;
}

int find_mutex(const char* function, remora_mutexes_t handle, int index, MutexSet** set) {
  Runtime* runtime = nullptr;
  if (int status = enter(function, &runtime)) return status;
  if (handle == nullptr || live_mutexes().count(handle) == 0)
    return fail(REMORA_ERR_ARG, "%s: mutexes=%p is not a live mutex set", function,
                static_cast<void*>(handle));
  *set = static_cast<MutexSet*>(handle);
  if (index < 0 || index >= (*set)->count())
    return fail(REMORA_ERR_ARG, "%s: index=%d lies outside the set's [0, %d)", function, index,
                (*set)->count());
  return REMORA_SUCCESS;
}

}  // namespace

namespace remora::api {

int check_2d(const char* function, const char* name, const Array& a) {
  if (a.ndim() != 2)
    return fail(REMORA_ERR_ARG, "%s: %s ('%s') has %d dimensions; 2 are needed", function, name,
                a.name().c_str(), a.ndim());
  return REMORA_SUCCESS;
}

int check_trans(const char* function, const char* name, char trans, bool* transposed) {
  if (trans == 'N' || trans == 'n' || trans == 'T' || trans == 't') {
    *transposed = trans == 'T' || trans == 't';
    return REMORA_SUCCESS;
  }
  return fail(REMORA_ERR_ARG, "%s: %s='%c' (%d) must be 'N' or 'T'", function, name, trans, trans);
}

}  // namespace remora::api

using remora::api::check_2d;
using remora::api::check_trans;

extern "C" {

int remora_array_create(remora_datatype_t type, int ndim, const int64_t* dims, const char* name,
                        remora_array_t* array) {
  constexpr const char* function = "remora_array_create";
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  if (int status = check_type(function, type)) return status;
  if (int status = check_shape(function, ndim, dims, REMORA_ARRAY_MAX_DIM)) return status;
  int ranks = 0;
  if (int status = creation_ranks(function, &ranks)) return status;
  return publish(function, *runtime,
                 Distribution::block_default(std::vector<int64_t>(dims, dims + ndim), ranks), type,
                 name, array);
}

int remora_array_create_irregular(remora_datatype_t type, int ndim, const int64_t* dims,
                                  const int* nblock, const int64_t* map, const char* name,
                                  remora_array_t* array) {
  constexpr const char* function = "remora_array_create_irregular";
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  if (int status = check_type(function, type)) return status;
  if (int status = check_shape(function, ndim, dims, REMORA_ARRAY_MAX_DIM)) return status;
  if (int status = check_pointer(function, "nblock", nblock)) return status;
  if (int status = check_pointer(function, "map", map)) return status;
  std::vector<std::vector<int64_t>> starts(static_cast<size_t>(ndim));
  int64_t blocks = 1, offset = 0;
  for (int d = 0; d < ndim; ++d) {
    if (nblock[d] < 1 || nblock[d] > dims[d])
      return fail(REMORA_ERR_ARG, "%s: nblock[%d]=%d must lie in [1, dims[%d]=%" PRId64 "]",
                  function, d, nblock[d], d, dims[d]);
    blocks *= nblock[d];
    for (int k = 0; k < nblock[d]; ++k, ++offset) {
      const int64_t start = map[offset];
      const int64_t previous = k == 0 ? -1 : map[offset - 1];
      if ((k == 0 && start != 0) || (k > 0 && (start <= previous || start >= dims[d])))
        return fail(REMORA_ERR_ARG,
                    "%s: map[%" PRId64 "]=%" PRId64 " (block %d of dimension %d) must be %s",
                    function, offset, start, k, d,
                    k == 0 ? "0" : "greater than the previous start and less than dims[d]");
      starts[static_cast<size_t>(d)].push_back(start);
    }
  }
  int ranks = 0;
  if (int status = creation_ranks(function, &ranks)) return status;
  if (blocks > ranks)
    return fail(REMORA_ERR_ARG,
                "%s: nblock gives %" PRId64
                " blocks, more than the job's %d ranks (of the creation communicator)",
                function, blocks, ranks);
  return publish(function, *runtime,
                 Distribution::blocked(REMORA_DIST_IRREGULAR,
                                       std::vector<int64_t>(dims, dims + ndim), std::move(starts)),
                 type, name, array);
}

int remora_array_create_block_cyclic(remora_datatype_t type, const int64_t* dims,
                                     const int64_t* block, const int* grid, const char* name,
                                     remora_array_t* array) {
  constexpr const char* function = "remora_array_create_block_cyclic";
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  if (int status = check_type(function, type)) return status;
  if (int status = check_shape(function, 2, dims, 2)) return status;
  if (int status = check_pointer(function, "block", block)) return status;
  for (int d = 0; d < 2; ++d)
    if (block[d] < 1)
      return fail(REMORA_ERR_ARG, "%s: block[%d]=%" PRId64 " must be at least 1", function, d,
                  block[d]);
  std::vector<int> g;
  int ranks = 0;
  if (int status = creation_ranks(function, &ranks)) return status;
  if (int status = check_grid(function, grid, ranks, &g)) return status;
  return publish(
      function, *runtime,
      Distribution::cyclic(REMORA_DIST_BLOCK_CYCLIC, {dims[0], dims[1]}, {block[0], block[1]}, g),
      type, name, array);
}

int remora_array_create_element_cyclic(remora_datatype_t type, const int64_t* dims, const int* grid,
                                       const char* name, remora_array_t* array) {
  constexpr const char* function = "remora_array_create_element_cyclic";
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  if (int status = check_type(function, type)) return status;
  if (int status = check_shape(function, 2, dims, 2)) return status;
  std::vector<int> g;
  int ranks = 0;
  if (int status = creation_ranks(function, &ranks)) return status;
  if (int status = check_grid(function, grid, ranks, &g)) return status;
  return publish(function, *runtime,
                 Distribution::cyclic(REMORA_DIST_ELEMENT_CYCLIC, {dims[0], dims[1]}, {1, 1}, g),
                 type, name, array);
}

int remora_array_duplicate(remora_array_t a, const char* name, remora_array_t* array) {
  constexpr const char* function = "remora_array_duplicate";
  Array* source = nullptr;
  if (int status = find_array(function, "a", a, &source)) return status;
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  return publish(function, *runtime, source->dist(), source->type(), name, array, source->comm());
}

int remora_array_destroy(remora_array_t* array) {
  constexpr const char* function = "remora_array_destroy";
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  if (int status = check_pointer(function, "array", array)) return status;
  Array* a = nullptr;
  if (int status = find_array(function, "*array", *array, &a)) return status;
  if (int status = a->destroy()) return status;
  live_arrays().erase(a);
  delete a;
  *array = nullptr;
  return REMORA_SUCCESS;
}

int remora_array_inquire(remora_array_t a, remora_datatype_t* type, int* ndim, int64_t* dims) {
  Array* array = nullptr;
  if (int status = find_array("remora_array_inquire", "a", a, &array)) return status;
  if (type != nullptr) *type = static_cast<remora_datatype_t>(array->type());
  if (ndim != nullptr) *ndim = array->ndim();
  if (dims != nullptr)
    for (int d = 0; d < array->ndim(); ++d) dims[d] = array->dist().dims()[static_cast<size_t>(d)];
  return REMORA_SUCCESS;
}

int remora_array_kind(remora_array_t a, remora_distribution_kind_t* kind) {
  Array* array = nullptr;
  if (int status = find_array("remora_array_kind", "a", a, &array)) return status;
  if (int status = check_pointer("remora_array_kind", "kind", kind)) return status;
  *kind = array->dist().kind();
  return REMORA_SUCCESS;
}

int remora_array_proc_grid(remora_array_t a, int* grid) {
  Array* array = nullptr;
  if (int status = find_array("remora_array_proc_grid", "a", a, &array)) return status;
  if (int status = check_pointer("remora_array_proc_grid", "grid", grid)) return status;
  for (size_t d = 0; d < array->dist().grid().size(); ++d) grid[d] = array->dist().grid()[d];
  return REMORA_SUCCESS;
}

int remora_array_distribution(remora_array_t a, int rank, int64_t* lo, int64_t* hi) {
  constexpr const char* function = "remora_array_distribution";
  Array* array = nullptr;
  Runtime* runtime = nullptr;
  if (int status = find_array(function, "a", a, &array)) return status;
  if (int status = enter(function, &runtime)) return status;
  if (int status = check_array_rank(function, *array, rank)) return status;
  if (int status = check_pointer(function, "lo", lo)) return status;
  if (int status = check_pointer(function, "hi", hi)) return status;
  if (array->dist().is_cyclic())
    return fail(REMORA_ERR_UNSUPPORTED,
                "%s: a ('%s') has a cyclic distribution: what a rank owns is not a patch "
                "(use remora_array_local_shape or remora_array_locate_region)",
                function, array->name().c_str());
  array->dist().block_bounds(rank, lo, hi);
  return REMORA_SUCCESS;
}

int remora_array_local_shape(remora_array_t a, int rank, int64_t* extents) {
  constexpr const char* function = "remora_array_local_shape";
  Array* array = nullptr;
  Runtime* runtime = nullptr;
  if (int status = find_array(function, "a", a, &array)) return status;
  if (int status = enter(function, &runtime)) return status;
  if (int status = check_array_rank(function, *array, rank)) return status;
  if (int status = check_pointer(function, "extents", extents)) return status;
  for (int d = 0; d < array->ndim(); ++d) extents[d] = array->dist().local_extent(rank, d);
  return REMORA_SUCCESS;
}

int remora_array_locate_region(remora_array_t a, const int64_t* lo, const int64_t* hi, int max,
                               int* owners, int64_t* owner_lo, int64_t* owner_hi, int* count) {
  constexpr const char* function = "remora_array_locate_region";
  Array* array = nullptr;
  if (int status = find_array(function, "a", a, &array)) return status;
  if (int status = check_patch(function, *array, lo, hi)) return status;
  if (int status = check_pointer(function, "count", count)) return status;
  if (max > 0)
    if (int status = check_pointer(function, "owners", owners)) return status;
  const size_t ndim = static_cast<size_t>(array->ndim());
  int found = 0, last = -1;
  remora::arrays::for_each_tile(array->dist(), lo, hi, [&](const remora::arrays::Tile& tile) {
    if (tile.owner != last) {
      last = tile.owner;
      if (found < max) {
        owners[found] = tile.owner;
        for (size_t d = 0; d < ndim; ++d) {
          if (owner_lo != nullptr) owner_lo[static_cast<size_t>(found) * ndim + d] = INT64_MAX;
          if (owner_hi != nullptr) owner_hi[static_cast<size_t>(found) * ndim + d] = INT64_MIN;
        }
      }
      ++found;
    }
    if (found > max) return;
    // The bounding box of the owner's tiles.
    for (size_t d = 0; d < ndim; ++d) {
      const remora::arrays::Run& run = tile.runs[d];
      const size_t i = static_cast<size_t>(found - 1) * ndim + d;
      if (owner_lo != nullptr) owner_lo[i] = std::min(owner_lo[i], run.global_start);
      if (owner_hi != nullptr)
        owner_hi[i] = std::max(owner_hi[i], run.global_start + (run.length - 1) * run.step);
    }
  });
  *count = found;
  if (found > max)
    return fail(REMORA_ERR_RANGE, "%s: the patch has %d owners, more than max=%d", function, found,
                max);
  return REMORA_SUCCESS;
}

int remora_array_put(remora_array_t a, const int64_t* lo, const int64_t* hi, const void* buffer,
                     const int64_t* ld) {
  return put("remora_array_put", a, lo, hi, buffer, ld);
}

int remora_array_get(remora_array_t a, const int64_t* lo, const int64_t* hi, void* buffer,
                     const int64_t* ld) {
  return get("remora_array_get", a, lo, hi, buffer, ld);
}

int remora_array_acc(remora_array_t a, const int64_t* lo, const int64_t* hi, const void* buffer,
                     const int64_t* ld, const void* alpha) {
  return acc("remora_array_acc", a, lo, hi, buffer, ld, alpha);
}

int remora_array_nbput(remora_array_t a, const int64_t* lo, const int64_t* hi, const void* buffer,
                       const int64_t* ld, remora_array_request_t* request) {
  return issue("remora_array_nbput", NbOperation::Kind::Put, a, lo, hi, buffer, ld, nullptr,
               request);
}

int remora_array_nbget(remora_array_t a, const int64_t* lo, const int64_t* hi, void* buffer,
                       const int64_t* ld, remora_array_request_t* request) {
  return issue("remora_array_nbget", NbOperation::Kind::Get, a, lo, hi, buffer, ld, nullptr,
               request);
}

int remora_array_nbacc(remora_array_t a, const int64_t* lo, const int64_t* hi, const void* buffer,
                       const int64_t* ld, const void* alpha, remora_array_request_t* request) {
  return issue("remora_array_nbacc", NbOperation::Kind::Acc, a, lo, hi, buffer, ld, alpha, request);
}

int remora_array_wait(remora_array_request_t* request) {
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
  Array* array = nullptr;
  if (int status = find_array("remora_array_flush", "a", a, &array)) return status;
  return array->flush();
}

int remora_array_flush_local(remora_array_t a) {
  Array* array = nullptr;
  if (int status = find_array("remora_array_flush_local", "a", a, &array)) return status;
  return array->complete_issued();
}

int remora_array_pending(remora_array_t a, int64_t* count) {
  Array* array = nullptr;
  if (int status = find_array("remora_array_pending", "a", a, &array)) return status;
  if (int status = check_pointer("remora_array_pending", "count", count)) return status;
  *count = array->issued();
  return REMORA_SUCCESS;
}

int remora_array_sync(void) {
  Runtime* runtime = nullptr;
  if (int status = enter_collective("remora_array_sync", &runtime)) return status;
  return remora::arrays::sync_all();
}

int remora_array_sync_comm(remora_comm_t comm) {
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

int remora_array_set_create_comm(remora_comm_t comm) {
  constexpr const char* function = "remora_array_set_create_comm";
  Runtime* runtime = nullptr;
  if (int status = enter(function, &runtime)) return status;
  int size = 0;
  if (comm != REMORA_COMM_NULL && remora_comm_size(comm, &size) != REMORA_SUCCESS)
    return fail(REMORA_ERR_ARG, "%s: comm=%p is not a live communicator (nor REMORA_COMM_NULL)",
                function, static_cast<void*>(comm));
  create_comm() = comm;
  return REMORA_SUCCESS;
}

int remora_array_get_create_comm(remora_comm_t* comm) {
  Runtime* runtime = nullptr;
  if (int status = enter("remora_array_get_create_comm", &runtime)) return status;
  if (int status = check_pointer("remora_array_get_create_comm", "comm", comm)) return status;
  *comm = create_comm();
  return REMORA_SUCCESS;
}

int remora_array_ranks(remora_array_t a, int* size, int* rank) {
  Array* array = nullptr;
  if (int status = find_array("remora_array_ranks", "a", a, &array)) return status;
  if (size != nullptr) *size = array->comm_size();
  if (rank != nullptr) *rank = array->comm_rank();
  return REMORA_SUCCESS;
}

int remora_array_access(remora_array_t a, const int64_t* lo, const int64_t* hi, void** pointer,
                        int64_t* ld) {
  constexpr const char* function = "remora_array_access";
  Array* array = nullptr;
  if (int status = find_array(function, "a", a, &array)) return status;
  if (int status = check_patch(function, *array, lo, hi)) return status;
  if (int status = check_pointer(function, "pointer", pointer)) return status;
  if (array->ndim() > 1)
    if (int status = check_pointer(function, "ld", ld)) return status;
  return array->access(lo, hi, pointer, ld);
}

int remora_array_release(remora_array_t a, void* pointer) {
  Array* array = nullptr;
  if (int status = find_array("remora_array_release", "a", a, &array)) return status;
  return array->release("remora_array_release", pointer, false);
}

int remora_array_release_update(remora_array_t a, void* pointer) {
  Array* array = nullptr;
  if (int status = find_array("remora_array_release_update", "a", a, &array)) return status;
  return array->release("remora_array_release_update", pointer, true);
}

int remora_array_scatter(remora_array_t a, const void* values, const int64_t* subscripts,
                         size_t n) {
  Array* array = nullptr;
  if (int status = find_array("remora_array_scatter", "a", a, &array)) return status;
  if (int status = check_subscripts("remora_array_scatter", *array, values, subscripts, n))
    return status;
  return array->scatter(values, subscripts, n);
}

int remora_array_gather(remora_array_t a, void* values, const int64_t* subscripts, size_t n) {
  Array* array = nullptr;
  if (int status = find_array("remora_array_gather", "a", a, &array)) return status;
  if (int status = check_subscripts("remora_array_gather", *array, values, subscripts, n))
    return status;
  return array->gather(values, subscripts, n);
}

int remora_array_scatter_acc(remora_array_t a, const void* values, const int64_t* subscripts,
                             size_t n, const void* alpha) {
  Array* array = nullptr;
  if (int status = find_array("remora_array_scatter_acc", "a", a, &array)) return status;
  if (int status = check_subscripts("remora_array_scatter_acc", *array, values, subscripts, n))
    return status;
  if (int status = check_alpha("remora_array_scatter_acc", alpha)) return status;
  return array->scatter_acc(values, subscripts, n, alpha);
}

int remora_array_read_inc(remora_array_t a, const int64_t* subscript, int64_t inc, int64_t* old) {
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

int remora_mutexes_create(int count, remora_mutexes_t* mutexes) {
  constexpr const char* function = "remora_mutexes_create";
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  if (int status = check_pointer(function, "mutexes", mutexes)) return status;
  if (count < 1) return fail(REMORA_ERR_ARG, "%s: count=%d must be at least 1", function, count);
  MutexSet* set = nullptr;
  if (int status = MutexSet::create(count, runtime->transport->size(), &set)) return status;
  live_mutexes().insert(set);
  *mutexes = set;
  return REMORA_SUCCESS;
}

int remora_mutex_lock(remora_mutexes_t mutexes, int index) {
  MutexSet* set = nullptr;
  if (int status = find_mutex("remora_mutex_lock", mutexes, index, &set)) return status;
  if (int status = remora::api::check_not_in_handler("remora_mutex_lock")) return status;
  if (set->held(index))
    return fail(REMORA_ERR_STATE, "remora_mutex_lock: mutex index=%d is already held by this rank",
                index);
  return set->lock(index);
}

int remora_mutex_unlock(remora_mutexes_t mutexes, int index) {
  MutexSet* set = nullptr;
  if (int status = find_mutex("remora_mutex_unlock", mutexes, index, &set)) return status;
  if (!set->held(index))
    return fail(REMORA_ERR_STATE, "remora_mutex_unlock: mutex index=%d is not held by this rank",
                index);
  return set->unlock(index);
}

int remora_mutexes_destroy(remora_mutexes_t* mutexes) {
  constexpr const char* function = "remora_mutexes_destroy";
  if (int status = check_pointer(function, "mutexes", mutexes)) return status;
  MutexSet* set = nullptr;
  if (int status = find_mutex(function, *mutexes, 0, &set)) return status;
  if (int status = set->destroy()) return status;
  live_mutexes().erase(set);
  delete set;
  *mutexes = nullptr;
  return REMORA_SUCCESS;
}

int remora_array_zero(remora_array_t a) {
  Array* array = nullptr;
  if (int status = find_array("remora_array_zero", "a", a, &array)) return status;
  return remora::arrays::fill(*array, nullptr);
}

int remora_array_fill(remora_array_t a, const void* value) {
  Array* array = nullptr;
  if (int status = find_array("remora_array_fill", "a", a, &array)) return status;
  if (int status = check_pointer("remora_array_fill", "value", value)) return status;
  return remora::arrays::fill(*array, value);
}

int remora_array_scale(remora_array_t a, const void* alpha) {
  Array* array = nullptr;
  if (int status = find_array("remora_array_scale", "a", a, &array)) return status;
  if (int status = check_alpha("remora_array_scale", alpha)) return status;
  return remora::arrays::scale(*array, alpha);
}

int remora_array_copy(remora_array_t a, remora_array_t b) {
  constexpr const char* function = "remora_array_copy";
  Array *x = nullptr, *y = nullptr;
  if (int status = find_conformable(function, a, b, &x, &y)) return status;
  if (x == y) return fail(REMORA_ERR_ARG, "%s: a and b are the same array", function);
  return remora::arrays::copy(*x, *y);
}

int remora_array_add(const void* alpha, remora_array_t a, const void* beta, remora_array_t b,
                     remora_array_t c) {
  constexpr const char* function = "remora_array_add";
  Array *x = nullptr, *y = nullptr, *z = nullptr;
  if (int status = find_conformable(function, a, b, &x, &y)) return status;
  if (int status = find_array(function, "c", c, &z)) return status;
  if (int status = check_conformable(function, "c", *x, *z)) return status;
  if (int status = check_alpha(function, alpha)) return status;
  if (int status = check_pointer(function, "beta", beta)) return status;
  return remora::arrays::add(alpha, *x, beta, *y, *z);
}

int remora_array_dot(remora_array_t a, remora_array_t b, void* result) {
  constexpr const char* function = "remora_array_dot";
  Array *x = nullptr, *y = nullptr;
  if (int status = find_conformable(function, a, b, &x, &y)) return status;
  if (int status = check_pointer(function, "result", result)) return status;
  return remora::arrays::dot(*x, *y, result);
}

int remora_array_norm(remora_array_t a, double* result) {
  Array* array = nullptr;
  if (int status = find_array("remora_array_norm", "a", a, &array)) return status;
  if (int status = check_pointer("remora_array_norm", "result", result)) return status;
  return remora::arrays::norm(*array, result);
}

int remora_array_transpose(remora_array_t a, remora_array_t b) {
  constexpr const char* function = "remora_array_transpose";
  Array *x = nullptr, *y = nullptr;
  if (int status = find_array(function, "a", a, &x)) return status;
  if (int status = find_array(function, "b", b, &y)) return status;
  if (int status = check_same_ranks(function, "b", *x, *y)) return status;
  if (int status = check_2d(function, "a", *x)) return status;
  if (int status = check_2d(function, "b", *y)) return status;
  if (x == y) return fail(REMORA_ERR_ARG, "%s: a and b are the same array", function);
  if (x->type() != y->type())
    return fail(REMORA_ERR_ARG, "%s: b has type REMORA_%s but a has REMORA_%s", function,
                type_name(y->type()), type_name(x->type()));
  if (y->dist().dims()[0] != x->dist().dims()[1] || y->dist().dims()[1] != x->dist().dims()[0])
    return fail(REMORA_ERR_ARG, "%s: b ('%s') is not shaped as the transpose of a ('%s')", function,
                y->name().c_str(), x->name().c_str());
  return remora::arrays::transpose(*x, *y);
}

int remora_array_symmetrize(remora_array_t a) {
  constexpr const char* function = "remora_array_symmetrize";
  Array* array = nullptr;
  if (int status = find_array(function, "a", a, &array)) return status;
  if (int status = check_2d(function, "a", *array)) return status;
  if (array->dist().dims()[0] != array->dist().dims()[1])
    return fail(REMORA_ERR_ARG, "%s: a ('%s') is not square", function, array->name().c_str());
  if (remora::arrays::is_integer_type(array->type()))
    return fail(REMORA_ERR_ARG, "%s: a ('%s') has the integer type REMORA_%s", function,
                array->name().c_str(), type_name(array->type()));
  return remora::arrays::symmetrize(*array);
}

int remora_array_print_patch(remora_array_t a, const int64_t* lo, const int64_t* hi, FILE* stream) {
  constexpr const char* function = "remora_array_print_patch";
  Array* array = nullptr;
  if (int status = find_array(function, "a", a, &array)) return status;
  if (int status = check_patch(function, *array, lo, hi)) return status;
  if (int status = check_pointer(function, "stream", stream)) return status;
  return remora::arrays::print_patch(*array, lo, hi, stream);
}

int remora_array_gemm(char transa, char transb, const void* alpha, remora_array_t a,
                      remora_array_t b, const void* beta, remora_array_t c) {
  constexpr const char* function = "remora_array_gemm";
  bool ta = false, tb = false;
  if (int status = check_trans(function, "transa", transa, &ta)) return status;
  if (int status = check_trans(function, "transb", transb, &tb)) return status;
  Array *x = nullptr, *y = nullptr, *z = nullptr;
  if (int status = find_array(function, "a", a, &x)) return status;
  if (int status = find_array(function, "b", b, &y)) return status;
  if (int status = find_array(function, "c", c, &z)) return status;
  if (int status = check_same_ranks(function, "b", *x, *y)) return status;
  if (int status = check_same_ranks(function, "c", *x, *z)) return status;
  if (int status = check_2d(function, "a", *x)) return status;
  if (int status = check_2d(function, "b", *y)) return status;
  if (int status = check_2d(function, "c", *z)) return status;
  if (int status = check_alpha(function, alpha)) return status;
  if (int status = check_pointer(function, "beta", beta)) return status;
  if (z == x || z == y) return fail(REMORA_ERR_ARG, "%s: c must differ from a and b", function);
  for (const Array* other : {x, y})
    if (other->type() != z->type())
      return fail(REMORA_ERR_ARG, "%s: '%s' has type REMORA_%s but c has REMORA_%s", function,
                  other->name().c_str(), type_name(other->type()), type_name(z->type()));
  const auto& da = x->dist().dims();
  const auto& db = y->dist().dims();
  const auto& dc = z->dist().dims();
  const int64_t m = ta ? da[1] : da[0], ka = ta ? da[0] : da[1];
  const int64_t kb = tb ? db[1] : db[0], n = tb ? db[0] : db[1];
  if (ka != kb || m != dc[0] || n != dc[1])
    return fail(REMORA_ERR_ARG,
                "%s: shapes do not match: op(a) is %" PRId64 "x%" PRId64 ", op(b) %" PRId64
                "x%" PRId64 ", c %" PRId64 "x%" PRId64,
                function, m, ka, kb, n, dc[0], dc[1]);
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  const std::string& algorithm = runtime->config.array_gemm;
  if (algorithm == "summa" || (algorithm == "auto" && remora::arrays::summa_suits(*z)))
    return remora::arrays::summa_gemm(ta, tb, alpha, *x, *y, beta, *z);
  return remora::arrays::gemm(ta, tb, alpha, *x, *y, beta, *z);
}

int remora_array_gemm_uses_blas(void) {
  return remora::arrays::local_gemm_uses_blas() ? 1 : 0;
}

}  // extern "C"
