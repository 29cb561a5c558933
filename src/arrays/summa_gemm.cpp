#include "arrays/summa_gemm.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "arrays/collective_ops.hpp"
#include "arrays/collective_support.hpp"
#include "arrays/element_types.hpp"
#include "arrays/local_gemm.hpp"
#include "remora/runtime.h"

namespace remora::arrays {

namespace {

// Columns of op(A) / rows of op(B) per step: bounds the panels' memory.
constexpr int64_t kPanel = 256;

// The runs of every index of dimension d that grid coordinate coord stores, in local order,
// each of consecutive global indices (a strided run, block size 1, becomes one run per index).
std::vector<Run> my_runs(const Distribution& dist, int d, int coord) {
  std::vector<Run> out;
  for (const Run& run : dist.runs(d, coord, 0, dist.dims()[static_cast<size_t>(d)] - 1)) {
    if (run.step == 1) {
      out.push_back(run);
      continue;
    }
    for (int64_t i = 0; i < run.length; ++i)
      out.push_back(Run{run.global_start + i * run.step, 1, 1, run.local_start + i});
  }
  return out;
}

// Whether some coordinate of dimension d stores indices that are not consecutive: then SUMMA
// fetches its panels one row or column at a time.
bool strided(const Distribution& dist, int d) {
  for (const Run& run : dist.runs(d, 0, 0, dist.dims()[static_cast<size_t>(d)] - 1))
    if (run.step != 1) return true;
  return false;
}

// Gets op(X)[rows, k0..k0+kb-1] (by_rows: the runs select op(X)'s rows) or
// op(X)[k0..k0+kb-1, columns] (otherwise) into panel, laid out as X stores it: a row-major
// matrix whose non-panel extent is `extent`, each run at its local position.
int get_panel(Array& x, bool transposed, bool by_rows, const std::vector<Run>& runs, int64_t extent,
              int64_t k0, int64_t kb, char* panel) {
  const size_t e = x.element();
  // Whether the runs index the stored matrix's rows (else its columns).
  const bool runs_are_stored_rows = by_rows != transposed;
  for (const Run& run : runs) {
    int64_t lo[2], hi[2], ld[2] = {0, 1};
    size_t offset = 0;
    if (runs_are_stored_rows) {
      lo[0] = run.global_start, hi[0] = run.global_start + run.length - 1;
      lo[1] = k0, hi[1] = k0 + kb - 1;
      ld[0] = kb;
      offset = static_cast<size_t>(run.local_start * kb) * e;
    } else {
      lo[0] = k0, hi[0] = k0 + kb - 1;
      lo[1] = run.global_start, hi[1] = run.global_start + run.length - 1;
      ld[0] = extent;
      offset = static_cast<size_t>(run.local_start) * e;
    }
    if (int status = x.get(lo, hi, panel + offset, ld)) return status;
  }
  return REMORA_SUCCESS;
}

int multiply_local(bool trans_a, bool trans_b, const void* alpha, Array& a, Array& b,
                   const void* beta, Array& c) {
  const Distribution& dist = c.dist();
  const std::vector<int> coords = dist.coords(c.comm_rank());
  if (coords.empty() || coords[0] < 0) return REMORA_SUCCESS;  // outside C's grid
  const std::vector<Run> rows = my_runs(dist, 0, coords[0]);
  const std::vector<Run> cols = my_runs(dist, 1, coords[1]);
  const int64_t m = dist.local_extent(c.comm_rank(), 0), n = dist.local_extent(c.comm_rank(), 1);
  if (m == 0 || n == 0) return REMORA_SUCCESS;
  const int64_t k = trans_a ? a.dist().dims()[0] : a.dist().dims()[1];
  char* local = c.local();
  dispatch(c.type(), [&](auto zero) {
    using T = decltype(zero);
    const T s = *static_cast<const T*>(beta);
    T* x = reinterpret_cast<T*>(local);
    for (int64_t i = 0; i < m * n; ++i) x[i] = s == T{} ? T{} : s * x[i];
  });
  const size_t e = c.element();
  std::vector<char> ap, bp;
  for (int64_t k0 = 0; k0 < k; k0 += kPanel) {
    const int64_t kb = std::min(kPanel, k - k0);
    ap.resize(static_cast<size_t>(m * kb) * e);
    bp.resize(static_cast<size_t>(kb * n) * e);
    if (int status = get_panel(a, trans_a, true, rows, m, k0, kb, ap.data())) return status;
    if (int status = get_panel(b, trans_b, false, cols, n, k0, kb, bp.data())) return status;
    local_gemm(c.type(), trans_a, trans_b, m, n, kb, alpha, ap.data(), trans_a ? m : kb, bp.data(),
               trans_b ? kb : n, local, n);
  }
  return REMORA_SUCCESS;
}

}  // namespace

bool summa_applies(const Array& c) {
  return c.dist().store() == nullptr;
}

bool summa_suits(const Array& c) {
  return summa_applies(c) && !strided(c.dist(), 0) && !strided(c.dist(), 1);
}

int summa_gemm(bool trans_a, bool trans_b, const void* alpha, Array& a, Array& b, const void* beta,
               Array& c) {
  // The closing sync completes everyone's direct stores into its local C before anyone reads C.
  return collective(c, [&] { return multiply_local(trans_a, trans_b, alpha, a, b, beta, c); });
}

}  // namespace remora::arrays
