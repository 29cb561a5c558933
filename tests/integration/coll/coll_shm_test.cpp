// The shm algorithms (node-level shared area): back-to-back collectives alternating between two
// overlapping communicators (all ranks but the last, all ranks but the first), sizes that take
// many rounds of the area's cells, nonblocking shm collectives outstanding together with a
// blocking one behind them, gather, scatter and alltoall from every root with members on the
// fast path and on the schedule path in one call, and the area itself (made with the communicator
// when the job runs on one node). Every result is an exact integer.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "api/runtime.hpp"
#include "coll/collectives.hpp"
#include "multirank.hpp"

namespace {

constexpr int kRounds = 300;
constexpr size_t kLarge = 300000;         // int32 elements: 1.2 MB, several cells
constexpr size_t kMovementLarge = 40000;  // int64 elements per block: 320 KB

remora::api::Runtime& runtime() {
  remora::api::Runtime* found = nullptr;
  REQUIRE_OK(remora::api::enter("coll_shm_test", &found));
  return *found;
}

bool has_area(remora_comm_t comm) {
  return runtime().collectives->communicators.find(comm)->shm_area() != nullptr;
}

// Whether shm collectives can have an area here: the job is on one node (under MPI with
// REMORA_NODE_SIZE splitting the ranks into nodes they run their message-based defaults).
bool job_on_one_node() {
  const auto& transport = *runtime().transport;
  for (int rank = 0; rank < transport.size(); ++rank)
    if (transport.node_of(rank) != transport.node_of(transport.rank())) return false;
  return true;
}

struct Comm {
  remora_comm_t handle = REMORA_COMM_NULL;
  int rank = -1, size = 0;
  std::vector<int> world;  // world rank of each rank
};

Comm split(remora_comm_t world, bool member) {
  Comm c;
  REQUIRE_OK(remora_comm_split(world, member ? 0 : REMORA_UNDEFINED, remora_rank(), &c.handle));
  if (!member) return c;
  REQUIRE_OK(remora_comm_rank(c.handle, &c.rank));
  REQUIRE_OK(remora_comm_size(c.handle, &c.size));
  std::vector<int64_t> mine{remora_rank()}, all(static_cast<size_t>(c.size));
  REQUIRE_OK(
      remora_allgather(mine.data(), all.data(), 1, REMORA_INT64, c.handle, REMORA_COLL_RING));
  for (int64_t w : all) c.world.push_back(static_cast<int>(w));
  return c;
}

int64_t value(int world_rank, int round, size_t i) {
  return static_cast<int64_t>(world_rank) * 1000003 + round * 7 + static_cast<int64_t>(i % 1013);
}

// One round of collectives on c, each checked exactly.
void round_on(const Comm& c, int round, size_t count) {
  const int me = remora_rank();
  // allreduce
  std::vector<int64_t> send(count), recv(count);
  for (size_t i = 0; i < count; ++i) send[i] = value(me, round, i);
  REQUIRE_OK(remora_allreduce(send.data(), recv.data(), count, REMORA_INT64, REMORA_OP_SUM,
                              c.handle, REMORA_COLL_SHM));
  for (size_t i = 0; i < count; ++i) {
    int64_t expected = 0;
    for (int w : c.world) expected += value(w, round, i);
    REQUIRE(recv[i] == expected, "round %d allreduce count %zu [%zu]: %lld, expected %lld", round,
            count, i, static_cast<long long>(recv[i]), static_cast<long long>(expected));
  }
  // bcast from a rotating root
  const int root = round % c.size;
  std::vector<int64_t> buffer(count, -1);
  if (c.rank == root)
    for (size_t i = 0; i < count; ++i) buffer[i] = value(me, round, i);
  REQUIRE_OK(remora_bcast(buffer.data(), count, REMORA_INT64, root, c.handle, REMORA_COLL_SHM));
  for (size_t i = 0; i < count; ++i)
    REQUIRE(buffer[i] == value(c.world[static_cast<size_t>(root)], round, i),
            "round %d bcast [%zu]", round, i);
  // reduce (max) to another root
  const int reduce_root = (round + 1) % c.size;
  std::vector<int64_t> reduced(count, -1);
  REQUIRE_OK(remora_reduce(send.data(), reduced.data(), count, REMORA_INT64, REMORA_OP_MAX,
                           reduce_root, c.handle, REMORA_COLL_SHM));
  if (c.rank == reduce_root)
    for (size_t i = 0; i < count; ++i) {
      int64_t expected = value(c.world[0], round, i);
      for (int w : c.world) expected = std::max(expected, value(w, round, i));
      REQUIRE(reduced[i] == expected, "round %d reduce [%zu]", round, i);
    }
  // reduce_scatter_block of count / size + 1 per rank
  const size_t block = count / static_cast<size_t>(c.size) + 1;
  std::vector<int32_t> input(block * static_cast<size_t>(c.size)), mine(block);
  for (size_t i = 0; i < input.size(); ++i)
    input[i] = static_cast<int32_t>(value(me, round, i) % 100000);
  REQUIRE_OK(remora_reduce_scatter_block(input.data(), mine.data(), block, REMORA_INT32,
                                         REMORA_OP_SUM, c.handle, REMORA_COLL_SHM));
  for (size_t i = 0; i < block; ++i) {
    const size_t at = static_cast<size_t>(c.rank) * block + i;
    int32_t expected = 0;
    for (int w : c.world) expected += static_cast<int32_t>(value(w, round, at) % 100000);
    REQUIRE(mine[i] == expected, "round %d reduce_scatter_block [%zu]", round, i);
  }
  // allgather
  std::vector<int64_t> gathered(count * static_cast<size_t>(c.size), -1);
  REQUIRE_OK(remora_allgather(send.data(), gathered.data(), count, REMORA_INT64, c.handle,
                              REMORA_COLL_SHM));
  for (size_t r = 0; r < c.world.size(); ++r)
    for (size_t i = 0; i < count; ++i)
      REQUIRE(gathered[r * count + i] == value(c.world[r], round, i), "round %d allgather", round);
  REQUIRE_OK(remora_comm_barrier(c.handle, REMORA_COLL_SHM));
}

// gather, scatter and alltoall from every root, in place and not (the root's block for gather
// and scatter; the whole buffer for alltoall). With `mixed`, odd ranks call them while a 256 KiB
// shm ibcast from rank 0 is still outstanding here (the blocking call then runs the rounds as a
// schedule, behind the ibcast) and even ranks after completing it (the fast path), so that
// members on both paths meet in each collective.
void movement_on(const Comm& c, int round, size_t count, bool mixed) {
  const int me = remora_rank();
  const auto size = static_cast<size_t>(c.size);
  std::vector<int64_t> send(count * size), recv(count * size);
  auto expect = [&](bool ok, const char* what, int root, size_t i) {
    REQUIRE(ok, "round %d %s root %d count %zu%s: [%zu]", round, what, root, count,
            mixed ? " (mixed paths)" : "", i);
  };
  std::vector<int64_t> big(mixed ? 32768 : 0);
  remora_request_t pending = REMORA_REQUEST_NULL;
  auto hold = [&] {
    if (!mixed) return;
    if (c.rank == 0)
      for (size_t i = 0; i < big.size(); ++i) big[i] = value(me, round, i);
    REQUIRE_OK(remora_ibcast(big.data(), big.size(), REMORA_INT64, 0, c.handle, REMORA_COLL_SHM,
                             &pending));
    if (c.rank % 2 == 0) REQUIRE_OK(remora_request_wait(&pending));
  };
  auto release = [&] {
    if (!mixed) return;
    if (c.rank % 2 == 1) REQUIRE_OK(remora_request_wait(&pending));
    for (size_t i = 0; i < big.size(); i += 997)
      REQUIRE(big[i] == value(c.world[0], round, i), "round %d ibcast [%zu]", round, i);
  };
  for (int root = 0; root < c.size; ++root)
    for (bool in_place : {false, true}) {
      const bool place = in_place && c.rank == root;
      const auto r = static_cast<size_t>(root);
      // gather: rank j's block at j * count of the root's recv.
      std::fill(recv.begin(), recv.end(), -1);
      for (size_t i = 0; i < count; ++i) send[i] = value(me, round + root, i);
      if (place)
        std::copy(send.begin(), send.begin() + static_cast<long>(count),
                  recv.begin() + static_cast<long>(r * count));
      hold();
      REQUIRE_OK(remora_gather(place ? REMORA_IN_PLACE : send.data(), recv.data(), count,
                               REMORA_INT64, root, c.handle, REMORA_COLL_SHM));
      release();
      if (c.rank == root)
        for (size_t j = 0; j < size; ++j)
          for (size_t i = 0; i < count; ++i)
            expect(recv[j * count + i] == value(c.world[j], round + root, i), "gather", root,
                   j * count + i);
      // scatter: block j of the root's send goes to rank j.
      std::fill(recv.begin(), recv.end(), -1);
      if (c.rank == root)
        for (size_t i = 0; i < count * size; ++i) send[i] = value(me, round + root, i);
      hold();
      REQUIRE_OK(remora_scatter(send.data(), place ? REMORA_IN_PLACE : recv.data(), count,
                                REMORA_INT64, root, c.handle, REMORA_COLL_SHM));
      release();
      if (!place)
        for (size_t i = 0; i < count; ++i)
          expect(
              recv[i] == value(c.world[r], round + root, static_cast<size_t>(c.rank) * count + i),
              "scatter", root, i);
    }
  // alltoall: block j of rank s's send lands at block s of rank j's recv.
  for (bool in_place : {false, true}) {
    for (size_t i = 0; i < count * size; ++i) send[i] = value(me, round, i);
    if (in_place)
      recv = send;
    else
      std::fill(recv.begin(), recv.end(), -1);
    hold();
    REQUIRE_OK(remora_alltoall(in_place ? REMORA_IN_PLACE : send.data(), recv.data(), count,
                               REMORA_INT64, c.handle, REMORA_COLL_SHM));
    release();
    for (size_t s = 0; s < size; ++s)
      for (size_t i = 0; i < count; ++i)
        expect(recv[s * count + i] ==
                   value(c.world[s], round, static_cast<size_t>(c.rank) * count + i),
               "alltoall", -1, s * count + i);
  }
}

// Nonblocking shm collectives on a communicator that has its area: two outstanding, then a
// blocking one, which must advance them (they go first), then the waits.
void nonblocking(const Comm& c, int round) {
  const int me = remora_rank();
  std::vector<int64_t> a{value(me, round, 0)}, a_out(1), b(1000), b_out(1000);
  for (size_t i = 0; i < b.size(); ++i) b[i] = value(me, round, i);
  remora_request_t requests[3];
  REQUIRE_OK(remora_iallreduce(a.data(), a_out.data(), 1, REMORA_INT64, REMORA_OP_SUM, c.handle,
                               REMORA_COLL_SHM, &requests[0]));
  REQUIRE_OK(remora_ibarrier(c.handle, REMORA_COLL_SHM, &requests[1]));
  REQUIRE_OK(remora_iallreduce(b.data(), b_out.data(), b.size(), REMORA_INT64, REMORA_OP_SUM,
                               c.handle, REMORA_COLL_SHM, &requests[2]));
  std::vector<int64_t> blocking{1}, total(1);
  REQUIRE_OK(remora_allreduce(blocking.data(), total.data(), 1, REMORA_INT64, REMORA_OP_SUM,
                              c.handle, REMORA_COLL_SHM));
  REQUIRE(total[0] == c.size, "blocking allreduce behind nonblocking ones: %lld",
          static_cast<long long>(total[0]));
  REQUIRE_OK(remora_request_waitall(3, requests));
  int64_t expected = 0;
  for (int w : c.world) expected += value(w, round, 0);
  REQUIRE(a_out[0] == expected, "iallreduce: %lld", static_cast<long long>(a_out[0]));
  for (size_t i = 0; i < b.size(); ++i) {
    int64_t sum = 0;
    for (int w : c.world) sum += value(w, round, i);
    REQUIRE(b_out[i] == sum, "iallreduce of 1000 [%zu]", i);
  }
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  remora_comm_t world;
  REQUIRE_OK(remora_comm_world(&world));
  const int rank = remora_rank(), size = remora_size();
  REQUIRE(has_area(world) == (size > 1 && job_on_one_node()), "world's area: %d", has_area(world));
  remora_comm_t fresh;
  REQUIRE_OK(remora_comm_dup(world, &fresh));
  REQUIRE(has_area(fresh) == (size > 1 && job_on_one_node()), "a dup's area: %d", has_area(fresh));
  REQUIRE_OK(remora_comm_barrier(fresh, REMORA_COLL_SHM));
  REQUIRE_OK(remora_comm_free(&fresh));

  const Comm first = split(world, size == 1 || rank != size - 1);
  const Comm last = split(world, size == 1 || rank != 0);
  for (int round = 0; round < kRounds; ++round) {
    const size_t count = round % 50 == 49 ? kLarge : static_cast<size_t>(round % 7) * 13;
    if (first.handle != REMORA_COMM_NULL) round_on(first, round, count);
    if (last.handle != REMORA_COMM_NULL) round_on(last, round, count);
    if (round % 25 == 0) {
      if (first.handle != REMORA_COMM_NULL) nonblocking(first, round);
      if (last.handle != REMORA_COMM_NULL) nonblocking(last, round);
    }
    // gather, scatter, alltoall: one element to several cells' worth per block (kMovementLarge:
    // 5 cells for gather, 10 rounds for scatter and alltoall at 2 ranks), now and then with
    // members on both paths.
    if (round % 5 == 0) {
      const size_t movement = round % 50 == 45 ? kMovementLarge : static_cast<size_t>(round % 3);
      const bool mixed = round % 10 == 5;
      if (first.handle != REMORA_COMM_NULL) movement_on(first, round, movement, mixed);
      if (last.handle != REMORA_COMM_NULL) movement_on(last, round, movement, mixed);
    }
  }
  for (remora_comm_t comm : {first.handle, last.handle})
    if (comm != REMORA_COMM_NULL)
      REQUIRE(has_area(comm) == (size > 2 && job_on_one_node()), "split's area: %d",
              has_area(comm));
  Comm handles[] = {first, last};
  for (Comm& c : handles)
    if (c.handle != REMORA_COMM_NULL) REQUIRE_OK(remora_comm_free(&c.handle));
  REQUIRE_OK(remora_finalize());
  return 0;
}
