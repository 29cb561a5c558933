// C API: distributed arrays (remora/array.h), creating, destroying and querying arrays
// (distribution, ranks, the creation communicator). Validates every argument, then hands over to
// the arrays layer, which trusts them.
#include <cinttypes>
#include <optional>
#include <string>
#include <vector>

#include "api/array_checks.hpp"
#include "api/runtime.hpp"
#include "api/window_comm.hpp"
#include "arrays/array.hpp"
#include "arrays/element_types.hpp"
#include "arrays/patch_plan.hpp"
#include "arrays/process_grid.hpp"
#include "arrays/sync_tracker.hpp"
#include "core/error.hpp"
#include "remora/array.h"
#include "rma/reduce_op.hpp"

using remora::fail;
using remora::api::check_patch;
using remora::api::check_pointer;
using remora::api::current_runtime;
using remora::api::enter;
using remora::api::enter_collective;
using remora::api::find_array;
using remora::api::Runtime;
using remora::arrays::Array;
using remora::arrays::Distribution;

namespace {

int check_type(const char* function, int type) {
  if (!remora::arrays::is_array_type(type) && !remora::arrays::is_byte_type(type))
    return fail(REMORA_ERR_ARG,
                "%s: type=%d is not an array element type (REMORA_INT32, REMORA_INT64, "
                "REMORA_FLOAT, REMORA_DOUBLE, REMORA_FLOAT_COMPLEX, REMORA_DOUBLE_COMPLEX, or "
                "REMORA_UINT8 for byte arrays)",
                function, type);
  return REMORA_SUCCESS;
}

// name[0..ndim-1] (dims, block) all at least 1.
int check_positive(const char* function, const char* name, const int64_t* values, int ndim) {
  if (int status = check_pointer(function, name, values)) return status;
  for (int d = 0; d < ndim; ++d)
    if (values[d] < 1)
      return fail(REMORA_ERR_ARG, "%s: %s[%d]=%" PRId64 " must be at least 1", function, name, d,
                  values[d]);
  return REMORA_SUCCESS;
}

int check_shape(const char* function, int ndim, const int64_t* dims, int max_ndim) {
  if (ndim < 1 || ndim > max_ndim)
    return fail(REMORA_ERR_ARG, "%s: ndim=%d must lie in [1, %d]", function, ndim, max_ndim);
  return check_positive(function, "dims", dims, ndim);
}

// grid[0] x ... x grid[ndim-1], each at least 1, with at most `ranks` ranks.
int check_grid_nd(const char* function, int ndim, const int* grid, int ranks,
                  std::vector<int>* out) {
  if (int status = check_pointer(function, "grid", grid)) return status;
  int64_t size = 1;
  for (int d = 0; d < ndim; ++d) {
    if (grid[d] < 1)
      return fail(REMORA_ERR_ARG, "%s: grid[%d]=%d must be at least 1", function, d, grid[d]);
    size *= grid[d];
  }
  if (size > ranks) {
    std::string shape = std::to_string(grid[0]);
    for (int d = 1; d < ndim; ++d) {
      shape += 'x';
      shape += std::to_string(grid[d]);
    }
    return fail(REMORA_ERR_ARG, "%s: grid=%s needs more ranks than the %d available", function,
                shape.c_str(), ranks);
  }
  out->assign(grid, grid + ndim);
  return REMORA_SUCCESS;
}

// grid NULL: near-square; else grid[0] x grid[1] with at most `ranks` ranks.
int check_grid(const char* function, const int* grid, int ranks, std::vector<int>* out) {
  if (grid == nullptr) {
    *out = remora::arrays::near_square_grid(ranks);
    return REMORA_SUCCESS;
  }
  return check_grid_nd(function, 2, grid, ranks, out);
}

// ntiles[d] tile starts per dimension in starts (0 first, increasing, below dims[d]) into tiles.
int check_tile_starts(const char* function, int ndim, const int64_t* dims, const int* ntiles,
                      const int64_t* starts, std::vector<std::vector<int64_t>>* tiles) {
  if (int status = check_pointer(function, "ntiles", ntiles)) return status;
  if (int status = check_pointer(function, "starts", starts)) return status;
  tiles->assign(static_cast<size_t>(ndim), {});
  size_t offset = 0;
  for (int d = 0; d < ndim; ++d) {
    if (ntiles[d] < 1 || ntiles[d] > dims[d])
      return fail(REMORA_ERR_ARG, "%s: ntiles[%d]=%d is outside [1, dims[%d]=%" PRId64 "]",
                  function, d, ntiles[d], d, dims[d]);
    auto& own = (*tiles)[static_cast<size_t>(d)];
    for (int b = 0; b < ntiles[d]; ++b, ++offset) {
      const int64_t start = starts[offset];
      const int64_t low = b == 0 ? 0 : own.back() + 1;
      if ((b == 0 && start != 0) || start < low || start >= dims[d])
        return fail(REMORA_ERR_ARG,
                    "%s: starts[%zu]=%" PRId64 " (tile %d of dimension %d) must be %s", function,
                    offset, start, b, d,
                    b == 0 ? "0" : "above the previous start and below the extent");
      own.push_back(start);
    }
  }
  return REMORA_SUCCESS;
}

// *comm: the creation communicator (checked live), *ranks: its size.
int creation_comm(const char* function, remora_comm_t* comm, int* ranks) {
  *comm = current_runtime().array_handles.create_comm;
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

// The array whose memory a creation of dist and type on comm uses (remora_array_set_create_memory;
// *memory stays nullptr when none is set): live, on comm's ranks in comm's order, and each
// rank's part of it large enough. Every rank computes the same answer from the same arguments.
int creation_memory(const char* function, Runtime& runtime, const remora::coll::CommPtr& comm,
                    const Distribution& dist, int type, Array** memory) {
  remora_array_s* handle = runtime.array_handles.create_memory;
  if (handle == nullptr) return REMORA_SUCCESS;
  if (runtime.array_handles.create_memory_destroyed)
    return fail(REMORA_ERR_ARG,
                "%s: the creation memory %p (remora_array_set_create_memory) is no longer a live "
                "array",
                function, static_cast<void*>(handle));
  auto* on = static_cast<Array*>(handle);
  bool same = on->comm_size() == comm->size();
  for (int rank = 0; same && rank < comm->size(); ++rank)
    same = on->world_rank(rank) == comm->world_rank(rank);
  if (!same)
    return fail(REMORA_ERR_ARG,
                "%s: the creation memory, array '%s' (remora_array_set_create_memory), lives on "
                "other ranks than the creation communicator, or in another order",
                function, on->name().c_str());
  const size_t element = remora::rma::datatype_size(type);
  for (int rank = 0; rank < comm->size(); ++rank) {
    const size_t needs = static_cast<size_t>(dist.local_elements(rank)) * element;
    if (needs > on->memory_bytes(rank))
      return fail(REMORA_ERR_RANGE,
                  "%s: rank %d's part needs %zu bytes, more than the %zu bytes of that rank's "
                  "memory in the creation memory, array '%s' (remora_array_set_create_memory)",
                  function, rank, needs, on->memory_bytes(rank), on->name().c_str());
  }
  *memory = on;
  return REMORA_SUCCESS;
}

// Creates the array once every rank of the creation communicator (comm if not nullptr) passed
// its checks: checked is this rank's result of them, dist the distribution when it passed. The
// ranks agree on the checks first, so that bad arguments on some ranks fail the call on all of
// them instead of leaving the others waiting inside the creation.
int publish(const char* function, Runtime& runtime, int checked, std::optional<Distribution> dist,
            int type, const char* name, remora_array_t* out, remora::coll::CommPtr comm = nullptr) {
  if (int status = remora::api::check_not_in_handler(function)) return status;
  if (checked == REMORA_SUCCESS) checked = remora::api::check_single_threaded(function);
  if (checked == REMORA_SUCCESS) checked = check_pointer(function, "array", out);
  // The creation forms (no comm given) take the creation settings; duplicates own their memory.
  Array* memory = nullptr;
  if (comm == nullptr) {
    remora_comm_t handle = REMORA_COMM_NULL;
    int ranks = 0;
    if (int status = creation_comm(function, &handle, &ranks)) return status;
    comm = runtime.collectives->communicators.find(handle);
    if (checked == REMORA_SUCCESS)
      checked = creation_memory(function, runtime, comm, *dist, type, &memory);
  }
  if (int status =
          remora::api::agree_over(function, runtime, comm, checked, "no rank created the array"))
    return status;
  Array* array = nullptr;
  if (int status =
          Array::create(remora::api::array_context(runtime), remora::arrays::sync_tracker(),
                        std::move(*dist), type, name, std::move(comm), &array, memory))
    return status;
  current_runtime().array_handles.arrays.insert(array);
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

// Creations of any ndim: the type and shape checks, then build(ranks, &dist) makes its own
// checks and the distribution.
template <typename Build>
int create_nd(const char* function, remora_datatype_t type, int ndim, const int64_t* dims,
              const char* name, remora_array_t* array, Build build) {
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  std::optional<Distribution> dist;
  const int checked = [&]() -> int {
    if (int status = check_type(function, type)) return status;
    if (int status = check_shape(function, ndim, dims, REMORA_ARRAY_MAX_DIM)) return status;
    int ranks = 0;
    if (int status = creation_ranks(function, &ranks)) return status;
    return build(ranks, &dist);
  }();
  return publish(function, *runtime, checked, std::move(dist), type, name, array);
}

}  // namespace

extern "C" {

int remora_array_create(remora_datatype_t type, int ndim, const int64_t* dims, const char* name,
                        remora_array_t* array) {
  REMORA_API_ENTRY();
  return create_nd("remora_array_create", type, ndim, dims, name, array,
                   [&](int ranks, std::optional<Distribution>* dist) {
                     *dist = Distribution::block_default(std::vector<int64_t>(dims, dims + ndim),
                                                         ranks);
                     return REMORA_SUCCESS;
                   });
}

int remora_array_create_irregular(remora_datatype_t type, int ndim, const int64_t* dims,
                                  const int* nblock, const int64_t* map, const char* name,
                                  remora_array_t* array) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_create_irregular";
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  std::optional<Distribution> dist;
  const int checked = [&]() -> int {
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
    dist = Distribution::blocked(REMORA_DIST_IRREGULAR, std::vector<int64_t>(dims, dims + ndim),
                                 std::move(starts));
    return REMORA_SUCCESS;
  }();
  return publish(function, *runtime, checked, std::move(dist), type, name, array);
}

int remora_array_create_block_cyclic(remora_datatype_t type, const int64_t* dims,
                                     const int64_t* block, const int* grid, const char* name,
                                     remora_array_t* array) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_create_block_cyclic";
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  std::optional<Distribution> dist;
  const int checked = [&]() -> int {
    if (int status = check_type(function, type)) return status;
    if (int status = check_shape(function, 2, dims, 2)) return status;
    if (int status = check_positive(function, "block", block, 2)) return status;
    std::vector<int> g;
    int ranks = 0;
    if (int status = creation_ranks(function, &ranks)) return status;
    if (int status = check_grid(function, grid, ranks, &g)) return status;
    dist =
        Distribution::cyclic(REMORA_DIST_BLOCK_CYCLIC, {dims[0], dims[1]}, {block[0], block[1]}, g);
    return REMORA_SUCCESS;
  }();
  return publish(function, *runtime, checked, std::move(dist), type, name, array);
}

int remora_array_create_block_dealt(remora_datatype_t type, int ndim, const int64_t* dims,
                                    const int64_t* block, const char* name, remora_array_t* array) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_create_block_dealt";
  return create_nd(function, type, ndim, dims, name, array,
                   [&](int ranks, std::optional<Distribution>* dist) {
                     if (int status = check_positive(function, "block", block, ndim)) return status;
                     *dist = Distribution::dealt(std::vector<int64_t>(dims, dims + ndim),
                                                 std::vector<int64_t>(block, block + ndim), ranks);
                     return static_cast<int>(REMORA_SUCCESS);
                   });
}

int remora_array_create_block_cyclic_tiles(remora_datatype_t type, const int64_t* dims,
                                           const int* ntiles, const int64_t* starts,
                                           const int* grid, const char* name,
                                           remora_array_t* array) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_create_block_cyclic_tiles";
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  std::optional<Distribution> dist;
  const int checked = [&]() -> int {
    if (int status = check_type(function, type)) return status;
    if (int status = check_shape(function, 2, dims, 2)) return status;
    if (int status = check_pointer(function, "grid", grid)) return status;
    std::vector<std::vector<int64_t>> tiles;
    if (int status = check_tile_starts(function, 2, dims, ntiles, starts, &tiles)) return status;
    std::vector<int> g;
    int ranks = 0;
    if (int status = creation_ranks(function, &ranks)) return status;
    if (int status = check_grid(function, grid, ranks, &g)) return status;
    dist = Distribution::cyclic_tiles({dims[0], dims[1]}, std::move(tiles), g);
    return REMORA_SUCCESS;
  }();
  return publish(function, *runtime, checked, std::move(dist), type, name, array);
}

int remora_array_create_block_cyclic_nd(remora_datatype_t type, int ndim, const int64_t* dims,
                                        const int64_t* block, const int* grid, const char* name,
                                        remora_array_t* array) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_create_block_cyclic_nd";
  return create_nd(
      function, type, ndim, dims, name, array, [&](int ranks, std::optional<Distribution>* dist) {
        if (int status = check_positive(function, "block", block, ndim)) return status;
        std::vector<int> g;
        if (int status = check_grid_nd(function, ndim, grid, ranks, &g)) return status;
        *dist =
            Distribution::cyclic(REMORA_DIST_BLOCK_CYCLIC, std::vector<int64_t>(dims, dims + ndim),
                                 std::vector<int64_t>(block, block + ndim), std::move(g));
        return static_cast<int>(REMORA_SUCCESS);
      });
}

int remora_array_create_tiled(remora_datatype_t type, int ndim, const int64_t* dims,
                              const int* ntiles, const int64_t* starts, const int* grid,
                              const char* name, remora_array_t* array) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_create_tiled";
  return create_nd(
      function, type, ndim, dims, name, array, [&](int ranks, std::optional<Distribution>* dist) {
        std::vector<std::vector<int64_t>> tiles;
        if (int status = check_tile_starts(function, ndim, dims, ntiles, starts, &tiles))
          return status;
        std::vector<int> g;
        if (int status = check_grid_nd(function, ndim, grid, ranks, &g)) return status;
        *dist = Distribution::tiled(std::vector<int64_t>(dims, dims + ndim), std::move(tiles),
                                    std::move(g));
        return static_cast<int>(REMORA_SUCCESS);
      });
}

int remora_array_create_element_cyclic(remora_datatype_t type, const int64_t* dims, const int* grid,
                                       const char* name, remora_array_t* array) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_create_element_cyclic";
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  std::optional<Distribution> dist;
  const int checked = [&]() -> int {
    if (int status = check_type(function, type)) return status;
    if (int status = check_shape(function, 2, dims, 2)) return status;
    std::vector<int> g;
    int ranks = 0;
    if (int status = creation_ranks(function, &ranks)) return status;
    if (int status = check_grid(function, grid, ranks, &g)) return status;
    dist = Distribution::cyclic(REMORA_DIST_ELEMENT_CYCLIC, {dims[0], dims[1]}, {1, 1}, g);
    return REMORA_SUCCESS;
  }();
  return publish(function, *runtime, checked, std::move(dist), type, name, array);
}

// A bad source handle on some ranks: those ranks agree over the creation communicator (the one
// the source was most likely created on), the others over the source's communicator.
int remora_array_duplicate(remora_array_t a, const char* name, remora_array_t* array) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_duplicate";
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  Array* source = nullptr;
  const int checked = find_array(function, "a", a, &source, remora::api::ArrayUse::Move);
  if (checked != REMORA_SUCCESS) {
    const std::string message = remora::last_error();
    if (int status = remora::api::check_not_in_handler(function)) return status;
    remora_comm_t handle = REMORA_COMM_NULL;
    int ranks = 0;
    if (creation_comm(function, &handle, &ranks) == REMORA_SUCCESS)
      remora::api::agree_over(function, *runtime, runtime->collectives->communicators.find(handle),
                              checked, "no rank created the array");
    return fail(checked, "%s", message.c_str());
  }
  return publish(function, *runtime, REMORA_SUCCESS, source->dist(), source->type(), name, array,
                 source->comm());
}

// Collective over the array's ranks, which first agree that every one of them may destroy it:
// a bad handle, or a batch still attached (remora_axpy_attach), on some ranks fails the call on
// all of them and destroys nothing. A rank whose handle is bad agrees over the creation
// communicator. Nonblocking operations still queued are completed, as by flush.
int remora_array_destroy(remora_array_t* array) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_destroy";
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  if (int status = remora::api::check_not_in_handler(function)) return status;
  Array* a = nullptr;
  int checked = remora::api::check_single_threaded(function);
  if (checked == REMORA_SUCCESS) checked = check_pointer(function, "array", array);
  if (checked == REMORA_SUCCESS)
    checked = find_array(function, "*array", *array, &a, remora::api::ArrayUse::Move);
  if (checked == REMORA_SUCCESS && remora::api::attached_batches(*runtime, a) > 0)
    checked = fail(REMORA_ERR_STATE,
                   "%s: array '%s' has %d AXPY batch(es) attached: remora_axpy_detach them first",
                   function, a->name().c_str(), remora::api::attached_batches(*runtime, a));
  remora::coll::CommPtr comm = a != nullptr ? a->comm() : nullptr;
  if (a == nullptr) {
    remora_comm_t handle = REMORA_COMM_NULL;
    int ranks = 0;
    if (creation_comm(function, &handle, &ranks) == REMORA_SUCCESS)
      comm = runtime->collectives->communicators.find(handle);
  }
  if (checked != REMORA_SUCCESS) {
    const std::string message = remora::last_error();
    remora::api::agree_over(function, *runtime, comm, checked, "no rank destroyed the array");
    return fail(checked, "%s", message.c_str());
  }
  if (int status = remora::api::agree_over(function, *runtime, comm, REMORA_SUCCESS,
                                           "no rank destroyed the array"))
    return status;
  if (int status = a->destroy()) return status;
  auto& handles = current_runtime().array_handles;
  handles.arrays.erase(a);
  // A creation memory destroyed stays named, so the next creation fails rather than use (or,
  // after the address is reused, silently share) another array's memory.
  if (handles.create_memory == a) handles.create_memory_destroyed = true;
  delete a;
  *array = nullptr;
  return REMORA_SUCCESS;
}

int remora_array_inquire(remora_array_t a, remora_datatype_t* type, int* ndim, int64_t* dims) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status = find_array("remora_array_inquire", "a", a, &array, remora::api::ArrayUse::Move))
    return status;
  if (type != nullptr) *type = static_cast<remora_datatype_t>(array->type());
  if (ndim != nullptr) *ndim = array->ndim();
  if (dims != nullptr)
    for (int d = 0; d < array->ndim(); ++d) dims[d] = array->dist().dims()[static_cast<size_t>(d)];
  return REMORA_SUCCESS;
}

int remora_array_kind(remora_array_t a, remora_distribution_kind_t* kind) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status = find_array("remora_array_kind", "a", a, &array, remora::api::ArrayUse::Move))
    return status;
  if (int status = check_pointer("remora_array_kind", "kind", kind)) return status;
  *kind = array->dist().kind();
  return REMORA_SUCCESS;
}

int remora_array_proc_grid(remora_array_t a, int* grid) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status =
          find_array("remora_array_proc_grid", "a", a, &array, remora::api::ArrayUse::Move))
    return status;
  if (int status = check_pointer("remora_array_proc_grid", "grid", grid)) return status;
  for (size_t d = 0; d < array->dist().grid().size(); ++d) grid[d] = array->dist().grid()[d];
  return REMORA_SUCCESS;
}

int remora_array_distribution(remora_array_t a, int rank, int64_t* lo, int64_t* hi) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_distribution";
  Array* array = nullptr;
  Runtime* runtime = nullptr;
  if (int status = find_array(function, "a", a, &array, remora::api::ArrayUse::Move)) return status;
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
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_local_shape";
  Array* array = nullptr;
  Runtime* runtime = nullptr;
  if (int status = find_array(function, "a", a, &array, remora::api::ArrayUse::Move)) return status;
  if (int status = enter(function, &runtime)) return status;
  if (int status = check_array_rank(function, *array, rank)) return status;
  if (int status = check_pointer(function, "extents", extents)) return status;
  for (int d = 0; d < array->ndim(); ++d) extents[d] = array->dist().local_extent(rank, d);
  return REMORA_SUCCESS;
}

int remora_array_access_local(remora_array_t a, int rank, void** pointer, int64_t* count) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_access_local";
  Array* array = nullptr;
  if (int status = find_array(function, "a", a, &array, remora::api::ArrayUse::Move)) return status;
  if (int status = check_array_rank(function, *array, rank)) return status;
  if (int status = check_pointer(function, "pointer", pointer)) return status;
  if (int status = check_pointer(function, "count", count)) return status;
  char* base = array->mapped(rank);
  if (base == nullptr)
    return fail(REMORA_ERR_UNSUPPORTED,
                "%s: rank=%d's memory of a ('%s') is not mapped by this rank (another node)",
                function, rank, array->name().c_str());
  *pointer = base;
  *count = array->dist().local_elements(rank);
  return REMORA_SUCCESS;
}

int remora_array_locate_region(remora_array_t a, const int64_t* lo, const int64_t* hi, int max,
                               int* owners, int64_t* owner_lo, int64_t* owner_hi, int* count) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_locate_region";
  Array* array = nullptr;
  if (int status = find_array(function, "a", a, &array, remora::api::ArrayUse::Move)) return status;
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

int remora_array_set_create_comm(remora_comm_t comm) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_set_create_comm";
  Runtime* runtime = nullptr;
  if (int status = enter(function, &runtime)) return status;
  int size = 0;
  if (comm != REMORA_COMM_NULL && remora_comm_size(comm, &size) != REMORA_SUCCESS)
    return fail(REMORA_ERR_ARG, "%s: comm=%p is not a live communicator (nor REMORA_COMM_NULL)",
                function, static_cast<void*>(comm));
  current_runtime().array_handles.create_comm = comm;
  return REMORA_SUCCESS;
}

int remora_array_get_create_comm(remora_comm_t* comm) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter("remora_array_get_create_comm", &runtime)) return status;
  if (int status = check_pointer("remora_array_get_create_comm", "comm", comm)) return status;
  *comm = current_runtime().array_handles.create_comm;
  return REMORA_SUCCESS;
}

int remora_array_set_create_memory(remora_array_t a) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_set_create_memory";
  Runtime* runtime = nullptr;
  if (int status = enter(function, &runtime)) return status;
  Array* array = nullptr;
  if (a != nullptr)
    if (int status = find_array(function, "a", a, &array, remora::api::ArrayUse::Move))
      return status;
  current_runtime().array_handles.create_memory = array;
  current_runtime().array_handles.create_memory_destroyed = false;
  return REMORA_SUCCESS;
}

int remora_array_get_create_memory(remora_array_t* a) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_array_get_create_memory";
  Runtime* runtime = nullptr;
  if (int status = enter(function, &runtime)) return status;
  if (int status = check_pointer(function, "a", a)) return status;
  *a = current_runtime().array_handles.create_memory;
  return REMORA_SUCCESS;
}

int remora_array_ranks(remora_array_t a, int* size, int* rank) {
  REMORA_API_ENTRY();
  Array* array = nullptr;
  if (int status = find_array("remora_array_ranks", "a", a, &array, remora::api::ArrayUse::Move))
    return status;
  if (size != nullptr) *size = array->comm_size();
  if (rank != nullptr) *rank = array->comm_rank();
  return REMORA_SUCCESS;
}

}  // extern "C"
