// Nonblocking patch operations on every 2-D distribution: many outstanding nbput / nbacc /
// nbget per rank against a serial reference; flush, flush_local and sync complete them;
// requests stay valid after flush and destroy; wait on a request waited already succeeds,
// a stale handle is an error. With manual progress (nothing polls behind the test's back) it
// also shows that an operation is in flight after the call returns: it is counted by
// remora_array_pending and a get's buffer is still untouched until progress is made.
// With ARRAY_NB_PHASE_TIMES set, rank 0 prints the seconds spent in each phase (for
// measurements; nothing is asserted on them).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "array_reference.hpp"

using namespace array_test;

namespace {

int rank_, size_;
bool manual_ = false;
constexpr int kOutstanding = 24;

// Seconds per phase, summed over the layouts and types.
double phase_seconds_[4] = {};
const char* const kPhaseNames[4] = {"nbput", "nbacc", "nbget", "handles"};

template <typename F>
void timed_phase(int phase, const F& run) {
  const auto start = std::chrono::steady_clock::now();
  run();
  phase_seconds_[phase] +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A random patch inside rows [first, last].
Patch patch_in_rows(std::mt19937_64& rng, const std::vector<int64_t>& dims, int64_t first,
                    int64_t last) {
  Patch p = random_patch(rng, dims);
  const int64_t rows = last - first + 1;
  int64_t a = first + static_cast<int64_t>(rng() % static_cast<uint64_t>(rows));
  int64_t b = first + static_cast<int64_t>(rng() % static_cast<uint64_t>(rows));
  p.lo[0] = std::min(a, b);
  p.hi[0] = std::max(a, b);
  return p;
}

// Every rank puts kOutstanding patches into its own band of rows (overlapping each other:
// issue order decides), waiting only after issuing all of them, in reverse order.
template <typename T>
void check_puts(remora_array_t a, Reference<T>& ref, uint64_t seed) {
  const int64_t rows = ref.dims[0];
  for (int r = 0; r < size_; ++r) {
    const int64_t first = rows * r / size_, last = rows * (r + 1) / size_ - 1;
    if (first > last) continue;
    std::mt19937_64 rng(seed * 101 + static_cast<uint64_t>(r));
    std::vector<std::vector<T>> buffers;
    std::vector<std::vector<int64_t>> lds;
    std::vector<Patch> patches;
    for (int k = 0; k < kOutstanding; ++k) {
      patches.push_back(patch_in_rows(rng, ref.dims, first, last));
      int64_t length = 0;
      lds.push_back(padded_ld(rng, patches.back(), &length));
      buffers.push_back(random_values<T>(rng, length));
      ref.for_each(patches.back(), lds.back(), [&](const int64_t* i, int64_t b) {
        ref.data[static_cast<size_t>(ref.offset(i))] = buffers.back()[static_cast<size_t>(b)];
      });
    }
    if (r != rank_) continue;
    std::vector<remora_array_request_t> requests(kOutstanding, REMORA_ARRAY_REQUEST_NULL);
    for (int k = 0; k < kOutstanding; ++k)
      REQUIRE_OK(remora_array_nbput(a, patches[size_t(k)].lo.data(), patches[size_t(k)].hi.data(),
                                    buffers[size_t(k)].data(), lds[size_t(k)].data(),
                                    &requests[size_t(k)]));
    int64_t pending = 0;
    REQUIRE_OK(remora_array_pending(a, &pending));
    if (manual_)
      REQUIRE(pending == kOutstanding, "pending=%lld after issuing %d puts",
              static_cast<long long>(pending), kOutstanding);
    for (int k = kOutstanding; k-- > 0;) {
      REQUIRE_OK(remora_array_wait(&requests[size_t(k)]));
      REQUIRE(requests[size_t(k)] == REMORA_ARRAY_REQUEST_NULL);
    }
    REQUIRE_OK(remora_array_pending(a, &pending));
    REQUIRE(pending == 0);
  }
  REQUIRE_OK(remora_array_sync());
  verify_all(a, ref, "after nbputs");
}

// Every rank accumulates kOutstanding patches anywhere (all ranks overlap); flush completes
// them, the handles are waited for afterwards.
template <typename T>
void check_accs(remora_array_t a, Reference<T>& ref, uint64_t seed) {
  const T alpha = make_value<T>(2);
  std::vector<std::vector<T>> mine;
  std::vector<remora_array_request_t> requests;
  for (int r = 0; r < size_; ++r) {
    std::mt19937_64 rng(seed * 211 + static_cast<uint64_t>(r));
    for (int k = 0; k < kOutstanding; ++k) {
      const Patch p = random_patch(rng, ref.dims);
      int64_t length = 0;
      const std::vector<int64_t> ld = padded_ld(rng, p, &length);
      std::vector<T> values = random_values<T>(rng, length);
      ref.for_each(p, ld, [&](const int64_t* i, int64_t b) {
        ref.data[static_cast<size_t>(ref.offset(i))] += alpha * values[static_cast<size_t>(b)];
      });
      if (r != rank_) continue;
      mine.push_back(std::move(values));
      requests.push_back(REMORA_ARRAY_REQUEST_NULL);
      REQUIRE_OK(remora_array_nbacc(a, p.lo.data(), p.hi.data(), mine.back().data(), ld.data(),
                                    &alpha, &requests.back()));
    }
  }
  REQUIRE_OK(remora_array_flush(a));
  int64_t pending = -1;
  REQUIRE_OK(remora_array_pending(a, &pending));
  REQUIRE(pending == 0, "pending=%lld after flush", static_cast<long long>(pending));
  for (remora_array_request_t& request : requests) {
    int done = 0;
    REQUIRE_OK(remora_array_test(&request, &done));  // complete already: flush did it
    REQUIRE(done == 1 && request == REMORA_ARRAY_REQUEST_NULL);
  }
  REQUIRE_OK(remora_array_sync());
  verify_all(a, ref, "after nbaccs");
}

// Every rank gets kOutstanding patches, then completes them with test loops.
template <typename T>
void check_gets(remora_array_t a, const Reference<T>& ref, uint64_t seed) {
  std::mt19937_64 rng(seed * 307 + static_cast<uint64_t>(rank_));
  const T sentinel = make_value<T>(99);
  std::vector<Patch> patches;
  std::vector<std::vector<int64_t>> lds;
  std::vector<std::vector<T>> buffers;
  std::vector<remora_array_request_t> requests(kOutstanding, REMORA_ARRAY_REQUEST_NULL);
  for (int k = 0; k < kOutstanding; ++k) {
    patches.push_back(random_patch(rng, ref.dims));
    int64_t length = 0;
    lds.push_back(padded_ld(rng, patches.back(), &length));
    buffers.emplace_back(static_cast<size_t>(length), sentinel);
    REQUIRE_OK(remora_array_nbget(a, patches.back().lo.data(), patches.back().hi.data(),
                                  buffers.back().data(), lds.back().data(), &requests[size_t(k)]));
  }
  if (manual_) {
    // In flight: nothing has made progress since the calls, so no buffer has been written.
    int64_t pending = 0;
    REQUIRE_OK(remora_array_pending(a, &pending));
    REQUIRE(pending == kOutstanding);
    for (const std::vector<T>& b : buffers)
      for (const T& x : b) REQUIRE(x == sentinel, "an nbget wrote its buffer before progress");
  }
  for (int left = kOutstanding; left > 0;) {
    left = 0;
    for (remora_array_request_t& request : requests) {
      int done = 1;
      REQUIRE_OK(remora_array_test(&request, &done));
      left += done ? 0 : 1;
    }
  }
  for (int k = 0; k < kOutstanding; ++k)
    ref.for_each(patches[size_t(k)], lds[size_t(k)], [&](const int64_t* i, int64_t b) {
      REQUIRE(buffers[size_t(k)][static_cast<size_t>(b)] ==
                  ref.data[static_cast<size_t>(ref.offset(i))],
              "nbget %d: element differs", k);
    });
  REQUIRE_OK(remora_array_sync());
}

// Handles: wait twice, a stale copy, flush_local, and a request destroy completed.
template <typename T>
void check_handles(remora_array_t a, Reference<T>& ref) {
  const int64_t lo[2] = {0, 0}, hi[2] = {0, 0}, ld[2] = {1, 1};
  T value = make_value<T>(5);
  remora_array_request_t request = REMORA_ARRAY_REQUEST_NULL;
  REQUIRE_OK(remora_array_nbget(a, lo, hi, &value, ld, &request));
  const remora_array_request_t copy = request;
  REQUIRE_OK(remora_array_flush_local(a));
  REQUIRE(value == ref.data[0]);
  REQUIRE_OK(remora_array_wait(&request));
  REQUIRE_OK(remora_array_wait(&request));  // REMORA_ARRAY_REQUEST_NULL: done already
  int done = 0;
  REQUIRE_OK(remora_array_test(&request, &done));
  REQUIRE(done == 1);
  remora_array_request_t stale = copy;
  REQUIRE_ERROR(remora_array_wait(&stale), REMORA_ERR_ARG, "not a live array request");
  REQUIRE_OK(remora_array_sync());
}

template <typename T>
void check_layout(const Layout& layout, uint64_t seed) {
  const std::vector<int64_t> dims = {17, 13};
  remora_array_t a = nullptr;
  REQUIRE_OK(layout.create(type_of<T>(), dims.data(), &a));
  Reference<T> ref(dims);
  timed_phase(0, [&] { check_puts(a, ref, seed); });
  timed_phase(1, [&] { check_accs(a, ref, seed); });
  timed_phase(2, [&] { check_gets(a, ref, seed); });
  timed_phase(3, [&] { check_handles(a, ref); });
  // A request left outstanding: destroy completes it, and the handle stays waitable.
  const int64_t lo[2] = {rank_ % dims[0], 0}, hi[2] = {rank_ % dims[0], dims[1] - 1};
  const int64_t ld[2] = {dims[1], 1};
  std::vector<T> row(static_cast<size_t>(dims[1]), make_value<T>(1));
  remora_array_request_t request = REMORA_ARRAY_REQUEST_NULL;
  REQUIRE_OK(remora_array_nbput(a, lo, hi, row.data(), ld, &request));
  REQUIRE_OK(remora_array_destroy(&a));
  REQUIRE_OK(remora_array_wait(&request));
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  rank_ = remora_rank();
  size_ = remora_size();
  const char* progress = std::getenv("REMORA_PROGRESS");
  manual_ = progress == nullptr || std::strcmp(progress, "manual") == 0;
  uint64_t seed = 1;
  for (const Layout& layout : layouts_2d(size_)) {
    check_layout<double>(layout, seed++);
    check_layout<int64_t>(layout, seed++);
    check_layout<std::complex<double>>(layout, seed++);
  }
  if (rank_ == 0 && std::getenv("ARRAY_NB_PHASE_TIMES") != nullptr)
    for (int phase = 0; phase < 4; ++phase)
      std::printf("phase %s: %.3f s\n", kPhaseNames[phase], phase_seconds_[phase]);
  return remora_finalize();
}
