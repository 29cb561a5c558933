// The shm tests' check of what the world's area uses (INTERNAL tests): argv[1] "expect_cells"
// or "expect_single_copy" requires the area's single-copy threshold to be zero or not;
// "expect_rooted" also requires the rooted gather and scatter (ShmArea::rooted_single_copy) and
// alltoall single-copy from their threshold.
#pragma once

#include <cstddef>
#include <string>

#include "api/runtime.hpp"
#include "coll/collectives.hpp"
#include "multirank.hpp"

// Initializes Remora; returns the world (*world) and its area's single-copy threshold of
// operation (0: none, or no area: one rank).
inline size_t start_shm_test(int argc, char** argv, remora_comm_t* world_out,
                             remora::coll::Operation operation = remora::coll::Operation::Gather) {
  REQUIRE_OK(remora_init(&argc, &argv));
  remora_comm_t world;
  REQUIRE_OK(remora_comm_world(&world));
  *world_out = world;
  remora::api::Runtime* runtime = nullptr;
  REQUIRE_OK(remora::api::enter("shm test", &runtime));
  const remora::coll::ShmArea* area =
      runtime->collectives->communicators.find(world)->shm_area().get();
  const std::string mode = argc > 1 ? argv[1] : "";
  const size_t threshold = area != nullptr ? area->single_copy_bytes(operation) : 0;
  if (area != nullptr && mode == "expect_cells")
    REQUIRE(threshold == 0, "single-copy threshold %zu, expected none", threshold);
  if (area != nullptr && (mode == "expect_single_copy" || mode == "expect_rooted"))
    REQUIRE(threshold != 0, "no single copy on this area");
  if (area != nullptr && mode == "expect_rooted") {
    REQUIRE(area->rooted_single_copy(), "single copy on this area is not rooted");
    // Oversubscribed, alltoall (and alltoallv's blocks) is single-copy from the same size.
    const size_t alltoall = area->single_copy_bytes(remora::coll::Operation::Alltoall);
    REQUIRE(alltoall == area->single_copy_bytes(remora::coll::Operation::Gather),
            "oversubscribed alltoall single copy from %zu, gather from %zu", alltoall,
            area->single_copy_bytes(remora::coll::Operation::Gather));
  }
  return threshold;
}
