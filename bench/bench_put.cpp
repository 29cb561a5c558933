// Put latency and bandwidth, rank 0 -> rank 1, against a raw shared-memory baseline.
//   remora_put        latency: remora_put + remora_flush per operation (remote completion)
//                     MBps: puts back to back, one remora_flush per batch
//   raw_store_release 8-byte store-release through remora_segment_pointer(segment, 1, ...)
//   ratio             8-byte remora_put latency / raw store-release latency
// Usage: remorarun -n 2 ./bench_put [--csv] [--iterations K] [--batches B]
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "common/bench_common.hpp"
#include "remora.h"

namespace {

constexpr size_t kMaxBytes = size_t{4} << 20;
constexpr size_t kBytesPerBatch = size_t{32} << 20;  // caps iterations for large messages

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  bench::Options options;
  if (!bench::begin(&argc, &argv, 2, "bench_put: put latency/bandwidth rank 0 -> rank 1", &options,
                    &exit_code))
    return exit_code;
  const int rank = remora_rank();
  const int ranks = remora_size();
  const int iterations = bench::iterations_or(options, 10000);
  bench::Report report(options.csv);
  const std::string variant = bench::with_progress("remora_put");
  const std::string raw_variant = bench::with_progress("raw_store_release");

  remora_segment_t segment = nullptr;
  bench::check(remora_segment_allocate(rank == 1 ? kMaxBytes : 0, &segment),
               "remora_segment_allocate");
  std::vector<unsigned char> source(kMaxBytes);
  for (size_t i = 0; i < source.size(); ++i) source[i] = static_cast<unsigned char>(i * 7 + 1);
  auto nothing = [] {};

  double put8_us = 0;
  for (size_t bytes : bench::sizes(8, kMaxBytes, 4)) {
    const int n = bench::iterations_by_volume(bytes, iterations, kBytesPerBatch, 4);
    if (rank == 0) {
      auto latency = bench::time_batches(options.batches, n, nothing, [&](int) {
        bench::check(remora_put(segment, 1, 0, source.data(), bytes), "remora_put");
        bench::check(remora_flush(segment, 1), "remora_flush");
      });
      std::vector<double> bandwidth;
      for (int batch = -1; batch < options.batches; ++batch) {
        const double start = bench::now_us();
        for (int i = 0; i < n; ++i)
          bench::check(remora_put(segment, 1, 0, source.data(), bytes), "remora_put");
        bench::check(remora_flush(segment, 1), "remora_flush");
        const double elapsed = bench::now_us() - start;
        if (batch >= 0) bandwidth.push_back(static_cast<double>(bytes) * n / elapsed);
      }
      report.add_latency("put", variant, ranks, bytes, latency);
      report.add("put", variant, ranks, bytes, "MBps", bench::median(bandwidth));
      if (bytes == 8) put8_us = bench::median(latency);
    }
    bench::check(remora_barrier(), "remora_barrier");
    if (rank == 1) {  // rank 1 checks that the data arrived
      void* mine = nullptr;
      bench::check(remora_segment_pointer(segment, 1, &mine), "remora_segment_pointer");
      if (std::memcmp(mine, source.data(), bytes) != 0)
        remora_abort(1, "bench_put: rank 1 does not hold the data rank 0 put");
    }
    bench::check(remora_barrier(), "remora_barrier");
  }

  // Raw baseline: the cheapest way to make 8 bytes visible to rank 1 on a shared-memory node.
  if (rank == 0) {
    void* pointer = nullptr;
    bench::check(remora_segment_pointer(segment, 1, &pointer), "remora_segment_pointer");
    std::atomic_ref<uint64_t> word(*static_cast<uint64_t*>(pointer));
    const int n = std::max(iterations, 1000000);  // one store costs about a nanosecond
    auto raw = bench::time_batches(options.batches, n, nothing, [&](int i) {
      word.store(static_cast<uint64_t>(i), std::memory_order_release);
    });
    report.add_latency("put", raw_variant, ranks, 8, raw);
    report.add("put", variant + "/" + raw_variant, ranks, 8, "ratio", put8_us / bench::median(raw));
  }
  bench::check(remora_barrier(), "remora_barrier");
  report.print();
  bench::check(remora_segment_free(&segment), "remora_segment_free");
  bench::check(remora_finalize(), "remora_finalize");
  return 0;
}
