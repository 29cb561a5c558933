// Many message-based nonblocking collectives outstanding at once, over and over: the collective
// engine reuses the entries of what ended (the messenger's posted and unexpected queues, the
// instance table's running instances, the request table), so every repetition runs on entries
// that earlier collectives of other communicators, tags and sizes left. Per repetition, 12
// ialltoalls and igathers of the message-based algorithms (more message keys at once than the
// messenger keeps spare) on the world, a duplicate and a split into halves (overlapping
// communicators); the odd ranks start theirs and enter a barrier before the even ranks start
// theirs (messages then arrive before their receives on one side, after on the other), and each
// rank completes them in its own order: waits newest first, waitall, or test loops oldest first.
// Every result is an exact integer.
// With the argument "shm" the calls are mostly auto and shm ones of 8 B to 1 KiB blocks, with
// iallreduces and ibcasts among them (on one node: the shm request of small calls, which a
// communicator recycles, coll/shm_request.hpp), and each rank completes half of them (a shuffle
// of its own, waits and test loops), starts them again and checks that no new handle equals one
// still live, before completing the rest.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr int kCalls = 12;  // per communicator and repetition
constexpr int kRepetitions = 5;

struct Comm {
  remora_comm_t handle = REMORA_COMM_NULL;
  int rank = 0, size = 0, id = 0;
};

// What world rank `from` sends for block `block` in call `call`, element i.
int64_t value(int from, int block, int rep, int id, int call, size_t i) {
  return static_cast<int64_t>(from) * 1000003 + block * 10007 + rep * 1009 + id * 101 + call * 13 +
         static_cast<int64_t>(i);
}

struct Calls {
  std::vector<std::vector<int64_t>> send, recv;
  std::vector<remora_request_t> requests;
  std::vector<size_t> counts;
  std::vector<int> roots;  // -1: ialltoall
  std::vector<int> kinds;  // 0 ialltoall or igather (by root), 1 iallreduce, 2 ibcast (shm mode)
};

const remora_coll_algorithm_t kAlltoall[] = {REMORA_COLL_PAIRWISE, REMORA_COLL_RING,
                                             REMORA_COLL_FLAT};
const remora_coll_algorithm_t kGather[] = {REMORA_COLL_FLAT, REMORA_COLL_BINOMIAL,
                                           REMORA_COLL_BINARY};
// The "shm" mode's: mostly auto (the shm request on one node), explicit shm, and a
// message-based one among them.
const remora_coll_algorithm_t kShmAlltoall[] = {REMORA_COLL_AUTO, REMORA_COLL_SHM,
                                                REMORA_COLL_PAIRWISE};
const remora_coll_algorithm_t kShmGather[] = {REMORA_COLL_AUTO, REMORA_COLL_SHM, REMORA_COLL_FLAT};
bool shm_mode = false;

// Starts call `call` of calls (generation gen: 0 first, 1 when started again after completing).
void start_one(const Comm& c, int rep, int call, int gen, Calls* calls) {
  const auto n = static_cast<size_t>(c.size);
  const auto k = static_cast<size_t>(call);
  const int id = call + gen * kCalls;  // what the values carry
  // 8 B to 72 B blocks; in shm mode also 1 KiB ones (igather's cell round).
  size_t count = 1 + static_cast<size_t>((call + rep) % 3) * 4;
  if (shm_mode && (call + rep + gen) % 4 == 3) count = 128;
  calls->counts[k] = count;
  auto& send = calls->send[k];
  auto& recv = calls->recv[k];
  remora_request_t* request = &calls->requests[k];
  const size_t algorithm = static_cast<size_t>(call / 2 + rep + gen) % 3;
  calls->roots[k] = -1;
  calls->kinds[k] = 0;
  if (shm_mode && call % 6 == 2) {
    // iallreduce (auto: the shm request up to an inline slot) of every rank's values.
    calls->kinds[k] = 1;
    send.resize(count);
    for (size_t i = 0; i < count; ++i) send[i] = value(c.rank, 0, rep, c.id, id, i);
    recv.assign(count, -1);
    const remora_coll_algorithm_t algorithms[] = {REMORA_COLL_AUTO, REMORA_COLL_SHM,
                                                  REMORA_COLL_RECURSIVE_DOUBLING};
    REQUIRE_OK(remora_iallreduce(send.data(), recv.data(), count, REMORA_INT64, REMORA_OP_SUM,
                                 c.handle, algorithms[algorithm], request));
  } else if (shm_mode && call % 6 == 4) {
    // ibcast of the root's values.
    calls->kinds[k] = 2;
    const int root = (call + rep + gen) % c.size;
    calls->roots[k] = root;
    recv.assign(count, -1);
    if (c.rank == root)
      for (size_t i = 0; i < count; ++i) recv[i] = value(root, root, rep, c.id, id, i);
    REQUIRE_OK(remora_ibcast(recv.data(), count, REMORA_INT64, root, c.handle,
                             algorithm == 2 ? REMORA_COLL_BINOMIAL : kShmGather[algorithm],
                             request));
  } else if (call % 2 == 0) {
    send.resize(n * count);
    for (size_t block = 0; block < n; ++block)
      for (size_t i = 0; i < count; ++i)
        send[block * count + i] = value(c.rank, static_cast<int>(block), rep, c.id, id, i);
    recv.assign(n * count, -1);
    REQUIRE_OK(remora_ialltoall(send.data(), recv.data(), count, REMORA_INT64, c.handle,
                                shm_mode ? kShmAlltoall[algorithm] : kAlltoall[algorithm],
                                request));
  } else {
    const int root = (call + rep + gen) % c.size;
    calls->roots[k] = root;
    send.resize(count);
    for (size_t i = 0; i < count; ++i) send[i] = value(c.rank, root, rep, c.id, id, i);
    recv.assign(c.rank == root ? n * count : 0, -1);
    REQUIRE_OK(remora_igather(send.data(), recv.data(), count, REMORA_INT64, root, c.handle,
                              shm_mode ? kShmGather[algorithm] : kGather[algorithm], request));
  }
}

void start(const Comm& c, int rep, Calls* calls) {
  calls->send.assign(kCalls, {});
  calls->recv.assign(kCalls, {});
  calls->requests.assign(kCalls, REMORA_REQUEST_NULL);
  calls->counts.assign(kCalls, 0);
  calls->roots.assign(kCalls, -1);
  calls->kinds.assign(kCalls, 0);
  for (int call = 0; call < kCalls; ++call) start_one(c, rep, call, 0, calls);
}

void complete(int how, Calls* calls) {
  switch (how) {
    case 0:
      for (int call = kCalls - 1; call >= 0; --call)
        REQUIRE_OK(remora_request_wait(&calls->requests[static_cast<size_t>(call)]));
      break;
    case 1:
      REQUIRE_OK(remora_request_waitall(kCalls, calls->requests.data()));
      break;
    default:
      for (auto& request : calls->requests) {
        int flag = 0;
        while (flag == 0) {
          REQUIRE_OK(remora_request_test(&request, &flag));
          if (flag == 0) REQUIRE_OK(remora_progress());
        }
      }
      break;
  }
  for (const auto& request : calls->requests)
    REQUIRE(request == REMORA_REQUEST_NULL, "a completed request was not freed");
}

// Checks call `call` (of generation gen, see start_one).
void check_one(const Comm& c, int rep, int call, int gen, const Calls& calls) {
  const auto k = static_cast<size_t>(call);
  const size_t count = calls.counts[k];
  const int root = calls.roots[k];
  const auto& recv = calls.recv[k];
  const int id = call + gen * kCalls;
  if (calls.kinds[k] != 0) {
    for (size_t i = 0; i < count; ++i) {
      int64_t expected = 0;
      if (calls.kinds[k] == 2)
        expected = value(root, root, rep, c.id, id, i);
      else
        for (int from = 0; from < c.size; ++from) expected += value(from, 0, rep, c.id, id, i);
      REQUIRE(recv[i] == expected, "rep %d comm %d call %d (%s) [%zu]: %lld, expected %lld", rep,
              c.id, id, calls.kinds[k] == 2 ? "ibcast" : "iallreduce", i,
              static_cast<long long>(recv[i]), static_cast<long long>(expected));
    }
    return;
  }
  if (root >= 0 && c.rank != root) return;
  for (int from = 0; from < c.size; ++from)
    for (size_t i = 0; i < count; ++i) {
      const int block = root >= 0 ? root : c.rank;
      const int64_t expected = value(from, block, rep, c.id, id, i);
      const int64_t got = recv[static_cast<size_t>(from) * count + i];
      REQUIRE(got == expected, "rep %d comm %d call %d from %d [%zu]: %lld, expected %lld", rep,
              c.id, id, from, i, static_cast<long long>(got), static_cast<long long>(expected));
    }
}

void check(const Comm& c, int rep, const Calls& calls, const std::vector<int>& generation) {
  for (int call = 0; call < kCalls; ++call)
    check_one(c, rep, call, generation[static_cast<size_t>(call)], calls);
}

// No two live requests share a handle (a recycled request object must not be one in use).
void check_distinct(const Calls* calls, int comms) {
  std::vector<remora_request_t> live;
  for (int id = 0; id < comms; ++id)
    for (remora_request_t request : calls[id].requests)
      if (request != REMORA_REQUEST_NULL) live.push_back(request);
  std::sort(live.begin(), live.end());
  REQUIRE(std::adjacent_find(live.begin(), live.end()) == live.end(),
          "two live requests share a handle");
}

// shm mode: completes every second call of each communicator (the even ones or the odd ones by
// repetition) in a shuffled order, waits and test loops alternating, checks them, starts them again
// (the other ranks start them in the same order: only the completion order is a rank's own) and
// checks that the new handles alias no live one.
void complete_half_and_restart(const Comm* comms, int rep, std::mt19937* random, Calls* calls,
                               std::vector<int>* generation) {
  std::vector<std::pair<int, int>> order;  // (communicator, call)
  for (int id = 0; id < 3; ++id)
    for (int call = rep % 2; call < kCalls; call += 2) order.emplace_back(id, call);
  std::shuffle(order.begin(), order.end(), *random);
  for (size_t i = 0; i < order.size(); ++i) {
    const auto [id, call] = order[i];
    remora_request_t* request = &calls[id].requests[static_cast<size_t>(call)];
    if (i % 2 == 0) {
      REQUIRE_OK(remora_request_wait(request));
    } else {
      int flag = 0;
      while (flag == 0) {
        REQUIRE_OK(remora_request_test(request, &flag));
        if (flag == 0) REQUIRE_OK(remora_progress());
      }
    }
    REQUIRE(*request == REMORA_REQUEST_NULL, "a completed request was not freed");
    check_one(comms[id], rep, call, 0, calls[id]);
  }
  for (int id = 0; id < 3; ++id)
    for (int call = rep % 2; call < kCalls; call += 2) {
      start_one(comms[id], rep, call, 1, &calls[id]);
      (*generation)[static_cast<size_t>(id * kCalls + call)] = 1;
      check_distinct(calls, 3);
    }
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  shm_mode = argc > 1 && std::strcmp(argv[1], "shm") == 0;
  remora_comm_t world = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  const int me = remora_rank();
  // The barrier between early and late starts has a communicator of its own: on one that the
  // early ranks already started collectives on, it would be out of their order.
  remora_comm_t sync = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_dup(world, &sync));
  Comm comms[3];
  comms[0].handle = world;
  REQUIRE_OK(remora_comm_dup(world, &comms[1].handle));
  REQUIRE_OK(remora_comm_split(world, me % 2, me, &comms[2].handle));
  for (int id = 0; id < 3; ++id) {
    comms[id].id = id;
    REQUIRE_OK(remora_comm_rank(comms[id].handle, &comms[id].rank));
    REQUIRE_OK(remora_comm_size(comms[id].handle, &comms[id].size));
  }
  const bool early = me % 2 == 1;
  std::mt19937 random(static_cast<unsigned>(me) * 7919U + 17U);
  const int repetitions = shm_mode ? 2 * kRepetitions : kRepetitions;
  for (int rep = 0; rep < repetitions; ++rep) {
    Calls calls[3];
    std::vector<int> generation(3 * kCalls, 0);  // by id * kCalls + call
    if (early)
      for (int id = 0; id < 3; ++id) start(comms[id], rep, &calls[id]);
    REQUIRE_OK(remora_comm_barrier(sync, REMORA_COLL_DISSEMINATION));
    if (!early)
      for (int id = 0; id < 3; ++id) start(comms[id], rep, &calls[id]);
    check_distinct(calls, 3);
    if (shm_mode) complete_half_and_restart(comms, rep, &random, calls, &generation);
    for (int step = 0; step < 3; ++step) {
      const int id = early ? 2 - step : step;  // opposite orders on odd and even ranks
      complete((rep + me + step) % 3, &calls[id]);
      check(comms[id], rep, calls[id],
            std::vector<int>(generation.begin() + id * kCalls,
                             generation.begin() + (id + 1) * kCalls));
    }
  }
  REQUIRE_OK(remora_comm_free(&sync));
  REQUIRE_OK(remora_comm_free(&comms[1].handle));
  REQUIRE_OK(remora_comm_free(&comms[2].handle));
  REQUIRE_OK(remora_finalize());
  return 0;
}
