// Latency of one-element operations inside lock_all, rank 0 -> rank 1, each followed by
// remora_win_flush (the rows of bench/peers/rma_peers_mpi.cpp's rma_latency, so that
// bench/compare_peers.sh can set them side by side). Variant `<operation>_<strategy>`, one window
// per accumulate strategy (info acc_strategy=...), metric `us` (median per operation), bytes 8:
//   put, get                     remora_win_put / remora_win_get of one int64
//   fetch_and_op                 REMORA_OP_SUM of one int64 (the count is checked at the end)
//   compare_and_swap             one int64
//   get_accumulate               REMORA_OP_SUM of one int64
// put and get do not depend on the strategy and are reported for `auto` only.
// Usage: remorarun -n 2 ./rma_latency [--csv] [--iterations K] [--batches B]
#include <cstdint>
#include <string>
#include <vector>

#include "common/bench_common.hpp"
#include "remora.h"

namespace {

const char* const kStrategies[] = {"auto", "native", "caller"};

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  bench::Options options;
  if (!bench::begin(&argc, &argv, 2, "rma_latency: one-element RMA operations in lock_all",
                    &options, &exit_code))
    return exit_code;
  const int rank = remora_rank();
  const int iterations = bench::iterations_or(options, 20000);
  bench::Report report(options.csv);
  for (const char* strategy : kStrategies) {
    const std::string info = std::string("acc_strategy=") + strategy;
    remora_win_t win = nullptr;
    void* base = nullptr;
    bench::check(remora_win_allocate(64, 8, info.c_str(), &base, &win), "remora_win_allocate");
    int64_t fetch_adds = 0;
    if (rank == 0) {
      int64_t value = 1, result = 0, compare = 0;
      bench::check(remora_win_lock_all(win, 0), "remora_win_lock_all");
      auto row = [&](const char* what, auto&& op) {
        report.add_latency("rma_latency", bench::with_progress(std::string(what) + "_" + strategy),
                           2, 8,
                           bench::time_batches(
                               options.batches, iterations, [] {},
                               [&](int) {
                                 op();
                                 bench::check(remora_win_flush(win, 1), "remora_win_flush");
                               }));
      };
      if (std::string(strategy) == "auto") {
        row("put",
            [&] { bench::check(remora_win_put(win, 1, 0, &value, 1, REMORA_INT64), "put"); });
        row("get",
            [&] { bench::check(remora_win_get(win, 1, 0, &result, 1, REMORA_INT64), "get"); });
      }
      row("fetch_and_op", [&] {
        bench::check(
            remora_win_fetch_and_op(win, 1, 1, &value, &result, REMORA_INT64, REMORA_OP_SUM),
            "remora_win_fetch_and_op");
        ++fetch_adds;
      });
      row("compare_and_swap", [&] {
        bench::check(
            remora_win_compare_and_swap(win, 1, 2, &value, &compare, &result, REMORA_INT64),
            "remora_win_compare_and_swap");
      });
      row("get_accumulate", [&] {
        bench::check(remora_win_get_accumulate(win, 1, 3, &value, &result, 1, REMORA_INT64,
                                               REMORA_OP_SUM, nullptr),
                     "remora_win_get_accumulate");
      });
      bench::check(remora_win_unlock_all(win), "remora_win_unlock_all");
    }
    remora_comm_t world = nullptr;
    bench::check(remora_comm_world(&world), "remora_comm_world");
    bench::check(remora_bcast(&fetch_adds, 1, REMORA_INT64, 0, world, REMORA_COLL_AUTO),
                 "remora_bcast");
    if (rank == 1 && static_cast<const int64_t*>(base)[1] != fetch_adds)
      remora_abort(1, "rma_latency: the fetch_and_op count at the target is wrong");
    bench::check(remora_barrier(), "remora_barrier");
    bench::check(remora_win_free(&win), "remora_win_free");
  }
  report.print();
  bench::check(remora_finalize(), "remora_finalize");
  return 0;
}
