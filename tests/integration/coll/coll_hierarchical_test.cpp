// The hierarchical algorithm (node phase, then the nodes' leaders): barrier, bcast, reduce,
// allreduce, allgather(v) and gather, asked for by name and through REMORA_COLL_AUTO, blocking and
// nonblocking (several outstanding at once, on two communicators), in place, on the world and on
// sub-communicators whose nodes are interleaved in rank order or uneven. Under mpiexec with
// REMORA_NODE_SIZE=2 the communicators span nodes that hold two ranks, where the algorithm runs its
// phases; on one node (or one rank per node) it runs the operation's default, which must give the
// same results. Each rank checks its result against a local fold.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "coll_reference.hpp"
#include "multirank.hpp"

namespace {

using coll_test::fold;
using coll_test::input;
using coll_test::same;

// 20000 int64 (160 KB) goes through the node's shared area in several cells.
constexpr size_t kCounts[] = {0, 1, 7, 1000, 20000};
constexpr remora_coll_algorithm_t kAlgorithms[] = {REMORA_COLL_HIERARCHICAL, REMORA_COLL_AUTO};

struct Comm {
  remora_comm_t handle;
  int rank, size;
  const char* what;
};

template <typename T>
std::vector<T> inputs(int op, int rank, size_t count) {
  std::vector<T> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = input<T>(op, rank, i);
  return values;
}

template <typename T>
void check_fold(const Comm& c, const char* operation, remora_coll_algorithm_t algorithm,
                remora_op_t op, const std::vector<T>& result, size_t count) {
  for (size_t i = 0; i < count; ++i)
    REQUIRE(same(result[i], fold<T>(op, 0, c.size - 1, i)),
            "%s %s algorithm=%d op=%d count=%zu: element %zu differs on rank %d of %d", c.what,
            operation, algorithm, op, count, i, c.rank, c.size);
}

template <typename T>
void reductions(const Comm& c, remora_datatype_t type, remora_op_t op, size_t count,
                remora_coll_algorithm_t algorithm) {
  for (bool in_place : {false, true}) {
    std::vector<T> send = inputs<T>(op, c.rank, count), recv(count);
    if (in_place) recv = send;
    REQUIRE_OK(remora_allreduce(in_place ? REMORA_IN_PLACE : send.data(), recv.data(), count, type,
                                op, c.handle, algorithm));
    check_fold(c, in_place ? "allreduce in place" : "allreduce", algorithm, op, recv, count);
    for (int root : {0, c.size - 1, c.size / 2, 1 % c.size}) {
      std::vector<T> mine = inputs<T>(op, c.rank, count), result(count, T{});
      const bool place = in_place && c.rank == root;
      if (place) result = mine;
      REQUIRE_OK(remora_reduce(place ? REMORA_IN_PLACE : mine.data(), result.data(), count, type,
                               op, root, c.handle, algorithm));
      if (c.rank == root)
        check_fold(c, place ? "reduce in place" : "reduce", algorithm, op, result, count);
      // A rank that is not the root keeps its receive buffer untouched.
      else
        for (size_t i = 0; i < count; ++i)
          REQUIRE(same(result[i], T{}), "%s reduce: non-root %d's recv changed at %zu", c.what,
                  c.rank, i);
    }
  }
}

void bcasts(const Comm& c, size_t count, remora_coll_algorithm_t algorithm) {
  for (int root = 0; root < c.size; ++root) {
    std::vector<int64_t> buffer(count, -1);
    if (c.rank == root)
      for (size_t i = 0; i < count; ++i) buffer[i] = root * 1000003 + static_cast<int64_t>(i);
    REQUIRE_OK(remora_bcast(buffer.data(), count, REMORA_INT64, root, c.handle, algorithm));
    for (size_t i = 0; i < count; ++i)
      REQUIRE(buffer[i] == root * 1000003 + static_cast<int64_t>(i),
              "%s bcast algorithm=%d root=%d count=%zu: element %zu is %lld on rank %d", c.what,
              algorithm, root, count, i, static_cast<long long>(buffer[i]), c.rank);
  }
}

int64_t tag(int from, size_t i) {
  return from * 1000003 + static_cast<int64_t>(i);
}

// allgather, allgatherv (rank r gives (r + count) % 3 * count / 2 elements, blocks in reverse
// rank order with gaps) and gather from every root, in place and not, blocking and nonblocking.
void gathers(const Comm& c, size_t count, remora_coll_algorithm_t algorithm) {
  const auto size = static_cast<size_t>(c.size), me = static_cast<size_t>(c.rank);
  std::vector<int64_t> send(count);
  for (size_t i = 0; i < count; ++i) send[i] = tag(c.rank, i);
  for (bool nonblocking : {false, true})
    for (bool in_place : {false, true}) {
      std::vector<int64_t> recv(count * size, -1);
      if (in_place) std::copy(send.begin(), send.end(), recv.begin() + me * count);
      const void* from = in_place ? REMORA_IN_PLACE : send.data();
      remora_request_t request = REMORA_REQUEST_NULL;
      if (nonblocking) {
        REQUIRE_OK(remora_iallgather(from, recv.data(), count, REMORA_INT64, c.handle, algorithm,
                                     &request));
        REQUIRE_OK(remora_request_wait(&request));
      } else {
        REQUIRE_OK(remora_allgather(from, recv.data(), count, REMORA_INT64, c.handle, algorithm));
      }
      for (size_t j = 0; j < size; ++j)
        for (size_t i = 0; i < count; ++i)
          REQUIRE(recv[j * count + i] == tag(static_cast<int>(j), i),
                  "%s allgather algorithm=%d count=%zu in_place=%d: rank %zu [%zu] is %lld on %d",
                  c.what, algorithm, count, in_place, j, i,
                  static_cast<long long>(recv[j * count + i]), c.rank);
      for (int root = 0; root < c.size; ++root) {
        const bool place = in_place && c.rank == root;
        std::vector<int64_t> result(count * size, -1);
        if (place) std::copy(send.begin(), send.end(), result.begin() + me * count);
        const void* input = place ? REMORA_IN_PLACE : send.data();
        if (nonblocking) {
          REQUIRE_OK(remora_igather(input, result.data(), count, REMORA_INT64, root, c.handle,
                                    algorithm, &request));
          REQUIRE_OK(remora_request_wait(&request));
        } else {
          REQUIRE_OK(
              remora_gather(input, result.data(), count, REMORA_INT64, root, c.handle, algorithm));
        }
        for (size_t j = 0; j < size; ++j)
          for (size_t i = 0; i < count; ++i) {
            const int64_t expected = c.rank == root ? tag(static_cast<int>(j), i) : -1;
            REQUIRE(result[j * count + i] == expected,
                    "%s gather algorithm=%d root=%d count=%zu: rank %zu [%zu] is %lld on %d",
                    c.what, algorithm, root, count, j, i,
                    static_cast<long long>(result[j * count + i]), c.rank);
          }
      }
    }
  std::vector<size_t> counts(size), displs(size);
  size_t total = 0;
  for (size_t j = size; j-- > 0;) {
    counts[j] = (j + count) % 3 * count / 2;
    displs[j] = total;
    total += counts[j] + 1;
  }
  std::vector<int64_t> mine(counts[me]), recv(total, -1);
  for (size_t i = 0; i < counts[me]; ++i) mine[i] = tag(c.rank, i);
  REQUIRE_OK(remora_allgatherv(mine.data(), counts[me], recv.data(), counts.data(), displs.data(),
                               REMORA_INT64, c.handle, algorithm));
  for (size_t j = 0; j < size; ++j) {
    for (size_t i = 0; i < counts[j]; ++i)
      REQUIRE(recv[displs[j] + i] == tag(static_cast<int>(j), i),
              "%s allgatherv algorithm=%d: rank %zu [%zu] on %d", c.what, algorithm, j, i, c.rank);
    REQUIRE(recv[displs[j] + counts[j]] == -1, "%s allgatherv wrote into a gap", c.what);
  }
}

// A barrier orders: every rank's increment of a counter it owns is seen after it. Through the
// collectives themselves: after the barrier, an allreduce of the number of barriers each rank
// passed must be size * barriers on every rank.
void barriers(const Comm& c, remora_coll_algorithm_t algorithm) {
  int64_t passed = 0;
  for (int round = 0; round < 20; ++round) {
    REQUIRE_OK(remora_comm_barrier(c.handle, algorithm));
    ++passed;
  }
  int64_t total = 0;
  REQUIRE_OK(
      remora_allreduce(&passed, &total, 1, REMORA_INT64, REMORA_OP_SUM, c.handle, algorithm));
  REQUIRE(total == 20 * c.size, "%s barrier: %lld barriers counted on rank %d, expected %d", c.what,
          static_cast<long long>(total), c.rank, 20 * c.size);
}

// Nonblocking: many calls outstanding on two communicators, completed in reverse order.
void outstanding(const Comm& a, const Comm& b) {
  constexpr size_t kCount = 300;
  constexpr int kCalls = 6;
  std::vector<std::vector<int64_t>> sends, recvs;
  std::vector<remora_request_t> requests;
  for (int call = 0; call < kCalls; ++call) {
    for (const Comm* c : {&a, &b}) {
      sends.push_back(inputs<int64_t>(REMORA_OP_SUM, c->rank, kCount));
      recvs.emplace_back(kCount, 0);
    }
  }
  size_t next = 0;
  for (int call = 0; call < kCalls; ++call) {
    for (const Comm* c : {&a, &b}) {
      remora_request_t request = REMORA_REQUEST_NULL;
      std::vector<int64_t>& send = sends[next];
      std::vector<int64_t>& recv = recvs[next];
      ++next;
      switch (call % 3) {
        case 0:
          REQUIRE_OK(remora_iallreduce(send.data(), recv.data(), kCount, REMORA_INT64,
                                       REMORA_OP_SUM, c->handle, REMORA_COLL_HIERARCHICAL,
                                       &request));
          break;
        case 1:
          recv = send;
          REQUIRE_OK(remora_ibcast(recv.data(), kCount, REMORA_INT64, call % c->size, c->handle,
                                   REMORA_COLL_HIERARCHICAL, &request));
          break;
        default:
          REQUIRE_OK(remora_ireduce(send.data(), recv.data(), kCount, REMORA_INT64, REMORA_OP_SUM,
                                    c->size - 1, c->handle, REMORA_COLL_HIERARCHICAL, &request));
          break;
      }
      requests.push_back(request);
      remora_request_t fence = REMORA_REQUEST_NULL;
      REQUIRE_OK(remora_ibarrier(c->handle, REMORA_COLL_HIERARCHICAL, &fence));
      requests.push_back(fence);
    }
  }
  for (size_t i = requests.size(); i-- > 0;) REQUIRE_OK(remora_request_wait(&requests[i]));
  next = 0;
  for (int call = 0; call < kCalls; ++call) {
    for (const Comm* c : {&a, &b}) {
      const std::vector<int64_t>& recv = recvs[next++];
      for (size_t i = 0; i < kCount; ++i) {
        int64_t expected = recv[i];
        if (call % 3 == 0 || (call % 3 == 2 && c->rank == c->size - 1))
          expected = fold<int64_t>(REMORA_OP_SUM, 0, c->size - 1, i);
        if (call % 3 == 1) expected = input<int64_t>(REMORA_OP_SUM, call % c->size, i);
        REQUIRE(recv[i] == expected,
                "%s outstanding call %d: element %zu is %lld on rank %d, expected %lld", c->what,
                call, i, static_cast<long long>(recv[i]), c->rank,
                static_cast<long long>(expected));
      }
    }
  }
}

void run(const Comm& c) {
  for (remora_coll_algorithm_t algorithm : kAlgorithms) {
    barriers(c, algorithm);
    for (size_t count : kCounts) {
      bcasts(c, count, algorithm);
      gathers(c, count, algorithm);
      reductions<int64_t>(c, REMORA_INT64, REMORA_OP_SUM, count, algorithm);
      reductions<double>(c, REMORA_DOUBLE, REMORA_OP_SUM, count, algorithm);
      if (count <= 1000) {
        reductions<int32_t>(c, REMORA_INT32, REMORA_OP_MAX, count, algorithm);
        reductions<double>(c, REMORA_DOUBLE, REMORA_OP_PROD, count, algorithm);
      }
    }
  }
}

Comm make(remora_comm_t handle, const char* what) {
  Comm c{handle, 0, 0, what};
  REQUIRE_OK(remora_comm_rank(handle, &c.rank));
  REQUIRE_OK(remora_comm_size(handle, &c.size));
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  remora_test::init(&argc, &argv, &rank, &size);
  remora_comm_t world = REMORA_COMM_NULL, interleaved = REMORA_COMM_NULL, tail = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  const Comm w = make(world, "world");
  run(w);
  // Even ranks first: with nodes of two consecutive ranks, each node's ranks are apart.
  REQUIRE_OK(remora_comm_split(world, 0, (rank % 2) * size + rank, &interleaved));
  const Comm i = make(interleaved, "interleaved");
  run(i);
  outstanding(w, i);
  // Without rank 0: its node keeps one rank, the others two (uneven nodes).
  REQUIRE_OK(remora_comm_split(world, rank == 0 && size > 1 ? REMORA_UNDEFINED : 0, rank, &tail));
  if (tail != REMORA_COMM_NULL) {
    run(make(tail, "tail"));
    REQUIRE_OK(remora_comm_free(&tail));
  }
  REQUIRE_OK(remora_comm_free(&interleaved));
  REQUIRE_OK(remora_finalize());
  return 0;
}
