#include "transport/mpi/endpoint_map.hpp"

#include <algorithm>

namespace remora::mpi {

EndpointMap EndpointMap::gather(MPI_Comm comm, int endpoint) {
  int processes = 0;
  MPI_Comm_size(comm, &processes);
  EndpointMap map;
  map.endpoint_.assign(static_cast<size_t>(processes), -1);
  MPI_Allgather(&endpoint, 1, MPI_INT, map.endpoint_.data(), 1, MPI_INT, comm);
  const int endpoints = *std::max_element(map.endpoint_.begin(), map.endpoint_.end()) + 1;
  map.process_.assign(static_cast<size_t>(endpoints), -1);
  for (int p = 0; p < processes; ++p)
    map.process_[static_cast<size_t>(map.endpoint_[static_cast<size_t>(p)])] = p;
  return map;
}

}  // namespace remora::mpi
