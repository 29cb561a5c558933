// Cost of one generalised active-target epoch on a ring (paper 001 section 4): every rank exposes
// its window to its left neighbour and accesses its right one, puts n 8-byte longs there, and
// closes both epochs. Variants (metric `us`: rank 0's median time per epoch; bytes = 8n):
//   pscw_immediate  post(left) start(right) put complete wait, start waiting for the post
//   pscw_deferred   the same with info pscw=deferred: start returns at once, the put is queued
//                   and issued by complete once the post has arrived
//   fence2          the same put between two fences (fence, put, fence), for reference
// Usage: remorarun -n P ./pscw_cost [--csv] [--iterations K] [--batches B]
#include <cstdint>
#include <string>
#include <vector>

#include "common/bench_common.hpp"
#include "remora.h"

namespace {

constexpr size_t kLongs[] = {1, 1024};

remora_group_t single(remora_group_t world, int rank) {
  remora_group_t group = nullptr;
  bench::check(remora_group_incl(world, 1, &rank, &group), "remora_group_incl");
  return group;
}

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  bench::Options options;
  if (!bench::begin(&argc, &argv, 2, "pscw_cost: one PSCW epoch on a ring vs two fences", &options,
                    &exit_code))
    return exit_code;
  const int rank = remora_rank(), ranks = remora_size();
  const int iterations = bench::iterations_or(options, 2000);
  bench::Report report(options.csv);
  remora_comm_t world = nullptr;
  remora_group_t everyone = nullptr;
  bench::check(remora_comm_world(&world), "remora_comm_world");
  bench::check(remora_comm_group(world, &everyone), "remora_comm_group");
  remora_group_t left = single(everyone, (rank + ranks - 1) % ranks);
  remora_group_t right_group = single(everyone, (rank + 1) % ranks);
  const int right = (rank + 1) % ranks;
  std::vector<int64_t> source(kLongs[1], rank);
  auto barrier = [] { bench::check(remora_barrier(), "remora_barrier"); };

  for (const char* mode : {"immediate", "deferred"}) {
    const std::string info = std::string("pscw=") + mode;
    remora_win_t win = nullptr;
    bench::check(remora_win_allocate(kLongs[1] * 8, 8, info.c_str(), nullptr, &win),
                 "remora_win_allocate");
    for (size_t longs : kLongs) {
      auto us = bench::time_batches(options.batches, iterations, barrier, [&](int) {
        bench::check(remora_win_post(left, 0, win), "remora_win_post");
        bench::check(remora_win_start(right_group, 0, win), "remora_win_start");
        bench::check(remora_win_put(win, right, 0, source.data(), longs, REMORA_INT64),
                     "remora_win_put");
        bench::check(remora_win_complete(win), "remora_win_complete");
        bench::check(remora_win_wait(win), "remora_win_wait");
      });
      report.add_latency("pscw_cost", bench::with_progress(std::string("pscw_") + mode), ranks,
                         longs * 8, us);
    }
    bench::check(remora_win_free(&win), "remora_win_free");
  }

  remora_win_t win = nullptr;
  bench::check(remora_win_allocate(kLongs[1] * 8, 8, nullptr, nullptr, &win),
               "remora_win_allocate");
  for (size_t longs : kLongs) {
    auto us = bench::time_batches(options.batches, iterations, barrier, [&](int) {
      bench::check(remora_win_fence(win, 0), "remora_win_fence");
      bench::check(remora_win_put(win, right, 0, source.data(), longs, REMORA_INT64),
                   "remora_win_put");
      bench::check(remora_win_fence(win, 0), "remora_win_fence");
    });
    report.add_latency("pscw_cost", bench::with_progress("fence2"), ranks, longs * 8, us);
  }
  bench::check(remora_win_free(&win), "remora_win_free");
  report.print();
  for (remora_group_t* group : {&left, &right_group, &everyone})
    bench::check(remora_group_free(group), "remora_group_free");
  bench::check(remora_finalize(), "remora_finalize");
  return 0;
}
