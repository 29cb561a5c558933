// The shm small path's waits that sleep (coll/shm_fast.hpp; ShmArea::wake_others: the flag
// stores wake sleepers behind a light fence, the sleeper issues the heavy one): barriers,
// allreduces of 8 bytes and reduce_scatter_blocks of one int per rank, one per round, many
// rounds, each member asleep (nanosleep, not polling) before a random quarter of them, so that
// the others' waits outlast their spin and yield phases and sleep on the wake word while
// members arrive. No early release: each member adds one to its communicator's counter
// (fetch-add on a segment of rank 0) before a barrier and reads it after, which must count
// every member of every barrier so far; the reductions' results depend on the round, so a
// member that read another round's data (or left before every member published) computes a
// wrong value. A lost wake-up would leave a sleeper asleep until its timeout: it shows as time
// only, which the test does not judge. auto and shm, on the world and on a communicator of all
// but the last rank.
#include <cstdint>
#include <random>
#include <vector>

#include "shm_counted.hpp"

namespace {

constexpr int kRounds = 240;

void allreduce(const remora_test::RangeComm& c, remora_coll_algorithm_t algorithm, int round) {
  const int64_t mine = int64_t{round + 1} * (c.rank + 1);
  int64_t sum = -1;
  REQUIRE_OK(remora_allreduce(&mine, &sum, 1, REMORA_INT64, REMORA_OP_SUM, c.handle, algorithm));
  const int64_t expected = int64_t{round + 1} * c.size * (c.size + 1) / 2;
  REQUIRE(sum == expected, "allreduce algorithm %d size %d round %d: %lld, expected %lld",
          static_cast<int>(algorithm), c.size, round, static_cast<long long>(sum),
          static_cast<long long>(expected));
}

void reduce_scatter_block(const remora_test::RangeComm& c, remora_coll_algorithm_t algorithm,
                          int round) {
  std::vector<int32_t> send(static_cast<size_t>(c.size));
  for (int block = 0; block < c.size; ++block)
    send[static_cast<size_t>(block)] = round * 1000 + c.rank * 10 + block;
  int32_t result = -1;
  REQUIRE_OK(remora_reduce_scatter_block(send.data(), &result, 1, REMORA_INT32, REMORA_OP_SUM,
                                         c.handle, algorithm));
  const int32_t expected = c.size * (round * 1000 + c.rank) + 10 * c.size * (c.size - 1) / 2;
  REQUIRE(result == expected, "reduce_scatter_block algorithm %d size %d round %d: %d, expected %d",
          static_cast<int>(algorithm), c.size, round, result, expected);
}

void run(const remora_test::RangeComm& c, remora_coll_algorithm_t algorithm,
         remora_test::Counter* counter) {
  // Seeded by world rank: every run sleeps alike.
  std::mt19937 random(1234u + static_cast<unsigned>(remora_rank()));
  std::uniform_int_distribution<int> quarter(0, 3);
  std::uniform_int_distribution<long> nap_us(50, 1500);
  for (int round = 0; round < kRounds; ++round) {
    if (quarter(random) == 0) remora_test::sleep_us(nap_us(random));
    switch (round % 3) {
      case 0:
        remora_test::counted_barrier(c, algorithm, counter, "sleepers", round);
        break;
      case 1:
        allreduce(c, algorithm, round);
        break;
      default:
        reduce_scatter_block(c, algorithm, round);
        break;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return remora_test::run_on_ranges(&argc, &argv, run);
}
