// Ghost progress under an MPI launcher (REMORA_PROGRESS=ghost, after Casper): the user starts
// one extra process per node, and the highest MPI rank of each node (after the REMORA_NODE_SIZE
// cut, which counts the ghost) becomes that node's ghost. The application's ranks get a
// communicator without the ghosts, so remora_size() is the number of processes minus the nodes.
// A node of one process has no room for a ghost: every process fails at init, saying so.
#pragma once

#include <mpi.h>

#include "transport/mpi/node_layout.hpp"

namespace remora::mpi {

struct GhostSplit {
  bool is_ghost = false;
  MPI_Comm app_comm = MPI_COMM_NULL;       // the application's ranks (null on a ghost)
  MPI_Comm app_node_comm = MPI_COMM_NULL;  // this node's ranks (null on a ghost)
  MPI_Comm members = MPI_COMM_NULL;        // this node's ranks, then its ghost (the last)
  MPI_Comm everyone = MPI_COMM_NULL;       // every process, ghosts included (endpoint_map.hpp)
};

// Collective over comm (every process of the job).
int split_off_ghosts(MPI_Comm comm, int node_size_limit, GhostSplit* split);

// Collective over split.members, once the ranks have described their layout: the ghost
// receives it from its node's leader (the job's size in *app_size, the node, which ranks are
// on it); the ghost's node_rank is its control-block index (after the node's ranks).
void share_layout_with_ghost(const GhostSplit& split, int* app_size, NodeLayout* layout);

}  // namespace remora::mpi
