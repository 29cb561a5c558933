// The ring of inline slots of the shm area (coll/shm_area.hpp, ShmArea::kSlots = 64): small
// calls back to back with a fixed root (rooted ones; allreduce, reduce_scatter_block and barrier
// between them), so that the other members publish many calls
// ahead of it and every slot is reused several times (wrap-around), with cell-sized calls mixed
// in and some calls made nonblocking on odd ranks only (members on the small path and on the
// schedule path meet in one call); then more nonblocking small calls outstanding at once than
// the ring has slots, on three overlapping communicators, completed in opposite orders on odd
// and even ranks. Every result is an exact integer.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "multirank.hpp"
#include "shm_comms.hpp"

namespace {

constexpr int kCalls = 323;        // over five turns of a ring of 64
constexpr int kOutstanding = 136;  // more than two turns
// int32 elements: the most an inline slot holds (ShmArea::kInlineBytes = 120), and a count that
// takes a cell.
constexpr size_t kInlineInts = 30, kCellInts = 32;

using Comm = remora_test::RangeComm;

int32_t value(int world_rank, int call, size_t i) {
  return world_rank * 1009 + call * 7 + static_cast<int32_t>(i);
}

// One call of a small operation (by kind: reduce, gather, bcast, scatter at root; allreduce,
// reduce_scatter_block, barrier): its buffers, started (nonblocking when request is not null)
// and checked after completion.
constexpr int kKinds = 7;
struct Call {
  const Comm* c = nullptr;
  int index = 0, root = 0, kind = 0;
  size_t count = 0;
  std::vector<int32_t> send, recv;

  void start(remora_request_t* request) {
    const auto ranks = static_cast<size_t>(c->size);
    const int me = remora_rank();
    const bool at_root = c->rank == root;
    send.assign(kind == 3 || kind == 5 ? count * ranks : count, 0);
    for (size_t i = 0; i < send.size(); ++i) send[i] = value(me, index, i);
    switch (kind) {
      case 0:
        recv.assign(count, -1);
        if (request != nullptr)
          REQUIRE_OK(remora_ireduce(send.data(), recv.data(), count, REMORA_INT32, REMORA_OP_SUM,
                                    root, c->handle, REMORA_COLL_SHM, request));
        else
          REQUIRE_OK(remora_reduce(send.data(), recv.data(), count, REMORA_INT32, REMORA_OP_SUM,
                                   root, c->handle, REMORA_COLL_SHM));
        break;
      case 1:
        recv.assign(count * ranks, -1);
        if (request != nullptr)
          REQUIRE_OK(remora_igather(send.data(), recv.data(), count, REMORA_INT32, root, c->handle,
                                    REMORA_COLL_SHM, request));
        else
          REQUIRE_OK(remora_gather(send.data(), recv.data(), count, REMORA_INT32, root, c->handle,
                                   REMORA_COLL_SHM));
        break;
      case 2:
        recv = at_root ? send : std::vector<int32_t>(count, -1);
        if (request != nullptr)
          REQUIRE_OK(remora_ibcast(recv.data(), count, REMORA_INT32, root, c->handle,
                                   REMORA_COLL_SHM, request));
        else
          REQUIRE_OK(
              remora_bcast(recv.data(), count, REMORA_INT32, root, c->handle, REMORA_COLL_SHM));
        break;
      case 4:
        recv.assign(count, -1);
        if (request != nullptr)
          REQUIRE_OK(remora_iallreduce(send.data(), recv.data(), count, REMORA_INT32, REMORA_OP_SUM,
                                       c->handle, REMORA_COLL_SHM, request));
        else
          REQUIRE_OK(remora_allreduce(send.data(), recv.data(), count, REMORA_INT32, REMORA_OP_SUM,
                                      c->handle, REMORA_COLL_SHM));
        break;
      case 5:
        recv.assign(count, -1);
        if (request != nullptr)
          REQUIRE_OK(remora_ireduce_scatter_block(send.data(), recv.data(), count, REMORA_INT32,
                                                  REMORA_OP_SUM, c->handle, REMORA_COLL_SHM,
                                                  request));
        else
          REQUIRE_OK(remora_reduce_scatter_block(send.data(), recv.data(), count, REMORA_INT32,
                                                 REMORA_OP_SUM, c->handle, REMORA_COLL_SHM));
        break;
      case 6:
        if (request != nullptr)
          REQUIRE_OK(remora_ibarrier(c->handle, REMORA_COLL_SHM, request));
        else
          REQUIRE_OK(remora_comm_barrier(c->handle, REMORA_COLL_SHM));
        break;
      default:
        recv.assign(count, -1);
        if (request != nullptr)
          REQUIRE_OK(remora_iscatter(send.data(), recv.data(), count, REMORA_INT32, root, c->handle,
                                     REMORA_COLL_SHM, request));
        else
          REQUIRE_OK(remora_scatter(send.data(), recv.data(), count, REMORA_INT32, root, c->handle,
                                    REMORA_COLL_SHM));
        break;
    }
  }

  void check() const {
    const bool at_root = c->rank == root;
    const int root_world = c->world[static_cast<size_t>(root)];
    for (size_t i = 0; i < count; ++i) {
      switch (kind) {
        case 0: {
          if (!at_root) break;
          int32_t expected = 0;
          for (int w : c->world) expected += value(w, index, i);
          REQUIRE(recv[i] == expected, "call %d reduce count %zu root %d [%zu]: %d, expected %d",
                  index, count, root, i, recv[i], expected);
          break;
        }
        case 1:
          for (size_t r = 0; at_root && r < c->world.size(); ++r)
            REQUIRE(recv[r * count + i] == value(c->world[r], index, i),
                    "call %d gather count %zu root %d block %zu [%zu]: %d", index, count, root, r,
                    i, recv[r * count + i]);
          break;
        case 2:
          REQUIRE(recv[i] == value(root_world, index, i),
                  "call %d bcast count %zu root %d [%zu]: %d", index, count, root, i, recv[i]);
          break;
        case 3:
          REQUIRE(recv[i] == value(root_world, index, static_cast<size_t>(c->rank) * count + i),
                  "call %d scatter count %zu root %d [%zu]: %d", index, count, root, i, recv[i]);
          break;
        case 4:
        case 5: {
          // allreduce: element i; reduce_scatter_block: element i of this rank's block.
          const size_t at = kind == 4 ? i : static_cast<size_t>(c->rank) * count + i;
          int32_t expected = 0;
          for (int w : c->world) expected += value(w, index, at);
          REQUIRE(recv[i] == expected, "call %d kind %d count %zu [%zu]: %d, expected %d", index,
                  kind, count, i, recv[i], expected);
          break;
        }
        default:
          break;
      }
    }
  }
};

// Small calls back to back at one root: 1 to 30 ints (inline; the blocks of a scatter or
// reduce_scatter_block together at most 30), every fifth 32 ints (a cell); every eleventh
// nonblocking on odd ranks (waited at once: the schedule path).
void wrap_around(const Comm& c, int root) {
  const bool odd = remora_rank() % 2 == 1;
  for (int index = 0; index < kCalls; ++index) {
    Call call;
    call.c = &c;
    call.index = index;
    call.root = root;
    call.kind = index % kKinds;
    const auto ranks = static_cast<size_t>(c.size);
    call.count = index % 5 == 4 ? kCellInts : 1 + static_cast<size_t>(index / kKinds) % kInlineInts;
    if ((call.kind == 3 || call.kind == 5) && call.count < kCellInts &&
        call.count * ranks > kInlineInts)
      call.count = std::max<size_t>(1, kInlineInts / ranks);
    if (odd && index % 11 == 5) {
      remora_request_t request;
      call.start(&request);
      REQUIRE_OK(remora_request_wait(&request));
    } else {
      call.start(nullptr);
    }
    call.check();
  }
}

// kOutstanding nonblocking small calls over the communicators in turns, roots rotating, then
// completed: even ranks with waitall, odd ranks one by one from the last.
void outstanding(const std::vector<const Comm*>& comms) {
  std::vector<Call> calls;
  calls.reserve(kOutstanding);
  std::vector<remora_request_t> requests;
  for (int index = 0; index < kOutstanding; ++index) {
    const Comm* c = comms[static_cast<size_t>(index) % comms.size()];
    if (c->handle == REMORA_COMM_NULL) continue;
    Call call;
    call.c = c;
    call.index = index;
    call.root = (index / 3) % c->size;
    call.kind = index % kKinds;
    call.count = index % 9 == 8 ? kCellInts : static_cast<size_t>(1 + index % 3);
    calls.push_back(std::move(call));
    requests.emplace_back();
    calls.back().start(&requests.back());
  }
  if (remora_rank() % 2 == 0) {
    REQUIRE_OK(remora_request_waitall(static_cast<int>(requests.size()), requests.data()));
  } else {
    for (size_t i = requests.size(); i-- > 0;) REQUIRE_OK(remora_request_wait(&requests[i]));
  }
  for (const Call& call : calls) call.check();
}

}  // namespace

int main(int argc, char** argv) {
  int rank = 0, size = 0;
  remora_test::init(&argc, &argv, &rank, &size);
  const Comm world = remora_test::split_range(0, false);
  const Comm first = remora_test::split_range(0, true);  // all but the last
  const Comm last = remora_test::split_range(1, false);  // all but the first
  for (int root = 0; root < size; ++root) wrap_around(world, root);
  if (first.handle != REMORA_COMM_NULL) wrap_around(first, first.size - 1);
  for (int repeat = 0; repeat < 3; ++repeat) {
    outstanding({&world, &first, &last});
    outstanding({&world});
    // A blocking small call behind them on each: all slots of the ring were used meanwhile.
    for (const Comm* c : {&world, &first, &last}) {
      if (c->handle == REMORA_COMM_NULL) continue;
      int32_t in = rank + repeat, out = -1, expected = 0;
      for (int w : c->world) expected += w + repeat;
      REQUIRE_OK(
          remora_allreduce(&in, &out, 1, REMORA_INT32, REMORA_OP_SUM, c->handle, REMORA_COLL_SHM));
      REQUIRE(out == expected, "repeat %d allreduce: %d, expected %d", repeat, out, expected);
    }
  }
  for (const Comm* c : {&world, &first, &last}) {
    remora_comm_t handle = c->handle;
    if (handle != REMORA_COMM_NULL) REQUIRE_OK(remora_comm_free(&handle));
  }
  REQUIRE_OK(remora_finalize());
  return 0;
}
