// Remote fetch-add latency.
//   remote     rank 0 -> a word of rank 1, the other ranks idle in a barrier
//   contended  every rank fetch-adds the same word of rank 0 at once (10x the iterations);
//              us = each rank's own time per operation, averaged over the ranks;
//              Mops = all ranks' operations / rank 0's time from start to end barrier
// Usage: remorarun -n N ./bench_fetch_add [--csv] [--iterations K] [--batches B]  (N >= 2)
#include <cstdint>
#include <cstdio>
#include <vector>

#include "common/bench_common.hpp"
#include "remora.h"

namespace {

constexpr size_t kCounter = 0;  // the word every benchmark adds to
constexpr size_t kTimes = 64;   // rank 0: one double per rank, each rank's batch time (us)

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  bench::Options options;
  if (!bench::begin(&argc, &argv, 2, "bench_fetch_add: remote and contended fetch-add latency",
                    &options, &exit_code))
    return exit_code;
  const int rank = remora_rank();
  const int ranks = remora_size();
  const int iterations = bench::iterations_or(options, 10000);
  bench::Report report(options.csv);
  auto barrier = [] { bench::check(remora_barrier(), "remora_barrier"); };

  remora_segment_t segment = nullptr;
  bench::check(
      remora_segment_allocate(kTimes + sizeof(double) * static_cast<size_t>(ranks), &segment),
      "remora_segment_allocate");
  const int64_t batches_run = options.batches + 1;  // with the warm-up batch

  // Remote: rank 0 -> rank 1.
  if (rank == 0) {
    int64_t old = 0;
    auto latency = bench::time_batches(
        options.batches, iterations, [] {},
        [&](int) {
          bench::check(remora_fetch_add(segment, 1, kCounter, 1, &old), "remora_fetch_add");
        });
    report.add_latency("fetch_add", bench::with_progress("remote"), ranks, 8, latency);
  }
  barrier();
  if (rank == 1) {
    int64_t value = 0;
    bench::check(remora_get(segment, 1, kCounter, &value, sizeof value), "remora_get");
    if (value != batches_run * iterations) {
      std::fprintf(stderr, "bench_fetch_add: rank 1's counter is %lld, expected %lld\n",
                   static_cast<long long>(value), static_cast<long long>(batches_run * iterations));
      remora_abort(1, "bench_fetch_add: wrong remote counter");
    }
  }

  // Contended: every rank on rank 0's word, ten times as many operations so that the ranks
  // overlap despite skewed barrier exits. Rank 0 times from the start barrier to the end
  // barrier (aggregate rate); each rank reports its own time per operation.
  const int contended_iterations = iterations * 10;
  std::vector<double> mean_us;
  std::vector<double> mops;
  for (int batch = -1; batch < options.batches; ++batch) {
    barrier();
    int64_t old = 0;
    const double start = bench::now_us();
    for (int i = 0; i < contended_iterations; ++i)
      bench::check(remora_fetch_add(segment, 0, kCounter, 1, &old), "remora_fetch_add");
    const double elapsed = bench::now_us() - start;
    bench::check(remora_put(segment, 0, kTimes + sizeof(double) * static_cast<size_t>(rank),
                            &elapsed, sizeof elapsed),
                 "remora_put");
    bench::check(remora_flush(segment, 0), "remora_flush");
    barrier();
    const double span = bench::now_us() - start;
    if (rank == 0 && batch >= 0) {
      std::vector<double> times(static_cast<size_t>(ranks));
      bench::check(remora_get(segment, 0, kTimes, times.data(), sizeof(double) * times.size()),
                   "remora_get");
      double sum = 0;
      for (double t : times) sum += t;
      mean_us.push_back(sum / ranks / contended_iterations);
      mops.push_back(static_cast<double>(ranks) * contended_iterations / span);
    }
  }
  if (rank == 0) {
    int64_t value = 0;
    bench::check(remora_get(segment, 0, kCounter, &value, sizeof value), "remora_get");
    const int64_t expected = batches_run * contended_iterations * ranks;
    if (value != expected) {
      std::fprintf(stderr, "bench_fetch_add: rank 0's counter is %lld, expected %lld\n",
                   static_cast<long long>(value), static_cast<long long>(expected));
      remora_abort(1, "bench_fetch_add: wrong contended counter");
    }
    const std::string variant = bench::with_progress("contended");
    report.add_latency("fetch_add", variant, ranks, 8, mean_us);
    report.add("fetch_add", variant, ranks, 8, "Mops", bench::median(mops));
  }
  barrier();
  report.print();
  bench::check(remora_segment_free(&segment), "remora_segment_free");
  bench::check(remora_finalize(), "remora_finalize");
  return 0;
}
