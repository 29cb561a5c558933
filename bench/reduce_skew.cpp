// Application-bypass reduce against the standard binomial reduce (paper 002): the skewed-reduce
// experiment of bench/skew/skew_method.hpp (CPU time under random skew, latency without skew)
// on Remora. bench/reduce_skew_mpi runs the same experiment on MPI_Reduce.
// Variants: bypass = REMORA_COLL_APPLICATION_BYPASS, standard = REMORA_COLL_BINOMIAL, shm =
// REMORA_COLL_SHM (the shared-area reduce, not in the default list), floor = no reduce at all
// (the root stores the expected sum: what the metric charges a library that costs nothing, its
// clock reads; not in the default list); names end
// in "_progress_<mode>" under REMORA_PROGRESS=thread or ghost (bench::with_progress).
// Usage: remorarun -n N ./reduce_skew [--csv] [--iterations K] [--batches B] [--variants L]
//                                      [--skews S] [--latency on|off]
//   K = iterations per batch at skew 0 (default 200); L = bypass,standard,shm,floor (default
//   bypass,standard), e.g.
//   one variant alone when counting a rank's system calls; S = max skews of part 1 (default
//   0,100,1000; "none": no part 1), e.g. 1000 with --latency off to count per reduce there.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "common/bench_common.hpp"
#include "remora.h"
#include "skew/skew_method.hpp"

namespace {

class RemoraBackend final : public skew::Backend {
 public:
  // floor: reduce() calls nothing (see the floor variant above).
  RemoraBackend(remora_comm_t world, remora_coll_algorithm_t algorithm, bool floor = false)
      : world_(world), algorithm_(algorithm), floor_(floor) {}

  int rank() override { return remora_rank(); }
  int size() override { return remora_size(); }
  double now_us() override { return bench::now_us(); }
  void barrier() override { bench::check(remora_barrier(), "remora_barrier"); }
  void reduce(const double* send, double* recv, size_t count) override {
    if (floor_) {
      if (rank() == 0) std::fill(recv, recv + count, 0.5 * size() * (size() + 1));
      return;
    }
    bench::check(
        remora_reduce(send, recv, count, REMORA_DOUBLE, REMORA_OP_SUM, 0, world_, algorithm_),
        "remora_reduce");
  }
  void progress() override { bench::check(remora_progress(), "remora_progress"); }
  void sum_at_root(const double in[3], double out[3]) override {
    bench::check(
        remora_reduce(in, out, 3, REMORA_DOUBLE, REMORA_OP_SUM, 0, world_, REMORA_COLL_BINOMIAL),
        "remora_reduce (totals)");
  }
  [[noreturn]] void abort(const char* message) override {
    remora_abort(1, message);
    __builtin_unreachable();
  }

 private:
  remora_comm_t world_;
  remora_coll_algorithm_t algorithm_;
  bool floor_;
};

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  std::string chosen = "bypass,standard";
  if (!bench::take_extra_options(&argc, argv, {{"--variants", &chosen}})) {
    std::fprintf(stderr, "reduce_skew: --variants needs a value\n");
    return 2;
  }
  skew::Points points;
  if (!skew::take_points(&argc, argv, &points)) return 2;
  bench::Options options;
  if (!bench::begin(&argc, &argv, 2,
                    "reduce_skew: application-bypass vs binomial reduce, CPU time under "
                    "random skew and latency without skew (paper 002)\n  --variants LIST  of "
                    "bypass,standard,shm,floor "
                    "(default bypass,standard)\n  --skews LIST  max skews of part 1 in us (default "
                    "0,100,1000; none)\n  --latency on|off  part 2 (default on)",
                    &options, &exit_code))
    return exit_code;
  remora_comm_t world = REMORA_COMM_NULL;
  bench::check(remora_comm_world(&world), "remora_comm_world");
  bench::Report report(options.csv);
  RemoraBackend bypass(world, REMORA_COLL_APPLICATION_BYPASS);
  RemoraBackend standard(world, REMORA_COLL_BINOMIAL);
  RemoraBackend shm(world, REMORA_COLL_SHM);
  RemoraBackend floor(world, REMORA_COLL_AUTO, true);
  std::vector<skew::Variant> variants;
  for (const skew::Variant& variant :
       {skew::Variant{"bypass", &bypass}, skew::Variant{"standard", &standard},
        skew::Variant{"shm", &shm}, skew::Variant{"floor", &floor}})
    if (("," + chosen + ",").find("," + variant.name + ",") != std::string::npos)
      variants.push_back(variant);
  skew::run(variants, bench::with_progress(""), bench::iterations_or(options, 200), options.batches,
            points, &report);
  report.print();
  bench::check(remora_finalize(), "remora_finalize");
  return 0;
}
