// The NBCBench method (paper 004, Fig. 3), written once for any library that has a blocking and a
// nonblocking form of a collective: bench/nbc_overhead runs it on Remora, bench/nbc_overhead_mpi
// on MPI. Nothing here depends on either library.
//
// For one point (operation, algorithm, message size):
//   1. blocking time: R repetitions of the blocking collective, each after a barrier; per rank
//      the median; reported: the maximum over the ranks (the slowest rank);
//   2. compute time: that many work units of a calibrated busy loop, R times alone (no
//      communication), median per rank;
//   3. overlapped: R repetitions of start the nonblocking collective, run the same work units
//      (calling test every k units, or never), wait; total time per repetition, median per rank;
//   overhead = median total - median compute time, maximum over the ranks: the part of the
//   collective's time that the computation did not hide.
#pragma once

#include <cstddef>
#include <iterator>
#include <string>
#include <vector>

namespace bench {
class Report;
}

namespace nbc {

// What the method needs from a library. Every rank calls every function in the same order.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual double now_us() = 0;
  virtual void barrier() = 0;
  // The maximum of value over every rank, on every rank.
  virtual double max_over_ranks(double value) = 0;
  // Sets the message size (bytes per rank and block) of the collective under test.
  virtual void prepare(size_t bytes) = 0;
  virtual void run_blocking() = 0;
  virtual void start() = 0;
  virtual void test() = 0;  // one nonblocking test of the started collective
  virtual void wait() = 0;
};

// The collectives the method measures, in the order the programs run them. Barrier has no
// message size (its rows say 0 bytes); bcast, allreduce and reduce move `bytes` per rank;
// gather `bytes` per rank to root 0; alltoall `bytes` per block.
enum class Operation { Barrier, Bcast, Allreduce, Reduce, Gather, Alltoall };
constexpr Operation kOperations[] = {Operation::Barrier, Operation::Bcast,  Operation::Allreduce,
                                     Operation::Reduce,  Operation::Gather, Operation::Alltoall};
// The variant prefix: "ibarrier", "ibcast", ..., "ialltoall".
const char* operation_name(Operation operation);

// The buffers of one operation at `bytes` (every byte 1 in the send buffer, 0 in the receive
// buffer; bcast and barrier use send only).
struct Buffers {
  std::vector<unsigned char> send, recv;
  void resize(Operation operation, size_t bytes, int ranks);
};

// One work unit is a fixed amount of arithmetic (a few hundred nanoseconds on current CPUs).
void work_units(long units);
// Work units per microsecond on this rank, measured once (every rank gets the maximum, so that
// all ranks compute for the same number of units).
double calibrate(Backend& backend);

// Step 3 runs once per entry of test_every: test every k units; 0: never.
struct Point {
  int repetitions = 5;
  std::vector<long> test_every{0};
  double units_per_us = 1;
};
struct Result {
  double blocking_us = 0;  // median per rank, maximum over ranks
  double compute_us = 0;   // median per rank, maximum over ranks
  // Per entry of test_every: (median total - median compute) per rank, maximum over ranks.
  std::vector<double> overhead_us;
};
Result measure(Backend& backend, const Point& point);

// Measures every message size of options (barrier: one point, 0 bytes) on backend and adds rows
// to report: bench
// "nbc_overhead", one variant "<prefix>/k<k|never>" per k, each with the metrics blocking_us,
// compute_us (the same for every k of a size) and overhead_us.
struct MethodOptions;
void run_sizes(Backend& backend, Operation operation, const std::string& prefix, int ranks,
               int repetitions, double units_per_us, const MethodOptions& options,
               bench::Report* report);

// The --test-every values: "never" gives 0. Returns false on a bad list.
bool parse_test_every(const std::string& list, std::vector<long>* values);
// "k10" or "knever".
std::string test_every_label(long test_every);

// Message sizes 1 B .. 1 MiB in powers of 4, or up to max_bytes.
std::vector<size_t> message_sizes(size_t max_bytes);

// Removes "--test-every LIST", "--max-bytes N", "--sizes LIST" and "--operations LIST" from
// argv (so that the common option parser does not see them); returns false on a malformed value.
struct MethodOptions {
  std::vector<long> test_every{0, 10};
  size_t max_bytes = size_t{1} << 20;
  std::vector<size_t> sizes;  // --sizes; empty: message_sizes(max_bytes)
  std::vector<Operation> operations{std::begin(kOperations), std::end(kOperations)};
};
bool take_options(int* argc, char** argv, MethodOptions* options, std::string* error);

// Usage lines for the options above.
const char* method_usage();

}  // namespace nbc
