// Small auto igathers (blocks of 0 to 128 B: up to ShmArea::kInlineBytes = 120 the shm
// request's one inline round, 128 B its one round in the cells, 0 B none) many outstanding at once
// on the world and a duplicate, with rotating roots, in place at some roots and more calls than
// the ring has slots; the last rank sleeps before it starts them (the others publish ahead or wait
// for it), and ranks complete them in opposite orders, some by test loops. Every result is an
// exact integer.
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr int kCalls = 72;  // more than the 64 inline slots of a member's ring

int64_t value(int rank, int repeat, int call, size_t i) {
  return rank * 100003 + repeat * 1009 + call * 31 + static_cast<int64_t>(i);
}

struct Gather {
  std::vector<int64_t> send, recv;
  remora_request_t request = REMORA_REQUEST_NULL;
  size_t count = 0;
  int root = 0;
  bool in_place = false;
};

void run(remora_comm_t comm, int repeat) {
  int rank = 0, size = 0;
  REQUIRE_OK(remora_comm_rank(comm, &rank));
  REQUIRE_OK(remora_comm_size(comm, &size));
  const auto n = static_cast<size_t>(size);
  if (rank == size - 1) usleep(20000);  // starts late
  std::vector<Gather> calls(kCalls);
  for (int k = 0; k < kCalls; ++k) {
    Gather& g = calls[static_cast<size_t>(k)];
    g.count = static_cast<size_t>(k % 17);  // 0 .. 16 int64: 0 .. 128 B
    g.root = (k + repeat) % size;
    g.in_place = rank == g.root && k % 3 == 0;
    g.send.resize(g.count);
    for (size_t i = 0; i < g.count; ++i) g.send[i] = value(rank, repeat, k, i);
    g.recv.assign(g.count * n, -1);
    if (g.in_place)
      for (size_t i = 0; i < g.count; ++i)
        g.recv[static_cast<size_t>(rank) * g.count + i] = g.send[i];
    REQUIRE_OK(remora_igather(g.in_place ? REMORA_IN_PLACE : g.send.data(), g.recv.data(), g.count,
                              REMORA_INT64, g.root, comm, REMORA_COLL_AUTO, &g.request));
  }
  for (int j = 0; j < kCalls; ++j) {
    const int k = rank % 2 == 0 ? j : kCalls - 1 - j;
    Gather& g = calls[static_cast<size_t>(k)];
    if (k % 4 == 1) {
      int flag = 0;
      while (flag == 0) {
        REQUIRE_OK(remora_request_test(&g.request, &flag));
        if (flag == 0) remora_test::progress_and_yield();
      }
    } else {
      REQUIRE_OK(remora_request_wait(&g.request));
    }
    if (rank != g.root) continue;
    for (size_t r = 0; r < n; ++r)
      for (size_t i = 0; i < g.count; ++i)
        REQUIRE(g.recv[r * g.count + i] == value(static_cast<int>(r), repeat, k, i),
                "repeat %d call %d count %zu from %zu [%zu]: %lld", repeat, k, g.count, r, i,
                static_cast<long long>(g.recv[r * g.count + i]));
  }
}

}  // namespace

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  remora_test::init(&argc, &argv, &rank, &size);
  remora_comm_t world = REMORA_COMM_NULL, dup = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  REQUIRE_OK(remora_comm_dup(world, &dup));
  for (int repeat = 0; repeat < 3; ++repeat) {
    run(world, repeat);
    run(dup, repeat);
  }
  REQUIRE_OK(remora_comm_free(&dup));
  REQUIRE_OK(remora_finalize());
  return 0;
}
