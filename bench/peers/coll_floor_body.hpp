// The body shared by bench/coll_floor.cpp (Remora) and bench/peers/coll_floor_mpi.cpp (MPI):
// the same operations, sizes and timing, so that the two print comparable lines. A program
// defines the Api struct (rank, size, barrier, allreduce and reduce of doubles,
// reduce_scatter_block of ints, bcast of bytes, gather, scatter, alltoall and allgather of byte
// blocks, their v-forms with the blocks set by blocks(bytes), allreduce-max of a vector for the
// report) and calls run_all. Each point: 10 warm-up calls, then 9
// batches of K back-to-back calls (K by size); per batch the time per call of the slowest rank;
// printed: the median and the fastest batch, in us. Output lines: "<label> <operation> <bytes>
// <median_us> <min_us>" (rank 0 only). COLL_FLOOR_ONLY (a list such as
// "barrier_x2,allreduce,reduce,bcast") runs only those; COLL_FLOOR_BYTES (a list such as
// "65536,1048576") only those sizes.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace coll_floor {

inline double now_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Whether item is in the comma-separated list of variable (unset or empty: everything).
inline bool listed(const char* variable, const std::string& item) {
  const char* only = std::getenv(variable);
  if (only == nullptr || *only == '\0') return true;
  const std::string list = std::string(",") + only + ",";
  return list.find("," + item + ",") != std::string::npos;
}

inline bool selected(const char* operation, size_t bytes) {
  return listed("COLL_FLOOR_ONLY", operation) && listed("COLL_FLOOR_BYTES", std::to_string(bytes));
}

template <typename Api, typename Call>
void measure(Api& api, const char* label, const char* operation, size_t bytes, int per_batch,
             const Call& call) {
  if (!selected(operation, bytes)) return;
  constexpr int kWarmUp = 10, kBatches = 9;
  for (int i = 0; i < kWarmUp; ++i) call();
  std::vector<double> mine(kBatches), slowest(kBatches);
  for (int batch = 0; batch < kBatches; ++batch) {
    api.barrier();
    const double start = now_us();
    for (int i = 0; i < per_batch; ++i) call();
    mine[static_cast<size_t>(batch)] = (now_us() - start) / per_batch;
  }
  api.max(mine.data(), slowest.data(), kBatches);
  std::sort(slowest.begin(), slowest.end());
  if (api.rank() == 0)
    std::printf("%s %s %zu %.3f %.3f\n", label, operation, bytes, slowest[kBatches / 2],
                slowest[0]);
  std::fflush(stdout);
}

template <typename Api>
void run_all(Api& api, const char* label) {
  const int p = api.size();
  // Two barriers back to back (one "call" is both).
  measure(api, label, "barrier_x2", 0, 400, [&] {
    api.barrier();
    api.barrier();
  });
  for (size_t bytes : {size_t{8}, size_t{1024}, size_t{65536}, size_t{1} << 20}) {
    const size_t count = bytes / sizeof(double);
    std::vector<double> in(count, 1.0), out(count, 0.0);
    const int k = bytes >= (size_t{1} << 20) ? 20 : bytes >= 65536 ? 100 : 400;
    measure(api, label, "allreduce", bytes, k,
            [&] { api.allreduce(in.data(), out.data(), count); });
    measure(api, label, "reduce", bytes, k, [&] { api.reduce(in.data(), out.data(), count); });
  }
  {
    std::vector<int> in(static_cast<size_t>(p), 1), out(1, 0);
    measure(api, label, "reduce_scatter_block", sizeof(int) * static_cast<size_t>(p), 400,
            [&] { api.reduce_scatter_block(in.data(), out.data(), 1); });
  }
  for (size_t bytes : {size_t{8}, size_t{1024}, size_t{65536}, size_t{1} << 20}) {
    std::vector<unsigned char> buffer(bytes, 1);
    const int k = bytes >= (size_t{1} << 20) ? 20 : bytes >= 65536 ? 100 : 400;
    measure(api, label, "bcast", bytes, k, [&] { api.bcast(buffer.data(), bytes); });
  }
  // Bytes per rank's block; root 0.
  for (size_t bytes : {size_t{8}, size_t{1024}, size_t{65536}, size_t{1} << 20}) {
    const auto ranks = static_cast<size_t>(p);
    std::vector<unsigned char> block(bytes, 1), all(bytes * ranks, 1), out(bytes * ranks, 0);
    const int k = bytes >= (size_t{1} << 20) ? 10 : bytes >= 65536 ? 50 : 400;
    measure(api, label, "gather", bytes, k, [&] { api.gather(block.data(), out.data(), bytes); });
    measure(api, label, "scatter", bytes, k, [&] { api.scatter(all.data(), block.data(), bytes); });
    measure(api, label, "alltoall", bytes, k, [&] { api.alltoall(all.data(), out.data(), bytes); });
  }
  // allgather, and the v-forms with every block of `bytes` (counts and displacements set once
  // per size by api.blocks, outside the timing); root 0.
  for (size_t bytes : {size_t{8}, size_t{1024}, size_t{65536}, size_t{1} << 20}) {
    const auto ranks = static_cast<size_t>(p);
    std::vector<unsigned char> block(bytes, 1), all(bytes * ranks, 1), out(bytes * ranks, 0);
    const int k = bytes >= (size_t{1} << 20) ? 10 : bytes >= 65536 ? 50 : 400;
    api.blocks(bytes);
    measure(api, label, "allgather", bytes, k,
            [&] { api.allgather(block.data(), out.data(), bytes); });
    measure(api, label, "gatherv", bytes, k, [&] { api.gatherv(block.data(), out.data()); });
    measure(api, label, "scatterv", bytes, k, [&] { api.scatterv(all.data(), block.data()); });
    measure(api, label, "allgatherv", bytes, k, [&] { api.allgatherv(block.data(), out.data()); });
    measure(api, label, "alltoallv", bytes, k, [&] { api.alltoallv(all.data(), out.data()); });
  }
}

}  // namespace coll_floor
