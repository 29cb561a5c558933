// Many nonblocking collectives outstanding at once on several overlapping communicators (world,
// a duplicate, a duplicate over reversed rank order, two splits into halves, parities and
// thirds, and one made from a group in reverse order): every operation, its algorithm rotating
// per communicator and repetition, shm ones among them, roots other than 0, uneven v-counts
// with empty blocks. They complete in an order unrelated to the order they were started in,
// through waitall, waitany, testall, remora_request_wait in reverse order, and a bounded round
// of remora_request_test before waiting for the rest.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "coll_reference.hpp"
#include "multirank.hpp"

namespace {

using coll_test::fold;
using coll_test::input;
using coll_test::kUntouched;
using coll_test::tagged;

struct Comm {
  remora_comm_t handle = REMORA_COMM_NULL;
  int rank = 0, size = 0;
};

Comm describe(remora_comm_t handle) {
  Comm c;
  c.handle = handle;
  REQUIRE_OK(remora_comm_rank(handle, &c.rank));
  REQUIRE_OK(remora_comm_size(handle, &c.size));
  return c;
}

// The buffers of the collectives started on one communicator, checked once all completed.
struct Outstanding {
  Comm comm;
  int salt = 0;
  std::vector<int64_t> sum_in, sum_ring, sum_rabenseifner, sum_doubling;
  int32_t gathered_in = 0;
  std::vector<int32_t> bcast, gathered, alltoall_in, alltoall_out, scanned_in, scanned;
  // The operations of the v-forms and of reduce_scatter, gather, scatter and exscan.
  int gather_root = 0, scatter_root = 0;
  std::vector<size_t> vcounts, vdispls, send_counts, send_displs, recv_counts, recv_displs;
  std::vector<size_t> block_counts;
  size_t vtotal = 0, block_offset = 0;
  std::vector<int32_t> gather_in, gather_out, gatherv_in, gatherv_out, scatter_in, scatter_out;
  std::vector<int32_t> scatterv_in, scatterv_out, allgatherv_in, allgatherv_out;
  std::vector<int32_t> alltoallv_in, alltoallv_out, exscan_in, exscan_out;
  std::vector<int64_t> reduce_in, reduce_scatter_out, reduce_scatter_block_out;
};

// Picks the k-th algorithm of a list, cyclically.
remora_coll_algorithm_t pick(const std::vector<remora_coll_algorithm_t>& list, int k) {
  return list[static_cast<size_t>(k) % list.size()];
}

constexpr size_t kCount = 33;

constexpr size_t kBlock = 3;  // elements per rank in gather, scatter, reduce_scatter_block

// The operations that the loop above does not start: gather(v), scatter(v), allgatherv,
// alltoallv, reduce_scatter(_block) and exscan.
template <typename Request>
void start_more(Outstanding& o, const Request& request) {
  const Comm& c = o.comm;
  const auto size = static_cast<size_t>(c.size);
  const auto me = static_cast<size_t>(c.rank);
  const int k = o.salt;  // rotates algorithms and roots
  o.gather_root = k % c.size;
  o.scatter_root = (c.size - 1 + k) % c.size;
  o.vcounts = coll_test::varying(c.size, static_cast<size_t>(k));
  o.vdispls = coll_test::spaced(o.vcounts, &o.vtotal);
  const size_t mine = o.vcounts[me];

  o.gather_in.resize(kBlock);
  for (size_t i = 0; i < kBlock; ++i) o.gather_in[i] = tagged(c.rank, o.gather_root, i + k);
  o.gather_out.assign(kBlock * size, kUntouched);
  REQUIRE_OK(remora_igather(o.gather_in.data(), o.gather_out.data(), kBlock, REMORA_INT32,
                            o.gather_root, c.handle, pick(coll_test::kGatherAlgorithms, k),
                            request()));
  o.gatherv_in.resize(mine);
  for (size_t i = 0; i < mine; ++i) o.gatherv_in[i] = tagged(c.rank, o.gather_root, i);
  o.gatherv_out.assign(o.vtotal, kUntouched);
  REQUIRE_OK(remora_igatherv(o.gatherv_in.data(), mine, o.gatherv_out.data(), o.vcounts.data(),
                             o.vdispls.data(), REMORA_INT32, o.gather_root, c.handle,
                             pick(coll_test::kGatherAlgorithms, k + 1), request()));

  o.scatter_in.assign(kBlock * size, 0);
  o.scatterv_in.assign(o.vtotal, 0);
  if (c.rank == o.scatter_root)
    for (size_t j = 0; j < size; ++j) {
      for (size_t i = 0; i < kBlock; ++i)
        o.scatter_in[j * kBlock + i] = tagged(c.rank, static_cast<int>(j), i + k);
      for (size_t i = 0; i < o.vcounts[j]; ++i)
        o.scatterv_in[o.vdispls[j] + i] = tagged(c.rank, static_cast<int>(j), i);
    }
  o.scatter_out.assign(kBlock, kUntouched);
  REQUIRE_OK(remora_iscatter(o.scatter_in.data(), o.scatter_out.data(), kBlock, REMORA_INT32,
                             o.scatter_root, c.handle, pick(coll_test::kScatterAlgorithms, k),
                             request()));
  o.scatterv_out.assign(mine + 1, kUntouched);
  REQUIRE_OK(remora_iscatterv(o.scatterv_in.data(), o.vcounts.data(), o.vdispls.data(),
                              o.scatterv_out.data(), mine, REMORA_INT32, o.scatter_root, c.handle,
                              pick(coll_test::kScatterAlgorithms, k + 1), request()));

  o.allgatherv_in.resize(mine);
  for (size_t i = 0; i < mine; ++i) o.allgatherv_in[i] = tagged(c.rank, 0, i + k);
  o.allgatherv_out.assign(o.vtotal, kUntouched);
  REQUIRE_OK(remora_iallgatherv(o.allgatherv_in.data(), mine, o.allgatherv_out.data(),
                                o.vcounts.data(), o.vdispls.data(), REMORA_INT32, c.handle,
                                pick(coll_test::kAllgatherAlgorithms, k), request()));

  // alltoallv: rank r sends (r + j + salt) % 3 elements to rank j.
  o.send_counts.resize(size);
  o.recv_counts.resize(size);
  for (size_t j = 0; j < size; ++j) {
    o.send_counts[j] = (me + j + static_cast<size_t>(k)) % 3;
    o.recv_counts[j] = (j + me + static_cast<size_t>(k)) % 3;
  }
  size_t send_total = 0, recv_total = 0;
  o.send_displs = coll_test::spaced(o.send_counts, &send_total);
  o.recv_displs = coll_test::spaced(o.recv_counts, &recv_total);
  o.alltoallv_in.assign(send_total, 0);
  for (size_t j = 0; j < size; ++j)
    for (size_t i = 0; i < o.send_counts[j]; ++i)
      o.alltoallv_in[o.send_displs[j] + i] = tagged(c.rank, static_cast<int>(j), i);
  o.alltoallv_out.assign(recv_total, kUntouched);
  REQUIRE_OK(remora_ialltoallv(o.alltoallv_in.data(), o.send_counts.data(), o.send_displs.data(),
                               o.alltoallv_out.data(), o.recv_counts.data(), o.recv_displs.data(),
                               REMORA_INT32, c.handle, pick(coll_test::kAlltoallAlgorithms, k),
                               request()));

  // reduce_scatter: rank j gets block_counts[j] = (j + salt) % 4 elements; _block: kBlock each.
  o.block_counts = coll_test::varying(c.size, static_cast<size_t>(k) + 1);
  size_t reduce_total = 0;
  o.block_offset = 0;
  for (size_t j = 0; j < size; ++j) {
    if (j < me) o.block_offset += o.block_counts[j];
    reduce_total += o.block_counts[j];
  }
  const size_t reduce_in = std::max(reduce_total, kBlock * size);
  o.reduce_in.resize(reduce_in);
  for (size_t i = 0; i < reduce_in; ++i) o.reduce_in[i] = input<int64_t>(REMORA_OP_SUM, c.rank, i);
  o.reduce_scatter_out.assign(o.block_counts[me], -1);
  REQUIRE_OK(remora_ireduce_scatter(o.reduce_in.data(), o.reduce_scatter_out.data(),
                                    o.block_counts.data(), REMORA_INT64, REMORA_OP_SUM, c.handle,
                                    pick(coll_test::kReduceScatterAlgorithms, k), request()));
  o.reduce_scatter_block_out.assign(kBlock, -1);
  REQUIRE_OK(remora_ireduce_scatter_block(
      o.reduce_in.data(), o.reduce_scatter_block_out.data(), kBlock, REMORA_INT64, REMORA_OP_SUM,
      c.handle, pick(coll_test::kReduceScatterAlgorithms, k + 1), request()));

  o.exscan_in.resize(kCount);
  for (size_t i = 0; i < kCount; ++i) o.exscan_in[i] = input<int32_t>(REMORA_OP_BXOR, c.rank, i);
  o.exscan_out.assign(kCount, kUntouched);
  REQUIRE_OK(remora_iexscan(o.exscan_in.data(), o.exscan_out.data(), kCount, REMORA_INT32,
                            REMORA_OP_BXOR, c.handle, pick(coll_test::kScanAlgorithms, k),
                            request()));
}

void start(Outstanding& o, std::vector<remora_request_t>* requests) {
  const Comm& c = o.comm;
  const auto size = static_cast<size_t>(c.size);
  auto request = [requests]() {
    requests->push_back(REMORA_REQUEST_NULL);
    return &requests->back();
  };
  requests->reserve(requests->size() + 32);  // pointers into it stay valid below
  o.sum_in.assign(kCount, 0);
  for (size_t i = 0; i < kCount; ++i) o.sum_in[i] = c.rank * 100 + static_cast<int64_t>(i) + o.salt;
  o.sum_ring.assign(kCount, 0);
  o.sum_rabenseifner.assign(kCount, 0);
  o.sum_doubling.assign(kCount, 0);
  REQUIRE_OK(remora_iallreduce(o.sum_in.data(), o.sum_ring.data(), kCount, REMORA_INT64,
                               REMORA_OP_SUM, c.handle, REMORA_COLL_RING, request()));
  REQUIRE_OK(remora_ibarrier(c.handle, pick(coll_test::kBarrierAlgorithms, o.salt), request()));
  REQUIRE_OK(remora_iallreduce(o.sum_in.data(), o.sum_rabenseifner.data(), kCount, REMORA_INT64,
                               REMORA_OP_SUM, c.handle, REMORA_COLL_RABENSEIFNER, request()));
  o.bcast.assign(kCount, c.rank == c.size - 1 ? o.salt : -1);
  REQUIRE_OK(remora_ibcast(o.bcast.data(), kCount, REMORA_INT32, c.size - 1, c.handle,
                           REMORA_COLL_SCATTER_ALLGATHER, request()));
  o.gathered.assign(size, -1);
  // The send buffer must outlive the call (an auto iallgather on one node is shm, whose rounds
  // may publish it only once the calls started before it on the communicator are done).
  o.gathered_in = c.rank + o.salt;
  REQUIRE_OK(remora_iallgather(&o.gathered_in, o.gathered.data(), 1, REMORA_INT32, c.handle,
                               REMORA_COLL_AUTO, request()));
  o.alltoall_in.resize(size);
  o.alltoall_out.assign(size, -1);
  for (size_t j = 0; j < size; ++j)
    o.alltoall_in[j] = coll_test::tagged(c.rank, static_cast<int>(j), 0);
  REQUIRE_OK(remora_ialltoall(o.alltoall_in.data(), o.alltoall_out.data(), 1, REMORA_INT32,
                              c.handle, REMORA_COLL_BRUCK, request()));
  o.scanned_in.assign(kCount, c.rank + 1);
  o.scanned.assign(kCount, -1);
  REQUIRE_OK(remora_iscan(o.scanned_in.data(), o.scanned.data(), kCount, REMORA_INT32,
                          REMORA_OP_SUM, c.handle, REMORA_COLL_AUTO, request()));
  REQUIRE_OK(remora_iallreduce(o.sum_in.data(), o.sum_doubling.data(), kCount, REMORA_INT64,
                               REMORA_OP_SUM, c.handle, REMORA_COLL_RECURSIVE_DOUBLING, request()));
  start_more(o, request);
}

void check_more(const Outstanding& o);

void check(const Outstanding& o) {
  const Comm& c = o.comm;
  for (size_t i = 0; i < kCount; ++i) {
    const int64_t expected = 100 * c.size * (c.size - 1) / 2 +
                             static_cast<int64_t>(c.size) * (static_cast<int64_t>(i) + o.salt);
    REQUIRE(o.sum_ring[i] == expected, "ring [%zu]", i);
    REQUIRE(o.sum_rabenseifner[i] == expected, "rabenseifner [%zu]", i);
    REQUIRE(o.sum_doubling[i] == expected, "recursive doubling [%zu]", i);
    REQUIRE(o.bcast[i] == o.salt, "bcast [%zu]", i);
    REQUIRE(o.scanned[i] == (c.rank + 1) * (c.rank + 2) / 2, "scan [%zu]", i);
  }
  for (int j = 0; j < c.size; ++j) {
    REQUIRE(o.gathered[static_cast<size_t>(j)] == j + o.salt, "allgather [%d]", j);
    REQUIRE(o.alltoall_out[static_cast<size_t>(j)] == coll_test::tagged(j, c.rank, 0),
            "alltoall [%d]", j);
  }
  check_more(o);
}

void check_more(const Outstanding& o) {
  const Comm& c = o.comm;
  const auto size = static_cast<size_t>(c.size);
  const auto me = static_cast<size_t>(c.rank);
  const int k = o.salt;
  if (c.rank == o.gather_root)
    for (size_t j = 0; j < size; ++j) {
      for (size_t i = 0; i < kBlock; ++i)
        REQUIRE(o.gather_out[j * kBlock + i] == tagged(static_cast<int>(j), c.rank, i + k),
                "igather salt %d: rank %zu [%zu]", k, j, i);
      for (size_t i = 0; i < o.vcounts[j]; ++i)
        REQUIRE(o.gatherv_out[o.vdispls[j] + i] == tagged(static_cast<int>(j), c.rank, i),
                "igatherv salt %d: rank %zu [%zu]", k, j, i);
      REQUIRE(o.gatherv_out[o.vdispls[j] + o.vcounts[j]] == kUntouched,
              "igatherv salt %d wrote into gap %zu", k, j);
    }
  for (size_t i = 0; i < kBlock; ++i)
    REQUIRE(o.scatter_out[i] == tagged(o.scatter_root, c.rank, i + k), "iscatter salt %d [%zu]", k,
            i);
  for (size_t i = 0; i < o.vcounts[me]; ++i)
    REQUIRE(o.scatterv_out[i] == tagged(o.scatter_root, c.rank, i), "iscatterv salt %d [%zu]", k,
            i);
  REQUIRE(o.scatterv_out[o.vcounts[me]] == kUntouched, "iscatterv salt %d wrote past its block", k);
  for (size_t j = 0; j < size; ++j) {
    for (size_t i = 0; i < o.vcounts[j]; ++i)
      REQUIRE(o.allgatherv_out[o.vdispls[j] + i] == tagged(static_cast<int>(j), 0, i + k),
              "iallgatherv salt %d: rank %zu [%zu]", k, j, i);
    REQUIRE(o.allgatherv_out[o.vdispls[j] + o.vcounts[j]] == kUntouched,
            "iallgatherv salt %d wrote into gap %zu", k, j);
    for (size_t i = 0; i < o.recv_counts[j]; ++i)
      REQUIRE(o.alltoallv_out[o.recv_displs[j] + i] == tagged(static_cast<int>(j), c.rank, i),
              "ialltoallv salt %d: from %zu [%zu]", k, j, i);
    REQUIRE(o.alltoallv_out[o.recv_displs[j] + o.recv_counts[j]] == kUntouched,
            "ialltoallv salt %d wrote into gap %zu", k, j);
  }
  for (size_t i = 0; i < o.block_counts[me]; ++i)
    REQUIRE(
        o.reduce_scatter_out[i] == fold<int64_t>(REMORA_OP_SUM, 0, c.size - 1, o.block_offset + i),
        "ireduce_scatter salt %d [%zu]", k, i);
  for (size_t i = 0; i < kBlock; ++i)
    REQUIRE(o.reduce_scatter_block_out[i] ==
                fold<int64_t>(REMORA_OP_SUM, 0, c.size - 1, me * kBlock + i),
            "ireduce_scatter_block salt %d [%zu]", k, i);
  for (size_t i = 0; i < kCount; ++i) {
    if (c.rank == 0)  // rank 0's exscan result is left unchanged
      REQUIRE(o.exscan_out[i] == kUntouched, "iexscan salt %d wrote rank 0's [%zu]", k, i);
    else
      REQUIRE(o.exscan_out[i] == fold<int32_t>(REMORA_OP_BXOR, 0, c.rank - 1, i),
              "iexscan salt %d [%zu]", k, i);
  }
}

constexpr int kWays = 5;  // of completing a set of requests

// Completes requests [first, last): by waitall, waitany, testall, remora_request_wait from the
// last to the first, or up to kTestRounds rounds of remora_request_test over the set (some
// complete, the others are still pending) and then remora_request_wait for the rest.
void complete(std::vector<remora_request_t>& requests, size_t first, size_t last, int how) {
  remora_request_t* list = requests.data() + first;
  const int count = static_cast<int>(last - first);
  if (how == 0) {
    REQUIRE_OK(remora_request_waitall(count, list));
  } else if (how == 1) {
    for (int done = 0; done < count; ++done) {
      int index = -1;
      REQUIRE_OK(remora_request_waitany(count, list, &index));
      REQUIRE(index >= 0 && index < count && list[index] == REMORA_REQUEST_NULL, "waitany %d",
              index);
    }
    int index = 0;
    REQUIRE_OK(remora_request_waitany(count, list, &index));
    REQUIRE(index == REMORA_UNDEFINED, "waitany over completed requests gave %d", index);
  } else if (how == 2) {
    int flag = 0;
    while (!flag) {
      REQUIRE_OK(remora_request_testall(count, list, &flag));
      if (!flag) sched_yield();
    }
  } else if (how == 3) {
    for (int i = count - 1; i >= 0; --i) REQUIRE_OK(remora_request_wait(&list[i]));
  } else {
    constexpr int kTestRounds = 20;
    for (int round = 0; round < kTestRounds; ++round) {
      for (int i = 0; i < count; ++i) {
        int flag = -1;
        const bool was_pending = list[i] != REMORA_REQUEST_NULL;
        REQUIRE_OK(remora_request_test(&list[i], &flag));
        REQUIRE(flag == 0 || flag == 1, "remora_request_test set flag %d", flag);
        REQUIRE((flag == 1) == (list[i] == REMORA_REQUEST_NULL),
                "request %d: flag %d but the request is %s", i, flag,
                list[i] == REMORA_REQUEST_NULL ? "freed" : "not freed");
        REQUIRE(was_pending || flag == 1, "a completed request tested as pending");
      }
      sched_yield();
    }
    for (int i = 0; i < count; ++i) REQUIRE_OK(remora_request_wait(&list[i]));
  }
  for (size_t i = first; i < last; ++i)
    REQUIRE(requests[i] == REMORA_REQUEST_NULL, "request %zu not freed", i);
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  remora_comm_t world, dup, parity, thirds, created = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  REQUIRE_OK(remora_comm_dup(world, &dup));
  REQUIRE_OK(remora_comm_split(world, rank % 2, rank, &parity));
  REQUIRE_OK(remora_comm_split(world, rank % 3, size - rank, &thirds));
  remora_group_t all, reversed;
  REQUIRE_OK(remora_comm_group(world, &all));
  std::vector<int> order;
  for (int r = size - 1; r >= 0; --r) order.push_back(r);
  REQUIRE_OK(remora_group_incl(all, size, order.data(), &reversed));
  REQUIRE_OK(remora_comm_create(world, reversed, &created));
  // Halves (the lower half holds the extra rank) and a duplicate whose tree and ring algorithms
  // run over positions in reverse rank order.
  remora_comm_t halves, reversed_dup;
  REQUIRE_OK(remora_comm_split(world, rank < (size + 1) / 2 ? 0 : 1, rank, &halves));
  REQUIRE_OK(remora_comm_dup(world, &reversed_dup));
  REQUIRE_OK(remora_comm_set_order(reversed_dup, REMORA_ORDER_REVERSE, nullptr));
  const remora_comm_t comms[] = {world, dup, parity, thirds, created, halves, reversed_dup};

  for (int repetition = 0; repetition < 20; ++repetition) {
    std::vector<Outstanding> work(std::size(comms));
    std::vector<remora_request_t> requests;
    for (size_t i = 0; i < work.size(); ++i) {
      work[i].comm = describe(comms[i]);
      work[i].salt = static_cast<int>(i) * 10 + repetition;
      start(work[i], &requests);
    }
    // A request completes whatever order we wait in: each third of them another way.
    const size_t third = requests.size() / 3;
    const int rotation = repetition % kWays;
    complete(requests, 2 * third, requests.size(), rotation);
    complete(requests, 0, third, (rotation + 1) % kWays);
    complete(requests, third, 2 * third, (rotation + 3) % kWays);
    for (const Outstanding& o : work) check(o);
  }

  // Completing a null request is a no-op.
  remora_request_t none = REMORA_REQUEST_NULL;
  int flag = 0;
  REQUIRE_OK(remora_request_test(&none, &flag));
  REQUIRE(flag == 1);
  REQUIRE_OK(remora_request_wait(&none));

  REQUIRE_OK(remora_comm_free(&dup));
  REQUIRE_OK(remora_comm_free(&parity));
  REQUIRE_OK(remora_comm_free(&thirds));
  REQUIRE_OK(remora_comm_free(&created));
  REQUIRE_OK(remora_comm_free(&halves));
  REQUIRE_OK(remora_comm_free(&reversed_dup));
  REQUIRE_OK(remora_group_free(&all));
  REQUIRE_OK(remora_group_free(&reversed));
  REQUIRE_OK(remora_finalize());
  return 0;
}
