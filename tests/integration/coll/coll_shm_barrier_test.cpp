// Barriers of the shm small path back to back (coll/shm_fast.hpp: one round of flags, a light
// fence per call only to wake sleepers): no rank leaves barrier i before every member has
// entered it. Each member adds one to its communicator's counter (fetch-add on a segment of
// rank 0) before barrier i and reads it after: it must count every member of every barrier up
// to i. Then the same with one member asleep (nanosleep, not polling) before it enters, a
// different one each round, so that the others' waits outlast their spin and yield phases and
// sleep on the wake word: the late member's flag must wake them. Pairs of barriers with no
// check between let members run a barrier ahead of a sleeper. auto and shm, on the world and on
// a communicator of all but the last rank.
#include <cstdint>

#include "shm_counted.hpp"

namespace {

using remora_test::Counter;
using remora_test::sleep_us;

constexpr int kRounds = 300, kSleepyRounds = 24;

void run(const remora_test::RangeComm& c, remora_coll_algorithm_t algorithm, Counter* counter) {
  for (int round = 0; round < kRounds; ++round)
    remora_test::counted_barrier(c, algorithm, counter, "back to back", round);
  for (int round = 0; round < kSleepyRounds; ++round) {
    // 1 to 3 ms: longer than a waiter's spin and yield phases (ShmFast::kYieldNs).
    if (c.rank == round % c.size) sleep_us(1000 + 1000 * (round % 3));
    remora_test::counted_barrier(c, algorithm, counter, "sleeper", round);
    // Two more without a check: the others run ahead into the second while the sleeper naps.
    if (c.rank == (round + 1) % c.size) sleep_us(1000);
    REQUIRE_OK(remora_comm_barrier(c.handle, algorithm));
    REQUIRE_OK(remora_comm_barrier(c.handle, algorithm));
  }
}

}  // namespace

int main(int argc, char** argv) {
  return remora_test::run_on_ranges(&argc, &argv, run);
}
