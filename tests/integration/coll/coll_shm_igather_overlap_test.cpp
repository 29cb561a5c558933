// Many auto igathers (and some ialltoalls) outstanding at once on three overlapping
// communicators (the world, a duplicate, and a split with the ranks in reverse order), started
// interleaved across them: blocks of 0 B to 8 KiB, so inline slots (up to 120 B) and cells both
// carry them, more calls per communicator than a member's ring has slots, rotating roots and
// some in place. The last rank starts late; every rank completes them in its own shuffled order,
// by waits, test loops and waitalls of a few at once. Every result is an exact integer. On a
// communicator with a shared area (not under thread progress, where auto takes messages) every
// igather of 1 B to one cell per block takes the shm request without a schedule.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "api/runtime.hpp"
#include "coll/shm_area.hpp"
#include "coll/shm_request.hpp"
#include "multirank.hpp"

namespace {

constexpr int kCalls = 70;  // per communicator and repetition: more than the 64 inline slots
// int64 per block: 15 is 120 B (the inline edge), 16 the first cell size
const size_t kCounts[] = {1, 7, 8, 128, 0, 15, 1024, 16, 9, 64};

remora::api::Runtime& runtime() {
  remora::api::Runtime* found = nullptr;
  REQUIRE_OK(remora::api::enter("coll_shm_igather_overlap", &found));
  return *found;
}

// Element i of the block that world rank `from` sends to rank `to` of the communicator.
int64_t value(int from, int to, int repeat, int comm, int call, size_t i) {
  return static_cast<int64_t>(from) * 1000003 + to * 100019 + repeat * 10007 + comm * 1009 +
         call * 31 + static_cast<int64_t>(i);
}

struct Comm {
  remora_comm_t handle = REMORA_COMM_NULL;
  int rank = 0, size = 0, id = 0;
  std::vector<int> world;  // world rank of each rank of the communicator
};

struct Call {
  const Comm* comm = nullptr;
  int k = 0;
  bool alltoall = false;
  size_t count = 0;
  int root = 0;
  bool in_place = false;
  std::vector<int64_t> send, recv;
  remora_request_t request = REMORA_REQUEST_NULL;
};

void start(int world_rank, int repeat, Call* c) {
  const Comm& comm = *c->comm;
  const auto n = static_cast<size_t>(comm.size);
  const int k = c->k;
  c->count = kCounts[static_cast<size_t>(k + repeat) % std::size(kCounts)];
  c->alltoall = k % 5 == 4;
  c->root = (k + repeat + comm.id) % comm.size;
  if (c->alltoall) {
    c->send.resize(c->count * n);
    for (size_t to = 0; to < n; ++to)
      for (size_t i = 0; i < c->count; ++i)
        c->send[to * c->count + i] = value(world_rank, static_cast<int>(to), repeat, comm.id, k, i);
    c->recv.assign(c->count * n, -1);
    REQUIRE_OK(remora_ialltoall(c->send.data(), c->recv.data(), c->count, REMORA_INT64, comm.handle,
                                REMORA_COLL_AUTO, &c->request));
    return;
  }
  c->in_place = comm.rank == c->root && k % 3 == 0;
  c->send.resize(c->count);
  for (size_t i = 0; i < c->count; ++i)
    c->send[i] = value(world_rank, c->root, repeat, comm.id, k, i);
  c->recv.assign(c->count * n, -1);
  if (c->in_place)
    std::copy(
        c->send.begin(), c->send.end(),
        c->recv.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(comm.rank) * c->count));
  REQUIRE_OK(remora_igather(c->in_place ? REMORA_IN_PLACE : c->send.data(), c->recv.data(),
                            c->count, REMORA_INT64, c->root, comm.handle, REMORA_COLL_AUTO,
                            &c->request));
  const size_t bytes = c->count * sizeof(int64_t);
  const bool shm =
      runtime().progress->mode() != remora::progress::Mode::Thread &&
      runtime().collectives->communicators.find(comm.handle)->shm_area_ptr() != nullptr;
  if (shm && bytes >= 1 && bytes <= remora::coll::ShmArea::kCellBytes) {
    auto request = runtime().collectives->requests.find(c->request);
    REQUIRE(std::dynamic_pointer_cast<remora::coll::ShmRequest>(request) != nullptr,
            "igather %d on communicator %d (%zu B per block) did not take the shm request", k,
            comm.id, bytes);
  }
}

void check(int repeat, const Call& c) {
  const Comm& comm = *c.comm;
  if (!c.alltoall && comm.rank != c.root) return;
  for (size_t r = 0; r < static_cast<size_t>(comm.size); ++r)
    for (size_t i = 0; i < c.count; ++i) {
      const int to = c.alltoall ? comm.rank : c.root;
      const int64_t expected = value(comm.world[r], to, repeat, comm.id, c.k, i);
      REQUIRE(c.recv[r * c.count + i] == expected,
              "repeat %d communicator %d call %d (%s, %zu int64) block %zu [%zu]: %lld, expected "
              "%lld",
              repeat, comm.id, c.k, c.alltoall ? "ialltoall" : "igather", c.count, r, i,
              static_cast<long long>(c.recv[r * c.count + i]), static_cast<long long>(expected));
    }
}

Comm describe(remora_comm_t handle, int id) {
  Comm comm;
  comm.handle = handle;
  comm.id = id;
  REQUIRE_OK(remora_comm_rank(handle, &comm.rank));
  REQUIRE_OK(remora_comm_size(handle, &comm.size));
  // The world rank of every member: an allgather of the world ranks.
  const int me = remora_rank();
  comm.world.assign(static_cast<size_t>(comm.size), -1);
  REQUIRE_OK(remora_allgather(&me, comm.world.data(), 1, REMORA_INT32, handle, REMORA_COLL_AUTO));
  return comm;
}

void run(const std::vector<Comm>& comms, int world_rank, int world_size, int repeat) {
  if (world_rank == world_size - 1) usleep(20000);  // starts late
  std::vector<std::unique_ptr<Call>> calls;
  for (int k = 0; k < kCalls; ++k)
    for (const Comm& comm : comms) {
      auto c = std::make_unique<Call>();
      c->comm = &comm;
      c->k = k;
      start(world_rank, repeat, c.get());
      calls.push_back(std::move(c));
    }
  // Each rank its own order: waits, test loops, and waitalls of up to three.
  std::mt19937 shuffle(static_cast<unsigned>(world_rank * 7919 + repeat));
  std::shuffle(calls.begin(), calls.end(), shuffle);
  for (size_t next = 0; next < calls.size();) {
    const size_t way = next % 4;
    if (way == 3) {
      const size_t batch = std::min<size_t>(3, calls.size() - next);
      std::vector<remora_request_t> requests;
      for (size_t j = 0; j < batch; ++j) requests.push_back(calls[next + j]->request);
      REQUIRE_OK(remora_request_waitall(static_cast<int>(batch), requests.data()));
      for (size_t j = 0; j < batch; ++j) {
        REQUIRE(requests[j] == REMORA_REQUEST_NULL, "waitall left request %zu", j);
        check(repeat, *calls[next + j]);
      }
      next += batch;
      continue;
    }
    Call& c = *calls[next++];
    if (way == 1) {
      int flag = 0;
      while (flag == 0) {
        REQUIRE_OK(remora_request_test(&c.request, &flag));
        if (flag == 0) remora_test::progress_and_yield();
      }
    } else {
      REQUIRE_OK(remora_request_wait(&c.request));
    }
    REQUIRE(c.request == REMORA_REQUEST_NULL, "completion left the request");
    check(repeat, c);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  remora_test::init(&argc, &argv, &rank, &size);
  remora_comm_t world = REMORA_COMM_NULL, dup = REMORA_COMM_NULL, reversed = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  REQUIRE_OK(remora_comm_dup(world, &dup));
  REQUIRE_OK(remora_comm_split(world, 0, size - rank, &reversed));
  const std::vector<Comm> comms = {describe(world, 0), describe(dup, 1), describe(reversed, 2)};
  for (int repeat = 0; repeat < 3; ++repeat) run(comms, rank, size, repeat);
  REQUIRE_OK(remora_comm_free(&reversed));
  REQUIRE_OK(remora_comm_free(&dup));
  REQUIRE_OK(remora_finalize());
  return 0;
}
