// The paths of a small nonblocking shm call's request (coll/shm_request.hpp), each made to
// happen for certain (remora_barrier, the transport's, orders the members without a call on the
// communicators under test):
//   - completed in its start: a gather root, or the last member of an alltoall, that starts
//     after every other member published (its first test finds it done), and every gather
//     non-root;
//   - found in flight by a test and completed by later tests, or by its wait: a root, or an
//     alltoall member, that starts before the others;
//   - one call at a time with the root and the block size moving on every call (a recycled
//     request keeps its round list for a call of the same shape only: a bcast non-root that
//     kept the previous root's round would wait for the wrong member and hang);
//   - more calls outstanding at once on three overlapping communicators than the instance table
//     has entries for nonblocking calls without a schedule (InstanceTable::kRequestEntries; the
//     others begin as scheduled instances do), completed in orders that differ between ranks.
// Each with shm asked for (thread and ghost progress then take the request too), and the last two
// with auto as well; the endings only where the job shares one node (elsewhere the communicators
// have no shared area and the calls are message-based). Every result is an exact integer.
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "multirank.hpp"

namespace {

int64_t value(int from, int block, int tag, size_t i) {
  return static_cast<int64_t>(from) * 1000003 + block * 10007 + tag * 101 + static_cast<int64_t>(i);
}

struct Comm {
  remora_comm_t handle = REMORA_COMM_NULL;
  int rank = 0, size = 0, id = 0;
  std::vector<int> world;  // world rank of each member (values name the sender's world rank)
};

Comm describe(remora_comm_t handle, int id, int world_rank) {
  Comm c;
  c.handle = handle;
  c.id = id;
  REQUIRE_OK(remora_comm_rank(handle, &c.rank));
  REQUIRE_OK(remora_comm_size(handle, &c.size));
  c.world.resize(static_cast<size_t>(c.size));
  int64_t mine = world_rank;
  std::vector<int64_t> all(static_cast<size_t>(c.size));
  REQUIRE_OK(remora_allgather(&mine, all.data(), 1, REMORA_INT64, handle, REMORA_COLL_AUTO));
  for (size_t r = 0; r < all.size(); ++r) c.world[r] = static_cast<int>(all[r]);
  return c;
}

int test_once(remora_request_t* request) {
  int flag = 0;
  REQUIRE_OK(remora_request_test(request, &flag));
  return flag;
}

void test_until_done(remora_request_t* request) {
  while (test_once(request) == 0) remora_test::progress_and_yield();
}

void check_gather(const Comm& c, const std::vector<int64_t>& recv, size_t count, int tag,
                  const char* what) {
  for (size_t r = 0; r < static_cast<size_t>(c.size); ++r)
    for (size_t i = 0; i < count; ++i)
      REQUIRE(recv[r * count + i] == value(c.world[r], 0, tag, i),
              "%s: tag %d count %zu from %zu [%zu]: %lld", what, tag, count, r, i,
              static_cast<long long>(recv[r * count + i]));
}

void check_alltoall(const Comm& c, const std::vector<int64_t>& recv, size_t count, int tag,
                    const char* what) {
  for (size_t r = 0; r < static_cast<size_t>(c.size); ++r)
    for (size_t i = 0; i < count; ++i)
      REQUIRE(recv[r * count + i] == value(c.world[r], c.rank, tag, i),
              "%s: tag %d count %zu from %zu [%zu]: %lld", what, tag, count, r, i,
              static_cast<long long>(recv[r * count + i]));
}

std::vector<int64_t> gather_input(const Comm& c, size_t count, int tag) {
  std::vector<int64_t> send(count);
  for (size_t i = 0; i < count; ++i)
    send[i] = value(c.world[static_cast<size_t>(c.rank)], 0, tag, i);
  return send;
}

std::vector<int64_t> alltoall_input(const Comm& c, size_t count, int tag) {
  std::vector<int64_t> send(count * static_cast<size_t>(c.size));
  for (int to = 0; to < c.size; ++to)
    for (size_t i = 0; i < count; ++i)
      send[static_cast<size_t>(to) * count + i] =
          value(c.world[static_cast<size_t>(c.rank)], to, tag, i);
  return send;
}

// How the root (gather) or the last member (alltoall) completes the call it starts first.
enum class Ending { AtStart, AtTest, AtWait };

void gather_ending(const Comm& c, remora_coll_algorithm_t algorithm, Ending ending, int root,
                   size_t count, int tag) {
  const std::vector<int64_t> send = gather_input(c, count, tag);
  std::vector<int64_t> recv(count * static_cast<size_t>(c.size), -1);
  remora_request_t request = REMORA_REQUEST_NULL;
  const auto start = [&] {
    REQUIRE_OK(remora_igather(send.data(), recv.data(), count, REMORA_INT64, root, c.handle,
                              algorithm, &request));
  };
  if (c.rank != root) {
    if (ending != Ending::AtStart) REQUIRE_OK(remora_barrier());  // the root starts first
    start();
    // A non-root reads nothing: done in its start.
    REQUIRE(test_once(&request) == 1, "gather tag %d: a non-root's call is not done at once", tag);
    if (ending == Ending::AtStart) REQUIRE_OK(remora_barrier());
    return;
  }
  if (ending == Ending::AtStart) {
    REQUIRE_OK(remora_barrier());  // every other member has published
    start();
    REQUIRE(test_once(&request) == 1, "gather tag %d: the root's call is not done at once", tag);
  } else {
    start();
    if (c.size > 1)
      REQUIRE(test_once(&request) == 0, "gather tag %d: done before the others started", tag);
    REQUIRE_OK(remora_barrier());
    if (ending == Ending::AtTest)
      test_until_done(&request);
    else
      REQUIRE_OK(remora_request_wait(&request));
  }
  check_gather(c, recv, count, tag, "gather ending");
}

void alltoall_ending(const Comm& c, remora_coll_algorithm_t algorithm, Ending ending, size_t count,
                     int tag) {
  const std::vector<int64_t> send = alltoall_input(c, count, tag);
  std::vector<int64_t> recv(send.size(), -1);
  remora_request_t request = REMORA_REQUEST_NULL;
  const bool last = c.rank == c.size - 1;
  if (!last) {
    REQUIRE_OK(remora_ialltoall(send.data(), recv.data(), count, REMORA_INT64, c.handle, algorithm,
                                &request));
    REQUIRE(test_once(&request) == 0, "alltoall tag %d: done before the last member started", tag);
    REQUIRE_OK(remora_barrier());
    if (ending == Ending::AtWait)
      REQUIRE_OK(remora_request_wait(&request));
    else
      test_until_done(&request);
  } else {
    REQUIRE_OK(remora_barrier());  // every other member has published
    REQUIRE_OK(remora_ialltoall(send.data(), recv.data(), count, REMORA_INT64, c.handle, algorithm,
                                &request));
    if (ending == Ending::AtStart)
      REQUIRE(test_once(&request) == 1, "alltoall tag %d: the last member is not done at once",
              tag);
    if (ending == Ending::AtWait)
      REQUIRE_OK(remora_request_wait(&request));
    else
      test_until_done(&request);
  }
  check_alltoall(c, recv, count, tag, "alltoall ending");
}

// One call at a time, the root and the size moving on every call.
void moving_shapes(const Comm& c, remora_coll_algorithm_t algorithm, int tag0) {
  for (int k = 0; k < 24; ++k) {
    const int tag = tag0 + k;
    const int root = (k * 5 + k / 3) % c.size;
    const size_t count = 1 + static_cast<size_t>(k % 4) * 5;  // 8 B to 128 B (inline and cells)
    remora_request_t request = REMORA_REQUEST_NULL;
    if (k % 2 == 0) {
      std::vector<int64_t> buffer(count > 15 ? 15 : count, -1);  // ibcast: up to 120 B
      if (c.rank == root)
        for (size_t i = 0; i < buffer.size(); ++i)
          buffer[i] = value(c.world[static_cast<size_t>(root)], 1, tag, i);
      REQUIRE_OK(remora_ibcast(buffer.data(), buffer.size(), REMORA_INT64, root, c.handle,
                               algorithm, &request));
      if (k % 4 == 0)
        REQUIRE_OK(remora_request_wait(&request));
      else
        test_until_done(&request);
      for (size_t i = 0; i < buffer.size(); ++i)
        REQUIRE(buffer[i] == value(c.world[static_cast<size_t>(root)], 1, tag, i),
                "bcast tag %d root %d [%zu]: %lld", tag, root, i,
                static_cast<long long>(buffer[i]));
    } else {
      const std::vector<int64_t> send = gather_input(c, count, tag);
      std::vector<int64_t> recv(count * static_cast<size_t>(c.size), -1);
      REQUIRE_OK(remora_igather(send.data(), recv.data(), count, REMORA_INT64, root, c.handle,
                                algorithm, &request));
      REQUIRE_OK(remora_request_wait(&request));
      if (c.rank == root) check_gather(c, recv, count, tag, "moving gather");
    }
  }
}

// Many calls outstanding at once on every communicator, then completed: even ranks wait for
// them newest first, odd ranks test them oldest first (all of one communicator before the
// next, communicators in opposite orders).
struct Call {
  int kind = 0;  // 0 igather, 1 ialltoall, 2 iallreduce, 3 ibarrier
  int root = 0, tag = 0;
  size_t count = 0;
  const Comm* comm = nullptr;
  std::vector<int64_t> send, recv;
  remora_request_t request = REMORA_REQUEST_NULL;
};

void many_outstanding(const std::vector<Comm>& comms, remora_coll_algorithm_t algorithm, int rank,
                      int tag0) {
  constexpr int kPerComm = 11;  // beyond InstanceTable::kRequestEntries (4)
  std::vector<std::vector<Call>> calls(comms.size());
  for (size_t ci = 0; ci < comms.size(); ++ci) {
    const Comm& c = comms[ci];
    calls[ci].resize(kPerComm);
    for (int k = 0; k < kPerComm; ++k) {
      Call& call = calls[ci][static_cast<size_t>(k)];
      call.comm = &c;
      call.kind = k % 4;
      call.tag = tag0 + c.id * 100 + k;
      call.root = k % c.size;
      call.count = 1 + static_cast<size_t>(k % 3);
      const auto n = static_cast<size_t>(c.size);
      switch (call.kind) {
        case 0:
          call.send = gather_input(c, call.count, call.tag);
          call.recv.assign(call.count * n, -1);
          REQUIRE_OK(remora_igather(call.send.data(), call.recv.data(), call.count, REMORA_INT64,
                                    call.root, c.handle, algorithm, &call.request));
          break;
        case 1:
          call.send = alltoall_input(c, call.count, call.tag);
          call.recv.assign(call.send.size(), -1);
          REQUIRE_OK(remora_ialltoall(call.send.data(), call.recv.data(), call.count, REMORA_INT64,
                                      c.handle, algorithm, &call.request));
          break;
        case 2:
          call.send.assign(call.count, 0);
          for (size_t i = 0; i < call.count; ++i)
            call.send[i] = value(c.world[static_cast<size_t>(c.rank)], 2, call.tag, i);
          call.recv.assign(call.count, -1);
          REQUIRE_OK(remora_iallreduce(call.send.data(), call.recv.data(), call.count, REMORA_INT64,
                                       REMORA_OP_SUM, c.handle, algorithm, &call.request));
          break;
        default:
          REQUIRE_OK(remora_ibarrier(c.handle, algorithm, &call.request));
          break;
      }
    }
  }
  for (size_t j = 0; j < comms.size(); ++j) {
    const size_t ci = rank % 2 == 0 ? j : comms.size() - 1 - j;
    for (int m = 0; m < kPerComm; ++m) {
      const int k = rank % 2 == 0 ? kPerComm - 1 - m : m;
      Call& call = calls[ci][static_cast<size_t>(k)];
      if (rank % 2 == 0)
        REQUIRE_OK(remora_request_wait(&call.request));
      else
        test_until_done(&call.request);
      const Comm& c = *call.comm;
      if (call.kind == 0 && c.rank == call.root)
        check_gather(c, call.recv, call.count, call.tag, "many");
      if (call.kind == 1) check_alltoall(c, call.recv, call.count, call.tag, "many");
      if (call.kind == 2)
        for (size_t i = 0; i < call.count; ++i) {
          int64_t sum = 0;
          for (int member : c.world) sum += value(member, 2, call.tag, i);
          REQUIRE(call.recv[i] == sum, "many allreduce tag %d [%zu]: %lld, expected %lld", call.tag,
                  i, static_cast<long long>(call.recv[i]), static_cast<long long>(sum));
        }
    }
  }
}

}  // namespace

// The world, a duplicate and a split into halves (overlapping communicators), described.
std::vector<Comm> communicators(int rank, int size) {
  std::vector<remora_comm_t> handles(3, REMORA_COMM_NULL);
  REQUIRE_OK(remora_comm_world(&handles[0]));
  REQUIRE_OK(remora_comm_dup(handles[0], &handles[1]));
  REQUIRE_OK(
      remora_comm_split(handles[0], rank < (size + 1) / 2 ? 0 : 1, size - rank, &handles[2]));
  std::vector<Comm> comms;
  for (size_t id = 0; id < handles.size(); ++id)
    comms.push_back(describe(handles[id], static_cast<int>(id), rank));
  return comms;
}

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  remora_test::init(&argc, &argv, &rank, &size);
  std::vector<Comm> comms = communicators(rank, size);
  int tag = 0;
  for (remora_coll_algorithm_t algorithm : {REMORA_COLL_SHM, REMORA_COLL_AUTO}) {
    for (int repeat = 0; repeat < 3; ++repeat) {
      // The endings with shm asked for, where the communicators have their shared area (the
      // job on one node): auto's nonblocking calls are message-based under thread progress, and
      // so is every call where the area is missing, whose endings differ.
      for (const Comm& c : {comms[0], comms[1]}) {  // every rank of the world is in these
        if (algorithm != REMORA_COLL_SHM || remora_local_size() != remora_size()) break;
        for (Ending ending : {Ending::AtStart, Ending::AtTest, Ending::AtWait}) {
          for (int root = 0; root < c.size; ++root)
            gather_ending(c, algorithm, ending, root, 1 + static_cast<size_t>(repeat) * 8, ++tag);
          alltoall_ending(c, algorithm, ending, 1 + static_cast<size_t>(repeat), ++tag);
        }
      }
      for (const Comm& c : comms) moving_shapes(c, algorithm, (tag += 100));
      many_outstanding(comms, algorithm, rank, (tag += 1000));
    }
  }
  REQUIRE_OK(remora_comm_free(&comms[2].handle));
  REQUIRE_OK(remora_comm_free(&comms[1].handle));
  REQUIRE_OK(remora_finalize());
  return 0;
}
