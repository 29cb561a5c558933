// GA's matrix utilities on 2-D arrays (GA_Zero_diagonal, GA_Shift_diagonal, GA_Set_diagonal,
// GA_Add_diagonal, GA_Get_diag, GA_Scale_rows, GA_Scale_cols), collective over the array's
// group. Each rank updates a share of the rows of the C view through patch gets and puts, so
// every distribution works alike; a sync before and after orders them with the program's own
// operations, as GA's do. In the C view, as GA 5.8's C binding behaves: GA_Scale_rows
// multiplies element [i][j] by v[i] (v of dims[0] elements), GA_Scale_cols by v[j] (dims[1]).
#include <algorithm>
#include <complex>
#include <vector>

#include "ga/ga_dispatch.hpp"
#include "ga/ga_registry.hpp"

using remora::ga::check;
using remora::ga::ga_fail;
using remora::ga::GaArray;
using remora::ga::kWorldGroup;
using remora::ga::lookup_allocated;
using remora::ga::require_writable;

namespace {

// The array's group synchronises: every earlier operation on it is complete and visible.
void sync_group(const char* fn, const GaArray& a) {
  if (a.pgroup == kWorldGroup)
    check(fn, remora_array_sync());
  else
    GA_Pgroup_sync(a.pgroup);
}

const GaArray& matrix(const char* fn, int g_a) {
  const GaArray& a = lookup_allocated(fn, g_a);
  if (a.ndim != 2)
    ga_fail(fn, "g_a=%d ('%s') has %d dimensions; %s takes a 2-D array", g_a, a.name.c_str(),
            a.ndim, fn);
  return a;
}

// The vector g_v: 1-D, of a's type, `length` elements.
const GaArray& vector_for(const char* fn, const GaArray& a, int g_v, int64_t length) {
  const GaArray& v = lookup_allocated(fn, g_v);
  if (v.ndim != 1 || v.dims[0] != length)
    ga_fail(fn,
            "g_v=%d ('%s') must be a 1-D array of %lld elements (it has %d dimensions, the "
            "first of %lld)",
            g_v, v.name.c_str(), static_cast<long long>(length), v.ndim,
            static_cast<long long>(v.dims[0]));
  if (v.datatype != a.datatype)
    ga_fail(fn, "g_v=%d ('%s') has GA type %d, g_a ('%s') type %d: they must be the same", g_v,
            v.name.c_str(), v.type, a.name.c_str(), a.type);
  return v;
}

// This rank's share [first, first + count) of n items (rows or diagonal elements).
void share(const GaArray& a, int64_t n, int64_t* first, int64_t* count) {
  int size = 1, rank = 0;
  remora_array_ranks(a.array, &size, &rank);
  const int64_t base = n / size, extra = n % size;
  *first = rank * base + std::min<int64_t>(rank, extra);
  *count = base + (rank < extra ? 1 : 0);
}

// Elements [first, first + count) of a 1-D array into out.
template <typename T>
void get_vector(const char* fn, const GaArray& v, int64_t first, int64_t count,
                std::vector<T>* out) {
  out->resize(static_cast<size_t>(count));
  if (count == 0) return;
  const int64_t lo[1] = {first}, hi[1] = {first + count - 1}, ld[1] = {count};
  check(fn, remora_array_get(v.array, lo, hi, out->data(), ld));
}

template <typename T>
void put_vector(const char* fn, const GaArray& v, int64_t first, const std::vector<T>& values) {
  if (values.empty()) return;
  const int64_t lo[1] = {first}, hi[1] = {first + static_cast<int64_t>(values.size()) - 1},
                ld[1] = {static_cast<int64_t>(values.size())};
  check(fn, remora_array_put(v.array, lo, hi, values.data(), ld));
}

// The diagonal elements [first, first + count) of a: read, passed to update(i, value), and
// written back when update returns true.
template <typename T, typename Update>
void update_diagonal(const char* fn, const GaArray& a, int64_t first, int64_t count,
                     Update&& update) {
  const int64_t ld[1] = {1};
  for (int64_t i = first; i < first + count; ++i) {
    const int64_t at[2] = {i, i};
    T value;
    check(fn, remora_array_get(a.array, at, at, &value, ld));
    if (update(i, value)) check(fn, remora_array_put(a.array, at, at, &value, ld));
  }
}

enum class Diagonal { Zero, Shift, Set, Add, Get };

void diagonal(const char* fn, Diagonal what, int g_a, int g_v, const void* constant) {
  const GaArray& a = matrix(fn, g_a);
  const int64_t length = std::min(a.dims[0], a.dims[1]);
  const GaArray* v = what == Diagonal::Set || what == Diagonal::Add || what == Diagonal::Get
                         ? &vector_for(fn, a, g_v, length)
                         : nullptr;
  if (what == Diagonal::Shift && constant == nullptr) ga_fail(fn, "c is NULL");
  require_writable(fn, what == Diagonal::Get ? *v : a);
  sync_group(fn, a);
  int64_t first = 0, count = 0;
  share(a, length, &first, &count);
  dispatch(fn, a, [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> values;
    if (what == Diagonal::Set || what == Diagonal::Add) get_vector(fn, *v, first, count, &values);
    if (what == Diagonal::Get) values.resize(static_cast<size_t>(count));
    const T shift = what == Diagonal::Shift ? *static_cast<const T*>(constant) : T{};
    update_diagonal<T>(fn, a, first, count, [&](int64_t i, T& element) {
      const auto k = static_cast<size_t>(i - first);
      switch (what) {
        case Diagonal::Zero:
          element = T{};
          return true;
        case Diagonal::Shift:
          element += shift;
          return true;
        case Diagonal::Set:
          element = values[k];
          return true;
        case Diagonal::Add:
          element += values[k];
          return true;
        case Diagonal::Get:
          values[k] = element;
          return false;
      }
      return false;
    });
    if (what == Diagonal::Get) put_vector(fn, *v, first, values);
  });
  sync_group(fn, a);
}

// by_column_index: element [i][j] *= v[j] (GA_Scale_cols), else *= v[i] (GA_Scale_rows).
void scale(const char* fn, int g_a, int g_v, bool by_column_index) {
  const GaArray& a = matrix(fn, g_a);
  const int64_t rows = a.dims[0], columns = a.dims[1];
  const GaArray& v = vector_for(fn, a, g_v, by_column_index ? columns : rows);
  require_writable(fn, a);
  sync_group(fn, a);
  int64_t first = 0, count = 0;
  share(a, rows, &first, &count);
  if (count > 0)
    dispatch(fn, a, [&](auto zero) {
      using T = decltype(zero);
      std::vector<T> factors, block(static_cast<size_t>(count * columns));
      if (by_column_index)
        get_vector(fn, v, 0, columns, &factors);
      else
        get_vector(fn, v, first, count, &factors);
      const int64_t lo[2] = {first, 0}, hi[2] = {first + count - 1, columns - 1}, ld[1] = {columns};
      check(fn, remora_array_get(a.array, lo, hi, block.data(), ld));
      for (int64_t r = 0; r < count; ++r)
        for (int64_t c = 0; c < columns; ++c)
          block[static_cast<size_t>(r * columns + c)] *=
              factors[static_cast<size_t>(by_column_index ? c : r)];
      check(fn, remora_array_put(a.array, lo, hi, block.data(), ld));
    });
  sync_group(fn, a);
}

}  // namespace

extern "C" {

void GA_Zero_diagonal(int g_a) {
  diagonal("GA_Zero_diagonal", Diagonal::Zero, g_a, 0, nullptr);
}

void GA_Shift_diagonal(int g_a, void* c) {
  diagonal("GA_Shift_diagonal", Diagonal::Shift, g_a, 0, c);
}

void GA_Set_diagonal(int g_a, int g_v) {
  diagonal("GA_Set_diagonal", Diagonal::Set, g_a, g_v, nullptr);
}

void GA_Add_diagonal(int g_a, int g_v) {
  diagonal("GA_Add_diagonal", Diagonal::Add, g_a, g_v, nullptr);
}

void GA_Get_diag(int g_a, int g_v) {
  diagonal("GA_Get_diag", Diagonal::Get, g_a, g_v, nullptr);
}

void GA_Scale_rows(int g_a, int g_v) {
  scale("GA_Scale_rows", g_a, g_v, false);
}

void GA_Scale_cols(int g_a, int g_v) {
  scale("GA_Scale_cols", g_a, g_v, true);
}

}  // extern "C"
