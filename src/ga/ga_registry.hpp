// The GA-compatible layer's shared internals: the table of GA integer handles (each names a
// Remora distributed array plus what GA remembers about it), the mapping between GA type codes
// and Remora element types, index conversion, and GA_Error-style failure. Every src/ga/ file
// (ga-core, ga-coll, pgroups) builds on this header; it uses only Remora's public C API.
#pragma once

#include <atomic>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ga.h"
#include "remora.h"

namespace remora::ga {

constexpr int kWorldGroup = -1;  // GA's world process group handle

// How a handle made by GA_Create_handle will be distributed when GA_Allocate runs.
enum class Layout { Block, Irregular, BlockCyclic, ScalapackCyclic, Tiled, TiledIrregular };

struct ReadCache;   // ga_property.cpp
struct GhostCells;  // ga_ghosts.cpp

struct GaArray {
  remora_array_t array = nullptr;  // null until allocated
  int type = 0;                    // GA type code (C_DBL, F_INT, ...)
  remora_datatype_t datatype = REMORA_DOUBLE;
  // A user-defined type (NGA_Register_type) of this many bytes; 0 for GA's built-in types.
  // Such an array is a Remora REMORA_UINT8 array with one more dimension, of user_bytes and
  // never split, holding each element's bytes (ga_types.cpp).
  size_t user_bytes = 0;
  std::string name;
  int ndim = 0;
  int64_t dims[GA_MAX_DIM] = {};
  int pgroup = kWorldGroup;  // process group the array lives on (pgroups part)
  // Distribution requested before GA_Allocate (GA_Set_*).
  Layout layout = Layout::Block;
  std::vector<int64_t> chunk;  // GA_Set_chunk / NGA_Create's chunk (empty: none)
  std::vector<int64_t> map;    // GA_Set_irreg_distr / GA_Set_tiled_irreg_proc_grid (starts)
  std::vector<int> nblock;     // the same (blocks per dimension)
  std::vector<int64_t> block;  // GA_Set_block_cyclic* (block extents)
  std::vector<int> proc_grid;  // GA_Set_block_cyclic_proc_grid / tiled (empty: default)
  // GA_Set_restricted / _range: the group ranks holding data, list[i] holding block i of a
  // block or irregular distribution (empty: every rank). The Remora array then lives on the
  // group's ranks reordered, the listed ones first (array rank i = group rank restricted[i]).
  std::vector<int> restricted;
  // Pending NGA_Access patches, so NGA_Release(lo, hi) finds its pointer.
  struct Access {
    std::vector<int64_t> lo, hi;
    void* pointer;
  };
  std::vector<Access> accesses;
  // NGA_Set_property "read_only": the whole array (row-major), one copy per node in memory the
  // node's ranks of the array's group share (a window on them, its first rank holding the
  // copy), taken when the property was set; gets read it, writes fail until
  // NGA_Unset_property.
  bool read_only = false;
  const unsigned char* replica = nullptr;
  remora_comm_t replica_node = REMORA_COMM_NULL;
  remora_win_t replica_win = nullptr;
  // NGA_Set_property "read_cache": owners' blocks this rank has read (ga_property.cpp).
  std::shared_ptr<ReadCache> cache;
  // Ghost cells (NGA_Create_ghosts*, GA_Set_ghosts): the width per side of each dimension
  // (empty: none), whether updates fill the corners, and once allocated this rank's padded
  // copy of its block (ga_ghosts.cpp).
  std::vector<int64_t> ghost_width;
  bool ghost_corners = true;
  std::shared_ptr<GhostCells> ghosts;
  // Allocated on memory that is not its own (GA_Overlay: another array's; GA_Assemble_duplicate:
  // GA_Getmem's), which the memory limit (GA_Initialize_ltd) counted already.
  bool borrowed = false;
  // GA_Assemble_duplicate: what GA_Getmem counted against the limit for the memory this array
  // took over; its destruction gives it back, as GA's does.
  size_t pool_bytes = 0;
};

// ---- ghost cells (ga_ghosts.cpp) ----
// Validates width (ndim entries) and records it as a's ghost widths (before allocation).
template <typename Index>
void set_ghost_widths(const char* fn, GaArray& a, const Index* width);
// After a's allocation (or duplication): this rank's padded block, filled from the array.
void attach_ghosts(const char* fn, GaArray& a);
// NGA_Access of lo..hi on a ghosted array: a pointer into the padded block (ld counting the
// ghosts), or nullptr when lo..hi is not inside this rank's block (then the plain access).
void* ghost_access(const char* fn, GaArray& a, const int64_t* lo, const int64_t* hi, int64_t* ld);
// Whether pointer lies in a's padded block; if so, writes what was written through it into the
// array (NGA_Release* of a ghost access).
bool ghost_release(const char* fn, GaArray& a, void* pointer);
// GA_Sync on ghosted arrays: before it, writes through padded blocks go to the arrays; after
// it, the padded blocks take the arrays' values.
void ghosts_before_sync(const char* fn);
void ghosts_after_sync(const char* fn);

// ---- properties (ga_property.cpp) ----
// Before fn writes into a: fails (GA_Error) when a is read-only; empties a's read cache.
// Collective writes call it on every rank of the array's group.
void require_writable(const char* fn, const GaArray& a);
// The same for the allocated array behind handle g_a, which it returns.
const GaArray& writable(const char* fn, int g_a);
// Copies lo..hi of a read-only array from the node's replica into buffer (ld as NGA_Get's),
// after the checks remora_array_get makes.
void replica_get(const char* fn, const GaArray& a, const int64_t* lo, const int64_t* hi,
                 void* buffer, const int64_t* ld);
// For a "read_cache" array: copies lo..hi into buffer from the owners' blocks, reading (and
// keeping) the blocks not held yet. False (nothing done) when a has no read cache.
bool cached_get(const char* fn, const GaArray& a, const int64_t* lo, const int64_t* hi,
                void* buffer, const int64_t* ld);
// Read caches are emptied by synchronisation (GA_Sync, GA_Fence, GA_Lock / GA_Unlock, ...),
// after which other ranks' writes may be visible.
void invalidate_read_caches();
// Frees a read-only array's replica (collective over its group): NGA_Unset_property and
// GA_Destroy.
void release_properties(const char* fn, GaArray& a);

// GA_Error: prints "GA_Error (rank R) in fn: message: code" and ends the whole job with a
// non-zero exit (remora_abort, which uses MPI_Abort under MPI).
[[noreturn]] void ga_error(const char* message, int code);
// A failure detected in function fn (a GA name), formatted like printf; ends the job.
[[noreturn]] void ga_fail(const char* fn, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
// A Remora call that returned status < 0: fails with remora_last_error().
void check(const char* fn, int status);

// GA type code -> Remora element type; fails (GA_Error) for codes Remora cannot hold. A
// registered type's elements are bytes (REMORA_UINT8).
remora_datatype_t datatype_of(const char* fn, int type);
// The size of registered type code type (NGA_Register_type), 0 when it is not one (ga_types.cpp).
size_t user_type_bytes(int type);
// The GA type code that NGA_Inquire reports for a Remora element type is kept per handle;
// this gives the element size of a GA type code.
size_t element_size(const char* fn, int type);

// The bytes of one element of an allocated array: a registered type's own size (kept by the
// array, so it outlives NGA_Deregister_type, as in GA), else its type code's.
inline size_t element_bytes(const char* fn, const GaArray& a) {
  return a.user_bytes != 0 ? a.user_bytes : element_size(fn, a.type);
}

// Thread safety (GA's thread-safe mode: MPI_THREAD_MULTIPLE): the layer's tables (nonblocking
// handles, NGA_Access records, process groups, and the writers of the handle table) are
// guarded by this one mutex, held only for short sections that never call Remora, so a thread
// waiting inside Remora never keeps the others out. Handle lookups take no lock (atomic slots,
// ga_registry.cpp); statistics are per-thread counters (ga_stats.cpp). Everything else is written
// only by collective calls (creation, properties, GA_Initialize / GA_Terminate), which are
// single-threaded.
std::mutex& state_mutex();

// The handle table. Handles are negative integers (as GA's are), never 0.
int new_handle();
// The array behind a handle; fails like GA on a handle that was never created or destroyed.
GaArray& lookup(const char* fn, int handle);
// Whether handle names a created array (allocated or not); never fails.
bool handle_exists(int handle);
// Which arrays a call takes: most calls compute on elements and take GA's built-in types only;
// the calls that move elements as bytes (put, get, fields, queries, duplicate) take any type.
enum class Types { Builtin, Any };
// The same, and also fails when the handle is not allocated yet (GA_Create_handle without
// GA_Allocate), or (Types::Builtin) when its type is a registered one.
GaArray& lookup_allocated(const char* fn, int handle, Types types = Types::Builtin);
void free_handle(int handle);
// Every live handle (for GA_Terminate).
std::vector<int> live_handles();

// Fails unless GA_Initialize* ran (and GA_Terminate did not).
void require_initialized(const char* fn);

// The MPI communicator of GA's world group (set by GA_Initialize*; GA_Initialize_comm may set
// a sub-communicator).
MPI_Comm world_comm();
void set_world_comm(MPI_Comm comm);

// Process groups: GA's world group handle, and the group new arrays are created on
// (GA_Pgroup_set_default changes it; the pgroups part owns that).
std::atomic<int>& default_pgroup();

// ---- pgroups (ga_pgroup.cpp) ----
// The Remora communicator of process group p_handle (kWorldGroup: the world); fails like
// GA_Error when it is not a live group or this process is not a member.
remora_comm_t pgroup_comm(const char* fn, int p_handle);
bool pgroup_exists(int p_handle);
// Collective (GA_Terminate): frees the groups the program did not destroy, oldest first.
void free_pgroups();
// The number of ranks of group p_handle, and of the group an allocated array lives on.
int pgroup_size(const char* fn, int p_handle);
int array_ranks(const GaArray& a);
// This process's rank in an allocated array's group.
int array_rank(const GaArray& a);
// Restricted arrays order the Remora array's ranks differently from the group's: the group rank
// of an array rank, and the array rank of a group rank (identity for other arrays).
int group_rank_of(const GaArray& a, int array_rank);
int array_rank_of(const GaArray& a, int group_rank);

// GA index arrays (int or int64_t) widened to int64_t.
template <typename Index>
void to_int64(const Index* in, int n, int64_t* out) {
  for (int i = 0; i < n; ++i) out[i] = static_cast<int64_t>(in[i]);
}
template <typename Index>
void from_int64(const int64_t* in, int n, Index* out) {
  for (int i = 0; i < n; ++i) out[i] = static_cast<Index>(in[i]);
}

// An index array converted to int64_t (null in, null out), up to GA_MAX_DIM entries.
struct Indices {
  int64_t values[GA_MAX_DIM] = {};
  const int64_t* data = nullptr;
  template <typename Index>
  Indices(const Index* in, int n) {
    if (in == nullptr || n < 0 || n > GA_MAX_DIM) return;
    to_int64(in, n, values);
    data = values;
  }
};

// What a new array copies from source (GA_Duplicate, GA_Assemble_duplicate): type, shape,
// group and distribution settings, ghost widths and corner flag; not the memory, the accesses,
// the properties or the padded ghost block.
GaArray settings_of(const GaArray& source);

// ---- creation (ga_create.cpp) ----
// GA_Set_data: validates and records a's shape and type code.
void set_data(const char* fn, GaArray& a, int ndim, const int64_t* dims, int type);
// Runs create(out) (a remora_array_create* call) with comm as the creation communicator and
// memory (nullptr: memory of its own) as the creation memory, restoring both settings after.
// Returns create's status; on failure *why holds its message.
template <typename Create>
int create_on(const char* fn, remora_comm_t comm, remora_array_t memory, Create create,
              remora_array_t* out, std::string* why) {
  remora_comm_t previous = REMORA_COMM_NULL;
  remora_array_t previous_memory = nullptr;
  check(fn, remora_array_get_create_comm(&previous));
  check(fn, remora_array_get_create_memory(&previous_memory));
  check(fn, remora_array_set_create_comm(comm));
  check(fn, remora_array_set_create_memory(memory));
  const int created = create(out);
  if (created < 0) *why = remora_last_error();
  check(fn, remora_array_set_create_comm(previous));
  check(fn, remora_array_set_create_memory(previous_memory));
  return created;
}

// Collective. Allocates a's Remora array on its group, on its own memory or (memory not
// nullptr) on memory's (remora_array_set_create_memory). 1 on success; 0 when the memory limit
// (GA_Initialize_ltd) refuses it, or a's parts do not fit in memory's (then *refused, if not
// nullptr, says where).
int allocate(const char* fn, GaArray& a, remora_array_t memory = nullptr,
             std::string* refused = nullptr);

}  // namespace remora::ga
