// Application-bypass reduce, no lost wake-up whatever order the ranks arrive in: the ranks
// enter one reduce at a time, in every order of the 4 ranks (24 orders) and in 40 orders of 8
// (reversed, identity and 38 drawn with a fixed seed). A rank enters once the one before it
// has returned, or, when that one is the root (which returns only with the whole result), once
// the root has had time to fall asleep in its wait. So internal nodes meet children that came
// before them (unexpected messages) and after them (a pending descriptor, folded in by the
// next Remora call, the barrier, or by the progress thread), and the root is woken from sleep
// by late children. The root checks every element of every round.
// Ranks sequence themselves through their control-block `exchange` words (used only during
// start-up and segment allocation, neither of which happens here), so that no Remora call, and
// no message, is added between the reduces.
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <random>
#include <vector>

#include "bypass_test_support.hpp"

namespace {

using bypass_test::compute_for;
using bypass_test::node;

constexpr size_t kCount = 5;
constexpr int kRoot = 0;

std::atomic<uint64_t>& exchange(int rank) {
  return node().control_block().rank(rank).exchange;
}

std::vector<std::vector<int>> orders(int size) {
  std::vector<int> order(static_cast<size_t>(size));
  for (int r = 0; r < size; ++r) order[static_cast<size_t>(r)] = r;
  std::vector<std::vector<int>> all;
  if (size <= 4) {
    do all.push_back(order);
    while (std::next_permutation(order.begin(), order.end()));
    return all;
  }
  all.push_back(std::vector<int>(order.rbegin(), order.rend()));
  all.push_back(order);
  std::mt19937 random(2026);  // every rank draws the same orders
  while (all.size() < 40) {
    std::shuffle(order.begin(), order.end(), random);
    all.push_back(order);
  }
  return all;
}

void reduce_in_order(int round, const std::vector<int>& order, int rank, int size) {
  remora_comm_t world = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  const auto position =
      static_cast<size_t>(std::find(order.begin(), order.end(), rank) - order.begin());
  const uint64_t turn = static_cast<uint64_t>(round) + 1;  // fresh value every round
  if (position > 0) {
    const int before = order[position - 1];
    while (exchange(before).load(std::memory_order_acquire) != turn) sched_yield();
    if (before == kRoot) compute_for(300);  // the root is asleep (or about to be) by now
  }
  std::vector<int64_t> send(kCount), recv(kCount, -1);
  for (size_t i = 0; i < kCount; ++i) send[i] = round * 1000 + rank * 10 + static_cast<int64_t>(i);
  // The root signals before it blocks; the others once their contribution is made.
  if (rank == kRoot) exchange(rank).store(turn, std::memory_order_release);
  REQUIRE_OK(remora_reduce(send.data(), recv.data(), kCount, REMORA_INT64, REMORA_OP_SUM, kRoot,
                           world, REMORA_COLL_APPLICATION_BYPASS));
  if (rank != kRoot) {
    exchange(rank).store(turn, std::memory_order_release);
    return;
  }
  for (size_t i = 0; i < kCount; ++i) {
    int64_t expected = 0;
    for (int r = 0; r < size; ++r) expected += round * 1000 + r * 10 + static_cast<int64_t>(i);
    REQUIRE(recv[i] == expected, "round %d element %zu: %lld, expected %lld", round, i,
            static_cast<long long>(recv[i]), static_cast<long long>(expected));
  }
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  const std::vector<std::vector<int>> all = orders(size);
  for (size_t round = 0; round < all.size(); ++round) {
    REQUIRE_OK(remora_barrier());
    reduce_in_order(static_cast<int>(round), all[round], rank, size);
  }
  REQUIRE_OK(remora_barrier());
  REQUIRE(bypass_test::runtime().collectives->bypass_reduce().pending() == 0,
          "descriptors left behind");
  if (rank == kRoot) std::printf("%zu orders of %d ranks reduced and checked\n", all.size(), size);
  REQUIRE_OK(remora_finalize());
  return 0;
}
