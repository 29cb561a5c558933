// Accumulate bandwidth (paper 000, Fig. 2-4): remora_win_accumulate of doubles with
// REMORA_OP_SUM, 8 B .. 1 MiB in steps of 4, one window per accumulate strategy (info
// acc_strategy=owner|caller|native|auto), plus remora_win_put on the auto window for reference.
// Two methods (--method batch|timed|both, default both):
//  batch, 2 ranks:  rank 0 -> rank 1 inside lock_all/unlock_all; a batch is K accumulates back
//             to back followed by one remora_win_flush; metric MBps = bytes * K / batch time
//             (median over batches). Rank 1 waits in remora_barrier meanwhile.
//  batch, 3+ ranks: `contended_<strategy>`: every rank (rank 0 included) accumulates onto the
//             same bytes of rank 0; metric MBps = aggregate (all ranks' bytes / slowest rank's
//             batch time) and MBps_per_rank (the median rank-0 figure). Oversubscribed, one
//             rank descheduled inside its batch makes a whole window's rows ~10x lower, for
//             any strategy (docs/benchmarks-log.md, "Contended accumulate rows are bimodal").
//  timed, 2+ ranks: `contended_timed_<strategy>`: every rank accumulates onto the same bytes of
//             rank 0 in lock_all until a deadline shared by all ranks, then flushes
//             (bench/common/timed_windows.hpp; the same code as the MPI twin's): MBps = all
//             ranks' completed bytes / window (median over windows), MBps_q1 and MBps_q3 its
//             quartiles.
// Rank 0's window memory receives an exact count check at the end of every strategy (batch)
// and after every size (timed: elements 0 and count-1 moved by the completed count).
// Usage: remorarun -n 2|4 ./acc_bandwidth [--csv] [--iterations K] [--batches B]
//          [--factor F] [--sizes LIST] [--strategies LIST] [--method M] [--windows W]
//          [--window-ms T]
//   --factor F: sizes 8, 8F, 8F^2, ... 1 MiB (default 4; bench/acc_kernel_thresholds.sh uses 2)
//   --sizes LIST: a comma list of sizes in bytes instead (multiples of 8 up to 1 MiB), e.g. one
//             size under perf
//   --strategies LIST: a comma list of the strategies to run (default owner,caller,native,auto)
//   --windows W, --window-ms T: timed windows per size (default 3 * B) and their length (20)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/bench_common.hpp"
#include "common/timed_windows.hpp"
#include "remora.h"

namespace {

constexpr size_t kMaxBytes = size_t{1} << 20;
constexpr size_t kBytesPerBatch = size_t{16} << 20;  // caps iterations for large messages
const char* const kStrategies[] = {"owner", "caller", "native", "auto"};

remora_comm_t world() {
  remora_comm_t comm = nullptr;
  bench::check(remora_comm_world(&comm), "remora_comm_world");
  return comm;
}

double max_over_ranks(double value) {
  double result = 0;
  bench::check(
      remora_allreduce(&value, &result, 1, REMORA_DOUBLE, REMORA_OP_MAX, world(), REMORA_COLL_AUTO),
      "remora_allreduce");
  return result;
}

// --sizes: a comma list of multiples of 8 bytes up to kMaxBytes; empty when any item is not.
std::vector<size_t> parse_sizes(const std::string& text) {
  std::vector<size_t> sizes;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    char* end = nullptr;
    const unsigned long long bytes = std::strtoull(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || bytes == 0 || bytes % sizeof(double) != 0 ||
        bytes > kMaxBytes)
      return {};
    sizes.push_back(static_cast<size_t>(bytes));
    at = comma + 1;
  }
  return sizes;
}

struct Timed {
  int windows;
  double window_us;
};

// The timed method (see the head of the file): every rank onto rank 0, one size after the other.
void timed_contended(remora_win_t win, const double* base, const std::string& variant,
                     const std::vector<size_t>& sizes, const Timed& timed,
                     const std::vector<double>& source, bench::Report& report) {
  const int ranks = remora_size();
  auto allreduce = [](double* values, int n, bool max) {
    std::vector<double> in(values, values + n);
    bench::check(remora_allreduce(in.data(), values, static_cast<size_t>(n), REMORA_DOUBLE,
                                  max ? REMORA_OP_MAX : REMORA_OP_SUM, world(), REMORA_COLL_AUTO),
                 "remora_allreduce");
  };
  for (size_t bytes : sizes) {
    const size_t count = bytes / sizeof(double);
    // The first allreduce of measure() waits for rank 0, so nobody accumulates before it read.
    const double first = base[0], last = base[count - 1];
    bench::check(remora_win_lock_all(win, 0), "remora_win_lock_all");
    const bench::timed::Figures figures = bench::timed::measure(
        bytes, timed.windows, timed.window_us,
        [&] {
          bench::check(remora_win_accumulate(win, 0, 0, source.data(), count, REMORA_DOUBLE,
                                             REMORA_OP_SUM, nullptr),
                       "remora_win_accumulate");
        },
        [&] { bench::check(remora_win_flush(win, 0), "remora_win_flush"); }, allreduce);
    bench::check(remora_win_unlock_all(win), "remora_win_unlock_all");
    bench::check(remora_barrier(), "remora_barrier");
    if (remora_rank() == 0) {
      if (!bench::timed::moved_by(first, base[0], figures.operations) ||
          !bench::timed::moved_by(last, base[count - 1], figures.operations)) {
        std::fprintf(stderr,
                     "acc_bandwidth: %s, %zu B: %.17g accumulates completed, but the target's "
                     "element 0 moved %.17g -> %.17g and element %zu %.17g -> %.17g\n",
                     variant.c_str(), bytes, figures.operations, first, base[0], count - 1, last,
                     base[count - 1]);
        remora_abort(1, "acc_bandwidth: the target's sums do not match the completed count");
      }
      report.add("acc_bandwidth", variant, ranks, bytes, "MBps",
                 bench::median(figures.aggregate_mbps));
      report.add("acc_bandwidth", variant, ranks, bytes, "MBps_q1",
                 bench::timed::quantile(figures.aggregate_mbps, 0.25));
      report.add("acc_bandwidth", variant, ranks, bytes, "MBps_q3",
                 bench::timed::quantile(figures.aggregate_mbps, 0.75));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string factor_text, sizes_text, wanted = "owner,caller,native,auto", method = "both",
                                       windows_text, window_ms_text;
  const bool ours_ok = bench::take_extra_options(&argc, argv,
                                                 {{"--factor", &factor_text},
                                                  {"--sizes", &sizes_text},
                                                  {"--strategies", &wanted},
                                                  {"--method", &method},
                                                  {"--windows", &windows_text},
                                                  {"--window-ms", &window_ms_text}});
  int exit_code = 0;
  bench::Options options;
  if (!bench::begin(&argc, &argv, 2,
                    "acc_bandwidth: double SUM accumulate bandwidth (paper 000 Fig. 2-4)\n"
                    "  --factor F         sizes 8, 8F, ... 1 MiB (default 4)\n"
                    "  --sizes LIST       comma list of sizes in bytes instead (multiples of 8)\n"
                    "  --strategies LIST  comma list of owner,caller,native,auto (default all)\n"
                    "  --method M         batch, timed or both (default both)\n"
                    "  --windows W        timed windows per size (default 3 * batches)\n"
                    "  --window-ms T      length of a timed window (default 20)",
                    &options, &exit_code))
    return exit_code;
  const size_t factor = factor_text.empty() ? 4 : std::strtoull(factor_text.c_str(), nullptr, 10);
  const bool batch_method = method == "batch" || method == "both";
  const bool timed_method = method == "timed" || method == "both";
  const Timed timed{windows_text.empty() ? 3 * options.batches : std::atoi(windows_text.c_str()),
                    1000 * (window_ms_text.empty() ? 20 : std::atof(window_ms_text.c_str()))};
  const std::vector<size_t> sizes = sizes_text.empty()
                                        ? bench::sizes(8, kMaxBytes, factor < 2 ? 2 : factor)
                                        : parse_sizes(sizes_text);
  if (!ours_ok || factor < 2 || sizes.empty() || !(batch_method || timed_method) ||
      timed.windows < 1 || !(timed.window_us > 0)) {
    if (remora_rank() == 0)
      std::fprintf(stderr,
                   "acc_bandwidth: bad --factor, --sizes, --strategies, --method, --windows or "
                   "--window-ms\n");
    remora_finalize();
    return 2;
  }
  const int rank = remora_rank();
  const int ranks = remora_size();
  const bool contended = ranks > 2;
  const int target = contended ? 0 : 1;
  const int iterations = bench::iterations_or(options, 4000);
  bench::Report report(options.csv);
  const size_t max_count = kMaxBytes / sizeof(double);
  const std::vector<double> source(max_count, 1.0);

  for (const char* strategy : kStrategies) {
    if (("," + wanted + ",").find(std::string(",") + strategy + ",") == std::string::npos) continue;
    const std::string info = std::string("acc_strategy=") + strategy;
    remora_win_t win = nullptr;
    void* base = nullptr;
    bench::check(remora_win_allocate(kMaxBytes, sizeof(double), info.c_str(), &base, &win),
                 "remora_win_allocate");
    if (batch_method) {
      const bool active = contended || rank == 0;  // ranks that accumulate
      const std::string variant =
          bench::with_progress(contended ? std::string("contended_") + strategy : strategy);
      double expected_first = 0;  // accumulates that touched element 0 of the target (per origin)

      for (size_t bytes : sizes) {
        const size_t count = bytes / sizeof(double);
        const int n = bench::iterations_by_volume(bytes, iterations, kBytesPerBatch, 4);
        std::vector<double> mbps, slowest_us;
        if (active) bench::check(remora_win_lock_all(win, 0), "remora_win_lock_all");
        for (int batch = -1; batch < options.batches; ++batch) {
          if (contended) bench::check(remora_barrier(), "remora_barrier");
          const double start = bench::now_us();
          if (active) {
            for (int i = 0; i < n; ++i)
              bench::check(remora_win_accumulate(win, target, 0, source.data(), count,
                                                 REMORA_DOUBLE, REMORA_OP_SUM, nullptr),
                           "remora_win_accumulate");
            bench::check(remora_win_flush(win, target), "remora_win_flush");
          }
          const double elapsed = bench::now_us() - start;
          if (batch >= 0) {
            mbps.push_back(static_cast<double>(bytes) * n / elapsed);
            slowest_us.push_back(contended ? max_over_ranks(elapsed) : elapsed);
          } else if (contended) {
            max_over_ranks(elapsed);  // keep the collective calls matched
          }
        }
        if (active) bench::check(remora_win_unlock_all(win), "remora_win_unlock_all");
        expected_first += static_cast<double>(n) * (options.batches + 1);
        if (rank == 0) {
          if (contended) {
            std::vector<double> aggregate;
            for (double us : slowest_us)
              aggregate.push_back(static_cast<double>(bytes) * n * ranks / us);
            report.add("acc_bandwidth", variant, ranks, bytes, "MBps", bench::median(aggregate));
            report.add("acc_bandwidth", variant, ranks, bytes, "MBps_per_rank",
                       bench::median(mbps));
          } else {
            report.add("acc_bandwidth", variant, ranks, bytes, "MBps", bench::median(mbps));
          }
        }
        bench::check(remora_barrier(), "remora_barrier");
      }

      // Every accumulate added 1.0 to element 0 of the target.
      if (rank == target) {
        const double want = expected_first * (contended ? ranks : 1);
        if (static_cast<const double*>(base)[0] != want)
          remora_abort(1, "acc_bandwidth: the target's element 0 has the wrong sum");
      }
      bench::check(remora_barrier(), "remora_barrier");
    }

    if (timed_method)
      timed_contended(win, static_cast<const double*>(base),
                      bench::with_progress(std::string("contended_timed_") + strategy), sizes,
                      timed, source, report);

    // Reference: remora_win_put on the same window (2 ranks only), same batching.
    if (batch_method && !contended && std::string(strategy) == "auto") {
      for (size_t bytes : sizes) {
        const int n = bench::iterations_by_volume(bytes, iterations, kBytesPerBatch, 4);
        if (rank == 0) {
          std::vector<double> mbps;
          bench::check(remora_win_lock_all(win, 0), "remora_win_lock_all");
          for (int batch = -1; batch < options.batches; ++batch) {
            const double start = bench::now_us();
            for (int i = 0; i < n; ++i)
              bench::check(
                  remora_win_put(win, 1, 0, source.data(), bytes / sizeof(double), REMORA_DOUBLE),
                  "remora_win_put");
            bench::check(remora_win_flush(win, 1), "remora_win_flush");
            const double elapsed = bench::now_us() - start;
            if (batch >= 0) mbps.push_back(static_cast<double>(bytes) * n / elapsed);
          }
          bench::check(remora_win_unlock_all(win), "remora_win_unlock_all");
          report.add("acc_bandwidth", bench::with_progress("put"), ranks, bytes, "MBps",
                     bench::median(mbps));
        }
        bench::check(remora_barrier(), "remora_barrier");
      }
    }
    bench::check(remora_win_free(&win), "remora_win_free");
  }

  report.print();
  bench::check(remora_finalize(), "remora_finalize");
  return 0;
}
