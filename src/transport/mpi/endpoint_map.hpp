// Under ghost progress the active-message channel runs over every process of the job, ghosts
// included, so that ranks of other nodes reach a node's ghost. That communicator numbers the
// processes differently from the job's endpoints (ranks 0..size-1, then the ghost of node n at
// size + n): the map translates both ways. An empty map is the identity.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

namespace remora::mpi {

class EndpointMap {
 public:
  EndpointMap() = default;
  // Collective over comm: every process names its endpoint.
  static EndpointMap gather(MPI_Comm comm, int endpoint);

  int process_of(int endpoint) const {
    return process_.empty() ? endpoint : process_[static_cast<std::size_t>(endpoint)];
  }
  int endpoint_of(int process) const {
    return endpoint_.empty() ? process : endpoint_[static_cast<std::size_t>(process)];
  }

 private:
  std::vector<int> process_;   // endpoint -> rank in the communicator
  std::vector<int> endpoint_;  // rank in the communicator -> endpoint
};

}  // namespace remora::mpi
