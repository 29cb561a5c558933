// Get latency, rank 0 reads from rank 1 (a get is complete when it returns).
//   remora_get  us: per remora_get; MBps: bytes / median latency
// Usage: remorarun -n 2 ./bench_get [--csv] [--iterations K] [--batches B]
#include <algorithm>
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
  if (!bench::begin(&argc, &argv, 2, "bench_get: get latency rank 0 <- rank 1", &options,
                    &exit_code))
    return exit_code;
  const int rank = remora_rank();
  const int ranks = remora_size();
  const int iterations = bench::iterations_or(options, 10000);
  bench::Report report(options.csv);
  const std::string variant = bench::with_progress("remora_get");

  remora_segment_t segment = nullptr;
  bench::check(remora_segment_allocate(rank == 1 ? kMaxBytes : 0, &segment),
               "remora_segment_allocate");
  if (rank == 1) {
    void* mine = nullptr;
    bench::check(remora_segment_pointer(segment, 1, &mine), "remora_segment_pointer");
    auto* bytes = static_cast<unsigned char*>(mine);
    for (size_t i = 0; i < kMaxBytes; ++i) bytes[i] = static_cast<unsigned char>(i * 7 + 1);
  }
  bench::check(remora_barrier(), "remora_barrier");

  if (rank == 0) {
    std::vector<unsigned char> destination(kMaxBytes);
    for (size_t bytes : bench::sizes(8, kMaxBytes, 4)) {
      const int n =
          std::min(iterations, static_cast<int>(std::max<size_t>(kBytesPerBatch / bytes, 4)));
      std::memset(destination.data(), 0, bytes);
      auto latency = bench::time_batches(
          options.batches, n, [] {},
          [&](int) {
            bench::check(remora_get(segment, 1, 0, destination.data(), bytes), "remora_get");
          });
      for (size_t i = 0; i < bytes; ++i)
        if (destination[i] != static_cast<unsigned char>(i * 7 + 1))
          remora_abort(1, "bench_get: rank 0 got different data than rank 1 holds");
      report.add_latency("get", variant, ranks, bytes, latency);
      report.add("get", variant, ranks, bytes, "MBps",
                 static_cast<double>(bytes) / bench::median(latency));
    }
  }
  bench::check(remora_barrier(), "remora_barrier");
  report.print();
  bench::check(remora_segment_free(&segment), "remora_segment_free");
  bench::check(remora_finalize(), "remora_finalize");
  return 0;
}
