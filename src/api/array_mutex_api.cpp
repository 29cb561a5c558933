// C API: distributed arrays (remora/array.h), mutex sets. Validates every
// argument, then hands over to the arrays layer, which trusts them.

#include "api/array_checks.hpp"
#include "api/runtime.hpp"
#include "arrays/mutex_set.hpp"
#include "core/error.hpp"
#include "remora/array.h"

using remora::fail;
using remora::api::check_pointer;
using remora::api::current_runtime;
using remora::api::enter;
using remora::api::enter_collective;
using remora::api::Runtime;
using remora::arrays::MutexSet;

namespace {

int find_mutex(const char* function, remora_mutexes_t handle, int index, MutexSet** set) {
  Runtime* runtime = nullptr;
  if (int status = enter(function, &runtime)) return status;
  if (handle == nullptr || current_runtime().array_handles.mutexes.count(handle) == 0)
    return fail(REMORA_ERR_ARG, "%s: mutexes=%p is not a live mutex set", function,
                static_cast<void*>(handle));
  *set = static_cast<MutexSet*>(handle);
  if (index < 0 || index >= (*set)->count())
    return fail(REMORA_ERR_ARG, "%s: index=%d lies outside the set's [0, %d)", function, index,
                (*set)->count());
  return REMORA_SUCCESS;
}

}  // namespace

extern "C" {

int remora_mutexes_create(int count, remora_mutexes_t* mutexes) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_mutexes_create";
  Runtime* runtime = nullptr;
  if (int status = enter_collective(function, &runtime)) return status;
  if (int status = remora::api::check_single_threaded(function)) return status;
  if (int status = check_pointer(function, "mutexes", mutexes)) return status;
  if (count < 1) return fail(REMORA_ERR_ARG, "%s: count=%d must be at least 1", function, count);
  MutexSet* set = nullptr;
  if (int status = MutexSet::create(remora::api::array_context(*runtime), count, &set))
    return status;
  current_runtime().array_handles.mutexes.insert(set);
  *mutexes = set;
  return REMORA_SUCCESS;
}

int remora_mutex_lock(remora_mutexes_t mutexes, int index) {
  REMORA_API_ENTRY();
  MutexSet* set = nullptr;
  if (int status = find_mutex("remora_mutex_lock", mutexes, index, &set)) return status;
  if (int status = remora::api::check_not_in_handler("remora_mutex_lock")) return status;
  if (set->held(index))
    return fail(REMORA_ERR_STATE, "remora_mutex_lock: mutex index=%d is already held by this rank",
                index);
  return set->lock(index);
}

int remora_mutex_unlock(remora_mutexes_t mutexes, int index) {
  REMORA_API_ENTRY();
  MutexSet* set = nullptr;
  if (int status = find_mutex("remora_mutex_unlock", mutexes, index, &set)) return status;
  if (!set->held(index))
    return fail(REMORA_ERR_STATE, "remora_mutex_unlock: mutex index=%d is not held by this rank",
                index);
  return set->unlock(index);
}

int remora_mutexes_destroy(remora_mutexes_t* mutexes) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_mutexes_destroy";
  if (int status = check_pointer(function, "mutexes", mutexes)) return status;
  if (int status = remora::api::check_single_threaded(function)) return status;
  MutexSet* set = nullptr;
  if (int status = find_mutex(function, *mutexes, 0, &set)) return status;
  if (int status = set->destroy()) return status;
  current_runtime().array_handles.mutexes.erase(set);
  delete set;
  *mutexes = nullptr;
  return REMORA_SUCCESS;
}

}  // extern "C"
