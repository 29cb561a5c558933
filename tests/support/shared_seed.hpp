// The seed of a randomised multi-rank test: REMORATEST_SEED if set (to repeat a run), else the
// time, taken from rank 0 by every rank and printed there as "<program>: REMORATEST_SEED=<seed>".
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "multirank.hpp"

namespace remora_test {

inline uint64_t shared_seed(const char* program) {
  uint64_t seed = static_cast<uint64_t>(std::time(nullptr));
  if (const char* given = std::getenv("REMORATEST_SEED")) seed = std::strtoull(given, nullptr, 10);
  remora_comm_t world;
  REQUIRE_OK(remora_comm_world(&world));
  REQUIRE_OK(remora_bcast(&seed, sizeof seed, REMORA_UINT8, 0, world, REMORA_COLL_AUTO));
  if (remora_rank() == 0)
    std::printf("%s: REMORATEST_SEED=%llu\n", program, static_cast<unsigned long long>(seed));
  return seed;
}

}  // namespace remora_test
