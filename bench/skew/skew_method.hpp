// The skewed-reduce experiment of paper 002 (Fig. 6-7 and 9-10), written once for any library
// with a blocking reduce: bench/reduce_skew runs it on Remora's reduce algorithms,
// bench/reduce_skew_mpi on MPI_Reduce. Nothing here depends on either library.
//
// Part 1, CPU time under skew (Fig. 6-7): each iteration every rank busy-loops a random time in
// [0, max skew] (CPU time, no library call), calls the reduce (SUM of doubles to root 0),
// busy-loops a catch-up time (max skew + 50 us, no library call) so that late children have
// sent by then, and calls the backend's progress() once (Remora's remora_progress, which folds
// in late children of a bypass reduction in manual progress mode; nothing for MPI). A barrier,
// outside the measured region, separates the iterations. Metrics, per rank and iteration,
// averaged over all ranks, median over batches:
//   cpu_us       process CPU time of the iteration minus the application thread's CPU time in
//                the two busy loops, i.e. the CPU spent in every library call of the iteration
//                (reduce + the progress call) plus whatever a progress thread spent meanwhile:
//                the paper's "CPU utilisation" method;
//   call_cpu_us  application-thread CPU time inside the reduce call alone;
//   sep_cpu_us   application-thread CPU time of the separating barrier (not in cpu_us; it
//                includes delegated work still left after the catch-up, and waiting);
//   root_cpu_us  cpu_us of the root alone (the one rank that waits for the whole result), and
//   other_cpu_us cpu_us averaged over the other ranks (those that only contribute).
// Part 2, latency without skew (Fig. 9-10): barrier, then rank 0 times its reduce (the root
// returns when the whole result is in); metric us = mean per reduce of a batch, median (and
// us_min) over batches.
// Iterations per batch: K at skew 0, K/4 at 100 us, K/12 at 1000 us, K/2 for the latency part.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace bench {
class Report;
}

namespace skew {

// What the experiment needs from a library. Every rank calls every function in the same order.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual int rank() = 0;
  virtual int size() = 0;
  virtual double now_us() = 0;
  virtual void barrier() = 0;
  // SUM of count doubles from send into recv at root 0, with the variant under test.
  virtual void reduce(const double* send, double* recv, size_t count) = 0;
  // One call that lets the library make progress outside a collective (may do nothing).
  virtual void progress() = 0;
  // The sum of three doubles of every rank at rank 0 (bookkeeping, not measured).
  virtual void sum_at_root(const double in[3], double out[3]) = 0;
  // Ends the job after a wrong result.
  [[noreturn]] virtual void abort(const char* message) = 0;
};

// A reduce under test: its name in the report and the backend that runs it.
struct Variant {
  std::string name;
  Backend* backend;
};

// Which points run: the max skews of part 1 and whether part 2 runs. Counting a rank's system
// calls per reduce at one point (perf stat, strace -c) needs that point alone.
struct Points {
  std::vector<int> skews{0, 100, 1000};
  bool latency = true;
};
// The options --skews LIST (max skews in us, comma-separated, e.g. 1000; "none" for no part 1)
// and --latency on|off, taken out of argv (bench::take_extra_options); false, with a message on
// stderr, for a bad value.
bool take_points(int* argc, char** argv, Points* points);

// Runs both parts and adds rows to report: bench "reduce_skew", variant
// "<name>/skew<us><suffix>" (part 1, metrics cpu_us, call_cpu_us, sep_cpu_us, root_cpu_us,
// other_cpu_us) and
// "<name><suffix>" (part 2, us and us_min), for
// 4, 32 and 128 doubles (part 2 also 1) and max skew 0, 100 and 1000 us; the variants take
// turns at each point. iterations: K above; batches: measured batches (one more warms up).
void run(const std::vector<Variant>& variants, const std::string& suffix, int iterations,
         int batches, const Points& points, bench::Report* report);

}  // namespace skew
