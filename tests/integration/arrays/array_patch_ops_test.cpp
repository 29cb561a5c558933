// Patch forms of the collective operations against a serial reference on every distribution:
// zero/fill/scale/add_constant patches, copy_patch (reshaping, transposed, within one array,
// 3-D to 2-D), add_patch (c aliasing a), dot_patch (four transpose combinations), gemm_patch
// (four transpose combinations on patches inside larger arrays), norm1 / norm_infinity,
// abs_value / recip / elem_patch,
// patch_enum, and argument errors. Integer-valued data keeps every comparison exact.
#include <cmath>

#include "array_reference.hpp"

using namespace array_test;

namespace {

int rank_, size_;
std::vector<Layout> layouts;

template <typename T>
remora_array_t create(const Layout& layout, const std::vector<int64_t>& dims) {
  remora_array_t a = nullptr;
  REQUIRE_OK(layout.create(type_of<T>(), dims.data(), &a));
  return a;
}

std::vector<int64_t> dense_ld(const std::vector<int64_t>& dims) {
  std::vector<int64_t> ld(dims.begin() + 1, dims.end());
  ld.push_back(1);
  return ld;
}

// Collective: rank 0 puts the whole reference into a.
template <typename T>
void load(remora_array_t a, const Reference<T>& ref) {
  const std::vector<int64_t> lo(ref.dims.size(), 0);
  std::vector<int64_t> hi;
  for (int64_t d : ref.dims) hi.push_back(d - 1);
  if (rank_ == 0)
    REQUIRE_OK(
        remora_array_put(a, lo.data(), hi.data(), ref.data.data(), dense_ld(ref.dims).data()));
  REQUIRE_OK(remora_array_sync());
}

// Every rank reads the whole array and compares it with the reference.
template <typename T>
void require_matches(remora_array_t a, const Reference<T>& ref, const std::string& what) {
  const std::vector<int64_t> lo(ref.dims.size(), 0);
  std::vector<int64_t> hi;
  for (int64_t d : ref.dims) hi.push_back(d - 1);
  std::vector<T> got(ref.data.size());
  REQUIRE_OK(remora_array_get(a, lo.data(), hi.data(), got.data(), dense_ld(ref.dims).data()));
  REQUIRE_OK(remora_array_sync());
  for (size_t i = 0; i < got.size(); ++i)
    REQUIRE(got[i] == ref.data[i], "%s: element %zu differs", what.c_str(), i);
}

template <typename T>
Reference<T> random_reference(const std::vector<int64_t>& dims, uint64_t seed) {
  Reference<T> ref(dims);
  std::mt19937_64 rng(seed);
  for (T& x : ref.data) x = make_value<T>(static_cast<int64_t>(rng() % 13) - 6);
  return ref;
}

// Offsets into ref of the patch's elements in sequence order: row-major, or with the axes
// reversed (the reference meaning of a transposed patch).
template <typename T>
std::vector<int64_t> sequence(const Reference<T>& ref, const Patch& p, bool reversed) {
  const size_t n = p.lo.size();
  std::vector<int64_t> out, index(n);
  std::vector<int64_t> counter(n, 0), extent(n);
  for (size_t e = 0; e < n; ++e) {
    const size_t axis = reversed ? n - 1 - e : e;
    extent[e] = p.hi[axis] - p.lo[axis] + 1;
  }
  for (;;) {
    for (size_t e = 0; e < n; ++e) {
      const size_t axis = reversed ? n - 1 - e : e;
      index[axis] = p.lo[axis] + counter[e];
    }
    out.push_back(ref.offset(index.data()));
    size_t e = n;
    while (e-- > 0) {
      if (++counter[e] < extent[e]) break;
      counter[e] = 0;
    }
    if (e == static_cast<size_t>(-1)) return out;
  }
}

// A patch of dims with the given extents at a position drawn from rng.
Patch placed(std::mt19937_64& rng, const std::vector<int64_t>& dims,
             const std::vector<int64_t>& extents) {
  Patch p;
  for (size_t d = 0; d < dims.size(); ++d) {
    const int64_t room = dims[d] - extents[d] + 1;
    p.lo.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(room)));
    p.hi.push_back(p.lo.back() + extents[d] - 1);
  }
  return p;
}

template <typename T>
void check_single_array_ops(const Layout& layout) {
  const std::vector<int64_t> dims = {9, 7};
  std::mt19937_64 rng(11);
  remora_array_t a = create<T>(layout, dims);
  Reference<T> ref = random_reference<T>(dims, 3);
  load(a, ref);
  const T value = make_value<T>(4), alpha = make_value<T>(-3);
  for (int round = 0; round < 3; ++round) {
    const Patch p = random_patch(rng, dims);
    const auto each = [&](const std::function<void(T&)>& f) {
      ref.for_each(p, dims, [&](const int64_t* index, int64_t) {
        f(ref.data[static_cast<size_t>(ref.offset(index))]);
      });
    };
    const std::string where = layout.name + " round " + std::to_string(round);
    REQUIRE_OK(remora_array_scale_patch(a, p.lo.data(), p.hi.data(), &alpha));
    each([&](T& x) { x *= alpha; });
    require_matches(a, ref, "scale_patch " + where);
    REQUIRE_OK(remora_array_add_constant_patch(a, p.lo.data(), p.hi.data(), &value));
    each([&](T& x) { x += value; });
    require_matches(a, ref, "add_constant_patch " + where);
    const Patch q = random_patch(rng, dims);
    REQUIRE_OK(remora_array_fill_patch(a, q.lo.data(), q.hi.data(), &value));
    ref.for_each(q, dims, [&](const int64_t* i, int64_t) { ref.data[ref.offset(i)] = value; });
    require_matches(a, ref, "fill_patch " + where);
    REQUIRE_OK(remora_array_zero_patch(a, p.lo.data(), p.hi.data()));
    each([&](T& x) { x = T{}; });
    require_matches(a, ref, "zero_patch " + where);
  }
  REQUIRE_OK(remora_array_add_constant(a, &alpha));
  for (T& x : ref.data) x += alpha;
  require_matches(a, ref, "add_constant " + layout.name);
  REQUIRE_OK(remora_array_destroy(&a));
}

// b[q] = op(a[p]) for patches of equal counts and shapes reshaped or transposed.
template <typename T>
void check_copy(const Layout& la, const Layout& lb) {
  const std::vector<int64_t> adims = {9, 7}, bdims = {8, 10};
  std::mt19937_64 rng(21);
  remora_array_t a = create<T>(la, adims), b = create<T>(lb, bdims);
  const Reference<T> x = random_reference<T>(adims, 8);
  Reference<T> y = random_reference<T>(bdims, 9);
  load(a, x);
  load(b, y);
  const struct {
    char trans;
    std::vector<int64_t> from, to;
  } cases[] = {{'N', {3, 4}, {3, 4}}, {'N', {3, 4}, {2, 6}}, {'N', {6, 2}, {4, 3}},
               {'T', {3, 5}, {5, 3}}, {'t', {4, 6}, {8, 3}}, {'n', {9, 7}, {7, 9}}};
  for (const auto& c : cases) {
    const Patch p = placed(rng, adims, c.from), q = placed(rng, bdims, c.to);
    REQUIRE_OK(
        remora_array_copy_patch(c.trans, a, p.lo.data(), p.hi.data(), b, q.lo.data(), q.hi.data()));
    const std::vector<int64_t> from = sequence(x, p, c.trans == 'T' || c.trans == 't');
    const std::vector<int64_t> to = sequence(y, q, false);
    for (size_t i = 0; i < from.size(); ++i) y.data[to[i]] = x.data[from[i]];
    require_matches(b, y, std::string("copy_patch ") + c.trans + " " + la.name + "->" + lb.name);
  }
  // Within one array: disjoint patches.
  Reference<T> z = y;
  const Patch p{{0, 0}, {3, 4}}, q{{3, 5}, {7, 8}};  // 4x5 -> 5x4, transposed
  REQUIRE_OK(
      remora_array_copy_patch('T', b, p.lo.data(), p.hi.data(), b, q.lo.data(), q.hi.data()));
  const std::vector<int64_t> from = sequence(y, p, true), to = sequence(y, q, false);
  for (size_t i = 0; i < from.size(); ++i) z.data[to[i]] = y.data[from[i]];
  require_matches(b, z, "copy_patch within " + lb.name);
  REQUIRE_OK(remora_array_destroy(&a));
  REQUIRE_OK(remora_array_destroy(&b));
}

template <typename T>
void check_add_dot(const Layout& la, const Layout& lb, const Layout& lc) {
  const std::vector<int64_t> adims = {9, 7}, bdims = {7, 9}, cdims = {10, 6};
  std::mt19937_64 rng(31);
  remora_array_t a = create<T>(la, adims), b = create<T>(lb, bdims), c = create<T>(lc, cdims);
  Reference<T> x = random_reference<T>(adims, 1), z = random_reference<T>(cdims, 3);
  const Reference<T> y = random_reference<T>(bdims, 2);
  load(a, x);
  load(b, y);
  load(c, z);
  const T alpha = make_value<T>(2), beta = make_value<T>(-3);
  const std::string names = la.name + "," + lb.name + "," + lc.name;
  const Patch p = placed(rng, adims, {4, 6}), q = placed(rng, bdims, {6, 4}),
              r = placed(rng, cdims, {8, 3});
  REQUIRE_OK(remora_array_add_patch(&alpha, a, p.lo.data(), p.hi.data(), &beta, b, q.lo.data(),
                                    q.hi.data(), c, r.lo.data(), r.hi.data()));
  {
    const auto xs = sequence(x, p, false), ys = sequence(y, q, false), zs = sequence(z, r, false);
    for (size_t i = 0; i < xs.size(); ++i)
      z.data[zs[i]] = alpha * x.data[xs[i]] + beta * y.data[ys[i]];
    require_matches(c, z, "add_patch " + names);
  }
  // c aliasing a, the same patch: a[p] = alpha a[p] + beta b[q].
  REQUIRE_OK(remora_array_add_patch(&alpha, a, p.lo.data(), p.hi.data(), &beta, b, q.lo.data(),
                                    q.hi.data(), a, p.lo.data(), p.hi.data()));
  {
    const auto xs = sequence(x, p, false), ys = sequence(y, q, false);
    for (size_t i = 0; i < xs.size(); ++i)
      x.data[xs[i]] = alpha * x.data[xs[i]] + beta * y.data[ys[i]];
    require_matches(a, x, "add_patch in place " + names);
  }
  // dot_patch: b's patch is reversed when exactly one operand is transposed (GA's rule).
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'}) {
      T got{};
      REQUIRE_OK(remora_array_dot_patch(a, ta, p.lo.data(), p.hi.data(), b, tb, q.lo.data(),
                                        q.hi.data(), &got));
      const auto xs = sequence(x, p, false), ys = sequence(y, q, ta != tb);
      T want{};
      for (size_t i = 0; i < xs.size(); ++i) want += x.data[xs[i]] * y.data[ys[i]];
      REQUIRE(got == want, "dot_patch %c%c %s differs", ta, tb, names.c_str());
    }
  REQUIRE_OK(remora_array_destroy(&a));
  REQUIRE_OK(remora_array_destroy(&b));
  REQUIRE_OK(remora_array_destroy(&c));
}

// abs_value, recip and the element-wise binary ops on patches of three layouts.
template <typename T>
void check_elementwise(const Layout& la, const Layout& lb, const Layout& lc) {
  const std::vector<int64_t> dims = {8, 9};
  std::mt19937_64 rng(51);
  remora_array_t a = create<T>(la, dims), b = create<T>(lb, dims), c = create<T>(lc, dims);
  Reference<T> x = random_reference<T>(dims, 13), z = random_reference<T>(dims, 15);
  Reference<T> y = random_reference<T>(dims, 14);
  for (T& v : y.data)
    if (v == T{}) v = make_value<T>(3);  // divisors
  load(a, x);
  load(b, y);
  load(c, z);
  const std::string names = la.name + "," + lb.name + "," + lc.name;
  const Patch p = placed(rng, dims, {3, 4}), q = placed(rng, dims, {6, 2}),
              r = placed(rng, dims, {4, 3});
  const auto xs = sequence(x, p, false), ys = sequence(y, q, false), zs = sequence(z, r, false);
  for (remora_elem_op_t op :
       {REMORA_ELEM_MULTIPLY, REMORA_ELEM_DIVIDE, REMORA_ELEM_MAXIMUM, REMORA_ELEM_MINIMUM}) {
    REQUIRE_OK(remora_array_elem_patch(op, a, p.lo.data(), p.hi.data(), b, q.lo.data(), q.hi.data(),
                                       c, r.lo.data(), r.hi.data()));
    for (size_t i = 0; i < xs.size(); ++i) {
      const T u = x.data[xs[i]], v = y.data[ys[i]];
      T& w = z.data[zs[i]];
      if (op == REMORA_ELEM_MULTIPLY) w = u * v;
      if (op == REMORA_ELEM_DIVIDE) w = u / v;
      if constexpr (requires(T t) { t.imag(); }) {  // GA: by magnitude, b's on a tie
        const auto mu = std::abs(u), mv = std::abs(v);
        if (op == REMORA_ELEM_MAXIMUM) w = mu > mv ? u : v;
        if (op == REMORA_ELEM_MINIMUM) w = mu < mv ? u : v;
      } else {
        if (op == REMORA_ELEM_MAXIMUM) w = std::max(u, v);
        if (op == REMORA_ELEM_MINIMUM) w = std::min(u, v);
      }
    }
    require_matches(c, z, "elem_patch op " + std::to_string(static_cast<int>(op)) + " " + names);
  }
  REQUIRE_OK(remora_array_abs_value_patch(a, p.lo.data(), p.hi.data()));
  for (int64_t i : xs) {
    if constexpr (requires(T t) { t.imag(); })
      x.data[i] = T(std::abs(x.data[i]));
    else
      x.data[i] = x.data[i] < T(0) ? T(0) - x.data[i] : x.data[i];
  }
  require_matches(a, x, "abs_value_patch " + la.name);
  REQUIRE_OK(remora_array_recip_patch(b, q.lo.data(), q.hi.data()));
  for (int64_t i : ys) y.data[i] = T(1) / y.data[i];
  require_matches(b, y, "recip_patch " + lb.name);
  REQUIRE_OK(remora_array_destroy(&a));
  REQUIRE_OK(remora_array_destroy(&b));
  REQUIRE_OK(remora_array_destroy(&c));
}

template <typename T>
void check_gemm_patch(char ta, char tb, const Layout& la, const Layout& lb, const Layout& lc) {
  const int64_t m = 5, n = 4, k = 6;
  const std::vector<int64_t> adims = {9, 8}, bdims = {8, 9}, cdims = {7, 7};
  std::mt19937_64 rng(41 + static_cast<uint64_t>(ta) * 3 + static_cast<uint64_t>(tb));
  remora_array_t a = create<T>(la, adims), b = create<T>(lb, bdims), c = create<T>(lc, cdims);
  const Reference<T> x = random_reference<T>(adims, 4), y = random_reference<T>(bdims, 5);
  Reference<T> z = random_reference<T>(cdims, 6);
  load(a, x);
  load(b, y);
  load(c, z);
  const bool at = ta == 'T', bt = tb == 'T';
  const Patch p = placed(rng, adims, at ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k});
  const Patch q = placed(rng, bdims, bt ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n});
  const Patch r = placed(rng, cdims, {m, n});
  const T alpha = make_value<T>(2), beta = make_value<T>(-1);
  REQUIRE_OK(remora_array_gemm_patch(ta, tb, &alpha, &beta, a, p.lo.data(), p.hi.data(), b,
                                     q.lo.data(), q.hi.data(), c, r.lo.data(), r.hi.data()));
  const auto at_a = [&](int64_t i, int64_t l) {  // op(A)[i][l]
    const int64_t index[2] = {p.lo[0] + (at ? l : i), p.lo[1] + (at ? i : l)};
    return x.data[static_cast<size_t>(x.offset(index))];
  };
  const auto at_b = [&](int64_t l, int64_t j) {
    const int64_t index[2] = {q.lo[0] + (bt ? j : l), q.lo[1] + (bt ? l : j)};
    return y.data[static_cast<size_t>(y.offset(index))];
  };
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      T sum{};
      for (int64_t l = 0; l < k; ++l) sum += at_a(i, l) * at_b(l, j);
      const int64_t index[2] = {r.lo[0] + i, r.lo[1] + j};
      T& out = z.data[static_cast<size_t>(z.offset(index))];
      out = alpha * sum + beta * out;
    }
  require_matches(
      c, z, std::string("gemm_patch ") + ta + tb + " " + la.name + "," + lb.name + "," + lc.name);
  REQUIRE_OK(remora_array_destroy(&a));
  REQUIRE_OK(remora_array_destroy(&b));
  REQUIRE_OK(remora_array_destroy(&c));
}

template <typename T>
void check_norms(const Layout& layout) {
  const std::vector<int64_t> dims = {6, 9};
  remora_array_t a = create<T>(layout, dims);
  const Reference<T> x = random_reference<T>(dims, 7);
  load(a, x);
  double rows = 0, columns = 0;
  std::vector<double> column(9, 0.0);
  for (int64_t i = 0; i < 6; ++i) {
    double row = 0;
    for (int64_t j = 0; j < 9; ++j) {
      const T v = x.data[static_cast<size_t>(i * 9 + j)];
      const double mag = std::abs(std::complex<double>(std::real(v), std::imag(v)));
      row += mag;
      column[static_cast<size_t>(j)] += mag;
    }
    rows = std::max(rows, row);
  }
  for (double s : column) columns = std::max(columns, s);
  double got1 = 0, got_inf = 0;
  REQUIRE_OK(remora_array_norm1(a, &got1));
  REQUIRE_OK(remora_array_norm_infinity(a, &got_inf));
  REQUIRE(std::fabs(got1 - columns) <= 1e-5 * columns, "norm1 %s: %g vs %g", layout.name.c_str(),
          got1, columns);
  REQUIRE(std::fabs(got_inf - rows) <= 1e-5 * rows, "norm_infinity %s: %g vs %g",
          layout.name.c_str(), got_inf, rows);
  REQUIRE_OK(remora_array_destroy(&a));
}

// 1-D arrays: patch_enum, and the norms of a vector (sum and largest magnitude).
template <typename T>
void check_vector(const Layout& layout) {
  const std::vector<int64_t> dims = {23};
  remora_array_t a = create<T>(layout, dims);
  Reference<T> x(dims);
  const T start = make_value<T>(5), inc = make_value<T>(-2);
  REQUIRE_OK(remora_array_patch_enum(a, 3, 19, &start, &inc));
  for (int64_t i = 3; i <= 19; ++i) {
    T step;  // i - 3 in T (a real step for complex types)
    if constexpr (requires { step.imag(); })
      step = T(static_cast<typename T::value_type>(i - 3));
    else
      step = static_cast<T>(i - 3);
    x.data[static_cast<size_t>(i)] = start + step * inc;
  }
  require_matches(a, x, "patch_enum " + layout.name);
  double sum = 0, largest = 0, got1 = 0, got_inf = 0;
  for (const T& v : x.data) {
    const double mag = std::abs(std::complex<double>(std::real(v), std::imag(v)));
    sum += mag;
    largest = std::max(largest, mag);
  }
  REQUIRE_OK(remora_array_norm1(a, &got1));
  REQUIRE_OK(remora_array_norm_infinity(a, &got_inf));
  REQUIRE(std::fabs(got1 - sum) <= 1e-5 * sum, "vector norm1 %g vs %g", got1, sum);
  REQUIRE(std::fabs(got_inf - largest) <= 1e-5 * largest, "vector norm_infinity %g vs %g", got_inf,
          largest);
  REQUIRE_OK(remora_array_destroy(&a));
}

// A 3-D block array's patch copied transposed (axes reversed) into a 2-D patch, and back.
void check_3d() {
  const std::vector<int64_t> adims = {4, 5, 6}, bdims = {10, 12};
  remora_array_t a = nullptr, b = nullptr;
  REQUIRE_OK(remora_array_create(REMORA_INT64, 3, adims.data(), "a3", &a));
  REQUIRE_OK(irregular_layout(2, size_).create(REMORA_INT64, bdims.data(), &b));
  const Reference<int64_t> x = random_reference<int64_t>(adims, 12);
  Reference<int64_t> y(bdims);
  load(a, x);
  const Patch p{{1, 0, 2}, {3, 4, 5}}, q{{2, 1}, {7, 10}};  // 3*5*4 = 60 = 6*10
  REQUIRE_OK(
      remora_array_copy_patch('T', a, p.lo.data(), p.hi.data(), b, q.lo.data(), q.hi.data()));
  const auto from = sequence(x, p, true), to = sequence(y, q, false);
  for (size_t i = 0; i < from.size(); ++i) y.data[to[i]] = x.data[from[i]];
  require_matches(b, y, "copy_patch 3-D to 2-D");
  int64_t dot = 0, want = 0;
  REQUIRE_OK(remora_array_dot_patch(b, 'N', q.lo.data(), q.hi.data(), a, 'T', p.lo.data(),
                                    p.hi.data(), &dot));
  for (size_t i = 0; i < from.size(); ++i) want += y.data[to[i]] * x.data[from[i]];
  REQUIRE(dot == want, "dot_patch 3-D: %lld vs %lld", (long long)dot, (long long)want);
  REQUIRE_OK(remora_array_destroy(&a));
  REQUIRE_OK(remora_array_destroy(&b));
}

void check_errors() {
  const int64_t dims[2] = {6, 6};
  remora_array_t a = nullptr, b = nullptr, v = nullptr;
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, dims, "ea", &a));
  REQUIRE_OK(remora_array_create(REMORA_INT32, 2, dims, "eb", &b));
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 1, dims, "ev", &v));
  const int64_t lo[2] = {0, 0}, hi[2] = {1, 2}, hi2[2] = {2, 2}, bad[2] = {1, 6};
  const int64_t lo3[2] = {1, 1}, hi3[2] = {2, 3};
  double x = 1, result = 0;
  REQUIRE_ERROR(remora_array_copy_patch('X', a, lo, hi, a, lo, hi), REMORA_ERR_ARG, "trans='X'");
  REQUIRE_ERROR(remora_array_copy_patch('N', a, lo, hi, b, lo, hi), REMORA_ERR_ARG,
                "has type REMORA_INT32");
  REQUIRE_ERROR(remora_array_copy_patch('N', a, lo, hi, a, lo3, hi2), REMORA_ERR_ARG,
                "has 4 elements but a's patch has 6");
  REQUIRE_ERROR(remora_array_copy_patch('N', a, lo, hi, a, lo3, hi3), REMORA_ERR_ARG,
                "patches overlap");
  REQUIRE_ERROR(remora_array_fill_patch(a, lo, bad, &x), REMORA_ERR_RANGE, "hi[1]=6");
  REQUIRE_ERROR(remora_array_scale_patch(a, lo, hi, nullptr), REMORA_ERR_ARG, "alpha is NULL");
  REQUIRE_ERROR(remora_array_add_patch(&x, a, lo, hi, &x, a, lo, hi, a, lo, hi2), REMORA_ERR_ARG,
                "patch of c");
  REQUIRE_ERROR(remora_array_dot_patch(a, 'N', lo, hi, a, 'Q', lo, hi, &result), REMORA_ERR_ARG,
                "trans_b='Q'");
  REQUIRE_ERROR(remora_array_gemm_patch('N', 'N', &x, &x, a, lo, hi, a, lo, hi, v, lo, hi),
                REMORA_ERR_ARG, "c ('ev') has 1 dimensions");
  REQUIRE_ERROR(remora_array_gemm_patch('N', 'N', &x, &x, a, lo, hi, a, lo, hi, a, lo, hi),
                REMORA_ERR_ARG, "c must differ");
  remora_array_t c = nullptr;
  REQUIRE_OK(remora_array_create(REMORA_DOUBLE, 2, dims, "ec", &c));
  REQUIRE_ERROR(remora_array_gemm_patch('N', 'N', &x, &x, a, lo, hi, a, lo, hi, c, lo, hi),
                REMORA_ERR_ARG, "op(a) is 2x3, op(b) 2x3");
  REQUIRE_ERROR(remora_array_patch_enum(a, 0, 1, &x, &x), REMORA_ERR_ARG, "needs 1");
  REQUIRE_ERROR(remora_array_patch_enum(v, 4, 2, &x, &x), REMORA_ERR_ARG, "lo[0]=4 > hi[0]=2");
  REQUIRE_ERROR(remora_array_norm1(a, nullptr), REMORA_ERR_ARG, "result is NULL");
  REQUIRE_ERROR(
      remora_array_elem_patch(static_cast<remora_elem_op_t>(9), a, lo, hi, a, lo, hi, a, lo, hi),
      REMORA_ERR_ARG, "op=9");
  REQUIRE_OK(remora_array_destroy(&a));
  REQUIRE_OK(remora_array_destroy(&b));
  REQUIRE_OK(remora_array_destroy(&c));
  REQUIRE_OK(remora_array_destroy(&v));
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  rank_ = remora_rank();
  size_ = remora_size();
  layouts = layouts_2d(size_);
  const size_t count = layouts.size();
  for (size_t i = 0; i < count; ++i) {
    const Layout &l0 = layouts[i], &l1 = layouts[(i + 1) % count], &l2 = layouts[(i + 3) % count];
    check_single_array_ops<double>(l0);
    check_single_array_ops<int32_t>(l0);
    check_copy<double>(l0, l1);
    check_copy<std::complex<float>>(l2, l0);
    check_add_dot<int64_t>(l0, l1, l2);
    check_add_dot<std::complex<double>>(l2, l0, l1);
    size_t rotation = i;
    for (char ta : {'N', 'T'})
      for (char tb : {'N', 'T'}) {
        check_gemm_patch<double>(ta, tb, layouts[rotation % count], layouts[(rotation + 1) % count],
                                 layouts[(rotation + 2) % count]);
        ++rotation;
      }
    check_norms<double>(l0);
    check_elementwise<double>(l0, l1, l2);
    check_elementwise<int32_t>(l2, l0, l1);
  }
  check_elementwise<std::complex<double>>(layouts[1], layouts[3], layouts[5]);
  check_gemm_patch<std::complex<float>>('T', 'N', layouts[0], layouts[4], layouts[2]);
  check_gemm_patch<int32_t>('N', 'T', layouts[5], layouts[1], layouts[3]);
  check_norms<std::complex<double>>(layouts[2]);
  for (const Layout& layout : {Layout{"block1d", 1,
                                      [](remora_datatype_t t, const int64_t*d, remora_array_t*a) {
                                        return remora_array_create(t, 1, d, "v", a);
                                      }},
                               irregular_layout(1, size_)}) {
    check_vector<double>(layout);
    check_vector<int32_t>(layout);
    check_vector<std::complex<float>>(layout);
  }
  check_3d();
  check_errors();
  return remora_finalize();
}
