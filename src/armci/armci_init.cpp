// ARMCI_Init* / ARMCI_Finalize, errors, ARMCI_Malloc / ARMCI_Free and the region table,
// fences, barrier and topology queries.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "armci/armci_internal.hpp"

namespace remora::armci {
namespace {

int init_count = 0;        // ARMCI_Init calls not yet matched by ARMCI_Finalize
bool owns_remora = false;  // ARMCI_Init started Remora (so ARMCI_Finalize ends it)
remora_comm_t the_world = nullptr;
remora_comm_t the_node = nullptr;
int the_rank = -1, the_size = 0;
std::vector<std::unique_ptr<Region>> the_regions;

void start(const char* fn) {
  if (init_count > 0) {
    ++init_count;
    return;
  }
  check(fn, remora_comm_world(&the_world));
  check(fn, remora_comm_dup(the_world, &the_world));
  the_rank = remora_rank();
  the_size = remora_size();
  check(fn, remora_comm_split(the_world, remora_node(), the_rank, &the_node));
  message_init();
  init_count = 1;
  groups_start();
}

// The Remora thread level (REMORA_THREAD_*) of an MPI thread level.
int remora_level(int mpi_level) {
  if (mpi_level == MPI_THREAD_MULTIPLE) return REMORA_THREAD_MULTIPLE;
  if (mpi_level == MPI_THREAD_SERIALIZED) return REMORA_THREAD_SERIALIZED;
  if (mpi_level == MPI_THREAD_FUNNELED) return REMORA_THREAD_FUNNELED;
  return REMORA_THREAD_SINGLE;
}

// The thread level ARMCI asks Remora for: `requested` (an MPI level; -1: ARMCI_Init, which
// takes MPI's level when MPI is up, as ARMCI-MPI does). MPI must provide it when it is up.
int wanted_level(const char* fn, int requested) {
  int mpi_up = 0, mpi_level = MPI_THREAD_SINGLE;
  MPI_Initialized(&mpi_up);
  if (mpi_up) MPI_Query_thread(&mpi_level);
  if (requested < 0) return mpi_up ? remora_level(mpi_level) : REMORA_THREAD_SINGLE;
  if (mpi_up && mpi_level < requested)
    fail(fn, "armci_requested=%d is above the thread level MPI provides (%d)", requested,
         mpi_level);
  return remora_level(requested);
}

// Remora already runs (started by GA or the program): it must run at `level` at least.
void check_running_level(const char* fn, int level) {
  int provided = REMORA_THREAD_SINGLE;
  check(fn, remora_query_thread(&provided));
  if (provided < level)
    fail(fn,
         "Remora already runs at thread level %d (REMORA_THREAD_*), below the level %d ARMCI "
         "needs here",
         provided, level);
}

void start_remora(const char* fn, int* argc, char*** argv, int requested) {
  const int level = wanted_level(fn, requested);
  int up = 0;
  remora_initialized(&up);
  if (!up) {
    int provided = 0;
    check(fn, remora_init_thread(argc, argv, level, &provided));
    owns_remora = true;
  } else if (requested >= 0) {
    check_running_level(fn, level);
  }
  start(fn);
}

// The region whose block on this rank starts at ptr (of group's regions when group is given).
Region* region_of_local(const char* fn, void* ptr, const Group* group = nullptr) {
  const auto address = reinterpret_cast<uintptr_t>(ptr);
  for (auto& region : the_regions)
    if (region->base[static_cast<size_t>(the_rank)] == address && address != 0 &&
        (group == nullptr || region->group == group))
      return region.get();
  fail(fn, "ptr=%p is not an address %s returned to this rank (or it was freed)", ptr,
       group == nullptr ? "ARMCI_Malloc" : "ARMCI_Malloc over this group");
}

}  // namespace

void fail(const char* fn, const char* format, ...) {
  char detail[768];
  va_list args;
  va_start(args, format);
  std::vsnprintf(detail, sizeof detail, format, args);
  va_end(args);
  char text[1024];
  const int rank = remora_rank();
  std::snprintf(text, sizeof text, "%s (rank %d): %s", fn, rank < 0 ? -1 : rank, detail);
  std::fflush(stdout);
  remora_abort(1, text);
  std::abort();  // remora_abort does not return
}

void check(const char* fn, int status) {
  if (status < 0) fail(fn, "%s", remora_last_error());
}

void require_initialized(const char* fn) {
  if (init_count == 0) fail(fn, "ARMCI is not initialized (call ARMCI_Init first)");
}

int my_rank() {
  return the_rank;
}

int nprocs() {
  return the_size;
}

void check_proc(const char* fn, const char* what, int proc) {
  require_initialized(fn);
  if (proc < 0 || proc >= the_size)
    fail(fn, "%s=%d is not a rank in [0, %d)", what, proc, the_size);
}

void check_bytes(const char* fn, const char* what, long bytes) {
  if (bytes < 0) fail(fn, "%s=%ld is negative", what, bytes);
}

remora_comm_t world_comm() {
  return the_world;
}

remora_comm_t node_comm() {
  return the_node;
}

std::vector<std::unique_ptr<Region>>& regions() {
  return the_regions;
}

Location locate(const char* fn, const char* what, const void* addr, size_t bytes, int proc) {
  const auto address = reinterpret_cast<uintptr_t>(addr);
  const auto p = static_cast<size_t>(proc);
  for (auto& region : the_regions) {
    const uintptr_t base = region->base[p];
    if (base == 0 || address < base || address - base >= region->bytes[p]) continue;
    const size_t offset = address - base;
    if (bytes > region->bytes[p] - offset)
      fail(fn,
           "%s=%p with %zu bytes runs past the end of rank %d's ARMCI_Malloc block (%zu bytes "
           "from %p)",
           what, addr, bytes, proc, region->bytes[p], reinterpret_cast<void*>(base));
    return {region.get(), offset};
  }
  fail(fn, "%s=%p is not in memory that ARMCI_Malloc gave rank %d", what, addr, proc);
}

namespace {

bool pending_in(const Marks& m, unsigned char kinds) {
  for (int k = 0; k < 2; ++k)
    if ((kinds & (1u << k)) != 0 &&
        m.issued[k].load(std::memory_order_acquire) > m.flushed[k].load(std::memory_order_acquire))
      return true;
  return false;
}

void raise_to(std::atomic<uint64_t>& flushed, uint64_t seen) {
  uint64_t now = flushed.load(std::memory_order_relaxed);
  while (now < seen && !flushed.compare_exchange_weak(now, seen, std::memory_order_acq_rel)) {
  }
}

// Flushes (flush() completes what this rank issued before it) when m has pending marks of
// kinds; what was counted before the flush began is then flushed.
template <typename Flush>
void flush_marks(Marks& m, unsigned char kinds, Flush flush) {
  if (!pending_in(m, kinds)) return;
  const uint64_t seen[2] = {m.issued[0].load(std::memory_order_acquire),
                            m.issued[1].load(std::memory_order_acquire)};
  flush();
  for (int k = 0; k < 2; ++k) raise_to(m.flushed[k], seen[k]);
}

}  // namespace

void mark_dirty(Region& region, int proc, unsigned char kind) {
  const int k = kind == kPendingPut ? 0 : 1;
  region.marks[static_cast<size_t>(proc)].issued[k].fetch_add(1, std::memory_order_acq_rel);
  region.all.issued[k].fetch_add(1, std::memory_order_acq_rel);
}

void flush_if_dirty(const char* fn, Region& region, int proc, unsigned char kinds) {
  flush_marks(region.marks[static_cast<size_t>(proc)], kinds, [&] {
    check(fn, remora_win_flush(region.win, region.win_rank[static_cast<size_t>(proc)]));
  });
}

void fence(const char* fn, int proc) {
  for (auto& region : the_regions) flush_if_dirty(fn, *region, proc);
  wait_pending_target(fn, proc);  // complete after the flush; forget them
}

void fence_all(const char* fn) {
  wait_pending_target(fn, -1);
  for (auto& region : the_regions) {
    Region& r = *region;
    // The per-target counts seen before the flush_all are flushed by it too.
    std::vector<uint64_t> seen(2 * static_cast<size_t>(the_size));
    for (size_t p = 0; p < static_cast<size_t>(the_size); ++p)
      for (int k = 0; k < 2; ++k)
        seen[2 * p + static_cast<size_t>(k)] = r.marks[p].issued[k].load(std::memory_order_acquire);
    bool flushed = false;
    flush_marks(r.all, kPendingPut | kPendingAcc, [&] {
      check(fn, remora_win_flush_all(r.win));
      flushed = true;
    });
    if (!flushed) continue;
    for (size_t p = 0; p < static_cast<size_t>(the_size); ++p)
      for (int k = 0; k < 2; ++k)
        raise_to(r.marks[p].flushed[k], seen[2 * p + static_cast<size_t>(k)]);
  }
}

remora_datatype_t acc_datatype(const char* fn, int datatype, size_t* element_bytes) {
  switch (datatype) {
    case ARMCI_ACC_INT:
      *element_bytes = sizeof(int);
      return REMORA_INT32;
    case ARMCI_ACC_LNG:
      *element_bytes = sizeof(long);
      return sizeof(long) == 8 ? REMORA_INT64 : REMORA_INT32;
    case ARMCI_ACC_FLT:
      *element_bytes = sizeof(float);
      return REMORA_FLOAT;
    case ARMCI_ACC_DBL:
      *element_bytes = sizeof(double);
      return REMORA_DOUBLE;
    case ARMCI_ACC_CPL:
      *element_bytes = 2 * sizeof(float);
      return REMORA_FLOAT_COMPLEX;
    case ARMCI_ACC_DCP:
      *element_bytes = 2 * sizeof(double);
      return REMORA_DOUBLE_COMPLEX;
    default:
      fail(fn,
           "datatype=%d is not an ARMCI accumulate type (ARMCI_ACC_INT, _LNG, _FLT, _DBL, _CPL "
           "or _DCP: 0..5)",
           datatype);
  }
}

void malloc_in(const char* fn, Group& group, void** ptr_arr, long bytes) {
  if (group.rank < 0) fail(fn, "this rank is not a member of the group");
  if (ptr_arr == nullptr)
    fail(fn, "%s is NULL", std::strcmp(fn, "ARMCI_Malloc") == 0 ? "base_ptrs" : "ptr_arr");
  check_bytes(fn, "bytes", bytes);
  auto region = std::make_unique<Region>();
  region->group = &group;
  void* base = nullptr;
  check(fn, remora_win_allocate_comm(group.comm, static_cast<size_t>(bytes), 1, nullptr, &base,
                                     &region->win));
  const auto n = static_cast<size_t>(the_size);
  const size_t members = group.members.size();
  region->base.assign(n, 0);
  region->bytes.assign(n, 0);
  region->win_rank.assign(group.group_rank.begin(), group.group_rank.end());
  region->marks = std::make_unique<Marks[]>(n);
  uint64_t mine = bytes > 0 ? reinterpret_cast<uintptr_t>(base) : 0;
  std::vector<uint64_t> all(members);
  check(fn, remora_allgather(&mine, all.data(), 1, REMORA_UINT64, group.comm, REMORA_COLL_AUTO));
  for (size_t g = 0; g < members; ++g) {
    const auto r = static_cast<size_t>(group.members[g]);
    check(fn, remora_win_size(region->win, static_cast<int>(g), &region->bytes[r]));
    region->base[r] = region->bytes[r] > 0 ? static_cast<uintptr_t>(all[g]) : 0;
    ptr_arr[g] = reinterpret_cast<void*>(region->base[r]);
  }
  check(fn, remora_win_lock_all(region->win, 0));
  the_regions.push_back(std::move(region));
}

void free_in(const char* fn, Group& group, void* ptr) {
  if (group.rank < 0) fail(fn, "this rank is not a member of the group");
  // A rank that gave 0 bytes passes NULL: the members agree on the region by its index among
  // the group's regions (created in the same order on every member).
  std::vector<size_t> of_group;
  for (size_t i = 0; i < the_regions.size(); ++i)
    if (the_regions[i]->group == &group) of_group.push_back(i);
  int index = -1;
  if (ptr != nullptr) {
    Region* region = region_of_local(fn, ptr, &group);
    for (size_t k = 0; k < of_group.size(); ++k)
      if (the_regions[of_group[k]].get() == region) index = static_cast<int>(k);
  }
  int low = index < 0 ? INT32_MAX : index, high = index, agreed_low = 0, agreed_high = 0;
  check(fn, remora_allreduce(&low, &agreed_low, 1, REMORA_INT32, REMORA_OP_MIN, group.comm,
                             REMORA_COLL_AUTO));
  check(fn, remora_allreduce(&high, &agreed_high, 1, REMORA_INT32, REMORA_OP_MAX, group.comm,
                             REMORA_COLL_AUTO));
  if (agreed_high < 0) {
    // NULL everywhere: a block of 0 bytes on every member; the latest such one (the table is
    // the same on every member, so they all pick the same).
    for (size_t k = of_group.size(); k-- > 0;) {
      const Region& r = *the_regions[of_group[k]];
      bool empty = true;
      for (int m : group.members) empty = empty && r.bytes[static_cast<size_t>(m)] == 0;
      if (empty) {
        agreed_low = agreed_high = static_cast<int>(k);
        break;
      }
    }
    if (agreed_high < 0)
      fail(fn, "ptr is NULL on every rank, and no block of the group has 0 bytes everywhere");
  }
  if (agreed_low != agreed_high || (index >= 0 && index != agreed_high))
    fail(fn, "the ranks name different ARMCI_Malloc blocks (this rank: ptr=%p)", ptr);
  const size_t at = of_group[static_cast<size_t>(agreed_high)];
  Region& region = *the_regions[at];
  if (ptr == nullptr && region.bytes[static_cast<size_t>(the_rank)] != 0)
    fail(fn, "ptr is NULL but this rank has %zu bytes in the block the other ranks free",
         region.bytes[static_cast<size_t>(the_rank)]);
  wait_pending_window(fn, region.win);
  check(fn, remora_win_unlock_all(region.win));
  check(fn, remora_win_free(&region.win));
  the_regions.erase(the_regions.begin() + static_cast<std::ptrdiff_t>(at));
}

void free_all_regions() {
  for (auto& region : the_regions) {
    check("ARMCI_Finalize", remora_win_unlock_all(region->win));
    check("ARMCI_Finalize", remora_win_free(&region->win));
  }
  the_regions.clear();
}

}  // namespace remora::armci

using namespace remora::armci;

extern "C" {

int PARMCI_Init(void) {
  start_remora("ARMCI_Init", nullptr, nullptr, -1);
  return 0;
}

int PARMCI_Init_args(int* argc, char*** argv) {
  if ((argc == nullptr) != (argv == nullptr))
    fail("ARMCI_Init_args", "argc=%p and argv=%p: give both or neither", static_cast<void*>(argc),
         static_cast<void*>(argv));
  start_remora("ARMCI_Init_args", argc, argv, -1);
  return 0;
}

int PARMCI_Init_thread(int armci_requested) {
  if (armci_requested < MPI_THREAD_SINGLE || armci_requested > MPI_THREAD_MULTIPLE)
    fail("ARMCI_Init_thread", "armci_requested=%d is not an MPI thread level", armci_requested);
  start_remora("ARMCI_Init_thread", nullptr, nullptr, armci_requested);
  return 0;
}

int PARMCI_Init_thread_comm(int armci_requested, MPI_Comm comm) {
  const char* fn = "ARMCI_Init_thread_comm";
  if (armci_requested < MPI_THREAD_SINGLE || armci_requested > MPI_THREAD_MULTIPLE)
    fail(fn, "armci_requested=%d is not an MPI thread level", armci_requested);
  int mpi_up = 0;
  MPI_Initialized(&mpi_up);
  if (!mpi_up) fail(fn, "MPI is not initialized (call MPI_Init first)");
  if (comm == MPI_COMM_NULL) fail(fn, "comm is MPI_COMM_NULL");
  const int level = wanted_level(fn, armci_requested);
  int up = 0;
  remora_initialized(&up);
  if (!up) {
    int provided = 0;
    check(fn, remora_init_mpi_comm_thread(nullptr, nullptr, &comm, level, &provided));
    owns_remora = true;
  } else {
    check_running_level(fn, level);
  }
  start(fn);
  return 0;
}

int PARMCI_Initialized(void) {
  return init_count > 0 ? 1 : 0;
}

int PARMCI_Finalize(void) {
  if (init_count == 0) return 0;  // as ARMCI-MPI: extra calls do nothing
  if (--init_count > 0) return 0;
  fence_all("ARMCI_Finalize");
  check("ARMCI_Finalize", remora_comm_barrier(the_world, REMORA_COLL_AUTO));
  destroy_mutexes_at_finalize();
  destroy_mutex_handles_at_finalize();
  free_all_regions();
  groups_finish();
  check("ARMCI_Finalize", remora_comm_free(&the_node));
  check("ARMCI_Finalize", remora_comm_free(&the_world));
  the_rank = -1;
  the_size = 0;
  if (owns_remora) {
    owns_remora = false;
    check("ARMCI_Finalize", remora_finalize());
  }
  return 0;
}

void PARMCI_Cleanup(void) {}

void PARMCI_Error(const char* msg, int code) {
  char text[1024];
  const int rank = remora_rank();
  std::snprintf(text, sizeof text, "ARMCI_Error (rank %d): %s: %d", rank < 0 ? -1 : rank,
                msg != nullptr ? msg : "(no message)", code);
  std::fflush(stdout);
  remora_abort(code >= 1 && code <= 255 ? code : 1, text);
  std::abort();
}

int PARMCI_Malloc(void** base_ptrs, armci_size_t size) {
  const char* fn = "ARMCI_Malloc";
  require_initialized(fn);
  malloc_in(fn, default_group(), base_ptrs, size);
  return 0;
}

int PARMCI_Free(void* ptr) {
  const char* fn = "ARMCI_Free";
  require_initialized(fn);
  free_in(fn, default_group(), ptr);
  return 0;
}

void* PARMCI_Malloc_local(armci_size_t size) {
  const char* fn = "ARMCI_Malloc_local";
  check_bytes(fn, "size", size);
  void* p = std::malloc(size > 0 ? static_cast<size_t>(size) : 1);
  if (p == nullptr) fail(fn, "out of memory for size=%ld bytes", size);
  return p;
}

int PARMCI_Free_local(void* ptr) {
  if (ptr == nullptr) fail("ARMCI_Free_local", "ptr is NULL");
  std::free(ptr);
  return 0;
}

void PARMCI_Barrier(void) {
  const char* fn = "ARMCI_Barrier";
  require_initialized(fn);
  fence_all(fn);
  // Window syncs on both sides of the barrier: this rank's own stores to its blocks become
  // visible to the others, and their updates to this rank's loads.
  for (auto& region : the_regions) check(fn, remora_win_sync(region->win));
  check(fn, remora_comm_barrier(the_world, REMORA_COLL_AUTO));
  for (auto& region : the_regions) check(fn, remora_win_sync(region->win));
}

void PARMCI_Fence(int proc) {
  check_proc("ARMCI_Fence", "proc", proc);
  fence("ARMCI_Fence", proc);
}

void PARMCI_AllFence(void) {
  require_initialized("ARMCI_AllFence");
  fence_all("ARMCI_AllFence");
}

void PARMCI_Access_begin(void* ptr) {
  require_initialized("ARMCI_Access_begin");
  check("ARMCI_Access_begin", remora_win_sync(region_of_local("ARMCI_Access_begin", ptr)->win));
}

void PARMCI_Access_end(void* ptr) {
  require_initialized("ARMCI_Access_end");
  check("ARMCI_Access_end", remora_win_sync(region_of_local("ARMCI_Access_end", ptr)->win));
}

void PARMCI_Copy(void* src, void* dst, int size) {
  check_bytes("ARMCI_Copy", "size", size);
  if (size > 0 && (src == nullptr || dst == nullptr))
    fail("ARMCI_Copy", "src=%p, dst=%p: NULL with size=%d", src, dst, size);
  if (size > 0) std::memmove(dst, src, static_cast<size_t>(size));
}

int armci_domain_count(armci_domain_t domain) {
  if (domain != ARMCI_DOMAIN_SMP)
    fail("armci_domain_count", "domain=%d is not ARMCI_DOMAIN_SMP", domain);
  require_initialized("armci_domain_count");
  int nodes = 0;
  for (int r = 0; r < the_size; ++r) nodes = std::max(nodes, remora_rank_node(r) + 1);
  return nodes;
}

int armci_domain_id(armci_domain_t domain, int glob_proc_id) {
  if (domain != ARMCI_DOMAIN_SMP)
    fail("armci_domain_id", "domain=%d is not ARMCI_DOMAIN_SMP", domain);
  check_proc("armci_domain_id", "glob_proc_id", glob_proc_id);
  return remora_rank_node(glob_proc_id);
}

int armci_domain_my_id(armci_domain_t domain) {
  if (domain != ARMCI_DOMAIN_SMP)
    fail("armci_domain_my_id", "domain=%d is not ARMCI_DOMAIN_SMP", domain);
  require_initialized("armci_domain_my_id");
  return remora_node();
}

int armci_domain_nprocs(armci_domain_t domain, int id) {
  const int count = armci_domain_count(domain);
  if (id < 0 || id >= count)
    fail("armci_domain_nprocs", "id=%d is not a node in [0, %d)", id, count);
  int n = 0;
  for (int r = 0; r < the_size; ++r) n += remora_rank_node(r) == id ? 1 : 0;
  return n;
}

int armci_domain_glob_proc_id(armci_domain_t domain, int id, int loc_proc_id) {
  const int n = armci_domain_nprocs(domain, id);
  if (loc_proc_id < 0 || loc_proc_id >= n)
    fail("armci_domain_glob_proc_id", "loc_proc_id=%d is outside [0, %d) on node %d", loc_proc_id,
         n, id);
  for (int r = 0, k = 0; r < the_size; ++r)
    if (remora_rank_node(r) == id && k++ == loc_proc_id) return r;
  return -1;  // not reached
}

int armci_domain_same_id(armci_domain_t domain, int proc) {
  return armci_domain_id(domain, proc) == remora_node() ? 1 : 0;
}

int PARMCI_Same_node(int proc) {
  return armci_domain_same_id(ARMCI_DOMAIN_SMP, proc);
}

int PARMCI_Uses_shm(void) {
  return 1;
}

void PARMCI_Set_shm_limit(unsigned long) {}

}  // extern "C"

// The ARMCI_ names: weak aliases of the PARMCI_ definitions (armci_internal.hpp).
REMORA_ARMCI_PROFILED(ARMCI_Init);
REMORA_ARMCI_PROFILED(ARMCI_Init_args);
REMORA_ARMCI_PROFILED(ARMCI_Init_thread);
REMORA_ARMCI_PROFILED(ARMCI_Init_thread_comm);
REMORA_ARMCI_PROFILED(ARMCI_Initialized);
REMORA_ARMCI_PROFILED(ARMCI_Finalize);
REMORA_ARMCI_PROFILED(ARMCI_Cleanup);
REMORA_ARMCI_PROFILED(ARMCI_Error);
REMORA_ARMCI_PROFILED(ARMCI_Malloc);
REMORA_ARMCI_PROFILED(ARMCI_Free);
REMORA_ARMCI_PROFILED(ARMCI_Malloc_local);
REMORA_ARMCI_PROFILED(ARMCI_Free_local);
REMORA_ARMCI_PROFILED(ARMCI_Barrier);
REMORA_ARMCI_PROFILED(ARMCI_Fence);
REMORA_ARMCI_PROFILED(ARMCI_AllFence);
REMORA_ARMCI_PROFILED(ARMCI_Access_begin);
REMORA_ARMCI_PROFILED(ARMCI_Access_end);
REMORA_ARMCI_PROFILED(ARMCI_Copy);
REMORA_ARMCI_PROFILED(ARMCI_Same_node);
REMORA_ARMCI_PROFILED(ARMCI_Uses_shm);
REMORA_ARMCI_PROFILED(ARMCI_Set_shm_limit);
