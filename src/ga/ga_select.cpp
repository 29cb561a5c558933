// GA's searches and element-wise selections: NGA_Select_elem (the smallest or largest element
// and its subscript), GA_Median / GA_Median_patch (m = the median of a, b and c element by
// element) and GA_Step_max / _patch (the longest step along b that keeps a non-negative).
// Collective over the array's group, beginning and ending with a sync. Each rank reads an even
// share of the patch's rows (dimension 0) with one get and works on it (GA_Step_bound_info /
// _patch, the step bounds of x + s v inside [l, u], likewise); Select_elem then exchanges
// one candidate per rank and Median writes its rows back, so every distribution takes the same
// path. Complex elements compare by magnitude and keep their value (as GA).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "ga/ga_dispatch.hpp"
#include "ga/ga_registry.hpp"

using namespace remora::ga;

namespace {

// A checked patch of an allocated array (the whole array when lo and hi are both NULL).
struct Patch {
  const GaArray* a = nullptr;
  remora_array_t array = nullptr;  // a's, or a temporary of the same shape
  int64_t lo[GA_MAX_DIM] = {}, hi[GA_MAX_DIM] = {};
  int64_t extent(int d) const { return hi[d] - lo[d] + 1; }
  int64_t elements() const {
    int64_t n = 1;
    for (int d = 0; d < a->ndim; ++d) n *= extent(d);
    return n;
  }
};

template <typename Index>
Patch patch_of(const char* fn, const char* name, int g, const Index* lo, const Index* hi,
               bool written = false) {
  Patch p;
  p.a = written ? &writable(fn, g) : &lookup_allocated(fn, g);
  const GaArray& a = *p.a;
  p.array = a.array;
  if (lo == nullptr && hi == nullptr) {
    for (int d = 0; d < a.ndim; ++d) p.hi[d] = a.dims[d] - 1;
    return p;
  }
  if (lo == nullptr || hi == nullptr)
    ga_fail(fn, "the patch of %s=%d has a NULL lo or hi", name, g);
  for (int d = 0; d < a.ndim; ++d) {
    p.lo[d] = lo[d];
    p.hi[d] = hi[d];
    if (p.lo[d] < 0 || p.hi[d] < p.lo[d] || p.hi[d] >= a.dims[d])
      ga_fail(fn, "%s=%d ('%s'): lo[%d]=%lld, hi[%d]=%lld is not a range inside [0, %lld)", name, g,
              a.name.c_str(), d, static_cast<long long>(p.lo[d]), d,
              static_cast<long long>(p.hi[d]), static_cast<long long>(a.dims[d]));
  }
  return p;
}

// This rank's share of p's rows, as a patch of the same array (empty: lo[0] > hi[0]).
Patch my_rows(const Patch& p, remora_comm_t comm) {
  int size = 1, rank = 0;
  check("my_rows", remora_comm_size(comm, &size));
  check("my_rows", remora_comm_rank(comm, &rank));
  Patch mine = p;
  const int64_t rows = p.extent(0);
  mine.lo[0] = p.lo[0] + rows * rank / size;
  mine.hi[0] = p.lo[0] + rows * (rank + 1) / size - 1;
  return mine;
}

// Moves the patch between the array and a packed row-major buffer (nothing when empty).
void move(const char* fn, const Patch& p, void* buffer, bool put) {
  if (p.lo[0] > p.hi[0]) return;
  int64_t ld[GA_MAX_DIM] = {};
  for (int d = 1; d < p.a->ndim; ++d) ld[d - 1] = p.extent(d);
  if (put)
    check(fn, remora_array_put(p.array, p.lo, p.hi, buffer, ld));
  else
    check(fn, remora_array_get(p.array, p.lo, p.hi, buffer, ld));
}

// What elements compare by: the value, or for complex ones the squared magnitude.
template <typename T>
T key(const T& v) {
  return v;
}
template <typename T>
double key(const std::complex<T>& v) {
  return static_cast<double>(v.real()) * v.real() + static_cast<double>(v.imag()) * v.imag();
}

// One rank's best element: its row-major position in the patch and its value.
struct Candidate {
  int64_t position = -1;  // -1: the rank had no rows
  unsigned char value[sizeof(std::complex<double>)] = {};
};

template <typename T>
void select_elem(const char* fn, const Patch& p, bool largest, void* val, int64_t* subscript) {
  const remora_comm_t comm = pgroup_comm(fn, p.a->pgroup);
  check(fn, remora_array_sync_comm(comm));
  const Patch rows = my_rows(p, comm);
  std::vector<T> data(static_cast<size_t>(rows.lo[0] <= rows.hi[0] ? rows.elements() : 0));
  move(fn, rows, data.data(), false);
  auto better = [largest](const T& x, const T& y) {
    return largest ? key(x) > key(y) : key(x) < key(y);
  };
  Candidate mine;
  size_t best = 0;
  for (size_t i = 1; i < data.size(); ++i)
    if (better(data[i], data[best])) best = i;  // the first of equal ones
  if (!data.empty()) {
    mine.position =
        (rows.lo[0] - p.lo[0]) * (p.elements() / p.extent(0)) + static_cast<int64_t>(best);
    std::memcpy(mine.value, &data[best], sizeof(T));
  }
  int size = 1;
  check(fn, remora_comm_size(comm, &size));
  std::vector<Candidate> all(static_cast<size_t>(size));
  check(fn, remora_allgather(&mine, all.data(), sizeof(Candidate), REMORA_UINT8, comm,
                             REMORA_COLL_AUTO));
  // Ranks hold rows in order, so among equal values the first rank's comes first in C order.
  const Candidate* winner = nullptr;
  T winner_value{}, value{};
  for (const Candidate& c : all) {
    if (c.position < 0) continue;
    std::memcpy(&value, c.value, sizeof(T));
    if (winner == nullptr || better(value, winner_value)) {
      winner = &c;
      winner_value = value;
    }
  }
  std::memcpy(val, &winner_value, sizeof(T));
  for (int64_t d = p.a->ndim - 1, rest = winner->position; d >= 0; --d) {
    subscript[d] = p.lo[d] + rest % p.extent(static_cast<int>(d));
    rest /= p.extent(static_cast<int>(d));
  }
  check(fn, remora_array_sync_comm(comm));
}

template <typename Index>
void select_elem(const char* fn, int g_a, const char* op, void* val, Index* subscript) {
  const Patch p = patch_of(fn, "g_a", g_a, static_cast<const Index*>(nullptr),
                           static_cast<const Index*>(nullptr));
  if (op == nullptr) ga_fail(fn, "op is NULL");
  // As GA: the first three characters decide.
  const bool largest = std::strncmp(op, "max", 3) == 0;
  if (!largest && std::strncmp(op, "min", 3) != 0)
    ga_fail(fn, "op=\"%s\" is neither \"min\" nor \"max\"", op);
  if (val == nullptr || subscript == nullptr) ga_fail(fn, "val or index is NULL");
  int64_t where[GA_MAX_DIM] = {};
  dispatch(fn, *p.a, [&](auto type) { select_elem<decltype(type)>(fn, p, largest, val, where); });
  from_int64(where, p.a->ndim, subscript);
}

// GA's median of three: a when a and b compare equal, else c clamped between the two.
template <typename T>
T median(const T& a, const T& b, const T& c) {
  const auto ka = key(a), kb = key(b), kc = key(c);
  if (ka == kb) return a;
  const T& low = ka < kb ? a : b;
  const T& high = ka < kb ? b : a;
  const auto kl = key(low), kh = key(high);
  if (kc < kl) return low;
  if (kc <= kh) return c;
  return high;
}

// This rank's rows of `shape` (my_rows) taken from source, a patch of as many elements
// matched in row-major order: read directly when the two have the same extents, else through a
// copy of source shaped like `shape` (collective: every rank takes the same branch).
template <typename T>
std::vector<T> matching_rows(const char* fn, const Patch& source, const Patch& shape,
                             const Patch& rows) {
  bool same_shape = source.a->ndim == shape.a->ndim;
  for (int d = 0; same_shape && d < shape.a->ndim; ++d)
    same_shape = source.extent(d) == shape.extent(d);
  Patch from = source;
  remora_array_t temporary = nullptr;
  if (!same_shape) {
    check(fn, remora_array_duplicate(shape.array, "reshaped", &temporary));
    check(fn, remora_array_copy_patch('N', source.array, source.lo, source.hi, temporary, shape.lo,
                                      shape.hi));
    from = shape;
    from.array = temporary;
  }
  Patch mine = from;
  for (int d = 0; d < shape.a->ndim; ++d) {
    mine.lo[d] = from.lo[d] + (rows.lo[d] - shape.lo[d]);
    mine.hi[d] = from.lo[d] + (rows.hi[d] - shape.lo[d]);
  }
  std::vector<T> values(static_cast<size_t>(rows.lo[0] <= rows.hi[0] ? rows.elements() : 0));
  move(fn, mine, values.data(), false);
  if (temporary != nullptr) check(fn, remora_array_destroy(&temporary));
  return values;
}

template <typename T>
void median_rows(const char* fn, const Patch* in, const Patch& m) {
  const remora_comm_t comm = pgroup_comm(fn, m.a->pgroup);
  check(fn, remora_array_sync_comm(comm));
  const Patch rows = my_rows(m, comm);
  std::vector<T> values[3];
  for (int k = 0; k < 3; ++k) values[k] = matching_rows<T>(fn, in[k], m, rows);
  check(fn, remora_array_sync_comm(comm));  // every read done before m is written
  std::vector<T> result(values[0].size());
  for (size_t i = 0; i < result.size(); ++i)
    result[i] = median(values[0][i], values[1][i], values[2][i]);
  move(fn, rows, result.data(), true);
  check(fn, remora_array_sync_comm(comm));
}

// GA's stand-in for an unbounded step, per type (GA_INFINITY_I / _L / _F / _D).
template <typename T>
T infinity() {
  if constexpr (std::is_same_v<T, int32_t>)
    return INT32_MAX;
  else if constexpr (std::is_same_v<T, int64_t>)
    return INT64_MAX;
  else if constexpr (std::is_same_v<T, float>)
    return 1.0e37f;
  else
    return 1.0e307;
}

// Calls f with a value of a's element type, for the real types; complex ones end the job.
template <typename F>
void for_real_type(const char* fn, const char* name, int g, const GaArray& a, F&& f) {
  if (a.datatype == REMORA_FLOAT_COMPLEX || a.datatype == REMORA_DOUBLE_COMPLEX)
    ga_fail(fn, "%s=%d ('%s') has the complex GA type %d; this operation takes real types", name, g,
            a.name.c_str(), a.type);
  dispatch(fn, a, [&](auto type) {
    if constexpr (std::is_arithmetic_v<decltype(type)>) f(type);
  });
}

// GA_Step_max: the largest s with a + s b >= 0 element-wise (a >= 0 required), as GA computes
// it: each quotient a / b (a zero numerator gives infinity when b >= 0 and 0 when b < 0, a zero
// divisor infinity) that is positive counts as unbounded; the result is |the largest of the
// others|, infinity when there are none (or when g_a is g_b).
template <typename T>
void step_max(const char* fn, int g_a, const Patch& a, const Patch& b, bool same_array,
              void* step) {
  const remora_comm_t comm = pgroup_comm(fn, a.a->pgroup);
  check(fn, remora_array_sync_comm(comm));
  T largest = -infinity<T>();
  if (!same_array) {
    const Patch rows = my_rows(a, comm);
    const std::vector<T> av = matching_rows<T>(fn, a, a, rows);
    const std::vector<T> bv = matching_rows<T>(fn, b, a, rows);
    for (size_t i = 0; i < av.size(); ++i) {
      if (av[i] < T(0))
        ga_fail(fn, "g_a=%d has a negative element (%g) in its patch: the step needs a >= 0", g_a,
                static_cast<double>(av[i]));
      T q;
      if (av[i] == T(0))
        q = bv[i] >= T(0) ? infinity<T>() : T(0);
      else
        q = bv[i] != T(0) ? av[i] / bv[i] : infinity<T>();
      if (q <= T(0) && q > largest) largest = q;
    }
    check(fn, remora_allreduce(REMORA_IN_PLACE, &largest, 1, a.a->datatype, REMORA_OP_MAX, comm,
                               REMORA_COLL_AUTO));
  }
  const T result = same_array ? infinity<T>() : largest < T(0) ? T(0) - largest : largest;
  std::memcpy(step, &result, sizeof(T));
  check(fn, remora_array_sync_comm(comm));
}

template <typename Index>
void step_max_patch(const char* fn, int g_a, const Index* alo, const Index* ahi, int g_b,
                    const Index* blo, const Index* bhi, void* step) {
  const Patch a = patch_of(fn, "g_a", g_a, alo, ahi), b = patch_of(fn, "g_b", g_b, blo, bhi);
  if (step == nullptr) ga_fail(fn, "step is NULL");
  if (a.a->datatype != b.a->datatype)
    ga_fail(fn, "g_a=%d has GA type %d but g_b=%d has GA type %d: they must match", g_a, a.a->type,
            g_b, b.a->type);
  if (a.elements() != b.elements())
    ga_fail(fn, "g_a=%d's patch has %lld elements but g_b=%d's has %lld", g_a,
            static_cast<long long>(a.elements()), g_b, static_cast<long long>(b.elements()));
  if (a.a->pgroup != b.a->pgroup)
    ga_fail(fn, "g_a=%d and g_b=%d live on different process groups", g_a, g_b);
  const bool same_array = g_a == g_b;
  for_real_type(fn, "g_a", g_a, *a.a,
                [&](auto type) { step_max<decltype(type)>(fn, g_a, a, b, same_array, step); });
}

// GA_Step_bound_info, element by element as GA composes it from its element-wise operations:
// s = u - x and q = x - l (both >= 0 required), t = s / max(v, 0) and r = q / |min(v, 0)| by
// GA's "stepb" division (0 / positive = 0, any other zero numerator or divisor infinity);
// wolfemin = |the smallest t or r|; then the step to the bound each element meets, min(t, r),
// is 0 where v = 0 and x lies on a bound (q s + |v| = 0); boundmin and boundmax are the
// smallest and largest of those steps.
template <typename T>
T stepb_divide(T a, T b) {
  if (a == T(0)) return b > T(0) ? T(0) : infinity<T>();
  return b != T(0) ? a / b : infinity<T>();
}

template <typename T>
void step_bound_info(const char* fn, const Patch (&p)[4], const int (&handles)[4], void* boundmin,
                     void* wolfemin, void* boundmax) {
  const remora_comm_t comm = pgroup_comm(fn, p[0].a->pgroup);
  check(fn, remora_array_sync_comm(comm));
  const Patch rows = my_rows(p[0], comm);
  std::vector<T> values[4];  // x, v, l, u
  for (int k = 0; k < 4; ++k) values[k] = matching_rows<T>(fn, p[k], p[0], rows);
  const std::vector<T>&x = values[0], &v = values[1], &l = values[2], &u = values[3];
  T smallest[2] = {infinity<T>(), infinity<T>()};  // of t and r; of the steps
  T largest = std::numeric_limits<T>::lowest();
  for (size_t i = 0; i < x.size(); ++i) {
    const T s = u[i] - x[i], q = x[i] - l[i];
    if (s < T(0))
      ga_fail(fn, "g_xxuu=%d is not an upper bound: element %g is below g_xx's %g", handles[3],
              static_cast<double>(u[i]), static_cast<double>(x[i]));
    if (q < T(0))
      ga_fail(fn, "g_xxll=%d is not a lower bound: element %g is above g_xx's %g", handles[2],
              static_cast<double>(l[i]), static_cast<double>(x[i]));
    const T t = stepb_divide(s, v[i] > T(0) ? v[i] : T(0));
    const T r = stepb_divide(q, v[i] < T(0) ? T(0) - v[i] : T(0));
    T step = std::min(t, r);
    smallest[0] = std::min(smallest[0], step);
    if (q * s + (v[i] < T(0) ? T(0) - v[i] : v[i]) == T(0)) step = T(0);
    smallest[1] = std::min(smallest[1], step);
    largest = std::max(largest, step);
  }
  const remora_datatype_t type = p[0].a->datatype;
  check(fn, remora_allreduce(REMORA_IN_PLACE, smallest, 2, type, REMORA_OP_MIN, comm,
                             REMORA_COLL_AUTO));
  check(fn, remora_allreduce(REMORA_IN_PLACE, &largest, 1, type, REMORA_OP_MAX, comm,
                             REMORA_COLL_AUTO));
  const T wolfe = smallest[0] < T(0) ? T(0) - smallest[0] : smallest[0];
  std::memcpy(wolfemin, &wolfe, sizeof(T));
  std::memcpy(boundmin, &smallest[1], sizeof(T));
  std::memcpy(boundmax, &largest, sizeof(T));
  check(fn, remora_array_sync_comm(comm));
}

template <typename Index, typename UpperHandle>
void step_bound_info_patch(const char* fn, int g_xx, const Index* xxlo, const Index* xxhi, int g_vv,
                           const Index* vvlo, const Index* vvhi, int g_xxll, const Index* xxlllo,
                           const Index* xxllhi, UpperHandle g_xxuu, const Index* xxuulo,
                           const Index* xxuuhi, void* boundmin, void* wolfemin, void* boundmax) {
  const int handles[4] = {g_xx, g_vv, g_xxll, static_cast<int>(g_xxuu)};
  const char* names[4] = {"g_xx", "g_vv", "g_xxll", "g_xxuu"};
  const Patch p[4] = {patch_of(fn, names[0], handles[0], xxlo, xxhi),
                      patch_of(fn, names[1], handles[1], vvlo, vvhi),
                      patch_of(fn, names[2], handles[2], xxlllo, xxllhi),
                      patch_of(fn, names[3], handles[3], xxuulo, xxuuhi)};
  if (boundmin == nullptr || wolfemin == nullptr || boundmax == nullptr)
    ga_fail(fn, "boundmin=%p, wolfemin=%p, boundmax=%p: all three results are required", boundmin,
            wolfemin, boundmax);
  for (int k = 1; k < 4; ++k) {
    if (p[k].a->datatype != p[0].a->datatype)
      ga_fail(fn, "%s=%d has GA type %d but g_xx=%d has GA type %d: they must match", names[k],
              handles[k], p[k].a->type, g_xx, p[0].a->type);
    if (p[k].elements() != p[0].elements())
      ga_fail(fn, "%s=%d's patch has %lld elements but g_xx=%d's has %lld", names[k], handles[k],
              static_cast<long long>(p[k].elements()), g_xx,
              static_cast<long long>(p[0].elements()));
    if (p[k].a->pgroup != p[0].a->pgroup)
      ga_fail(fn, "%s=%d and g_xx=%d live on different process groups", names[k], handles[k], g_xx);
  }
  for_real_type(fn, "g_xx", g_xx, *p[0].a, [&](auto type) {
    step_bound_info<decltype(type)>(fn, p, handles, boundmin, wolfemin, boundmax);
  });
}

template <typename Index>
void median_patch(const char* fn, int g_a, const Index* alo, const Index* ahi, int g_b,
                  const Index* blo, const Index* bhi, int g_c, const Index* clo, const Index* chi,
                  int g_m, const Index* mlo, const Index* mhi) {
  const Patch in[3] = {patch_of(fn, "g_a", g_a, alo, ahi), patch_of(fn, "g_b", g_b, blo, bhi),
                       patch_of(fn, "g_c", g_c, clo, chi)};
  const Patch m = patch_of(fn, "g_m", g_m, mlo, mhi, true);
  const char* names[3] = {"g_a", "g_b", "g_c"};
  const int handles[3] = {g_a, g_b, g_c};
  for (int k = 0; k < 3; ++k) {
    if (in[k].a->datatype != m.a->datatype)
      ga_fail(fn, "%s=%d has GA type %d but g_m=%d has GA type %d: they must match", names[k],
              handles[k], in[k].a->type, g_m, m.a->type);
    if (in[k].elements() != m.elements())
      ga_fail(fn, "%s=%d's patch has %lld elements but g_m=%d's has %lld", names[k], handles[k],
              static_cast<long long>(in[k].elements()), g_m, static_cast<long long>(m.elements()));
    if (in[k].a->pgroup != m.a->pgroup)
      ga_fail(fn, "%s=%d and g_m=%d live on different process groups", names[k], handles[k], g_m);
  }
  dispatch(fn, *m.a, [&](auto type) { median_rows<decltype(type)>(fn, in, m); });
}

constexpr const int* kWhole = nullptr;

}  // namespace

extern "C" {

void NGA_Select_elem(int g_a, char* op, void* val, int* index) {
  select_elem("NGA_Select_elem", g_a, op, val, index);
}

void NGA_Select_elem64(int g_a, char* op, void* val, int64_t* index) {
  select_elem("NGA_Select_elem64", g_a, op, val, index);
}

void GA_Step_max(int g_a, int g_b, void* step) {
  step_max_patch("GA_Step_max", g_a, kWhole, kWhole, g_b, kWhole, kWhole, step);
}

void GA_Step_max_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, void* step) {
  step_max_patch("GA_Step_max_patch", g_a, alo, ahi, g_b, blo, bhi, step);
}

void GA_Step_max_patch64(int g_a, int64_t alo[], int64_t ahi[], int g_b, int64_t blo[],
                         int64_t bhi[], void* step) {
  step_max_patch("GA_Step_max_patch64", g_a, alo, ahi, g_b, blo, bhi, step);
}

void GA_Step_bound_info(int g_xx, int g_vv, int g_xxll, int g_xxuu, void* boundmin, void* wolfemin,
                        void* boundmax) {
  step_bound_info_patch("GA_Step_bound_info", g_xx, kWhole, kWhole, g_vv, kWhole, kWhole, g_xxll,
                        kWhole, kWhole, g_xxuu, kWhole, kWhole, boundmin, wolfemin, boundmax);
}

void GA_Step_bound_info_patch(int g_xx, int* xxlo, int* xxhi, int g_vv, int* vvlo, int* vvhi,
                              int g_xxll, int* xxlllo, int* xxllhi, int g_xxuu, int* xxuulo,
                              int* xxuuhi, void* boundmin, void* wolfemin, void* boundmax) {
  step_bound_info_patch("GA_Step_bound_info_patch", g_xx, xxlo, xxhi, g_vv, vvlo, vvhi, g_xxll,
                        xxlllo, xxllhi, g_xxuu, xxuulo, xxuuhi, boundmin, wolfemin, boundmax);
}

void GA_Step_bound_info_patch64(int g_xx, int64_t xxlo[], int64_t xxhi[], int g_vv, int64_t vvlo[],
                                int64_t vvhi[], int g_xxll, int64_t xxlllo[], int64_t xxllhi[],
                                int64_t g_xxuu, int64_t xxuulo[], int64_t xxuuhi[], void* boundmin,
                                void* wolfemin, void* boundmax) {
  step_bound_info_patch("GA_Step_bound_info_patch64", g_xx, xxlo, xxhi, g_vv, vvlo, vvhi, g_xxll,
                        xxlllo, xxllhi, g_xxuu, xxuulo, xxuuhi, boundmin, wolfemin, boundmax);
}

void GA_Median(int g_a, int g_b, int g_c, int g_m) {
  median_patch("GA_Median", g_a, kWhole, kWhole, g_b, kWhole, kWhole, g_c, kWhole, kWhole, g_m,
               kWhole, kWhole);
}

void GA_Median_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, int g_c, int* clo,
                     int* chi, int g_m, int* mlo, int* mhi) {
  median_patch("GA_Median_patch", g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi, g_m, mlo, mhi);
}

void GA_Median_patch64(int g_a, int64_t* alo, int64_t* ahi, int g_b, int64_t* blo, int64_t* bhi,
                       int g_c, int64_t* clo, int64_t* chi, int g_m, int64_t* mlo, int64_t* mhi) {
  median_patch("GA_Median_patch64", g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi, g_m, mlo, mhi);
}

}  // extern "C"
