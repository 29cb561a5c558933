// AXPY batch mode with both detach algorithms (end-of-message, nonblocking consensus) against
// the same serial reference: every rank's local-to-global updates of overlapping random
// patches are all applied at detach; global-to-local transfers fill local buffers with
// buffer + alpha * patch.
#include "array_reference.hpp"

using namespace array_test;

namespace {

int rank_, size_;

template <typename T>
std::vector<T> fetch_all(remora_array_t a, const Reference<T>& ref) {
  std::vector<T> out(ref.data.size());
  const int64_t lo[2] = {0, 0}, hi[2] = {ref.dims[0] - 1, ref.dims[1] - 1}, ld[1] = {ref.dims[1]};
  REQUIRE_OK(remora_array_get(a, lo, hi, out.data(), ld));
  return out;
}

template <typename T>
void check(const Layout& layout, remora_axpy_detach_t detach, uint64_t seed) {
  const std::vector<int64_t> dims = {12, 9};
  remora_array_t a = nullptr;
  REQUIRE_OK(layout.create(type_of<T>(), dims.data(), &a));
  Reference<T> ref(dims);
  // Local to global: every rank sends 5 updates of overlapping patches.
  remora_axpy_t batch = nullptr;
  REQUIRE_OK(remora_axpy_attach(a, detach, &batch));
  std::vector<std::vector<T>> keep;  // buffers must live until detach
  for (int r = 0; r < size_; ++r) {
    std::mt19937_64 rng(seed * 101 + static_cast<uint64_t>(r));
    for (int k = 0; k < 5; ++k) {
      const Patch p = random_patch(rng, dims);
      int64_t length = 0;
      const std::vector<int64_t> ld = padded_ld(rng, p, &length);
      std::vector<T> values(static_cast<size_t>(length));
      for (T& v : values) v = make_value<T>(static_cast<int64_t>(rng() % 9) - 4);
      const T alpha = make_value<T>(k + 1);
      ref.for_each(p, ld, [&](const int64_t* i, int64_t b) {
        ref.data[static_cast<size_t>(ref.offset(i))] += alpha * values[static_cast<size_t>(b)];
      });
      if (r != rank_) continue;
      keep.push_back(std::move(values));
      REQUIRE_OK(remora_axpy(batch, REMORA_AXPY_LOCAL_TO_GLOBAL, &alpha, keep.back().data(),
                             ld.data(), p.lo.data(), p.hi.data()));
    }
  }
  REQUIRE_OK(remora_axpy_detach(&batch));
  REQUIRE(batch == nullptr);
  REQUIRE_OK(remora_array_sync());
  const std::vector<T> got = fetch_all(a, ref);
  for (size_t i = 0; i < got.size(); ++i)
    REQUIRE(got[i] == ref.data[i], "%s detach %d: element %zu after local-to-global",
            layout.name.c_str(), (int)detach, i);
  REQUIRE_OK(remora_array_sync());

  // Global to local: buffers start at 1 and receive alpha * patch.
  REQUIRE_OK(remora_axpy_attach(a, detach, &batch));
  std::mt19937_64 rng(seed * 103 + static_cast<uint64_t>(rank_));
  std::vector<Patch> patches;
  std::vector<std::vector<int64_t>> lds;
  keep.clear();
  for (int k = 0; k < 4; ++k) {
    patches.push_back(random_patch(rng, dims));
    int64_t length = 0;
    lds.push_back(padded_ld(rng, patches.back(), &length));
    keep.emplace_back(static_cast<size_t>(length), make_value<T>(1));
    const T alpha = make_value<T>(k - 1);
    REQUIRE_OK(remora_axpy(batch, REMORA_AXPY_GLOBAL_TO_LOCAL, &alpha, keep.back().data(),
                           lds.back().data(), patches.back().lo.data(), patches.back().hi.data()));
  }
  REQUIRE_OK(remora_axpy_detach(&batch));
  for (int k = 0; k < 4; ++k) {
    const T alpha = make_value<T>(k - 1);
    std::vector<char> covered(keep[static_cast<size_t>(k)].size(), 0);
    ref.for_each(patches[static_cast<size_t>(k)], lds[static_cast<size_t>(k)],
                 [&](const int64_t* i, int64_t b) {
                   const T want =
                       make_value<T>(1) + alpha * ref.data[static_cast<size_t>(ref.offset(i))];
                   REQUIRE(keep[static_cast<size_t>(k)][static_cast<size_t>(b)] == want,
                           "%s detach %d: buffer %d offset %lld after global-to-local",
                           layout.name.c_str(), (int)detach, k, (long long)b);
                   covered[static_cast<size_t>(b)] = 1;
                 });
    for (size_t b = 0; b < covered.size(); ++b)
      if (!covered[b])
        REQUIRE(keep[static_cast<size_t>(k)][b] == make_value<T>(1), "padding changed");
  }
  REQUIRE_OK(remora_array_destroy(&a));
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  rank_ = remora_rank();
  size_ = remora_size();
  uint64_t seed = 1;
  for (remora_axpy_detach_t detach : {REMORA_AXPY_DETACH_EOM, REMORA_AXPY_DETACH_NBX})
    for (const Layout& layout : layouts_2d(size_)) {
      check<double>(layout, detach, seed++);
      check<int32_t>(layout, detach, seed++);
      check<std::complex<float>>(layout, detach, seed++);
    }
  // Misuse.
  remora_axpy_t batch = nullptr;
  REQUIRE_ERROR(remora_axpy_detach(&batch), REMORA_ERR_ARG, "not an attached batch");
  const int64_t dims[2] = {4, 4};
  remora_array_t a = nullptr;
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, dims, "axpy", &a));
  REQUIRE_ERROR(remora_axpy_attach(a, static_cast<remora_axpy_detach_t>(9), &batch), REMORA_ERR_ARG,
                "detach=9");
  REQUIRE_OK(remora_axpy_attach(a, REMORA_AXPY_DETACH_NBX, &batch));
  double buffer[16] = {}, alpha = 1;
  const int64_t lo[2] = {0, 0}, hi[2] = {4, 3}, ld[1] = {4};
  REQUIRE_ERROR(remora_axpy(batch, REMORA_AXPY_LOCAL_TO_GLOBAL, &alpha, buffer, ld, lo, hi),
                REMORA_ERR_RANGE, "remora_axpy: hi[0]=4");
  REQUIRE_ERROR(
      remora_axpy(batch, static_cast<remora_axpy_direction_t>(0), &alpha, buffer, ld, lo, lo),
      REMORA_ERR_ARG, "direction=0");
  REQUIRE_OK(remora_axpy_detach(&batch));
  REQUIRE_OK(remora_array_destroy(&a));
  return remora_finalize();
}
