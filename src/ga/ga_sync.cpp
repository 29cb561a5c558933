// Synchronisation: GA_Sync, fences, mutexes and GA_Mask_sync.
#include "ga/ga_registry.hpp"
#include "ga/ga_stats.hpp"

namespace remora::ga {
namespace {
remora_mutexes_t mutexes = nullptr;
int mutex_count = 0;

void check_mutex(const char* fn, int mutex) {
  require_initialized(fn);
  if (mutexes == nullptr || mutex < 0 || mutex >= mutex_count)
    ga_fail(fn, "mutex=%d is not one of the %d mutexes of GA_Create_mutexes", mutex, mutex_count);
}

}  // namespace
}  // namespace remora::ga

using namespace remora::ga;

extern "C" {

void GA_Sync(void) {
  require_initialized("GA_Sync");
  ghosts_before_sync("GA_Sync");  // writes through padded blocks reach the arrays
  // GA_Sync synchronises the default group (pgroups part).
  if (default_pgroup() == kWorldGroup)
    check("GA_Sync", remora_array_sync());
  else
    GA_Pgroup_sync(default_pgroup());
  ghosts_after_sync("GA_Sync");
  invalidate_read_caches();
  stat_record(Stat::Sync, 0);
}

// GA_Fence completes this rank's puts and accumulates on every array. Remora tracks what
// each array touched, so no fence needs to be opened first: GA_Init_fence has nothing to do.
void GA_Init_fence(void) {
  require_initialized("GA_Init_fence");
}

void GA_Fence(void) {
  require_initialized("GA_Fence");
  for (int handle : live_handles()) {
    const GaArray& a = lookup("GA_Fence", handle);
    if (a.array != nullptr) check("GA_Fence", remora_array_flush(a.array));
  }
  invalidate_read_caches();
}

int GA_Create_mutexes(int number) {
  require_initialized("GA_Create_mutexes");
  if (number < 0) ga_fail("GA_Create_mutexes", "number=%d is negative", number);
  if (mutexes != nullptr) return 0;  // GA: one set at a time
  if (number == 0) return 1;
  check("GA_Create_mutexes", remora_mutexes_create(number, &mutexes));
  mutex_count = number;
  return 1;
}

int GA_Destroy_mutexes(void) {
  require_initialized("GA_Destroy_mutexes");
  if (mutexes == nullptr) return mutex_count == 0 ? 1 : 0;
  check("GA_Destroy_mutexes", remora_mutexes_destroy(&mutexes));
  mutex_count = 0;
  return 1;
}

void GA_Lock(int mutex) {
  check_mutex("GA_Lock", mutex);
  check("GA_Lock", remora_mutex_lock(mutexes, mutex));
  invalidate_read_caches();  // what the previous holder wrote may be read now
}

void GA_Unlock(int mutex) {
  check_mutex("GA_Unlock", mutex);
  invalidate_read_caches();
  check("GA_Unlock", remora_mutex_unlock(mutexes, mutex));
}

// GA may skip the synchronisation at the start (first == 0) or end (last == 0) of the next
// collective operation. Remora's collective operations always synchronise, which gives the
// same results: accepted, no effect.
void GA_Mask_sync(int first, int last) {
  require_initialized("GA_Mask_sync");
  (void)first;
  (void)last;
}

}  // extern "C"
