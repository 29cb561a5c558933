// A fence completes and orders (MPI): after the fence that ends an epoch, every put and
// accumulate of every rank in it is in its target's memory, every get read what its target
// stored before the fence that opened the epoch, and nothing of the next epoch has touched what
// a rank still reads or stores before it enters the fence. Many epochs in a row, on fence=immediate
// and fence=deferred windows, with fences that close and open (no assert) and pairs
// NOSUCCEED / NOPRECEDE; each round one rank enters late, so a fence that lets the others pass
// before it has arrived is caught by the values. On the world and on the even and odd ranks
// apart (a window's members are not the job).
// Layout per rank (int64): two regions of `size` put slots, two accumulate counters, two words
// the owner stores locally; round r uses the ones of parity r % 2, so that checking round r's
// values never races with round r + 1's operations, which may start as soon as the fence ends.
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "multirank.hpp"

namespace {

int rank_, size_;  // in the window's communicator
constexpr int kRounds = 40;

size_t region(int parity, int origin) {
  return static_cast<size_t>(parity * size_ + origin);
}
size_t counter(int parity) {
  return static_cast<size_t>(2 * size_ + parity);
}
size_t local_word(int parity) {
  return static_cast<size_t>(2 * size_ + 2 + parity);
}
size_t words() {
  return static_cast<size_t>(2 * size_ + 4);
}

int64_t put_value(int round, int origin, int target) {
  return 1000000 * round + 1000 * origin + target + 1;
}
int64_t local_value(int round, int owner) {
  return -(1000 * round + owner + 1);
}

// The closing fence of round r: NOSUCCEED every fifth round (the next round then opens with
// NOPRECEDE), else no assert (it closes round r and opens r + 1).
bool closes_only(int round) {
  return round % 5 == 0;
}

void rounds_on(remora_comm_t comm, const std::string& info) {
  REQUIRE_OK(remora_comm_rank(comm, &rank_));
  REQUIRE_OK(remora_comm_size(comm, &size_));
  void* memory = nullptr;
  remora_win_t win = nullptr;
  REQUIRE_OK(remora_win_allocate_comm(comm, 8 * words(), 8, info.c_str(), &memory, &win));
  auto* base = static_cast<int64_t*>(memory);
  for (size_t i = 0; i < words(); ++i) base[i] = 0;
  base[local_word(1)] = local_value(1, rank_);
  std::vector<int64_t> got(static_cast<size_t>(size_));
  for (int round = 1; round <= kRounds; ++round) {
    const int parity = round % 2;
    if (round == 1 || closes_only(round - 1))
      REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOPRECEDE));
    if (round % size_ == rank_) usleep(300);  // the others' fences must wait for this rank
    for (int t = 0; t < size_; ++t) {
      const int64_t v = put_value(round, rank_, t);
      REQUIRE_OK(remora_win_put(win, t, region(parity, rank_), &v, 1, REMORA_INT64));
      const int64_t one = 1;
      REQUIRE_OK(remora_win_accumulate(win, t, counter(parity), &one, 1, REMORA_INT64,
                                       REMORA_OP_SUM, nullptr));
      REQUIRE_OK(remora_win_get(win, t, local_word(parity), &got[static_cast<size_t>(t)], 1,
                                REMORA_INT64));
    }
    // Nobody reads the other parity's word in this epoch; the next one reads it after the fence.
    base[local_word(1 - parity)] = local_value(round + 1, rank_);
    REQUIRE_OK(remora_win_fence(win, closes_only(round) ? REMORA_MODE_NOSUCCEED : 0));
    for (int o = 0; o < size_; ++o)
      REQUIRE(base[region(parity, o)] == put_value(round, o, rank_),
              "%s round %d: slot of origin %d holds %lld", info.c_str(), round, o,
              static_cast<long long>(base[region(parity, o)]));
    const int64_t sum = static_cast<int64_t>(size_) * ((round + 1) / 2);
    REQUIRE(base[counter(parity)] == sum, "%s round %d: counter %lld, expected %lld", info.c_str(),
            round, static_cast<long long>(base[counter(parity)]), static_cast<long long>(sum));
    for (int t = 0; t < size_; ++t)
      REQUIRE(got[static_cast<size_t>(t)] == local_value(round, t),
              "%s round %d: get from %d read %lld, expected %lld", info.c_str(), round, t,
              static_cast<long long>(got[static_cast<size_t>(t)]),
              static_cast<long long>(local_value(round, t)));
  }
  if (!closes_only(kRounds)) REQUIRE_OK(remora_win_fence(win, REMORA_MODE_NOSUCCEED));
  REQUIRE_OK(remora_win_free(&win));
}

}  // namespace

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  remora_test::init(&argc, &argv, &rank, &size);
  remora_comm_t world = nullptr, half = nullptr;
  REQUIRE_OK(remora_comm_world(&world));
  REQUIRE_OK(remora_comm_split(world, rank % 2, 0, &half));
  for (const char* fence : {"fence=immediate", "fence=deferred"}) {
    rounds_on(world, fence);
    rounds_on(half, fence);
  }
  REQUIRE_OK(remora_comm_free(&half));
  REQUIRE_OK(remora_finalize());
  return 0;
}
