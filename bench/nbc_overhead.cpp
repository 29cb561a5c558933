// Overhead of Remora's nonblocking ibarrier, ibcast, iallreduce, ireduce (root 0), igather
// (root 0) and ialltoall (paper 004, Fig. 3; the reductions: sums of bytes), by the NBCBench
// method of bench/nbc/nbc_method.hpp: for each algorithm (chosen per call) and message size,
// the blocking time, then the nonblocking collective overlapped with as much computation,
// calling remora_request_test every k work units (or never); overhead = total - computation,
// median over repetitions, slowest rank.
// Variants: <op>/<algorithm>/<progress>/k<k|never>, progress = the REMORA_PROGRESS of the run
// (manual or thread; run the program once per mode). Metrics: blocking_us, compute_us,
// overhead_us; bytes = bytes per rank (per block for ialltoall; 0 for ibarrier).
// Usage: remorarun -n N ./nbc_overhead [--csv] [--iterations R] [--test-every never,10]
//        [--max-bytes N] [--sizes 8,1024,65536] [--operations ibcast,...]
//        [--algorithms auto,shm,...]
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "common/bench_common.hpp"
#include "nbc/nbc_method.hpp"
#include "remora.h"

namespace {

using nbc::Operation;

struct Algorithm {
  const char* name;
  remora_coll_algorithm_t value;
};
// Per operation (nbc::kOperations order): auto, shm, then the message-based algorithms.
constexpr Algorithm kBarrier[] = {{"auto", REMORA_COLL_AUTO},
                                  {"shm", REMORA_COLL_SHM},
                                  {"dissemination", REMORA_COLL_DISSEMINATION}};
constexpr Algorithm kBcast[] = {{"auto", REMORA_COLL_AUTO},
                                {"shm", REMORA_COLL_SHM},
                                {"binomial", REMORA_COLL_BINOMIAL},
                                {"scatter_allgather", REMORA_COLL_SCATTER_ALLGATHER}};
constexpr Algorithm kAllreduce[] = {{"auto", REMORA_COLL_AUTO},
                                    {"shm", REMORA_COLL_SHM},
                                    {"recursive_doubling", REMORA_COLL_RECURSIVE_DOUBLING},
                                    {"ring", REMORA_COLL_RING},
                                    {"rabenseifner", REMORA_COLL_RABENSEIFNER}};
constexpr Algorithm kReduce[] = {
    {"auto", REMORA_COLL_AUTO}, {"shm", REMORA_COLL_SHM}, {"binomial", REMORA_COLL_BINOMIAL}};
constexpr Algorithm kGather[] = {
    {"auto", REMORA_COLL_AUTO},         {"shm", REMORA_COLL_SHM},
    {"binomial", REMORA_COLL_BINOMIAL}, {"binary", REMORA_COLL_BINARY},
    {"flat", REMORA_COLL_FLAT},         {"sequential", REMORA_COLL_SEQUENTIAL}};
constexpr Algorithm kAlltoall[] = {{"auto", REMORA_COLL_AUTO},   {"shm", REMORA_COLL_SHM},
                                   {"bruck", REMORA_COLL_BRUCK}, {"pairwise", REMORA_COLL_PAIRWISE},
                                   {"ring", REMORA_COLL_RING},   {"flat", REMORA_COLL_FLAT}};

std::span<const Algorithm> algorithms_of(Operation operation) {
  switch (operation) {
    case Operation::Barrier:
      return kBarrier;
    case Operation::Bcast:
      return kBcast;
    case Operation::Allreduce:
      return kAllreduce;
    case Operation::Reduce:
      return kReduce;
    case Operation::Gather:
      return kGather;
    case Operation::Alltoall:
      return kAlltoall;
  }
  return {};
}

class RemoraBackend final : public nbc::Backend {
 public:
  RemoraBackend(remora_comm_t world, Operation operation, remora_coll_algorithm_t algorithm)
      : world_(world), operation_(operation), algorithm_(algorithm), ranks_(remora_size()) {}

  double now_us() override { return bench::now_us(); }
  void barrier() override { bench::check(remora_barrier(), "remora_barrier"); }
  double max_over_ranks(double value) override {
    double result = 0;
    bench::check(remora_allreduce(&value, &result, 1, REMORA_DOUBLE, REMORA_OP_MAX, world_,
                                  REMORA_COLL_AUTO),
                 "remora_allreduce");
    return result;
  }
  void prepare(size_t bytes) override {
    bytes_ = bytes;
    buffers_.resize(operation_, bytes, ranks_);
  }
  void run_blocking() override { bench::check(call(nullptr), "a blocking collective"); }
  void start() override { bench::check(call(&request_), "a nonblocking collective"); }
  void test() override {
    int flag = 0;
    bench::check(remora_request_test(&request_, &flag), "remora_request_test");
  }
  void wait() override { bench::check(remora_request_wait(&request_), "remora_request_wait"); }

 private:
  // The blocking call (request null) or the nonblocking one.
  int call(remora_request_t* request) {
    void* send = buffers_.send.data();
    void* recv = buffers_.recv.data();
    const remora_coll_algorithm_t a = algorithm_;
    switch (operation_) {
      case Operation::Barrier:
        return request ? remora_ibarrier(world_, a, request) : remora_comm_barrier(world_, a);
      case Operation::Bcast:
        return request ? remora_ibcast(send, bytes_, REMORA_UINT8, 0, world_, a, request)
                       : remora_bcast(send, bytes_, REMORA_UINT8, 0, world_, a);
      case Operation::Allreduce:
        return request
                   ? remora_iallreduce(send, recv, bytes_, REMORA_UINT8, REMORA_OP_SUM, world_, a,
                                       request)
                   : remora_allreduce(send, recv, bytes_, REMORA_UINT8, REMORA_OP_SUM, world_, a);
      case Operation::Reduce:
        return request
                   ? remora_ireduce(send, recv, bytes_, REMORA_UINT8, REMORA_OP_SUM, 0, world_, a,
                                    request)
                   : remora_reduce(send, recv, bytes_, REMORA_UINT8, REMORA_OP_SUM, 0, world_, a);
      case Operation::Gather:
        return request ? remora_igather(send, recv, bytes_, REMORA_UINT8, 0, world_, a, request)
                       : remora_gather(send, recv, bytes_, REMORA_UINT8, 0, world_, a);
      case Operation::Alltoall:
        return request ? remora_ialltoall(send, recv, bytes_, REMORA_UINT8, world_, a, request)
                       : remora_alltoall(send, recv, bytes_, REMORA_UINT8, world_, a);
    }
    return REMORA_ERR_ARG;
  }

  remora_comm_t world_;
  Operation operation_;
  remora_coll_algorithm_t algorithm_;
  int ranks_;
  size_t bytes_ = 0;
  nbc::Buffers buffers_;
  remora_request_t request_ = REMORA_REQUEST_NULL;
};

// Whether name is in the comma list (an empty list takes every algorithm).
bool selected(const std::string& list, const std::string& name) {
  if (list.empty()) return true;
  return ("," + list + ",").find("," + name + ",") != std::string::npos;
}

}  // namespace

int main(int argc, char** argv) {
  nbc::MethodOptions method;
  std::string error;
  std::string algorithm_list;
  bool method_ok = nbc::take_options(&argc, argv, &method, &error);
  if (method_ok && !bench::take_extra_options(&argc, argv, {{"--algorithms", &algorithm_list}})) {
    error = "--algorithms lacks its value";
    method_ok = false;
  }
  int exit_code = 0;
  bench::Options options;
  const std::string description =
      std::string(
          "nbc_overhead: overhead of nonblocking collectives overlapped with computation "
          "(paper 004 Fig. 3, NBCBench method)\n") +
      nbc::method_usage() +
      "  --algorithms L   comma list of the algorithms to run (auto, shm and the message-based\n"
      "                   ones of each operation; default all)\n";
  if (!bench::begin(&argc, &argv, 2, description.c_str(), &options, &exit_code)) return exit_code;
  if (!method_ok) {
    if (remora_rank() == 0)
      std::fprintf(stderr, "nbc_overhead: %s\n%s", error.c_str(), nbc::method_usage());
    remora_finalize();
    return 2;
  }
  remora_comm_t world = REMORA_COMM_NULL;
  bench::check(remora_comm_world(&world), "remora_comm_world");
  const int ranks = remora_size();
  const int repetitions = bench::iterations_or(options, 5);
  bench::Report report(options.csv);
  const std::string progress = bench::progress_mode();
  double units_per_us = 0;
  {
    RemoraBackend calibration(world, Operation::Gather, REMORA_COLL_AUTO);
    units_per_us = nbc::calibrate(calibration);
  }
  for (Operation operation : method.operations)
    for (const Algorithm& algorithm : algorithms_of(operation)) {
      if (!selected(algorithm_list, algorithm.name)) continue;
      RemoraBackend backend(world, operation, algorithm.value);
      nbc::run_sizes(
          backend, operation,
          std::string(nbc::operation_name(operation)) + "/" + algorithm.name + "/" + progress,
          ranks, repetitions, units_per_us, method, &report);
    }
  report.print();
  remora_finalize();
  return 0;
}
