// Application-bypass reduce through the shared slots (coll/bypass_slots.hpp: the flat tree on a
// communicator whose ranks share a node, up to 1 KiB; larger ones take messages): the root
// checks every element of every call against the flat tree's fold (its input, then the last
// rank's, down to the first after it: floating point bitwise), over
//   - types and ops (double and int64 sums, int64 max, int32 min and prod, uint8 bxor), counts
//     on both sides of the slot limit, every rank as root, in place at the root;
//   - skewed arrivals: every rank sleeps a drawn time before each call, and the root comes
//     first (it sleeps in its wait and is woken by the last contribution) or last;
//   - many calls back to back with no barrier, one root, so that the others run a ring of
//     slots ahead and wait for the root to free one (the root sleeps now and then);
//   - blocking and nonblocking calls mixed on one call, several outstanding at once, and one
//     left outstanding at its root across more than a ring of later calls;
//   - nonblocking calls made while their slots are still held (a slow root), then more than
//     two rings of blocking calls before their requests are waited for;
//   - a split communicator's calls between the world's (each has its own area).
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "multirank.hpp"

namespace {

struct Case {
  remora_datatype_t type;
  remora_op_t op;
  size_t count;
};

size_t extent_of(remora_datatype_t type) {
  switch (type) {
    case REMORA_DOUBLE:
    case REMORA_INT64:
      return 8;
    case REMORA_INT32:
      return 4;
    default:
      return 1;
  }
}

// Element i of rank r's input to call k: values whose sum in another order would round
// differently (double), fit the type after the fold (prod: -1, 1 or 2 per rank).
void fill(const Case& c, int r, uint64_t k, void* out) {
  for (size_t i = 0; i < c.count; ++i) {
    const uint64_t mix = static_cast<uint64_t>(r) * 7 + i * 3 + k;
    switch (c.type) {
      case REMORA_DOUBLE:
        static_cast<double*>(out)[i] = (r + 1) * 0.1 + static_cast<double>(i) * 1e-3 +
                                       static_cast<double>(k % 97) * 1e15 * (r % 2);
        break;
      case REMORA_INT64:
        static_cast<int64_t*>(out)[i] =
            c.op == REMORA_OP_SUM ? (r + 1) * static_cast<int64_t>(i + 3) + static_cast<int64_t>(k)
                                  : static_cast<int64_t>(mix % 11) - 5;
        break;
      case REMORA_INT32:
        static_cast<int32_t*>(out)[i] = c.op == REMORA_OP_PROD ? (mix % 3 == 0   ? 2
                                                                  : mix % 3 == 1 ? 1
                                                                                 : -1)
                                                               : static_cast<int32_t>(mix % 13) - 6;
        break;
      default:
        static_cast<uint8_t*>(out)[i] = static_cast<uint8_t>(r * 31 + i * 7 + k);
        break;
    }
  }
}

template <typename T>
T combine(remora_op_t op, T a, T b) {
  switch (op) {
    case REMORA_OP_SUM:
      return static_cast<T>(a + b);
    case REMORA_OP_PROD:
      return static_cast<T>(a * b);
    case REMORA_OP_MAX:
      return a > b ? a : b;
    case REMORA_OP_MIN:
      return a < b ? a : b;
    default:
      if constexpr (std::is_integral_v<T>) return static_cast<T>(a ^ b);
      return a;
  }
}

template <typename T>
void fold_into(remora_op_t op, T* acc, const T* in, size_t count) {
  for (size_t i = 0; i < count; ++i) acc[i] = combine(op, acc[i], in[i]);
}

// The flat tree's result at root: its input, then rank root-1's ... down to root+1's
// (relative ranks size-1 to 1).
std::vector<uint8_t> expected(const Case& c, int root, int size, uint64_t k) {
  const size_t bytes = c.count * extent_of(c.type);
  std::vector<uint8_t> acc(bytes), in(bytes);
  fill(c, root, k, acc.data());
  for (int relative = size - 1; relative >= 1; --relative) {
    fill(c, (root + relative) % size, k, in.data());
    switch (c.type) {
      case REMORA_DOUBLE:
        fold_into(c.op, reinterpret_cast<double*>(acc.data()),
                  reinterpret_cast<const double*>(in.data()), c.count);
        break;
      case REMORA_INT64:
        fold_into(c.op, reinterpret_cast<int64_t*>(acc.data()),
                  reinterpret_cast<const int64_t*>(in.data()), c.count);
        break;
      case REMORA_INT32:
        fold_into(c.op, reinterpret_cast<int32_t*>(acc.data()),
                  reinterpret_cast<const int32_t*>(in.data()), c.count);
        break;
      default:
        fold_into(c.op, acc.data(), in.data(), c.count);
        break;
    }
  }
  return acc;
}

// The reduce of call k on comm (blocking, or started into *request when given); the caller
// checks the root's result with check() once it is complete.
struct Call {
  Case c;
  int root;
  uint64_t k;
  bool in_place;
  std::vector<uint8_t> send, recv;
};

void start(Call& call, int rank, remora_comm_t comm, remora_request_t* request) {
  const size_t bytes = call.c.count * extent_of(call.c.type);
  call.send.assign(bytes + 1, 0);
  call.recv.assign(bytes + 1, 0xee);
  const bool in_place = call.in_place && rank == call.root;
  fill(call.c, rank, call.k, in_place ? call.recv.data() : call.send.data());
  const void* send = in_place ? REMORA_IN_PLACE : call.send.data();
  if (request == nullptr)
    REQUIRE_OK(remora_reduce(send, call.recv.data(), call.c.count, call.c.type, call.c.op,
                             call.root, comm, REMORA_COLL_APPLICATION_BYPASS));
  else
    REQUIRE_OK(remora_ireduce(send, call.recv.data(), call.c.count, call.c.type, call.c.op,
                              call.root, comm, REMORA_COLL_APPLICATION_BYPASS, request));
  // The input may be reused as soon as the call returns (copied into the slot or a message).
  if (!call.send.empty()) std::memset(call.send.data(), 0x5a, call.send.size());
}

void check(const Call& call, int rank, int size, const char* phase) {
  if (rank != call.root) return;
  const std::vector<uint8_t> want = expected(call.c, call.root, size, call.k);
  REQUIRE(want.empty() || std::memcmp(want.data(), call.recv.data(), want.size()) == 0,
          "%s: type %d op %d count %zu root %d call %llu: wrong result", phase,
          static_cast<int>(call.c.type), static_cast<int>(call.c.op), call.c.count, call.root,
          static_cast<unsigned long long>(call.k));
  REQUIRE(call.recv[want.size()] == 0xee, "%s: wrote past the result", phase);
}

void run_blocking(Call call, int rank, int size, remora_comm_t comm, const char* phase) {
  start(call, rank, comm, nullptr);
  check(call, rank, size, phase);
}

const std::vector<Case>& cases() {
  static const std::vector<Case> all{
      {REMORA_DOUBLE, REMORA_OP_SUM, 1},    {REMORA_DOUBLE, REMORA_OP_SUM, 4},
      {REMORA_DOUBLE, REMORA_OP_SUM, 128},  {REMORA_DOUBLE, REMORA_OP_SUM, 129},
      {REMORA_INT64, REMORA_OP_SUM, 7},     {REMORA_INT64, REMORA_OP_MAX, 32},
      {REMORA_INT32, REMORA_OP_MIN, 255},   {REMORA_INT32, REMORA_OP_PROD, 256},
      {REMORA_UINT8, REMORA_OP_BXOR, 3},    {REMORA_UINT8, REMORA_OP_BXOR, 1024},
      {REMORA_UINT8, REMORA_OP_BXOR, 1025}, {REMORA_INT64, REMORA_OP_SUM, 0}};
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  remora_comm_t world = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  std::mt19937 random(2026);  // every rank draws the same numbers
  uint64_t k = 0;

  // Every case at every root, with drawn skews and with the root first and last.
  for (const Case& c : cases()) {
    for (int root = 0; root < size; ++root) {
      for (int arrival = 0; arrival < 3; ++arrival) {
        std::vector<unsigned> delay(static_cast<size_t>(size));
        for (unsigned& d : delay) d = static_cast<unsigned>(random() % 300);
        if (arrival == 1) delay[static_cast<size_t>(root)] = 0;     // the root first
        if (arrival == 2) delay[static_cast<size_t>(root)] = 2000;  // the root last
        if (arrival == 1)
          for (int r = 0; r < size; ++r)
            if (r != root) delay[static_cast<size_t>(r)] += 2000;
        usleep(delay[static_cast<size_t>(rank)]);
        run_blocking(Call{c, root, ++k, arrival == 2, {}, {}}, rank, size, world, "skewed");
      }
    }
    REQUIRE_OK(remora_barrier());
  }

  // Back to back, one root: the others run ahead of it by more than a ring of slots.
  const Case small{REMORA_INT64, REMORA_OP_SUM, 4};
  for (int i = 0; i < 2000; ++i) {
    if (rank == 0 && i % 250 == 0) usleep(3000);
    run_blocking(Call{small, 0, ++k, false, {}, {}}, rank, size, world, "back to back");
  }
  // ... and with the root rotating, sizes alternating around the slot limit.
  for (int i = 0; i < 400; ++i) {
    const Case c{REMORA_DOUBLE, REMORA_OP_SUM, i % 3 == 2 ? size_t{129} : size_t{1} + i % 64};
    run_blocking(Call{c, i % size, ++k, false, {}, {}}, rank, size, world, "rotating");
  }
  REQUIRE_OK(remora_barrier());

  // Nonblocking and blocking mixed: several outstanding per rank, each call blocking at odd
  // ranks and nonblocking at even ones.
  for (int round = 0; round < 50; ++round) {
    std::vector<Call> calls;
    for (int j = 0; j < 6; ++j)
      calls.push_back(Call{cases()[static_cast<size_t>(round + j) % cases().size()],
                           (round + j) % size,
                           ++k,
                           j == 3,
                           {},
                           {}});
    std::vector<remora_request_t> requests;
    for (Call& call : calls) {
      if (rank % 2 == 0) {
        requests.emplace_back();
        start(call, rank, world, &requests.back());
      } else {
        start(call, rank, world, nullptr);
      }
    }
    if (!requests.empty())
      REQUIRE_OK(remora_request_waitall(static_cast<int>(requests.size()), requests.data()));
    for (const Call& call : calls) check(call, rank, size, "mixed");
  }

  // A nonblocking call left outstanding at its root while more than a ring of slots' worth of
  // later calls to that root follow: the members wait for the root to free their slot of it,
  // which it must do while it waits in the later calls.
  for (int round = 0; round < 3; ++round) {
    const int root = round % size;
    Call first{small, root, ++k, false, {}, {}};
    remora_request_t request;
    start(first, rank, world, &request);
    for (int i = 0; i < 40; ++i)
      run_blocking(Call{small, root, ++k, false, {}, {}}, rank, size, world, "outstanding");
    REQUIRE_OK(remora_request_wait(&request));
    check(first, rank, size, "outstanding (first)");
  }

  // Nonblocking calls that cannot deposit when they are made (their members run a ring of
  // slots ahead of a slow root), followed by more than two rings of blocking calls to the same
  // root before the requests are waited for. The early members (odd ranks) start theirs while
  // the root is still in a barrier on another communicator, before it folds the ring's earlier
  // calls; the late ones once it has. A member's contributions must go in in call order and
  // be deposited by any wait: when the early members' later calls took their slot first, the
  // root could not fold the early calls, the late members waited for their slots of them a
  // ring later, and the early members for the root a ring after that (deadlock).
  remora_comm_t other = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_dup(world, &other));
  constexpr int kRing = 16;  // BypassSlots::kSlots
  for (int round = 0; round < 3; ++round) {
    const int root = round % size;
    const bool early = rank % 2 != root % 2;
    REQUIRE_OK(remora_barrier());  // every earlier call is folded: the ring is free
    std::vector<Call> ring, deferred, after;
    for (int i = 0; i < kRing; ++i) ring.push_back(Call{small, root, ++k, false, {}, {}});
    for (int i = 0; i < 3; ++i)
      deferred.push_back(
          Call{cases()[static_cast<size_t>(i + round) % cases().size()], root, ++k, false, {}, {}});
    for (int i = 0; i < 2 * kRing + 2; ++i) after.push_back(Call{small, root, ++k, false, {}, {}});
    std::vector<remora_request_t> requests(deferred.size());
    const auto start_deferred = [&] {
      for (size_t i = 0; i < deferred.size(); ++i) start(deferred[i], rank, world, &requests[i]);
    };
    if (rank == root) {
      REQUIRE_OK(remora_comm_barrier(other, REMORA_COLL_AUTO));
      usleep(20000);  // the early members' first waits find their slots still held
    }
    for (const Call& call : ring) run_blocking(call, rank, size, world, "deferred (ring)");
    if (rank != root && early) start_deferred();
    if (rank != root) REQUIRE_OK(remora_comm_barrier(other, REMORA_COLL_AUTO));
    REQUIRE_OK(remora_comm_barrier(other, REMORA_COLL_AUTO));
    if (rank == root || !early) start_deferred();
    for (const Call& call : after) run_blocking(call, rank, size, world, "deferred (after)");
    REQUIRE_OK(remora_request_waitall(static_cast<int>(requests.size()), requests.data()));
    for (const Call& call : deferred) check(call, rank, size, "deferred");
  }
  REQUIRE_OK(remora_comm_free(&other));

  // A split communicator's calls between the world's.
  remora_comm_t half = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_split(world, rank % 2, size - rank, &half));
  int half_rank = -1, half_size = 0;
  REQUIRE_OK(remora_comm_rank(half, &half_rank));
  REQUIRE_OK(remora_comm_size(half, &half_size));
  uint64_t half_k = 1000000;
  for (int i = 0; i < 200; ++i) {
    const Case c = cases()[static_cast<size_t>(i) % cases().size()];
    run_blocking(Call{c, i % half_size, ++half_k, false, {}, {}}, half_rank, half_size, half,
                 "split");
    run_blocking(Call{c, (i + 1) % size, ++k, false, {}, {}}, rank, size, world, "world");
  }
  REQUIRE_OK(remora_comm_free(&half));
  REQUIRE_OK(remora_finalize());
  return 0;
}
