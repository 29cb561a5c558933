// Nonblocking shm collectives on two communicators, waited in opposite orders: the odd ranks
// start theirs and enter a (message-based) barrier before the even ranks start theirs, then the
// even ranks wait for the calls of communicator A first and the odd ranks for those of B first.
// Each rank's calls of one communicator run in sequence order, and the second call of A on an
// odd rank can only run once that rank advances A, which it does only if its wait for B's calls
// (or a test, or remora_progress) also advances the shm rounds of A, and the other way round:
// without that, the job hangs (the test's timeout). Three ways of waiting: request_wait one by one,
// waitall per communicator, and a loop of request_test with remora_progress. Every result is an
// exact integer.
#include <cstdint>
#include <vector>

#include "multirank.hpp"

namespace {

constexpr int kCalls = 4;         // per communicator and repetition
constexpr size_t kLarge = 20000;  // int64 elements: 160 KB, several rounds of the area's cells
constexpr int kRepetitions = 6;

int64_t value(int world_rank, int rep, int comm, int call, size_t i) {
  return static_cast<int64_t>(world_rank) * 1000003 + rep * 101 + comm * 31 + call * 7 +
         static_cast<int64_t>(i % 997);
}

struct Calls {
  std::vector<std::vector<int64_t>> send, recv;
  std::vector<remora_request_t> requests;
};

// kCalls iallreduces (shm) on comm, every other one large.
void start(remora_comm_t comm, int rep, int which, Calls* calls) {
  const int me = remora_rank();
  calls->send.resize(kCalls);
  calls->recv.resize(kCalls);
  calls->requests.assign(kCalls, REMORA_REQUEST_NULL);
  for (int call = 0; call < kCalls; ++call) {
    const size_t count = call % 2 == 1 ? kLarge : static_cast<size_t>(1 + call);
    auto& send = calls->send[static_cast<size_t>(call)];
    auto& recv = calls->recv[static_cast<size_t>(call)];
    send.resize(count);
    recv.assign(count, -1);
    for (size_t i = 0; i < count; ++i) send[i] = value(me, rep, which, call, i);
    REQUIRE_OK(remora_iallreduce(send.data(), recv.data(), count, REMORA_INT64, REMORA_OP_SUM, comm,
                                 REMORA_COLL_SHM, &calls->requests[static_cast<size_t>(call)]));
  }
}

void wait(int how, Calls* calls) {
  switch (how) {
    case 0:
      for (auto& request : calls->requests) REQUIRE_OK(remora_request_wait(&request));
      break;
    case 1:
      REQUIRE_OK(remora_request_waitall(kCalls, calls->requests.data()));
      break;
    default:
      // The last call first: it can only finish after the earlier ones.
      for (int call = kCalls - 1; call >= 0; --call) {
        int flag = 0;
        while (flag == 0) {
          REQUIRE_OK(remora_request_test(&calls->requests[static_cast<size_t>(call)], &flag));
          if (flag == 0) REQUIRE_OK(remora_progress());
        }
      }
      break;
  }
  for (const auto& request : calls->requests)
    REQUIRE(request == REMORA_REQUEST_NULL, "a completed request was not freed");
}

void check(const Calls& calls, int size, int rep, int which) {
  for (int call = 0; call < kCalls; ++call) {
    const auto& recv = calls.recv[static_cast<size_t>(call)];
    for (size_t i = 0; i < recv.size(); ++i) {
      int64_t expected = 0;
      for (int r = 0; r < size; ++r) expected += value(r, rep, which, call, i);
      REQUIRE(recv[i] == expected, "rep %d communicator %d call %d [%zu]: %lld, expected %lld", rep,
              which, call, i, static_cast<long long>(recv[i]), static_cast<long long>(expected));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  remora_comm_t world, comms[2];
  REQUIRE_OK(remora_comm_world(&world));
  REQUIRE_OK(remora_comm_dup(world, &comms[0]));
  REQUIRE_OK(remora_comm_dup(world, &comms[1]));
  const int rank = remora_rank(), size = remora_size();
  const bool early = rank % 2 == 1;
  for (int rep = 0; rep < kRepetitions; ++rep) {
    Calls calls[2];
    if (early)
      for (int which = 0; which < 2; ++which) start(comms[which], rep, which, &calls[which]);
    // Message-based: it does not advance shm rounds on its own, so when the late ranks start
    // their calls the early ranks' first rounds are published and nothing more.
    REQUIRE_OK(remora_comm_barrier(world, REMORA_COLL_DISSEMINATION));
    if (!early)
      for (int which = 0; which < 2; ++which) start(comms[which], rep, which, &calls[which]);
    const int first = early ? 1 : 0;
    wait(rep % 3, &calls[first]);
    wait(rep % 3, &calls[1 - first]);
    for (int which = 0; which < 2; ++which) check(calls[which], size, rep, which);
  }
  REQUIRE_OK(remora_comm_free(&comms[0]));
  REQUIRE_OK(remora_comm_free(&comms[1]));
  REQUIRE_OK(remora_finalize());
  return 0;
}
