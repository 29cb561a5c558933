// Large shm reduces, allreduces, gathers, scatters, allgathers and alltoalls: the single-copy forms
// (members read and write each other's buffers with process_vm_readv/writev from
// REMORA_SHM_SINGLE_COPY_BYTES on, when they may) and the cells, at odd int64 counts below and
// above the threshold and above the cell size, from every root, in place and not, blocking (the
// fast path), nonblocking (the schedule) and both in one collective (a member with a
// nonblocking shm collective pending runs its blocking call as a schedule). Every element of
// every result is checked.
// Usage: test_coll_shm_single_copy [expect_single_copy|expect_cells|expect_rooted [default]]: what
// the world's area must use (shm_single_copy_mode.hpp; default: the default threshold of its size).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "multirank.hpp"
#include "shm_single_copy_mode.hpp"

namespace {

using Values = std::vector<int64_t>;

int64_t element(int who, int tag, size_t i) {
  return static_cast<int64_t>(who) * 1000003 + tag * 7 + static_cast<int64_t>(i % 100003) -
         static_cast<int64_t>(i % 7) * 500000;
}

void fill(Values* values, size_t first, size_t count, int who, int tag) {
  for (size_t i = 0; i < count; ++i) (*values)[first + i] = element(who, tag, i);
}

void expect(const Values& values, size_t first, size_t count, int who, int tag, const char* what) {
  for (size_t i = 0; i < count; ++i)
    REQUIRE(values[first + i] == element(who, tag, i), "%s tag %d count %zu: [%zu] = %lld", what,
            tag, count, first + i, static_cast<long long>(values[first + i]));
}

// One collective with its own buffers: start(nullptr) runs it blocking, start(&request)
// starts it nonblocking; check() asserts this rank's result. spoil (where set) overwrites the
// input as soon as the call is complete here: a member that still read it would get wrong values.
struct Job {
  std::function<int(remora_request_t*)> start;
  std::function<void()> check;
  std::function<void()> spoil = [] {};
};

struct Setup {
  remora_comm_t comm;
  size_t count;
  int root;
  bool in_place;
  int me, size;
};

// reduce at s.root, or with all an allreduce (every rank checks its result; in place: all).
Job reduction(const Setup& s, int tag, bool all) {
  auto in = std::make_shared<Values>(s.count), out = std::make_shared<Values>(s.count, -1);
  fill(in.get(), 0, s.count, s.me, tag);
  const bool in_place = s.in_place && (all || s.me == s.root);
  const remora_op_t op = s.in_place ? REMORA_OP_MAX : REMORA_OP_SUM;
  Job job;
  job.start = [s, in, out, in_place, op, all](remora_request_t* request) {
    const void* send = in_place ? REMORA_IN_PLACE : in->data();
    int64_t* recv = in_place ? in->data() : out->data();
    if (all && request == nullptr)
      return remora_allreduce(send, recv, s.count, REMORA_INT64, op, s.comm, REMORA_COLL_SHM);
    if (all)
      return remora_iallreduce(send, recv, s.count, REMORA_INT64, op, s.comm, REMORA_COLL_SHM,
                               request);
    if (request == nullptr)
      return remora_reduce(send, recv, s.count, REMORA_INT64, op, s.root, s.comm, REMORA_COLL_SHM);
    return remora_ireduce(send, recv, s.count, REMORA_INT64, op, s.root, s.comm, REMORA_COLL_SHM,
                          request);
  };
  job.check = [s, in, out, in_place, tag, all] {
    if (!all && s.me != s.root) return;
    const Values& result = in_place ? *in : *out;
    for (size_t i = 0; i < s.count; ++i) {
      int64_t expected = element(0, tag, i);
      for (int rank = 1; rank < s.size; ++rank)
        expected = s.in_place ? std::max(expected, element(rank, tag, i))
                              : expected + element(rank, tag, i);
      REQUIRE(result[i] == expected, "%s tag %d count %zu root %d: [%zu] = %lld",
              all ? "allreduce" : "reduce", tag, s.count, s.root, i,
              static_cast<long long>(result[i]));
    }
  };
  return job;
}

Job reduce(const Setup& s, int tag) {
  return reduction(s, tag, false);
}

Job allreduce(const Setup& s, int tag) {
  return reduction(s, tag, true);
}

Job gather(const Setup& s, int tag) {
  auto in = std::make_shared<Values>(s.count);
  auto out = std::make_shared<Values>(s.count * static_cast<size_t>(s.size), -1);
  const bool in_place = s.in_place && s.me == s.root;
  fill(in_place ? out.get() : in.get(), in_place ? static_cast<size_t>(s.me) * s.count : 0, s.count,
       s.me, tag);
  Job job;
  job.start = [s, in, out, in_place](remora_request_t* request) {
    const void* send = in_place ? REMORA_IN_PLACE : in->data();
    if (request == nullptr)
      return remora_gather(send, out->data(), s.count, REMORA_INT64, s.root, s.comm,
                           REMORA_COLL_SHM);
    return remora_igather(send, out->data(), s.count, REMORA_INT64, s.root, s.comm, REMORA_COLL_SHM,
                          request);
  };
  job.check = [s, out, tag] {
    if (s.me != s.root) return;
    for (int rank = 0; rank < s.size; ++rank)
      expect(*out, static_cast<size_t>(rank) * s.count, s.count, rank, tag, "gather");
  };
  return job;
}

Job scatter(const Setup& s, int tag) {
  auto in = std::make_shared<Values>(s.count * static_cast<size_t>(s.size), -1);
  auto out = std::make_shared<Values>(s.count, -1);
  if (s.me == s.root)
    for (int rank = 0; rank < s.size; ++rank)
      fill(in.get(), static_cast<size_t>(rank) * s.count, s.count, rank, tag);
  const bool in_place = s.in_place && s.me == s.root;
  Job job;
  job.start = [s, in, out, in_place](remora_request_t* request) {
    void* recv = in_place ? REMORA_IN_PLACE : out->data();
    if (request == nullptr)
      return remora_scatter(in->data(), recv, s.count, REMORA_INT64, s.root, s.comm,
                            REMORA_COLL_SHM);
    return remora_iscatter(in->data(), recv, s.count, REMORA_INT64, s.root, s.comm, REMORA_COLL_SHM,
                           request);
  };
  job.check = [s, in, out, in_place, tag] {
    if (in_place)  // the root's own block stays where it is
      expect(*in, static_cast<size_t>(s.me) * s.count, s.count, s.me, tag, "scatter in place");
    else
      expect(*out, 0, s.count, s.me, tag, "scatter");
  };
  return job;
}

Job allgather(const Setup& s, int tag) {
  auto in = std::make_shared<Values>(s.count);
  auto out = std::make_shared<Values>(s.count * static_cast<size_t>(s.size), -1);
  fill(s.in_place ? out.get() : in.get(), s.in_place ? static_cast<size_t>(s.me) * s.count : 0,
       s.count, s.me, tag);
  Job job;
  job.start = [s, in, out](remora_request_t* request) {
    const void* send = s.in_place ? REMORA_IN_PLACE : in->data();
    if (request == nullptr)
      return remora_allgather(send, out->data(), s.count, REMORA_INT64, s.comm, REMORA_COLL_SHM);
    return remora_iallgather(send, out->data(), s.count, REMORA_INT64, s.comm, REMORA_COLL_SHM,
                             request);
  };
  job.check = [s, out, tag] {
    for (int rank = 0; rank < s.size; ++rank)
      expect(*out, static_cast<size_t>(rank) * s.count, s.count, rank, tag, "allgather");
  };
  return job;
}

// Block d of rank s's input: element(s * size + d, ...).
Job alltoall(const Setup& s, int tag) {
  const auto blocks = static_cast<size_t>(s.size);
  auto in = std::make_shared<Values>(s.count * blocks);
  auto out = std::make_shared<Values>(s.count * blocks, -1);
  for (int to = 0; to < s.size; ++to)
    fill(s.in_place ? out.get() : in.get(), static_cast<size_t>(to) * s.count, s.count,
         s.me * s.size + to, tag);
  Job job;
  job.start = [s, in, out](remora_request_t* request) {
    const void* send = s.in_place ? REMORA_IN_PLACE : in->data();
    if (request == nullptr)
      return remora_alltoall(send, out->data(), s.count, REMORA_INT64, s.comm, REMORA_COLL_SHM);
    return remora_ialltoall(send, out->data(), s.count, REMORA_INT64, s.comm, REMORA_COLL_SHM,
                            request);
  };
  job.check = [s, out, tag] {
    for (int from = 0; from < s.size; ++from)
      expect(*out, static_cast<size_t>(from) * s.count, s.count, from * s.size + s.me, tag,
             "alltoall");
  };
  job.spoil = [in] { std::fill(in->begin(), in->end(), -7); };
  return job;
}

// Blocking; then nonblocking with a blocking one behind it (even ranks wait for the first
// before they start the second: the fast path; odd ranks start it while the first is pending:
// a schedule).
void run(const std::function<Job(const Setup&, int)>& make, const Setup& setup, int* tag) {
  Job a = make(setup, *tag), b = make(setup, *tag + 1), c = make(setup, *tag + 2);
  *tag += 3;
  REQUIRE_OK(a.start(nullptr));
  a.spoil();
  a.check();
  remora_request_t request;
  REQUIRE_OK(b.start(&request));
  if (setup.me % 2 == 0) {
    REQUIRE_OK(remora_request_wait(&request));
    b.spoil();
  }
  REQUIRE_OK(c.start(nullptr));
  c.spoil();
  if (setup.me % 2 == 1) {
    REQUIRE_OK(remora_request_wait(&request));
    b.spoil();
  }
  b.check();
  c.check();
}

// Single-copy reduces and allreduces of other types and ops, one after the other on the same
// thread with sizes falling and rising (bytes from the threshold to a few cells), so that a
// member's scratch pieces, kept across calls (shm_fast.cpp's single_copy_scratch), hold an earlier
// call's data: every element of every result is checked against the rank-order reduction of
// small integers (exact in every type).
template <typename T>
void reduce_kept_scratch(remora_comm_t comm, size_t threshold, remora_datatype_t type, int me,
                         int size, int* tag) {
  const remora_op_t ops[] = {REMORA_OP_SUM, REMORA_OP_PROD, REMORA_OP_MIN, REMORA_OP_MAX};
  const size_t cell = remora::coll::ShmArea::kCellBytes;
  const size_t byte_sizes[] = {3 * cell + 24, threshold + sizeof(T), 2 * cell - sizeof(T),
                               threshold + 5 * sizeof(T)};
  for (size_t bytes : byte_sizes) {
    const size_t count = bytes / sizeof(T);
    for (remora_op_t op : ops) {
      const auto value = [&](int rank, size_t i) {
        // PROD: 1 or 2 (at most 2^size); the others: small integers of either sign.
        if (op == REMORA_OP_PROD) return static_cast<T>(1 + (i + static_cast<size_t>(rank)) % 2);
        return static_cast<T>(static_cast<int>((i * 7 + static_cast<size_t>(rank) * 13) % 61) - 30);
      };
      std::vector<T> expected(count);
      for (size_t i = 0; i < count; ++i) {
        T result = value(0, i);
        for (int rank = 1; rank < size; ++rank) {
          const T x = value(rank, i);
          result = op == REMORA_OP_SUM    ? static_cast<T>(result + x)
                   : op == REMORA_OP_PROD ? static_cast<T>(result * x)
                   : op == REMORA_OP_MIN  ? std::min(result, x)
                                          : std::max(result, x);
        }
        expected[i] = result;
      }
      for (int root : {size - 1, 0, -1}) {  // -1: allreduce
        const bool in_place = (*tag)++ % 2 == 1 && (root < 0 || root == me);
        std::vector<T> in(count), out(count, static_cast<T>(-99));
        for (size_t i = 0; i < count; ++i) in[i] = value(me, i);
        const void* send = in_place ? REMORA_IN_PLACE : in.data();
        T* recv = in_place ? in.data() : out.data();
        if (root < 0)
          REQUIRE_OK(remora_allreduce(send, recv, count, type, op, comm, REMORA_COLL_SHM));
        else
          REQUIRE_OK(remora_reduce(send, recv, count, type, op, root, comm, REMORA_COLL_SHM));
        if (root >= 0 && root != me) continue;
        for (size_t i = 0; i < count; ++i)
          REQUIRE(recv[i] == expected[i], "kept scratch: type %d op %d count %zu root %d: [%zu]",
                  static_cast<int>(type), static_cast<int>(op), count, root, i);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  remora_comm_t world;
  const size_t threshold = start_shm_test(argc, argv, &world);
  const int me = remora_rank(), size = remora_size();
  // "default" (second argument): where the world has an area that may copy single (not under
  // MPI across processes without one), the threshold is the default one of the area's size, so
  // that the counts below straddle it (two members: single copy from one cell on).
  if (argc > 2 && std::string(argv[2]) == "default" && threshold != 0) {
    const size_t expected = size == 2 ? remora::coll::Collectives::kPairSingleCopyBytes
                                      : remora::coll::Collectives::kDefaultSingleCopyBytes;
    REQUIRE(threshold == expected, "single-copy threshold %zu at %d ranks, expected %zu", threshold,
            size, expected);
  }
  // Odd int64 counts: above the cell size; about 1 MiB; around the threshold.
  std::vector<size_t> counts{3 * remora::coll::ShmArea::kCellBytes / 8 + 5, 131075};
  if (threshold > 16) {
    counts.push_back(threshold / 8 - 1);
    counts.push_back(threshold / 8 + 1);
  }
  int tag = 0;
  if (threshold != 0) {
    reduce_kept_scratch<double>(world, threshold, REMORA_DOUBLE, me, size, &tag);
    reduce_kept_scratch<float>(world, threshold, REMORA_FLOAT, me, size, &tag);
    reduce_kept_scratch<int32_t>(world, threshold, REMORA_INT32, me, size, &tag);
  }
  for (size_t count : counts)
    for (bool in_place : {false, true}) {
      for (int root = 0; root < size; ++root) {
        const Setup setup{world, count, root, in_place, me, size};
        run(reduce, setup, &tag);
        run(gather, setup, &tag);
        run(scatter, setup, &tag);
      }
      const Setup setup{world, count, 0, in_place, me, size};
      run(allreduce, setup, &tag);
      run(allgather, setup, &tag);
      run(alltoall, setup, &tag);
    }
  REQUIRE_OK(remora_finalize());
  return 0;
}
