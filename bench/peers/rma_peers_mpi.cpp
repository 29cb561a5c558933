// Paper 001's experiments on MPI-3 RMA, so that an MPI library's one-sided component on this
// machine can be compared with Remora's programs in the same run (bench/compare_peers.sh).
// MPI only (no Remora; bench/common/timed_windows.hpp is header only), so one source builds
// against MPICH and Open MPI:
//   mpicxx -O2 -std=c++20 rma_peers_mpi.cpp -o rma_peers_mpi
//   mpiexec -n P ./rma_peers_mpi --label openmpi_osc_sm [--csv] [--iterations K] [--batches B]
//     [--method batch|timed|both] [--windows W] [--window-ms T] [--only EXPERIMENT]
// Rows use the schema and bench names of the Remora programs (bench,variant,ranks,bytes,metric,
// value); the variant is the label:
//   lock_put_unlock  (p = 2) MPI_Win_lock(EXCLUSIVE, 1) + MPI_Put of n longs + MPI_Win_unlock,
//                    rank 0 -> rank 1, n = 8, 256, 1024, 65536 (lock_put_unlock)
//   fence_cost       (any p) MPI_Win_fence(NOPRECEDE) + MPI_Win_fence(NOSUCCEED), bytes 0,
//                    variant fence2_<label>; the maximum over ranks of the medians (fence_cost)
//   acc_bandwidth    (p = 2, 4; the timed method alone at any p) see acc_bandwidth() below
// Method as bench/common: one warm-up batch, then B batches; median of per-operation times.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../common/timed_windows.hpp"

namespace {

void check(int status, const char* what) {
  if (status == MPI_SUCCESS) return;
  std::fprintf(stderr, "rma_peers_mpi: %s failed (%d)\n", what, status);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

struct Options {
  std::string label = "mpi";
  bool csv = false;
  int iterations = 0;
  int batches = 5;
  // Leaves out MPI_Compare_and_swap: Debian's Open MPI 4.1.4 with its default one-sided
  // component (osc/rdma over shared memory) corrupts its own state in it (the next collective
  // crashes in btl/vader).
  bool skip_cas = false;
  // Contended accumulate: "batch", "timed" or "both" (bench/acc_bandwidth's --method), and the
  // timed method's windows per size (0: 3 * batches) and their length.
  std::string method = "both";
  int windows = 0;
  double window_ms = 20;
  std::string only;  // one experiment's name (acc_bandwidth, ...): run that one alone
};

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--csv") {
      options.csv = true;
    } else if (arg == "--label" && has_value) {
      options.label = argv[++i];
    } else if (arg == "--iterations" && has_value) {
      options.iterations = std::atoi(argv[++i]);
    } else if (arg == "--batches" && has_value) {
      options.batches = std::atoi(argv[++i]);
    } else if (arg == "--skip-cas") {
      options.skip_cas = true;
    } else if (arg == "--method" && has_value) {
      options.method = argv[++i];
    } else if (arg == "--windows" && has_value) {
      options.windows = std::atoi(argv[++i]);
    } else if (arg == "--window-ms" && has_value) {
      options.window_ms = std::atof(argv[++i]);
    } else if (arg == "--only" && has_value) {
      options.only = argv[++i];
    } else {
      std::fprintf(
          stderr,
          "usage: rma_peers_mpi [--label NAME] [--csv] [--iterations K] [--batches B] [--skip-cas] "
          "[--method batch|timed|both] [--windows W] [--window-ms T] [--only EXPERIMENT] (bad "
          "argument '%s')\n",
          arg.c_str());
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  if (options.batches < 1) options.batches = 1;
  if (options.windows < 1) options.windows = 3 * options.batches;
  if ((options.method != "batch" && options.method != "timed" && options.method != "both") ||
      !(options.window_ms > 0)) {
    std::fprintf(stderr,
                 "rma_peers_mpi: --method %s is not batch, timed or both, or --window-ms %g is "
                 "not positive\n",
                 options.method.c_str(), options.window_ms);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return options;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

template <typename Op>
std::vector<double> time_batches(int batches, int iterations, Op&& op) {
  std::vector<double> result;
  for (int batch = -1; batch < batches; ++batch) {
    const double start = MPI_Wtime();
    for (int i = 0; i < iterations; ++i) op();
    const double elapsed = MPI_Wtime() - start;
    if (batch >= 0) result.push_back(elapsed * 1e6 / iterations);
  }
  return result;
}

struct Report {
  bool csv;
  bool leader;
  void row(const char* bench, const std::string& variant, int ranks, size_t bytes,
           const char* metric, double value) const {
    if (!leader) return;
    if (csv)
      std::printf("%s,%s,%d,%zu,%s,%.6g\n", bench, variant.c_str(), ranks, bytes, metric, value);
    else
      std::printf("%-16s %-28s %3d %9zu %-6s %10.5g\n", bench, variant.c_str(), ranks, bytes,
                  metric, value);
  }
  void latency(const char* bench, const std::string& variant, int ranks, size_t bytes,
               const std::vector<double>& us) const {
    row(bench, variant, ranks, bytes, "us", median(us));
    row(bench, variant, ranks, bytes, "us_min", *std::min_element(us.begin(), us.end()));
  }
};

constexpr size_t kLongs[] = {8, 256, 1024, 65536};
constexpr size_t kBytesPerBatch = size_t{64} << 20;

void lock_put_unlock(const Options& options, const Report& report, int rank, int ranks) {
  const size_t max_bytes = 65536 * sizeof(uint64_t);
  void* base = nullptr;
  MPI_Win win = MPI_WIN_NULL;
  check(MPI_Win_allocate(static_cast<MPI_Aint>(rank == 1 ? max_bytes : 0), sizeof(uint64_t),
                         MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win),
        "MPI_Win_allocate");
  std::vector<uint64_t> source(65536);
  for (size_t longs : kLongs) {
    const size_t bytes = longs * sizeof(uint64_t);
    const int wanted = options.iterations > 0 ? options.iterations : 20000;
    const int n = std::max(16, std::min(wanted, static_cast<int>(kBytesPerBatch / bytes)));
    for (size_t i = 0; i < longs; ++i) source[i] = longs * 104729 + i;
    if (rank == 0) {
      auto us = time_batches(options.batches, n, [&] {
        check(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win), "MPI_Win_lock");
        check(MPI_Put(source.data(), static_cast<int>(longs), MPI_UINT64_T, 1, 0,
                      static_cast<int>(longs), MPI_UINT64_T, win),
              "MPI_Put");
        check(MPI_Win_unlock(1, win), "MPI_Win_unlock");
      });
      report.latency("lock_put_unlock", options.label, ranks, bytes, us);
    }
    check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    if (rank == 1) {
      check(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win), "MPI_Win_lock");
      const bool same = std::memcmp(base, source.data(), bytes) == 0;
      check(MPI_Win_unlock(1, win), "MPI_Win_unlock");
      if (!same) {
        std::fprintf(stderr, "rma_peers_mpi: rank 1 does not hold the data put (%zu longs)\n",
                     longs);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    }
    check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  }
  check(MPI_Win_free(&win), "MPI_Win_free");
}

void fence_cost(const Options& options, const Report& report, int ranks) {
  void* base = nullptr;
  MPI_Win win = MPI_WIN_NULL;
  check(MPI_Win_allocate(64, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win), "MPI_Win_allocate");
  const int n = options.iterations > 0 ? options.iterations : (ranks > 2 ? 500 : 2000);
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  auto us = time_batches(options.batches, n, [&] {
    check(MPI_Win_fence(MPI_MODE_NOPRECEDE, win), "MPI_Win_fence");
    check(MPI_Win_fence(MPI_MODE_NOSUCCEED, win), "MPI_Win_fence");
  });
  double mine = median(us), worst = 0;
  check(MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  report.row("fence_cost", "fence2_" + options.label, ranks, 0, "us", worst);
  check(MPI_Win_free(&win), "MPI_Win_free");
}

// Paper 000 Fig. 2-4, as bench/acc_bandwidth measures it: MPI_Accumulate of doubles with
// MPI_SUM inside lock_all, K back to back then one flush; 8 B .. 1 MiB in steps of 4.
// 2 ranks: rank 0 -> rank 1, MBps = bytes * K / batch time (median). 3+ ranks: every rank onto
// rank 0, `contended_<label>` with the aggregate over the slowest rank (MBps) and rank 0's own
// figure (MBps_per_rank). The target's element 0 is checked at the end.
// --method timed (or both): `contended_timed_<label>` at any p, every rank onto rank 0 until a
// shared deadline (bench/common/timed_windows.hpp, the code bench/acc_bandwidth runs), rows
// MBps, MBps_q1 and MBps_q3; elements 0 and count-1 checked after every size.
void acc_timed(const Options& options, const Report& report, int rank, int ranks, MPI_Win win,
               const double* base, const std::vector<double>& source, size_t max_bytes) {
  const std::string variant = "contended_timed_" + options.label;
  auto allreduce = [](double* values, int n, bool max) {
    check(
        MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_DOUBLE, max ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD),
        "MPI_Allreduce");
  };
  auto read_own = [&](size_t index) {
    check(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win), "MPI_Win_lock");
    const double value = base[index];
    check(MPI_Win_unlock(rank, win), "MPI_Win_unlock");
    return value;
  };
  for (size_t bytes = 8;; bytes = std::min(bytes * 4, max_bytes)) {
    const size_t count = bytes / sizeof(double);
    check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    // The first allreduce of measure() waits for rank 0, so nobody accumulates before it read.
    const double first = rank == 0 ? read_own(0) : 0, last = rank == 0 ? read_own(count - 1) : 0;
    check(MPI_Win_lock_all(0, win), "MPI_Win_lock_all");
    const bench::timed::Figures figures = bench::timed::measure(
        bytes, options.windows, options.window_ms * 1000,
        [&] {
          check(MPI_Accumulate(source.data(), static_cast<int>(count), MPI_DOUBLE, 0, 0,
                               static_cast<int>(count), MPI_DOUBLE, MPI_SUM, win),
                "MPI_Accumulate");
        },
        [&] { check(MPI_Win_flush(0, win), "MPI_Win_flush"); }, allreduce);
    check(MPI_Win_unlock_all(win), "MPI_Win_unlock_all");
    check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    if (rank == 0) {
      const double first_after = read_own(0), last_after = read_own(count - 1);
      if (!bench::timed::moved_by(first, first_after, figures.operations) ||
          !bench::timed::moved_by(last, last_after, figures.operations)) {
        std::fprintf(stderr,
                     "rma_peers_mpi: %s, %zu B: %.17g accumulates completed, but the target's "
                     "element 0 moved %.17g -> %.17g and element %zu %.17g -> %.17g\n",
                     variant.c_str(), bytes, figures.operations, first, first_after, count - 1,
                     last, last_after);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    }
    report.row("acc_bandwidth", variant, ranks, bytes, "MBps", median(figures.aggregate_mbps));
    report.row("acc_bandwidth", variant, ranks, bytes, "MBps_q1",
               bench::timed::quantile(figures.aggregate_mbps, 0.25));
    report.row("acc_bandwidth", variant, ranks, bytes, "MBps_q3",
               bench::timed::quantile(figures.aggregate_mbps, 0.75));
    if (bytes == max_bytes) break;
  }
}

void acc_bandwidth(const Options& options, const Report& report, int rank, int ranks) {
  constexpr size_t kMaxBytes = size_t{1} << 20, kBytesPerAccBatch = size_t{16} << 20;
  const bool contended = ranks > 2;
  const int target = contended ? 0 : 1;
  const bool active = contended || rank == 0;
  void* base = nullptr;
  MPI_Win win = MPI_WIN_NULL;
  check(MPI_Win_allocate(static_cast<MPI_Aint>(kMaxBytes), sizeof(double), MPI_INFO_NULL,
                         MPI_COMM_WORLD, &base, &win),
        "MPI_Win_allocate");
  check(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win), "MPI_Win_lock");
  std::memset(base, 0, kMaxBytes);
  check(MPI_Win_unlock(rank, win), "MPI_Win_unlock");
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  const std::vector<double> source(kMaxBytes / sizeof(double), 1.0);
  const std::string variant = contended ? "contended_" + options.label : options.label;
  const int iterations = options.iterations > 0 ? options.iterations : 4000;
  double expected_first = 0;
  for (size_t bytes = 8; options.method != "timed"; bytes = std::min(bytes * 4, kMaxBytes)) {
    const int count = static_cast<int>(bytes / sizeof(double));
    const int n = static_cast<int>(
        std::min<size_t>(iterations, std::max<size_t>(kBytesPerAccBatch / bytes, 4)));
    std::vector<double> mbps, aggregate;
    if (active) check(MPI_Win_lock_all(0, win), "MPI_Win_lock_all");
    for (int batch = -1; batch < options.batches; ++batch) {
      if (contended) check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
      const double start = MPI_Wtime();
      if (active) {
        for (int i = 0; i < n; ++i)
          check(MPI_Accumulate(source.data(), count, MPI_DOUBLE, target, 0, count, MPI_DOUBLE,
                               MPI_SUM, win),
                "MPI_Accumulate");
        check(MPI_Win_flush(target, win), "MPI_Win_flush");
      }
      double elapsed = (MPI_Wtime() - start) * 1e6, slowest = elapsed;
      if (contended)
        check(MPI_Allreduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD),
              "MPI_Allreduce");
      if (batch < 0) continue;
      mbps.push_back(static_cast<double>(bytes) * n / elapsed);
      aggregate.push_back(static_cast<double>(bytes) * n * ranks / slowest);
    }
    if (active) check(MPI_Win_unlock_all(win), "MPI_Win_unlock_all");
    expected_first += static_cast<double>(n) * (options.batches + 1);
    if (contended) {
      report.row("acc_bandwidth", variant, ranks, bytes, "MBps", median(aggregate));
      report.row("acc_bandwidth", variant, ranks, bytes, "MBps_per_rank", median(mbps));
    } else {
      report.row("acc_bandwidth", variant, ranks, bytes, "MBps", median(mbps));
    }
    check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    if (bytes == kMaxBytes) break;
  }
  if (rank == target) {
    check(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win), "MPI_Win_lock");
    const double first = static_cast<const double*>(base)[0];
    check(MPI_Win_unlock(rank, win), "MPI_Win_unlock");
    if (first != expected_first * (contended ? ranks : 1)) {
      std::fprintf(stderr, "rma_peers_mpi: the target's element 0 has the wrong sum\n");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  if (options.method != "batch")
    acc_timed(options, report, rank, ranks, win, static_cast<const double*>(base), source,
              kMaxBytes);
  check(MPI_Win_free(&win), "MPI_Win_free");
}

// Latency of one-element operations inside lock_all, rank 0 -> rank 1 (bench/rma_latency's
// rows): put 8 B + flush, get 8 B (+ flush), fetch_and_op, compare_and_swap and
// get_accumulate of one int64, each followed by a flush.
void rma_latency(const Options& options, const Report& report, int rank, int ranks) {
  void* base = nullptr;
  MPI_Win win = MPI_WIN_NULL;
  check(MPI_Win_allocate(64, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win), "MPI_Win_allocate");
  check(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win), "MPI_Win_lock");
  std::memset(base, 0, 64);
  check(MPI_Win_unlock(rank, win), "MPI_Win_unlock");
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  const int n = options.iterations > 0 ? options.iterations : 20000;
  int64_t value = 1, result = 0, compare = 0;
  int64_t fetch_adds = 0;
  if (rank == 0) {
    check(MPI_Win_lock_all(0, win), "MPI_Win_lock_all");
    auto row = [&](const char* what, auto&& op) {
      report.latency("rma_latency", std::string(what) + "_" + options.label, ranks, 8,
                     time_batches(options.batches, n, [&] {
                       op();
                       check(MPI_Win_flush(1, win), "MPI_Win_flush");
                     }));
    };
    row("put",
        [&] { check(MPI_Put(&value, 1, MPI_INT64_T, 1, 0, 1, MPI_INT64_T, win), "MPI_Put"); });
    row("get",
        [&] { check(MPI_Get(&result, 1, MPI_INT64_T, 1, 0, 1, MPI_INT64_T, win), "MPI_Get"); });
    row("fetch_and_op", [&] {
      check(MPI_Fetch_and_op(&value, &result, MPI_INT64_T, 1, 1, MPI_SUM, win), "MPI_Fetch_and_op");
      ++fetch_adds;
    });
    if (!options.skip_cas)
      row("compare_and_swap", [&] {
        check(MPI_Compare_and_swap(&value, &compare, &result, MPI_INT64_T, 1, 2, win),
              "MPI_Compare_and_swap");
      });
    row("get_accumulate", [&] {
      check(MPI_Get_accumulate(&value, 1, MPI_INT64_T, &result, 1, MPI_INT64_T, 1, 3, 1,
                               MPI_INT64_T, MPI_SUM, win),
            "MPI_Get_accumulate");
    });
    check(MPI_Win_unlock_all(win), "MPI_Win_unlock_all");
  }
  check(MPI_Bcast(&fetch_adds, 1, MPI_INT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
  if (rank == 1) {
    check(MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win), "MPI_Win_lock");
    const int64_t counted = static_cast<const int64_t*>(base)[1];
    check(MPI_Win_unlock(1, win), "MPI_Win_unlock");
    if (counted != fetch_adds) {
      std::fprintf(stderr, "rma_peers_mpi: fetch_and_op count %lld, expected %lld\n",
                   static_cast<long long>(counted), static_cast<long long>(fetch_adds));
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  check(MPI_Win_free(&win), "MPI_Win_free");
}

}  // namespace

int main(int argc, char** argv) {
  check(MPI_Init(&argc, &argv), "MPI_Init");
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const Options options = parse(argc, argv);
  const Report report{options.csv, rank == 0};
  if (options.csv && rank == 0) std::printf("bench,variant,ranks,bytes,metric,value\n");
  auto wanted = [&](const char* experiment) {
    return options.only.empty() || options.only == experiment;
  };
  if (ranks == 2 && wanted("lock_put_unlock")) lock_put_unlock(options, report, rank, ranks);
  if (ranks == 2 && wanted("rma_latency")) rma_latency(options, report, rank, ranks);
  if (wanted("acc_bandwidth")) {
    // Any p for the timed method only (its rows are contended at every p).
    if (ranks == 2 || ranks == 4 || options.method == "timed")
      acc_bandwidth(options, report, rank, ranks);
  }
  if (wanted("fence_cost")) fence_cost(options, report, ranks);
  std::fflush(stdout);
  check(MPI_Finalize(), "MPI_Finalize");
  return 0;
}
