// Put and get on windows over user memory (remora_win_create) against remora_win_allocate,
// rank 0 -> rank 1, inside one lock_all epoch. Variants (CSV `variant`):
//   allocate     remora_win_allocate: memcpy through the shared mapping
//   single_copy  remora_win_create, info user_memory=single_copy: process_vm_readv/writev
//   agent        remora_win_create, info user_memory=agent: rank 1's progress agent copies
//                (rank 1 waits in remora_barrier meanwhile, so it serves requests at once with
//                manual progress; with REMORA_PROGRESS=thread its progress thread does)
// Metrics: put_us (put + flush, remote completion), get_us (get: the data is in place on
// return), put_MBps (puts back to back, one flush per batch), get_MBps.
// Usage: remorarun -n 2 ./win_user_memory [--csv] [--iterations K] [--batches B]
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/bench_common.hpp"
#include "remora.h"

namespace {

constexpr size_t kMaxBytes = size_t{1} << 20;
constexpr size_t kBytesPerBatch = size_t{32} << 20;  // caps iterations for large transfers

// Rank 0 measures one window; rank 1 waits in the closing barrier (serving agent requests).
void measure(remora_win_t win, const std::string& variant, const bench::Options& options,
             int iterations, bench::Report* report) {
  const int rank = remora_rank(), ranks = remora_size();
  std::vector<unsigned char> source(kMaxBytes), sink(kMaxBytes);
  for (size_t i = 0; i < source.size(); ++i) source[i] = static_cast<unsigned char>(i * 7 + 1);
  auto nothing = [] {};
  bench::check(remora_win_lock_all(win, 0), "remora_win_lock_all");
  if (rank == 0) {
    for (size_t bytes : bench::sizes(8, kMaxBytes, 8)) {
      const int n = bench::iterations_by_volume(bytes, iterations, kBytesPerBatch, 4);
      auto put = [&](int) {
        bench::check(remora_win_put(win, 1, 0, source.data(), bytes, REMORA_UINT8),
                     "remora_win_put");
        bench::check(remora_win_flush(win, 1), "remora_win_flush");
      };
      auto get = [&](int) {
        bench::check(remora_win_get(win, 1, 0, sink.data(), bytes, REMORA_UINT8), "remora_win_get");
      };
      const std::string name = bench::with_progress(variant);
      report->add_latency("win_user_memory", name + "_put", ranks, bytes,
                          bench::time_batches(options.batches, n, nothing, put));
      report->add_latency("win_user_memory", name + "_get", ranks, bytes,
                          bench::time_batches(options.batches, n, nothing, get));
      if (std::memcmp(sink.data(), source.data(), bytes) != 0)
        remora_abort(1, "win_user_memory: the get did not return what the put wrote");
      std::vector<double> put_bw, get_bw;
      for (int batch = -1; batch < options.batches; ++batch) {
        double start = bench::now_us();
        for (int i = 0; i < n; ++i)
          bench::check(remora_win_put(win, 1, 0, source.data(), bytes, REMORA_UINT8),
                       "remora_win_put");
        bench::check(remora_win_flush(win, 1), "remora_win_flush");
        const double put_elapsed = bench::now_us() - start;
        start = bench::now_us();
        for (int i = 0; i < n; ++i) get(i);
        const double get_elapsed = bench::now_us() - start;
        if (batch < 0) continue;
        put_bw.push_back(static_cast<double>(bytes) * n / put_elapsed);
        get_bw.push_back(static_cast<double>(bytes) * n / get_elapsed);
      }
      report->add("win_user_memory", name + "_put", ranks, bytes, "MBps", bench::median(put_bw));
      report->add("win_user_memory", name + "_get", ranks, bytes, "MBps", bench::median(get_bw));
    }
  }
  bench::check(remora_win_unlock_all(win), "remora_win_unlock_all");
  bench::check(remora_barrier(), "remora_barrier");
}

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  bench::Options options;
  if (!bench::begin(&argc, &argv, 2,
                    "win_user_memory: put/get on user-memory windows (single copy, agent) and "
                    "on allocated ones, rank 0 -> rank 1",
                    &options, &exit_code))
    return exit_code;
  const int iterations = bench::iterations_or(options, 2000);
  bench::Report report(options.csv);

  remora_win_t win = nullptr;
  void* base = nullptr;
  bench::check(remora_win_allocate(kMaxBytes, 1, nullptr, &base, &win), "remora_win_allocate");
  measure(win, "allocate", options, iterations, &report);
  bench::check(remora_win_free(&win), "remora_win_free");

  std::vector<unsigned char> memory(kMaxBytes);
  for (const char* mode : {"single_copy", "agent"}) {
    const std::string info = std::string("user_memory=") + mode;
    bench::check(remora_win_create(memory.data(), memory.size(), 1, info.c_str(), &win),
                 "remora_win_create");
    measure(win, mode, options, iterations, &report);
    bench::check(remora_win_free(&win), "remora_win_free");
  }
  report.print();
  bench::check(remora_finalize(), "remora_finalize");
  return 0;
}
