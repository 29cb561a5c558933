// ARMCI-MPI's extensions (armcix.h): mutex handles and ARMCIX_Progress (ARMCIX_Group_split /
// ARMCIX_Group_dup are in armci_group.cpp, beside the table of groups). A handle's mutexes live
// in a window over the group's ranks, one int64 word per mutex: 0 when free, holder's group
// rank + 1 when held; lock is a compare-and-swap loop, as ARMCI_Lock's.
#include <sched.h>

#include <algorithm>

#include "armci/armci_internal.hpp"
#include "armcix.h"

struct armcix_mutex_hdl_s {
  remora_win_t win = nullptr;
  remora_comm_t comm = nullptr;  // a duplicate of the group's communicator
  std::vector<int> counts;       // mutexes per group rank
  std::vector<int> group_rank;   // absolute rank -> group rank, -1 outside the group
  int rank = -1;                 // this rank's group rank
};

namespace remora::armci {
namespace {

std::vector<armcix_mutex_hdl_t>& live_handles() {
  static std::vector<armcix_mutex_hdl_t> handles;
  return handles;
}

void require_handle(const char* fn, armcix_mutex_hdl_t hdl) {
  require_initialized(fn);
  auto& live = live_handles();
  if (hdl == nullptr || std::find(live.begin(), live.end(), hdl) == live.end())
    fail(fn, "hdl=%p is not a live mutex handle (ARMCIX_Create_mutexes_hdl, not yet destroyed)",
         static_cast<void*>(hdl));
}

// proc is an absolute rank (as in ARMCI-MPI); returns its rank in the handle's group.
int require_mutex(const char* fn, armcix_mutex_hdl_t hdl, int mutex, int proc) {
  require_handle(fn, hdl);
  check_proc(fn, "proc", proc);
  const int target = hdl->group_rank[static_cast<size_t>(proc)];
  if (target < 0) fail(fn, "proc=%d is not a member of the handle's group", proc);
  const int count = hdl->counts[static_cast<size_t>(target)];
  if (mutex < 0 || mutex >= count)
    fail(fn, "mutex=%d is outside [0, %d), the mutexes rank %d created", mutex, count, proc);
  return target;
}

void release(const char* fn, armcix_mutex_hdl_t hdl) {
  check(fn, remora_win_unlock_all(hdl->win));
  check(fn, remora_win_free(&hdl->win));
  check(fn, remora_comm_free(&hdl->comm));
  auto& live = live_handles();
  live.erase(std::find(live.begin(), live.end(), hdl));
  delete hdl;
}

// One attempt: whether this rank took the mutex.
bool try_take(const char* fn, armcix_mutex_hdl_t hdl, int mutex, int target) {
  const int64_t mine = hdl->rank + 1, free_word = 0;
  int64_t old = -1;
  check(fn, remora_win_compare_and_swap(hdl->win, target, static_cast<size_t>(mutex), &mine,
                                        &free_word, &old, REMORA_INT64));
  if (old == mine)
    fail(fn, "mutex=%d of group rank %d is already held by this rank", mutex, target);
  return old == 0;
}

}  // namespace

void destroy_mutex_handles_at_finalize() {
  while (!live_handles().empty()) release("ARMCI_Finalize", live_handles().back());
}

}  // namespace remora::armci

using namespace remora::armci;

extern "C" {

armcix_mutex_hdl_t ARMCIX_Create_mutexes_hdl(int count, ARMCI_Group* pgroup) {
  const char* fn = "ARMCIX_Create_mutexes_hdl";
  require_initialized(fn);
  Group& g = group_of(fn, "pgroup", pgroup, true);
  if (count < 0) fail(fn, "count=%d is negative", count);
  auto* hdl = new armcix_mutex_hdl_s;
  hdl->rank = g.rank;
  hdl->counts.assign(g.members.size(), 0);
  hdl->group_rank = g.group_rank;
  check(fn, remora_comm_dup(g.comm, &hdl->comm));
  check(fn,
        remora_allgather(&count, hdl->counts.data(), 1, REMORA_INT32, hdl->comm, REMORA_COLL_AUTO));
  check(fn, remora_win_allocate_comm(hdl->comm, static_cast<size_t>(count) * sizeof(int64_t),
                                     sizeof(int64_t), nullptr, nullptr, &hdl->win));
  check(fn, remora_win_lock_all(hdl->win, 0));
  live_handles().push_back(hdl);
  return hdl;
}

int ARMCIX_Destroy_mutexes_hdl(armcix_mutex_hdl_t hdl) {
  const char* fn = "ARMCIX_Destroy_mutexes_hdl";
  require_handle(fn, hdl);
  check(fn, remora_comm_barrier(hdl->comm, REMORA_COLL_AUTO));
  release(fn, hdl);
  return 0;
}

void ARMCIX_Lock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc) {
  const char* fn = "ARMCIX_Lock_hdl";
  const int target = require_mutex(fn, hdl, mutex, proc);
  while (!try_take(fn, hdl, mutex, target)) {
    check(fn, remora_progress());
    sched_yield();
  }
}

int ARMCIX_Trylock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc) {
  const char* fn = "ARMCIX_Trylock_hdl";
  const int target = require_mutex(fn, hdl, mutex, proc);
  return try_take(fn, hdl, mutex, target) ? 0 : 1;
}

void ARMCIX_Unlock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc) {
  const char* fn = "ARMCIX_Unlock_hdl";
  const int target = require_mutex(fn, hdl, mutex, proc);
  fence_all(fn);  // what was written under the lock is complete before the next holder enters
  const int64_t mine = hdl->rank + 1, free_word = 0;
  int64_t old = -1;
  check(fn, remora_win_compare_and_swap(hdl->win, target, static_cast<size_t>(mutex), &free_word,
                                        &mine, &old, REMORA_INT64));
  if (old != mine)
    fail(fn, "mutex=%d of rank %d is not held by this rank (holder: group rank %lld)", mutex, proc,
         static_cast<long long>(old - 1));
}

void ARMCIX_Progress(void) {
  const char* fn = "ARMCIX_Progress";
  require_initialized(fn);
  check(fn, remora_progress());
}

}  // extern "C"
