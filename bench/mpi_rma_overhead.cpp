// Remora over MPI against raw MPI-3 RMA in the same program, rank 0 -> rank 1 (issue 5).
// The program initialises MPI itself (Remora adopts it). Run with REMORA_NODE_SIZE=1 (or on two
// nodes) so that Remora's operations take its inter-node path:
//   REMORA_NODE_SIZE=1 mpiexec.mpich -n 2 ./mpi_rma_overhead [--csv]
// Variants (rank 1 waits in Remora, a broadcast from rank 0, during the remora_* timings, and
// inside MPI, MPI_Barrier, during the mpi_* ones: MPICH progresses passive-target RMA only
// while the target is inside MPI, and on one node Remora's own waits never call MPI):
//   remora_*  remora_put/remora_get/remora_fetch_add on a segment (+ remora_flush for put)
//   win_put, win_get  remora_win_put + remora_win_flush, remora_win_get on a remora_win_allocate
//             window in a lock_all epoch (bytes as REMORA_UINT8), against MPI_Put / MPI_Get +
//             MPI_Win_flush timed again beside them
//   mpi_*     MPI_Put/MPI_Get/MPI_Fetch_and_op + MPI_Win_flush on a window in a lock_all
//             epoch: MPI_Win_allocate (default), or with BENCH_MPI_WINDOW=create an
//             MPI_Win_create window over malloc'd memory, as Remora's windows are created.
//             On one machine Open MPI serves MPI_Win_allocate windows by direct load/store
//             (osc/sm), which a window between two nodes never is: compare with `create` there.
//   acc_bw    n accumulates (REMORA_OP_SUM / MPI_SUM of doubles) back to back, one flush:
//             remora_win_accumulate on a remora_win_allocate window in a lock_all epoch
//             (the auto accumulate strategy: across nodes MPI's accumulates) against
//             MPI_Accumulate on the MPI window
//   win_fetch_op  remora_win_fetch_and_op (int64 SUM) on that window, whose result is valid on
//             return, against the MPI_Fetch_and_op + MPI_Win_flush of fetch_add
//   ratio     remora latency / mpi latency (same size), and mpi MBps / remora MBps
//   get_bw    n gets back to back, one flush: remora_win_get on the window in its lock_all
//             epoch against MPI_Get
//   rget_bw   as get_bw with remora_win_rget, one remora_request_waitall and one flush, against
//             the same MPI_Get loop
//   rput_bw   n remora_win_rput, one remora_request_waitall and one flush, against put_bw's
//             MPI_Put loop
//   cas       remora_compare_swap on the segment and remora_win_compare_and_swap on the window
//             against MPI_Compare_and_swap + MPI_Win_flush (BENCH_SKIP_CAS=1: not run)
//   target_cpu  CPU time (getrusage, all threads) over wall time of rank 1 while it waits in
//             Remora: `busy` over every wait of the timed Remora variants above (rank 0 is
//             working on it), `idle` while rank 0 sleeps for 1 s outside Remora and MPI
//   BENCH_MAX_BYTES=n  only transfer sizes up to n bytes (profiling one size: 8)
//   BENCH_MIN_BYTES=n  only transfer sizes from n bytes (one size: both set to it)
//   BENCH_TARGET=mpi   rank 1 waits inside MPI (MPI_Barrier) during the Remora timings too: the
//             origin's own cost, without the difference in the target's progress
//   busy_target  one 8-byte put+flush while rank 1 computes for 1 s outside Remora and MPI:
//             MPICH progresses it only when the target enters MPI, so it takes ~1 s unless
//             rank 1 runs a progress thread (REMORA_PROGRESS=thread), which polls MPI; then
//             the same with MPI_Put + MPI_Win_flush (mpi_put_flush), which has no such thread
#include <mpi.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "common/bench_common.hpp"
#include "remora.h"

namespace {

constexpr size_t kMaxBytes = size_t{1} << 20;
constexpr size_t kBytesPerBatch = size_t{16} << 20;

struct Pair {
  std::vector<double> remora, mpi;
};

// What rank 0 tells the other ranks, which wait in remora_bcast for it.
enum TargetStep : int { kNextStep = 0, kWaitInMpi = 1 };

// A broadcast from rank 0 over Remora's world.
void share_step(int* step) {
  remora_comm_t world = REMORA_COMM_NULL;
  bench::check(remora_comm_world(&world), "remora_comm_world");
  bench::check(remora_bcast(step, 1, REMORA_INT32, 0, world, REMORA_COLL_AUTO), "remora_bcast");
}

void tell_targets(int step) {
  share_step(&step);
}

// Rank 0: times a raw MPI variant while the other ranks wait inside MPI (from before the first
// operation to after the last).
template <typename Op>
std::vector<double> time_raw_mpi(int batches, int iterations, Op&& op) {
  tell_targets(kWaitInMpi);
  MPI_Barrier(MPI_COMM_WORLD);
  auto nothing = [] {};
  std::vector<double> times = bench::time_batches(batches, iterations, nothing, op);
  MPI_Barrier(MPI_COMM_WORLD);
  return times;
}

// Rank 0: times a Remora variant while the other ranks wait in Remora, or with
// BENCH_TARGET=mpi inside MPI as for the raw variants (the origin's own cost alone: MPICH over
// UCX serves these operations in the target's MPI progress calls).
template <typename Op>
std::vector<double> time_remora(int batches, int iterations, Op&& op) {
  static const bool in_mpi = bench::env_or("BENCH_TARGET", "remora") == "mpi";
  if (in_mpi) return time_raw_mpi(batches, iterations, op);
  auto nothing = [] {};
  return bench::time_batches(batches, iterations, nothing, op);
}

// CPU seconds of this process (every thread).
double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

// CPU and wall seconds spent waiting in Remora (in share_step) by a target.
struct WaitCpu {
  double cpu = 0, wall = 0;
};
WaitCpu busy_waits;

// The other ranks: wait in Remora, or in MPI while rank 0 times a raw MPI variant, until the
// next step.
void serve_as_target() {
  for (int step = kWaitInMpi; step == kWaitInMpi;) {
    const double cpu = cpu_seconds(), wall = bench::now_us();
    share_step(&step);
    busy_waits.cpu += cpu_seconds() - cpu;
    busy_waits.wall += (bench::now_us() - wall) * 1e-6;
    if (step == kWaitInMpi) {
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int exit_code = 0;
  bench::Options options;
  if (!bench::begin(&argc, &argv, 2, "mpi_rma_overhead: Remora over MPI vs raw MPI-3 RMA", &options,
                    &exit_code)) {
    MPI_Finalize();
    return exit_code;
  }
  const int rank = remora_rank(), ranks = remora_size();
  const int iterations = bench::iterations_or(options, 2000);
  bench::Report report(options.csv);

  remora_segment_t segment = nullptr;
  bench::check(remora_segment_allocate(kMaxBytes, &segment), "remora_segment_allocate");
  void* base = nullptr;
  MPI_Win window;
  const bool create = bench::env_or("BENCH_MPI_WINDOW", "allocate") == "create";
  std::vector<unsigned char> created(create ? kMaxBytes : 0);
  if (create)
    MPI_Win_create(created.data(), static_cast<MPI_Aint>(kMaxBytes), 1, MPI_INFO_NULL,
                   MPI_COMM_WORLD, &window);
  else
    MPI_Win_allocate(static_cast<MPI_Aint>(kMaxBytes), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                     &window);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, window);
  remora_win_t remora_window = nullptr;
  bench::check(remora_win_allocate(kMaxBytes, 1, nullptr, nullptr, &remora_window),
               "remora_win_allocate");
  bench::check(remora_win_lock_all(remora_window, 0), "remora_win_lock_all");
  std::vector<unsigned char> buffer(kMaxBytes, 7);
  std::vector<double> addends(kMaxBytes / sizeof(double), 1.0);
  auto ratio = [&](const char* bench, size_t bytes, const Pair& pair) {
    const double r = bench::median(pair.remora) / bench::median(pair.mpi);
    report.add(bench, "ratio_remora_over_mpi", ranks, bytes, "ratio", r);
  };

  const size_t max_bytes = std::stoull(bench::env_or("BENCH_MAX_BYTES", "1048576"));
  const size_t min_bytes = std::stoull(bench::env_or("BENCH_MIN_BYTES", "8"));
  for (size_t bytes : bench::sizes(8, std::min(max_bytes, kMaxBytes), 8)) {
    if (bytes < min_bytes) continue;
    const int n = bench::iterations_by_volume(bytes, iterations, kBytesPerBatch, 4);
    if (rank == 0) {
      Pair put, get, bandwidth;
      put.remora = time_remora(options.batches, n, [&](int) {
        bench::check(remora_put(segment, 1, 0, buffer.data(), bytes), "remora_put");
        bench::check(remora_flush(segment, 1), "remora_flush");
      });
      put.mpi = time_raw_mpi(options.batches, n, [&](int) {
        MPI_Put(buffer.data(), static_cast<int>(bytes), MPI_BYTE, 1, 0, static_cast<int>(bytes),
                MPI_BYTE, window);
        MPI_Win_flush(1, window);
      });
      get.remora = time_remora(options.batches, n, [&](int) {
        bench::check(remora_get(segment, 1, 0, buffer.data(), bytes), "remora_get");
      });
      get.mpi = time_raw_mpi(options.batches, n, [&](int) {
        MPI_Get(buffer.data(), static_cast<int>(bytes), MPI_BYTE, 1, 0, static_cast<int>(bytes),
                MPI_BYTE, window);
        MPI_Win_flush(1, window);
      });
      Pair win_put, win_get;
      win_put.remora = time_remora(options.batches, n, [&](int) {
        bench::check(remora_win_put(remora_window, 1, 0, buffer.data(), bytes, REMORA_UINT8),
                     "remora_win_put");
        bench::check(remora_win_flush(remora_window, 1), "remora_win_flush");
      });
      win_put.mpi = time_raw_mpi(options.batches, n, [&](int) {
        MPI_Put(buffer.data(), static_cast<int>(bytes), MPI_BYTE, 1, 0, static_cast<int>(bytes),
                MPI_BYTE, window);
        MPI_Win_flush(1, window);
      });
      win_get.remora = time_remora(options.batches, n, [&](int) {
        bench::check(remora_win_get(remora_window, 1, 0, buffer.data(), bytes, REMORA_UINT8),
                     "remora_win_get");
      });
      win_get.mpi = time_raw_mpi(options.batches, n, [&](int) {
        MPI_Get(buffer.data(), static_cast<int>(bytes), MPI_BYTE, 1, 0, static_cast<int>(bytes),
                MPI_BYTE, window);
        MPI_Win_flush(1, window);
      });
      // Bandwidth: n puts back to back, one flush (time per put, turned into MB/s below).
      bandwidth.remora = time_remora(options.batches, 1, [&](int) {
        for (int i = 0; i < n; ++i)
          bench::check(remora_put(segment, 1, 0, buffer.data(), bytes), "remora_put");
        bench::check(remora_flush(segment, 1), "remora_flush");
      });
      bandwidth.mpi = time_raw_mpi(options.batches, 1, [&](int) {
        for (int i = 0; i < n; ++i)
          MPI_Put(buffer.data(), static_cast<int>(bytes), MPI_BYTE, 1, 0, static_cast<int>(bytes),
                  MPI_BYTE, window);
        MPI_Win_flush(1, window);
      });
      Pair get_bandwidth;
      get_bandwidth.remora = time_remora(options.batches, 1, [&](int) {
        for (int i = 0; i < n; ++i)
          bench::check(remora_win_get(remora_window, 1, 0, buffer.data(), bytes, REMORA_UINT8),
                       "remora_win_get");
        bench::check(remora_win_flush(remora_window, 1), "remora_win_flush");
      });
      get_bandwidth.mpi = time_raw_mpi(options.batches, 1, [&](int) {
        for (int i = 0; i < n; ++i)
          MPI_Get(buffer.data(), static_cast<int>(bytes), MPI_BYTE, 1, 0, static_cast<int>(bytes),
                  MPI_BYTE, window);
        MPI_Win_flush(1, window);
      });
      // The request forms, rget and rput: n requests, one remora_request_waitall, one flush.
      std::vector<remora_request_t> requests(static_cast<size_t>(n));
      auto time_requests = [&](const char* name, auto issue) {
        return bench::median(time_remora(options.batches, 1, [&](int) {
          for (int i = 0; i < n; ++i) bench::check(issue(&requests[static_cast<size_t>(i)]), name);
          bench::check(remora_request_waitall(n, requests.data()), "remora_request_waitall");
          bench::check(remora_win_flush(remora_window, 1), "remora_win_flush");
        }));
      };
      const double rget_seconds = time_requests("remora_win_rget", [&](remora_request_t* request) {
        return remora_win_rget(remora_window, 1, 0, buffer.data(), bytes, REMORA_UINT8, request);
      });
      const double rput_seconds = time_requests("remora_win_rput", [&](remora_request_t* request) {
        return remora_win_rput(remora_window, 1, 0, buffer.data(), bytes, REMORA_UINT8, request);
      });
      report.add_latency("put", "remora_put_flush", ranks, bytes, put.remora);
      report.add_latency("put", "mpi_put_flush", ranks, bytes, put.mpi);
      ratio("put", bytes, put);
      report.add_latency("get", "remora_get", ranks, bytes, get.remora);
      report.add_latency("get", "mpi_get_flush", ranks, bytes, get.mpi);
      ratio("get", bytes, get);
      report.add_latency("win_put", "remora_win_put_flush", ranks, bytes, win_put.remora);
      report.add_latency("win_put", "mpi_put_flush", ranks, bytes, win_put.mpi);
      ratio("win_put", bytes, win_put);
      report.add_latency("win_get", "remora_win_get", ranks, bytes, win_get.remora);
      report.add_latency("win_get", "mpi_get_flush", ranks, bytes, win_get.mpi);
      ratio("win_get", bytes, win_get);
      const double volume = static_cast<double>(bytes) * n;
      report.add("put_bw", "remora_put", ranks, bytes, "MBps",
                 volume / bench::median(bandwidth.remora));
      report.add("put_bw", "mpi_put", ranks, bytes, "MBps", volume / bench::median(bandwidth.mpi));
      report.add("put_bw", "ratio_mpi_over_remora", ranks, bytes, "ratio",
                 bench::median(bandwidth.remora) / bench::median(bandwidth.mpi));
      report.add("get_bw", "remora_win_get", ranks, bytes, "MBps",
                 volume / bench::median(get_bandwidth.remora));
      report.add("get_bw", "mpi_get", ranks, bytes, "MBps",
                 volume / bench::median(get_bandwidth.mpi));
      report.add("get_bw", "ratio_mpi_over_remora", ranks, bytes, "ratio",
                 bench::median(get_bandwidth.remora) / bench::median(get_bandwidth.mpi));
      report.add("rget_bw", "remora_win_rget", ranks, bytes, "MBps", volume / rget_seconds);
      report.add("rget_bw", "ratio_mpi_over_remora", ranks, bytes, "ratio",
                 rget_seconds / bench::median(get_bandwidth.mpi));
      report.add("rput_bw", "remora_win_rput", ranks, bytes, "MBps", volume / rput_seconds);
      report.add("rput_bw", "ratio_mpi_over_remora", ranks, bytes, "ratio",
                 rput_seconds / bench::median(bandwidth.mpi));
      const size_t doubles = std::max<size_t>(bytes / sizeof(double), 1);
      Pair accumulate;
      accumulate.remora = time_remora(options.batches, 1, [&](int) {
        for (int i = 0; i < n; ++i)
          bench::check(remora_win_accumulate(remora_window, 1, 0, addends.data(), doubles,
                                             REMORA_DOUBLE, REMORA_OP_SUM, nullptr),
                       "remora_win_accumulate");
        bench::check(remora_win_flush(remora_window, 1), "remora_win_flush");
      });
      accumulate.mpi = time_raw_mpi(options.batches, 1, [&](int) {
        for (int i = 0; i < n; ++i)
          MPI_Accumulate(addends.data(), static_cast<int>(doubles), MPI_DOUBLE, 1, 0,
                         static_cast<int>(doubles), MPI_DOUBLE, MPI_SUM, window);
        MPI_Win_flush(1, window);
      });
      const double accumulated = static_cast<double>(doubles * sizeof(double)) * n;
      report.add("acc_bw", "remora_acc", ranks, bytes, "MBps",
                 accumulated / bench::median(accumulate.remora));
      report.add("acc_bw", "mpi_acc", ranks, bytes, "MBps",
                 accumulated / bench::median(accumulate.mpi));
      report.add("acc_bw", "ratio_mpi_over_remora", ranks, bytes, "ratio",
                 bench::median(accumulate.remora) / bench::median(accumulate.mpi));
      tell_targets(kNextStep);
    } else {
      serve_as_target();
    }
    bench::check(remora_barrier(), "remora_barrier");
  }
  if (rank == 0) {
    Pair fetch_add;
    int64_t old = 0, one = 1;
    fetch_add.remora = time_remora(options.batches, iterations, [&](int) {
      bench::check(remora_fetch_add(segment, 1, 0, 1, &old), "remora_fetch_add");
    });
    fetch_add.mpi = time_raw_mpi(options.batches, iterations, [&](int) {
      MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 1, 0, MPI_SUM, window);
      MPI_Win_flush(1, window);
    });
    report.add_latency("fetch_add", "remora_fetch_add", ranks, 8, fetch_add.remora);
    report.add_latency("fetch_add", "mpi_fetch_and_op_flush", ranks, 8, fetch_add.mpi);
    ratio("fetch_add", 8, fetch_add);
    // The same on the window (its accumulate path: across nodes, MPI's accumulates).
    Pair fetch_op;
    fetch_op.remora = time_remora(options.batches, iterations, [&](int) {
      bench::check(
          remora_win_fetch_and_op(remora_window, 1, 0, &one, &old, REMORA_INT64, REMORA_OP_SUM),
          "remora_win_fetch_and_op");
    });
    fetch_op.mpi = fetch_add.mpi;
    report.add_latency("win_fetch_op", "remora_win_fetch_and_op", ranks, 8, fetch_op.remora);
    report.add_latency("win_fetch_op", "mpi_fetch_and_op_flush", ranks, 8, fetch_op.mpi);
    ratio("win_fetch_op", 8, fetch_op);
    // Compare-and-swap that always succeeds (the expected value is the one last stored).
    // BENCH_SKIP_CAS=1 leaves it out: Debian's Open MPI 4 crashes in MPI_Compare_and_swap under
    // its default osc/rdma (docs/running-on-clusters.md).
    if (bench::env_or("BENCH_SKIP_CAS", "0") != "1") {
      Pair cas, win_cas;
      int64_t current = 0;
      bench::check(remora_fetch_add(segment, 1, 0, 0, &current), "remora_fetch_add");
      cas.remora = time_remora(options.batches, iterations, [&](int) {
        bench::check(remora_compare_swap(segment, 1, 0, current, current + 1, &old),
                     "remora_compare_swap");
        current = old + 1;
      });
      bench::check(remora_win_fetch_and_op(remora_window, 1, 0, &one, &current, REMORA_INT64,
                                           REMORA_OP_NO_OP),
                   "remora_win_fetch_and_op");
      win_cas.remora = time_remora(options.batches, iterations, [&](int) {
        const int64_t desired = current + 1;
        bench::check(remora_win_compare_and_swap(remora_window, 1, 0, &desired, &current, &old,
                                                 REMORA_INT64),
                     "remora_win_compare_and_swap");
        current = old + 1;
      });
      int64_t expected = 0;
      MPI_Fetch_and_op(&one, &expected, MPI_INT64_T, 1, 0, MPI_NO_OP, window);
      MPI_Win_flush(1, window);
      cas.mpi = time_raw_mpi(options.batches, iterations, [&](int) {
        const int64_t desired = expected + 1;
        MPI_Compare_and_swap(&desired, &expected, &old, MPI_INT64_T, 1, 0, window);
        MPI_Win_flush(1, window);
        expected = old + 1;
      });
      win_cas.mpi = cas.mpi;
      report.add_latency("cas", "remora_compare_swap", ranks, 8, cas.remora);
      report.add_latency("cas", "mpi_compare_and_swap_flush", ranks, 8, cas.mpi);
      ratio("cas", 8, cas);
      report.add_latency("win_cas", "remora_win_compare_and_swap", ranks, 8, win_cas.remora);
      report.add_latency("win_cas", "mpi_compare_and_swap_flush", ranks, 8, win_cas.mpi);
      ratio("win_cas", 8, win_cas);
    }
    tell_targets(kNextStep);
  } else {
    serve_as_target();
  }
  bench::check(remora_barrier(), "remora_barrier");
  // The CPU rank 1 used while it waited in Remora: above, with rank 0 working on it; now, with
  // rank 0 asleep for 1 s outside Remora and MPI.
  if (rank == 0) {
    timespec second{1, 0};
    nanosleep(&second, nullptr);
  }
  const double idle_cpu = cpu_seconds(), idle_wall = bench::now_us();
  bench::check(remora_barrier(), "remora_barrier");
  double cpu_fractions[2] = {busy_waits.cpu / busy_waits.wall,
                             (cpu_seconds() - idle_cpu) / ((bench::now_us() - idle_wall) * 1e-6)};
  if (rank == 1) MPI_Send(cpu_fractions, 2, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Recv(cpu_fractions, 2, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    report.add("target_cpu", bench::with_progress("busy"), ranks, 0, "cpu_per_wall",
               cpu_fractions[0]);
    report.add("target_cpu", bench::with_progress("idle"), ranks, 0, "cpu_per_wall",
               cpu_fractions[1]);
  }
  // Passive-target progress while the target computes: Remora's put, then raw MPI's.
  for (const bool raw : {false, true}) {
    const double start = bench::now_us();
    if (rank == 0 && !raw) {
      bench::check(remora_put(segment, 1, 0, buffer.data(), 8), "remora_put");
      bench::check(remora_flush(segment, 1), "remora_flush");
      report.add("busy_target", bench::with_progress("remora_put_flush"), ranks, 8, "us",
                 bench::now_us() - start);
    } else if (rank == 0) {
      MPI_Put(buffer.data(), 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, window);
      MPI_Win_flush(1, window);
      report.add("busy_target", "mpi_put_flush", ranks, 8, "us", bench::now_us() - start);
    } else if (rank == 1) {
      volatile double sink = 0;
      while (bench::now_us() - start < 1e6) sink = sink + 1.0;  // computing, not in Remora or MPI
    }
    bench::check(remora_barrier(), "remora_barrier");
  }
  report.print();
  MPI_Win_unlock_all(window);
  MPI_Win_free(&window);
  bench::check(remora_win_unlock_all(remora_window), "remora_win_unlock_all");
  bench::check(remora_win_free(&remora_window), "remora_win_free");
  bench::check(remora_segment_free(&segment), "remora_segment_free");
  bench::check(remora_finalize(), "remora_finalize");
  MPI_Finalize();
  return 0;
}
