// bench/coll_floor.cpp's operations on MPI's collectives, for the same-run comparison
// (docs/benchmarks.md). Built against each MPI of the machine (bench/coll_floor_peers.sh).
// Usage: mpiexec -n N ./coll_floor_mpi LABEL
#include <mpi.h>

#include <vector>

#include "coll_floor_body.hpp"

namespace {

struct MpiApi {
  int rank() const {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
  }
  int size() const {
    int s = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    return s;
  }
  void barrier() { MPI_Barrier(MPI_COMM_WORLD); }
  void allreduce(const double* in, double* out, size_t count) {
    MPI_Allreduce(in, out, static_cast<int>(count), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  void reduce(const double* in, double* out, size_t count) {
    MPI_Reduce(in, out, static_cast<int>(count), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  }
  void reduce_scatter_block(const int* in, int* out, size_t count) {
    MPI_Reduce_scatter_block(in, out, static_cast<int>(count), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  void bcast(unsigned char* buffer, size_t bytes) {
    MPI_Bcast(buffer, static_cast<int>(bytes), MPI_BYTE, 0, MPI_COMM_WORLD);
  }
  void gather(const unsigned char* in, unsigned char* out, size_t bytes) {
    MPI_Gather(in, static_cast<int>(bytes), MPI_BYTE, out, static_cast<int>(bytes), MPI_BYTE, 0,
               MPI_COMM_WORLD);
  }
  void scatter(const unsigned char* in, unsigned char* out, size_t bytes) {
    MPI_Scatter(in, static_cast<int>(bytes), MPI_BYTE, out, static_cast<int>(bytes), MPI_BYTE, 0,
                MPI_COMM_WORLD);
  }
  void alltoall(const unsigned char* in, unsigned char* out, size_t bytes) {
    MPI_Alltoall(in, static_cast<int>(bytes), MPI_BYTE, out, static_cast<int>(bytes), MPI_BYTE,
                 MPI_COMM_WORLD);
  }
  void allgather(const unsigned char* in, unsigned char* out, size_t bytes) {
    MPI_Allgather(in, static_cast<int>(bytes), MPI_BYTE, out, static_cast<int>(bytes), MPI_BYTE,
                  MPI_COMM_WORLD);
  }
  std::vector<int> counts, displs;
  int block = 0;
  void blocks(size_t bytes) {
    block = static_cast<int>(bytes);
    counts.assign(static_cast<size_t>(size()), block);
    displs.clear();
    for (int r = 0; r < size(); ++r) displs.push_back(r * block);
  }
  void gatherv(const unsigned char* in, unsigned char* out) {
    MPI_Gatherv(in, block, MPI_BYTE, out, counts.data(), displs.data(), MPI_BYTE, 0,
                MPI_COMM_WORLD);
  }
  void scatterv(const unsigned char* in, unsigned char* out) {
    MPI_Scatterv(in, counts.data(), displs.data(), MPI_BYTE, out, block, MPI_BYTE, 0,
                 MPI_COMM_WORLD);
  }
  void allgatherv(const unsigned char* in, unsigned char* out) {
    MPI_Allgatherv(in, block, MPI_BYTE, out, counts.data(), displs.data(), MPI_BYTE,
                   MPI_COMM_WORLD);
  }
  void alltoallv(const unsigned char* in, unsigned char* out) {
    MPI_Alltoallv(in, counts.data(), displs.data(), MPI_BYTE, out, counts.data(), displs.data(),
                  MPI_BYTE, MPI_COMM_WORLD);
  }
  void max(const double* in, double* out, int count) {
    MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MpiApi api;
  coll_floor::run_all(api, argc > 1 ? argv[1] : "mpi");
  MPI_Finalize();
  return 0;
}
