// Progress overlap (the Casper pattern; Casper is cited by paper 003): how much each progress
// mode lets passive-target accumulates progress while their targets compute.
//   progress_overlap: every rank, inside lock_all, issues 1 accumulate (one double, SUM) to
//     each other rank, computes for 100 us without calling Remora, issues 10 more to each
//     other rank and flushes; metric `us` = time per iteration (the slowest rank's, median
//     over batches). Variants `<progress>/<strategy>` for acc_strategy owner and caller, and
//     `<progress>/compute` (the 100 us alone, for reference).
//   progress_overlap_busy_target: rank 1 computes for 1 s without calling Remora while rank 0
//     does lock(exclusive) - accumulate - unlock on it; metric `us` = rank 0's time for the
//     three calls (median of 3 runs; `us_max` the slowest). Owner-computes needs an agent at
//     the target (its progress thread, or the node's ghost); caller-computes does not.
//   progress_overlap_lock_roundtrip: rank 1 computes for 200 ms without calling Remora while
//     rank 0 does 100 uncontended lock(exclusive) - unlock pairs on it (no operation); metric
//     `us` = the median pair, `us_max` the slowest. Across nodes with thread or ghost progress
//     the target's agent grants the lock (docs/rma.md, "Locks across nodes").
// The progress mode is process-wide (REMORA_PROGRESS), so run the program once per mode
// (bench/run_benchmarks.sh does); it labels its variants with the mode it ran under.
// Usage: remorarun -n P ./progress_overlap [--csv] [--iterations K] [--batches B]
#include <string>
#include <vector>

#include "common/bench_common.hpp"
#include "remora.h"

namespace {

constexpr double kComputeUs = 100;
constexpr int kLaterAccumulates = 10;
constexpr double kBusyTargetUs = 1e6;
constexpr int kBusyRuns = 3;
constexpr double kRoundTripTargetUs = 2e5;
constexpr int kRoundTrips = 100;
const char* const kStrategies[] = {"owner", "caller"};

// Computing without calling Remora: spin on the clock (the library's clock needs no progress).
void compute(double microseconds) {
  const double end = bench::now_us() + microseconds;
  while (bench::now_us() < end) {
  }
}

double max_over_ranks(double value) {
  remora_comm_t world = nullptr;
  bench::check(remora_comm_world(&world), "remora_comm_world");
  double result = 0;
  bench::check(
      remora_allreduce(&value, &result, 1, REMORA_DOUBLE, REMORA_OP_MAX, world, REMORA_COLL_AUTO),
      "remora_allreduce");
  return result;
}

remora_win_t allocate(const char* strategy, int ranks, double** base) {
  const std::string info = std::string("acc_strategy=") + strategy;
  remora_win_t win = nullptr;
  bench::check(remora_win_allocate(sizeof(double) * static_cast<size_t>(ranks), sizeof(double),
                                   info.c_str(), reinterpret_cast<void**>(base), &win),
               "remora_win_allocate");
  return win;
}

void accumulate_to_others(remora_win_t win, int rank, int ranks, const double& one) {
  for (int step = 1; step < ranks; ++step)
    bench::check(remora_win_accumulate(win, (rank + step) % ranks, static_cast<size_t>(rank), &one,
                                       1, REMORA_DOUBLE, REMORA_OP_SUM, nullptr),
                 "remora_win_accumulate");
}

// One variant of the Casper pattern; strategy nullptr: the computation alone.
void overlap(const char* strategy, const bench::Options& options, int iterations,
             bench::Report* report) {
  const int rank = remora_rank(), ranks = remora_size();
  double* base = nullptr;
  remora_win_t win = allocate(strategy != nullptr ? strategy : "auto", ranks, &base);
  const double one = 1.0;
  std::vector<double> slowest;
  bench::check(remora_win_lock_all(win, 0), "remora_win_lock_all");
  for (int batch = -1; batch < options.batches; ++batch) {
    bench::check(remora_barrier(), "remora_barrier");
    const double start = bench::now_us();
    for (int i = 0; i < iterations; ++i) {
      if (strategy != nullptr) accumulate_to_others(win, rank, ranks, one);
      compute(kComputeUs);
      if (strategy == nullptr) continue;
      for (int k = 0; k < kLaterAccumulates; ++k) accumulate_to_others(win, rank, ranks, one);
      bench::check(remora_win_flush_all(win), "remora_win_flush_all");
    }
    const double per_iteration = max_over_ranks((bench::now_us() - start) / iterations);
    if (batch >= 0) slowest.push_back(per_iteration);
  }
  bench::check(remora_win_unlock_all(win), "remora_win_unlock_all");
  bench::check(remora_barrier(), "remora_barrier");
  // Every other rank added 1 + kLaterAccumulates per iteration to element [origin].
  const double want =
      strategy != nullptr ? double(options.batches + 1) * iterations * (1 + kLaterAccumulates) : 0;
  for (int origin = 0; origin < ranks; ++origin)
    if (origin != rank && base[origin] != want)
      remora_abort(1, "progress_overlap: an accumulate was lost");
  const std::string variant =
      bench::progress_mode() + "/" + (strategy != nullptr ? strategy : "compute");
  report->add("progress_overlap", variant, ranks, sizeof(double), "us", bench::median(slowest));
  bench::check(remora_win_free(&win), "remora_win_free");
}

// Rank 0 locks, accumulates into and unlocks rank 1 while rank 1 computes for 1 s.
void busy_target(const char* strategy, bench::Report* report) {
  const int rank = remora_rank(), ranks = remora_size();
  double* base = nullptr;
  remora_win_t win = allocate(strategy, ranks, &base);
  const double one = 1.0;
  std::vector<double> times;
  for (int run = 0; run < kBusyRuns; ++run) {
    bench::check(remora_barrier(), "remora_barrier");
    if (rank == 1) compute(kBusyTargetUs);
    if (rank == 0) {
      const double start = bench::now_us();
      bench::check(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, 1, 0), "remora_win_lock");
      bench::check(remora_win_accumulate(win, 1, 0, &one, 1, REMORA_DOUBLE, REMORA_OP_SUM, nullptr),
                   "remora_win_accumulate");
      bench::check(remora_win_unlock(win, 1), "remora_win_unlock");
      times.push_back(bench::now_us() - start);
    }
  }
  bench::check(remora_barrier(), "remora_barrier");
  if (rank == 1 && base[0] != kBusyRuns)
    remora_abort(1, "progress_overlap: an accumulate was lost");
  const std::string variant = bench::progress_mode() + "/" + strategy;
  report->add("progress_overlap_busy_target", variant, ranks, sizeof(double), "us",
              bench::median(times));
  report->add("progress_overlap_busy_target", variant, ranks, sizeof(double), "us_max",
              bench::maximum(times));
  bench::check(remora_win_free(&win), "remora_win_free");
}

// Rank 0 locks and unlocks rank 1 while rank 1 computes.
void lock_roundtrip(bench::Report* report) {
  const int rank = remora_rank(), ranks = remora_size();
  double* base = nullptr;
  remora_win_t win = allocate("auto", ranks, &base);
  std::vector<double> times;
  bench::check(remora_barrier(), "remora_barrier");
  if (rank == 1) compute(kRoundTripTargetUs);
  if (rank == 0)
    for (int pair = 0; pair < kRoundTrips; ++pair) {
      const double start = bench::now_us();
      bench::check(remora_win_lock(win, REMORA_LOCK_EXCLUSIVE, 1, 0), "remora_win_lock");
      bench::check(remora_win_unlock(win, 1), "remora_win_unlock");
      times.push_back(bench::now_us() - start);
    }
  bench::check(remora_barrier(), "remora_barrier");
  if (rank == 0) {
    const std::string variant = bench::progress_mode() + "/lock_unlock";
    report->add("progress_overlap_lock_roundtrip", variant, ranks, 0, "us", bench::median(times));
    report->add("progress_overlap_lock_roundtrip", variant, ranks, 0, "us_max",
                bench::maximum(times));
  }
  bench::check(remora_win_free(&win), "remora_win_free");
}

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  bench::Options options;
  if (!bench::begin(&argc, &argv, 2,
                    "progress_overlap: accumulates overlapped with computation, per progress mode "
                    "(the Casper pattern)",
                    &options, &exit_code))
    return exit_code;
  const int iterations = bench::iterations_or(options, 200);
  bench::Report report(options.csv);
  overlap(nullptr, options, iterations, &report);
  for (const char* strategy : kStrategies) overlap(strategy, options, iterations, &report);
  for (const char* strategy : kStrategies) busy_target(strategy, &report);
  lock_roundtrip(&report);
  report.print();
  bench::check(remora_finalize(), "remora_finalize");
  return 0;
}
