// One rank on each of two "hosts" (network namespaces joined by a veth pair, see
// two_hosts.sh): Remora must see two nodes and move data between them over MPI only. Puts,
// gets, accumulates, atomics and collectives, each checked against values computed here.
#include <cstdint>
#include <cstring>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr size_t kBytes = size_t{1} << 20;

uint8_t pattern(size_t i, int rank) {
  return static_cast<uint8_t>(i * 7 + static_cast<size_t>(rank) * 13);
}

void rdma(int rank, int peer) {
  remora_segment_t segment = nullptr;
  REQUIRE_OK(remora_segment_allocate(kBytes, &segment));
  void* local = nullptr;
  REQUIRE_OK(remora_segment_pointer(segment, rank, &local));
  std::vector<uint8_t> out(kBytes), in(kBytes);
  for (size_t i = 0; i < kBytes; ++i) out[i] = pattern(i, rank);
  for (size_t bytes : {size_t{8}, size_t{4096}, kBytes}) {
    std::memset(local, 0, kBytes);
    REQUIRE_OK(remora_barrier());
    REQUIRE_OK(remora_put(segment, peer, 0, out.data(), bytes));
    REQUIRE_OK(remora_flush(segment, peer));
    REQUIRE_OK(remora_barrier());
    const auto* mine = static_cast<const uint8_t*>(local);
    for (size_t i = 0; i < bytes; ++i)
      REQUIRE(mine[i] == pattern(i, peer), "put of %zu bytes: byte %zu is %u", bytes, i, mine[i]);
    REQUIRE_OK(remora_get(segment, peer, 0, in.data(), bytes));  // holds my pattern now
    for (size_t i = 0; i < bytes; ++i)
      REQUIRE(in[i] == pattern(i, rank), "get of %zu bytes: byte %zu is %u", bytes, i, in[i]);
    REQUIRE_OK(remora_barrier());
  }
  // Atomics: both ranks add to rank 0's first word.
  std::memset(local, 0, 8);
  REQUIRE_OK(remora_barrier());
  int64_t old = 0;
  for (int i = 0; i < 500; ++i) REQUIRE_OK(remora_fetch_add(segment, 0, 0, rank + 1, &old));
  REQUIRE_OK(remora_barrier());
  if (rank == 0) {
    int64_t total = 0;
    std::memcpy(&total, local, sizeof total);
    REQUIRE(total == 500 * 3, "fetch_add total %lld", static_cast<long long>(total));
  }
  REQUIRE_OK(remora_barrier());
  REQUIRE_OK(remora_segment_free(&segment));
}

void accumulate(int rank, int peer) {
  constexpr size_t kCount = 4096;
  void* base = nullptr;
  remora_win_t win = nullptr;
  REQUIRE_OK(remora_win_allocate(kCount * sizeof(double), sizeof(double), nullptr, &base, &win));
  std::vector<double> add(kCount);
  for (size_t i = 0; i < kCount; ++i) add[i] = static_cast<double>(i) + rank;
  REQUIRE_OK(remora_win_lock_all(win, 0));
  for (int round = 0; round < 10; ++round)
    REQUIRE_OK(remora_win_accumulate(win, peer, 0, add.data(), kCount, REMORA_DOUBLE, REMORA_OP_SUM,
                                     nullptr));
  REQUIRE_OK(remora_win_flush(win, peer));
  REQUIRE_OK(remora_win_unlock_all(win));
  REQUIRE_OK(remora_barrier());
  const auto* mine = static_cast<const double*>(base);
  for (size_t i = 0; i < kCount; ++i)
    REQUIRE(mine[i] == 10.0 * (static_cast<double>(i) + peer), "acc element %zu is %g", i, mine[i]);
  REQUIRE_OK(remora_win_free(&win));
}

void collectives(int rank, int size) {
  remora_comm_t world;
  REQUIRE_OK(remora_comm_world(&world));
  int64_t one = rank + 1, sum = 0;
  REQUIRE_OK(remora_allreduce(&one, &sum, 1, REMORA_INT64, REMORA_OP_SUM, world, REMORA_COLL_AUTO));
  REQUIRE(sum == size * (size + 1) / 2, "allreduce gave %lld", static_cast<long long>(sum));
  // 1 MiB: above the rendezvous threshold, whose single-copy read cannot cross hosts.
  std::vector<int32_t> data(kBytes / sizeof(int32_t));
  for (size_t i = 0; i < data.size(); ++i) data[i] = rank == 0 ? static_cast<int32_t>(i * 3) : -1;
  REQUIRE_OK(remora_bcast(data.data(), data.size(), REMORA_INT32, 0, world, REMORA_COLL_AUTO));
  for (size_t i = 0; i < data.size(); ++i)
    REQUIRE(data[i] == static_cast<int32_t>(i * 3), "bcast element %zu is %d", i, data[i]);
  std::vector<int32_t> send(static_cast<size_t>(size) * 1000), recv(send.size());
  for (size_t i = 0; i < send.size(); ++i) send[i] = rank * 100000 + static_cast<int32_t>(i);
  REQUIRE_OK(
      remora_alltoall(send.data(), recv.data(), 1000, REMORA_INT32, world, REMORA_COLL_AUTO));
  for (int from = 0; from < size; ++from)
    for (size_t j = 0; j < 1000; ++j) {
      const size_t at = static_cast<size_t>(from) * 1000 + j;
      const int32_t expected = from * 100000 + rank * 1000 + static_cast<int32_t>(j);
      REQUIRE(recv[at] == expected, "alltoall element %zu is %d", at, recv[at]);
    }
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  REQUIRE(size == 2, "run with 2 ranks, one per host (size %d)", size);
  REQUIRE(remora_rank_node(0) != remora_rank_node(1),
          "both ranks are on node %d: the job did not span two hosts", remora_rank_node(0));
  rdma(rank, 1 - rank);
  accumulate(rank, 1 - rank);
  collectives(rank, size);
  if (rank == 0) std::printf("two hosts: put/get/fetch_add/accumulate/collectives correct\n");
  REQUIRE_OK(remora_finalize());
  return 0;
}
