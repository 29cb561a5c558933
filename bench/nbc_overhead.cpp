// Overhead of Remora's nonblocking igather and ialltoall (paper 004, Fig. 3), by the NBCBench
// method of bench/nbc/nbc_method.hpp: for each algorithm (chosen per call) and message size,
// the blocking time, then the nonblocking collective overlapped with as much computation,
// calling remora_request_test every k work units (or never); overhead = total - computation,
// median over repetitions, slowest rank.
// Variants: <op>/<algorithm>/<progress>/k<k|never>, progress = the REMORA_PROGRESS of the run
// (manual or thread; run the program once per mode). Metrics: blocking_us, compute_us,
// overhead_us; bytes = bytes per rank (igather) or per block (ialltoall).
// Usage: remorarun -n N ./nbc_overhead [--csv] [--iterations R] [--test-every never,10]
//        [--max-bytes N] [--algorithms auto,shm,...]
#include <cstdio>
#include <string>
#include <vector>

#include "common/bench_common.hpp"
#include "nbc/nbc_method.hpp"
#include "remora.h"

namespace {

enum class Operation { Gather, Alltoall };

struct Algorithm {
  const char* name;
  remora_coll_algorithm_t value;
};
constexpr Algorithm kGather[] = {
    {"auto", REMORA_COLL_AUTO},         {"shm", REMORA_COLL_SHM},
    {"binomial", REMORA_COLL_BINOMIAL}, {"binary", REMORA_COLL_BINARY},
    {"flat", REMORA_COLL_FLAT},         {"sequential", REMORA_COLL_SEQUENTIAL}};
constexpr Algorithm kAlltoall[] = {{"auto", REMORA_COLL_AUTO},   {"shm", REMORA_COLL_SHM},
                                   {"bruck", REMORA_COLL_BRUCK}, {"pairwise", REMORA_COLL_PAIRWISE},
                                   {"ring", REMORA_COLL_RING},   {"flat", REMORA_COLL_FLAT}};

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
    buffers_.resize(operation_ == Operation::Alltoall, bytes, ranks_);
  }
  void run_blocking() override {
    if (operation_ == Operation::Gather)
      bench::check(remora_gather(buffers_.send.data(), buffers_.recv.data(), bytes_, REMORA_UINT8,
                                 0, world_, algorithm_),
                   "remora_gather");
    else
      bench::check(remora_alltoall(buffers_.send.data(), buffers_.recv.data(), bytes_, REMORA_UINT8,
                                   world_, algorithm_),
                   "remora_alltoall");
  }
  void start() override {
    if (operation_ == Operation::Gather)
      bench::check(remora_igather(buffers_.send.data(), buffers_.recv.data(), bytes_, REMORA_UINT8,
                                  0, world_, algorithm_, &request_),
                   "remora_igather");
    else
      bench::check(remora_ialltoall(buffers_.send.data(), buffers_.recv.data(), bytes_,
                                    REMORA_UINT8, world_, algorithm_, &request_),
                   "remora_ialltoall");
  }
  void test() override {
    int flag = 0;
    bench::check(remora_request_test(&request_, &flag), "remora_request_test");
  }
  void wait() override { bench::check(remora_request_wait(&request_), "remora_request_wait"); }

 private:
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
          "nbc_overhead: overhead of igather/ialltoall overlapped with computation "
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
  auto run = [&](Operation operation, const char* op_name, const auto& algorithms) {
    for (const Algorithm& algorithm : algorithms) {
      if (!selected(algorithm_list, algorithm.name)) continue;
      RemoraBackend backend(world, operation, algorithm.value);
      nbc::run_sizes(backend, std::string(op_name) + "/" + algorithm.name + "/" + progress, ranks,
                     repetitions, units_per_us, method, &report);
    }
  };
  run(Operation::Gather, "igather", kGather);
  run(Operation::Alltoall, "ialltoall", kAlltoall);
  report.print();
  remora_finalize();
  return 0;
}
