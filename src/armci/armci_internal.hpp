// The ARMCI-compatible layer's shared internals: failure reporting, ARMCI's ranks, and the table
// of ARMCI_Malloc regions that turns a remote address into (window, offset). Every src/armci/
// file builds on this header; it uses only Remora's public C API.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "armci.h"
#include "remora.h"

// The profiling interface (as ARMCI-MPI's): each call is defined as PARMCI_<name> and
// ARMCI_<name> is a weak alias of it, so that a program or a tool library defining its own
// ARMCI_<name> replaces it (at static link time: the strong definition wins over the weak one;
// with the shared library: the dynamic linker binds ARMCI_<name> to the first definition in
// lookup order, the executable's or an earlier library's) and reaches the implementation
// through PARMCI_<name>. The layer never calls its own ARMCI_ names. Written after the
// extern "C" definitions of the file that defines PARMCI_<name>.
#define REMORA_ARMCI_PROFILED(name) \
  extern "C" decltype(P##name) name __attribute__((weak, alias("P" #name)))
// The same for armci_msg_barrier / armci_msg_group_barrier (parmci_msg_barrier, ...).
#define REMORA_ARMCI_PROFILED_MSG(name) \
  extern "C" decltype(p##name) name __attribute__((weak, alias("p" #name)))

namespace remora::armci {

// Ends the job: "<fn> (rank R): <message>" (printf-style), as ARMCI_Error does.
[[noreturn]] void fail(const char* fn, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
// A Remora call that returned status < 0: fails with remora_last_error().
void check(const char* fn, int status);
// Fails unless ARMCI_Init* ran (and ARMCI_Finalize did not end it).
void require_initialized(const char* fn);
int my_rank();
int nprocs();
// Fails unless 0 <= proc < nprocs(); what names the argument ("proc", "target", ...).
void check_proc(const char* fn, const char* what, int proc);
// Fails when bytes < 0.
void check_bytes(const char* fn, const char* what, long bytes);
remora_comm_t world_comm();
remora_comm_t node_comm();  // the ranks of this rank's node

// An ARMCI group (ARMCI_Group holds its index in the table, armci_group.cpp): its
// communicator (NULL on a rank that is not a member), its members as ARMCI (absolute) ranks in
// group-rank order, and the other direction (-1 for a rank outside). The world group is index 0.
struct Group {
  remora_comm_t comm = nullptr;
  remora_comm_t node = nullptr;  // the members on this rank's node (SCOPE_NODE)
  std::vector<int> members;      // group rank -> absolute rank
  std::vector<int> group_rank;   // absolute rank -> group rank, -1 outside
  int rank = -1;                 // this rank's group rank, -1 outside
  bool freed = false;
};
// The group an ARMCI_Group names; fails naming what (the argument) unless it is a group of
// this rank that was not freed (and, when member_only, that this rank belongs to).
Group& group_of(const char* fn, const char* what, const ARMCI_Group* group, bool member_only);
Group& default_group();
void groups_start();   // the world group (ARMCI_Init)
void groups_finish();  // frees every group's communicators (ARMCI_Finalize)
// Memory: ARMCI_Malloc_group / ARMCI_Free_group over group (ARMCI_Malloc / Free: the default).
void malloc_in(const char* fn, Group& group, void** ptr_arr, long bytes);
void free_in(const char* fn, Group& group, void* ptr);

// One ARMCI_Malloc: a window of disp_unit 1 under lock_all for its whole life, every rank's
// base address and size, and which targets have puts (kPendingPut) or accumulates
// (kPendingAcc) not yet flushed. Threads of a rank (ARMCI_Init_thread with
// MPI_THREAD_MULTIPLE) mark and flush at the same time, so "not yet flushed" is kept as
// counters: each put or accumulate counts one mark after it is issued; a flush notes the
// counts it saw before it began and, once complete, raises the flushed counts to them (a mark
// counted after the flush began stays pending). The table itself changes only in ARMCI_Malloc
// and ARMCI_Free, which are collective and single-threaded.
constexpr unsigned char kPendingPut = 1, kPendingAcc = 2;
struct Marks {
  std::atomic<uint64_t> issued[2] = {};   // puts, accumulates
  std::atomic<uint64_t> flushed[2] = {};  // of those, covered by a completed flush
};
struct Region {
  remora_win_t win = nullptr;
  const Group* group = nullptr;  // the group it was allocated over
  std::vector<int> win_rank;     // absolute rank -> rank in win, -1 outside the group
  std::vector<uintptr_t> base;   // 0 where the rank gave 0 bytes
  std::vector<size_t> bytes;
  std::unique_ptr<Marks[]> marks;  // per target
  Marks all;                       // the sum over targets (fence_all)
};
std::vector<std::unique_ptr<Region>>& regions();  // in creation order (the same on all ranks)

struct Location {
  Region* region;
  size_t offset;
};
// The region holding [addr, addr + bytes) of proc's ARMCI_Malloc memory; fails naming what
// (the argument) and its value otherwise.
Location locate(const char* fn, const char* what, const void* addr, size_t bytes, int proc);

void mark_dirty(Region& region, int proc, unsigned char kind);
// Remote completion of puts and accumulates to proc in region when some of kinds are pending.
void flush_if_dirty(const char* fn, Region& region, int proc,
                    unsigned char kinds = kPendingPut | kPendingAcc);
void fence(const char* fn, int proc);
void fence_all(const char* fn);

// Nonblocking operations not yet waited for (armci_rma.cpp): each piece of an ARMCI_Nb* call is
// one request-based window operation, recorded with its handle (NULL: implicit) and target.
// Waits for (and forgets) those of one handle, of one target (-1: all), or on one window.
void wait_pending_handle(const char* fn, const armci_hdl_t* handle);
void wait_pending_target(const char* fn, int target);
void wait_pending_window(const char* fn, remora_win_t win);
// 0 when every request of handle is complete (they are then forgotten), else 1 (ARMCI_Test).
int test_pending_handle(const char* fn, const armci_hdl_t* handle);

// Element type and size of an ARMCI_ACC_* code; fails for other values.
remora_datatype_t acc_datatype(const char* fn, int datatype, size_t* element_bytes);

// Frees every region and the mutexes (ARMCI_Finalize).
void free_all_regions();
void destroy_mutexes_at_finalize();
// ARMCIX mutex handles still alive at ARMCI_Finalize (armci_ext.cpp).
void destroy_mutex_handles_at_finalize();
// Point-to-point messages (armci_msg_snd/rcv): registers the handler (ARMCI_Init).
void message_init();

}  // namespace remora::armci
