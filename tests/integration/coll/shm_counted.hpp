// What the tests of the shm small path's waits share (coll_shm_barrier, coll_shm_sleepers):
// naps that do not poll, barriers whose arrivals are counted, and runs on the world and on a
// communicator of all but the last rank.
#pragma once

#include <time.h>

#include <cstdint>

#include "multirank.hpp"
#include "shm_comms.hpp"

namespace remora_test {

inline void sleep_us(long us) {
  timespec request{0, us * 1000};
  while (nanosleep(&request, &request) != 0) {
  }
}

// A communicator's count of arrivals, on a segment of rank 0.
struct Counter {
  remora_segment_t segment;
  size_t offset;
  int64_t expected = 0;
};

// No early release: each member adds one to the counter before the barrier and reads it after;
// it must count every member of every barrier so far. A second barrier keeps anybody from
// adding for the next one before everyone has read this one's count.
inline void counted_barrier(const RangeComm& c, remora_coll_algorithm_t algorithm, Counter* counter,
                            const char* phase, int round) {
  REQUIRE_OK(remora_fetch_add(counter->segment, 0, counter->offset, 1, nullptr));
  REQUIRE_OK(remora_comm_barrier(c.handle, algorithm));
  counter->expected += c.size;
  int64_t arrived = 0;
  REQUIRE_OK(remora_get(counter->segment, 0, counter->offset, &arrived, sizeof(arrived)));
  REQUIRE(arrived == counter->expected, "%s algorithm %d size %d round %d: %lld arrivals, %lld",
          phase, static_cast<int>(algorithm), c.size, round, static_cast<long long>(arrived),
          static_cast<long long>(counter->expected));
  REQUIRE_OK(remora_comm_barrier(c.handle, algorithm));
}

// The test's main: run(comm, algorithm, counter) for auto and shm, on the world and on all but
// the last rank (each with its counter), then frees everything and finalizes.
template <typename Run>
int run_on_ranges(int* argc, char*** argv, const Run& run) {
  int rank = 0, size = 0;
  init(argc, argv, &rank, &size);
  remora_segment_t segment;
  REQUIRE_OK(remora_segment_allocate(2 * sizeof(int64_t), &segment));
  const RangeComm world = split_range(0, false);
  const RangeComm first = split_range(0, true);  // all but the last
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

}  // namespace remora_test
