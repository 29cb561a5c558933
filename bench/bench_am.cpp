// Active-message ping-pong latency between rank 0 and rank 1: half the round-trip time.
// Rank 0 sends a ping of `bytes` payload; the handler at rank 1 replies with the same payload;
// the handler at rank 0 sends the next ping, until a batch of round trips is done. The
// application threads only wait for the end of the batch, and how they wait is the variant,
// taken from the environment:
//   polling        REMORA_PROGRESS=manual (default): both main threads spin in remora_progress,
//                  so handlers run on the main threads.
//   asleep         REMORA_PROGRESS=thread: both main threads sleep in a blocking wait
//                  (std::atomic::wait, a futex) for the whole batch; the progress threads run
//                  the handlers, with the library's wait policy (spin, yield, then sleep on a
//                  futex until a sender wakes them).
//   asleep_nospin  as asleep, with REMORA_WAIT_SPIN_US=0 REMORA_WAIT_YIELDS=0: an idle progress
//                  thread goes straight to sleep, so every message pays a futex wake-up.
// Usage: REMORA_PROGRESS=thread remorarun -n 2 ./bench_am [--csv] [--iterations K] [--batches B]
#include <atomic>
#include <vector>

#include "common/bench_common.hpp"
#include "remora.h"

namespace {

struct PingPong {
  int rank = 0;
  int handler = -1;
  size_t bytes = 0;           // payload of the current size
  int round_trips = 0;        // per batch
  std::atomic<int> count{0};  // messages this rank received in the batch
  std::atomic<int> done{0};   // 1 when this rank's part of the batch is over
  double end_us = 0;          // rank 0: when the last pong arrived
  std::vector<unsigned char> payload;
};

void finish(PingPong& state) {
  state.done.store(1, std::memory_order_release);
  state.done.notify_all();
}

void on_message(int source, const void* payload, size_t bytes, void* context) {
  auto& state = *static_cast<PingPong*>(context);
  if (bytes != state.bytes) remora_abort(1, "bench_am: a message arrived with the wrong size");
  (void)payload;
  const int received = state.count.fetch_add(1, std::memory_order_relaxed) + 1;
  if (state.rank == 1) {  // ping: reply at once
    bench::check(remora_am_send(source, state.handler, state.payload.data(), bytes),
                 "remora_am_send (pong)");
    if (received == state.round_trips) finish(state);
  } else if (received < state.round_trips) {  // pong: next ping
    bench::check(remora_am_send(source, state.handler, state.payload.data(), bytes),
                 "remora_am_send (ping)");
  } else {
    state.end_us = bench::now_us();
    finish(state);
  }
}

std::string variant_name() {
  if (bench::progress_mode() != "thread") return "polling";
  if (bench::env_or("REMORA_WAIT_SPIN_US", "") == "0" &&
      bench::env_or("REMORA_WAIT_YIELDS", "") == "0")
    return "asleep_nospin";
  return "asleep";
}

}  // namespace

int main(int argc, char** argv) {
  int exit_code = 0;
  bench::Options options;
  if (!bench::begin(&argc, &argv, 2,
                    "bench_am: active-message ping-pong rank 0 <-> rank 1 (half "
                    "round trip); variant from REMORA_PROGRESS",
                    &options, &exit_code))
    return exit_code;
  static PingPong state;  // handlers may still run on the progress thread until finalize
  state.rank = remora_rank();
  const int ranks = remora_size();
  const bool asleep = bench::progress_mode() == "thread";
  const std::string variant = variant_name();
  state.round_trips = bench::iterations_or(options, 500);
  state.payload.assign(4096, 0x5a);
  bench::check(remora_am_register(on_message, &state, &state.handler), "remora_am_register");
  bench::Report report(options.csv);

  auto wait_done = [&] {
    if (asleep) {
      while (state.done.load(std::memory_order_acquire) == 0) state.done.wait(0);
    } else {
      while (state.done.load(std::memory_order_acquire) == 0)
        bench::check(remora_progress(), "remora_progress");
    }
  };

  for (size_t bytes : {size_t{0}, size_t{8}, size_t{64}, size_t{256}, size_t{1024}, size_t{4096}}) {
    std::vector<double> half_round_trip_us;
    for (int batch = -1; batch < options.batches; ++batch) {
      state.bytes = bytes;
      state.count.store(0, std::memory_order_relaxed);
      state.done.store(0, std::memory_order_relaxed);
      bench::check(remora_barrier(), "remora_barrier");  // nobody sends before all have reset
      if (state.rank == 0) {
        const double start = bench::now_us();
        bench::check(remora_am_send(1, state.handler, state.payload.data(), bytes),
                     "remora_am_send (first ping)");
        wait_done();
        if (batch >= 0)
          half_round_trip_us.push_back((state.end_us - start) / (2.0 * state.round_trips));
      } else if (state.rank == 1) {
        wait_done();
      }
    }
    if (state.rank == 0) report.add_latency("am", variant, ranks, bytes, half_round_trip_us);
  }
  bench::check(remora_barrier(), "remora_barrier");
  report.print();
  bench::check(remora_finalize(), "remora_finalize");
  return 0;
}
