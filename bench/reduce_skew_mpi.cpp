// The skewed-reduce experiment of bench/reduce_skew (paper 002 Fig. 6-7 and 9-10;
// bench/skew/skew_method.hpp) on MPI_Reduce, so that Remora's application-bypass and standard
// reduces can be set beside the reduces MPI users have today, in the same run. Built only when
// CMake finds MPI; bench/reduce_skew_peers.sh compiles it against each MPI of the machine:
//   mpiexec -n N ./reduce_skew_mpi [--csv] [--iterations K] [--batches B] [--label NAME]
//                                  [--skews S] [--latency on|off]   (as reduce_skew's)
// Variant: NAME (default "mpi"), e.g. "mpich/skew1000"; the MPI library's own progress only
// (the progress call of the method does nothing here). Same metrics and CSV schema as
// reduce_skew; bench name "reduce_skew".
#include <mpi.h>

#include <cstdio>
#include <string>

#include "common/bench_common.hpp"
#include "skew/skew_method.hpp"

namespace {

void check(int status, const char* what) {
  if (status == MPI_SUCCESS) return;
  std::fprintf(stderr, "reduce_skew_mpi: %s failed (%d)\n", what, status);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

class MpiBackend final : public skew::Backend {
 public:
  int rank() override {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
  }
  int size() override {
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
  }
  double now_us() override { return MPI_Wtime() * 1e6; }
  void barrier() override { check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }
  void reduce(const double* send, double* recv, size_t count) override {
    check(MPI_Reduce(send, recv, static_cast<int>(count), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD),
          "MPI_Reduce");
  }
  void progress() override {}
  void sum_at_root(const double in[3], double out[3]) override {
    check(MPI_Reduce(in, out, 3, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD), "MPI_Reduce (totals)");
  }
  [[noreturn]] void abort(const char* message) override {
    std::fprintf(stderr, "%s\n", message);
    MPI_Abort(MPI_COMM_WORLD, 1);
    __builtin_unreachable();
  }
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MpiBackend backend;
  const bool leader = backend.rank() == 0;
  std::string label = "mpi";
  int exit_code = 0;
  bench::Options options;
  skew::Points points;
  const char* description =
      "reduce_skew_mpi: MPI_Reduce, CPU time under random skew and latency without skew "
      "(paper 002; the method of reduce_skew)\n  --label NAME   the variant name (default mpi)\n"
      "  --skews LIST  max skews of part 1 in us (default 0,100,1000; none)\n"
      "  --latency on|off  part 2 (default on)";
  if (!skew::take_points(&argc, argv, &points)) {
    exit_code = 2;
  } else if (!bench::take_extra_options(&argc, argv, {{"--label", &label}})) {
    if (leader) std::fprintf(stderr, "reduce_skew_mpi: --label needs a value\n%s\n", description);
    exit_code = 2;
  } else if (bench::parse_options(argc, argv, description, &options, &exit_code, leader)) {
    bench::Report report(options.csv);
    skew::run({{label, &backend}}, "", bench::iterations_or(options, 200), options.batches, points,
              &report);
    report.print(leader);
  }
  MPI_Finalize();
  return exit_code;
}
