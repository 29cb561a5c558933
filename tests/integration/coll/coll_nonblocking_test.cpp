// Many nonblocking collectives outstanding at once on several communicators (world, a
// duplicate, two splits and one made from a group), completed in an order unrelated to the
// order they were started in, through waitall, waitany and testall.
#include <cstdint>
#include <vector>

#include "coll_reference.hpp"
#include "multirank.hpp"

namespace {

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
  std::vector<int32_t> bcast, gathered, alltoall_in, alltoall_out, scanned_in, scanned;
};

constexpr size_t kCount = 33;

void start(Outstanding& o, std::vector<remora_request_t>* requests) {
  const Comm& c = o.comm;
  const auto size = static_cast<size_t>(c.size);
  auto request = [requests]() {
    requests->push_back(REMORA_REQUEST_NULL);
    return &requests->back();
  };
  requests->reserve(requests->size() + 16);  // pointers into it stay valid below
  o.sum_in.assign(kCount, 0);
  for (size_t i = 0; i < kCount; ++i) o.sum_in[i] = c.rank * 100 + static_cast<int64_t>(i) + o.salt;
  o.sum_ring.assign(kCount, 0);
  o.sum_rabenseifner.assign(kCount, 0);
  o.sum_doubling.assign(kCount, 0);
  REQUIRE_OK(remora_iallreduce(o.sum_in.data(), o.sum_ring.data(), kCount, REMORA_INT64,
                               REMORA_OP_SUM, c.handle, REMORA_COLL_RING, request()));
  REQUIRE_OK(remora_ibarrier(c.handle, REMORA_COLL_AUTO, request()));
  REQUIRE_OK(remora_iallreduce(o.sum_in.data(), o.sum_rabenseifner.data(), kCount, REMORA_INT64,
                               REMORA_OP_SUM, c.handle, REMORA_COLL_RABENSEIFNER, request()));
  o.bcast.assign(kCount, c.rank == c.size - 1 ? o.salt : -1);
  REQUIRE_OK(remora_ibcast(o.bcast.data(), kCount, REMORA_INT32, c.size - 1, c.handle,
                           REMORA_COLL_SCATTER_ALLGATHER, request()));
  o.gathered.assign(size, -1);
  const int32_t mine = c.rank + o.salt;
  REQUIRE_OK(remora_iallgather(&mine, o.gathered.data(), 1, REMORA_INT32, c.handle,
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
}

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
}

// Completes requests [first, last) with one of the three completion calls.
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
  } else {
    int flag = 0;
    while (!flag) {
      REQUIRE_OK(remora_request_testall(count, list, &flag));
      if (!flag) sched_yield();
    }
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
  const remora_comm_t comms[] = {world, dup, parity, thirds, created};

  for (int repetition = 0; repetition < 20; ++repetition) {
    std::vector<Outstanding> work(std::size(comms));
    std::vector<remora_request_t> requests;
    for (size_t i = 0; i < work.size(); ++i) {
      work[i].comm = describe(comms[i]);
      work[i].salt = static_cast<int>(i) * 10 + repetition;
      start(work[i], &requests);
    }
    // A request completes whatever order we wait in: thirds by waitall, waitany and testall.
    const size_t third = requests.size() / 3;
    const int rotation = repetition % 3;
    complete(requests, 2 * third, requests.size(), rotation);
    complete(requests, 0, third, (rotation + 1) % 3);
    complete(requests, third, 2 * third, (rotation + 2) % 3);
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
  REQUIRE_OK(remora_group_free(&all));
  REQUIRE_OK(remora_group_free(&reversed));
  REQUIRE_OK(remora_finalize());
  return 0;
}
