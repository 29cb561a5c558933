#include "coll/algorithm.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "core/config.hpp"
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

// The consequences of the one list (coll/algorithms/list.def).
TEST(AlgorithmList, EveryDescriptorIsOneValueOfTheCEnumAndItsNameParsesBack) {
  std::set<int> values;
  std::set<std::string> names{"auto"};
  for (const AlgorithmDescriptor* descriptor : algorithms()) {
    const int value = static_cast<int>(descriptor->algorithm);
    EXPECT_GT(value, REMORA_COLL_AUTO) << descriptor->name;
    // The signature of a call (coll/signature.cpp) keeps the algorithm in 5 bits.
    EXPECT_LT(value, 32) << descriptor->name;
    EXPECT_TRUE(values.insert(value).second) << descriptor->name << " repeats value " << value;
    EXPECT_TRUE(names.insert(descriptor->name).second) << descriptor->name << " repeats";
    EXPECT_EQ(find_algorithm(value), descriptor);
    EXPECT_STREQ(algorithm_name(descriptor->algorithm), descriptor->name);
    Algorithm parsed = Algorithm::Auto;
    EXPECT_TRUE(parse_algorithm(descriptor->name, &parsed));
    EXPECT_EQ(parsed, descriptor->algorithm);
    EXPECT_NE(descriptor->operations, 0u) << descriptor->name << " serves no operation";
    EXPECT_EQ(descriptor->operations >> kOperationCount, 0u) << descriptor->name;
    EXPECT_NE(descriptor->build, nullptr) << descriptor->name;
  }
  // The values are 1..N: no value of the C enum between AUTO and the last is left without one.
  ASSERT_FALSE(values.empty());
  EXPECT_EQ(static_cast<int>(values.size()), *values.rbegin());
  EXPECT_GE(*values.rbegin(), REMORA_COLL_SHM);
  EXPECT_EQ(find_algorithm(REMORA_COLL_AUTO), nullptr);
  EXPECT_EQ(find_algorithm(-1), nullptr);
  EXPECT_EQ(find_algorithm(*values.rbegin() + 1), nullptr);
  Algorithm auto_parsed = Algorithm::Ring;
  EXPECT_TRUE(parse_algorithm("auto", &auto_parsed));
  EXPECT_EQ(auto_parsed, Algorithm::Auto);
  Algorithm unchanged = Algorithm::Ring;
  EXPECT_FALSE(parse_algorithm("bogus", &unchanged));
  EXPECT_EQ(unchanged, Algorithm::Ring);
}

TEST(AlgorithmList, EveryOperationHasAnAlgorithmThatRunsAnywhereAndItsNameParsesBack) {
  for (int index = 0; index < kOperationCount; ++index) {
    const auto operation = static_cast<Operation>(index);
    Operation parsed = Operation::Barrier;
    EXPECT_TRUE(parse_operation(operation_name(operation), &parsed));
    EXPECT_EQ(parsed, operation);
    bool anywhere = false;
    for (const AlgorithmDescriptor* descriptor : algorithms())
      if (contains(descriptor->operations, operation) &&
          (descriptor->constraints & kNeedsSharedArea) == 0)
        anywhere = true;
    EXPECT_TRUE(anywhere) << operation_name(operation);
  }
  Operation unchanged = Operation::Scan;
  EXPECT_FALSE(parse_operation("allreduce_v", &unchanged));
  EXPECT_EQ(unchanged, Operation::Scan);
}

// The REMORA_<OPERATION> variables of config_vars.def offer exactly the list's algorithms of
// their operation, in the list's order.
TEST(AlgorithmList, ConfigurationChoicesAreTheListsAlgorithms) {
  const std::map<std::string, Operation> variables = {
      {"REMORA_BCAST", Operation::Bcast},         {"REMORA_REDUCE", Operation::Reduce},
      {"REMORA_ALLREDUCE", Operation::Allreduce}, {"REMORA_GATHER", Operation::Gather},
      {"REMORA_SCATTER", Operation::Scatter},     {"REMORA_ALLTOALL", Operation::Alltoall}};
  size_t seen = 0;
  for (const VarSpec& spec : config_registry()) {
    const auto variable = variables.find(spec.name);
    if (variable == variables.end()) continue;
    ++seen;
    EXPECT_EQ(std::string(spec.constraint), supported_names(variable->second, "|")) << spec.name;
    EXPECT_STREQ(spec.default_value, "auto") << spec.name;
  }
  EXPECT_EQ(seen, variables.size());
}

TEST(AlgorithmList, ConstraintsOfTheSharedMemoryAndBypassAlgorithms) {
  EXPECT_TRUE(has_constraint(Algorithm::Shm, kNeedsSharedArea));
  EXPECT_TRUE(has_constraint(Algorithm::Shm, kIgnoresRankOrder));
  EXPECT_TRUE(has_constraint(Algorithm::ApplicationBypass, kIgnoresRankOrder));
  EXPECT_FALSE(has_constraint(Algorithm::ApplicationBypass, kNeedsSharedArea));
  EXPECT_FALSE(has_constraint(Algorithm::Binomial, kIgnoresRankOrder));
  EXPECT_FALSE(has_constraint(Algorithm::Auto, kNeedsSharedArea));
  EXPECT_FALSE(has_constraint(Algorithm::Shm, kRegularBlocksOnly));
  EXPECT_TRUE(has_constraint(Algorithm::Hierarchical, kRegularBlocksOnly));
}

TEST(Algorithm, OperationsAcceptTheirAlgorithmsOnly) {
  EXPECT_TRUE(supports(Operation::Gather, Algorithm::Sequential));
  EXPECT_TRUE(supports(Operation::Alltoall, Algorithm::Bruck));
  EXPECT_TRUE(supports(Operation::Bcast, Algorithm::Auto));
  EXPECT_FALSE(supports(Operation::Bcast, Algorithm::Bruck));
  EXPECT_FALSE(supports(Operation::Scatter, Algorithm::Sequential));
  EXPECT_EQ(supported_names(Operation::Allreduce),
            "auto, recursive_doubling, ring, rabenseifner, shm, hierarchical");
  for (Operation operation : {Operation::Barrier, Operation::Bcast, Operation::Reduce,
                              Operation::Allreduce, Operation::ReduceScatter, Operation::Allgather,
                              Operation::Gather, Operation::Scatter, Operation::Alltoall})
    EXPECT_TRUE(supports(operation, Algorithm::Shm));
  EXPECT_FALSE(supports(Operation::Scan, Algorithm::Shm));
}

// supports() answers from a table by value; it must say what each descriptor says, and no for
// values that name no algorithm.
TEST(Algorithm, SupportsAgreesWithTheDescriptors) {
  for (const AlgorithmDescriptor* descriptor : algorithms())
    for (int operation = 0; operation < kOperationCount; ++operation)
      EXPECT_EQ(supports(static_cast<Operation>(operation), descriptor->algorithm),
                contains(descriptor->operations, static_cast<Operation>(operation)))
          << descriptor->name << " " << operation;
  for (int value : {-5, -1, static_cast<int>(Algorithm::Hierarchical) + 1, 1000}) {
    EXPECT_EQ(find_algorithm(value), nullptr) << value;
    for (int operation = 0; operation < kOperationCount; ++operation)
      EXPECT_FALSE(supports(static_cast<Operation>(operation), static_cast<Algorithm>(value)))
          << value;
  }
}

TEST(Algorithm, DefaultsAreSupportedAndFollowTheMessageSize) {
  for (int operation = 0; operation < kOperationCount; ++operation)
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
