// Arrays on another array's memory (remora_array_set_create_memory): an array of the memory's
// shape and type sees its elements and every write through either array (put, acc, local
// stores) is read through the other; a smaller array of another type and shape starts at the
// start of each rank's part (the same local pointer); destroying the memory's own array first
// leaves the others working on it. Duplicates and creations after the setting is cleared get
// memory of their own, zero-filled. Bad settings: a dead array, a part that does not fit on
// some rank (REMORA_ERR_RANGE on every rank), other ranks than the memory's.
#include <cstdint>
#include <cstring>
#include <vector>

#include "multirank.hpp"
#include "sub_comm.hpp"

namespace {

int rank_, size_;

constexpr int64_t kRows = 9, kCols = 7;
constexpr int64_t kDims[2] = {kRows, kCols};
constexpr int64_t kLo[2] = {0, 0}, kHi[2] = {kRows - 1, kCols - 1}, kLd[1] = {kCols};

double reference(int64_t i, int64_t j, double salt) {
  return 100.0 * static_cast<double>(i) + static_cast<double>(j) + salt;
}

// Rank 0 puts reference(salt) into a; every rank reads it back through b.
void put_and_read(remora_array_t a, remora_array_t b, double salt) {
  std::vector<double> all(kRows * kCols);
  if (rank_ == 0) {
    for (int64_t i = 0; i < kRows; ++i)
      for (int64_t j = 0; j < kCols; ++j)
        all[static_cast<size_t>(i * kCols + j)] = reference(i, j, salt);
    REQUIRE_OK(remora_array_put(a, kLo, kHi, all.data(), kLd));
  }
  REQUIRE_OK(remora_array_sync());
  std::fill(all.begin(), all.end(), -1.0);
  REQUIRE_OK(remora_array_get(b, kLo, kHi, all.data(), kLd));
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t j = 0; j < kCols; ++j)
      REQUIRE(all[static_cast<size_t>(i * kCols + j)] == reference(i, j, salt),
              "salt %g: (%lld,%lld) = %g", salt, static_cast<long long>(i),
              static_cast<long long>(j), all[static_cast<size_t>(i * kCols + j)]);
  REQUIRE_OK(remora_array_sync());
}

void* local_part(remora_array_t a, int64_t* count) {
  void* p = nullptr;
  REQUIRE_OK(remora_array_access_local(a, rank_, &p, count));
  return p;
}

void shared(void) {
  remora_array_t memory = nullptr, twin = nullptr, ints = nullptr;
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, kDims, "memory", &memory));
  put_and_read(memory, memory, 0.5);
  REQUIRE_OK(remora_array_set_create_memory(memory));
  remora_array_t got = nullptr;
  REQUIRE_OK(remora_array_get_create_memory(&got));
  REQUIRE(got == memory, "the setting reads back %p", static_cast<void*>(got));
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, kDims, "twin", &twin));
  // One element per rank, of another type: the first bytes of each rank's part.
  const int64_t per_rank[1] = {size_};
  REQUIRE_OK(remora_array_create(REMORA_INT32, 1, per_rank, "ints", &ints));
  REQUIRE_OK(remora_array_set_create_memory(nullptr));

  // Not zero-filled: the memory's values, then each one's writes through the other.
  put_and_read(memory, twin, 0.5);
  put_and_read(twin, memory, 0.25);
  const double alpha = 2.0;
  std::vector<double> ones(kRows * kCols, 1.0);
  REQUIRE_OK(remora_array_acc(twin, kLo, kHi, ones.data(), kLd, &alpha));
  REQUIRE_OK(remora_array_sync());
  std::vector<double> all(kRows * kCols);
  REQUIRE_OK(remora_array_get(memory, kLo, kHi, all.data(), kLd));
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t j = 0; j < kCols; ++j)
      REQUIRE(all[static_cast<size_t>(i * kCols + j)] == reference(i, j, 0.25) + 2.0 * size_,
              "after acc (%lld,%lld) = %g", static_cast<long long>(i), static_cast<long long>(j),
              all[static_cast<size_t>(i * kCols + j)]);
  REQUIRE_OK(remora_array_sync());
  int64_t count = 0, twin_count = 0, int_count = 0;
  auto* mine = static_cast<double*>(local_part(memory, &count));
  REQUIRE(local_part(twin, &twin_count) == mine && twin_count == count, "twin's part differs");
  REQUIRE(local_part(ints, &int_count) == mine && int_count == 1, "ints' part differs");

  // Local stores into the memory are read through the twin.
  for (int64_t k = 0; k < count; ++k) mine[k] = -static_cast<double>(k) - rank_;
  REQUIRE_OK(remora_array_sync());
  int64_t lo[2], hi[2];
  REQUIRE_OK(remora_array_distribution(twin, rank_, lo, hi));
  if (count > 0) {
    std::vector<double> block(static_cast<size_t>(count));
    const int64_t ld[1] = {hi[1] - lo[1] + 1};
    REQUIRE_OK(remora_array_get(twin, lo, hi, block.data(), ld));
    for (int64_t k = 0; k < count; ++k)
      REQUIRE(block[static_cast<size_t>(k)] == -static_cast<double>(k) - rank_, "block[%lld] = %g",
              static_cast<long long>(k), block[static_cast<size_t>(k)]);
  }
  REQUIRE_OK(remora_array_sync());

  // Each rank's int lands in the first bytes of its part of the memory.
  const int32_t stamp = 1000 + rank_;
  const int64_t at[1] = {rank_};
  const int64_t one_ld[1] = {1};
  REQUIRE_OK(remora_array_put(ints, at, at, &stamp, one_ld));
  REQUIRE_OK(remora_array_sync());
  if (count > 0) {
    int32_t first = 0;
    std::memcpy(&first, mine, sizeof first);
    REQUIRE(first == 1000 + rank_, "first bytes hold %d", first);
  }
  REQUIRE_OK(remora_array_sync());

  // The memory's own array destroyed first: the others keep the memory.
  REQUIRE_OK(remora_array_destroy(&memory));
  put_and_read(twin, twin, 1.5);
  REQUIRE_OK(remora_array_put(ints, at, at, &stamp, one_ld));
  REQUIRE_OK(remora_array_sync());
  std::vector<int32_t> stamps(static_cast<size_t>(size_));
  const int64_t first[1] = {0}, last[1] = {size_ - 1};
  REQUIRE_OK(remora_array_get(ints, first, last, stamps.data(), one_ld));
  for (int r = 0; r < size_; ++r)
    REQUIRE(stamps[static_cast<size_t>(r)] == 1000 + r, "stamp %d = %d", r,
            stamps[static_cast<size_t>(r)]);
  REQUIRE_OK(remora_array_sync());

  // A duplicate, and a creation after the setting was cleared, have memory of their own.
  remora_array_t copy = nullptr, fresh = nullptr;
  REQUIRE_OK(remora_array_set_create_memory(twin));
  REQUIRE_OK(remora_array_duplicate(twin, "copy", &copy));
  REQUIRE_OK(remora_array_set_create_memory(nullptr));
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, kDims, "fresh", &fresh));
  for (remora_array_t own : {copy, fresh}) {
    REQUIRE(local_part(own, &count) != local_part(twin, &twin_count), "shares twin's memory");
    REQUIRE_OK(remora_array_get(own, kLo, kHi, all.data(), kLd));
    for (double v : all) REQUIRE(v == 0.0, "not zero-filled: %g", v);
  }
  REQUIRE_OK(remora_array_sync());
  for (remora_array_t* a : {&copy, &fresh, &ints, &twin}) REQUIRE_OK(remora_array_destroy(a));
}

void bad_settings(void) {
  remora_array_t memory = nullptr, bad = nullptr;
  REQUIRE_ERROR(remora_array_set_create_memory(reinterpret_cast<remora_array_t>(&bad)),
                REMORA_ERR_ARG, "a=");
  REQUIRE_ERROR(remora_array_get_create_memory(nullptr), REMORA_ERR_ARG, "a");
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, kDims, "memory", &memory));
  // Twice the rows: some rank's part is larger than its part of the memory.
  const int64_t big[2] = {2 * kRows, kCols};
  REQUIRE_OK(remora_array_set_create_memory(memory));
  REQUIRE_ERROR(remora_array_create(REMORA_DOUBLE, 2, big, "big", &bad), REMORA_ERR_RANGE,
                "bytes of that rank's memory in the creation memory, array 'memory'");
  REQUIRE(bad == nullptr, "an array was created");
  // Other ranks than the memory's: a communicator of this rank alone.
  if (size_ > 1) {
    remora_test::SubComm alone = remora_test::split_world(rank_);
    REQUIRE_OK(remora_array_set_create_comm(alone.comm));
    REQUIRE_ERROR(remora_array_create(REMORA_DOUBLE, 2, kDims, "elsewhere", &bad), REMORA_ERR_ARG,
                  "lives on other ranks than the creation communicator");
    REQUIRE_OK(remora_array_set_create_comm(REMORA_COMM_NULL));
    REQUIRE_OK(remora_comm_free(&alone.comm));
  }
  // A memory array destroyed while still the setting.
  REQUIRE_OK(remora_array_destroy(&memory));
  REQUIRE_ERROR(remora_array_create(REMORA_DOUBLE, 2, kDims, "dead", &bad), REMORA_ERR_ARG,
                "no longer a live array");
  REQUIRE_OK(remora_array_set_create_memory(nullptr));
}

}  // namespace

int main(int argc, char** argv) {
  remora_test::init(&argc, &argv, &rank_, &size_);
  shared();
  bad_settings();
  REQUIRE_OK(remora_finalize());
  return 0;
}
