// The small path's entry (src/api/coll_api.cpp small_call and the *_full functions,
// coll/shm_fast.cpp ShmCall::begin and end) for the rooted operations of 8 bytes and the calls
// between them: barrier, bcast, gather, gatherv, scatter, scatterv, allreduce and
// reduce_scatter_block back to back with rotating roots, on the world and on communicators of
// two (pairs of world ranks; the last rank alone when the count is odd), more rounds than a
// member's ring of inline slots holds (ShmArea::kSlots), auto and shm asked for in turns. Now and
// then calls with a bad argument at every rank (messages naming the argument), and a bcast whose
// root alone passes a NULL buffer while the others come late: they fail with the root's message,
// most often found announced when their call begins (ShmCall::begin_announced), and the
// communicator stays usable. Every result is checked.
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr int kRounds = 200;

int64_t value(int rank, int round) {
  return static_cast<int64_t>(rank + 1) * 1000 + round;
}

// gatherv's and scatterv's block of rank r in round: 1 or 2 int32 (inline at every size).
size_t block_of(size_t r, int round) {
  return 1 + (r + static_cast<size_t>(round)) % 2;
}

void bad_arguments(remora_comm_t comm, int size) {
  int64_t one = 1, out[16] = {};
  remora_datatype_t unknown;
  const int ninety_nine = 99;
  std::memcpy(&unknown, &ninety_nine, sizeof ninety_nine);
  REQUIRE_ERROR(remora_bcast(&one, 1, REMORA_INT64, size, comm, REMORA_COLL_AUTO), REMORA_ERR_RANK,
                "remora_bcast: root=");
  REQUIRE_ERROR(remora_gather(&one, out, 1, unknown, 0, comm, REMORA_COLL_SHM), REMORA_ERR_ARG,
                "remora_gather: type=99");
  REQUIRE_ERROR(remora_scatter(out, &one, 1, REMORA_INT64, -1, comm, REMORA_COLL_AUTO),
                REMORA_ERR_RANK, "remora_scatter: root=-1");
}

// The root alone passes a NULL buffer; the others call late and fail with its message.
void failing_bcast(remora_comm_t comm, int rank) {
  int64_t item = 5;
  if (rank == 0) {
    REQUIRE_ERROR(remora_bcast(nullptr, 1, REMORA_INT64, 0, comm, REMORA_COLL_AUTO), REMORA_ERR_ARG,
                  "remora_bcast: buffer is NULL");
    return;
  }
  usleep(20000);  // the root's notice is usually here before the call begins
  const int failed = remora_bcast(&item, 1, REMORA_INT64, 0, comm, REMORA_COLL_AUTO);
  REQUIRE(failed < 0 && std::strstr(remora_last_error(), "buffer is NULL") != nullptr,
          "status %d: %s", failed, remora_last_error());
}

void round_on(remora_comm_t comm, int rank, int size, int round) {
  const remora_coll_algorithm_t algorithm = round % 2 == 0 ? REMORA_COLL_AUTO : REMORA_COLL_SHM;
  const auto ranks = static_cast<size_t>(size);
  const int root = round % size;
  REQUIRE_OK(remora_comm_barrier(comm, algorithm));

  int64_t item = rank == root ? value(root, round) : -1;
  REQUIRE_OK(remora_bcast(&item, 1, REMORA_INT64, root, comm, algorithm));
  REQUIRE(item == value(root, round), "round %d bcast: %lld", round, static_cast<long long>(item));

  const int64_t mine = value(rank, round);
  std::vector<int64_t> all(ranks, -1);
  REQUIRE_OK(remora_gather(&mine, all.data(), 1, REMORA_INT64, root, comm, algorithm));
  if (rank == root)
    for (size_t r = 0; r < ranks; ++r)
      REQUIRE(all[r] == value(static_cast<int>(r), round), "round %d gather [%zu]: %lld", round, r,
              static_cast<long long>(all[r]));

  for (size_t r = 0; r < ranks; ++r) all[r] = rank == root ? value(static_cast<int>(r), round) : -1;
  int64_t part = -1;
  REQUIRE_OK(remora_scatter(all.data(), &part, 1, REMORA_INT64, root, comm, algorithm));
  REQUIRE(part == mine, "round %d scatter: %lld", round, static_cast<long long>(part));

  // gatherv and scatterv: rank r's block of block_of(r) int32, r * 10 + i + round
  std::vector<size_t> counts(ranks), displs(ranks);
  size_t total = 0;
  for (size_t r = 0; r < ranks; ++r) {
    counts[r] = block_of(r, round);
    displs[r] = total;
    total += counts[r];
  }
  const auto me = static_cast<size_t>(rank);
  std::vector<int32_t> own(counts[me]), gathered(total, -1), source(total);
  for (size_t i = 0; i < counts[me]; ++i) own[i] = static_cast<int32_t>(me * 10 + i) + round;
  REQUIRE_OK(remora_gatherv(own.data(), counts[me], gathered.data(), counts.data(), displs.data(),
                            REMORA_INT32, root, comm, algorithm));
  for (size_t r = 0; r < ranks; ++r)
    for (size_t i = 0; i < counts[r]; ++i) {
      source[displs[r] + i] = static_cast<int32_t>(r * 10 + i) + round;
      if (rank == root)
        REQUIRE(gathered[displs[r] + i] == source[displs[r] + i], "round %d gatherv [%zu][%zu]: %d",
                round, r, i, gathered[displs[r] + i]);
    }
  std::vector<int32_t> received(counts[me], -1);
  REQUIRE_OK(remora_scatterv(source.data(), counts.data(), displs.data(), received.data(),
                             counts[me], REMORA_INT32, root, comm, algorithm));
  REQUIRE(received == own, "round %d scatterv", round);

  int64_t sum = -1, expected = 0;
  for (int r = 0; r < size; ++r) expected += value(r, round);
  REQUIRE_OK(remora_allreduce(&mine, &sum, 1, REMORA_INT64, REMORA_OP_SUM, comm, algorithm));
  REQUIRE(sum == expected, "round %d allreduce: %lld", round, static_cast<long long>(sum));

  std::vector<int32_t> blocks(ranks);
  for (size_t b = 0; b < ranks; ++b) blocks[b] = rank * 100 + static_cast<int32_t>(b) + round;
  int32_t reduced = -1, wanted = 0;
  for (int r = 0; r < size; ++r) wanted += r * 100 + rank + round;
  REQUIRE_OK(remora_reduce_scatter_block(blocks.data(), &reduced, 1, REMORA_INT32, REMORA_OP_SUM,
                                         comm, algorithm));
  REQUIRE(reduced == wanted, "round %d reduce_scatter_block: %d, expected %d", round, reduced,
          wanted);

  if (round % 50 == 11) bad_arguments(comm, size);
  if (round % 50 == 31 && size > 1) failing_bcast(comm, rank);
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  remora_comm_t world, pair;
  REQUIRE_OK(remora_comm_world(&world));
  const int rank = remora_rank(), size = remora_size();
  REQUIRE_OK(remora_comm_split(world, rank / 2, rank, &pair));
  int pair_rank = -1, pair_size = 0;
  REQUIRE_OK(remora_comm_rank(pair, &pair_rank));
  REQUIRE_OK(remora_comm_size(pair, &pair_size));
  // Rounds on the pairs and the world in turns (the pairs' calls overlap on the world's ranks).
  for (int round = 0; round < kRounds; ++round) {
    round_on(pair, pair_rank, pair_size, round);
    if (round % 4 == 0) round_on(world, rank, size, round);
  }
  REQUIRE_OK(remora_comm_free(&pair));
  REQUIRE_OK(remora_finalize());
  return 0;
}
