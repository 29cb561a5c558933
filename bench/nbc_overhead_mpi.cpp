// The NBCBench method of bench/nbc_overhead on MPI's MPI_Ibarrier, MPI_Ibcast, MPI_Iallreduce,
// MPI_Ireduce, MPI_Igather and MPI_Ialltoall (the same six operations and sizes), so that the
// MPI library on this machine can be compared side by side with Remora (paper 004 compares
// against LibNBC on MPI). Built only when CMake finds MPI; run under that MPI's launcher:
//   mpiexec -n 4 ./nbc_overhead_mpi [--csv] [--iterations R] [--test-every never,10]
//           [--max-bytes N] [--sizes L] [--operations L] [--label NAME]
// Variants: <op>/<label>/mpi/k<k|never>, label "mpi" unless --label names the library (as
// bench/nbc_overhead_peers.sh does), progress "mpi" (the MPI library's own progress: MPICH and
// Open MPI progress inside MPI calls unless configured otherwise). Same metrics and CSV schema
// as nbc_overhead; bench name "nbc_overhead".
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "common/bench_common.hpp"
#include "nbc/nbc_method.hpp"

namespace {

using nbc::Operation;

void check(int status, const char* what) {
  if (status == MPI_SUCCESS) return;
  std::fprintf(stderr, "nbc_overhead_mpi: %s failed (%d)\n", what, status);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

class MpiBackend final : public nbc::Backend {
 public:
  MpiBackend(Operation operation, int ranks) : operation_(operation), ranks_(ranks) {}

  double now_us() override { return MPI_Wtime() * 1e6; }
  void barrier() override { check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }
  double max_over_ranks(double value) override {
    double result = 0;
    check(MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
    return result;
  }
  void prepare(size_t bytes) override {
    count_ = static_cast<int>(bytes);
    buffers_.resize(operation_, bytes, ranks_);
  }
  void run_blocking() override { check(call(nullptr), "a blocking collective"); }
  void start() override { check(call(&request_), "a nonblocking collective"); }
  void test() override {
    int flag = 0;
    check(MPI_Test(&request_, &flag, MPI_STATUS_IGNORE), "MPI_Test");
  }
  void wait() override { check(MPI_Wait(&request_, MPI_STATUS_IGNORE), "MPI_Wait"); }

 private:
  // The blocking call (request null) or the nonblocking one; reductions sum unsigned chars (as
  // nbc_overhead sums REMORA_UINT8).
  int call(MPI_Request* r) {
    void* send = buffers_.send.data();
    void* recv = buffers_.recv.data();
    const int n = count_;
    const MPI_Comm world = MPI_COMM_WORLD;
    const MPI_Datatype byte = MPI_UNSIGNED_CHAR;
    switch (operation_) {
      case Operation::Barrier:
        return r ? MPI_Ibarrier(world, r) : MPI_Barrier(world);
      case Operation::Bcast:
        return r ? MPI_Ibcast(send, n, byte, 0, world, r) : MPI_Bcast(send, n, byte, 0, world);
      case Operation::Allreduce:
        return r ? MPI_Iallreduce(send, recv, n, byte, MPI_SUM, world, r)
                 : MPI_Allreduce(send, recv, n, byte, MPI_SUM, world);
      case Operation::Reduce:
        return r ? MPI_Ireduce(send, recv, n, byte, MPI_SUM, 0, world, r)
                 : MPI_Reduce(send, recv, n, byte, MPI_SUM, 0, world);
      case Operation::Gather:
        return r ? MPI_Igather(send, n, byte, recv, n, byte, 0, world, r)
                 : MPI_Gather(send, n, byte, recv, n, byte, 0, world);
      case Operation::Alltoall:
        return r ? MPI_Ialltoall(send, n, byte, recv, n, byte, world, r)
                 : MPI_Alltoall(send, n, byte, recv, n, byte, world);
    }
    return MPI_ERR_OTHER;
  }

  Operation operation_;
  int ranks_;
  int count_ = 0;
  nbc::Buffers buffers_;
  MPI_Request request_ = MPI_REQUEST_NULL;
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  nbc::MethodOptions method;
  std::string error;
  int exit_code = 0;
  bench::Options options;
  std::string label = "mpi";
  const std::string description =
      std::string(
          "nbc_overhead_mpi: overhead of MPI nonblocking collectives overlapped with "
          "computation (paper 004 Fig. 3, NBCBench method)\n") +
      nbc::method_usage() + "  --label NAME     the variants' library name (default mpi)\n";
  bool ok = nbc::take_options(&argc, argv, &method, &error);
  if (ok && !bench::take_extra_options(&argc, argv, {{"--label", &label}})) {
    ok = false;
    error = "--label needs a value";
  }
  if (!ok) {
    if (rank == 0)
      std::fprintf(stderr, "nbc_overhead_mpi: %s\n%s", error.c_str(), description.c_str());
    exit_code = 2;
  } else {
    ok = bench::parse_options(argc, argv, description.c_str(), &options, &exit_code, rank == 0);
  }
  if (ok) {
    const int repetitions = bench::iterations_or(options, 5);
    bench::Report report(options.csv);
    MpiBackend calibration(Operation::Gather, ranks);
    const double units_per_us = nbc::calibrate(calibration);
    for (Operation operation : method.operations) {
      MpiBackend backend(operation, ranks);
      nbc::run_sizes(backend, operation,
                     std::string(nbc::operation_name(operation)) + "/" + label + "/mpi", ranks,
                     repetitions, units_per_us, method, &report);
    }
    report.print(rank == 0);
  }
  MPI_Finalize();
  return exit_code;
}
