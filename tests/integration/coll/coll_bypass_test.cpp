// Application-bypass reduce (paper 002) under skew: back-to-back reductions with ranks delayed
// at random by busy loops that never call Remora, overlapping reductions on two communicators
// and blocking and nonblocking ones on one, and the fallback to the binomial reduce above
// REMORA_BYPASS_EAGER_BYTES. Every result is checked exactly, and no descriptor may be left behind
// at the end.
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "bypass_test_support.hpp"
#include "coll/tree.hpp"

namespace {

using bypass_test::compute_for;
using bypass_test::runtime;

constexpr int kSkewedReductions = 10000;
constexpr int kOverlappedRounds = 500;
constexpr unsigned kMaxSkewUs = 300;

remora::coll::BypassReduce& bypass() {
  return runtime().collectives->bypass_reduce();
}

// One rank in four is late by up to kMaxSkewUs, a different one each time.
void skew(std::mt19937& random) {
  if (random() % 4 == 0) compute_for(static_cast<unsigned>(random() % kMaxSkewUs));
}

// Small integers, so that sums are exact in any order, as doubles too.
int64_t value(uint64_t instance, int rank, size_t i) {
  return static_cast<int64_t>((instance * 31 + static_cast<uint64_t>(rank) * 7 + i) % 1000);
}

int64_t sum_over_ranks(uint64_t instance, int size, size_t i) {
  int64_t total = 0;
  for (int rank = 0; rank < size; ++rank) total += value(instance, rank, i);
  return total;
}

template <typename T>
std::vector<T> inputs(uint64_t instance, int rank, size_t count) {
  std::vector<T> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = static_cast<T>(value(instance, rank, i));
  return values;
}

template <typename T>
void expect_sum(const std::vector<T>& result, uint64_t instance, int size, const char* what) {
  for (size_t i = 0; i < result.size(); ++i)
    REQUIRE(result[i] == static_cast<T>(sum_over_ranks(instance, size, i)),
            "%s: reduction %llu element %zu is wrong", what,
            static_cast<unsigned long long>(instance), i);
}

// One blocking bypass reduce; the send buffer is overwritten as soon as the call returns, so a
// rank that returned early must have copied it.
template <typename T>
void reduce_once(remora_datatype_t type, uint64_t instance, size_t count, int root,
                 remora_comm_t comm, int rank, int size) {
  std::vector<T> send = inputs<T>(instance, rank, count), recv(count);
  REQUIRE_OK(remora_reduce(send.data(), recv.data(), count, type, REMORA_OP_SUM, root, comm,
                           REMORA_COLL_APPLICATION_BYPASS));
  std::fill(send.begin(), send.end(), static_cast<T>(-12345));
  if (rank == root) expect_sum(recv, instance, size, "skewed");
}

// Back-to-back reductions, roots rotating, integer (folded on arrival) and floating point
// (folded in a fixed order) alternating.
void skewed(remora_comm_t world, int rank, int size) {
  std::mt19937 random(static_cast<unsigned>(rank) * 7919u + 1u);
  for (int i = 0; i < kSkewedReductions; ++i) {
    skew(random);
    const auto instance = static_cast<uint64_t>(i);
    const size_t count = 1 + static_cast<size_t>(i % 4);
    const int root = i % size;
    if (i % 3 == 2) {
      reduce_once<double>(REMORA_DOUBLE, instance, count, root, world, rank, size);
    } else {
      reduce_once<int64_t>(REMORA_INT64, instance, count, root, world, rank, size);
    }
  }
}

// Reductions on two communicators overlap: an ireduce on one is outstanding while a blocking
// reduce runs on the other, with different roots and trees (the second reverses the ranks).
void overlapped(remora_comm_t world, int rank) {
  remora_comm_t same = REMORA_COMM_NULL, reversed = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_dup(world, &same));
  REQUIRE_OK(remora_comm_split(world, 0, -rank, &reversed));
  int size = 0, reversed_rank = 0;
  REQUIRE_OK(remora_comm_size(same, &size));
  REQUIRE_OK(remora_comm_rank(reversed, &reversed_rank));
  std::mt19937 random(static_cast<unsigned>(rank) + 17u);
  constexpr size_t kCount = 3;
  for (int round = 0; round < kOverlappedRounds; ++round) {
    const auto instance = static_cast<uint64_t>(round) + 100000;
    const int root_same = round % size, root_reversed = (round * 3 + 1) % size;
    std::vector<int64_t> send_reversed = inputs<int64_t>(instance + 1, reversed_rank, kCount);
    std::vector<int64_t> recv_reversed(kCount), recv_same(kCount);
    remora_request_t request = REMORA_REQUEST_NULL;
    REQUIRE_OK(remora_ireduce(send_reversed.data(), recv_reversed.data(), kCount, REMORA_INT64,
                              REMORA_OP_SUM, root_reversed, reversed,
                              REMORA_COLL_APPLICATION_BYPASS, &request));
    skew(random);
    std::vector<int64_t> send_same = inputs<int64_t>(instance, rank, kCount);
    REQUIRE_OK(remora_reduce(send_same.data(), recv_same.data(), kCount, REMORA_INT64,
                             REMORA_OP_SUM, root_same, same, REMORA_COLL_APPLICATION_BYPASS));
    REQUIRE_OK(remora_request_wait(&request));
    if (rank == root_same) expect_sum(recv_same, instance, size, "overlapped (dup)");
    if (reversed_rank == root_reversed)
      expect_sum(recv_reversed, instance + 1, size, "overlapped (reversed split)");
  }
  REQUIRE_OK(remora_comm_free(&same));
  REQUIRE_OK(remora_comm_free(&reversed));
}

// Blocking reduces (at a non-root rank a contribution without a schedule) and ireduces (a
// schedule everywhere) alternate and overlap on one communicator: both kinds take their
// instance numbers from the same counter, so every message still meets its own reduction.
void mixed_forms(remora_comm_t world, int rank, int size) {
  std::mt19937 random(static_cast<unsigned>(rank) + 29u);
  constexpr size_t kCount = 2;
  for (int round = 0; round < kOverlappedRounds; ++round) {
    const auto instance = static_cast<uint64_t>(round) + 200000;
    const int root_nonblocking = round % size, root_blocking = (round + 1) % size;
    std::vector<int64_t> send_nonblocking = inputs<int64_t>(instance, rank, kCount);
    std::vector<int64_t> recv_nonblocking(kCount), recv_blocking(kCount);
    remora_request_t request = REMORA_REQUEST_NULL;
    REQUIRE_OK(remora_ireduce(send_nonblocking.data(), recv_nonblocking.data(), kCount,
                              REMORA_INT64, REMORA_OP_SUM, root_nonblocking, world,
                              REMORA_COLL_APPLICATION_BYPASS, &request));
    skew(random);
    std::vector<int64_t> send_blocking = inputs<int64_t>(instance + 1, rank, kCount);
    REQUIRE_OK(remora_reduce(send_blocking.data(), recv_blocking.data(), kCount, REMORA_INT64,
                             REMORA_OP_SUM, root_blocking, world, REMORA_COLL_APPLICATION_BYPASS));
    REQUIRE_OK(remora_request_wait(&request));
    if (rank == root_nonblocking) expect_sum(recv_nonblocking, instance, size, "mixed (ireduce)");
    if (rank == root_blocking) expect_sum(recv_blocking, instance + 1, size, "mixed (reduce)");
  }
}

// Up to the eager limit an internal node delegates (it makes a descriptor) and every non-root
// rank contributes without a schedule; one byte more and every rank runs the binomial reduce
// instead, still with the right result.
void eager_limit(remora_comm_t world, int rank, int size) {
  const size_t limit = runtime().config.bypass_eager_bytes / sizeof(int64_t);
  // Rooted at 0 (relative ranks are ranks): a rank with children (none in a flat tree).
  const bool internal =
      rank > 0 && !remora::coll::tree_node(bypass().shape(size), rank, size).children.empty();
  for (size_t count : {limit, limit + 1}) {
    const uint64_t before = bypass().descriptors_created();
    const uint64_t before_scheduled = runtime().collectives->instances().begun();
    std::vector<int64_t> send = inputs<int64_t>(count, rank, count), recv(count);
    REQUIRE_OK(remora_reduce(send.data(), recv.data(), count, REMORA_INT64, REMORA_OP_SUM, 0, world,
                             REMORA_COLL_APPLICATION_BYPASS));
    if (rank == 0) expect_sum(recv, count, size, "eager limit");
    const uint64_t made = bypass().descriptors_created() - before;
    const uint64_t expected = internal && count == limit ? 1 : 0;
    REQUIRE(made == expected, "count=%zu (limit %zu elements): %llu descriptors, expected %llu",
            count, limit, static_cast<unsigned long long>(made),
            static_cast<unsigned long long>(expected));
    // A contribution without a schedule begins no scheduled instance; every other call one.
    const uint64_t scheduled = runtime().collectives->instances().begun() - before_scheduled;
    const uint64_t expected_scheduled = rank != 0 && count == limit ? 0 : 1;
    REQUIRE(scheduled == expected_scheduled,
            "count=%zu (limit %zu elements): %llu instances with a schedule, expected %llu", count,
            limit, static_cast<unsigned long long>(scheduled),
            static_cast<unsigned long long>(expected_scheduled));
  }
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  remora_comm_t world = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  const int rank = remora_rank(), size = remora_size();
  skewed(world, rank, size);
  overlapped(world, rank);
  mixed_forms(world, rank, size);
  eager_limit(world, rank, size);
  // Every root has its results, and each descriptor was retired before its result was sent:
  // after a barrier nothing may be pending anywhere.
  REQUIRE_OK(remora_barrier());
  REQUIRE(bypass().pending() == 0, "%zu descriptors left behind", bypass().pending());
  std::printf("rank %d: %llu descriptors, %llu returned before all children arrived\n", rank,
              static_cast<unsigned long long>(bypass().descriptors_created()),
              static_cast<unsigned long long>(bypass().returned_early()));
  REQUIRE_OK(remora_finalize());
  return 0;
}
