// Barriers of the shm small path back to back (coll/shm_fast.hpp: one round of flags, a full
// fence per call only to wake sleepers): no rank leaves barrier i before every member has
// entered it. Each member adds one to its communicator's counter (fetch-add on a segment of
// rank 0) before barrier i and reads it after: it must count every member of every barrier up
// to i. Then the same with one member asleep (nanosleep, not polling) before it enters, a
// different one each round, so that the others' waits outlast their spin and yield phases and
// sleep on the wake word: the late member's flag must wake them. Pairs of barriers with no
// check between let members run a barrier ahead of a sleeper. auto and shm, on the world and on
// a communicator of all but the last rank.
#include <time.h>

#include <cstdint>

#include "multirank.hpp"
#include "shm_comms.hpp"

namespace {

constexpr int kRounds = 300, kSleepyRounds = 24;

void sleep_us(long us) {
  timespec request{0, us * 1000};
  while (nanosleep(&request, &request) != 0) {
  }
}

struct Counter {
  remora_segment_t segment;
  size_t offset;
  int64_t expected = 0;
};

void arrive_and_check(const remora_test::RangeComm& c, remora_coll_algorithm_t algorithm,
                      Counter* counter, const char* phase, int round) {
  REQUIRE_OK(remora_fetch_add(counter->segment, 0, counter->offset, 1, nullptr));
  REQUIRE_OK(remora_comm_barrier(c.handle, algorithm));
  counter->expected += c.size;
  int64_t arrived = 0;
  REQUIRE_OK(remora_get(counter->segment, 0, counter->offset, &arrived, sizeof(arrived)));
  REQUIRE(arrived == counter->expected, "%s algorithm %d size %d round %d: %lld arrivals, %lld",
          phase, static_cast<int>(algorithm), c.size, round, static_cast<long long>(arrived),
          static_cast<long long>(counter->expected));
  // Nobody adds for the next round before everyone has read this one's count.
  REQUIRE_OK(remora_comm_barrier(c.handle, algorithm));
}

void run(const remora_test::RangeComm& c, remora_coll_algorithm_t algorithm, Counter* counter) {
  for (int round = 0; round < kRounds; ++round)
    arrive_and_check(c, algorithm, counter, "back to back", round);
  for (int round = 0; round < kSleepyRounds; ++round) {
    // 1 to 3 ms: longer than a waiter's spin and yield phases (ShmFast::kYieldNs).
    if (c.rank == round % c.size) sleep_us(1000 + 1000 * (round % 3));
    arrive_and_check(c, algorithm, counter, "sleeper", round);
    // Two more without a check: the others run ahead into the second while the sleeper naps.
    if (c.rank == (round + 1) % c.size) sleep_us(1000);
    REQUIRE_OK(remora_comm_barrier(c.handle, algorithm));
    REQUIRE_OK(remora_comm_barrier(c.handle, algorithm));
  }
}

}  // namespace

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  remora_test::init(&argc, &argv, &rank, &size);
  remora_segment_t segment;
  REQUIRE_OK(remora_segment_allocate(2 * sizeof(int64_t), &segment));
  const remora_test::RangeComm world = remora_test::split_range(0, false);
  const remora_test::RangeComm first = remora_test::split_range(0, true);  // all but the last
  Counter on_world{segment, 0}, on_first{segment, sizeof(int64_t)};
  for (remora_coll_algorithm_t algorithm : {REMORA_COLL_AUTO, REMORA_COLL_SHM}) {
    run(world, algorithm, &on_world);
    if (first.handle != REMORA_COMM_NULL) run(first, algorithm, &on_first);
  }
  for (remora_comm_t handle : {world.handle, first.handle})
    if (handle != REMORA_COMM_NULL) REQUIRE_OK(remora_comm_free(&handle));
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_segment_free(&segment));
  REQUIRE_OK(remora_finalize());
  return 0;
}
