#include "coll/internal_calls.hpp"

#include <string>
#include <vector>

#include "coll/algorithms/algorithms.hpp"
#include "core/error.hpp"
#include "remora/types.h"
#include "rma/reduce_op.hpp"

namespace remora::coll {
namespace {

// One blocking collective with the algorithm auto takes (Collectives::launch); a failure's
// message is prefixed with function.
int run(const char* function, Collectives& collectives, const CommPtr& comm, Operation operation,
        size_t bytes, CollectiveArgs& args) {
  const int status = collectives.launch(comm, operation, Algorithm::Auto, bytes, &args);
  if (status == REMORA_SUCCESS) return status;
  const std::string message = last_error();
  return fail(status, "%s: %s", function, message.c_str());
}

CollectiveArgs uint64_args(const uint64_t* send, uint64_t* recv, size_t ranks) {
  CollectiveArgs args;
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

int run_barrier(const char* function, Collectives& collectives, const CommPtr& comm) {
  CollectiveArgs args;
  return run(function, collectives, comm, Operation::Barrier, 0, args);
}

int run_allreduce(const char* function, Collectives& collectives, const CommPtr& comm, void* values,
                  size_t count, int type, int op) {
  CollectiveArgs args;
  args.in_place = true;
  args.recv = values;
  args.count = count;
  args.type = type;
  args.extent = rma::datatype_size(type);
  args.op = op;
  return run(function, collectives, comm, Operation::Allreduce, count * args.extent, args);
}

int run_allgather(const char* function, Collectives& collectives, const CommPtr& comm,
                  uint64_t mine, uint64_t* all) {
  const auto ranks = static_cast<size_t>(comm->size());
  CollectiveArgs args = uint64_args(&mine, all, ranks);
  return run(function, collectives, comm, Operation::Allgather, ranks * sizeof(uint64_t), args);
}

int run_reduce_scatter_sum(const char* function, Collectives& collectives, const CommPtr& comm,
                           const uint64_t* counts, uint64_t* mine) {
  const auto ranks = static_cast<size_t>(comm->size());
  CollectiveArgs args = uint64_args(counts, mine, ranks);
  args.recv_displs.clear();
  args.op = REMORA_OP_SUM;
  // The shared-memory algorithm on a node, as auto takes it: a deferred fence then costs what
  // a reduce_scatter_block costs.
  return run(function, collectives, comm, Operation::ReduceScatter, ranks * sizeof(uint64_t), args);
}

int window_group(const char* function, Collectives& collectives, const CommPtr& parent,
                 std::shared_ptr<const rma::WindowGroup>* group) {
  if (parent == collectives.world()) {
    group->reset();
    return REMORA_SUCCESS;
  }
  CommPtr own;
  if (int status = collectives.dup(parent, &own)) return status;
  auto made = std::make_shared<rma::WindowGroup>();
  const auto size = static_cast<size_t>(own->size());
  for (int rank = 0; rank < own->size(); ++rank) made->world_ranks.push_back(own->world_rank(rank));
  Collectives* all = &collectives;
  const std::string name = function;  // the window outlives this call's string
  made->barrier = [all, own, name] { return run_barrier(name.c_str(), *all, own); };
  made->reduce_scatter = [all, own, size, name](const uint64_t* counts, uint64_t* mine) {
    std::vector<uint64_t> by_member(size);
    for (size_t rank = 0; rank < size; ++rank)
      by_member[rank] = counts[own->world_rank(static_cast<int>(rank))];
    return run_reduce_scatter_sum(name.c_str(), *all, own, by_member.data(), mine);
  };
  made->allgather = [all, own, size, name](uint64_t value, std::vector<uint64_t>* values) {
    values->assign(size, 0);
    return run_allgather(name.c_str(), *all, own, value, values->data());
  };
  *group = std::move(made);
  return REMORA_SUCCESS;
}

}  // namespace remora::coll
