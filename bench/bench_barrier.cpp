// Barrier latency on N ranks (one run per rank count). The variant is the algorithm, from
// REMORA_BARRIER (dissemination | central; "auto" when unset, which is central on one node).
// Time per barrier as seen by rank 0, median over batches.
// Usage: REMORA_BARRIER=central remorarun -n N ./bench_barrier [--csv] [--iterations K]
#include "common/bench_common.hpp"
#include "remora.h"

int main(int argc, char** argv) {
  int exit_code = 0;
  bench::Options options;
  if (!bench::begin(&argc, &argv, 1, "bench_barrier: barrier latency (REMORA_BARRIER)", &options,
                    &exit_code))
    return exit_code;
  const int ranks = remora_size();
  const int iterations = bench::iterations_or(options, ranks > 2 ? 300 : 2000);
  bench::Report report(options.csv);
  auto barrier = [] { bench::check(remora_barrier(), "remora_barrier"); };

  auto latency = bench::time_batches(options.batches, iterations, barrier, [&](int) { barrier(); });
  report.add_latency("barrier", bench::with_progress(bench::env_or("REMORA_BARRIER", "auto")),
                     ranks, 0, latency);
  report.print();
  bench::check(remora_finalize(), "remora_finalize");
  return 0;
}
