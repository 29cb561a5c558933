#include "transport/mpi/ghost_split.hpp"

#include <vector>

#include "core/error.hpp"

namespace remora::mpi {

int split_off_ghosts(MPI_Comm comm, int node_size_limit, GhostSplit* split) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (int status = split_nodes(comm, node_size_limit, &split->members)) return status;
  int node_size = 0, node_rank = 0;
  MPI_Comm_size(split->members, &node_size);
  MPI_Comm_rank(split->members, &node_rank);
  // The smallest node, and a process on it (to name it).
  int mine[2] = {node_size, rank}, smallest[2] = {0, 0};
  MPI_Allreduce(mine, smallest, 1, MPI_2INT, MPI_MINLOC, comm);
  if (smallest[0] < 2) {
    MPI_Comm_free(&split->members);
    return fail(REMORA_ERR_CONFIG,
                "remora_init: REMORA_PROGRESS=ghost under MPI needs one extra process per node for "
                "its ghost, but the node of MPI rank %d has a single process%s: launch one more "
                "process per node (mpiexec -n <ranks + nodes>, or -ppn <ranks per node + 1>)",
                smallest[1],
                node_size_limit > 0
                    ? " (REMORA_NODE_SIZE cuts nodes into groups of that many processes, ghost "
                      "included: make the process count a multiple of it)"
                    : "");
  }
  split->is_ghost = node_rank == node_size - 1;
  const int color = split->is_ghost ? MPI_UNDEFINED : 0;
  MPI_Comm_split(comm, color, rank, &split->app_comm);
  MPI_Comm_split(split->members, color, node_rank, &split->app_node_comm);
  return REMORA_SUCCESS;
}

void share_layout_with_ghost(const GhostSplit& split, int* app_size, NodeLayout* layout) {
  // From the node's leader: the job's size, this node, the node count; then every rank's node.
  int header[3] = {*app_size, layout->node, layout->node_count};
  MPI_Bcast(header, 3, MPI_INT, 0, split.members);
  if (!split.is_ghost) {
    MPI_Bcast(layout->node_of.data(), header[0], MPI_INT, 0, split.members);
    return;
  }
  *app_size = header[0];
  layout->node = header[1];
  layout->node_count = header[2];
  layout->node_of.assign(static_cast<size_t>(header[0]), 0);
  MPI_Bcast(layout->node_of.data(), header[0], MPI_INT, 0, split.members);
  layout->node_ranks.clear();
  layout->index_on_node.assign(layout->node_of.size(), -1);
  for (int r = 0; r < header[0]; ++r)
    if (layout->node_of[static_cast<size_t>(r)] == layout->node) {
      layout->index_on_node[static_cast<size_t>(r)] = static_cast<int>(layout->node_ranks.size());
      layout->node_ranks.push_back(r);
    }
  layout->node_rank = static_cast<int>(layout->node_ranks.size());
}

}  // namespace remora::mpi
