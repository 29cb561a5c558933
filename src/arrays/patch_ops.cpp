#include "arrays/patch_ops.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <type_traits>
#include <vector>

#include "arrays/collective_support.hpp"
#include "arrays/linear_patch.hpp"
#include "arrays/local_gemm.hpp"
#include "core/error.hpp"

namespace remora::arrays {

namespace {

// This rank's share of a sequence of n elements.
struct Share {
  int64_t first = 0, count = 0;
  Share(const Array& a, int64_t n) { rank_share(a, n, &first, &count); }
};

// Collective: each rank rewrites its share of a's patch with update(values, first, count)
// (which may return a failure status), after reading it when read is set.
template <typename Update>
int rewrite_patch(Array& a, const int64_t* lo, const int64_t* hi, bool read, Update&& update) {
  return collective(a, [&]() -> int {
    const LinearPatch patch(a, lo, hi);
    const Share share(a, patch.elements());
    if (share.count == 0) return REMORA_SUCCESS;
    std::vector<char> values(static_cast<size_t>(share.count) * a.element());
    if (read)
      if (int status = patch.get(share.first, share.count, values.data())) return status;
    if constexpr (std::is_void_v<std::invoke_result_t<Update&, void*, int64_t, int64_t>>)
      update(values.data(), share.first, share.count);
    else if (int status = update(values.data(), share.first, share.count))
      return status;
    return patch.put(share.first, share.count, values.data());
  });
}

// This rank's share of two patch sequences of equal length, read into xs and ys.
struct TwoInputs {
  Share share;
  std::vector<char> xs, ys;
  TwoInputs(const Array& a, const LinearPatch& x, size_t element)
      : share(a, x.elements()),
        xs(static_cast<size_t>(share.count) * element),
        ys(static_cast<size_t>(share.count) * element) {}
  int read(const LinearPatch& x, const LinearPatch& y) {
    if (share.count == 0) return REMORA_SUCCESS;
    if (int status = x.get(share.first, share.count, xs.data())) return status;
    return y.get(share.first, share.count, ys.data());
  }
};

// Every rank has read its inputs before any writes, when the output array is also an input.
int separate_reads_from_writes(Array& a, bool aliased) {
  return aliased ? a.barrier() : REMORA_SUCCESS;
}

// Collective: c[patch] = combine(a[patch], b[patch]) share by share; combine(xs, ys, first,
// count) writes its result into xs and may return a failure status. Every rank joins the
// barrier between reads and writes (when c is also an input) even after a failure.
template <typename Combine>
int combine_patches(Array& a, const int64_t* alo, const int64_t* ahi, Array& b, const int64_t* blo,
                    const int64_t* bhi, Array& c, const int64_t* clo, const int64_t* chi,
                    Combine&& combine) {
  return collective(a, [&]() -> int {
    const LinearPatch x(a, alo, ahi), y(b, blo, bhi), z(c, clo, chi);
    TwoInputs in(a, x, a.element());
    int status = in.read(x, y);
    if (status == REMORA_SUCCESS)
      status = combine(in.xs.data(), in.ys.data(), in.share.first, in.share.count);
    const int separated = separate_reads_from_writes(a, &c == &a || &c == &b);
    if (status != REMORA_SUCCESS) return status;
    if (separated != REMORA_SUCCESS) return separated;
    if (in.share.count == 0) return REMORA_SUCCESS;
    return z.put(in.share.first, in.share.count, in.xs.data());
  });
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
  return collective(a, [&]() -> int {
    const LinearPatch from(a, alo, ahi, trans), to(b, blo, bhi);
    const Share share(a, from.elements());
    std::vector<char> values(static_cast<size_t>(share.count) * a.element());
    const int status =
        share.count > 0 ? from.get(share.first, share.count, values.data()) : REMORA_SUCCESS;
    const int separated = separate_reads_from_writes(a, &a == &b);  // every rank joins it
    if (status != REMORA_SUCCESS) return status;
    if (separated != REMORA_SUCCESS) return separated;
    if (share.count == 0) return REMORA_SUCCESS;
    return to.put(share.first, share.count, values.data());
  });
}

int add_patch(const void* alpha, Array& a, const int64_t* alo, const int64_t* ahi, const void* beta,
              Array& b, const int64_t* blo, const int64_t* bhi, Array& c, const int64_t* clo,
              const int64_t* chi) {
  return combine_patches(a, alo, ahi, b, blo, bhi, c, clo, chi,
                         [&](void* xs, const void* ys, int64_t, int64_t count) {
                           axpby(a.type(), count, alpha, xs, beta, ys, xs);
                           return REMORA_SUCCESS;
                         });
}

int dot_patch(Array& a, bool trans_a, const int64_t* alo, const int64_t* ahi, Array& b,
              bool trans_b, const int64_t* blo, const int64_t* bhi, void* result) {
  return collective(a, [&]() -> int {
    const LinearPatch x(a, alo, ahi), y(b, blo, bhi, trans_a != trans_b);
    TwoInputs in(a, x, a.element());
    if (int status = in.read(x, y)) return status;
    local_dot(a.type(), in.share.count, in.xs.data(), in.ys.data(), result);
    return allreduce("remora_array_dot_patch", a, result, 1, a.type(), REMORA_OP_SUM);
  });
}

// Each rank computes a slab of rows of C's patch: it gets the slab (scaled by beta; beta = 0
// ignores C's contents, as BLAS), then for panels of 256 along k gets op(A)[slab, panel] and
// op(B)[panel, :] as stored (a transposed operand is fetched as the transposed patch and
// passed to the local gemm with its transpose flag).
int gemm_patch(bool trans_a, bool trans_b, const void* alpha, Array& a, const int64_t* alo,
               const int64_t* ahi, Array& b, const int64_t* blo, const int64_t* /*bhi*/,
               const void* beta, Array& c, const int64_t* clo, const int64_t* chi) {
  return collective(c, [&]() -> int {
    const int64_t m = chi[0] - clo[0] + 1, n = chi[1] - clo[1] + 1;
    const int64_t k = trans_a ? ahi[0] - alo[0] + 1 : ahi[1] - alo[1] + 1;
    int64_t first = 0, rows = 0;
    rank_share(c, m, &first, &rows);
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

int abs_value_patch(Array& a, const int64_t* lo, const int64_t* hi) {
  return rewrite_patch(a, lo, hi, true, [&](void* values, int64_t, int64_t count) {
    dispatch(a.type(), [&](auto zero) {
      using T = decltype(zero);
      T* x = as<T>(values);
      for (int64_t i = 0; i < count; ++i) {
        if constexpr (requires { zero.imag(); })
          x[i] = T(std::abs(x[i]));  // GA: the magnitude, imaginary part 0
        else
          x[i] = x[i] < T(0) ? T(0) - x[i] : x[i];
      }
    });
  });
}

int recip_patch(Array& a, const int64_t* lo, const int64_t* hi) {
  return rewrite_patch(a, lo, hi, true, [&](void* values, int64_t first, int64_t count) -> int {
    return dispatch(a.type(), [&](auto zero) -> int {
      using T = decltype(zero);
      T* x = as<T>(values);
      for (int64_t i = 0; i < count; ++i) {
        if (x[i] == T{})
          return fail(REMORA_ERR_ARG,
                      "remora_array_recip_patch: element %lld of the patch (row-major) of '%s' is "
                      "zero",
                      static_cast<long long>(first + i), a.name().c_str());
        x[i] = T(1) / x[i];
      }
      return REMORA_SUCCESS;
    });
  });
}

int elem_patch(int op, Array& a, const int64_t* alo, const int64_t* ahi, Array& b,
               const int64_t* blo, const int64_t* bhi, Array& c, const int64_t* clo,
               const int64_t* chi) {
  return combine_patches(
      a, alo, ahi, b, blo, bhi, c, clo, chi,
      [&](void* xs, const void* ys, int64_t first, int64_t count) -> int {
        return dispatch(a.type(), [&](auto zero) -> int {
          using T = decltype(zero);
          T* x = as<T>(xs);
          const T* y = as<T>(ys);
          for (int64_t i = 0; i < count; ++i) {
            if (op == REMORA_ELEM_MULTIPLY) {
              x[i] *= y[i];
            } else if (op == REMORA_ELEM_DIVIDE) {
              if (y[i] == T{})
                return fail(REMORA_ERR_ARG,
                            "remora_array_elem_patch: division by zero: element %lld of b's "
                            "patch (row-major) in '%s' is zero",
                            static_cast<long long>(first + i), b.name().c_str());
              x[i] /= y[i];
            } else if constexpr (requires { zero.imag(); }) {
              // GA's rule: the element of larger (maximum) or smaller (minimum) magnitude, b's
              // on a tie, a's when both are zero.
              const auto ma = std::abs(x[i]), mb = std::abs(y[i]);
              const bool keep_a = op == REMORA_ELEM_MAXIMUM ? ma > mb : ma < mb;
              if (!keep_a && !(ma == 0 && mb == 0)) x[i] = y[i];
            } else {
              x[i] = op == REMORA_ELEM_MAXIMUM ? std::max(x[i], y[i]) : std::min(x[i], y[i]);
            }
          }
          return REMORA_SUCCESS;
        });
      });
}

namespace {

// Collective: each rank reads a slab of rows; by_rows: the largest row sum of |a|, else the
// largest column sum (a 1-D array is one column).
int sum_norm(Array& a, bool by_rows, double* result) {
  return collective(a, [&]() -> int {
    const int64_t m = a.dist().dims()[0], n = a.ndim() == 2 ? a.dist().dims()[1] : 1;
    int64_t first = 0, rows = 0;
    rank_share(a, m, &first, &rows);
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
      if (int status = allreduce("remora_array_norm_infinity", a, &largest_row, 1, REMORA_DOUBLE,
                                 REMORA_OP_MAX))
        return status;
      *result = largest_row;
      return REMORA_SUCCESS;
    }
    if (int status = allreduce("remora_array_norm1", a, columns.data(), columns.size(),
                               REMORA_DOUBLE, REMORA_OP_SUM))
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
