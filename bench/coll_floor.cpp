// The collectives at the shared-memory floor: barrier (two back to back), allreduce of 8 B,
// 1 KiB, 64 KiB and 1 MiB of doubles, reduce_scatter_block of one int per rank and bcast of the
// same sizes, gather, scatter, alltoall and allgather of 8 B to 1 MiB blocks and their v-forms
// (blocks alike, counts and displacements passed), with one algorithm for every call;
// bench/peers/coll_floor_mpi.cpp runs the same on MPI's collectives (timing:
// bench/peers/coll_floor_body.hpp). Usage: remorarun -n N ./coll_floor
// [auto|shm|hierarchical|messages]
//   auto: REMORA_COLL_AUTO; shm: REMORA_COLL_SHM; hierarchical: REMORA_COLL_HIERARCHICAL for
//   barrier, bcast, reduce, allreduce, allgather(v) and gather (auto for the others; across nodes
//   under mpiexec with REMORA_NODE_SIZE); messages: the message-based algorithms (dissemination,
//   recursive doubling / Rabenseifner as auto chooses without shm, ring, binomial; ring for
//   allgather(v); the message-based defaults for gather, scatter, alltoall and their v-forms).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "peers/coll_floor_body.hpp"
#include "remora.h"

namespace {

void check(int status, const char* what) {
  if (status == REMORA_SUCCESS) return;
  std::fprintf(stderr, "coll_floor: %s failed: %s\n", what, remora_last_error());
  remora_abort(1, what);
}

struct RemoraApi {
  remora_comm_t world = REMORA_COMM_NULL;
  bool messages = false;
  remora_coll_algorithm_t algorithm = REMORA_COLL_AUTO;
  int rank() const { return remora_rank(); }
  int size() const { return remora_size(); }
  // algorithm serves barrier, bcast, reduce, allreduce, allgather(v) and gather only
  bool hierarchical_only = false;
  remora_coll_algorithm_t pick(remora_coll_algorithm_t message_based, bool served = true) const {
    if (messages) return message_based;
    return served || !hierarchical_only ? algorithm : REMORA_COLL_AUTO;
  }
  void barrier() {
    check(remora_comm_barrier(world, pick(REMORA_COLL_DISSEMINATION)), "remora_comm_barrier");
  }
  void allreduce(const double* in, double* out, size_t count) {
    const remora_coll_algorithm_t message_based = count * sizeof(double) >= 65536 && size() > 2
                                                      ? REMORA_COLL_RABENSEIFNER
                                                      : REMORA_COLL_RECURSIVE_DOUBLING;
    check(
        remora_allreduce(in, out, count, REMORA_DOUBLE, REMORA_OP_SUM, world, pick(message_based)),
        "remora_allreduce");
  }
  void reduce(const double* in, double* out, size_t count) {
    check(remora_reduce(in, out, count, REMORA_DOUBLE, REMORA_OP_SUM, 0, world,
                        pick(REMORA_COLL_BINOMIAL)),
          "remora_reduce");
  }
  void reduce_scatter_block(const int* in, int* out, size_t count) {
    check(remora_reduce_scatter_block(in, out, count, REMORA_INT32, REMORA_OP_SUM, world,
                                      pick(REMORA_COLL_RING, false)),
          "remora_reduce_scatter_block");
  }
  void bcast(unsigned char* buffer, size_t bytes) {
    check(remora_bcast(buffer, bytes, REMORA_UINT8, 0, world, pick(REMORA_COLL_BINOMIAL)),
          "remora_bcast");
  }
  // The message-based defaults of gather, scatter and alltoall by block size (what auto runs
  // where it does not take shm; coll/algorithm.cpp). A v-form given one that needs regular
  // blocks runs its own message-based default.
  remora_coll_algorithm_t gather_messages(size_t bytes) const {
    if (size() >= 8 && bytes >= 512 * 1024) return REMORA_COLL_SEQUENTIAL;
    return scatter_messages(bytes);
  }
  remora_coll_algorithm_t scatter_messages(size_t bytes) const {
    return size() > 2 && bytes >= 32 * 1024 ? REMORA_COLL_FLAT : REMORA_COLL_BINOMIAL;
  }
  remora_coll_algorithm_t alltoall_messages(size_t bytes) const {
    return size() > 2 && bytes >= 128 * 1024 ? REMORA_COLL_RING : REMORA_COLL_PAIRWISE;
  }
  void gather(const unsigned char* in, unsigned char* out, size_t bytes) {
    check(remora_gather(in, out, bytes, REMORA_UINT8, 0, world, pick(gather_messages(bytes))),
          "remora_gather");
  }
  void scatter(const unsigned char* in, unsigned char* out, size_t bytes) {
    check(remora_scatter(in, out, bytes, REMORA_UINT8, 0, world,
                         pick(scatter_messages(bytes), false)),
          "remora_scatter");
  }
  void alltoall(const unsigned char* in, unsigned char* out, size_t bytes) {
    check(
        remora_alltoall(in, out, bytes, REMORA_UINT8, world, pick(alltoall_messages(bytes), false)),
        "remora_alltoall");
  }
  void allgather(const unsigned char* in, unsigned char* out, size_t bytes) {
    check(remora_allgather(in, out, bytes, REMORA_UINT8, world, pick(REMORA_COLL_RING)),
          "remora_allgather");
  }
  std::vector<size_t> counts, displs;
  size_t block = 0;
  void blocks(size_t bytes) {
    block = bytes;
    counts.assign(static_cast<size_t>(size()), bytes);
    displs.clear();
    for (size_t r = 0; r < counts.size(); ++r) displs.push_back(r * bytes);
  }
  // gatherv, scatterv and alltoallv: message-based as their regular forms (auto takes shm for
  // them on one node); hierarchical serves gather's regular form only.
  void gatherv(const unsigned char* in, unsigned char* out) {
    check(remora_gatherv(in, block, out, counts.data(), displs.data(), REMORA_UINT8, 0, world,
                         pick(gather_messages(block), false)),
          "remora_gatherv");
  }
  void scatterv(const unsigned char* in, unsigned char* out) {
    check(remora_scatterv(in, counts.data(), displs.data(), out, block, REMORA_UINT8, 0, world,
                          pick(scatter_messages(block), false)),
          "remora_scatterv");
  }
  void allgatherv(const unsigned char* in, unsigned char* out) {
    check(remora_allgatherv(in, block, out, counts.data(), displs.data(), REMORA_UINT8, world,
                            pick(REMORA_COLL_RING)),
          "remora_allgatherv");
  }
  void alltoallv(const unsigned char* in, unsigned char* out) {
    check(remora_alltoallv(in, counts.data(), displs.data(), out, counts.data(), displs.data(),
                           REMORA_UINT8, world, pick(alltoall_messages(block), false)),
          "remora_alltoallv");
  }
  void max(const double* in, double* out, int count) {
    check(remora_allreduce(in, out, static_cast<size_t>(count), REMORA_DOUBLE, REMORA_OP_MAX, world,
                           REMORA_COLL_AUTO),
          "remora_allreduce");
  }
};

}  // namespace

int main(int argc, char** argv) {
  check(remora_init(&argc, &argv), "remora_init");
  RemoraApi api;
  check(remora_comm_world(&api.world), "remora_comm_world");
  const char* mode = argc > 1 ? argv[1] : "auto";
  if (std::strcmp(mode, "shm") == 0) {
    api.algorithm = REMORA_COLL_SHM;
  } else if (std::strcmp(mode, "hierarchical") == 0) {
    api.algorithm = REMORA_COLL_HIERARCHICAL;
    api.hierarchical_only = true;
  } else if (std::strcmp(mode, "messages") == 0) {
    api.messages = true;
  } else if (std::strcmp(mode, "auto") != 0) {
    if (remora_rank() == 0)
      std::fprintf(stderr, "coll_floor: mode is auto, shm, hierarchical or messages\n");
    remora_finalize();
    return 2;
  }
  const std::string label = std::string("remora_") + mode;
  coll_floor::run_all(api, label.c_str());
  check(remora_finalize(), "remora_finalize");
  return 0;
}
