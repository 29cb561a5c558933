// The small path of the shm algorithms (coll/shm_fast.hpp, ShmFast::Small): blocking barrier,
// bcast, reduce, allreduce, gather, scatter, reduce_scatter_block, allgather and alltoall of small
// payloads, back to back with the root and the size changing every call (0 to 64 bytes, so that
// calls on the small path and on the general fast path alternate, and scatter's blocks go inline
// or into the cell), gatherv, allgatherv, scatterv and alltoallv with a block size of each
// rank's own (gatherv, scatterv and alltoallv: some members on the small path, others not, in
// one call),
// in place and not, shm asked for and auto, on three overlapping communicators (the world, all
// ranks but the last, all ranks but the first) in turns, with a nonblocking shm collective
// outstanding now and then (the blocking calls behind it take the schedule path) and a
// communicator freed and made again (the borrowed-handle lookup must see it go). Every result
// is an exact integer.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "multirank.hpp"
#include "shm_comms.hpp"

namespace {

constexpr int kRounds = 400;

using Comm = remora_test::RangeComm;

int32_t value(int world_rank, int round, size_t i) {
  return world_rank * 1009 + round * 7 + static_cast<int32_t>(i);
}

// One round of every small operation on c: count int32 elements (per rank for gather, scatter
// and reduce_scatter_block), root and in-place choice rotating with the round.
void round_on(const Comm& c, int round, size_t count, remora_coll_algorithm_t algorithm) {
  const int me = remora_rank();
  const int root = (round / 3) % c.size;
  const bool in_place = round % 4 == 1;
  const auto ranks = static_cast<size_t>(c.size);
  REQUIRE_OK(remora_comm_barrier(c.handle, algorithm));

  // bcast: the root's values, -1 elsewhere before
  const int root_world = c.world[static_cast<size_t>(root)];
  std::vector<int32_t> buffer(count, -1);
  for (size_t i = 0; c.rank == root && i < count; ++i) buffer[i] = value(me, round, i);
  REQUIRE_OK(remora_bcast(buffer.data(), count, REMORA_INT32, root, c.handle, algorithm));
  for (size_t i = 0; i < count; ++i)
    REQUIRE(buffer[i] == value(root_world, round, i), "round %d bcast count %zu [%zu]: %d", round,
            count, i, buffer[i]);

  // reduce and allreduce
  std::vector<int32_t> send(count), recv(count, -1);
  for (size_t i = 0; i < count; ++i) send[i] = value(me, round, i);
  const bool reduce_in_place = in_place && c.rank == root;
  if (reduce_in_place) recv = send;
  REQUIRE_OK(remora_reduce(reduce_in_place ? REMORA_IN_PLACE : send.data(), recv.data(), count,
                           REMORA_INT32, REMORA_OP_SUM, root, c.handle, algorithm));
  if (c.rank == root)
    for (size_t i = 0; i < count; ++i) {
      int32_t expected = 0;
      for (int w : c.world) expected += value(w, round, i);
      REQUIRE(recv[i] == expected, "round %d reduce count %zu [%zu]: %d, expected %d", round, count,
              i, recv[i], expected);
    }
  if (in_place) recv = send;
  REQUIRE_OK(remora_allreduce(in_place ? REMORA_IN_PLACE : send.data(), recv.data(), count,
                              REMORA_INT32, REMORA_OP_MAX, c.handle, algorithm));
  for (size_t i = 0; i < count; ++i) {
    int32_t expected = value(c.world[0], round, i);
    for (int w : c.world) expected = std::max(expected, value(w, round, i));
    REQUIRE(recv[i] == expected, "round %d allreduce count %zu [%zu]: %d, expected %d", round,
            count, i, recv[i], expected);
  }

  // gather: block r of the root's result is rank r's
  std::vector<int32_t> all(count * ranks, -1);
  const bool gather_in_place = in_place && c.rank == root;
  if (gather_in_place)
    for (size_t i = 0; i < count; ++i) all[static_cast<size_t>(c.rank) * count + i] = send[i];
  REQUIRE_OK(remora_gather(gather_in_place ? REMORA_IN_PLACE : send.data(), all.data(), count,
                           REMORA_INT32, root, c.handle, algorithm));
  if (c.rank == root)
    for (size_t r = 0; r < ranks; ++r)
      for (size_t i = 0; i < count; ++i)
        REQUIRE(all[r * count + i] == value(c.world[r], round, i),
                "round %d gather count %zu block %zu [%zu]: %d", round, count, r, i,
                all[r * count + i]);

  // scatter: rank r gets block r of the root's
  std::vector<int32_t> blocks(count * ranks), mine(count, -1);
  for (size_t r = 0; r < ranks; ++r)
    for (size_t i = 0; i < count; ++i) blocks[r * count + i] = value(me, round, r * 31 + i);
  const bool scatter_in_place = in_place && c.rank == root;
  REQUIRE_OK(remora_scatter(blocks.data(), scatter_in_place ? REMORA_IN_PLACE : mine.data(), count,
                            REMORA_INT32, root, c.handle, algorithm));
  if (!scatter_in_place)
    for (size_t i = 0; i < count; ++i)
      REQUIRE(mine[i] == value(c.world[static_cast<size_t>(root)], round,
                               static_cast<size_t>(c.rank) * 31 + i),
              "round %d scatter count %zu [%zu]: %d", round, count, i, mine[i]);

  // reduce_scatter_block: rank r gets the sum of everyone's block r
  std::vector<int32_t> rs_in(count * ranks), rs_out(count, -1);
  for (size_t i = 0; i < rs_in.size(); ++i) rs_in[i] = value(me, round, i);
  if (in_place) {
    REQUIRE_OK(remora_reduce_scatter_block(REMORA_IN_PLACE, rs_in.data(), count, REMORA_INT32,
                                           REMORA_OP_SUM, c.handle, algorithm));
  } else {
    REQUIRE_OK(remora_reduce_scatter_block(rs_in.data(), rs_out.data(), count, REMORA_INT32,
                                           REMORA_OP_SUM, c.handle, algorithm));
  }
  const int32_t* result = in_place ? rs_in.data() : rs_out.data();
  for (size_t i = 0; i < count; ++i) {
    int32_t expected = 0;
    for (int w : c.world) expected += value(w, round, static_cast<size_t>(c.rank) * count + i);
    REQUIRE(result[i] == expected, "round %d reduce_scatter_block count %zu [%zu]: %d, expected %d",
            round, count, i, result[i], expected);
  }

  // allgather: every rank gets every block
  std::vector<int32_t> gathered(count * ranks, -1);
  if (in_place)
    for (size_t i = 0; i < count; ++i) gathered[static_cast<size_t>(c.rank) * count + i] = send[i];
  REQUIRE_OK(remora_allgather(in_place ? REMORA_IN_PLACE : send.data(), gathered.data(), count,
                              REMORA_INT32, c.handle, algorithm));
  for (size_t r = 0; r < ranks; ++r)
    for (size_t i = 0; i < count; ++i)
      REQUIRE(gathered[r * count + i] == value(c.world[r], round, i),
              "round %d allgather count %zu block %zu [%zu]: %d", round, count, r, i,
              gathered[r * count + i]);

  // alltoall: block d of rank s goes to rank d's block s
  std::vector<int32_t> a2a_in(count * ranks), a2a_out(count * ranks, -1);
  for (size_t d = 0; d < ranks; ++d)
    for (size_t i = 0; i < count; ++i) a2a_in[d * count + i] = value(me, round, d * 131 + i);
  if (in_place) a2a_out = a2a_in;
  REQUIRE_OK(remora_alltoall(in_place ? REMORA_IN_PLACE : a2a_in.data(), a2a_out.data(), count,
                             REMORA_INT32, c.handle, algorithm));
  for (size_t s = 0; s < ranks; ++s)
    for (size_t i = 0; i < count; ++i)
      REQUIRE(
          a2a_out[s * count + i] == value(c.world[s], round, static_cast<size_t>(c.rank) * 131 + i),
          "round %d alltoall count %zu block %zu [%zu]: %d", round, count, s, i,
          a2a_out[s * count + i]);
}

// Block r of a gatherv's or allgatherv's result holds rank r's values, the gap after it -1.
void check_blocks(const std::vector<int32_t>& result, const std::vector<size_t>& counts,
                  const std::vector<size_t>& displs, const Comm& c, int round, const char* what) {
  for (size_t r = 0; r < counts.size(); ++r) {
    for (size_t i = 0; i < counts[r]; ++i)
      REQUIRE(result[displs[r] + i] == value(c.world[r], round, i),
              "round %d %s block %zu [%zu]: %d", round, what, r, i, result[displs[r] + i]);
    REQUIRE(result[displs[r] + counts[r]] == -1, "round %d %s wrote the gap after block %zu", round,
            what, r);
  }
}

// alltoallv: rank s sends rank d a block of its own size (0 to 16 int32, and now and then one
// of 20000 from the first rank to the second, beyond a cell's piece: those two members take the
// general path, the others the small one), in place on odd rounds (then the same size both ways
// between two ranks, as in place requires).
size_t a2av_count(int round, size_t from, size_t to) {
  if (round % 2 == 1 && from > to) std::swap(from, to);
  if (round % 5 == 3 && from == 0 && to == 1) return 20000;
  return (static_cast<size_t>(round) * 5 + from * 3 + to * 7) % 17;
}

void alltoallv_round(const Comm& c, int round, remora_coll_algorithm_t algorithm) {
  const int me = remora_rank();
  const auto ranks = static_cast<size_t>(c.size), mine = static_cast<size_t>(c.rank);
  const bool in_place = round % 2 == 1;
  std::vector<size_t> send_counts(ranks), send_displs(ranks), recv_counts(ranks),
      recv_displs(ranks);
  size_t sent = 0, received = 0;
  for (size_t r = 0; r < ranks; ++r) {
    // in place the send side is the receive side: a block to r of r's block's size from r
    send_counts[r] = in_place ? a2av_count(round, r, mine) : a2av_count(round, mine, r);
    recv_counts[r] = a2av_count(round, r, mine);
    send_displs[r] = sent;
    sent += send_counts[r] + 1;
    recv_displs[r] = received;
    received += recv_counts[r] + 1;
  }
  std::vector<int32_t> in(sent, -2), out(received, -1);
  std::vector<int32_t>& source = in_place ? out : in;
  for (size_t r = 0; r < ranks; ++r)
    for (size_t i = 0; i < send_counts[r]; ++i)
      source[send_displs[r] + i] = value(me, round, r * 131 + i % 1000);
  REQUIRE_OK(remora_alltoallv(in_place ? REMORA_IN_PLACE : in.data(), send_counts.data(),
                              send_displs.data(), out.data(), recv_counts.data(),
                              recv_displs.data(), REMORA_INT32, c.handle, algorithm));
  for (size_t r = 0; r < ranks; ++r) {
    // in place the own block stays (it was written as to itself)
    for (size_t i = 0; i < recv_counts[r]; ++i)
      REQUIRE(out[recv_displs[r] + i] == value(c.world[r], round, mine * 131 + i % 1000),
              "round %d alltoallv block from %zu [%zu]: %d", round, r, i, out[recv_displs[r] + i]);
    REQUIRE(out[recv_displs[r] + recv_counts[r]] == -1,
            "round %d alltoallv wrote the gap after block %zu", round, r);
  }
}

// gatherv, allgatherv and scatterv with a block size of its own for each rank (0 to 32 int32:
// both sides of the inline slot's 120 bytes and of scatterv's 120 / p), so that in one call some
// members take the small path and others the general one, laid out in reverse rank order with a
// gap.
void vector_round(const Comm& c, int round, remora_coll_algorithm_t algorithm) {
  const int me = remora_rank();
  const int root = (round / 2) % c.size;
  const bool in_place = round % 3 == 1 && c.rank == root;
  const auto ranks = static_cast<size_t>(c.size);
  std::vector<size_t> counts(ranks), displs(ranks);
  size_t total = 0;
  for (size_t r = ranks; r-- > 0;) {
    counts[r] = (static_cast<size_t>(round) * 5 + r * 3) % 33;
    if (round % 4 == 0) counts[r] %= 3;  // every block inline now and then
    displs[r] = total;
    total += counts[r] + 1;
  }
  const size_t mine = counts[static_cast<size_t>(c.rank)];
  std::vector<int32_t> block(mine), all(total, -1);
  for (size_t i = 0; i < mine; ++i) block[i] = value(me, round, i);
  if (in_place)
    std::copy(block.begin(), block.end(),
              all.begin() + static_cast<std::ptrdiff_t>(displs[static_cast<size_t>(c.rank)]));
  REQUIRE_OK(remora_gatherv(in_place ? REMORA_IN_PLACE : block.data(), mine, all.data(),
                            counts.data(), displs.data(), REMORA_INT32, root, c.handle, algorithm));
  if (c.rank == root) check_blocks(all, counts, displs, c, round, "gatherv");

  // allgatherv: every rank gets every block (in place: its own already there)
  std::vector<int32_t> every(total, -1);
  if (round % 3 == 2)
    std::copy(block.begin(), block.end(),
              every.begin() + static_cast<std::ptrdiff_t>(displs[static_cast<size_t>(c.rank)]));
  REQUIRE_OK(remora_allgatherv(round % 3 == 2 ? REMORA_IN_PLACE : block.data(), mine, every.data(),
                               counts.data(), displs.data(), REMORA_INT32, c.handle, algorithm));
  check_blocks(every, counts, displs, c, round, "allgatherv");

  alltoallv_round(c, round, algorithm);

  std::vector<int32_t> blocks(total, -2), out(mine, -1);
  for (size_t r = 0; r < ranks; ++r)
    for (size_t i = 0; i < counts[r]; ++i) blocks[displs[r] + i] = value(me, round, r * 31 + i);
  REQUIRE_OK(remora_scatterv(blocks.data(), counts.data(), displs.data(),
                             in_place ? REMORA_IN_PLACE : out.data(), mine, REMORA_INT32, root,
                             c.handle, algorithm));
  if (!in_place)
    for (size_t i = 0; i < mine; ++i)
      REQUIRE(out[i] == value(c.world[static_cast<size_t>(root)], round,
                              static_cast<size_t>(c.rank) * 31 + i),
              "round %d scatterv count %zu [%zu]: %d", round, mine, i, out[i]);
}

// A nonblocking shm allreduce left outstanding across a blocking small call: the blocking one
// must wait its turn (schedule path) and both must be right.
void outstanding(const Comm& c, int round) {
  int32_t in = value(remora_rank(), round, 0), out = -1, sum = 0;
  for (int w : c.world) sum += value(w, round, 0);
  remora_request_t request;
  REQUIRE_OK(remora_iallreduce(&in, &out, 1, REMORA_INT32, REMORA_OP_SUM, c.handle, REMORA_COLL_SHM,
                               &request));
  int32_t second = -1;
  REQUIRE_OK(
      remora_allreduce(&in, &second, 1, REMORA_INT32, REMORA_OP_SUM, c.handle, REMORA_COLL_SHM));
  REQUIRE_OK(remora_request_wait(&request));
  REQUIRE(out == sum && second == sum, "round %d: outstanding %d, blocking %d, expected %d", round,
          out, second, sum);
}

}  // namespace

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  remora_test::init(&argc, &argv, &rank, &size);
  remora_comm_t world_handle;
  REQUIRE_OK(remora_comm_world(&world_handle));
  const Comm world = remora_test::split_range(0, false);
  const Comm first = remora_test::split_range(0, true);  // all but the last
  const Comm last = remora_test::split_range(1, false);  // all but the first
  for (int round = 0; round < kRounds; ++round) {
    // 0 to 128 bytes: both sides of the inline slot's 120.
    const size_t count = static_cast<size_t>(round % 33);
    const remora_coll_algorithm_t algorithm = round % 5 == 4 ? REMORA_COLL_AUTO : REMORA_COLL_SHM;
    const Comm* order[] = {&world, &first, &last};
    for (int i = 0; i < 3; ++i) {
      const Comm& c = *order[(round + i) % 3];
      if (c.handle == REMORA_COMM_NULL) continue;
      round_on(c, round, count, algorithm);
      vector_round(c, round, algorithm);
      if (round % 17 == 3) outstanding(c, round);
    }
    if (round % 50 == 10) {
      // A communicator made and freed between small calls: a call with the freed handle fails
      // (the thread's last lookup must not answer for it).
      remora_comm_t dup;
      REQUIRE_OK(remora_comm_dup(world_handle, &dup));
      int32_t in = rank, out = -1;
      REQUIRE_OK(remora_allreduce(&in, &out, 1, REMORA_INT32, REMORA_OP_SUM, dup, REMORA_COLL_SHM));
      REQUIRE(out == size * (size - 1) / 2, "dup allreduce: %d", out);
      const remora_comm_t freed = dup;
      REQUIRE_OK(remora_comm_free(&dup));
      REQUIRE(remora_allreduce(&in, &out, 1, REMORA_INT32, REMORA_OP_SUM, freed, REMORA_COLL_SHM) !=
                  REMORA_SUCCESS,
              "an allreduce on a freed communicator succeeded");
    }
  }
  for (const Comm* c : {&world, &first, &last}) {
    remora_comm_t handle = c->handle;
    if (handle != REMORA_COMM_NULL) REQUIRE_OK(remora_comm_free(&handle));
  }
  REQUIRE_OK(remora_finalize());
  return 0;
}
