// The root of a blocking application-bypass reduce sleeps until a message arrives
// (Transport::wait_for_arrival): after its spin and yields, no short sleeps. Run with
// REMORA_WAIT_SLEEP_MAX_US at its largest (1 s), a lost wake-up leaves the root asleep until
// that timeout: lost systematically, the 3000 reductions outlast the test's timeout. The sleeps
// that did end by their timeout (ShmTransport::application_timeouts) are reported, not judged:
// a rank may be kept off the CPU that long on a loaded machine. Ranks are late by random busy
// loops that make no Remora call (children's messages reach the root before its wait, during its
// spin and while it sleeps); roots rotate, so that the messages come from leaves, from internal
// nodes folding late children in their next call (manual progress) or on their progress thread
// (thread progress), and every result is checked.
// With --sleep the late ranks sleep instead (they leave the CPU, so the root is asleep when
// most messages come, and is woken by the last one it waits for: with a flat tree its count of
// awaited messages, ShmTransport::sleep_for_arrivals, lets the others pass).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "bypass_test_support.hpp"

namespace {

using bypass_test::compute_for;
using bypass_test::node;
using bypass_test::runtime;

constexpr int kReductions = 3000;
constexpr unsigned kMaxLateUs = 400;

int64_t value(int instance, int rank, size_t i) {
  return (instance * 13 + rank * 5 + static_cast<int>(i)) % 997;
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  remora_comm_t world = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  const int rank = remora_rank(), size = remora_size();
  const bool sleep = argc > 1 && std::strcmp(argv[1], "--sleep") == 0;
  REQUIRE(runtime().config.wait_sleep_max_us == 1000000,
          "run with REMORA_WAIT_SLEEP_MAX_US=1000000 (got %lld)",
          static_cast<long long>(runtime().config.wait_sleep_max_us));
  // Under the MPI transport the root takes the usual wait, whose sleeps time out by design.
  const bool arrival_waits = runtime().transport->arrival_wakes_application();
  std::mt19937 random(static_cast<unsigned>(rank) * 104729u + 3u);
  const uint64_t timeouts_before = arrival_waits ? node().application_timeouts() : 0;
  uint64_t waits = 0;
  for (int i = 0; i < kReductions; ++i) {
    // Half the time one rank in two is late; the root is late too at times, so that it often
    // finds its children's messages already there.
    if (random() % 2 == 0) {
      const auto late = static_cast<unsigned>(random() % kMaxLateUs);
      if (sleep)
        std::this_thread::sleep_for(std::chrono::microseconds(late));
      else
        compute_for(late);
    }
    const int root = (i / 3) % size;
    const size_t count = 1 + static_cast<size_t>(i % 3);
    std::vector<int64_t> send(count), recv(count, -1);
    for (size_t e = 0; e < count; ++e) send[e] = value(i, rank, e);
    REQUIRE_OK(remora_reduce(send.data(), recv.data(), count, REMORA_INT64, REMORA_OP_SUM, root,
                             world, REMORA_COLL_APPLICATION_BYPASS));
    if (rank != root) continue;
    ++waits;
    for (size_t e = 0; e < count; ++e) {
      int64_t expected = 0;
      for (int r = 0; r < size; ++r) expected += value(i, r, e);
      REQUIRE(recv[e] == expected, "reduction %d element %zu: %lld, expected %lld", i, e,
              static_cast<long long>(recv[e]), static_cast<long long>(expected));
    }
  }
  // Read before any other wait of this rank: only the roots' waits above slept.
  const uint64_t timeouts = arrival_waits ? node().application_timeouts() - timeouts_before : 0;
  REQUIRE_OK(remora_barrier());
  if (arrival_waits)
    std::printf("rank %d: %llu reductions as root, %llu sleeps ended by their 1 s timeout\n", rank,
                static_cast<unsigned long long>(waits), static_cast<unsigned long long>(timeouts));
  else
    std::printf("rank %d: %llu reductions as root (the usual wait)\n", rank,
                static_cast<unsigned long long>(waits));
  REQUIRE_OK(remora_finalize());
  return 0;
}
