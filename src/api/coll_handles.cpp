#include "api/coll_handles.hpp"

#include "core/error.hpp"

namespace remora::api {

int enter_waiting(const char* function, Runtime** runtime) {
  if (int status = enter(function, runtime)) return status;
  return check_not_in_handler(function);
}

int find_comm(const char* function, const char* name, remora_comm_t handle, const Runtime& runtime,
              CommPtr* comm) {
  if (handle == REMORA_COMM_NULL)
    return fail(REMORA_ERR_ARG, "%s: %s is REMORA_COMM_NULL", function, name);
  *comm = runtime.collectives->communicators.find(handle);
  if (*comm == nullptr)
    return fail(REMORA_ERR_ARG, "%s: %s=%p is not a live communicator (freed, or never created)",
                function, name, static_cast<void*>(handle));
  return REMORA_SUCCESS;
}

int find_group(const char* function, const char* name, remora_group_t handle,
               const Runtime& runtime, std::shared_ptr<coll::Group>* group) {
  if (handle == REMORA_GROUP_NULL)
    return fail(REMORA_ERR_ARG, "%s: %s is REMORA_GROUP_NULL", function, name);
  *group = runtime.collectives->groups.find(handle);
  if (*group == nullptr)
    return fail(REMORA_ERR_ARG, "%s: %s=%p is not a live group (freed, or never created)", function,
                name, static_cast<void*>(handle));
  return REMORA_SUCCESS;
}

remora_comm_t comm_handle(Runtime& runtime, CommPtr comm) {
  if (comm == nullptr) return REMORA_COMM_NULL;
  return static_cast<remora_comm_t>(runtime.collectives->communicators.add(std::move(comm)));
}

remora_group_t group_handle(Runtime& runtime, coll::Group group) {
  return static_cast<remora_group_t>(
      runtime.collectives->groups.add(std::make_shared<coll::Group>(std::move(group))));
}

int request_table_full(const char* function) {
  return fail(REMORA_ERR_NOMEM, "%s: %u requests are live already (complete some first)", function,
              RequestTable::kMaxLive);
}

}  // namespace remora::api
