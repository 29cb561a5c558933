// Wake-ups of the shm small path's waits with and without the light fence
// (ControlBlock::wake_application; REMORA_WAKE_MEMBARRIER): barriers, 8-byte allreduces and
// reduce_scatter_blocks back to back on three communicators taken in turn (the world, its ranks
// in reverse order, and halves by parity), with one member late by a nap (nanosleep, no polling)
// in three rounds of four, a random one each time, so that the others' waits outlast their spin
// and yield phases and sleep on the wake word before its flag store, which must wake them: the
// waker looks for sleepers behind a compiler barrier only and the sleeper issues the membarrier,
// or both fence (off). Barrier arrivals are counted by fetch-add on a segment of rank 0 and the
// reductions' results depend on the round and the communicator. A wake that never looked for
// sleepers, or a sleeper that never saw the flag, leaves members asleep until their sleeps end
// by timeout: with REMORA_WAIT_SLEEP_MAX_US=1000000 the sleeps of a wait that nothing wakes grow
// (20 us, doubled each time) up to a second. A single lost wake-up costs at most about the wait
// so far, which shows as time only: not judged. The transport's mode must be the one the
// variable asks for (under remorarun; under MPI it is always off).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "bypass_test_support.hpp"
#include "shm_counted.hpp"

namespace {

constexpr int kRounds = 360;

void allreduce(const remora_test::RangeComm& c, remora_coll_algorithm_t algorithm, int round,
               int salt) {
  const int64_t mine = int64_t{round + 1} * (c.rank + 1) + salt;
  int64_t sum = -1;
  REQUIRE_OK(remora_allreduce(&mine, &sum, 1, REMORA_INT64, REMORA_OP_SUM, c.handle, algorithm));
  const int64_t expected = int64_t{round + 1} * c.size * (c.size + 1) / 2 + int64_t{salt} * c.size;
  REQUIRE(sum == expected, "allreduce on comm %d size %d round %d: %lld, expected %lld", salt,
          c.size, round, static_cast<long long>(sum), static_cast<long long>(expected));
}

void reduce_scatter_block(const remora_test::RangeComm& c, remora_coll_algorithm_t algorithm,
                          int round, int salt) {
  std::vector<int32_t> send(static_cast<size_t>(c.size));
  for (int block = 0; block < c.size; ++block)
    send[static_cast<size_t>(block)] = round * 1000 + c.rank * 10 + block + salt;
  int32_t result = -1;
  REQUIRE_OK(remora_reduce_scatter_block(send.data(), &result, 1, REMORA_INT32, REMORA_OP_SUM,
                                         c.handle, algorithm));
  const int32_t expected = c.size * (round * 1000 + c.rank + salt) + 10 * c.size * (c.size - 1) / 2;
  REQUIRE(result == expected, "reduce_scatter_block on comm %d size %d round %d: %d, expected %d",
          salt, c.size, round, result, expected);
}

remora_test::RangeComm split(int color, int key) {
  remora_comm_t world = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  remora_test::RangeComm c;
  REQUIRE_OK(remora_comm_split(world, color, key, &c.handle));
  REQUIRE_OK(remora_comm_rank(c.handle, &c.rank));
  REQUIRE_OK(remora_comm_size(c.handle, &c.size));
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  remora_test::init(&argc, &argv, &rank, &size);
  // Under remorarun the transport is the node's own; under MPI (the node-local runs of the MPI
  // launcher) the router wakes with fences and the node's transport keeps them.
  const char* asked = std::getenv("REMORA_WAKE_MEMBARRIER");
  const bool remorarun =
      dynamic_cast<remora::shm::ShmTransport*>(bypass_test::runtime().transport.get()) != nullptr;
  const bool membarrier = remorarun && (asked == nullptr || std::strcmp(asked, "off") != 0);
  REQUIRE(bypass_test::node().membarrier_wakes() == membarrier,
          "REMORA_WAKE_MEMBARRIER=%s but the transport's membarrier wakes are %s",
          asked != nullptr ? asked : "(unset)",
          bypass_test::node().membarrier_wakes() ? "on" : "off");

  remora_segment_t segment;
  REQUIRE_OK(remora_segment_allocate(4 * sizeof(int64_t), &segment));
  // The world, its ranks in reverse order, and the halves by parity (each with its counter).
  const remora_test::RangeComm comms[3] = {split(0, rank), split(0, size - rank),
                                           split(rank % 2, rank)};
  remora_test::Counter counters[3] = {
      {segment, 0}, {segment, sizeof(int64_t)}, {segment, (2 + static_cast<size_t>(rank % 2)) * 8}};
  // Seeded alike on every rank: every member agrees on who is late.
  std::mt19937 random(4321u);
  std::uniform_int_distribution<int> quarter(0, 3), member(0, size - 1);
  std::uniform_int_distribution<long> nap_us(100, 1200);
  for (int round = 0; round < kRounds; ++round) {
    const bool someone_late = quarter(random) != 0;
    const int late = member(random);
    const long nap = nap_us(random);
    const auto which = static_cast<size_t>(round % 3);
    const remora_test::RangeComm& c = comms[which];
    const int salt = static_cast<int>(which);
    const remora_coll_algorithm_t algorithm = round % 2 == 0 ? REMORA_COLL_AUTO : REMORA_COLL_SHM;
    if (someone_late && late == rank) remora_test::sleep_us(nap);
    switch (round / 3 % 3) {
      case 0:
        remora_test::counted_barrier(c, algorithm, &counters[which], "wake", round);
        break;
      case 1:
        allreduce(c, algorithm, round, salt);
        break;
      default:
        reduce_scatter_block(c, algorithm, round, salt);
        break;
    }
  }
  for (const remora_test::RangeComm& c : comms) {
    remora_comm_t handle = c.handle;
    REQUIRE_OK(remora_comm_free(&handle));
  }
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_segment_free(&segment));
  REQUIRE_OK(remora_finalize());
  return 0;
}
