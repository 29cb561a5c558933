// Collective array operations against a serial reference, across every pair of
// distributions: zero, fill, scale, copy, add, dot, norm, transpose, symmetrize, print_patch
// and gemm (all four transpose combinations). Integer-valued data keeps most comparisons
// exact; gemm with real-valued data and norm use a floating-point tolerance.
#include <cmath>
#include <cstdio>

#include "array_reference.hpp"

using namespace array_test;

namespace {

int rank_, size_;
std::vector<Layout> layouts;

template <typename T>
remora_array_t create(const Layout& layout, std::vector<int64_t> dims) {
  remora_array_t a = nullptr;
  REQUIRE_OK(layout.create(type_of<T>(), dims.data(), &a));
  return a;
}

// Collective: rank 0 puts the reference into a.
template <typename T>
void load(remora_array_t a, const Reference<T>& ref) {
  const int64_t lo[2] = {0, 0}, hi[2] = {ref.dims[0] - 1, ref.dims[1] - 1}, ld[1] = {ref.dims[1]};
  if (rank_ == 0) REQUIRE_OK(remora_array_put(a, lo, hi, ref.data.data(), ld));
  REQUIRE_OK(remora_array_sync());
}

template <typename T>
std::vector<T> fetch(remora_array_t a, const std::vector<int64_t>& dims) {
  std::vector<T> out(static_cast<size_t>(dims[0] * dims[1]));
  const int64_t lo[2] = {0, 0}, hi[2] = {dims[0] - 1, dims[1] - 1}, ld[1] = {dims[1]};
  REQUIRE_OK(remora_array_get(a, lo, hi, out.data(), ld));
  REQUIRE_OK(remora_array_sync());
  return out;
}

template <typename T>
Reference<T> random_reference(std::vector<int64_t> dims, uint64_t seed) {
  Reference<T> ref(std::move(dims));
  std::mt19937_64 rng(seed);
  for (T& x : ref.data) x = make_value<T>(static_cast<int64_t>(rng() % 13) - 6);
  return ref;
}

template <typename T>
void require_equal(const std::vector<T>& got, const std::vector<T>& want, const char* what,
                   const std::string& detail) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i)
    REQUIRE(got[i] == want[i], "%s (%s): element %zu differs", what, detail.c_str(), i);
}

template <typename T>
void check_fill_scale(const Layout& layout) {
  const std::vector<int64_t> dims = {9, 7};
  remora_array_t a = create<T>(layout, dims);
  Reference<T> ref = random_reference<T>(dims, 5);
  load(a, ref);
  REQUIRE_OK(remora_array_zero(a));
  require_equal(fetch<T>(a, dims), std::vector<T>(ref.data.size()), "zero", layout.name);
  const T value = make_value<T>(3);
  REQUIRE_OK(remora_array_fill(a, &value));
  require_equal(fetch<T>(a, dims), std::vector<T>(ref.data.size(), value), "fill", layout.name);
  load(a, ref);
  const T alpha = make_value<T>(-2);
  REQUIRE_OK(remora_array_scale(a, &alpha));
  for (T& x : ref.data) x *= alpha;
  require_equal(fetch<T>(a, dims), ref.data, "scale", layout.name);
  double norm = 0, want = 0;
  for (const T& x : ref.data) want += std::norm(std::complex<double>(std::real(x), std::imag(x)));
  REQUIRE_OK(remora_array_norm(a, &norm));
  REQUIRE(std::fabs(norm - std::sqrt(want)) <= 1e-6 * std::sqrt(want), "norm %g vs %g", norm,
          std::sqrt(want));
  REQUIRE_OK(remora_array_destroy(&a));
}

// copy, add and dot for every pair of layouts (c of add takes a third layout).
template <typename T>
void check_pairs() {
  const std::vector<int64_t> dims = {11, 8};
  const Reference<T> x = random_reference<T>(dims, 11), y = random_reference<T>(dims, 12);
  for (size_t i = 0; i < layouts.size(); ++i)
    for (size_t j = 0; j < layouts.size(); ++j) {
      const std::string pair = layouts[i].name + " -> " + layouts[j].name;
      remora_array_t a = create<T>(layouts[i], dims), b = create<T>(layouts[j], dims);
      remora_array_t c = create<T>(layouts[(i + j) % layouts.size()], dims);
      load(a, x);
      REQUIRE_OK(remora_array_copy(a, b));
      require_equal(fetch<T>(b, dims), x.data, "copy", pair);
      load(b, y);
      const T alpha = make_value<T>(2), beta = make_value<T>(-3);
      REQUIRE_OK(remora_array_add(&alpha, a, &beta, b, c));
      std::vector<T> sum(x.data.size());
      for (size_t k = 0; k < sum.size(); ++k) sum[k] = alpha * x.data[k] + beta * y.data[k];
      require_equal(fetch<T>(c, dims), sum, "add", pair);
      // In place: a = a + b.
      const T one = make_value<T>(1);
      REQUIRE_OK(remora_array_add(&one, a, &one, b, a));
      for (size_t k = 0; k < sum.size(); ++k) sum[k] = x.data[k] + y.data[k];
      require_equal(fetch<T>(a, dims), sum, "add in place", pair);
      T dot{}, want{};
      load(a, x);
      for (size_t k = 0; k < sum.size(); ++k) want += x.data[k] * y.data[k];
      REQUIRE_OK(remora_array_dot(a, b, &dot));
      REQUIRE(dot == want, "dot (%s)", pair.c_str());
      REQUIRE_OK(remora_array_destroy(&a));
      REQUIRE_OK(remora_array_destroy(&b));
      REQUIRE_OK(remora_array_destroy(&c));
    }
}

template <typename T>
void check_transpose_symmetrize(const Layout& from, const Layout& to) {
  const std::vector<int64_t> dims = {10, 7}, tdims = {7, 10};
  const Reference<T> x = random_reference<T>(dims, 21);
  remora_array_t a = create<T>(from, dims), b = create<T>(to, tdims);
  load(a, x);
  REQUIRE_OK(remora_array_transpose(a, b));
  std::vector<T> want(x.data.size());
  for (int64_t i = 0; i < dims[0]; ++i)
    for (int64_t j = 0; j < dims[1]; ++j)
      want[static_cast<size_t>(j * dims[0] + i)] = x.data[static_cast<size_t>(i * dims[1] + j)];
  require_equal(fetch<T>(b, tdims), want, "transpose", from.name + " -> " + to.name);
  REQUIRE_OK(remora_array_destroy(&a));
  REQUIRE_OK(remora_array_destroy(&b));

  if constexpr (!std::is_integral_v<T>) {
    const std::vector<int64_t> square = {9, 9};
    const Reference<T> s = random_reference<T>(square, 22);
    remora_array_t m = create<T>(from, square);
    load(m, s);
    REQUIRE_OK(remora_array_symmetrize(m));
    std::vector<T> sym(s.data.size());
    const T half = T(0.5);
    for (size_t i = 0; i < 9; ++i)
      for (size_t j = 0; j < 9; ++j)
        sym[i * 9 + j] = half * (s.data[i * 9 + j] + s.data[j * 9 + i]);
    require_equal(fetch<T>(m, square), sym, "symmetrize", from.name);
    REQUIRE_OK(remora_array_destroy(&m));
  }
}

void check_print() {
  const std::vector<int64_t> dims = {5, 6};
  Reference<int32_t> ref(dims);
  for (size_t i = 0; i < ref.data.size(); ++i) ref.data[i] = static_cast<int32_t>(i);
  remora_array_t a = create<int32_t>(layouts[4], dims);
  load(a, ref);
  FILE* stream = tmpfile();
  REQUIRE(stream != nullptr);
  const int64_t lo[2] = {1, 2}, hi[2] = {2, 4};
  REQUIRE_OK(remora_array_print_patch(a, lo, hi, stream));
  if (rank_ == 0) {
    rewind(stream);
    char text[512] = {};
    const size_t n = fread(text, 1, sizeof text - 1, stream);
    text[n] = '\0';
    const char* want = "array 'ec' patch [1:2,2:4]\n(1) 8 9 10\n(2) 14 15 16\n";
    REQUIRE(std::string(text) == want, "printed \"%s\"", text);
  }
  fclose(stream);
  REQUIRE_OK(remora_array_destroy(&a));
}

// c = alpha op(a) op(b) + beta c against a triple loop.
template <typename T>
void check_gemm(char ta, char tb, int64_t m, int64_t n, int64_t k, size_t rotation, bool exact) {
  const bool at = ta == 'T', bt = tb == 'T';
  const std::vector<int64_t> adims = at ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k};
  const std::vector<int64_t> bdims = bt ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n};
  const std::vector<int64_t> cdims = {m, n};
  Reference<T> x = random_reference<T>(adims, 31 + rotation), y = random_reference<T>(bdims, 32);
  Reference<T> z = random_reference<T>(cdims, 33);
  if (!exact) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    for (auto* r : {&x, &y, &z})
      for (T& v : r->data) v = T(static_cast<Real<T>>(u(rng)));
  }
  const Layout& la = layouts[rotation % layouts.size()];
  const Layout& lb = layouts[(rotation + 1) % layouts.size()];
  const Layout& lc = layouts[(rotation + 2) % layouts.size()];
  remora_array_t a = create<T>(la, adims), b = create<T>(lb, bdims), c = create<T>(lc, cdims);
  load(a, x);
  load(b, y);
  load(c, z);
  const T alpha = make_value<T>(2), beta = make_value<T>(-1);
  REQUIRE_OK(remora_array_gemm(ta, tb, &alpha, a, b, &beta, c));
  const std::vector<T> got = fetch<T>(c, cdims);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      T sum{};
      double scale = 0;
      for (int64_t p = 0; p < k; ++p) {
        const T av =
            at ? x.data[static_cast<size_t>(p * m + i)] : x.data[static_cast<size_t>(i * k + p)];
        const T bv =
            bt ? y.data[static_cast<size_t>(j * k + p)] : y.data[static_cast<size_t>(p * n + j)];
        sum += av * bv;
        scale += std::abs(std::complex<double>(std::real(av), std::imag(av))) *
                 std::abs(std::complex<double>(std::real(bv), std::imag(bv)));
      }
      const T want = alpha * sum + beta * z.data[static_cast<size_t>(i * n + j)];
      const T g = got[static_cast<size_t>(i * n + j)];
      const double error = std::abs(std::complex<double>(std::real(g - want), std::imag(g - want)));
      const double tolerance =
          exact ? 0.0 : 64 * (2 * scale + 1) * std::numeric_limits<Real<T>>::epsilon();
      REQUIRE(error <= tolerance, "gemm %c%c %s,%s,%s: c[%lld][%lld] off by %g (tolerance %g)", ta,
              tb, la.name.c_str(), lb.name.c_str(), lc.name.c_str(), (long long)i, (long long)j,
              error, tolerance);
    }
  REQUIRE_OK(remora_array_destroy(&a));
  REQUIRE_OK(remora_array_destroy(&b));
  REQUIRE_OK(remora_array_destroy(&c));
}

template <typename T>
void check_gemms(bool exact) {
  size_t rotation = 0;
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'}) check_gemm<T>(ta, tb, 13, 9, 11, rotation++, exact);
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  rank_ = remora_rank();
  size_ = remora_size();
  layouts = layouts_2d(size_);
  for (const Layout& layout : layouts) {
    check_fill_scale<double>(layout);
    check_fill_scale<int32_t>(layout);
    check_fill_scale<std::complex<float>>(layout);
  }
  check_pairs<double>();
  check_pairs<int64_t>();
  check_pairs<std::complex<double>>();
  for (size_t i = 0; i < layouts.size(); ++i) {
    check_transpose_symmetrize<double>(layouts[i], layouts[(i + 3) % layouts.size()]);
    check_transpose_symmetrize<int32_t>(layouts[(i + 1) % layouts.size()], layouts[i]);
  }
  check_transpose_symmetrize<std::complex<float>>(layouts[2], layouts[5]);
  check_print();
  check_gemms<double>(true);
  check_gemms<float>(true);
  check_gemms<std::complex<double>>(true);
  check_gemms<std::complex<float>>(true);
  check_gemms<int32_t>(true);
  check_gemms<double>(false);
  // op(A) with more than one panel of k (256) and few rows: several panels and empty slabs.
  check_gemm<double>('T', 'N', 3, 5, 300, 1, false);
  check_gemm<double>('N', 'T', 3, 5, 300, 4, false);
  // Every layout as C (SUMMA for block, irregular and block-cyclic C under the default
  // REMORA_ARRAY_GEMM=auto), all four transpose combinations, non-square, k over two panels.
  for (size_t rotation = 0; rotation < layouts.size(); ++rotation) {
    size_t combination = 0;
    for (char ta : {'N', 'T'})
      for (char tb : {'N', 'T'}) {
        check_gemm<double>(ta, tb, 17, 10, combination == rotation % 4 ? 270 : 7, rotation, false);
        check_gemm<int64_t>(ta, tb, 6, 11, 9, rotation, true);
        ++combination;
      }
  }
  return remora_finalize();
}
