#include "arrays/collective_ops.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

#include "arrays/collective_support.hpp"
#include "arrays/element_types.hpp"
#include "arrays/patch_ops.hpp"
#include "arrays/sync_tracker.hpp"

namespace remora::arrays {

namespace {

// This rank's slab of an array: rows of dimension 0, everything of the others.
struct Slab {
  int64_t lo[REMORA_ARRAY_MAX_DIM] = {}, hi[REMORA_ARRAY_MAX_DIM] = {};
  int64_t elements = 0;
  explicit Slab(const Array& a) {
    const Distribution& dist = a.dist();
    int64_t first = 0, count = 0;
    rank_share(a, dist.dims()[0], &first, &count);
    lo[0] = first;
    hi[0] = first + count - 1;
    elements = count;
    for (int d = 1; d < dist.ndim(); ++d) {
      hi[d] = dist.dims()[static_cast<size_t>(d)] - 1;
      elements *= dist.dims()[static_cast<size_t>(d)];
    }
  }
};

}  // namespace

int sync_all(const Context& context) {
  if (int status = sync_tracker().flush_dirty()) return status;
  return context.world_barrier.run();
}

int fill(Array& a, const void* value) {
  return collective(a, [&]() -> int {
    const int64_t n = a.dist().local_elements(a.comm_rank());
    if (value == nullptr) {
      std::memset(a.local(), 0, static_cast<size_t>(n) * a.element());
      return REMORA_SUCCESS;
    }
    dispatch(a.type(), [&](auto zero) {
      using T = decltype(zero);
      std::fill(as<T>(a.local()), as<T>(a.local()) + n, *as<T>(value));
    });
    return REMORA_SUCCESS;
  });
}

int scale(Array& a, const void* alpha) {
  return collective(a, [&]() -> int {
    const int64_t n = a.dist().local_elements(a.comm_rank());
    dispatch(a.type(), [&](auto zero) {
      using T = decltype(zero);
      const T s = *as<T>(alpha);
      for (int64_t i = 0; i < n; ++i) as<T>(a.local())[i] *= s;
    });
    return REMORA_SUCCESS;
  });
}

int copy(Array& a, Array& b) {
  return collective(a, [&]() -> int {
    if (a.dist().same_layout(b.dist())) {
      std::memcpy(b.local(), a.local(),
                  static_cast<size_t>(a.dist().local_elements(a.comm_rank())) * a.element());
      return REMORA_SUCCESS;
    }
    const Slab slab(a);
    if (slab.elements == 0) return REMORA_SUCCESS;
    std::vector<char> buffer(static_cast<size_t>(slab.elements) * a.element());
    if (int status = a.get_dense(slab.lo, slab.hi, buffer.data())) return status;
    return b.put_dense(slab.lo, slab.hi, buffer.data());
  });
}

int add(const void* alpha, Array& a, const void* beta, Array& b, Array& c) {
  return collective(a, [&]() -> int {
    if (a.dist().same_layout(c.dist()) && b.dist().same_layout(c.dist())) {
      axpby(a.type(), a.dist().local_elements(a.comm_rank()), alpha, a.local(), beta, b.local(),
            c.local());
      return REMORA_SUCCESS;
    }
    const Slab slab(a);
    if (slab.elements == 0) return REMORA_SUCCESS;
    const size_t bytes = static_cast<size_t>(slab.elements) * a.element();
    std::vector<char> x(bytes), y(bytes);
    if (int status = a.get_dense(slab.lo, slab.hi, x.data())) return status;
    if (int status = b.get_dense(slab.lo, slab.hi, y.data())) return status;
    axpby(a.type(), slab.elements, alpha, x.data(), beta, y.data(), x.data());
    return c.put_dense(slab.lo, slab.hi, x.data());
  });
}

int dot(Array& a, Array& b, void* result) {
  return collective(a, [&]() -> int {
    if (a.dist().same_layout(b.dist())) {
      local_dot(a.type(), a.dist().local_elements(a.comm_rank()), a.local(), b.local(), result);
    } else {
      const Slab slab(a);
      const size_t bytes = static_cast<size_t>(slab.elements) * a.element();
      std::vector<char> x(bytes), y(bytes);
      if (slab.elements > 0) {
        if (int status = a.get_dense(slab.lo, slab.hi, x.data())) return status;
        if (int status = b.get_dense(slab.lo, slab.hi, y.data())) return status;
      }
      local_dot(a.type(), slab.elements, x.data(), y.data(), result);
    }
    return allreduce("remora_array_dot", a, result, 1, a.type(), REMORA_OP_SUM);
  });
}

int norm(Array& a, double* result) {
  return collective(a, [&]() -> int {
    const int64_t n = a.dist().local_elements(a.comm_rank());
    double sum = 0;
    dispatch(a.type(), [&](auto zero) {
      using T = decltype(zero);
      for (int64_t i = 0; i < n; ++i) sum += magnitude_squared(as<T>(a.local())[i]);
    });
    if (int status = allreduce("remora_array_norm", a, &sum, 1, REMORA_DOUBLE, REMORA_OP_SUM))
      return status;
    *result = std::sqrt(sum);
    return REMORA_SUCCESS;
  });
}

// out (cols x rows) = in (rows x cols) transposed, elements of size bytes.
static void transpose_block(const char* in, char* out, int64_t rows, int64_t cols, size_t size) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      std::memcpy(out + static_cast<size_t>(j * rows + i) * size,
                  in + static_cast<size_t>(i * cols + j) * size, size);
}

int transpose(Array& a, Array& b) {
  return collective(a, [&]() -> int {
    const Slab slab(a);
    if (slab.elements == 0) return REMORA_SUCCESS;
    const int64_t rows = slab.hi[0] - slab.lo[0] + 1, cols = a.dist().dims()[1];
    std::vector<char> in(static_cast<size_t>(slab.elements) * a.element()), out(in.size());
    if (int status = a.get_dense(slab.lo, slab.hi, in.data())) return status;
    transpose_block(in.data(), out.data(), rows, cols, a.element());
    const int64_t lo[2] = {0, slab.lo[0]}, hi[2] = {cols - 1, slab.hi[0]};
    return b.put_dense(lo, hi, out.data());
  });
}

int symmetrize(Array& a) {
  return collective(a, [&]() -> int {
    const Slab slab(a);
    const int64_t rows = slab.hi[0] - slab.lo[0] + 1, n = a.dist().dims()[0];
    const size_t bytes = static_cast<size_t>(slab.elements) * a.element();
    std::vector<char> mine(bytes), column(bytes), mirrored(bytes);
    if (slab.elements > 0) {
      const int64_t lo[2] = {0, slab.lo[0]}, hi[2] = {n - 1, slab.hi[0]};
      if (int status = a.get_dense(slab.lo, slab.hi, mine.data())) return status;
      if (int status = a.get_dense(lo, hi, column.data())) return status;
      transpose_block(column.data(), mirrored.data(), n, rows, a.element());
    }
    // Every rank has read what it needs before anybody writes.
    if (int status = a.barrier()) return status;
    if (slab.elements == 0) return REMORA_SUCCESS;
    dispatch(a.type(), [&](auto zero) {
      using T = decltype(zero);
      const T half = T(1) / T(2);
      for (int64_t i = 0; i < slab.elements; ++i)
        as<T>(mine.data())[i] = half * (as<T>(mine.data())[i] + as<T>(mirrored.data())[i]);
    });
    return a.put_dense(slab.lo, slab.hi, mine.data());
  });
}

template <typename T>
static void print_element(FILE* stream, const T& x) {
  if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>)
    std::fprintf(stream, " %lld", static_cast<long long>(x));
  else if constexpr (std::is_floating_point_v<T>)
    std::fprintf(stream, " %.6g", static_cast<double>(x));
  else
    std::fprintf(stream, " (%.6g,%.6g)", static_cast<double>(x.real()),
                 static_cast<double>(x.imag()));
}

int print_patch(Array& a, const int64_t* lo, const int64_t* hi, FILE* stream) {
  return collective(a, [&]() -> int {
    if (a.comm_rank() != 0) return REMORA_SUCCESS;
    const int ndim = a.ndim();
    int64_t elements = 1;
    for (int d = 0; d < ndim; ++d) elements *= hi[d] - lo[d] + 1;
    std::vector<char> buffer(static_cast<size_t>(elements) * a.element());
    if (int status = a.get_dense(lo, hi, buffer.data())) return status;
    const int64_t row = hi[ndim - 1] - lo[ndim - 1] + 1;
    std::fprintf(stream, "array '%s' patch", a.name().c_str());
    for (int d = 0; d < ndim; ++d)
      std::fprintf(stream, "%s%lld:%lld", d == 0 ? " [" : ",", static_cast<long long>(lo[d]),
                   static_cast<long long>(hi[d]));
    std::fprintf(stream, "]\n");
    dispatch(a.type(), [&](auto zero) {
      using T = decltype(zero);
      for (int64_t r = 0; r < elements / row; ++r) {
        // The row's index in every dimension but the last.
        int64_t rest = r;
        int64_t index[REMORA_ARRAY_MAX_DIM] = {};
        for (int d = ndim - 2; d >= 0; --d) {
          const int64_t extent = hi[d] - lo[d] + 1;
          index[d] = lo[d] + rest % extent;
          rest /= extent;
        }
        for (int d = 0; d + 1 < ndim; ++d)
          std::fprintf(stream, "%s%lld", d == 0 ? "(" : ",", static_cast<long long>(index[d]));
        std::fprintf(stream, "%s", ndim > 1 ? ")" : "");
        for (int64_t j = 0; j < row; ++j) print_element(stream, as<T>(buffer.data())[r * row + j]);
        std::fprintf(stream, "\n");
      }
    });
    std::fflush(stream);
    return REMORA_SUCCESS;
  });
}

int gemm(bool trans_a, bool trans_b, const void* alpha, Array& a, Array& b, const void* beta,
         Array& c) {
  const int64_t zero[2] = {0, 0};
  const int64_t a_hi[2] = {a.dist().dims()[0] - 1, a.dist().dims()[1] - 1};
  const int64_t b_hi[2] = {b.dist().dims()[0] - 1, b.dist().dims()[1] - 1};
  const int64_t c_hi[2] = {c.dist().dims()[0] - 1, c.dist().dims()[1] - 1};
  return gemm_patch(trans_a, trans_b, alpha, a, zero, a_hi, b, zero, b_hi, beta, c, zero, c_hi);
}

}  // namespace remora::arrays
