// Many nonblocking collectives under REMORA_COLL_AUTO outstanding at once: ibarrier, ibcast,
// iallreduce, ireduce, igather, ialltoall, iallgather, iscatter and ireduce_scatter_block at
// 8 B, 1 KiB, 64 KiB (auto's shm choice on one node) and 72 KiB (the message-based default), on
// the world, a duplicate of it and a split into halves (overlapping communicators, each with its
// own shared area), started interleaved across the communicators. Each rank completes them in
// its own random order (seeded by rank and repetition), mixing remora_request_wait, loops of
// remora_request_test with remora_progress, waitany and waitall over the rest, and runs a
// blocking auto allreduce on the split while the others are still outstanding. Every result is
// an exact integer checked against a local reference.
#include <sched.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "multirank.hpp"

namespace {

struct Comm {
  remora_comm_t handle = REMORA_COMM_NULL;
  int rank = 0, size = 0, id = 0;
};

// Rank r's element i of call `call` on communicator id in repetition rep.
int64_t value(int rank, int id, int rep, int call, size_t i) {
  return static_cast<int64_t>(rank) * 1000003 + id * 100019 + rep * 1009 + call * 101 +
         static_cast<int64_t>(i % 977);
}

// Sizes in int64 elements: 8 B, 1 KiB, 64 KiB (one shm cell), 72 KiB (above it).
constexpr size_t kSizes[] = {1, 128, 8192, 9216};

// One started call: its request and the check of its result once it completed.
struct Call {
  remora_request_t request = REMORA_REQUEST_NULL;
  std::function<void()> check;
};

class Calls {
 public:
  // Starts the k-th call of communicator c (kinds rotate with k); false once c has no more.
  bool start(const Comm& c, int rep, int k) {
    constexpr int kKinds = 9;
    if (k >= kKinds * 2) return false;
    const int kind = (k + c.id + rep) % kKinds;
    const size_t count = kSizes[static_cast<size_t>(k + rep) % std::size(kSizes)];
    const int root = (k + rep) % c.size;
    const int call = k;
    const auto n = static_cast<size_t>(c.size);
    calls_.push_back(std::make_unique<Call>());
    Call& entry = *calls_.back();
    remora_request_t* request = &entry.request;
    auto input = std::make_shared<std::vector<int64_t>>();
    auto output = std::make_shared<std::vector<int64_t>>();
    auto fill = [&](size_t elements) {
      input->resize(elements);
      for (size_t i = 0; i < elements; ++i) (*input)[i] = value(c.rank, c.id, rep, call, i);
    };
    auto sum = [c, rep, call](size_t i) {
      int64_t total = 0;
      for (int r = 0; r < c.size; ++r) total += value(r, c.id, rep, call, i);
      return total;
    };
    switch (kind) {
      case 0:
        REQUIRE_OK(remora_ibarrier(c.handle, REMORA_COLL_AUTO, request));
        break;
      case 1:
        output->resize(count);
        for (size_t i = 0; i < count; ++i)
          (*output)[i] = c.rank == root ? value(root, c.id, rep, call, i) : -1;
        REQUIRE_OK(remora_ibcast(output->data(), count, REMORA_INT64, root, c.handle,
                                 REMORA_COLL_AUTO, request));
        entry.check = [=] {
          for (size_t i = 0; i < count; ++i)
            REQUIRE((*output)[i] == value(root, c.id, rep, call, i), "ibcast comm %d [%zu]", c.id,
                    i);
        };
        break;
      case 2:
      case 3: {
        const bool all = kind == 2;
        fill(count);
        output->assign(count, -1);
        if (all)
          REQUIRE_OK(remora_iallreduce(input->data(), output->data(), count, REMORA_INT64,
                                       REMORA_OP_SUM, c.handle, REMORA_COLL_AUTO, request));
        else
          REQUIRE_OK(remora_ireduce(input->data(), output->data(), count, REMORA_INT64,
                                    REMORA_OP_SUM, root, c.handle, REMORA_COLL_AUTO, request));
        entry.check = [=] {
          if (!all && c.rank != root) return;
          for (size_t i = 0; i < count; ++i)
            REQUIRE((*output)[i] == sum(i), "%s comm %d count %zu [%zu]: %lld, expected %lld",
                    all ? "iallreduce" : "ireduce", c.id, count, i,
                    static_cast<long long>((*output)[i]), static_cast<long long>(sum(i)));
        };
        break;
      }
      case 4:
      case 5: {
        // igather to root / iallgather: block of count / n (at least 1) elements per rank.
        const bool all = kind == 5;
        const size_t block = std::max<size_t>(1, count / n);
        fill(block);
        output->assign(block * n, -1);
        if (all)
          REQUIRE_OK(remora_iallgather(input->data(), output->data(), block, REMORA_INT64, c.handle,
                                       REMORA_COLL_AUTO, request));
        else
          REQUIRE_OK(remora_igather(input->data(), output->data(), block, REMORA_INT64, root,
                                    c.handle, REMORA_COLL_AUTO, request));
        entry.check = [=] {
          if (!all && c.rank != root) return;
          for (size_t j = 0; j < n; ++j)
            for (size_t i = 0; i < block; ++i)
              REQUIRE((*output)[j * block + i] == value(static_cast<int>(j), c.id, rep, call, i),
                      "%s comm %d from %zu [%zu]", all ? "iallgather" : "igather", c.id, j, i);
        };
        break;
      }
      case 6:
      case 7: {
        // ialltoall / iscatter: block j (count / n elements) of rank r holds
        // value(r, ..., j * block + i).
        const bool alltoall = kind == 6;
        const size_t block = std::max<size_t>(1, count / n);
        fill(block * n);
        output->assign(block, -1);
        if (alltoall) {
          output->assign(block * n, -1);
          REQUIRE_OK(remora_ialltoall(input->data(), output->data(), block, REMORA_INT64, c.handle,
                                      REMORA_COLL_AUTO, request));
        } else {
          REQUIRE_OK(remora_iscatter(input->data(), output->data(), block, REMORA_INT64, root,
                                     c.handle, REMORA_COLL_AUTO, request));
        }
        entry.check = [=] {
          const auto me = static_cast<size_t>(c.rank);
          for (size_t j = 0; j < (alltoall ? n : 1); ++j) {
            const int from = alltoall ? static_cast<int>(j) : root;
            for (size_t i = 0; i < block; ++i)
              REQUIRE((*output)[j * block + i] == value(from, c.id, rep, call, me * block + i),
                      "%s comm %d from %d [%zu]", alltoall ? "ialltoall" : "iscatter", c.id, from,
                      i);
          }
        };
        break;
      }
      default: {
        const size_t block = std::max<size_t>(1, count / n);
        fill(block * n);
        output->assign(block, -1);
        REQUIRE_OK(remora_ireduce_scatter_block(input->data(), output->data(), block, REMORA_INT64,
                                                REMORA_OP_SUM, c.handle, REMORA_COLL_AUTO,
                                                request));
        entry.check = [=] {
          const size_t first = static_cast<size_t>(c.rank) * block;
          for (size_t i = 0; i < block; ++i)
            REQUIRE((*output)[i] == sum(first + i), "ireduce_scatter_block comm %d [%zu]", c.id, i);
        };
        break;
      }
    }
    inputs_.push_back(input);
    return true;
  }

  // Completes every call in a random order of this rank's own, a different way each.
  void complete(std::mt19937& random, const std::function<void()>& midway) {
    std::vector<size_t> order(calls_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), random);
    const size_t half = order.size() / 2;
    for (size_t position = 0; position < order.size(); ++position) {
      if (position == half) midway();
      remora_request_t* request = &calls_[order[position]]->request;
      if (*request == REMORA_REQUEST_NULL) continue;  // a waitany finished it
      switch (random() % 4) {
        case 0:
          REQUIRE_OK(remora_request_wait(request));
          break;
        case 1: {
          int flag = 0;
          while (flag == 0) {
            REQUIRE_OK(remora_request_test(request, &flag));
            if (flag == 0) {
              REQUIRE_OK(remora_progress());
              sched_yield();
            }
          }
          break;
        }
        case 2: {
          // Any of the calls still pending from here on: it need not be this one.
          std::vector<remora_request_t> rest;
          for (size_t later = position; later < order.size(); ++later)
            rest.push_back(calls_[order[later]]->request);
          int index = -1;
          REQUIRE_OK(remora_request_waitany(static_cast<int>(rest.size()), rest.data(), &index));
          REQUIRE(index >= 0 && index < static_cast<int>(rest.size()), "waitany gave %d", index);
          calls_[order[position + static_cast<size_t>(index)]]->request = REMORA_REQUEST_NULL;
          if (index != 0) REQUIRE_OK(remora_request_wait(request));
          break;
        }
        default: {
          // A few tests, then wait.
          int flag = 0;
          for (int round = 0; round < 3 && flag == 0; ++round)
            REQUIRE_OK(remora_request_test(request, &flag));
          if (flag == 0) REQUIRE_OK(remora_request_wait(request));
          break;
        }
      }
      REQUIRE(*request == REMORA_REQUEST_NULL, "a completed request was not freed");
    }
    for (const auto& call : calls_)
      if (call->check) call->check();
  }

 private:
  std::vector<std::unique_ptr<Call>> calls_;  // stable addresses for the requests
  std::vector<std::shared_ptr<std::vector<int64_t>>> inputs_;
};

Comm describe(remora_comm_t handle, int id) {
  Comm c;
  c.handle = handle;
  c.id = id;
  REQUIRE_OK(remora_comm_rank(handle, &c.rank));
  REQUIRE_OK(remora_comm_size(handle, &c.size));
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  const int rank = remora_rank(), size = remora_size();
  remora_comm_t world, dup, halves;
  REQUIRE_OK(remora_comm_world(&world));
  REQUIRE_OK(remora_comm_dup(world, &dup));
  REQUIRE_OK(remora_comm_split(world, rank < (size + 1) / 2 ? 0 : 1, rank, &halves));
  const Comm comms[] = {describe(world, 0), describe(dup, 1), describe(halves, 2)};
  constexpr int kRepetitions = 8;
  for (int rep = 0; rep < kRepetitions; ++rep) {
    Calls calls;
    // Interleaved: call k of every communicator, then call k + 1.
    for (int k = 0;; ++k) {
      bool any = false;
      for (const Comm& c : comms) any = calls.start(c, rep, k) || any;
      if (!any) break;
    }
    std::mt19937 random(static_cast<unsigned>(rep * 7919 + rank * 104729 + 1));
    // A blocking auto allreduce on the split while half of the calls are still outstanding.
    const Comm& split = comms[2];
    const auto midway = [&split, rep] {
      int64_t mine = split.rank + rep, total = -1;
      REQUIRE_OK(remora_allreduce(&mine, &total, 1, REMORA_INT64, REMORA_OP_SUM, split.handle,
                                  REMORA_COLL_AUTO));
      const int64_t expected = static_cast<int64_t>(split.size) * (split.size - 1) / 2 +
                               static_cast<int64_t>(split.size) * rep;
      REQUIRE(total == expected, "blocking allreduce midway: %lld, expected %lld",
              static_cast<long long>(total), static_cast<long long>(expected));
    };
    calls.complete(random, midway);
  }
  REQUIRE_OK(remora_comm_free(&dup));
  REQUIRE_OK(remora_comm_free(&halves));
  REQUIRE_OK(remora_finalize());
  return 0;
}
