// Application-bypass reduce against the standard binomial reduce (paper 002).
//
// Part 1, CPU time under skew (Fig. 6-7): each iteration every rank busy-loops a random time in
// [0, max skew] (CPU time, no Remora call), calls remora_reduce (SUM of doubles to root 0),
// busy-loops a catch-up time (max skew + 50 us, no Remora call) so that late children have
// sent by then, and calls remora_progress() once, which folds in late children of a bypass
// reduction in manual progress mode. A barrier, outside the measured region, separates the
// iterations. Metrics, per rank and iteration, averaged over all ranks, median over batches:
//   cpu_us       process CPU time of the iteration minus the application thread's CPU time in
//                the two busy loops, i.e. the CPU spent in every Remora call of the iteration
//                (reduce + the progress call) plus whatever a progress thread spent meanwhile
//                (REMORA_PROGRESS=thread): the paper's "CPU utilisation" method;
//   call_cpu_us  application-thread CPU time inside the remora_reduce call alone;
//   sep_cpu_us   application-thread CPU time of the separating barrier (not in cpu_us; it
//                includes delegated bypass work still left after the catch-up, and waiting).
// Part 2, latency without skew (Fig. 9-10): barrier, then rank 0 times its remora_reduce (the
// root returns when the whole result is in); metric us = mean per reduce of a batch, median
// (and us_min) over batches.
// Variants: bypass = REMORA_COLL_APPLICATION_BYPASS, standard = REMORA_COLL_BINOMIAL.
// Usage: remorarun -n N ./reduce_skew [--csv] [--iterations K] [--batches B]
//   K = iterations per batch at skew 0 (default 200); K/4 at 100 us, K/12 at 1000 us, K/2 for
//   the latency part.
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "common/bench_common.hpp"
#include "remora.h"

namespace {

double cpu_us(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) * 1e-3;
}

double thread_cpu_us() {
  return cpu_us(CLOCK_THREAD_CPUTIME_ID);
}
double process_cpu_us() {
  return cpu_us(CLOCK_PROCESS_CPUTIME_ID);
}

// Busy-loops until this thread has used `us` microseconds of CPU time (so that a rank that is
// descheduled on an oversubscribed node still does the same amount of "work").
void busy_loop(double us) {
  if (us <= 0) return;
  const double start = thread_cpu_us();
  while (thread_cpu_us() - start < us) {
  }
}

struct Variant {
  const char* name;
  remora_coll_algorithm_t algorithm;
};
constexpr Variant kVariants[] = {{"bypass", REMORA_COLL_APPLICATION_BYPASS},
                                 {"standard", REMORA_COLL_BINOMIAL}};

class Bench {
 public:
  Bench(const bench::Options& options, remora_comm_t world)
      : options_(options),
        world_(world),
        rank_(remora_rank()),
        ranks_(remora_size()),
        random_(12345u + 7919u * static_cast<unsigned>(remora_rank())) {}

  // Part 1: one (variant, elements, max skew) point; adds cpu_us, call_cpu_us, sep_cpu_us.
  void skew_point(const Variant& variant, size_t elements, int max_skew_us, int iterations,
                  bench::Report* report) {
    resize(elements);
    std::uniform_real_distribution<double> skew(0.0, static_cast<double>(max_skew_us));
    const double catchup_us = max_skew_us + 50.0;
    std::vector<double> cpu, call, sep;
    for (int batch = -1; batch < options_.batches; ++batch) {
      barrier();
      double sums[3] = {0, 0, 0};  // cpu, call, sep of this rank, summed over iterations
      for (int i = 0; i < iterations; ++i) {
        const double p0 = process_cpu_us();
        const double s0 = thread_cpu_us();
        busy_loop(skew(random_));
        const double s1 = thread_cpu_us();
        reduce(variant.algorithm);
        const double c1 = thread_cpu_us();
        busy_loop(catchup_us);
        const double k1 = thread_cpu_us();
        bench::check(remora_progress(), "remora_progress");
        const double p1 = process_cpu_us();
        sums[0] += (p1 - p0) - (s1 - s0) - (k1 - c1);
        sums[1] += c1 - s1;
        const double b0 = thread_cpu_us();
        barrier();
        sums[2] += thread_cpu_us() - b0;
        verify();
      }
      double totals[3] = {0, 0, 0};
      bench::check(remora_reduce(sums, totals, 3, REMORA_DOUBLE, REMORA_OP_SUM, 0, world_,
                                 REMORA_COLL_BINOMIAL),
                   "remora_reduce (totals)");
      if (batch < 0) continue;
      const double per = 1.0 / (static_cast<double>(iterations) * ranks_);
      cpu.push_back(totals[0] * per);
      call.push_back(totals[1] * per);
      sep.push_back(totals[2] * per);
    }
    const std::string name =
        bench::with_progress(std::string(variant.name) + "/skew" + std::to_string(max_skew_us));
    const size_t bytes = elements * sizeof(double);
    report->add("reduce_skew", name, ranks_, bytes, "cpu_us", bench::median(cpu));
    report->add("reduce_skew", name, ranks_, bytes, "call_cpu_us", bench::median(call));
    report->add("reduce_skew", name, ranks_, bytes, "sep_cpu_us", bench::median(sep));
  }

  // Part 2: latency without skew, as seen by the root.
  void latency_point(const Variant& variant, size_t elements, int iterations,
                     bench::Report* report) {
    resize(elements);
    std::vector<double> per_reduce;
    for (int batch = -1; batch < options_.batches; ++batch) {
      double total = 0;
      for (int i = 0; i < iterations; ++i) {
        barrier();
        const double start = bench::now_us();
        reduce(variant.algorithm);
        total += bench::now_us() - start;
        verify();
      }
      if (batch >= 0) per_reduce.push_back(total / iterations);
    }
    report->add_latency("reduce_skew", bench::with_progress(variant.name), ranks_,
                        elements * sizeof(double), per_reduce);
  }

  void finish() { barrier(); }

 private:
  void resize(size_t elements) {
    send_.assign(elements, static_cast<double>(rank_ + 1));
    recv_.assign(elements, 0.0);
  }
  void reduce(remora_coll_algorithm_t algorithm) {
    bench::check(remora_reduce(send_.data(), recv_.data(), send_.size(), REMORA_DOUBLE,
                               REMORA_OP_SUM, 0, world_, algorithm),
                 "remora_reduce");
  }
  void barrier() { bench::check(remora_barrier(), "remora_barrier"); }
  // The root checks the sum 1 + 2 + ... + ranks (exact in doubles).
  void verify() {
    if (rank_ != 0) return;
    const double expected = 0.5 * ranks_ * (ranks_ + 1);
    for (double value : recv_) {
      if (value != expected) {
        std::fprintf(stderr, "reduce_skew: wrong result %g (expected %g)\n", value, expected);
        remora_abort(1, "reduce_skew: wrong result");
      }
    }
    std::fill(recv_.begin(), recv_.end(), 0.0);
  }

  const bench::Options& options_;
  remora_comm_t world_;
  int rank_;
  int ranks_;
  std::mt19937 random_;
  std::vector<double> send_, recv_;
};

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  bench::Options options;
  if (!bench::begin(&argc, &argv, 2,
                    "reduce_skew: application-bypass vs binomial reduce, CPU time under "
                    "random skew and latency without skew (paper 002)",
                    &options, &exit_code))
    return exit_code;
  remora_comm_t world = REMORA_COMM_NULL;
  bench::check(remora_comm_world(&world), "remora_comm_world");
  const int base = bench::iterations_or(options, 200);
  bench::Report report(options.csv);
  Bench run(options, world);

  const size_t element_counts[] = {4, 32, 128};
  const int max_skews[] = {0, 100, 1000};
  for (size_t elements : element_counts) {
    for (int max_skew : max_skews) {
      const int iterations =
          std::max(1, max_skew == 0 ? base : (max_skew <= 100 ? base / 4 : base / 12));
      for (const Variant& variant : kVariants)
        run.skew_point(variant, elements, max_skew, iterations, &report);
    }
  }
  report.print();

  const size_t latency_counts[] = {1, 4, 32, 128};
  for (size_t elements : latency_counts)
    for (const Variant& variant : kVariants)
      run.latency_point(variant, elements, std::max(1, base / 2), &report);
  report.print();

  run.finish();
  bench::check(remora_finalize(), "remora_finalize");
  return 0;
}
