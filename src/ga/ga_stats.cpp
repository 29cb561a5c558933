#include "ga/ga_stats.hpp"

#include <atomic>
#include <cstdio>
#include <mutex>
#include <vector>

#include "ga/ga_memory.hpp"
#include "ga/ga_registry.hpp"

namespace remora::ga {
namespace {

constexpr int kStats = static_cast<int>(Stat::Count);
const char* const kNames[kStats] = {"put",         "get",      "accumulate", "scatter", "gather",
                                    "scatter_acc", "read_inc", "access",     "sync"};

// Counts of one thread. Only that thread writes them (a relaxed load and store: no locked
// read-modify-write on the path of every GA call); stats_print reads them relaxed.
struct Counts {
  std::atomic<uint64_t> calls[kStats] = {};
  std::atomic<uint64_t> bytes[kStats] = {};
};

// Every live thread's counts, and the totals of threads that ended.
struct Registry {
  std::mutex mutex;
  std::vector<const Counts*> live;
  uint64_t ended_calls[kStats] = {};
  uint64_t ended_bytes[kStats] = {};
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: threads may end after static teardown
  return *r;
}

// A thread's counts, registered on its first count, folded into the totals when it ends.
struct ThreadCounts {
  Counts counts;
  ThreadCounts() {
    Registry& r = registry();
    const std::lock_guard<std::mutex> hold(r.mutex);
    r.live.push_back(&counts);
  }
  ~ThreadCounts() {
    Registry& r = registry();
    const std::lock_guard<std::mutex> hold(r.mutex);
    for (int k = 0; k < kStats; ++k) {
      r.ended_calls[k] += counts.calls[k].load(std::memory_order_relaxed);
      r.ended_bytes[k] += counts.bytes[k].load(std::memory_order_relaxed);
    }
    std::erase(r.live, &counts);
  }
};

void bump(std::atomic<uint64_t>& counter, uint64_t by) {
  counter.store(counter.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
}

}  // namespace

void stat_record(Stat stat, size_t bytes) {
  thread_local ThreadCounts mine;
  const int k = static_cast<int>(stat);
  bump(mine.counts.calls[k], 1);
  bump(mine.counts.bytes[k], bytes);
}

void stats_print() {
  uint64_t calls[kStats], bytes[kStats];
  {
    Registry& r = registry();
    const std::lock_guard<std::mutex> hold(r.mutex);
    for (int k = 0; k < kStats; ++k) {
      calls[k] = r.ended_calls[k];
      bytes[k] = r.ended_bytes[k];
      for (const Counts* c : r.live) {
        calls[k] += c->calls[k].load(std::memory_order_relaxed);
        bytes[k] += c->bytes[k].load(std::memory_order_relaxed);
      }
    }
  }
  std::printf("GA statistics for process %4d\n", remora_rank());
  std::printf("%-12s %14s %16s\n", "operation", "calls", "bytes");
  for (int k = 0; k < kStats; ++k)
    std::printf("%-12s %14llu %16llu\n", kNames[k], static_cast<unsigned long long>(calls[k]),
                static_cast<unsigned long long>(bytes[k]));
  std::printf("memory in use by GA arrays: %zu bytes\n", memory_in_use());
  std::fflush(stdout);
}

}  // namespace remora::ga
