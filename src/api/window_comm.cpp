#include "api/window_comm.hpp"

#include <string>
#include <vector>

#include "coll/internal_calls.hpp"
#include "core/error.hpp"

namespace remora::api {

int window_group(const char* function, Runtime& runtime, remora_comm_t comm,
                 std::shared_ptr<const rma::WindowGroup>* group) {
  coll::Collectives& collectives = *runtime.collectives;
  if (comm == REMORA_COMM_NULL)
    return fail(REMORA_ERR_ARG, "%s: comm is REMORA_COMM_NULL", function);
  const coll::CommPtr parent = collectives.communicators.find(comm);
  if (parent == nullptr)
    return fail(REMORA_ERR_ARG, "%s: comm=%p is not a live communicator (freed, or never created)",
                function, static_cast<void*>(comm));
  return coll::window_group(function, collectives, parent, group);
}

int agree_on_arguments(const char* function, Runtime& runtime, const remora_comm_t* comm,
                       int local_status) {
  coll::Collectives& collectives = *runtime.collectives;
  const coll::CommPtr on = comm == nullptr             ? collectives.world()
                           : *comm == REMORA_COMM_NULL ? nullptr
                                                       : collectives.communicators.find(*comm);
  return agree_over(function, runtime, on, local_status, "no rank created the window");
}

int agree_over(const char* function, Runtime& runtime, const coll::CommPtr& on, int local_status,
               const char* outcome) {
  if (on == nullptr) return local_status;
  auto allgather = [&](uint64_t mine, std::vector<uint64_t>* all) {
    all->resize(static_cast<size_t>(on->size()));
    return coll::run_allgather(function, *runtime.collectives, on, mine, all->data());
  };
  return agree_with(function, allgather, local_status, outcome);
}

int agree_with(const char* function, const transport::Transport::GroupAllgather& allgather,
               int local_status, const char* outcome) {
  const std::string message = local_status == REMORA_SUCCESS ? "" : last_error();
  const uint64_t failed = local_status == REMORA_SUCCESS ? 0 : 1;
  std::vector<uint64_t> all;
  if (int status = allgather(failed, &all)) return status;
  if (local_status != REMORA_SUCCESS) return fail(local_status, "%s", message.c_str());
  for (size_t rank = 0; rank < all.size(); ++rank)
    if (all[rank] != 0)
      return fail(REMORA_ERR_ARG,
                  "%s: rank %zu of the communicator passed invalid arguments (its own error names "
                  "them); %s",
                  function, rank, outcome);
  return REMORA_SUCCESS;
}

}  // namespace remora::api
