// Barrier stress: no rank leaves barrier i before every rank has entered it.
#include <cstdint>

#include "multirank.hpp"

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  constexpr int kRounds = 1000;
  remora_segment_t segment;
  REQUIRE_OK(remora_segment_allocate(8, &segment));
  for (int round = 0; round < kRounds; ++round) {
    REQUIRE_OK(remora_fetch_add(segment, 0, 0, 1, nullptr));
    REQUIRE_OK(remora_barrier());
    int64_t arrived = 0;
    REQUIRE_OK(remora_get(segment, 0, 0, &arrived, 8));
    REQUIRE(arrived == static_cast<int64_t>(size) * (round + 1), "round %d: %lld arrivals", round,
            (long long)arrived);
    REQUIRE_OK(remora_barrier());
  }
  // Skewed arrival: one rank is late each round.
  for (int round = 0; round < 20; ++round) {
    if (rank == round % size) {
      const double until = remora_wtime() + 0.002;
      while (remora_wtime() < until) remora_test::progress_and_yield();
    }
    REQUIRE_OK(remora_fetch_add(segment, 0, 0, 1, nullptr));
    REQUIRE_OK(remora_barrier());
    int64_t arrived = 0;
    REQUIRE_OK(remora_get(segment, 0, 0, &arrived, 8));
    REQUIRE(arrived == static_cast<int64_t>(size) * (kRounds + round + 1));
    REQUIRE_OK(remora_barrier());
  }
  REQUIRE_OK(remora_segment_free(&segment));
  REQUIRE_OK(remora_finalize());
  return 0;
}
