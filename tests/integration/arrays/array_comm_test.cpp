// Distributed arrays on communicators (remora_array_set_create_comm): the even and the odd
// ranks each work on arrays of their own at the same time (put, get, acc, read_inc, scatter,
// gather, sync over the communicator, collective operations), then the ranks other than 0
// while rank 0 works on an array of its own. Queries report ranks of the communicator. Then
// bad arguments: mixing arrays of different ranks, a dead creation communicator, ranks outside
// the array's.
#include <cmath>
#include <cstdint>
#include <vector>

#include "multirank.hpp"
#include "sub_comm.hpp"

namespace {

int rank_, size_;
remora_comm_t world_;

using Comm = remora_test::SubComm;
using remora_test::split_world;

constexpr int64_t kRows = 9, kCols = 7;

double reference(int64_t i, int64_t j, int salt) {
  return 100.0 * static_cast<double>(i) + static_cast<double>(j) + salt;
}

// Every rank of c puts its share of rows, then all get the whole array back; all accumulate
// into it; the queries name ranks of c.
void patches(const Comm& c, remora_array_t a, int salt) {
  int size = 0, rank = -1;
  REQUIRE_OK(remora_array_ranks(a, &size, &rank));
  REQUIRE(size == c.size && rank == c.rank, "array ranks %d of %d, comm %d of %d", rank, size,
          c.rank, c.size);
  for (int64_t i = c.rank; i < kRows; i += c.size) {
    std::vector<double> row(kCols);
    for (int64_t j = 0; j < kCols; ++j) row[static_cast<size_t>(j)] = reference(i, j, salt);
    const int64_t lo[2] = {i, 0}, hi[2] = {i, kCols - 1}, ld[1] = {kCols};
    REQUIRE_OK(remora_array_put(a, lo, hi, row.data(), ld));
  }
  REQUIRE_OK(remora_array_sync_comm(c.comm));
  std::vector<double> all(kRows * kCols);
  const int64_t lo[2] = {0, 0}, hi[2] = {kRows - 1, kCols - 1}, ld[1] = {kCols};
  REQUIRE_OK(remora_array_get(a, lo, hi, all.data(), ld));
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t j = 0; j < kCols; ++j)
      REQUIRE(all[static_cast<size_t>(i * kCols + j)] == reference(i, j, salt), "(%lld,%lld) = %g",
              static_cast<long long>(i), static_cast<long long>(j),
              all[static_cast<size_t>(i * kCols + j)]);
  REQUIRE_OK(remora_array_sync_comm(c.comm));
  const double alpha = 2.0;
  std::vector<double> ones(kRows * kCols, 1.0);
  REQUIRE_OK(remora_array_acc(a, lo, hi, ones.data(), ld, &alpha));
  REQUIRE_OK(remora_array_sync_comm(c.comm));
  REQUIRE_OK(remora_array_get(a, lo, hi, all.data(), ld));
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t j = 0; j < kCols; ++j)
      REQUIRE(all[static_cast<size_t>(i * kCols + j)] == reference(i, j, salt) + 2.0 * c.size,
              "after acc (%lld,%lld) = %g", static_cast<long long>(i), static_cast<long long>(j),
              all[static_cast<size_t>(i * kCols + j)]);
  int owners[64], count = 0;
  REQUIRE_OK(remora_array_locate_region(a, lo, hi, 64, owners, nullptr, nullptr, &count));
  REQUIRE(count >= 1 && count <= c.size, "%d owners", count);
  for (int k = 0; k < count; ++k)
    REQUIRE(owners[k] >= 0 && owners[k] < c.size, "owner %d", owners[k]);
  int64_t extents[2];
  REQUIRE_OK(remora_array_local_shape(a, c.size - 1, extents));
  REQUIRE_ERROR(remora_array_local_shape(a, c.size, extents), REMORA_ERR_RANK, "outside array");
  REQUIRE_OK(remora_array_sync_comm(c.comm));
}

// Collective operations over c only: fill, scale, copy into another distribution, add, dot,
// norm, transpose; a read_inc counter; scatter and gather.
void collectives(const Comm& c) {
  const int64_t dims[2] = {kRows, kCols}, tdims[2] = {kCols, kRows};
  remora_array_t a, b, t, counter;
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, dims, "a", &a));
  REQUIRE_OK(remora_array_create_element_cyclic(REMORA_DOUBLE, dims, nullptr, "b", &b));
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, tdims, "t", &t));
  const int64_t one_dim[1] = {1};
  REQUIRE_OK(remora_array_create(REMORA_INT64, 1, one_dim, "counter", &counter));
  const double three = 3.0, half = 0.5;
  REQUIRE_OK(remora_array_fill(a, &three));
  REQUIRE_OK(remora_array_scale(a, &half));  // 1.5 everywhere
  REQUIRE_OK(remora_array_copy(a, b));
  const double one = 1.0, two = 2.0;
  REQUIRE_OK(remora_array_add(&one, a, &two, b, b));  // 4.5
  double dot = 0.0, norm = 0.0;
  REQUIRE_OK(remora_array_dot(a, b, &dot));
  REQUIRE(dot == 1.5 * 4.5 * kRows * kCols, "dot %g", dot);
  REQUIRE_OK(remora_array_norm(b, &norm));
  REQUIRE(std::fabs(norm - 4.5 * std::sqrt(static_cast<double>(kRows * kCols))) < 1e-9, "norm %g",
          norm);
  patches(c, a, 7);
  REQUIRE_OK(remora_array_transpose(a, t));
  double value = 0.0;
  const int64_t at[2] = {2, 5};
  REQUIRE_OK(remora_array_gather(t, &value, at, 1));
  REQUIRE(value == reference(5, 2, 7) + 2.0 * c.size, "transposed (2,5) = %g", value);
  REQUIRE_OK(remora_array_sync_comm(c.comm));
  // Tickets of a read_inc counter are handed out once each among c's ranks.
  const int tickets = 10;
  std::vector<int64_t> mine;
  const int64_t zero[1] = {0};
  for (int k = 0; k < tickets; ++k) {
    int64_t old = -1;
    REQUIRE_OK(remora_array_read_inc(counter, zero, 1, &old));
    mine.push_back(old);
  }
  REQUIRE_OK(remora_array_sync_comm(c.comm));
  int64_t total = 0;
  REQUIRE_OK(remora_array_gather(counter, &total, zero, 1));
  REQUIRE(total == static_cast<int64_t>(tickets) * c.size, "counter %lld",
          static_cast<long long>(total));
  int64_t sum = 0, expected = 0;
  for (int64_t ticket : mine) sum += ticket;
  REQUIRE_OK(remora_allreduce(REMORA_IN_PLACE, &sum, 1, REMORA_INT64, REMORA_OP_SUM, c.comm,
                              REMORA_COLL_AUTO));
  for (int64_t k = 0; k < total; ++k) expected += k;
  REQUIRE(sum == expected, "tickets sum to %lld, expected %lld", static_cast<long long>(sum),
          static_cast<long long>(expected));
  for (remora_array_t* x : {&a, &b, &t, &counter}) REQUIRE_OK(remora_array_destroy(x));
}

void exercise(const Comm& c) {
  REQUIRE_OK(remora_array_set_create_comm(c.comm));
  const int64_t dims[2] = {kRows, kCols}, block[2] = {2, 3};
  remora_array_t a;
  REQUIRE_OK(remora_array_create_block_cyclic(REMORA_DOUBLE, dims, block, nullptr, "bc", &a));
  patches(c, a, 1);
  remora_array_t d;
  REQUIRE_OK(remora_array_duplicate(a, "dup", &d));  // on the same ranks
  patches(c, d, 2);
  REQUIRE_OK(remora_array_destroy(&d));
  REQUIRE_OK(remora_array_destroy(&a));
  collectives(c);
  REQUIRE_OK(remora_array_set_create_comm(REMORA_COMM_NULL));
}

void bad_arguments(const Comm& c) {
  // Arrays of one operation must live on the same ranks.
  const int64_t dims[2] = {kRows, kCols};
  remora_array_t everyone, ours;
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, dims, "everyone", &everyone));
  REQUIRE_OK(remora_array_set_create_comm(c.comm));
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, dims, "ours", &ours));
  if (c.size < size_)
    REQUIRE_ERROR(remora_array_copy(everyone, ours), REMORA_ERR_ARG, "lives on other ranks");
  // The grid must fit the creation communicator.
  const int grid[2] = {c.size + 1, 1};
  remora_array_t bad = nullptr;
  REQUIRE_ERROR(remora_array_create_element_cyclic(REMORA_DOUBLE, dims, grid, "bad", &bad),
                REMORA_ERR_ARG, "needs more ranks");
  REQUIRE_OK(remora_array_destroy(&ours));
  // A creation communicator that died.
  remora_comm_t dup;
  REQUIRE_OK(remora_comm_dup(c.comm, &dup));
  REQUIRE_OK(remora_array_set_create_comm(dup));
  REQUIRE_OK(remora_comm_free(&dup));
  REQUIRE_ERROR(remora_array_create(REMORA_DOUBLE, 2, dims, "dead", &bad), REMORA_ERR_ARG,
                "no longer live");
  REQUIRE_ERROR(remora_array_sync_comm(REMORA_COMM_NULL), REMORA_ERR_ARG,
                "not a live communicator");
  REQUIRE_OK(remora_array_set_create_comm(REMORA_COMM_NULL));
  REQUIRE_OK(remora_array_destroy(&everyone));
}

}  // namespace

int main(int argc, char** argv) {
  remora_test::init(&argc, &argv, &rank_, &size_);
  REQUIRE_OK(remora_comm_world(&world_));
  Comm parity = split_world(rank_ % 2);
  exercise(parity);
  Comm rest = split_world(rank_ == 0 ? REMORA_UNDEFINED : 1);
  Comm alone = split_world(rank_ == 0 ? 0 : REMORA_UNDEFINED);
  exercise(rest.comm != REMORA_COMM_NULL ? rest : alone);
  for (Comm* c : {&rest, &alone})
    if (c->comm != REMORA_COMM_NULL) REQUIRE_OK(remora_comm_free(&c->comm));
  bad_arguments(parity);
  REQUIRE_OK(remora_comm_free(&parity.comm));
  REQUIRE_OK(remora_finalize());
  return 0;
}
