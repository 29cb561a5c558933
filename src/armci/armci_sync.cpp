// ARMCI_Rmw (fetch-and-add, swap) and ARMCI's mutexes. Mutex k of rank r is an int64 word in a
// window of its own: 0 when free, holder + 1 when held; lock is a compare-and-swap loop.
#include <sched.h>

#include "armci/armci_internal.hpp"

namespace remora::armci {
namespace {

remora_win_t mutex_win = nullptr;
std::vector<int> mutex_counts;  // mutexes per rank

void require_mutexes(const char* fn, int mutex, int proc) {
  check_proc(fn, "proc", proc);
  if (mutex_win == nullptr) fail(fn, "no mutexes exist (ARMCI_Create_mutexes first)");
  const int count = mutex_counts[static_cast<size_t>(proc)];
  if (mutex < 0 || mutex >= count)
    fail(fn, "mutex=%d is outside [0, %d), the mutexes rank %d created", mutex, count, proc);
}

void free_mutexes(const char* fn) {
  check(fn, remora_win_unlock_all(mutex_win));
  check(fn, remora_win_free(&mutex_win));
  mutex_counts.clear();
}

}  // namespace

void destroy_mutexes_at_finalize() {
  if (mutex_win != nullptr) free_mutexes("ARMCI_Finalize");
}

}  // namespace remora::armci

using namespace remora::armci;

extern "C" {

int PARMCI_Rmw(int op, void* ploc, void* prem, int value, int proc) {
  const char* fn = "ARMCI_Rmw";
  check_proc(fn, "proc", proc);
  const bool is_long = op == ARMCI_FETCH_AND_ADD_LONG || op == ARMCI_SWAP_LONG;
  const bool is_swap = op == ARMCI_SWAP || op == ARMCI_SWAP_LONG;
  if (op != ARMCI_FETCH_AND_ADD && op != ARMCI_FETCH_AND_ADD_LONG && !is_swap)
    fail(fn,
         "op=%d is not ARMCI_FETCH_AND_ADD, ARMCI_FETCH_AND_ADD_LONG, ARMCI_SWAP or "
         "ARMCI_SWAP_LONG",
         op);
  if (ploc == nullptr) fail(fn, "ploc is NULL");
  const size_t bytes = is_long ? sizeof(long) : sizeof(int);
  const Location where = locate(fn, "prem", prem, bytes, proc);
  if (where.offset % bytes != 0) fail(fn, "prem=%p is not aligned to %zu bytes", prem, bytes);
  flush_if_dirty(fn, *where.region, proc);
  const int target = where.region->win_rank[static_cast<size_t>(proc)];
  const remora_op_t remora_op = is_swap ? REMORA_OP_REPLACE : REMORA_OP_SUM;
  if (is_long) {
    static_assert(sizeof(long) == 8, "ARMCI's _LONG operations need an 8-byte long");
    const long origin = is_swap ? *static_cast<long*>(ploc) : static_cast<long>(value);
    long old = 0;
    check(fn, remora_win_fetch_and_op(where.region->win, target, where.offset, &origin, &old,
                                      REMORA_INT64, remora_op));
    *static_cast<long*>(ploc) = old;
  } else {
    const int origin = is_swap ? *static_cast<int*>(ploc) : value;
    int old = 0;
    check(fn, remora_win_fetch_and_op(where.region->win, target, where.offset, &origin, &old,
                                      REMORA_INT32, remora_op));
    *static_cast<int*>(ploc) = old;
  }
  return 0;
}

int PARMCI_Create_mutexes(int count) {
  const char* fn = "ARMCI_Create_mutexes";
  require_initialized(fn);
  if (count < 0) fail(fn, "count=%d is negative", count);
  if (mutex_win != nullptr) fail(fn, "mutexes exist already (ARMCI_Destroy_mutexes first)");
  check(fn, remora_win_allocate(static_cast<size_t>(count) * sizeof(int64_t), sizeof(int64_t),
                                nullptr, nullptr, &mutex_win));
  mutex_counts.assign(static_cast<size_t>(nprocs()), 0);
  check(fn, remora_allgather(&count, mutex_counts.data(), 1, REMORA_INT32, world_comm(),
                             REMORA_COLL_AUTO));
  check(fn, remora_win_lock_all(mutex_win, 0));
  return 0;
}

int PARMCI_Destroy_mutexes(void) {
  const char* fn = "ARMCI_Destroy_mutexes";
  require_initialized(fn);
  if (mutex_win == nullptr) fail(fn, "no mutexes exist (ARMCI_Create_mutexes first)");
  check(fn, remora_comm_barrier(world_comm(), REMORA_COLL_AUTO));
  free_mutexes(fn);
  return 0;
}

void PARMCI_Lock(int mutex, int proc) {
  const char* fn = "ARMCI_Lock";
  require_mutexes(fn, mutex, proc);
  const int64_t mine = my_rank() + 1, free_word = 0;
  for (;;) {
    int64_t old = -1;
    check(fn, remora_win_compare_and_swap(mutex_win, proc, static_cast<size_t>(mutex), &mine,
                                          &free_word, &old, REMORA_INT64));
    if (old == 0) return;
    if (old == mine) fail(fn, "mutex=%d of rank %d is already held by this rank", mutex, proc);
    check(fn, remora_progress());
    sched_yield();
  }
}

void PARMCI_Unlock(int mutex, int proc) {
  const char* fn = "ARMCI_Unlock";
  require_mutexes(fn, mutex, proc);
  fence_all(fn);  // what was written under the lock is complete before the next holder enters
  const int64_t mine = my_rank() + 1, free_word = 0;
  int64_t old = -1;
  check(fn, remora_win_compare_and_swap(mutex_win, proc, static_cast<size_t>(mutex), &free_word,
                                        &mine, &old, REMORA_INT64));
  if (old != mine)
    fail(fn, "mutex=%d of rank %d is not held by this rank (holder: %lld)", mutex, proc,
         static_cast<long long>(old - 1));
}

}  // extern "C"

// The ARMCI_ names: weak aliases of the PARMCI_ definitions (armci_internal.hpp).
REMORA_ARMCI_PROFILED(ARMCI_Rmw);
REMORA_ARMCI_PROFILED(ARMCI_Create_mutexes);
REMORA_ARMCI_PROFILED(ARMCI_Destroy_mutexes);
REMORA_ARMCI_PROFILED(ARMCI_Lock);
REMORA_ARMCI_PROFILED(ARMCI_Unlock);
