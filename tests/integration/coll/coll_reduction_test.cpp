// The reductions, generated as a matrix: reduce, allreduce (every algorithm), reduce_scatter,
// reduce_scatter_block, scan and exscan x a sample of types and ops x counts (0, 1, odd,
// larger than the rank count and not a multiple of it) x in-place or not, on the world
// communicator and on a split of it. Each rank checks its result against a local fold.
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "coll_reference.hpp"
#include "multirank.hpp"

namespace {

using coll_test::fold;
using coll_test::input;
using coll_test::same;

constexpr size_t kCounts[] = {0, 1, 7, 1000};
const auto kReduceAlgorithms = coll_test::algorithms_of("reduce");
const auto kAllreduceAlgorithms = coll_test::algorithms_of("allreduce");
const auto kReduceScatterAlgorithms = coll_test::algorithms_of("reduce_scatter");

struct Case {
  remora_comm_t comm;
  int rank, size;
  remora_datatype_t type;
  remora_op_t op;
  const char* what;
};

template <typename T>
std::vector<T> inputs(const Case& c, size_t count) {
  std::vector<T> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = input<T>(c.op, c.rank, i);
  return values;
}

// result[i] must equal the fold over ranks [first, last] of element offset + i.
template <typename T>
void expect_fold(const Case& c, const char* operation, const std::vector<T>& result, size_t count,
                 int first, int last, size_t offset = 0) {
  for (size_t i = 0; i < count; ++i)
    REQUIRE(same(result[i], fold<T>(c.op, first, last, offset + i)),
            "%s %s type=%d op=%d count=%zu: element %zu differs on rank %d of %d", c.what,
            operation, c.type, c.op, count, i, c.rank, c.size);
}

template <typename T>
void allreduce(const Case& c, size_t count) {
  for (remora_coll_algorithm_t algorithm : kAllreduceAlgorithms) {
    for (bool in_place : {false, true}) {
      std::vector<T> send = inputs<T>(c, count), recv(count);
      if (in_place) recv = send;
      REQUIRE_OK(remora_allreduce(in_place ? REMORA_IN_PLACE : send.data(), recv.data(), count,
                                  c.type, c.op, c.comm, algorithm));
      expect_fold(c, in_place ? "allreduce in place" : "allreduce", recv, count, 0, c.size - 1);
    }
  }
}

// The send buffer dies right after each call: an application-bypass reduce that returned early
// must have copied it.
template <typename T>
void reduce(const Case& c, size_t count) {
  for (remora_coll_algorithm_t algorithm : kReduceAlgorithms) {
    for (int root : {0, c.size - 1, c.size / 2}) {
      for (bool in_place : {false, true}) {
        std::vector<T> send = inputs<T>(c, count), recv(count);
        const bool place = in_place && c.rank == root;
        if (place) recv = send;
        REQUIRE_OK(remora_reduce(place ? REMORA_IN_PLACE : send.data(), recv.data(), count, c.type,
                                 c.op, root, c.comm, algorithm));
        if (c.rank == root) expect_fold(c, "reduce", recv, count, 0, c.size - 1);
      }
    }
  }
}

template <typename T>
void scans(const Case& c, size_t count) {
  for (bool in_place : {false, true}) {
    std::vector<T> send = inputs<T>(c, count), recv(count);
    if (in_place) recv = send;
    const void* source = in_place ? REMORA_IN_PLACE : send.data();
    REQUIRE_OK(remora_scan(source, recv.data(), count, c.type, c.op, c.comm, REMORA_COLL_AUTO));
    expect_fold(c, "scan", recv, count, 0, c.rank);
    if (in_place) recv = send;
    REQUIRE_OK(remora_exscan(source, recv.data(), count, c.type, c.op, c.comm, REMORA_COLL_AUTO));
    if (c.rank > 0) expect_fold(c, "exscan", recv, count, 0, c.rank - 1);
  }
}

template <typename T>
void reduce_scatters(const Case& c, size_t count) {
  // Block form: count elements per rank. Vector form: rank j gets (j + count) % 4 elements.
  std::vector<size_t> counts(static_cast<size_t>(c.size));
  for (size_t j = 0; j < counts.size(); ++j) counts[j] = (j + count) % 4;
  for (remora_coll_algorithm_t algorithm : kReduceScatterAlgorithms)
    for (bool vector_form : {false, true}) {
      size_t total = 0, offset = 0;
      for (int j = 0; j < c.size; ++j) {
        const size_t block = vector_form ? counts[static_cast<size_t>(j)] : count;
        if (j < c.rank) offset += block;
        total += block;
      }
      const size_t mine = vector_form ? counts[static_cast<size_t>(c.rank)] : count;
      for (bool in_place : {false, true}) {
        std::vector<T> send = inputs<T>(c, total), recv(in_place ? total : mine);
        if (in_place) recv = send;
        const void* source = in_place ? REMORA_IN_PLACE : send.data();
        if (vector_form) {
          REQUIRE_OK(remora_reduce_scatter(source, recv.data(), counts.data(), c.type, c.op, c.comm,
                                           algorithm));
        } else {
          REQUIRE_OK(remora_reduce_scatter_block(source, recv.data(), count, c.type, c.op, c.comm,
                                                 algorithm));
        }
        expect_fold(c, vector_form ? "reduce_scatter" : "reduce_scatter_block", recv, mine, 0,
                    c.size - 1, offset);
      }
    }
}

template <typename T>
void run_type(remora_comm_t comm, const char* what, remora_datatype_t type,
              std::initializer_list<remora_op_t> ops) {
  int rank = 0, size = 0;
  REQUIRE_OK(remora_comm_rank(comm, &rank));
  REQUIRE_OK(remora_comm_size(comm, &size));
  for (remora_op_t op : ops) {
    const Case c{comm, rank, size, type, op, what};
    for (size_t count : kCounts) {
      allreduce<T>(c, count);
      reduce<T>(c, count);
      scans<T>(c, count);
      reduce_scatters<T>(c, count > 7 ? 7 : count);
    }
  }
}

void run_matrix(remora_comm_t comm, const char* what) {
  run_type<int8_t>(comm, what, REMORA_INT8, {REMORA_OP_SUM, REMORA_OP_PROD, REMORA_OP_LXOR});
  run_type<int32_t>(comm, what, REMORA_INT32,
                    {REMORA_OP_SUM, REMORA_OP_MIN, REMORA_OP_BXOR, REMORA_OP_LAND});
  run_type<uint64_t>(comm, what, REMORA_UINT64, {REMORA_OP_MAX, REMORA_OP_BOR, REMORA_OP_LOR});
  run_type<float>(comm, what, REMORA_FLOAT, {REMORA_OP_SUM, REMORA_OP_PROD});
  run_type<double>(comm, what, REMORA_DOUBLE, {REMORA_OP_SUM, REMORA_OP_MIN});
  run_type<std::complex<double>>(comm, what, REMORA_DOUBLE_COMPLEX,
                                 {REMORA_OP_SUM, REMORA_OP_PROD});
}

// Floating-point results are reproducible: every rank gets bitwise the same allreduce result,
// and running it again gives the same bits.
void check_reproducible(remora_comm_t comm) {
  int rank = 0, size = 0;
  REQUIRE_OK(remora_comm_rank(comm, &rank));
  REQUIRE_OK(remora_comm_size(comm, &size));
  constexpr size_t kCount = 257;
  std::vector<double> send(kCount);
  for (size_t i = 0; i < kCount; ++i) send[i] = 1.0 / (3.0 + static_cast<double>(rank * 7 + i));
  for (remora_coll_algorithm_t algorithm : kAllreduceAlgorithms) {
    std::vector<double> first(kCount), again(kCount), root_copy(kCount);
    REQUIRE_OK(remora_allreduce(send.data(), first.data(), kCount, REMORA_DOUBLE, REMORA_OP_SUM,
                                comm, algorithm));
    REQUIRE_OK(remora_allreduce(send.data(), again.data(), kCount, REMORA_DOUBLE, REMORA_OP_SUM,
                                comm, algorithm));
    if (rank == 0) root_copy = first;
    REQUIRE_OK(remora_bcast(root_copy.data(), kCount, REMORA_DOUBLE, 0, comm, REMORA_COLL_AUTO));
    for (size_t i = 0; i < kCount; ++i) {
      REQUIRE(same(first[i], again[i]), "algorithm %d: element %zu not reproducible", algorithm, i);
      REQUIRE(same(first[i], root_copy[i]), "algorithm %d: element %zu differs from rank 0's",
              algorithm, i);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  remora_comm_t world = REMORA_COMM_NULL, half = REMORA_COMM_NULL;
  REQUIRE_OK(remora_comm_world(&world));
  run_matrix(world, "world");
  check_reproducible(world);
  // A sub-communicator whose ranks are not the world's: odd and even ranks, reversed order.
  const int rank = remora_rank();
  REQUIRE_OK(remora_comm_split(world, rank % 2, -rank, &half));
  run_matrix(half, "split");
  REQUIRE_OK(remora_comm_free(&half));
  REQUIRE_OK(remora_finalize());
  return 0;
}
