// Cost of fence synchronisation against its building blocks (paper 001, Fig. 2), on p ranks
// (run once per p; CSV column ranks). Variants (metric `us`: the maximum over ranks of each
// rank's median time per iteration):
//   barrier2          two remora_barrier calls
//   reduce_scatter    one remora_reduce_scatter_block of p uint64 counts (one per rank)
//   fence2_immediate  remora_win_fence(NOPRECEDE) + remora_win_fence(NOSUCCEED), nothing between
//                     (the paper's pair of fences), window info fence=immediate
//   fence2_deferred   the same with fence=deferred
//   fence2_immediate_put, fence2_deferred_put
//                     the same pair with one 8-byte put to the next rank between the fences
// Usage: remorarun -n P ./fence_cost [--csv] [--iterations K] [--batches B] [--only VARIANT]
//   --only runs that variant alone (for per-fence counts under perf stat or strace -c).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "common/bench_common.hpp"
#include "remora.h"

namespace {

// The maximum over ranks of this rank's median.
double max_of_medians(const std::vector<double>& us, remora_comm_t world) {
  double mine = bench::median(us), worst = 0;
  bench::check(
      remora_allreduce(&mine, &worst, 1, REMORA_DOUBLE, REMORA_OP_MAX, world, REMORA_COLL_AUTO),
      "remora_allreduce");
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  std::string only;
  const bool only_ok = bench::take_extra_options(&argc, argv, {{"--only", &only}});
  int exit_code = 0;
  bench::Options options;
  if (!bench::begin(&argc, &argv, 1,
                    "fence_cost: two fences vs barriers and reduce-scatter\n"
                    "  --only VARIANT   run that variant alone (barrier2, reduce_scatter,\n"
                    "                   fence2_immediate[_put], fence2_deferred[_put])\n",
                    &options, &exit_code))
    return exit_code;
  if (!only_ok) {
    if (remora_rank() == 0) std::fprintf(stderr, "fence_cost: --only lacks its value\n");
    remora_finalize();
    return 2;
  }
  auto wanted = [&only](const std::string& variant) { return only.empty() || only == variant; };
  const int rank = remora_rank();
  const int ranks = remora_size();
  const int iterations = bench::iterations_or(options, ranks > 2 ? 500 : 2000);
  bench::Report report(options.csv);
  remora_comm_t world = nullptr;
  bench::check(remora_comm_world(&world), "remora_comm_world");
  auto barrier = [] { bench::check(remora_barrier(), "remora_barrier"); };
  auto record = [&](const char* variant, const std::vector<double>& us) {
    const double worst = max_of_medians(us, world);
    report.add("fence_cost", bench::with_progress(variant), ranks, 0, "us", worst);
  };

  if (wanted("barrier2"))
    record("barrier2", bench::time_batches(options.batches, iterations, barrier, [&](int) {
             barrier();
             barrier();
           }));

  if (wanted("reduce_scatter")) {
    std::vector<uint64_t> counts(static_cast<size_t>(ranks), 1);
    uint64_t mine = 0;
    record("reduce_scatter", bench::time_batches(options.batches, iterations, barrier, [&](int) {
             bench::check(remora_reduce_scatter_block(counts.data(), &mine, 1, REMORA_UINT64,
                                                      REMORA_OP_SUM, world, REMORA_COLL_AUTO),
                          "remora_reduce_scatter_block");
           }));
    if (mine != static_cast<uint64_t>(ranks))
      remora_abort(1, "fence_cost: reduce-scatter is wrong");
  }

  const int next = (rank + 1) % ranks;
  for (const char* impl : {"immediate", "deferred"}) {
    const std::string info = std::string("fence=") + impl;
    remora_win_t win = nullptr;
    int64_t* base = nullptr;
    bench::check(remora_win_allocate(64, 8, info.c_str(), reinterpret_cast<void**>(&base), &win),
                 "remora_win_allocate");
    for (bool put : {false, true}) {
      const std::string variant = std::string("fence2_") + impl + (put ? "_put" : "");
      if (!wanted(variant)) continue;
      int64_t value = 0;
      const auto us = bench::time_batches(options.batches, iterations, barrier, [&](int i) {
        bench::check(remora_win_fence(win, REMORA_MODE_NOPRECEDE), "remora_win_fence");
        if (put) {
          value = i + 1;
          bench::check(remora_win_put(win, next, 0, &value, 1, REMORA_INT64), "remora_win_put");
        }
        bench::check(remora_win_fence(win, REMORA_MODE_NOSUCCEED), "remora_win_fence");
        if (put && base[0] != i + 1) remora_abort(1, "fence_cost: the put is not visible");
      });
      record(variant.c_str(), us);
    }
    bench::check(remora_win_free(&win), "remora_win_free");
  }

  report.print();
  bench::check(remora_finalize(), "remora_finalize");
  return 0;
}
