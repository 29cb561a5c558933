// Shared helpers of the Remora micro-benchmarks: command line, timing statistics, error checks
// and the one output schema of every benchmark (a readable table, or CSV with the header
// `bench,variant,ranks,bytes,metric,value`). Only the public C API (remora.h) is used.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace bench {

// Command line shared by every benchmark: [--csv] [--iterations K] [--batches B].
struct Options {
  bool csv = false;
  int iterations = 0;  // operations per batch; 0 = the benchmark's default
  int batches = 5;     // measured batches (one more, unmeasured, warms up)
};

// Parses argv (after remora_init). On --help or a bad argument, rank 0 prints the usage and
// the function returns false; the caller then finalizes and exits (status in *exit_code).
bool parse_options(int argc, char** argv, const char* description, Options* options,
                   int* exit_code);
// The same for a program that does not run Remora (leader: the rank that prints messages).
bool parse_options(int argc, char** argv, const char* description, Options* options, int* exit_code,
                   bool leader);

// A program's own options "--name value": removes each such pair from argv (before
// bench::begin, whose parser rejects them) and stores the value. False when a value is missing.
struct ExtraOption {
  const char* name;  // "--ops"
  std::string* value;
};
bool take_extra_options(int* argc, char** argv, const std::vector<ExtraOption>& extras);

// Iterations per batch: the --iterations value, or default_iterations.
int iterations_or(const Options& options, int default_iterations);
// Iterations for transfers of `bytes`: at most `iterations`, and no more than bytes_per_batch
// bytes per batch (but at least `minimum` iterations), so large transfers keep batches short.
int iterations_by_volume(size_t bytes, int iterations, size_t bytes_per_batch, int minimum);

// Aborts the whole job with Remora's last error message (check_failed) when status is negative.
// The test inline: timed loops check every call, and an out-of-line call per check cost the
// measured calls more than some of them take (lock_put_unlock: three per iteration).
[[noreturn]] void check_failed(int status, const char* what);
inline void check(int status, const char* what) {
  if (status < 0) [[unlikely]]
    check_failed(status, what);
}

// The start of every benchmark: remora_init, a check that the job has at least min_ranks
// ranks, and the command line (description heads the usage text). Returns false, with Remora
// finalized and *exit_code set, when main should return at once (too few ranks, --help, a bad
// argument).
bool begin(int* argc, char*** argv, int min_ranks, const char* description, Options* options,
           int* exit_code);

// The value of an environment variable, or fallback when unset or empty.
std::string env_or(const char* name, const char* fallback);

// REMORA_PROGRESS as the benchmarks label it: "manual" (the default), "thread" or "ghost".
std::string progress_mode();

// Appends "_progress_<mode>" to variant unless REMORA_PROGRESS is manual, so that runs of the
// same benchmark under several progress modes stay apart in one combined CSV.
std::string with_progress(const std::string& variant);

// Message sizes from first to last (inclusive), multiplying by factor; last is always included.
std::vector<size_t> sizes(size_t first, size_t last, size_t factor);

// Statistics over per-batch figures.
double median(std::vector<double> values);
double minimum(const std::vector<double>& values);
double maximum(const std::vector<double>& values);

// Runs batches+1 batches of iterations calls of op (the first batch warms up and is dropped)
// and returns the time per call of each measured batch, in microseconds. before_batch runs
// (untimed) before each batch, e.g. a barrier.
template <typename Op, typename Before>
std::vector<double> time_batches(int batches, int iterations, Before&& before_batch, Op&& op);

double now_us();

// Collects result rows and prints them (rank 0 only) as CSV or as a table with one column per
// metric.
class Report {
 public:
  explicit Report(bool csv) : csv_(csv) {}
  void add(const std::string& bench, const std::string& variant, int ranks, size_t bytes,
           const std::string& metric, double value);
  // Adds `us` (median) and `us_min` rows from per-batch microsecond figures.
  void add_latency(const std::string& bench, const std::string& variant, int ranks, size_t bytes,
                   const std::vector<double>& us_per_op);
  // Prints on rank 0, then clears.
  void print();
  // Prints if leader (a program that does not run Remora says which rank prints), then clears.
  void print(bool leader);

 private:
  struct Row {
    std::string bench, variant;
    int ranks;
    size_t bytes;
    std::string metric;
    double value;
  };
  bool csv_;
  std::vector<Row> rows_;
};

template <typename Op, typename Before>
std::vector<double> time_batches(int batches, int iterations, Before&& before_batch, Op&& op) {
  std::vector<double> result;
  for (int batch = -1; batch < batches; ++batch) {
    before_batch();
    const double start = now_us();
    for (int i = 0; i < iterations; ++i) op(i);
    const double elapsed = now_us() - start;
    if (batch >= 0) result.push_back(elapsed / iterations);
  }
  return result;
}

}  // namespace bench
