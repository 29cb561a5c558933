// Small auto ialltoalls (1 to 128 int64 per block: the shm request without a schedule,
// coll/shm_request.hpp; 0 and 129: none and, above 2 ranks, the message-based default) many
// outstanding at once on the world, a duplicate and a split (more than the two cells of a
// member: later calls publish only once the others have read the earlier ones), some in place,
// with small igathers, ialltoalls of blocks that fill one round (ShmArea::alltoall_piece: a
// whole cell at 2 ranks, where auto takes the request for them; explicit shm above), larger
// explicit shm ialltoalls (the schedule's cell rounds, two or more) among them and a blocking
// alltoall while they are outstanding (it runs behind them). The last rank sleeps before it
// starts them; ranks complete them in opposite orders, by waits, test loops and waitall. Every
// result is an exact integer. Checks that the small auto calls took the request without a
// schedule (INTERNAL: the request behind the handle), except under thread progress (auto keeps
// message-based schedules there). Mixed calls (an ialltoall or igather of 200 int64 per block)
// are made by odd ranks as 1600 uint8, above the C API's small entry (at most 1024 elements),
// so that members that start the request by the small entry (coll_api.cpp's small_call) meet
// members that start it through the full path (Collectives::launch) in one collective: both
// must choose alike (at 2 ranks the request, above it the message-based ialltoall).
#include <unistd.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "api/runtime.hpp"
#include "coll/shm_area.hpp"
#include "coll/shm_request.hpp"
#include "multirank.hpp"

namespace {

constexpr int kCalls = 20;  // per communicator and repetition
const size_t kCounts[] = {1, 2, 3, 7, 0, 128, 4, 129, 1, 5};

remora::api::Runtime& runtime() {
  remora::api::Runtime* found = nullptr;
  REQUIRE_OK(remora::api::enter("coll_shm_small_ialltoall", &found));
  return *found;
}

// Block `to` of rank `from`'s input.
int64_t value(int from, int to, int repeat, int call, size_t i) {
  return from * 1000003 + to * 10007 + repeat * 1009 + call * 31 + static_cast<int64_t>(i);
}

enum class Kind { Small, Gather, OneRound, LargeShm, Mixed };
constexpr size_t kMixedCount = 200;  // int64 per block of a Mixed call

struct Call {
  Kind kind = Kind::Small;
  size_t count = 0;
  bool in_place = false;
  int root = 0;
  std::vector<int64_t> send, recv;
  remora_request_t request = REMORA_REQUEST_NULL;
};

void start(remora_comm_t comm, int rank, int size, int repeat, int k, Call* c) {
  const auto n = static_cast<size_t>(size);
  c->kind = k % 7 == 3    ? Kind::Gather
            : k % 9 == 8  ? Kind::LargeShm
            : k % 11 == 5 ? Kind::OneRound
            : k % 13 == 6 ? Kind::Mixed
                          : Kind::Small;
  if (c->kind == Kind::Mixed) {
    // Odd ranks pass the same bytes as uint8 elements (a type signature that matches).
    const bool bytes = rank % 2 == 1;
    const remora_datatype_t type = bytes ? REMORA_UINT8 : REMORA_INT64;
    const size_t elements = bytes ? kMixedCount * sizeof(int64_t) : kMixedCount;
    c->count = kMixedCount;
    const bool gather = repeat % 2 == 1;
    c->root = (k + repeat) % size;
    c->send.resize(c->count * (gather ? 1 : n));
    for (size_t to = 0; to < c->send.size() / c->count; ++to)
      for (size_t i = 0; i < c->count; ++i)
        c->send[to * c->count + i] = value(rank, static_cast<int>(to), repeat, k, i);
    c->recv.assign(c->count * n, -1);
    if (gather)
      REQUIRE_OK(remora_igather(c->send.data(), c->recv.data(), elements, type, c->root, comm,
                                REMORA_COLL_AUTO, &c->request));
    else
      REQUIRE_OK(remora_ialltoall(c->send.data(), c->recv.data(), elements, type, comm,
                                  REMORA_COLL_AUTO, &c->request));
    // igather of one cell or less and, at 2 ranks, ialltoall of one round: the request, by
    // either entry (auto, manual or ghost progress, a communicator with its area).
    const bool request = (gather || size == 2) &&
                         runtime().progress->mode() != remora::progress::Mode::Thread &&
                         runtime().collectives->communicators.find(comm)->shm_area_ptr() != nullptr;
    if (request)
      REQUIRE(std::dynamic_pointer_cast<remora::coll::ShmRequest>(
                  runtime().collectives->requests.find(c->request)) != nullptr,
              "mixed call %d (%s) did not take the shm request", k,
              gather ? "igather" : "ialltoall");
    return;
  }
  // One round: every block as large as a round takes (k = 16: a few elements less).
  const size_t round = remora::coll::ShmArea::alltoall_piece(size, sizeof(int64_t));
  c->count = c->kind == Kind::LargeShm   ? round + 1000
             : c->kind == Kind::OneRound ? round - static_cast<size_t>(k / 11 * 3)
                                         : kCounts[static_cast<size_t>(k) % 10];
  if (c->kind == Kind::Gather) {
    c->count = 1 + static_cast<size_t>(k % 6);  // up to 48 B: the inline round
    c->root = (k + repeat) % size;
    c->send.resize(c->count);
    for (size_t i = 0; i < c->count; ++i) c->send[i] = value(rank, 0, repeat, k, i);
    c->recv.assign(c->count * n, -1);
    REQUIRE_OK(remora_igather(c->send.data(), c->recv.data(), c->count, REMORA_INT64, c->root, comm,
                              REMORA_COLL_AUTO, &c->request));
    return;
  }
  c->in_place = k % 3 == 1;
  c->send.resize(c->count * n);
  for (size_t to = 0; to < n; ++to)
    for (size_t i = 0; i < c->count; ++i)
      c->send[to * c->count + i] = value(rank, static_cast<int>(to), repeat, k, i);
  c->recv.assign(c->count * n, -1);
  if (c->in_place) c->recv = c->send;
  const bool explicit_shm = c->kind == Kind::LargeShm || (c->kind == Kind::OneRound && size > 2);
  const remora_coll_algorithm_t algorithm = explicit_shm ? REMORA_COLL_SHM : REMORA_COLL_AUTO;
  REQUIRE_OK(remora_ialltoall(c->in_place ? REMORA_IN_PLACE : c->send.data(), c->recv.data(),
                              c->count, REMORA_INT64, comm, algorithm, &c->request));
  // On a communicator with its shared area (one node; not under MPI across nodes): auto under
  // manual or ghost progress takes the request without a schedule for blocks of 1 to 128 int64
  // and at 2 ranks for those of one round; shm takes it for blocks of one round in every mode.
  // Not for blocks of the area's single-copy size (at 2 ranks by default one cell, the whole
  // round: the single-copy rounds on a schedule).
  const remora::coll::ShmArea* area =
      runtime().collectives->communicators.find(comm)->shm_area_ptr();
  const size_t single_copy =
      area != nullptr ? area->single_copy_bytes(remora::coll::Operation::Alltoall) : 0;
  const bool copied_single = single_copy != 0 && c->count * sizeof(int64_t) >= single_copy;
  const bool small = c->kind == Kind::Small && c->count >= 1 && c->count <= 128;
  const bool auto_request =
      (small || c->kind == Kind::OneRound) && !copied_single &&
      (explicit_shm || runtime().progress->mode() != remora::progress::Mode::Thread);
  if (auto_request && area != nullptr) {
    auto request = runtime().collectives->requests.find(c->request);
    REQUIRE(std::dynamic_pointer_cast<remora::coll::ShmRequest>(request) != nullptr,
            "call %d (%zu int64 per block) did not take the shm request", k, c->count);
  }
}

void check(int rank, int size, int repeat, int k, const Call& c) {
  const auto n = static_cast<size_t>(size);
  if (c.kind == Kind::Gather || (c.kind == Kind::Mixed && repeat % 2 == 1)) {
    if (rank != c.root) return;
    for (size_t from = 0; from < n; ++from)
      for (size_t i = 0; i < c.count; ++i)
        REQUIRE(c.recv[from * c.count + i] == value(static_cast<int>(from), 0, repeat, k, i),
                "repeat %d igather %d from %zu [%zu]: %lld", repeat, k, from, i,
                static_cast<long long>(c.recv[from * c.count + i]));
    return;
  }
  for (size_t from = 0; from < n; ++from)
    for (size_t i = 0; i < c.count; ++i)
      REQUIRE(c.recv[from * c.count + i] == value(static_cast<int>(from), rank, repeat, k, i),
              "repeat %d ialltoall %d (%zu per block%s) from %zu [%zu]: %lld", repeat, k, c.count,
              c.in_place ? ", in place" : "", from, i,
              static_cast<long long>(c.recv[from * c.count + i]));
}

void run(remora_comm_t comm, int repeat) {
  int rank = 0, size = 0;
  REQUIRE_OK(remora_comm_rank(comm, &rank));
  REQUIRE_OK(remora_comm_size(comm, &size));
  const auto n = static_cast<size_t>(size);
  if (rank == size - 1) usleep(20000);  // starts late: the others publish ahead or wait for it
  std::vector<Call> calls(kCalls);
  for (int k = 0; k < kCalls; ++k) {
    start(comm, rank, size, repeat, k, &calls[static_cast<size_t>(k)]);
    if (k != kCalls / 2) continue;
    // A blocking alltoall while the earlier calls are outstanding: it runs after them.
    std::vector<int64_t> send(n), recv(n, -1);
    for (size_t to = 0; to < n; ++to) send[to] = value(rank, static_cast<int>(to), repeat, -1, 0);
    REQUIRE_OK(remora_alltoall(send.data(), recv.data(), 1, REMORA_INT64, comm, REMORA_COLL_AUTO));
    for (size_t from = 0; from < n; ++from)
      REQUIRE(recv[from] == value(static_cast<int>(from), rank, repeat, -1, 0),
              "repeat %d blocking alltoall from %zu: %lld", repeat, from,
              static_cast<long long>(recv[from]));
  }
  if (repeat % 3 == 2) {
    std::vector<remora_request_t> requests;
    for (const Call& c : calls) requests.push_back(c.request);
    REQUIRE_OK(remora_request_waitall(kCalls, requests.data()));
    for (int k = 0; k < kCalls; ++k) check(rank, size, repeat, k, calls[static_cast<size_t>(k)]);
    return;
  }
  for (int j = 0; j < kCalls; ++j) {
    const int k = rank % 2 == 0 ? j : kCalls - 1 - j;
    Call& c = calls[static_cast<size_t>(k)];
    if (k % 4 == 1) {
      int flag = 0;
      while (flag == 0) {
        REQUIRE_OK(remora_request_test(&c.request, &flag));
        if (flag == 0) remora_test::progress_and_yield();
      }
    } else {
      REQUIRE_OK(remora_request_wait(&c.request));
    }
    check(rank, size, repeat, k, c);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  remora_test::init(&argc, &argv, &rank, &size);
  remora_comm_t world = REMORA_COMM_NULL, dup = REMORA_COMM_NULL, half = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  REQUIRE_OK(remora_comm_dup(world, &dup));
  REQUIRE_OK(remora_comm_split(world, rank < (size + 1) / 2 ? 0 : 1, -rank, &half));
  for (int repeat = 0; repeat < 3; ++repeat) {
    run(world, repeat);
    run(dup, repeat);
    run(half, repeat);
  }
  REQUIRE_OK(remora_comm_free(&half));
  REQUIRE_OK(remora_comm_free(&dup));
  REQUIRE_OK(remora_finalize());
  return 0;
}
