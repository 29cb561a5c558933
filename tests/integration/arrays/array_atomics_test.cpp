// Atomicity under contention: every rank accumulates into the same overlapping patches many
// times (exact integer totals, and double-complex elements, which take the lock-table path);
// read_inc hands out every ticket exactly once; a mutex makes a get-modify-put counter exact;
// sync completes operations on many arrays of which only some were touched.
#include "array_reference.hpp"

using namespace array_test;

namespace {

int rank_, size_;

template <typename T>
void check_concurrent_acc(const Layout& layout) {
  const std::vector<int64_t> dims = {12, 10};
  remora_array_t a = nullptr;
  REQUIRE_OK(layout.create(type_of<T>(), dims.data(), &a));
  // Every rank adds (rank + 1) * alpha to the patch rows 2..9, cols 1..8, 20 times, and to the
  // whole array once; the overlap is contended by everyone.
  const int64_t lo[2] = {2, 1}, hi[2] = {9, 8}, ld[1] = {8};
  std::vector<T> ones(64, make_value<T>(1));
  const T alpha = make_value<T>(rank_ + 1);
  for (int k = 0; k < 20; ++k) REQUIRE_OK(remora_array_acc(a, lo, hi, ones.data(), ld, &alpha));
  const int64_t all_lo[2] = {0, 0}, all_hi[2] = {11, 9}, all_ld[1] = {10};
  std::vector<T> all(120, make_value<T>(1));
  REQUIRE_OK(remora_array_acc(a, all_lo, all_hi, all.data(), all_ld, &alpha));
  REQUIRE_OK(remora_array_sync());
  std::vector<T> got(120);
  REQUIRE_OK(remora_array_get(a, all_lo, all_hi, got.data(), all_ld));
  for (int64_t i = 0; i < 12; ++i)
    for (int64_t j = 0; j < 10; ++j) {
      const bool inside = i >= 2 && i <= 9 && j >= 1 && j <= 8;
      T want{};
      for (int r = 0; r < size_; ++r)
        want += T(static_cast<Real<T>>(inside ? 21 : 1)) * make_value<T>(r + 1) * make_value<T>(1);
      REQUIRE(got[static_cast<size_t>(i * 10 + j)] == want, "%s: element (%lld,%lld)",
              layout.name.c_str(), (long long)i, (long long)j);
    }
  REQUIRE_OK(remora_array_sync());
  REQUIRE_OK(remora_array_destroy(&a));
}

template <typename T>
void check_read_inc() {
  const int64_t dims[1] = {3};
  remora_array_t counter = nullptr;
  REQUIRE_OK(remora_array_create(type_of<T>(), 1, dims, "counter", &counter));
  const int tickets = 50 * size_;
  // seen[t] counts how often ticket t was handed out, summed over all ranks by acc.
  const int64_t seen_dims[1] = {tickets + size_};
  remora_array_t seen = nullptr;
  REQUIRE_OK(remora_array_create(REMORA_INT64, 1, seen_dims, "seen", &seen));
  const int64_t subscript[1] = {1};
  int64_t ticket = 0;
  const int64_t one = 1;
  for (;;) {
    REQUIRE_OK(remora_array_read_inc(counter, subscript, 1, &ticket));
    if (ticket >= tickets) break;
    const int64_t element[1] = {ticket};
    REQUIRE_OK(remora_array_scatter_acc(seen, &one, element, 1, &one));
  }
  REQUIRE_OK(remora_array_sync());
  std::vector<int64_t> counts(static_cast<size_t>(tickets));
  const int64_t lo[1] = {0}, hi[1] = {tickets - 1};
  REQUIRE_OK(remora_array_get(seen, lo, hi, counts.data(), nullptr));
  for (int t = 0; t < tickets; ++t)
    REQUIRE(counts[static_cast<size_t>(t)] == 1, "ticket %d handed out %lld times", t,
            (long long)counts[static_cast<size_t>(t)]);
  int64_t final_value = 0;
  REQUIRE_OK(remora_array_read_inc(counter, subscript, 0, &final_value));
  REQUIRE(final_value == tickets + size_, "counter ends at %lld", (long long)final_value);
  REQUIRE_OK(remora_array_sync());
  REQUIRE_OK(remora_array_destroy(&counter));
  REQUIRE_OK(remora_array_destroy(&seen));
}

// A get-increment-put on one element is only exact under a mutex.
void check_mutexes() {
  const int count = size_ + 2;  // more mutexes than ranks: two windows
  remora_mutexes_t mutexes = nullptr;
  REQUIRE_OK(remora_mutexes_create(count, &mutexes));
  const int64_t dims[1] = {count};
  remora_array_t a = nullptr;
  REQUIRE_OK(remora_array_create(REMORA_INT64, 1, dims, "guarded", &a));
  for (int round = 0; round < 30; ++round)
    for (int m : {0, count - 1}) {
      const int64_t lo[1] = {m}, hi[1] = {m};
      REQUIRE_OK(remora_mutex_lock(mutexes, m));
      int64_t v = 0;
      REQUIRE_OK(remora_array_get(a, lo, hi, &v, nullptr));
      ++v;
      REQUIRE_OK(remora_array_put(a, lo, hi, &v, nullptr));
      REQUIRE_OK(remora_array_flush(a));
      REQUIRE_OK(remora_mutex_unlock(mutexes, m));
    }
  REQUIRE_OK(remora_array_sync());
  for (int m : {0, count - 1}) {
    const int64_t lo[1] = {m}, hi[1] = {m};
    int64_t v = 0;
    REQUIRE_OK(remora_array_get(a, lo, hi, &v, nullptr));
    REQUIRE(v == 30 * size_, "mutex %d guarded counter %lld", m, (long long)v);
  }
  REQUIRE_OK(remora_array_sync());
  REQUIRE_OK(remora_array_destroy(&a));
  REQUIRE_OK(remora_mutexes_destroy(&mutexes));
  REQUIRE(mutexes == nullptr);
}

// Many arrays exist, a few are written between syncs: sync makes exactly those complete.
void check_sync_many() {
  std::vector<remora_array_t> arrays(40);
  const int64_t dims[1] = {static_cast<int64_t>(size_)};
  for (auto& a : arrays) REQUIRE_OK(remora_array_create(REMORA_INT32, 1, dims, "many", &a));
  for (int round = 0; round < 5; ++round) {
    remora_array_t a = arrays[static_cast<size_t>(round * 7 % 40)];
    // Each rank writes its slot in the next rank's element position.
    const int64_t at[1] = {(rank_ + 1) % size_};
    const int32_t value = round * 100 + rank_;
    REQUIRE_OK(remora_array_put(a, at, at, &value, nullptr));
    REQUIRE_OK(remora_array_sync());
    int32_t got = 0;
    const int64_t mine[1] = {rank_};
    REQUIRE_OK(remora_array_get(a, mine, mine, &got, nullptr));
    REQUIRE(got == round * 100 + (rank_ + size_ - 1) % size_, "round %d: %d", round, got);
    REQUIRE_OK(remora_array_sync());
  }
  for (auto& a : arrays) REQUIRE_OK(remora_array_destroy(&a));
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  rank_ = remora_rank();
  size_ = remora_size();
  for (const Layout& layout : layouts_2d(size_)) {
    check_concurrent_acc<int32_t>(layout);
    check_concurrent_acc<int64_t>(layout);
    check_concurrent_acc<double>(layout);
    check_concurrent_acc<std::complex<double>>(layout);
  }
  check_read_inc<int64_t>();
  check_read_inc<int32_t>();
  check_mutexes();
  check_sync_many();
  return remora_finalize();
}
