#include "api/window_comm.hpp"

#include <string>
#include <vector>

#include "api/world_reduce_scatter.hpp"
#include "coll/algorithms/algorithms.hpp"
#include "core/error.hpp"

namespace remora::api {
namespace {

using CommPtr = std::shared_ptr<coll::Communicator>;

// Runs one blocking collective on comm, built by build(schedule, args).
template <typename Build>
int run(coll::Collectives& collectives, const CommPtr& comm, coll::CollectiveArgs& args,
        Build build) {
  auto schedule = collectives.new_schedule(comm);
  build(*schedule, args);
  schedule->start();
  return collectives.wait(*schedule);
}

// An allgather of one uint64 per rank.
coll::CollectiveArgs allgather_args(const uint64_t* send, uint64_t* recv, size_t ranks) {
  coll::CollectiveArgs args;
  args.send = send;
  args.recv = recv;
  args.type = REMORA_UINT64;
  args.extent = sizeof(uint64_t);
  args.count = 1;
  args.recv_counts.assign(ranks, 1);
  for (size_t rank = 0; rank < ranks; ++rank) args.recv_displs.push_back(rank);
  return args;
}

}  // namespace

int window_group(const char* function, Runtime& runtime, remora_comm_t comm,
                 std::shared_ptr<const rma::WindowGroup>* group) {
  coll::Collectives& collectives = *runtime.collectives;
  if (comm == REMORA_COMM_NULL)
    return fail(REMORA_ERR_ARG, "%s: comm is REMORA_COMM_NULL", function);
  const CommPtr parent = collectives.communicators.find(comm);
  if (parent == nullptr)
    return fail(REMORA_ERR_ARG, "%s: comm=%p is not a live communicator (freed, or never created)",
                function, static_cast<void*>(comm));
  if (parent == collectives.world()) {
    group->reset();
    return REMORA_SUCCESS;
  }
  CommPtr own;
  if (int status = collectives.dup(parent, &own)) return status;
  auto made = std::make_shared<rma::WindowGroup>();
  const auto size = static_cast<size_t>(own->size());
  for (int rank = 0; rank < own->size(); ++rank) made->world_ranks.push_back(own->world_rank(rank));
  coll::Collectives* all = &collectives;
  made->barrier = [all, own] {
    coll::CollectiveArgs args;
    return run(*all, own, args,
               [](coll::Schedule& s, const coll::CollectiveArgs&) { coll::build_barrier(s); });
  };
  made->reduce_scatter = [all, own, size](const uint64_t* counts, uint64_t* mine) {
    std::vector<uint64_t> by_member(size);
    for (size_t rank = 0; rank < size; ++rank)
      by_member[rank] = counts[own->world_rank(static_cast<int>(rank))];
    return reduce_scatter_sum(*all, own, by_member.data(), mine);
  };
  made->allgather = [all, own, size](uint64_t value, std::vector<uint64_t>* values) {
    values->assign(size, 0);
    coll::CollectiveArgs args = allgather_args(&value, values->data(), size);
    return run(*all, own, args, coll::build_allgather);
  };
  *group = std::move(made);
  return REMORA_SUCCESS;
}

int agree_on_arguments(const char* function, Runtime& runtime, const remora_comm_t* comm,
                       int local_status) {
  coll::Collectives& collectives = *runtime.collectives;
  const CommPtr on = comm == nullptr             ? collectives.world()
                     : *comm == REMORA_COMM_NULL ? nullptr
                                                 : collectives.communicators.find(*comm);
  if (on == nullptr) return local_status;
  const std::string message = local_status == REMORA_SUCCESS ? "" : last_error();
  const uint64_t failed = local_status == REMORA_SUCCESS ? 0 : 1;
  std::vector<uint64_t> all(static_cast<size_t>(on->size()));
  coll::CollectiveArgs args = allgather_args(&failed, all.data(), all.size());
  if (int status = run(collectives, on, args, coll::build_allgather)) return status;
  if (local_status != REMORA_SUCCESS) return fail(local_status, "%s", message.c_str());
  for (size_t rank = 0; rank < all.size(); ++rank)
    if (all[rank] != 0)
      return fail(REMORA_ERR_ARG,
                  "%s: rank %zu of the communicator passed invalid arguments (its own error names "
                  "them); no rank created the window",
                  function, rank);
  return REMORA_SUCCESS;
}

}  // namespace remora::api
