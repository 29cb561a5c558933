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
#include <cstdint>
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
};

const remora_coll_algorithm_t kAlltoall[] = {REMORA_COLL_PAIRWISE, REMORA_COLL_RING,
                                             REMORA_COLL_FLAT};
const remora_coll_algorithm_t kGather[] = {REMORA_COLL_FLAT, REMORA_COLL_BINOMIAL,
                                           REMORA_COLL_BINARY};

void start(const Comm& c, int rep, Calls* calls) {
  calls->send.assign(kCalls, {});
  calls->recv.assign(kCalls, {});
  calls->requests.assign(kCalls, REMORA_REQUEST_NULL);
  calls->counts.assign(kCalls, 0);
  calls->roots.assign(kCalls, -1);
  const auto n = static_cast<size_t>(c.size);
  for (int call = 0; call < kCalls; ++call) {
    const auto k = static_cast<size_t>(call);
    const size_t count = 1 + static_cast<size_t>((call + rep) % 3) * 4;  // 8 B to 72 B blocks
    calls->counts[k] = count;
    auto& send = calls->send[k];
    auto& recv = calls->recv[k];
    remora_request_t* request = &calls->requests[k];
    const size_t algorithm = static_cast<size_t>(call / 2 + rep) % 3;
    if (call % 2 == 0) {
      send.resize(n * count);
      for (size_t block = 0; block < n; ++block)
        for (size_t i = 0; i < count; ++i)
          send[block * count + i] = value(c.rank, static_cast<int>(block), rep, c.id, call, i);
      recv.assign(n * count, -1);
      REQUIRE_OK(remora_ialltoall(send.data(), recv.data(), count, REMORA_INT64, c.handle,
                                  kAlltoall[algorithm], request));
    } else {
      const int root = (call + rep) % c.size;
      calls->roots[k] = root;
      send.resize(count);
      for (size_t i = 0; i < count; ++i) send[i] = value(c.rank, root, rep, c.id, call, i);
      recv.assign(c.rank == root ? n * count : 0, -1);
      REQUIRE_OK(remora_igather(send.data(), recv.data(), count, REMORA_INT64, root, c.handle,
                                kGather[algorithm], request));
    }
  }
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

void check(const Comm& c, int rep, const Calls& calls) {
  for (int call = 0; call < kCalls; ++call) {
    const auto k = static_cast<size_t>(call);
    const size_t count = calls.counts[k];
    const int root = calls.roots[k];
    const auto& recv = calls.recv[k];
    if (root >= 0 && c.rank != root) continue;
    for (int from = 0; from < c.size; ++from)
      for (size_t i = 0; i < count; ++i) {
        const int block = root >= 0 ? root : c.rank;
        const int64_t expected = value(from, block, rep, c.id, call, i);
        const int64_t got = recv[static_cast<size_t>(from) * count + i];
        REQUIRE(got == expected, "rep %d comm %d call %d from %d [%zu]: %lld, expected %lld", rep,
                c.id, call, from, i, static_cast<long long>(got), static_cast<long long>(expected));
      }
  }
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
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
  for (int rep = 0; rep < kRepetitions; ++rep) {
    Calls calls[3];
    if (early)
      for (int id = 0; id < 3; ++id) start(comms[id], rep, &calls[id]);
    REQUIRE_OK(remora_comm_barrier(sync, REMORA_COLL_DISSEMINATION));
    if (!early)
      for (int id = 0; id < 3; ++id) start(comms[id], rep, &calls[id]);
    for (int step = 0; step < 3; ++step) {
      const int id = early ? 2 - step : step;  // opposite orders on odd and even ranks
      complete((rep + me + step) % 3, &calls[id]);
      check(comms[id], rep, calls[id]);
    }
  }
  REQUIRE_OK(remora_comm_free(&sync));
  REQUIRE_OK(remora_comm_free(&comms[1].handle));
  REQUIRE_OK(remora_comm_free(&comms[2].handle));
  REQUIRE_OK(remora_finalize());
  return 0;
}
