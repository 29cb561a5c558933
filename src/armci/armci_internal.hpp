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
  std::vector<uintptr_t> base;  // 0 where the rank gave 0 bytes
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
// Point-to-point messages (armci_msg_snd/rcv): registers the handler (ARMCI_Init).
void message_init();

}  // namespace remora::armci
