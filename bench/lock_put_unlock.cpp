// Lock(exclusive)-put-unlock time, rank 0 -> rank 1, for n = 8, 256, 1024, 65536 8-byte longs
// (paper 001, Table 1). Variants (metric `us`: median time per lock-put-unlock; bytes = 8n):
//   raw        the cost floor: take a CAS spin flag in rank 1's part of a remora segment through
//              the direct pointer from remora_segment_pointer, memcpy into rank 1's part,
//              release the flag; all inline in one loop
//   raw_win    the same through separate (non-inlined) lock/put/unlock functions taking
//              MPI-like arguments and a window-like struct (base, lock word and displacement
//              unit looked up per target), as the paper's OpenMP 2-4 programs
//   immediate  remora_win_lock(EXCLUSIVE) + remora_win_put + remora_win_unlock (Remora's
//              immediate passive-target synchronisation)
//   deferred   the same on a window with info lock=deferred (paper 001 §5.1: lock returns at
//              once, the single put is queued, unlock does lock-put-unlock in one step)
// plus `immediate/raw` and `deferred/raw` (metric `ratio`) for n = 8.
// Usage: remorarun -n 2 ./lock_put_unlock [--csv] [--iterations K] [--batches B] [--longs N]
// (--longs N: only transfers of N longs, N <= 65536, e.g. 8 for instruction counts under callgrind)
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/bench_common.hpp"
#include "remora.h"

namespace {

constexpr size_t kLongs[] = {8, 256, 1024, 65536};
constexpr size_t kMaxLongs = 65536;
constexpr size_t kFlagBytes = 64;                    // the flag gets a cache line of its own
constexpr size_t kBytesPerBatch = size_t{64} << 20;  // caps iterations for large transfers

// A window-like structure for the raw_win variant: per-rank base, lock word, displacement unit.
struct RawWin {
  std::vector<unsigned char*> base;
  std::vector<uint64_t*> lock;
  std::vector<size_t> disp_unit;
};

__attribute__((noinline)) int raw_win_lock(RawWin* win, int lock_type, int target,
                                           int assert_flags) {
  if (lock_type != REMORA_LOCK_EXCLUSIVE || (assert_flags & ~REMORA_MODE_NOCHECK) != 0) return -1;
  std::atomic_ref<uint64_t> flag(*win->lock[static_cast<size_t>(target)]);
  for (;;) {
    uint64_t expected = 0;
    if (flag.compare_exchange_weak(expected, 1, std::memory_order_acquire,
                                   std::memory_order_relaxed))
      return 0;
    while (flag.load(std::memory_order_relaxed) != 0) {
    }
  }
}

__attribute__((noinline)) int raw_win_put(RawWin* win, int target, size_t disp, const void* origin,
                                          size_t count, size_t element_bytes) {
  const auto t = static_cast<size_t>(target);
  std::memcpy(win->base[t] + disp * win->disp_unit[t], origin, count * element_bytes);
  return 0;
}

__attribute__((noinline)) int raw_win_unlock(RawWin* win, int target) {
  std::atomic_ref<uint64_t>(*win->lock[static_cast<size_t>(target)])
      .store(0, std::memory_order_release);
  return 0;
}

void verify(const void* data, const std::vector<uint64_t>& source, size_t longs,
            const char* variant) {
  if (std::memcmp(data, source.data(), longs * sizeof(uint64_t)) != 0) {
    const std::string message =
        std::string("lock_put_unlock: rank 1 does not hold the data of variant ") + variant;
    remora_abort(1, message.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string longs_text;
  const bool ours_ok = bench::take_extra_options(&argc, argv, {{"--longs", &longs_text}});
  int exit_code = 0;
  bench::Options options;
  if (!bench::begin(&argc, &argv, 2,
                    "lock_put_unlock: lock-put-unlock rank 0 -> rank 1 (paper 001 Table 1)\n"
                    "  --longs N  only transfers of N longs (1 <= N <= 65536; default 8, 256, "
                    "1024, 65536)",
                    &options, &exit_code))
    return exit_code;
  std::vector<size_t> sizes(std::begin(kLongs), std::end(kLongs));
  if (!longs_text.empty()) sizes.assign(1, std::strtoull(longs_text.c_str(), nullptr, 10));
  if (!ours_ok || sizes[0] == 0 || sizes[0] > kMaxLongs) {
    if (remora_rank() == 0) std::fprintf(stderr, "lock_put_unlock: bad --longs value\n");
    remora_finalize();
    return 2;
  }
  const int rank = remora_rank();
  const int ranks = remora_size();
  const int iterations = bench::iterations_or(options, 20000);
  bench::Report report(options.csv);
  const size_t max_bytes = kMaxLongs * sizeof(uint64_t);

  // Raw variants: rank 1's segment part = flag line + data.
  remora_segment_t segment = nullptr;
  bench::check(remora_segment_allocate(rank == 1 ? kFlagBytes + max_bytes : 0, &segment),
               "remora_segment_allocate");
  // Remora variant: rank 1's window holds the data, displacement unit 8.
  remora_win_t win = nullptr;
  void* win_base = nullptr;
  bench::check(
      remora_win_allocate(rank == 1 ? max_bytes : 0, sizeof(uint64_t), nullptr, &win_base, &win),
      "remora_win_allocate");

  remora_win_t win_deferred = nullptr;
  void* deferred_base = nullptr;
  bench::check(remora_win_allocate(rank == 1 ? max_bytes : 0, sizeof(uint64_t), "lock=deferred",
                                   &deferred_base, &win_deferred),
               "remora_win_allocate");

  void* remote = nullptr;
  bench::check(remora_segment_pointer(segment, 1, &remote), "remora_segment_pointer");
  auto* flag_word = static_cast<uint64_t*>(remote);
  auto* data = static_cast<unsigned char*>(remote) + kFlagBytes;
  RawWin raw_win;
  raw_win.base.assign(static_cast<size_t>(ranks), nullptr);
  raw_win.lock.assign(static_cast<size_t>(ranks), nullptr);
  raw_win.disp_unit.assign(static_cast<size_t>(ranks), sizeof(uint64_t));
  raw_win.base[1] = data;
  raw_win.lock[1] = flag_word;

  std::vector<uint64_t> source(kMaxLongs);
  auto nothing = [] {};
  double raw8 = 0, immediate8 = 0, deferred8 = 0;

  for (size_t longs : sizes) {
    const size_t bytes = longs * sizeof(uint64_t);
    const int n = bench::iterations_by_volume(bytes, iterations, kBytesPerBatch, 16);
    for (size_t i = 0; i < longs; ++i) source[i] = longs * 1000003 + i;

    // raw
    if (rank == 0) {
      std::atomic_ref<uint64_t> flag(*flag_word);
      auto us = bench::time_batches(options.batches, n, nothing, [&](int) {
        for (;;) {
          uint64_t expected = 0;
          if (flag.compare_exchange_weak(expected, 1, std::memory_order_acquire,
                                         std::memory_order_relaxed))
            break;
        }
        std::memcpy(data, source.data(), bytes);
        flag.store(0, std::memory_order_release);
      });
      report.add_latency("lock_put_unlock", "raw", ranks, bytes, us);
      if (longs == 8) raw8 = bench::median(us);
    }
    bench::check(remora_barrier(), "remora_barrier");
    if (rank == 1) verify(data, source, longs, "raw");
    bench::check(remora_barrier(), "remora_barrier");

    // raw_win
    for (size_t i = 0; i < longs; ++i) source[i] = longs * 7919 + i;
    if (rank == 0) {
      auto us = bench::time_batches(options.batches, n, nothing, [&](int) {
        if (raw_win_lock(&raw_win, REMORA_LOCK_EXCLUSIVE, 1, 0) != 0 ||
            raw_win_put(&raw_win, 1, 0, source.data(), longs, sizeof(uint64_t)) != 0 ||
            raw_win_unlock(&raw_win, 1) != 0)
          remora_abort(1, "lock_put_unlock: raw_win failed");
      });
      report.add_latency("lock_put_unlock", "raw_win", ranks, bytes, us);
    }
    bench::check(remora_barrier(), "remora_barrier");
    if (rank == 1) verify(data, source, longs, "raw_win");
    bench::check(remora_barrier(), "remora_barrier");

    // immediate and deferred (Remora): the same calls on windows of either implementation
    auto remora_variant = [&](remora_win_t w, void* w_base, const char* name, size_t seed,
                              double* at8) {
      for (size_t i = 0; i < longs; ++i) source[i] = longs * seed + i;
      if (rank == 0) {
        auto us = bench::time_batches(options.batches, n, nothing, [&](int) {
          bench::check(remora_win_lock(w, REMORA_LOCK_EXCLUSIVE, 1, 0), "remora_win_lock");
          bench::check(remora_win_put(w, 1, 0, source.data(), longs, REMORA_INT64),
                       "remora_win_put");
          bench::check(remora_win_unlock(w, 1), "remora_win_unlock");
        });
        report.add_latency("lock_put_unlock", bench::with_progress(name), ranks, bytes, us);
        if (longs == 8) *at8 = bench::median(us);
      }
      bench::check(remora_barrier(), "remora_barrier");
      if (rank == 1) verify(w_base, source, longs, name);
      bench::check(remora_barrier(), "remora_barrier");
    };
    remora_variant(win, win_base, "immediate", 104729, &immediate8);
    remora_variant(win_deferred, deferred_base, "deferred", 130363, &deferred8);
  }

  if (rank == 0 && raw8 > 0) {
    report.add("lock_put_unlock", bench::with_progress("immediate") + "/raw", ranks, 64, "ratio",
               immediate8 / raw8);
    report.add("lock_put_unlock", bench::with_progress("deferred") + "/raw", ranks, 64, "ratio",
               deferred8 / raw8);
  }
  report.print();
  bench::check(remora_win_free(&win), "remora_win_free");
  bench::check(remora_win_free(&win_deferred), "remora_win_free");
  bench::check(remora_segment_free(&segment), "remora_segment_free");
  bench::check(remora_finalize(), "remora_finalize");
  return 0;
}
