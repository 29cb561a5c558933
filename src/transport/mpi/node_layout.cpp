#include "transport/mpi/node_layout.hpp"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/cpus.hpp"
#include "core/error.hpp"

namespace remora::mpi {

namespace {

// The CPUs that any of the ranks of `shared` may run on (collective over it).
int union_of_cpus(MPI_Comm shared) {
  int size = 0;
  MPI_Comm_size(shared, &size);
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) CPU_ZERO(&mine);
  std::vector<cpu_set_t> all(static_cast<size_t>(size));
  MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, shared);
  cpu_set_t any;
  CPU_ZERO(&any);
  for (cpu_set_t& set : all) CPU_OR(&any, &any, &set);
  const int count = CPU_COUNT(&any);
  return count > 0 ? count : available_cpus();
}

}  // namespace

int split_nodes(MPI_Comm comm, int node_size_limit, MPI_Comm* node_comm, int* machine_ranks,
                int* machine_cpus) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm shared = MPI_COMM_NULL;
  if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared) != MPI_SUCCESS)
    return fail(REMORA_ERR_SYSTEM, "remora_init: MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) failed");
  int shared_rank = 0;
  MPI_Comm_rank(shared, &shared_rank);
  if (machine_ranks != nullptr) MPI_Comm_size(shared, machine_ranks);
  if (machine_cpus != nullptr) *machine_cpus = union_of_cpus(shared);
  const int color = node_size_limit > 0 ? shared_rank / node_size_limit : 0;
  MPI_Comm_split(shared, color, rank, node_comm);
  MPI_Comm_free(&shared);
  return REMORA_SUCCESS;
}

int build_node_layout(MPI_Comm comm, int node_size_limit, NodeLayout* layout) {
  if (int status = split_nodes(comm, node_size_limit, &layout->node_comm, &layout->machine_ranks,
                               &layout->machine_cpus))
    return status;
  describe_node_layout(comm, layout);
  return REMORA_SUCCESS;
}

void describe_node_layout(MPI_Comm comm, NodeLayout* layout) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(layout->node_comm, &layout->node_rank);

  // A node is named by its lowest job rank (its leader); nodes are numbered in leader order.
  int leader = rank;
  MPI_Bcast(&leader, 1, MPI_INT, 0, layout->node_comm);
  std::vector<int> leaders(static_cast<size_t>(size));
  MPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, comm);
  std::vector<int> distinct = leaders;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  layout->node_count = static_cast<int>(distinct.size());
  layout->node_of.assign(static_cast<size_t>(size), 0);
  layout->index_on_node.assign(static_cast<size_t>(size), 0);
  std::vector<int> filled(distinct.size(), 0);
  layout->node_ranks.clear();
  for (int r = 0; r < size; ++r) {
    const auto node = static_cast<size_t>(
        std::lower_bound(distinct.begin(), distinct.end(), leaders[static_cast<size_t>(r)]) -
        distinct.begin());
    layout->node_of[static_cast<size_t>(r)] = static_cast<int>(node);
    layout->index_on_node[static_cast<size_t>(r)] = filled[node]++;
  }
  layout->node = layout->node_of[static_cast<size_t>(rank)];
  for (int r = 0; r < size; ++r)
    if (layout->node_of[static_cast<size_t>(r)] == layout->node) layout->node_ranks.push_back(r);
}

int share_control_block(const NodeLayout& layout, const std::string& job_id, const Config& config,
                        shm::ControlBlock* block) {
  return share_control_block(layout, layout.node_comm, 0, job_id, config, block);
}

int share_control_block(const NodeLayout& layout, MPI_Comm members, int ghosts,
                        const std::string& job_id, const Config& config, shm::ControlBlock* block) {
  int member = 0;
  MPI_Comm_rank(members, &member);
  // Leader: create. Message: status, pid, descriptor.
  int message[3] = {REMORA_SUCCESS, static_cast<int>(getpid()), -1};
  std::string leader_error;
  if (member == 0) {
    message[0] = shm::ControlBlock::create(
        static_cast<int>(layout.node_ranks.size()), format("%s-n%d", job_id.c_str(), layout.node),
        static_cast<uint32_t>(config.am_queue_slots), static_cast<uint32_t>(config.am_slot_bytes),
        true, block, ghosts);
    message[2] = message[0] == REMORA_SUCCESS ? block->fd() : -1;
  }
  MPI_Bcast(message, 3, MPI_INT, 0, members);
  int status = message[0];
  if (status != REMORA_SUCCESS) {
    if (member != 0)
      status = fail(status,
                    "remora_init: the leader of node %d could not create the node's "
                    "control block",
                    layout.node);
  } else if (member != 0) {
    const std::string path = format("/proc/%d/fd/%d", message[1], message[2]);
    const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
    status = fd < 0 ? fail(REMORA_ERR_SYSTEM,
                           "remora_init: cannot open the node's control block %s (created by "
                           "job rank %d): %s",
                           path.c_str(), layout.node_ranks[0], std::strerror(errno))
                    : shm::ControlBlock::attach(fd, block);
  }
  // Everyone has it open before the leader may go on (and, on failure, everyone fails).
  int worst = status;
  MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MIN, members);
  if (worst != REMORA_SUCCESS && status == REMORA_SUCCESS)
    return fail(worst, "remora_init: another rank of node %d could not open the control block",
                layout.node);
  return status;
}

}  // namespace remora::mpi
