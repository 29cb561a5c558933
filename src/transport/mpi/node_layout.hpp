// Which ranks of an MPI job share a node, and the node's control block. Ranks that share
// memory are found with MPI_Comm_split_type(MPI_COMM_TYPE_SHARED); REMORA_NODE_SIZE=k then
// cuts each such node into "nodes" of k ranks, so that k=1 sends every operation between two
// ranks through MPI even on one machine. The node's leader creates the control block in a
// memfd and its peers open that descriptor through /proc, so the block never has a name.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "core/config.hpp"
#include "transport/shm/control_block.hpp"

namespace remora::mpi {

struct NodeLayout {
  MPI_Comm node_comm = MPI_COMM_NULL;  // the ranks of this node, ordered by job rank
  int node = 0;                        // this rank's node index
  int node_count = 1;
  int node_rank = 0;               // this rank's index on its node
  std::vector<int> node_of;        // per job rank
  std::vector<int> node_ranks;     // job ranks of this node, ascending
  std::vector<int> index_on_node;  // per job rank: its index on its node
  int machine_ranks = 1;           // ranks sharing this machine's memory and CPUs, before the cut
  int machine_cpus = 1;            // CPUs they may run on (the union of their affinity masks)
};

// Collective over comm. job_id names the job (the same on every rank).
int build_node_layout(MPI_Comm comm, int node_size_limit, NodeLayout* layout);
int share_control_block(const NodeLayout& layout, const std::string& job_id, const Config& config,
                        shm::ControlBlock* block);

// The two steps of build_node_layout. split_nodes: this process's node (shared memory, then
// the REMORA_NODE_SIZE cut; *machine_ranks and *machine_cpus, if given: the processes sharing
// memory before the cut, and the CPUs in the union of their affinity masks, so that ranks bound
// one per CPU do not count as oversubscribed). describe_node_layout: the rest of *layout from
// layout->node_comm.
int split_nodes(MPI_Comm comm, int node_size_limit, MPI_Comm* node_comm,
                int* machine_ranks = nullptr, int* machine_cpus = nullptr);
void describe_node_layout(MPI_Comm comm, NodeLayout* layout);
// share_control_block over `members` (the node's ranks, then its ghost when ghosts is 1): member
// 0 creates the block, with `ghosts` ghost endpoints; the others attach.
int share_control_block(const NodeLayout& layout, MPI_Comm members, int ghosts,
                        const std::string& job_id, const Config& config, shm::ControlBlock* block);

}  // namespace remora::mpi
