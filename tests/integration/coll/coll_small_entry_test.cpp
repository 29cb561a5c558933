// The small path's entry (src/api/coll_api.cpp small_call, Collectives::run_small) for barrier,
// 8-byte allreduce and reduce_scatter_block: back to back on one communicator with auto and shm
// asked for in turns, int64 sum and double max, in place and not; now and then an iallreduce
// outstanding while blocking calls run behind it (they take the schedule path), and calls with
// a bad argument at every rank, which must still fail with a message naming the argument and
// leave the communicator usable. Every result is checked.
#include <cstdint>
#include <cstring>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr int kRounds = 300;

int64_t value(int rank, int round) {
  return static_cast<int64_t>(rank + 1) * 1000 + round;
}

// The sum of value(r, round) over the ranks.
int64_t sum_of(int size, int round) {
  int64_t total = 0;
  for (int r = 0; r < size; ++r) total += value(r, round);
  return total;
}

void bad_arguments(remora_comm_t world) {
  remora_coll_algorithm_t unknown;
  const int ninety_nine = 99;
  std::memcpy(&unknown, &ninety_nine, sizeof ninety_nine);
  int64_t one = 1, out = 0;
  int32_t block[16] = {};
  REQUIRE_ERROR(remora_comm_barrier(world, unknown), REMORA_ERR_ARG,
                "remora_comm_barrier: algorithm=99");
  REQUIRE_ERROR(remora_comm_barrier(REMORA_COMM_NULL, REMORA_COLL_AUTO), REMORA_ERR_ARG,
                "remora_comm_barrier: comm is REMORA_COMM_NULL");
  REQUIRE_ERROR(
      remora_allreduce(&one, nullptr, 1, REMORA_INT64, REMORA_OP_SUM, world, REMORA_COLL_SHM),
      REMORA_ERR_ARG, "remora_allreduce: recvbuf is NULL");
  REQUIRE_ERROR(
      remora_allreduce(&one, &out, 1, REMORA_INT64, REMORA_OP_REPLACE, world, REMORA_COLL_AUTO),
      REMORA_ERR_ARG, "op=REMORA_OP_REPLACE");
  REQUIRE_ERROR(remora_reduce_scatter_block(nullptr, block, 1, REMORA_INT32, REMORA_OP_SUM, world,
                                            REMORA_COLL_AUTO),
                REMORA_ERR_ARG, "remora_reduce_scatter_block: sendbuf is NULL");
  REQUIRE_ERROR(
      remora_reduce_scatter_block(block, block, 1, REMORA_INT32, REMORA_OP_SUM, world, unknown),
      REMORA_ERR_ARG, "algorithm=99");
}

void round_on(remora_comm_t world, int rank, int size, int round) {
  const remora_coll_algorithm_t algorithm = round % 2 == 0 ? REMORA_COLL_AUTO : REMORA_COLL_SHM;
  const auto ranks = static_cast<size_t>(size);
  REQUIRE_OK(remora_comm_barrier(world, algorithm));

  // allreduce of 8 bytes: int64 sum, in place every third round
  int64_t mine = value(rank, round), total = -1;
  if (round % 3 == 0) {
    total = mine;
    REQUIRE_OK(remora_allreduce(REMORA_IN_PLACE, &total, 1, REMORA_INT64, REMORA_OP_SUM, world,
                                algorithm));
  } else {
    REQUIRE_OK(remora_allreduce(&mine, &total, 1, REMORA_INT64, REMORA_OP_SUM, world, algorithm));
  }
  REQUIRE(total == sum_of(size, round), "round %d allreduce sum: %lld", round,
          static_cast<long long>(total));
  // double max
  double real = static_cast<double>(value(rank, round)), largest = -1;
  REQUIRE_OK(remora_allreduce(&real, &largest, 1, REMORA_DOUBLE, REMORA_OP_MAX, world, algorithm));
  REQUIRE(largest == static_cast<double>(value(size - 1, round)), "round %d allreduce max: %g",
          round, largest);

  // reduce_scatter_block: count 1 to 3 int32 per rank; element i of block b from rank r is
  // r * 100 + b * 10 + i + round
  const size_t count = 1 + static_cast<size_t>(round % 3);
  std::vector<int32_t> send(count * ranks), recv(count, -1);
  for (size_t b = 0; b < ranks; ++b)
    for (size_t i = 0; i < count; ++i)
      send[b * count + i] = rank * 100 + static_cast<int32_t>(b * 10 + i) + round;
  const bool in_place = round % 4 == 3;
  if (in_place) {
    REQUIRE_OK(remora_reduce_scatter_block(REMORA_IN_PLACE, send.data(), count, REMORA_INT32,
                                           REMORA_OP_SUM, world, algorithm));
    recv.assign(send.begin(), send.begin() + static_cast<std::ptrdiff_t>(count));
  } else {
    REQUIRE_OK(remora_reduce_scatter_block(send.data(), recv.data(), count, REMORA_INT32,
                                           REMORA_OP_SUM, world, algorithm));
  }
  for (size_t i = 0; i < count; ++i) {
    int32_t expected = 0;
    for (int r = 0; r < size; ++r)
      expected += r * 100 + static_cast<int32_t>(static_cast<size_t>(rank) * 10 + i) + round;
    REQUIRE(recv[i] == expected, "round %d reduce_scatter_block [%zu]: %d, expected %d", round, i,
            recv[i], expected);
  }

  // An iallreduce outstanding while a barrier and an allreduce run behind it.
  if (round % 16 == 5) {
    int64_t started = value(rank, round + 1), started_total = -1, behind = -1;
    remora_request_t request;
    REQUIRE_OK(remora_iallreduce(&started, &started_total, 1, REMORA_INT64, REMORA_OP_SUM, world,
                                 REMORA_COLL_AUTO, &request));
    REQUIRE_OK(remora_comm_barrier(world, algorithm));
    REQUIRE_OK(remora_allreduce(&mine, &behind, 1, REMORA_INT64, REMORA_OP_SUM, world, algorithm));
    REQUIRE_OK(remora_request_wait(&request));
    REQUIRE(started_total == sum_of(size, round + 1), "round %d iallreduce: %lld", round,
            static_cast<long long>(started_total));
    REQUIRE(behind == sum_of(size, round), "round %d allreduce behind iallreduce: %lld", round,
            static_cast<long long>(behind));
  }
  if (round % 50 == 7) bad_arguments(world);
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  remora_comm_t world;
  REQUIRE_OK(remora_comm_world(&world));
  for (int round = 0; round < kRounds; ++round)
    round_on(world, remora_rank(), remora_size(), round);
  REQUIRE_OK(remora_finalize());
  return 0;
}
