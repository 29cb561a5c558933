#include "arrays/patch_ops.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "arrays/collective_support.hpp"
#include "arrays/linear_patch.hpp"
#include "arrays/local_gemm.hpp"

namespace remora::arrays {

namespace {

// This rank's share of a sequence of n elements.
struct Share {
  int64_t first = 0, count = 0;
  explicit Share(int64_t n) { rank_share(n, &first, &count); }
};

// Collective: each rank rewrites its share of a's patch with update(values, first, count),
// after reading it when read is set.
template <typename Update>
int rewrite_patch(Array& a, const int64_t* lo, const int64_t* hi, bool read, Update&& update) {
  return collective([&]() -> int {
    const LinearPatch patch(a, lo, hi);
    const Share share(patch.elements());
    if (share.count == 0) return REMORA_SUCCESS;
    std::vector<char> values(static_cast<size_t>(share.count) * a.element());
    if (read)
      if (int status = patch.get(share.first, share.count, values.data())) return status;
    update(values.data(), share.first, share.count);
    return patch.put(share.first, share.count, values.data());
  });
}

// This rank's share of two patch sequences of equal length, read into xs and ys.
struct TwoInputs {
  Share share;
  std::vector<char> xs, ys;
  TwoInputs(const LinearPatch& x, size_t element)
      : share(x.elements()),
        xs(static_cast<size_t>(share.count) * element),
        ys(static_cast<size_t>(share.count) * element) {}
  int read(const LinearPatch& x, const LinearPatch& y) {
    if (share.count == 0) return REMORA_SUCCESS;
    if (int status = x.get(share.first, share.count, xs.data())) return status;
    return y.get(share.first, share.count, ys.data());
  }
};

// Every rank has read its inputs before any writes, when the output array is also an input.
int separate_reads_from_writes(bool aliased) {
  return aliased ? remora_barrier() : REMORA_SUCCESS;
}

// |x| as a double.
template <typename T>
double magnitude(const T& x) {
  return std::sqrt(magnitude_squared(x));
}

// A 2-D patch: rows lo[0]..lo[0]+rows-1, columns lo[1]..lo[1]+cols-1, as lo/hi arrays.
struct Box2 {
  int64_t lo[2], hi[2];
  Box2(int64_t row, int64_t col, int64_t rows, int64_t cols)
      : lo{row, col}, hi{row + rows - 1, col + cols - 1} {}
};

}  // namespace

int fill_patch(Array& a, const int64_t* lo, const int64_t* hi, const void* value) {
  return rewrite_patch(a, lo, hi, false, [&](void* values, int64_t, int64_t count) {
    if (value == nullptr) {
      std::memset(values, 0, static_cast<size_t>(count) * a.element());
      return;
    }
    dispatch(a.type(), [&](auto zero) {
      using T = decltype(zero);
      std::fill(as<T>(values), as<T>(values) + count, *as<T>(value));
    });
  });
}

int scale_patch(Array& a, const int64_t* lo, const int64_t* hi, const void* alpha) {
  return rewrite_patch(a, lo, hi, true, [&](void* values, int64_t, int64_t count) {
    dispatch(a.type(), [&](auto zero) {
      using T = decltype(zero);
      for (int64_t i = 0; i < count; ++i) as<T>(values)[i] *= *as<T>(alpha);
    });
  });
}

int add_constant_patch(Array& a, const int64_t* lo, const int64_t* hi, const void* value) {
  return rewrite_patch(a, lo, hi, true, [&](void* values, int64_t, int64_t count) {
    dispatch(a.type(), [&](auto zero) {
      using T = decltype(zero);
      for (int64_t i = 0; i < count; ++i) as<T>(values)[i] += *as<T>(value);
    });
  });
}

int patch_enum(Array& a, const int64_t* lo, const int64_t* hi, const void* start, const void* inc) {
  return rewrite_patch(a, lo, hi, false, [&](void* values, int64_t first, int64_t count) {
    dispatch(a.type(), [&](auto zero) {
      using T = decltype(zero);
      for (int64_t i = 0; i < count; ++i) {
        T step;
        if constexpr (requires { step.imag(); })
          step = T(static_cast<typename T::value_type>(first + i));
        else
          step = static_cast<T>(first + i);
        as<T>(values)[i] = *as<T>(start) + step * *as<T>(inc);
      }
    });
  });
}

int copy_patch(bool trans, Array& a, const int64_t* alo, const int64_t* ahi, Array& b,
               const int64_t* blo, const int64_t* bhi) {
  return collective([&]() -> int {
    const LinearPatch from(a, alo, ahi, trans), to(b, blo, bhi);
    const Share share(from.elements());
    std::vector<char> values(static_cast<size_t>(share.count) * a.element());
    if (share.count > 0)
      if (int status = from.get(share.first, share.count, values.data())) return status;
    if (int status = separate_reads_from_writes(&a == &b)) return status;
    if (share.count == 0) return REMORA_SUCCESS;
    return to.put(share.first, share.count, values.data());
  });
}

int add_patch(const void* alpha, Array& a, const int64_t* alo, const int64_t* ahi, const void* beta,
              Array& b, const int64_t* blo, const int64_t* bhi, Array& c, const int64_t* clo,
              const int64_t* chi) {
  return collective([&]() -> int {
    const LinearPatch x(a, alo, ahi), y(b, blo, bhi), z(c, clo, chi);
    TwoInputs in(x, a.element());
    if (int status = in.read(x, y)) return status;
    const Share& share = in.share;
    axpby(a.type(), share.count, alpha, in.xs.data(), beta, in.ys.data(), in.xs.data());
    if (int status = separate_reads_from_writes(&c == &a || &c == &b)) return status;
    if (share.count == 0) return REMORA_SUCCESS;
    return z.put(share.first, share.count, in.xs.data());
  });
}

int dot_patch(Array& a, bool trans_a, const int64_t* alo, const int64_t* ahi, Array& b,
              bool trans_b, const int64_t* blo, const int64_t* bhi, void* result) {
  return collective([&]() -> int {
    const LinearPatch x(a, alo, ahi), y(b, blo, bhi, trans_a != trans_b);
    TwoInputs in(x, a.element());
    if (int status = in.read(x, y)) return status;
    local_dot(a.type(), in.share.count, in.xs.data(), in.ys.data(), result);
    return allreduce_world(result, 1, a.type(), REMORA_OP_SUM);
  });
}

// Each rank computes a slab of rows of C's patch: it gets the slab (scaled by beta; beta = 0
// ignores C's contents, as BLAS), then for panels of 256 along k gets op(A)[slab, panel] and
// op(B)[panel, :] as stored (a transposed operand is fetched as the transposed patch and
// passed to the local gemm with its transpose flag).
int gemm_patch(bool trans_a, bool trans_b, const void* alpha, Array& a, const int64_t* alo,
               const int64_t* ahi, Array& b, const int64_t* blo, const int64_t* /*bhi*/,
               const void* beta, Array& c, const int64_t* clo, const int64_t* chi) {
  return collective([&]() -> int {
    const int64_t m = chi[0] - clo[0] + 1, n = chi[1] - clo[1] + 1;
    const int64_t k = trans_a ? ahi[0] - alo[0] + 1 : ahi[1] - alo[1] + 1;
    int64_t first = 0, rows = 0;
    rank_share(m, &first, &rows);
    if (rows == 0) return REMORA_SUCCESS;
    const size_t e = c.element();
    const Box2 slab(clo[0] + first, clo[1], rows, n);
    std::vector<char> cs(static_cast<size_t>(rows * n) * e);
    if (int status = c.get_dense(slab.lo, slab.hi, cs.data())) return status;
    dispatch(c.type(), [&](auto zero) {
      using T = decltype(zero);
      const T s = *as<T>(beta);
      for (int64_t i = 0; i < rows * n; ++i)
        as<T>(cs.data())[i] = s == T{} ? T{} : s * as<T>(cs.data())[i];
    });
    // Panels of op(A)'s columns / op(B)'s rows bound the memory per rank.
    const int64_t panel = 256;
    std::vector<char> ap, bp;
    for (int64_t k0 = 0; k0 < k; k0 += panel) {
      const int64_t kb = std::min(panel, k - k0);
      ap.resize(static_cast<size_t>(rows * kb) * e);
      bp.resize(static_cast<size_t>(kb * n) * e);
      const Box2 a_box = trans_a ? Box2(alo[0] + k0, alo[1] + first, kb, rows)
                                 : Box2(alo[0] + first, alo[1] + k0, rows, kb);
      const Box2 b_box =
          trans_b ? Box2(blo[0], blo[1] + k0, n, kb) : Box2(blo[0] + k0, blo[1], kb, n);
      if (int status = a.get_dense(a_box.lo, a_box.hi, ap.data())) return status;
      if (int status = b.get_dense(b_box.lo, b_box.hi, bp.data())) return status;
      local_gemm(c.type(), trans_a, trans_b, rows, n, kb, alpha, ap.data(), trans_a ? rows : kb,
                 bp.data(), trans_b ? kb : n, cs.data(), n);
    }
    return c.put_dense(slab.lo, slab.hi, cs.data());
  });
}

namespace {

// Collective: each rank reads a slab of rows; by_rows: the largest row sum of |a|, else the
// largest column sum (a 1-D array is one column).
int sum_norm(Array& a, bool by_rows, double* result) {
  return collective([&]() -> int {
    const int64_t m = a.dist().dims()[0], n = a.ndim() == 2 ? a.dist().dims()[1] : 1;
    int64_t first = 0, rows = 0;
    rank_share(m, &first, &rows);
    std::vector<double> columns(static_cast<size_t>(n), 0.0);
    double largest_row = 0;
    if (rows > 0) {
      const Box2 slab(first, 0, rows, n);
      std::vector<char> values(static_cast<size_t>(rows * n) * a.element());
      if (int status = a.get_dense(slab.lo, slab.hi, values.data())) return status;
      dispatch(a.type(), [&](auto zero) {
        using T = decltype(zero);
        for (int64_t i = 0; i < rows; ++i) {
          double row = 0;
          for (int64_t j = 0; j < n; ++j) {
            const double x = magnitude(as<T>(values.data())[i * n + j]);
            row += x;
            columns[static_cast<size_t>(j)] += x;
          }
          largest_row = std::max(largest_row, row);
        }
      });
    }
    if (by_rows) {
      if (int status = allreduce_world(&largest_row, 1, REMORA_DOUBLE, REMORA_OP_MAX))
        return status;
      *result = largest_row;
      return REMORA_SUCCESS;
    }
    if (int status = allreduce_world(columns.data(), columns.size(), REMORA_DOUBLE, REMORA_OP_SUM))
      return status;
    *result = *std::max_element(columns.begin(), columns.end());
    return REMORA_SUCCESS;
  });
}

}  // namespace

int norm1(Array& a, double* result) {
  return sum_norm(a, false, result);
}

int norm_infinity(Array& a, double* result) {
  return sum_norm(a, true, result);
}

}  // namespace remora::arrays
