// Shared pieces of the distributed-array tests: element types, the distributions under test,
// random patches drawn identically on every rank, and a serial reference array.
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "multirank.hpp"

namespace array_test {

template <typename T>
constexpr remora_datatype_t type_of() {
  if constexpr (std::is_same_v<T, int32_t>) return REMORA_INT32;
  if constexpr (std::is_same_v<T, int64_t>) return REMORA_INT64;
  if constexpr (std::is_same_v<T, float>) return REMORA_FLOAT;
  if constexpr (std::is_same_v<T, double>) return REMORA_DOUBLE;
  if constexpr (std::is_same_v<T, std::complex<float>>) return REMORA_FLOAT_COMPLEX;
  return REMORA_DOUBLE_COMPLEX;
}

// The real type underneath T.
template <typename T>
struct RealOf {
  using type = T;
};
template <typename T>
struct RealOf<std::complex<T>> {
  using type = T;
};
template <typename T>
using Real = typename RealOf<T>::type;

// Small integer values (exact in every type), with an imaginary part for complex types.
template <typename T>
T make_value(int64_t v) {
  if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>)
    return T(static_cast<typename T::value_type>(v), static_cast<typename T::value_type>(-v / 2));
  else
    return static_cast<T>(v);
}

inline double as_double(const std::complex<double>& x) {
  return std::abs(x);
}

// A distribution under test: its name and a collective creator for given dims.
struct Layout {
  std::string name;
  int ndim;
  std::function<int(remora_datatype_t, const int64_t*, remora_array_t*)> create;
};

// Strictly increasing, uneven block starts of n over parts blocks.
inline std::vector<int64_t> uneven_starts(int64_t n, int parts) {
  std::vector<int64_t> starts;
  for (int k = 0; k < parts; ++k) {
    const double f = static_cast<double>(k) / parts;
    int64_t s = static_cast<int64_t>(static_cast<double>(n) * f * f * 0.5 +
                                     static_cast<double>(n) * f * 0.5);
    if (!starts.empty()) s = std::max(s, starts.back() + 1);
    starts.push_back(s);
  }
  return starts;
}

inline Layout irregular_layout(int ndim, int ranks) {
  return Layout{"irregular" + std::to_string(ndim) + "d", ndim,
                [ndim, ranks](remora_datatype_t type, const int64_t* dims, remora_array_t* a) {
                  // First dimension cut min(ranks, 3) ways, the second by what remains.
                  std::vector<int> nblock(static_cast<size_t>(ndim), 1);
                  nblock[0] = static_cast<int>(std::min<int64_t>({ranks, 3, dims[0]}));
                  if (ndim > 1)
                    nblock[1] = static_cast<int>(std::min<int64_t>(ranks / nblock[0], dims[1]));
                  std::vector<int64_t> map;
                  for (int d = 0; d < ndim; ++d)
                    for (int64_t s : uneven_starts(dims[d], nblock[static_cast<size_t>(d)]))
                      map.push_back(s);
                  return remora_array_create_irregular(type, ndim, dims, nblock.data(), map.data(),
                                                       "irregular", a);
                }};
}

inline std::vector<Layout> layouts_2d(int ranks) {
  std::vector<Layout> out;
  out.push_back({"block", 2, [](remora_datatype_t t, const int64_t* d, remora_array_t* a) {
                   return remora_array_create(t, 2, d, "block", a);
                 }});
  out.push_back(irregular_layout(2, ranks));
  out.push_back(
      {"block_cyclic_2x3", 2, [](remora_datatype_t t, const int64_t* d, remora_array_t* a) {
         const int64_t block[2] = {2, 3};
         return remora_array_create_block_cyclic(t, d, block, nullptr, "bc23", a);
       }});
  out.push_back({"block_cyclic_4x1_row", 2,
                 [ranks](remora_datatype_t t, const int64_t* d, remora_array_t* a) {
                   const int64_t block[2] = {4, 1};
                   const int grid[2] = {1, ranks};
                   return remora_array_create_block_cyclic(t, d, block, grid, "bc41", a);
                 }});
  out.push_back({"element_cyclic", 2, [](remora_datatype_t t, const int64_t* d, remora_array_t* a) {
                   return remora_array_create_element_cyclic(t, d, nullptr, "ec", a);
                 }});
  out.push_back({"element_cyclic_column", 2,
                 [ranks](remora_datatype_t t, const int64_t* d, remora_array_t* a) {
                   const int grid[2] = {ranks, 1};
                   return remora_array_create_element_cyclic(t, d, grid, "ec_col", a);
                 }});
  out.push_back(
      {"block_dealt_2x3", 2, [](remora_datatype_t t, const int64_t* d, remora_array_t* a) {
         const int64_t block[2] = {2, 3};
         return remora_array_create_block_dealt(t, 2, d, block, "bd23", a);
       }});
  out.push_back(
      {"block_cyclic_tiles", 2, [ranks](remora_datatype_t t, const int64_t* d, remora_array_t* a) {
         // Tiles of uneven extents, 5 x 4 of them, over a grid of all the ranks.
         const int ntiles[2] = {5, 4};
         std::vector<int64_t> starts = uneven_starts(d[0], ntiles[0]);
         const std::vector<int64_t> columns = uneven_starts(d[1], ntiles[1]);
         starts.insert(starts.end(), columns.begin(), columns.end());
         const int grid[2] = {ranks % 2 == 0 ? 2 : 1, ranks % 2 == 0 ? ranks / 2 : ranks};
         return remora_array_create_block_cyclic_tiles(t, d, ntiles, starts.data(), grid, "tiles",
                                                       a);
       }});
  return out;
}

// A random patch of dims, the same on every rank that uses the same generator state.
struct Patch {
  std::vector<int64_t> lo, hi;
  int64_t elements() const {
    int64_t n = 1;
    for (size_t d = 0; d < lo.size(); ++d) n *= hi[d] - lo[d] + 1;
    return n;
  }
};

inline Patch random_patch(std::mt19937_64& rng, const std::vector<int64_t>& dims) {
  Patch p;
  for (int64_t n : dims) {
    int64_t a = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
    int64_t b = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
    p.lo.push_back(std::min(a, b));
    p.hi.push_back(std::max(a, b));
  }
  return p;
}

// A row-major serial copy of the whole array.
template <typename T>
struct Reference {
  std::vector<int64_t> dims;
  std::vector<T> data;
  explicit Reference(std::vector<int64_t> d) : dims(std::move(d)) {
    int64_t n = 1;
    for (int64_t e : dims) n *= e;
    data.assign(static_cast<size_t>(n), T{});
  }
  int64_t offset(const int64_t* index) const {
    int64_t o = 0;
    for (size_t d = 0; d < dims.size(); ++d) o = o * dims[d] + index[d];
    return o;
  }
  // Calls f(global index, buffer offset) for every element of the patch, with the buffer laid
  // out with leading dimensions ld.
  void for_each(const Patch& p, const std::vector<int64_t>& ld,
                const std::function<void(const int64_t*, int64_t)>& f) const {
    const size_t n = dims.size();
    std::vector<int64_t> index(p.lo);
    for (;;) {
      int64_t b = 0;
      for (size_t d = 0; d < n; ++d) b = b * (d == 0 ? 1 : ld[d - 1]) + (index[d] - p.lo[d]);
      f(index.data(), b);
      size_t d = n;
      while (d-- > 0) {
        if (++index[d] <= p.hi[d]) break;
        index[d] = p.lo[d];
      }
      if (d == static_cast<size_t>(-1)) return;
    }
  }
};

// Leading dimensions of a buffer for p, padded by up to 2 elements (ndim-1 entries, plus one
// unused so the vector is never empty), and the buffer's length.
inline std::vector<int64_t> padded_ld(std::mt19937_64& rng, const Patch& p, int64_t* length) {
  std::vector<int64_t> ld;
  *length = p.hi[0] - p.lo[0] + 1;
  for (size_t d = 1; d < p.lo.size(); ++d) {
    ld.push_back(p.hi[d] - p.lo[d] + 1 + static_cast<int64_t>(rng() % 3));
    *length *= ld.back();
  }
  ld.push_back(1);
  return ld;
}

// Collective: every rank compares the whole array with the reference; nobody changes it
// before all have compared.
template <typename T>
void verify_all(remora_array_t a, const Reference<T>& ref, const char* what) {
  Patch whole;
  for (int64_t n : ref.dims) {
    whole.lo.push_back(0);
    whole.hi.push_back(n - 1);
  }
  std::vector<T> buffer(ref.data.size());
  std::vector<int64_t> ld(ref.dims.begin() + 1, ref.dims.end());
  ld.push_back(1);
  REQUIRE_OK(remora_array_get(a, whole.lo.data(), whole.hi.data(), buffer.data(), ld.data()));
  for (size_t i = 0; i < buffer.size(); ++i)
    REQUIRE(buffer[i] == ref.data[i], "%s: element %zu differs (%g vs %g)", what, i,
            as_double(std::complex<double>(std::real(buffer[i]), std::imag(buffer[i]))),
            as_double(std::complex<double>(std::real(ref.data[i]), std::imag(ref.data[i]))));
  REQUIRE_OK(remora_array_sync());
}

template <typename T>
std::vector<T> random_values(std::mt19937_64& rng, int64_t n) {
  std::vector<T> v(static_cast<size_t>(n));
  for (T& x : v) x = make_value<T>(static_cast<int64_t>(rng() % 19) - 9);
  return v;
}

}  // namespace array_test
