#include "coll/algorithm.hpp"

#include <gtest/gtest.h>

#include "remora/coll.h"

namespace remora::coll {
namespace {

TEST(Algorithm, EnumMatchesTheCApi) {
  EXPECT_EQ(static_cast<int>(Algorithm::Auto), REMORA_COLL_AUTO);
  EXPECT_EQ(static_cast<int>(Algorithm::Dissemination), REMORA_COLL_DISSEMINATION);
  EXPECT_EQ(static_cast<int>(Algorithm::ScatterAllgather), REMORA_COLL_SCATTER_ALLGATHER);
  EXPECT_EQ(static_cast<int>(Algorithm::Rabenseifner), REMORA_COLL_RABENSEIFNER);
  EXPECT_EQ(static_cast<int>(Algorithm::Pairwise), REMORA_COLL_PAIRWISE);
  EXPECT_EQ(static_cast<int>(Algorithm::Shm), REMORA_COLL_SHM);
}

TEST(Algorithm, NamesParseBack) {
  for (int index = 0; index < kAlgorithmCount; ++index) {
    Algorithm parsed = Algorithm::Auto;
    const auto algorithm = static_cast<Algorithm>(index);
    EXPECT_TRUE(parse_algorithm(algorithm_name(algorithm), &parsed));
    EXPECT_EQ(parsed, algorithm);
  }
  Algorithm unchanged = Algorithm::Ring;
  EXPECT_FALSE(parse_algorithm("bogus", &unchanged));
  EXPECT_EQ(unchanged, Algorithm::Ring);
}

TEST(Algorithm, OperationsAcceptTheirAlgorithmsOnly) {
  EXPECT_TRUE(supports(Operation::Gather, Algorithm::Sequential));
  EXPECT_TRUE(supports(Operation::Alltoall, Algorithm::Bruck));
  EXPECT_TRUE(supports(Operation::Bcast, Algorithm::Auto));
  EXPECT_FALSE(supports(Operation::Bcast, Algorithm::Bruck));
  EXPECT_FALSE(supports(Operation::Scatter, Algorithm::Sequential));
  EXPECT_EQ(supported_names(Operation::Allreduce),
            "auto, recursive_doubling, ring, rabenseifner, shm");
  for (Operation operation : {Operation::Barrier, Operation::Bcast, Operation::Reduce,
                              Operation::Allreduce, Operation::ReduceScatter, Operation::Allgather})
    EXPECT_TRUE(supports(operation, Algorithm::Shm));
  for (Operation operation :
       {Operation::Gather, Operation::Scatter, Operation::Alltoall, Operation::Scan})
    EXPECT_FALSE(supports(operation, Algorithm::Shm));
}

TEST(Algorithm, DefaultsAreSupportedAndFollowTheMessageSize) {
  for (int operation = 0; operation <= static_cast<int>(Operation::Scan); ++operation)
    for (size_t bytes : {size_t{0}, size_t{8}, size_t{1} << 20})
      for (int size : {1, 2, 7, 64}) {
        const Algorithm chosen = default_algorithm(static_cast<Operation>(operation), bytes, size);
        EXPECT_NE(chosen, Algorithm::Auto);
        EXPECT_TRUE(supports(static_cast<Operation>(operation), chosen));
      }
  EXPECT_EQ(default_algorithm(Operation::Allreduce, 8, 16), Algorithm::RecursiveDoubling);
  EXPECT_EQ(default_algorithm(Operation::Allreduce, 1 << 20, 16), Algorithm::Rabenseifner);
  EXPECT_EQ(default_algorithm(Operation::Bcast, 1 << 20, 16), Algorithm::Binomial);
  EXPECT_EQ(default_algorithm(Operation::Gather, 64 << 10, 4), Algorithm::Flat);
  EXPECT_EQ(default_algorithm(Operation::Gather, 1 << 20, 8), Algorithm::Sequential);
  EXPECT_EQ(default_algorithm(Operation::Gather, 1 << 20, 2), Algorithm::Binomial);
  EXPECT_EQ(default_algorithm(Operation::Scatter, 8, 8), Algorithm::Binomial);
  EXPECT_EQ(default_algorithm(Operation::Alltoall, 8, 8), Algorithm::Pairwise);
  EXPECT_EQ(default_algorithm(Operation::Alltoall, 1 << 20, 4), Algorithm::Ring);
}

}  // namespace
}  // namespace remora::coll
