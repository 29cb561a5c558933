// GA 5.9's sparse arrays (NGA_Sprs_array_*): 2-D sparse matrices built element by element and
// assembled into GA's layout. Rows are split into one contiguous block per process of the
// group the array was created on (row i belongs to process (i*nproc)/idim), columns into the
// same number of blocks by the same rule, and each process keeps its row block as one
// compressed-sparse-row (CSR) block per column block that holds entries. Row offsets of a block
// start at 0 and have rhi-rlo+2 entries; column indices are absolute. After assembly the
// entries of a row are in increasing column order and entries added more than once at one
// (i, j) are summed into one.
//
// The data lives in this process's memory; the collectives (assemble, matvec, matmat, ...)
// exchange it over the group's MPI communicator and read / write the dense vectors through
// the GA API.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "ga-mpi.h"
#include "ga/ga_registry.hpp"
#include "ga/ga_sparse_array.hpp"

using namespace remora::ga;

namespace {

// GA numbers sparse arrays from -1000 upwards (slot - 1000), as GA_OFFSET makes it.
constexpr int kHandleOffset = 1000;

struct Block {                      // one CSR block of this process's row block
  std::vector<int64_t> rows;        // nrows + 1 offsets
  std::vector<int64_t> cols;        // absolute column indices
  std::vector<char> vals;           // elements, esize bytes each
  std::vector<int> rows32, cols32;  // int copies for arrays made by NGA_Sprs_array_create
};

struct Sparse {
  int type = 0;
  size_t esize = 0;
  bool idx64 = true;
  int64_t idim = 0, jdim = 0;
  int grp = kWorldGroup;
  int nproc = 1, me = 0;
  MPI_Comm comm = MPI_COMM_NULL;
  bool ready = false;
  // Before assembly: the elements this process added.
  std::vector<int64_t> ai, aj;
  std::vector<char> av;
  // After assembly: this process's rows and one block per column block.
  int64_t ilo = 0, ihi = -1;
  std::vector<Block> blocks;
  // The blocks published for NGA_Sprs_array_get_block (any process reads any block): GA arrays
  // of the group holding every process's row offsets, column indices and values one after
  // the other, and a table of where block (irow, icol) starts in them. 0: not published.
  int g_rows = 0, g_cols = 0, g_vals = 0, g_table = 0;
};

std::vector<std::unique_ptr<Sparse>>& table() {
  static std::vector<std::unique_ptr<Sparse>> t;
  return t;
}

size_t type_size(int type) {
  switch (type) {
    case C_INT:
      return sizeof(int);
    case C_LONG:
      return sizeof(long);
    case C_LONGLONG:
      return sizeof(long long);
    case C_FLOAT:
      return sizeof(float);
    case C_DBL:
      return sizeof(double);
    case C_SCPL:
      return sizeof(std::complex<float>);
    case C_DCPL:
      return sizeof(std::complex<double>);
    default:
      return 0;
  }
}

// Calls body(T{}) with T the C type of GA type code `type` (checked at creation).
template <typename Body>
void with_type(int type, Body body) {
  switch (type) {
    case C_INT:
      body(int{});
      break;
    case C_LONG:
      body(long{});
      break;
    case C_LONGLONG:
      body(static_cast<long long>(0));
      break;
    case C_FLOAT:
      body(float{});
      break;
    case C_DBL:
      body(double{});
      break;
    case C_SCPL:
      body(std::complex<float>{});
      break;
    default:
      body(std::complex<double>{});
      break;
  }
}

Sparse& lookup_sparse(const char* fn, int s_a) {
  require_initialized(fn);
  const long slot = static_cast<long>(s_a) + kHandleOffset;
  std::lock_guard<std::mutex> lock(state_mutex());
  auto& t = table();
  if (slot < 0 || slot >= static_cast<long>(t.size()) || !t[static_cast<size_t>(slot)])
    ga_fail(fn, "s_a=%d is not a sparse array handle (never created, or destroyed)", s_a);
  return *t[static_cast<size_t>(slot)];
}

Sparse& lookup_ready(const char* fn, int s_a, bool ready = true) {
  Sparse& s = lookup_sparse(fn, s_a);
  if (ready && !s.ready)
    ga_fail(fn, "sparse array s_a=%d is not assembled yet (call NGA_Sprs_array_assemble)", s_a);
  if (!ready && s.ready)
    ga_fail(fn, "sparse array s_a=%d is already assembled: elements are added before", s_a);
  return s;
}

int new_sparse(std::unique_ptr<Sparse> s) {
  std::lock_guard<std::mutex> lock(state_mutex());
  auto& t = table();
  for (size_t i = 0; i < t.size(); ++i)
    if (!t[i]) {
      t[i] = std::move(s);
      return static_cast<int>(i) - kHandleOffset;
    }
  t.push_back(std::move(s));
  return static_cast<int>(t.size() - 1) - kHandleOffset;
}

// First index of block p when dim indices go to n blocks, index k to block (k*n)/dim.
int64_t block_lo(int64_t dim, int n, int64_t p) {
  if (p >= n) return dim;
  return (p * dim + n - 1) / n;
}
int owner(int64_t dim, int n, int64_t k) {
  int64_t p = k * n / dim;
  return static_cast<int>(p < n ? p : n - 1);
}

std::unique_ptr<Sparse> make(const char* fn, int64_t idim, int64_t jdim, int type, bool idx64) {
  require_initialized(fn);
  if (idim <= 0) ga_fail(fn, "idim=%lld: the row dimension must be positive", (long long)idim);
  if (jdim <= 0) ga_fail(fn, "jdim=%lld: the column dimension must be positive", (long long)jdim);
  if (!idx64 && (idim > INT32_MAX || jdim > INT32_MAX))
    ga_fail(fn, "idim=%lld, jdim=%lld do not fit int indices", (long long)idim, (long long)jdim);
  const size_t esize = type_size(type);
  if (esize == 0)
    ga_fail(fn,
            "type=%d is not a sparse array type (C_INT, C_LONG, C_LONGLONG, C_FLOAT, C_DBL, "
            "C_SCPL, C_DCPL)",
            type);
  auto s = std::make_unique<Sparse>();
  s->type = type;
  s->esize = esize;
  s->idx64 = idx64;
  s->idim = idim;
  s->jdim = jdim;
  s->grp = GA_Pgroup_get_default();
  s->nproc = GA_Pgroup_nnodes(s->grp);
  s->me = GA_Pgroup_nodeid(s->grp);
  s->comm = GA_MPI_Comm_pgroup(s->grp);
  s->ilo = block_lo(idim, s->nproc, s->me);
  s->ihi = block_lo(idim, s->nproc, s->me + 1) - 1;
  return s;
}

void refresh32(Sparse& s) {
  if (s.idx64) return;
  for (Block& b : s.blocks) {
    b.rows32.assign(b.rows.begin(), b.rows.end());
    b.cols32.assign(b.cols.begin(), b.cols.end());
  }
}

// Rebuilds this process's blocks from triplets of its rows (any order, duplicates summed).
template <typename T>
void build(Sparse& s, const std::vector<int64_t>& ti, const std::vector<int64_t>& tj,
           const std::vector<T>& tv) {
  std::vector<size_t> order(ti.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const int ba = owner(s.jdim, s.nproc, tj[a]), bb = owner(s.jdim, s.nproc, tj[b]);
    if (ba != bb) return ba < bb;
    if (ti[a] != ti[b]) return ti[a] < ti[b];
    return tj[a] < tj[b];
  });
  const int64_t nrows = s.ihi - s.ilo + 1;
  s.blocks.assign(static_cast<size_t>(s.nproc), Block{});
  std::vector<std::vector<T>> vals(static_cast<size_t>(s.nproc));
  for (size_t n = 0; n < order.size();) {
    const size_t k = order[n];
    T sum = tv[k];
    size_t m = n + 1;
    while (m < order.size() && ti[order[m]] == ti[k] && tj[order[m]] == tj[k])
      sum += tv[order[m++]];
    const auto blk = static_cast<size_t>(owner(s.jdim, s.nproc, tj[k]));
    Block& b = s.blocks[blk];
    if (b.rows.empty()) b.rows.assign(static_cast<size_t>(nrows + 1), 0);
    b.rows[static_cast<size_t>(ti[k] - s.ilo + 1)]++;
    b.cols.push_back(tj[k]);
    vals[blk].push_back(sum);
    n = m;
  }
  for (size_t blk = 0; blk < s.blocks.size(); ++blk) {
    Block& b = s.blocks[blk];
    for (size_t r = 1; r < b.rows.size(); ++r) b.rows[r] += b.rows[r - 1];
    b.vals.resize(vals[blk].size() * sizeof(T));
    if (!vals[blk].empty()) std::memcpy(b.vals.data(), vals[blk].data(), b.vals.size());
  }
  refresh32(s);
}

// This process's entries as triplets.
template <typename T>
void triplets(const Sparse& s, std::vector<int64_t>& ti, std::vector<int64_t>& tj,
              std::vector<T>& tv) {
  for (const Block& b : s.blocks) {
    if (b.rows.empty()) continue;
    for (size_t r = 0; r + 1 < b.rows.size(); ++r)
      for (int64_t k = b.rows[r]; k < b.rows[r + 1]; ++k) {
        ti.push_back(s.ilo + static_cast<int64_t>(r));
        tj.push_back(b.cols[static_cast<size_t>(k)]);
        T v;
        std::memcpy(&v, b.vals.data() + static_cast<size_t>(k) * sizeof(T), sizeof v);
        tv.push_back(v);
      }
  }
}

// Sends each process the items destined to it; returns what this process received.
template <typename Item>
std::vector<Item> swap_items(const Sparse& s, const std::vector<std::vector<Item>>& out) {
  const auto n = static_cast<size_t>(s.nproc);
  std::vector<long long> scount(n), rcount(n);
  for (size_t p = 0; p < n; ++p) scount[p] = static_cast<long long>(out[p].size() * sizeof(Item));
  MPI_Alltoall(scount.data(), 1, MPI_LONG_LONG, rcount.data(), 1, MPI_LONG_LONG, s.comm);
  std::vector<MPI_Aint> sdispl(n), rdispl(n);
  std::vector<char> sendbuf, recvbuf;
  MPI_Aint stotal = 0, rtotal = 0;
  for (size_t p = 0; p < n; ++p) {
    sdispl[p] = stotal;
    rdispl[p] = rtotal;
    stotal += static_cast<MPI_Aint>(scount[p]);
    rtotal += static_cast<MPI_Aint>(rcount[p]);
  }
  sendbuf.resize(static_cast<size_t>(stotal));
  for (size_t p = 0; p < n; ++p)
    if (!out[p].empty())
      std::memcpy(sendbuf.data() + sdispl[p], out[p].data(), out[p].size() * sizeof(Item));
  recvbuf.resize(static_cast<size_t>(rtotal));
  // Point-to-point, so counts above INT_MAX bytes need no large-count collectives.
  std::vector<MPI_Request> requests;
  for (size_t p = 0; p < n; ++p) {
    for (long long off = 0; off < rcount[p]; off += (1 << 30)) {
      requests.emplace_back();
      MPI_Irecv(recvbuf.data() + rdispl[p] + off,
                static_cast<int>(std::min<long long>(rcount[p] - off, 1 << 30)), MPI_BYTE,
                static_cast<int>(p), 0, s.comm, &requests.back());
    }
  }
  for (size_t p = 0; p < n; ++p) {
    for (long long off = 0; off < scount[p]; off += (1 << 30)) {
      requests.emplace_back();
      MPI_Isend(sendbuf.data() + sdispl[p] + off,
                static_cast<int>(std::min<long long>(scount[p] - off, 1 << 30)), MPI_BYTE,
                static_cast<int>(p), 0, s.comm, &requests.back());
    }
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  std::vector<Item> in(recvbuf.size() / sizeof(Item));
  if (!in.empty()) std::memcpy(in.data(), recvbuf.data(), in.size() * sizeof(Item));
  return in;
}

struct Ask {  // a request for row k of B from process `from`
  int64_t from, k;
};

template <typename T>
struct Triplet {
  int64_t i, j;
  T v;
};

template <typename T>
void assemble_typed(Sparse& s) {
  std::vector<std::vector<Triplet<T>>> out(static_cast<size_t>(s.nproc));
  for (size_t k = 0; k < s.ai.size(); ++k) {
    T v;
    std::memcpy(&v, s.av.data() + k * sizeof(T), sizeof v);
    out[static_cast<size_t>(owner(s.idim, s.nproc, s.ai[k]))].push_back({s.ai[k], s.aj[k], v});
  }
  const std::vector<Triplet<T>> in = swap_items(s, out);
  std::vector<int64_t> ti, tj;
  std::vector<T> tv;
  for (const auto& t : in) {
    ti.push_back(t.i);
    tj.push_back(t.j);
    tv.push_back(t.v);
  }
  build(s, ti, tj, tv);
  s.ai.clear();
  s.aj.clear();
  s.av.clear();
  s.ai.shrink_to_fit();
  s.aj.shrink_to_fit();
  s.av.shrink_to_fit();
}

// A 1-D GA array of the sparse array's type and group with `length` elements.
void check_vector(const char* fn, const Sparse& s, const char* name, int g, int64_t length) {
  int type = 0, ndim = 0;
  int64_t dims[GA_MAX_DIM] = {};
  NGA_Inquire64(g, &type, &ndim, dims);
  if (ndim != 1)
    ga_fail(fn, "%s=%d has %d dimensions; a vector (1-D array) is required", name, g, ndim);
  if (dims[0] != length)
    ga_fail(fn, "%s=%d has %lld elements; the sparse array needs %lld", name, g, (long long)dims[0],
            (long long)length);
  if (type != s.type)
    ga_fail(fn, "%s=%d has type %d but the sparse array has type %d: they must match", name, g,
            type, s.type);
  if (NGA_Get_pgroup(g) != s.grp)
    ga_fail(fn, "%s=%d lives on process group %d, the sparse array on group %d", name, g,
            NGA_Get_pgroup(g), s.grp);
}

template <typename T>
std::vector<T> get_range(int g, int64_t lo, int64_t hi) {
  std::vector<T> v(lo <= hi ? static_cast<size_t>(hi - lo + 1) : 0);
  if (lo <= hi) {
    int64_t ld[1] = {1};
    NGA_Get64(g, &lo, &hi, v.data(), ld);
  }
  return v;
}

template <typename T>
void put_range(int g, int64_t lo, int64_t hi, std::vector<T>& v) {
  if (lo <= hi) {
    int64_t ld[1] = {1};
    NGA_Put64(g, &lo, &hi, v.data(), ld);
  }
}

template <typename T>
T* values(Block& b) {
  return reinterpret_cast<T*>(b.vals.data());
}

int64_t col_lo(const Sparse& s, size_t blk) {
  return block_lo(s.jdim, s.nproc, static_cast<int64_t>(blk));
}

void unpublish(Sparse& s) {
  for (int* g : {&s.g_rows, &s.g_cols, &s.g_vals, &s.g_table})
    if (*g != 0) {
      GA_Destroy(*g);
      *g = 0;
    }
}

// A 1-D array of the group: process p holds counts[p] elements, plus one so that no block of
// the irregular distribution is empty. Returns the handle; starts[p] is p's first element.
int padded_array(const Sparse& s, int type, const std::vector<int64_t>& counts,
                 std::vector<int64_t>& starts) {
  starts.assign(counts.size(), 0);
  int64_t total = 0;
  for (size_t p = 0; p < counts.size(); ++p) {
    starts[p] = total;
    total += counts[p] + 1;
  }
  const int g = NGA_Create_handle();
  NGA_Set_data64(g, 1, &total, type);
  NGA_Set_pgroup(g, s.grp);
  int64_t nblock = s.nproc;
  NGA_Set_irreg_distr64(g, starts.data(), &nblock);
  if (!NGA_Allocate(g))
    ga_fail("NGA_Sprs_array_assemble", "could not allocate %lld elements to publish the blocks",
            (long long)total);
  return g;
}

// Collective: (re)writes this process's blocks into the published arrays.
void publish(Sparse& s) {
  unpublish(s);
  const auto n = static_cast<size_t>(s.nproc);
  std::vector<int64_t> rows, cols;
  std::vector<char> vals;
  std::vector<int64_t> entry(3 * n, 0);  // per column block: row offset, column offset, nnz
  for (size_t b = 0; b < n; ++b) {
    const Block& blk = s.blocks[b];
    entry[3 * b] = static_cast<int64_t>(rows.size());
    entry[3 * b + 1] = static_cast<int64_t>(cols.size());
    entry[3 * b + 2] = static_cast<int64_t>(blk.cols.size());
    if (blk.cols.empty()) continue;
    rows.insert(rows.end(), blk.rows.begin(), blk.rows.end());
    cols.insert(cols.end(), blk.cols.begin(), blk.cols.end());
    vals.insert(vals.end(), blk.vals.begin(), blk.vals.end());
  }
  int64_t mine[2] = {static_cast<int64_t>(rows.size()), static_cast<int64_t>(cols.size())};
  std::vector<int64_t> all(2 * n);
  MPI_Allgather(mine, 2, MPI_INT64_T, all.data(), 2, MPI_INT64_T, s.comm);
  std::vector<int64_t> nrows(n), nnz(n), row_start, col_start, val_start;
  for (size_t p = 0; p < n; ++p) {
    nrows[p] = all[2 * p];
    nnz[p] = all[2 * p + 1];
  }
  s.g_rows = padded_array(s, C_LONG, nrows, row_start);
  s.g_cols = padded_array(s, C_LONG, nnz, col_start);
  s.g_vals = padded_array(s, s.type, nnz, val_start);
  int64_t table_dim = 3 * static_cast<int64_t>(n * n);
  s.g_table = NGA_Create64(C_LONG, 1, &table_dim, const_cast<char*>("sparse_blocks"), nullptr);
  const auto me = static_cast<size_t>(s.me);
  for (size_t b = 0; b < n; ++b) {
    entry[3 * b] += row_start[me];
    entry[3 * b + 1] += col_start[me];
  }
  int64_t ld = 1;
  int64_t lo = 3 * static_cast<int64_t>(me * n), hi = lo + 3 * static_cast<int64_t>(n) - 1;
  NGA_Put64(s.g_table, &lo, &hi, entry.data(), &ld);
  if (!rows.empty()) {
    lo = row_start[me];
    hi = lo + static_cast<int64_t>(rows.size()) - 1;
    NGA_Put64(s.g_rows, &lo, &hi, rows.data(), &ld);
  }
  if (!cols.empty()) {
    lo = col_start[me];
    hi = lo + static_cast<int64_t>(cols.size()) - 1;
    NGA_Put64(s.g_cols, &lo, &hi, cols.data(), &ld);
    NGA_Put64(s.g_vals, &lo, &hi, vals.data(), &ld);
  }
  GA_Pgroup_sync(s.grp);
}

template <typename Index>
int get_block(const char* fn, int s_a, int64_t irow, int64_t icol, Index** idx, Index** jdx,
              void** data, Index* ilo, Index* ihi, Index* jlo, Index* jhi, bool any_width = false) {
  Sparse& s = lookup_ready(fn, s_a);
  constexpr bool wide = sizeof(Index) == sizeof(int64_t);
  if (!any_width && wide != s.idx64)
    ga_fail(fn, "s_a=%d was created with %s indices; use NGA_Sprs_array_get_block%s", s_a,
            s.idx64 ? "64-bit" : "int", s.idx64 ? "64" : "");
  if (irow < 0 || irow >= s.nproc || icol < 0 || icol >= s.nproc)
    ga_fail(fn, "irow=%lld, icol=%lld: blocks of s_a=%d are numbered 0..%d", (long long)irow,
            (long long)icol, s_a, s.nproc - 1);
  if (idx == nullptr || jdx == nullptr || data == nullptr || ilo == nullptr || ihi == nullptr ||
      jlo == nullptr || jhi == nullptr)
    ga_fail(fn, "every output pointer (idx, jdx, data, ilo, ihi, jlo, jhi) is required");
  const int64_t rlo = block_lo(s.idim, s.nproc, irow),
                rhi = block_lo(s.idim, s.nproc, irow + 1) - 1;
  *ilo = static_cast<Index>(rlo);
  *ihi = static_cast<Index>(rhi);
  *jlo = static_cast<Index>(block_lo(s.jdim, s.nproc, icol));
  *jhi = static_cast<Index>(block_lo(s.jdim, s.nproc, icol + 1) - 1);
  *idx = nullptr;
  *jdx = nullptr;
  *data = nullptr;
  int64_t entry[3], ld = 1;
  int64_t lo = 3 * (irow * s.nproc + icol), hi = lo + 2;
  NGA_Get64(s.g_table, &lo, &hi, entry, &ld);
  const int64_t nnz = entry[2];
  if (nnz == 0) return 0;
  const int64_t nrows = rhi - rlo + 1;
  std::vector<int64_t> rows(static_cast<size_t>(nrows + 1)), cols(static_cast<size_t>(nnz));
  lo = entry[0];
  hi = lo + nrows;
  NGA_Get64(s.g_rows, &lo, &hi, rows.data(), &ld);
  lo = entry[1];
  hi = lo + nnz - 1;
  NGA_Get64(s.g_cols, &lo, &hi, cols.data(), &ld);
  *data = std::malloc(static_cast<size_t>(nnz) * s.esize);
  NGA_Get64(s.g_vals, &lo, &hi, *data, &ld);
  *idx = static_cast<Index*>(std::malloc(rows.size() * sizeof(Index)));
  *jdx = static_cast<Index*>(std::malloc(cols.size() * sizeof(Index)));
  for (size_t k = 0; k < rows.size(); ++k) (*idx)[k] = static_cast<Index>(rows[k]);
  for (size_t k = 0; k < cols.size(); ++k) (*jdx)[k] = static_cast<Index>(cols[k]);
  return 1;
}

template <typename Index>
void access_col_block(const char* fn, int s_a, int icol, Index** idx, Index** jdx, void** val) {
  Sparse& s = lookup_ready(fn, s_a);
  constexpr bool wide = sizeof(Index) == sizeof(int64_t);
  if (wide != s.idx64)
    ga_fail(fn, "s_a=%d was created with %s indices; use NGA_Sprs_array_access_col_block%s", s_a,
            s.idx64 ? "64-bit" : "int", s.idx64 ? "64" : "");
  if (icol < 0 || icol >= s.nproc)
    ga_fail(fn, "icol=%d is not a column block of s_a=%d (0..%d)", icol, s_a, s.nproc - 1);
  if (idx == nullptr || jdx == nullptr || val == nullptr)
    ga_fail(fn, "idx=%p, jdx=%p, val=%p: every output pointer is required", static_cast<void*>(idx),
            static_cast<void*>(jdx), static_cast<void*>(val));
  Block& b = s.blocks[static_cast<size_t>(icol)];
  if (b.cols.empty()) {
    *idx = nullptr;
    *jdx = nullptr;
    *val = nullptr;
    return;
  }
  if constexpr (wide) {
    *idx = reinterpret_cast<Index*>(b.rows.data());
    *jdx = reinterpret_cast<Index*>(b.cols.data());
  } else {
    *idx = reinterpret_cast<Index*>(b.rows32.data());
    *jdx = reinterpret_cast<Index*>(b.cols32.data());
  }
  *val = b.vals.data();
}

template <typename Index>
void distribution(const char* fn, int s_a, int iproc, Index* lo, Index* hi, bool rows) {
  Sparse& s = lookup_sparse(fn, s_a);
  if (iproc < 0 || iproc >= s.nproc)
    ga_fail(fn, "iproc=%d is not a process of s_a=%d's group (0..%d)", iproc, s_a, s.nproc - 1);
  if (lo == nullptr || hi == nullptr)
    ga_fail(fn, "lo=%p, hi=%p: both output pointers are required", static_cast<void*>(lo),
            static_cast<void*>(hi));
  const int64_t dim = rows ? s.idim : s.jdim;
  *lo = static_cast<Index>(block_lo(dim, s.nproc, iproc));
  *hi = static_cast<Index>(block_lo(dim, s.nproc, iproc + 1) - 1);
}

void add_element(const char* fn, int s_a, int64_t i, int64_t j, const void* val) {
  Sparse& s = lookup_ready(fn, s_a, false);
  if (i < 0 || i >= s.idim)
    ga_fail(fn, "idx=%lld lies outside s_a=%d's rows [0, %lld)", (long long)i, s_a,
            (long long)s.idim);
  if (j < 0 || j >= s.jdim)
    ga_fail(fn, "jdx=%lld lies outside s_a=%d's columns [0, %lld)", (long long)j, s_a,
            (long long)s.jdim);
  if (val == nullptr) ga_fail(fn, "val=NULL: the element's value is required");
  s.ai.push_back(i);
  s.aj.push_back(j);
  const auto* bytes = static_cast<const char*>(val);
  s.av.insert(s.av.end(), bytes, bytes + s.esize);
}

}  // namespace

void remora::ga::forget_sparse_arrays() {
  std::lock_guard<std::mutex> lock(state_mutex());
  table().clear();
}

extern "C" {

int NGA_Sprs_array_create(int idim, int jdim, int type) {
  auto s = make("NGA_Sprs_array_create", idim, jdim, type, false);
  const int grp = s->grp;
  GA_Pgroup_sync(grp);
  return new_sparse(std::move(s));
}

int NGA_Sprs_array_create64(int64_t idim, int64_t jdim, int type) {
  auto s = make("NGA_Sprs_array_create64", idim, jdim, type, true);
  const int grp = s->grp;
  GA_Pgroup_sync(grp);
  return new_sparse(std::move(s));
}

void NGA_Sprs_array_add_element(int s_a, int idx, int jdx, void* val) {
  add_element("NGA_Sprs_array_add_element", s_a, idx, jdx, val);
}

void NGA_Sprs_array_add_element64(int s_a, int64_t idx, int64_t jdx, void* val) {
  add_element("NGA_Sprs_array_add_element64", s_a, idx, jdx, val);
}

int NGA_Sprs_array_assemble(int s_a) {
  Sparse& s = lookup_ready("NGA_Sprs_array_assemble", s_a, false);
  with_type(s.type, [&](auto zero) { assemble_typed<decltype(zero)>(s); });
  s.ready = true;
  GA_Pgroup_sync(s.grp);
  publish(s);
  return 1;
}

void NGA_Sprs_array_row_distribution(int s_a, int iproc, int* lo, int* hi) {
  distribution("NGA_Sprs_array_row_distribution", s_a, iproc, lo, hi, true);
}
void NGA_Sprs_array_row_distribution64(int s_a, int iproc, int64_t* lo, int64_t* hi) {
  distribution("NGA_Sprs_array_row_distribution64", s_a, iproc, lo, hi, true);
}
void NGA_Sprs_array_column_distribution(int s_a, int iproc, int* lo, int* hi) {
  distribution("NGA_Sprs_array_column_distribution", s_a, iproc, lo, hi, false);
}
void NGA_Sprs_array_column_distribution64(int s_a, int iproc, int64_t* lo, int64_t* hi) {
  distribution("NGA_Sprs_array_column_distribution64", s_a, iproc, lo, hi, false);
}

void NGA_Sprs_array_col_block_list(int s_a, int** idx, int* n) {
  const char* fn = "NGA_Sprs_array_col_block_list";
  Sparse& s = lookup_ready(fn, s_a);
  if (idx == nullptr || n == nullptr)
    ga_fail(fn, "idx=%p, n=%p: both output pointers are required", static_cast<void*>(idx),
            static_cast<void*>(n));
  std::vector<int> list;
  for (size_t b = 0; b < s.blocks.size(); ++b)
    if (!s.blocks[b].cols.empty()) list.push_back(static_cast<int>(b));
  *n = static_cast<int>(list.size());
  *idx = static_cast<int*>(std::malloc(std::max<size_t>(list.size(), 1) * sizeof(int)));
  if (!list.empty()) std::memcpy(*idx, list.data(), list.size() * sizeof(int));
}

int NGA_Sprs_array_get_block(int s_a, int irow, int icol, int** idx, int** jdx, void** data,
                             int* ilo, int* ihi, int* jlo, int* jhi) {
  return get_block("NGA_Sprs_array_get_block", s_a, irow, icol, idx, jdx, data, ilo, ihi, jlo, jhi);
}
int NGA_Sprs_array_get_block64(int s_a, int64_t irow, int64_t icol, int64_t** idx, int64_t** jdx,
                               void** data, int64_t* ilo, int64_t* ihi, int64_t* jlo,
                               int64_t* jhi) {
  return get_block("NGA_Sprs_array_get_block64", s_a, irow, icol, idx, jdx, data, ilo, ihi, jlo,
                   jhi);
}

void NGA_Sprs_array_export(int s_a, const char* file) {
  const char* fn = "NGA_Sprs_array_export";
  Sparse& s = lookup_ready(fn, s_a);
  if (file == nullptr) ga_fail(fn, "file=NULL: a file name is required");
  GA_Pgroup_sync(s.grp);
  int64_t nnz = 0;
  for (const Block& b : s.blocks) nnz += static_cast<int64_t>(b.cols.size());
  MPI_Allreduce(MPI_IN_PLACE, &nnz, 1, MPI_INT64_T, MPI_SUM, s.comm);
  int failed = 0;
  if (s.me == 0) {
    // Matrix Market coordinate format, 1-based indices, rows in order and each row's entries
    // in column order; values printed as GA prints them (%14.6e for reals).
    FILE* out = std::fopen(file, "w");
    if (out == nullptr) {
      failed = 1;
    } else {
      const char* field = "real";
      if (s.type == C_INT || s.type == C_LONG || s.type == C_LONGLONG) field = "integer";
      if (s.type == C_SCPL || s.type == C_DCPL) field = "complex";
      std::fprintf(out, "%%%%MatrixMarket matrix coordinate %s general\n", field);
      std::fprintf(out, "%lld %lld %lld\n", (long long)s.idim, (long long)s.jdim, (long long)nnz);
      for (int irow = 0; irow < s.nproc; ++irow) {
        std::vector<int64_t*> idx(static_cast<size_t>(s.nproc)), jdx(idx.size());
        std::vector<void*> val(idx.size());
        int64_t rlo = 0, rhi = -1, clo, chi;
        for (int icol = 0; icol < s.nproc; ++icol) {
          const auto c = static_cast<size_t>(icol);
          get_block(fn, s_a, irow, icol, &idx[c], &jdx[c], &val[c], &rlo, &rhi, &clo, &chi, true);
        }
        for (int64_t i = rlo; i <= rhi; ++i)
          for (size_t c = 0; c < idx.size(); ++c) {
            if (idx[c] == nullptr) continue;
            for (int64_t k = idx[c][i - rlo]; k < idx[c][i - rlo + 1]; ++k) {
              std::fprintf(out, "%lld %lld", (long long)(i + 1), (long long)(jdx[c][k] + 1));
              with_type(s.type, [&](auto zero) {
                using T = decltype(zero);
                T v;
                std::memcpy(&v, static_cast<char*>(val[c]) + k * (int64_t)sizeof(T), sizeof v);
                if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
                  std::fprintf(out, " %14.6e\n", static_cast<double>(v));
                else if constexpr (std::is_integral_v<T>)
                  std::fprintf(out, " %lld\n", static_cast<long long>(v));
                else
                  std::fprintf(out, " %14.6e %14.6e\n", static_cast<double>(v.real()),
                               static_cast<double>(v.imag()));
              });
            }
          }
        for (size_t c = 0; c < idx.size(); ++c) {
          std::free(idx[c]);
          std::free(jdx[c]);
          std::free(val[c]);
        }
      }
      if (std::fclose(out) != 0) failed = 1;
    }
  }
  MPI_Bcast(&failed, 1, MPI_INT, 0, s.comm);
  if (failed) ga_fail(fn, "could not write file=\"%s\"", file);
  GA_Pgroup_sync(s.grp);
}

void NGA_Sprs_array_access_col_block(int s_a, int icol, void* idx, void* jdx, void* val) {
  access_col_block("NGA_Sprs_array_access_col_block", s_a, icol, static_cast<int**>(idx),
                   static_cast<int**>(jdx), static_cast<void**>(val));
}
void NGA_Sprs_array_access_col_block64(int s_a, int icol, void* idx, void* jdx, void* val) {
  access_col_block("NGA_Sprs_array_access_col_block64", s_a, icol, static_cast<int64_t**>(idx),
                   static_cast<int64_t**>(jdx), static_cast<void**>(val));
}

void NGA_Sprs_array_matvec_multiply(int s_a, int g_a, int g_v) {
  const char* fn = "NGA_Sprs_array_matvec_multiply";
  Sparse& s = lookup_ready(fn, s_a);
  check_vector(fn, s, "g_a", g_a, s.jdim);
  check_vector(fn, s, "g_v", g_v, s.idim);
  if (g_a == g_v) ga_fail(fn, "g_a=g_v=%d: the product cannot overwrite the vector", g_a);
  GA_Pgroup_sync(s.grp);
  with_type(s.type, [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> y(static_cast<size_t>(s.ihi - s.ilo + 1), T{});
    for (size_t blk = 0; blk < s.blocks.size(); ++blk) {
      Block& b = s.blocks[blk];
      if (b.cols.empty()) continue;
      const int64_t jlo = col_lo(s, blk);
      const std::vector<T> x = get_range<T>(g_a, jlo, col_lo(s, blk + 1) - 1);
      const T* v = values<T>(b);
      for (size_t r = 0; r < y.size(); ++r)
        for (int64_t k = b.rows[r]; k < b.rows[r + 1]; ++k)
          y[r] += v[k] * x[static_cast<size_t>(b.cols[static_cast<size_t>(k)] - jlo)];
    }
    put_range(g_v, s.ilo, s.ihi, y);
  });
  GA_Pgroup_sync(s.grp);
}

void NGA_Sprs_array_get_diag(int s_a, int* g_d) {
  const char* fn = "NGA_Sprs_array_get_diag";
  Sparse& s = lookup_ready(fn, s_a);
  if (g_d == nullptr) ga_fail(fn, "g_d=NULL: the output handle pointer is required");
  // As GA: a vector of length idim on the array's group, split as the rows are (irregular
  // blocks at the row blocks' starts; the default distribution when some row block is empty).
  const int g = NGA_Create_handle();
  int64_t dim = s.idim;
  NGA_Set_data64(g, 1, &dim, s.type);
  NGA_Set_pgroup(g, s.grp);
  if (s.idim >= s.nproc) {
    std::vector<int64_t> map(static_cast<size_t>(s.nproc));
    for (int p = 0; p < s.nproc; ++p) map[static_cast<size_t>(p)] = block_lo(s.idim, s.nproc, p);
    int64_t nblock = s.nproc;
    NGA_Set_irreg_distr64(g, map.data(), &nblock);
  }
  char name[] = "sparse_diagonal";
  NGA_Set_array_name(g, name);
  if (!NGA_Allocate(g))
    ga_fail(fn, "could not allocate the diagonal's %lld elements", (long long)dim);
  with_type(s.type, [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> d(static_cast<size_t>(s.ihi - s.ilo + 1), T{});
    for (Block& b : s.blocks) {
      if (b.cols.empty()) continue;
      const T* v = values<T>(b);
      for (size_t r = 0; r < d.size(); ++r)
        for (int64_t k = b.rows[r]; k < b.rows[r + 1]; ++k)
          if (b.cols[static_cast<size_t>(k)] == s.ilo + static_cast<int64_t>(r)) d[r] = v[k];
    }
    put_range(g, s.ilo, s.ihi, d);
  });
  GA_Pgroup_sync(s.grp);
  *g_d = g;
}

void NGA_Sprs_array_shift_diag(int s_a, void* shift) {
  const char* fn = "NGA_Sprs_array_shift_diag";
  Sparse& s = lookup_ready(fn, s_a);
  if (shift == nullptr) ga_fail(fn, "shift=NULL: the value to add is required");
  GA_Pgroup_sync(s.grp);
  with_type(s.type, [&](auto zero) {
    using T = decltype(zero);
    T c;
    std::memcpy(&c, shift, sizeof c);
    // Diagonal elements that were never added are added with the value shift.
    std::vector<char> found(static_cast<size_t>(s.ihi - s.ilo + 1), 0);
    for (Block& b : s.blocks) {
      if (b.cols.empty()) continue;
      T* v = values<T>(b);
      for (size_t r = 0; r < found.size(); ++r)
        for (int64_t k = b.rows[r]; k < b.rows[r + 1]; ++k)
          if (b.cols[static_cast<size_t>(k)] == s.ilo + static_cast<int64_t>(r)) {
            v[k] += c;
            found[r] = 1;
          }
    }
    bool missing = false;
    for (size_t r = 0; r < found.size(); ++r)
      if (!found[r] && s.ilo + static_cast<int64_t>(r) < s.jdim) missing = true;
    if (missing) {
      std::vector<int64_t> ti, tj;
      std::vector<T> tv;
      triplets(s, ti, tj, tv);
      for (size_t r = 0; r < found.size(); ++r) {
        const int64_t i = s.ilo + static_cast<int64_t>(r);
        if (!found[r] && i < s.jdim) {
          ti.push_back(i);
          tj.push_back(i);
          tv.push_back(c);
        }
      }
      build(s, ti, tj, tv);
    }
  });
  publish(s);  // after a sync of the group
}

void NGA_Sprs_array_diag_left_multiply(int s_a, int g_d) {
  const char* fn = "NGA_Sprs_array_diag_left_multiply";
  Sparse& s = lookup_ready(fn, s_a);
  check_vector(fn, s, "g_d", g_d, s.idim);
  GA_Pgroup_sync(s.grp);
  with_type(s.type, [&](auto zero) {
    using T = decltype(zero);
    const std::vector<T> d = get_range<T>(g_d, s.ilo, s.ihi);
    for (Block& b : s.blocks) {
      if (b.cols.empty()) continue;
      T* v = values<T>(b);
      for (size_t r = 0; r < d.size(); ++r)
        for (int64_t k = b.rows[r]; k < b.rows[r + 1]; ++k) v[k] = d[r] * v[k];
    }
  });
  publish(s);  // after a sync of the group
}

void NGA_Sprs_array_diag_right_multiply(int s_a, int g_d) {
  const char* fn = "NGA_Sprs_array_diag_right_multiply";
  Sparse& s = lookup_ready(fn, s_a);
  check_vector(fn, s, "g_d", g_d, s.jdim);
  GA_Pgroup_sync(s.grp);
  with_type(s.type, [&](auto zero) {
    using T = decltype(zero);
    for (size_t blk = 0; blk < s.blocks.size(); ++blk) {
      Block& b = s.blocks[blk];
      if (b.cols.empty()) continue;
      const int64_t jlo = col_lo(s, blk);
      const std::vector<T> d = get_range<T>(g_d, jlo, col_lo(s, blk + 1) - 1);
      T* v = values<T>(b);
      for (size_t k = 0; k < b.cols.size(); ++k)
        v[k] = v[k] * d[static_cast<size_t>(b.cols[k] - jlo)];
    }
  });
  publish(s);  // after a sync of the group
}

int NGA_Sprs_array_duplicate(int s_a) {
  const char* fn = "NGA_Sprs_array_duplicate";
  Sparse& s = lookup_sparse(fn, s_a);
  auto copy = std::make_unique<Sparse>(s);
  copy->g_rows = copy->g_cols = copy->g_vals = copy->g_table = 0;
  GA_Pgroup_sync(s.grp);
  if (copy->ready) publish(*copy);
  return new_sparse(std::move(copy));
}

int NGA_Sprs_array_matmat_multiply(int s_a, int s_b) {
  const char* fn = "NGA_Sprs_array_matmat_multiply";
  Sparse& a = lookup_ready(fn, s_a);
  Sparse& b = lookup_ready(fn, s_b);
  if (a.jdim != b.idim)
    ga_fail(fn, "s_a=%d is %lldx%lld and s_b=%d is %lldx%lld: the inner dimensions differ", s_a,
            (long long)a.idim, (long long)a.jdim, s_b, (long long)b.idim, (long long)b.jdim);
  if (a.type != b.type)
    ga_fail(fn, "s_a=%d has type %d and s_b=%d type %d: they must match", s_a, a.type, s_b, b.type);
  if (a.grp != b.grp)
    ga_fail(fn, "s_a=%d lives on process group %d, s_b=%d on group %d", s_a, a.grp, s_b, b.grp);
  auto c = std::make_unique<Sparse>();
  c->type = a.type;
  c->esize = a.esize;
  c->idx64 = a.idx64;
  c->idim = a.idim;
  c->jdim = b.jdim;
  c->grp = a.grp;
  c->nproc = a.nproc;
  c->me = a.me;
  c->comm = a.comm;
  c->ilo = a.ilo;
  c->ihi = a.ihi;
  c->ready = true;
  GA_Pgroup_sync(a.grp);
  with_type(a.type, [&](auto zero) {
    using T = decltype(zero);
    // Rows of B this process needs: the column indices of its rows of A, asked of their owners.
    std::vector<std::vector<int64_t>> ask(static_cast<size_t>(a.nproc));
    {
      std::vector<int64_t> needed;
      for (const Block& blk : a.blocks)
        needed.insert(needed.end(), blk.cols.begin(), blk.cols.end());
      std::sort(needed.begin(), needed.end());
      needed.erase(std::unique(needed.begin(), needed.end()), needed.end());
      for (int64_t k : needed) ask[static_cast<size_t>(owner(b.idim, b.nproc, k))].push_back(k);
    }
    // Who asked for what: answer with the rows' entries.
    std::vector<std::vector<int64_t>> ask_from(static_cast<size_t>(a.nproc));
    {
      std::vector<std::vector<Ask>> tagged(static_cast<size_t>(a.nproc));
      for (size_t p = 0; p < ask.size(); ++p)
        for (int64_t k : ask[p]) tagged[p].push_back({a.me, k});
      for (const auto& [from, k] : swap_items(a, tagged))
        ask_from[static_cast<size_t>(from)].push_back(k);
    }
    std::vector<std::vector<int64_t>> rowmap(static_cast<size_t>(b.ihi - b.ilo + 1));
    std::vector<int64_t> bi, bj;
    std::vector<T> bv;
    triplets(b, bi, bj, bv);
    for (size_t k = 0; k < bi.size(); ++k)
      rowmap[static_cast<size_t>(bi[k] - b.ilo)].push_back(static_cast<int64_t>(k));
    std::vector<std::vector<Triplet<T>>> reply(static_cast<size_t>(a.nproc));
    for (size_t p = 0; p < ask_from.size(); ++p)
      for (int64_t row : ask_from[p])
        for (int64_t k : rowmap[static_cast<size_t>(row - b.ilo)])
          reply[p].push_back({row, bj[static_cast<size_t>(k)], bv[static_cast<size_t>(k)]});
    std::map<int64_t, std::vector<std::pair<int64_t, T>>> brows;
    for (const auto& t : swap_items(a, reply)) brows[t.i].push_back({t.j, t.v});
    // C's rows are A's rows: accumulate row by row.
    std::vector<int64_t> ti, tj;
    std::vector<T> tv;
    const int64_t nrows = a.ihi - a.ilo + 1;
    for (int64_t r = 0; r < nrows; ++r) {
      std::map<int64_t, T> row;
      for (const Block& blk : a.blocks) {
        if (blk.cols.empty()) continue;
        const T* v = reinterpret_cast<const T*>(blk.vals.data());
        for (int64_t k = blk.rows[static_cast<size_t>(r)]; k < blk.rows[static_cast<size_t>(r + 1)];
             ++k) {
          auto it = brows.find(blk.cols[static_cast<size_t>(k)]);
          if (it == brows.end()) continue;
          for (const auto& [j, bval] : it->second) {
            auto [slot, fresh] = row.try_emplace(j, T{});
            (void)fresh;
            slot->second += v[k] * bval;
          }
        }
      }
      for (const auto& [j, val] : row) {
        ti.push_back(a.ilo + r);
        tj.push_back(j);
        tv.push_back(val);
      }
    }
    build(*c, ti, tj, tv);
  });
  GA_Pgroup_sync(a.grp);
  publish(*c);
  return new_sparse(std::move(c));
}

namespace {

int from_dense(const char* fn, int g_a, bool idx64) {
  require_initialized(fn);
  int type = 0, ndim = 0;
  int64_t dims[GA_MAX_DIM] = {};
  NGA_Inquire64(g_a, &type, &ndim, dims);
  if (ndim != 2) ga_fail(fn, "g_a=%d has %d dimensions; a 2-D array is required", g_a, ndim);
  const int grp = NGA_Get_pgroup(g_a);
  const int saved = GA_Pgroup_get_default();
  GA_Pgroup_set_default(grp);
  auto made = make(fn, dims[0], dims[1], type, idx64);
  GA_Pgroup_set_default(saved);
  Sparse& s = *made;
  // Each process adds the non-zero elements of the patch it owns.
  int64_t lo[2], hi[2];
  NGA_Distribution64(g_a, GA_Pgroup_nodeid(grp), lo, hi);
  if (lo[0] <= hi[0] && lo[1] <= hi[1]) {
    const int64_t rows = hi[0] - lo[0] + 1, cols = hi[1] - lo[1] + 1;
    std::vector<char> patch(static_cast<size_t>(rows * cols) * s.esize);
    int64_t ld = cols;
    NGA_Get64(g_a, lo, hi, patch.data(), &ld);
    with_type(s.type, [&](auto zero) {
      using T = decltype(zero);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
          T v;
          std::memcpy(&v, patch.data() + static_cast<size_t>(r * cols + c) * sizeof(T), sizeof v);
          if (v == zero && lo[0] + r != lo[1] + c) continue;  // as GA: the diagonal always
          s.ai.push_back(lo[0] + r);
          s.aj.push_back(lo[1] + c);
          const auto* bytes = reinterpret_cast<const char*>(&v);
          s.av.insert(s.av.end(), bytes, bytes + sizeof v);
        }
    });
  }
  GA_Pgroup_sync(grp);
  const int s_a = new_sparse(std::move(made));
  NGA_Sprs_array_assemble(s_a);
  return s_a;
}

}  // namespace

int NGA_Sprs_array_create_from_dense(int g_a) {
  return from_dense("NGA_Sprs_array_create_from_dense", g_a, false);
}
int NGA_Sprs_array_create_from_dense64(int g_a) {
  return from_dense("NGA_Sprs_array_create_from_dense64", g_a, true);
}

int NGA_Sprs_array_elementwise_multiply(int s_a, int s_b) {
  const char* fn = "NGA_Sprs_array_elementwise_multiply";
  Sparse& a = lookup_ready(fn, s_a);
  Sparse& b = lookup_ready(fn, s_b);
  if (a.idim != b.idim || a.jdim != b.jdim)
    ga_fail(fn, "s_a=%d is %lldx%lld and s_b=%d is %lldx%lld: the shapes differ", s_a,
            (long long)a.idim, (long long)a.jdim, s_b, (long long)b.idim, (long long)b.jdim);
  if (a.type != b.type)
    ga_fail(fn, "s_a=%d has type %d and s_b=%d type %d: they must match", s_a, a.type, s_b, b.type);
  if (a.grp != b.grp)
    ga_fail(fn, "s_a=%d lives on process group %d, s_b=%d on group %d", s_a, a.grp, s_b, b.grp);
  auto c = std::make_unique<Sparse>(a);
  c->g_rows = c->g_cols = c->g_vals = c->g_table = 0;
  GA_Pgroup_sync(a.grp);
  with_type(a.type, [&](auto zero) {
    using T = decltype(zero);
    // Both arrays hold the same rows here; an entry of C where both have one (rows sorted).
    std::vector<int64_t> ti, tj;
    std::vector<T> tv;
    for (size_t blk = 0; blk < a.blocks.size(); ++blk) {
      const Block& x = a.blocks[blk];
      const Block& y = b.blocks[blk];
      if (x.cols.empty() || y.cols.empty()) continue;
      const T* xv = reinterpret_cast<const T*>(x.vals.data());
      const T* yv = reinterpret_cast<const T*>(y.vals.data());
      for (size_t r = 0; r + 1 < x.rows.size(); ++r) {
        int64_t p = x.rows[r], q = y.rows[r];
        while (p < x.rows[r + 1] && q < y.rows[r + 1]) {
          const int64_t jx = x.cols[static_cast<size_t>(p)], jy = y.cols[static_cast<size_t>(q)];
          if (jx < jy) {
            ++p;
          } else if (jy < jx) {
            ++q;
          } else {
            ti.push_back(a.ilo + static_cast<int64_t>(r));
            tj.push_back(jx);
            tv.push_back(xv[p++] * yv[q++]);
          }
        }
      }
    }
    build(*c, ti, tj, tv);
  });
  GA_Pgroup_sync(a.grp);
  publish(*c);
  return new_sparse(std::move(c));
}

int NGA_Sprs_array_destroy(int s_a) {
  const char* fn = "NGA_Sprs_array_destroy";
  Sparse& s = lookup_sparse(fn, s_a);
  const int grp = s.grp;
  GA_Pgroup_sync(grp);
  unpublish(s);
  {
    std::lock_guard<std::mutex> lock(state_mutex());
    table()[static_cast<size_t>(s_a + kHandleOffset)].reset();
  }
  return 1;
}

}  // extern "C"

// Sparse-dense products, dense copies, quantization and ReLU (GA's newer sparse calls). GA's C
// binding sees dense arrays in C order: element (i, j) of a 2-D array is row i, column j.
namespace {

struct Shape {
  int64_t rows, cols;
};

// A 2-D GA array of the sparse array's type and group.
Shape check_matrix(const char* fn, const Sparse& s, const char* name, int g) {
  int type = 0, ndim = 0;
  int64_t dims[GA_MAX_DIM] = {};
  NGA_Inquire64(g, &type, &ndim, dims);
  if (ndim != 2) ga_fail(fn, "%s=%d has %d dimensions; a 2-D array is required", name, g, ndim);
  if (type != s.type)
    ga_fail(fn, "%s=%d has type %d but the sparse array has type %d: they must match", name, g,
            type, s.type);
  if (NGA_Get_pgroup(g) != s.grp)
    ga_fail(fn, "%s=%d lives on process group %d, the sparse array on group %d", name, g,
            NGA_Get_pgroup(g), s.grp);
  return {dims[0], dims[1]};
}

// A new rows x cols array of s's type on s's group, its rows split into one block per process
// by the sparse arrays' rule (GA's irregular distribution; the default distribution when some
// block would be empty, which an irregular distribution cannot express). Collective.
int row_split_array(const char* fn, const Sparse& s, int64_t rows, int64_t cols) {
  const int g = NGA_Create_handle();
  int64_t dims[2] = {rows, cols};
  NGA_Set_data64(g, 2, dims, s.type);
  NGA_Set_pgroup(g, s.grp);
  if (rows >= s.nproc) {
    std::vector<int64_t> map(static_cast<size_t>(s.nproc) + 1, 0);
    for (int p = 0; p < s.nproc; ++p) map[static_cast<size_t>(p)] = block_lo(rows, s.nproc, p);
    int64_t nblock[2] = {s.nproc, 1};
    NGA_Set_irreg_distr64(g, map.data(), nblock);
  }
  char name[] = "sparse_dense";
  NGA_Set_array_name(g, name);
  if (!NGA_Allocate(g))
    ga_fail(fn, "could not allocate the %lldx%lld dense result", (long long)rows, (long long)cols);
  return g;
}

template <typename T>
std::vector<T> get_patch(int g, int64_t rlo, int64_t rhi, int64_t clo, int64_t chi) {
  std::vector<T> v;
  if (rlo > rhi || clo > chi) return v;
  v.resize(static_cast<size_t>((rhi - rlo + 1) * (chi - clo + 1)));
  int64_t lo[2] = {rlo, clo}, hi[2] = {rhi, chi}, ld = chi - clo + 1;
  NGA_Get64(g, lo, hi, v.data(), &ld);
  return v;
}

template <typename T>
void put_rows(int g, int64_t rlo, int64_t rhi, int64_t cols, std::vector<T>& v) {
  if (rlo > rhi) return;
  int64_t lo[2] = {rlo, 0}, hi[2] = {rhi, cols - 1}, ld = cols;
  NGA_Put64(g, lo, hi, v.data(), &ld);
}

template <typename T>
constexpr bool is_real = std::is_arithmetic_v<T>;

void require_real(const char* fn, const Sparse& s, int s_a) {
  if (s.type == C_SCPL || s.type == C_DCPL)
    ga_fail(fn, "s_a=%d has the complex type %d; this call takes real types only", s_a, s.type);
}

int activate_relu(const char* fn, int s_a, void* bias) {
  Sparse& s = lookup_ready(fn, s_a);
  require_real(fn, s, s_a);
  if (bias == nullptr) ga_fail(fn, "bias=NULL: the value added to every element is required");
  GA_Pgroup_sync(s.grp);
  with_type(s.type, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (is_real<T>) {
      T b;
      std::memcpy(&b, bias, sizeof b);
      const T top = static_cast<T>(32);
      for (Block& blk : s.blocks) {
        T* v = values<T>(blk);
        for (size_t k = 0; k < blk.cols.size(); ++k) {
          const T x = static_cast<T>(v[k] + b);
          v[k] = x < zero ? zero : (x > top ? top : x);
        }
      }
    }
  });
  publish(s);  // after a sync of the group
  return 1;
}

}  // namespace

extern "C" {

int NGA_Sprs_array_create_from_sparse(int s_a) {
  const char* fn = "NGA_Sprs_array_create_from_sparse";
  Sparse& s = lookup_ready(fn, s_a);
  GA_Pgroup_sync(s.grp);
  const int g = row_split_array(fn, s, s.idim, s.jdim);
  with_type(s.type, [&](auto zero) {
    using T = decltype(zero);
    const int64_t nrows = s.ihi - s.ilo + 1;
    std::vector<T> d(static_cast<size_t>(nrows * s.jdim), zero);
    for (Block& b : s.blocks) {
      if (b.cols.empty()) continue;
      const T* v = values<T>(b);
      for (int64_t r = 0; r < nrows; ++r)
        for (int64_t k = b.rows[static_cast<size_t>(r)]; k < b.rows[static_cast<size_t>(r + 1)];
             ++k)
          d[static_cast<size_t>(r * s.jdim + b.cols[static_cast<size_t>(k)])] = v[k];
    }
    put_rows(g, s.ilo, s.ihi, s.jdim, d);
  });
  GA_Pgroup_sync(s.grp);
  return g;
}

int NGA_Sprs_array_sprsdns_multiply(int s_a, int g_b) {
  const char* fn = "NGA_Sprs_array_sprsdns_multiply";
  Sparse& s = lookup_ready(fn, s_a);
  const Shape b = check_matrix(fn, s, "g_b", g_b);
  if (b.rows != s.jdim)
    ga_fail(fn, "g_b=%d has %lld rows but s_a=%d has %lld columns: they must match", g_b,
            (long long)b.rows, s_a, (long long)s.jdim);
  GA_Pgroup_sync(s.grp);
  const int g_c = row_split_array(fn, s, s.idim, b.cols);
  with_type(s.type, [&](auto zero) {
    using T = decltype(zero);
    const int64_t nrows = s.ihi - s.ilo + 1, n = b.cols;
    std::vector<T> c(static_cast<size_t>(nrows * n), zero);
    for (size_t blk = 0; blk < s.blocks.size(); ++blk) {
      Block& x = s.blocks[blk];
      if (x.cols.empty()) continue;
      const int64_t jlo = col_lo(s, blk);
      // The rows of B this column block of A meets.
      const std::vector<T> rows = get_patch<T>(g_b, jlo, col_lo(s, blk + 1) - 1, 0, n - 1);
      const T* v = values<T>(x);
      for (int64_t r = 0; r < nrows; ++r)
        for (int64_t k = x.rows[static_cast<size_t>(r)]; k < x.rows[static_cast<size_t>(r + 1)];
             ++k) {
          const T* brow = rows.data() + (x.cols[static_cast<size_t>(k)] - jlo) * n;
          T* crow = c.data() + r * n;
          for (int64_t j = 0; j < n; ++j) crow[j] += v[k] * brow[j];
        }
    }
    put_rows(g_c, s.ilo, s.ihi, n, c);
  });
  GA_Pgroup_sync(s.grp);
  return g_c;
}

int NGA_Sprs_array_dnssprs_multiply(int g_a, int s_b) {
  const char* fn = "NGA_Sprs_array_dnssprs_multiply";
  Sparse& s = lookup_ready(fn, s_b);
  const Shape a = check_matrix(fn, s, "g_a", g_a);
  if (a.cols != s.idim)
    ga_fail(fn, "g_a=%d has %lld columns but s_b=%d has %lld rows: they must match", g_a,
            (long long)a.cols, s_b, (long long)s.idim);
  GA_Pgroup_sync(s.grp);
  const int g_c = row_split_array(fn, s, a.rows, s.jdim);
  // This process computes C's rows [clo, chi]: its rows of A times all of B, read block by
  // block from wherever B's blocks are held.
  const int64_t clo = block_lo(a.rows, s.nproc, s.me),
                chi = block_lo(a.rows, s.nproc, s.me + 1) - 1;
  with_type(s.type, [&](auto zero) {
    using T = decltype(zero);
    const int64_t m = chi - clo + 1, kdim = a.cols, n = s.jdim;
    if (m <= 0) return;
    const std::vector<T> arows = get_patch<T>(g_a, clo, chi, 0, kdim - 1);
    std::vector<T> c(static_cast<size_t>(m * n), zero);
    for (int64_t irow = 0; irow < s.nproc; ++irow)
      for (int64_t icol = 0; icol < s.nproc; ++icol) {
        int64_t *idx, *jdx, rlo, rhi, jlo, jhi;
        void* data;
        if (!get_block<int64_t>(fn, s_b, irow, icol, &idx, &jdx, &data, &rlo, &rhi, &jlo, &jhi,
                                true))
          continue;
        const T* v = static_cast<const T*>(data);
        for (int64_t k = rlo; k <= rhi; ++k)
          for (int64_t e = idx[k - rlo]; e < idx[k - rlo + 1]; ++e)
            for (int64_t i = 0; i < m; ++i)
              c[static_cast<size_t>(i * n + jdx[e])] +=
                  arows[static_cast<size_t>(i * kdim + k)] * v[e];
        std::free(idx);
        std::free(jdx);
        std::free(data);
      }
    put_rows(g_c, clo, chi, n, c);
  });
  GA_Pgroup_sync(s.grp);
  return g_c;
}

void NGA_Sprs_array_sampled_multiply(int g_a, int g_b, int s_c, int transB) {
  const char* fn = "NGA_Sprs_array_sampled_multiply";
  Sparse& s = lookup_ready(fn, s_c);
  const Shape a = check_matrix(fn, s, "g_a", g_a);
  const Shape b = check_matrix(fn, s, "g_b", g_b);
  const bool trans = transB != 0;
  const int64_t kdim = a.cols, bk = trans ? b.cols : b.rows, bn = trans ? b.rows : b.cols;
  if (a.rows != s.idim)
    ga_fail(fn, "g_a=%d has %lld rows but s_c=%d has %lld: they must match", g_a, (long long)a.rows,
            s_c, (long long)s.idim);
  if (bk != kdim)
    ga_fail(fn, "g_b=%d%s has %lld rows but g_a=%d has %lld columns: they must match", g_b,
            trans ? " transposed (transB != 0)" : "", (long long)bk, g_a, (long long)kdim);
  if (bn != s.jdim)
    ga_fail(fn, "g_b=%d%s has %lld columns but s_c=%d has %lld: they must match", g_b,
            trans ? " transposed (transB != 0)" : "", (long long)bn, s_c, (long long)s.jdim);
  GA_Pgroup_sync(s.grp);
  with_type(s.type, [&](auto zero) {
    using T = decltype(zero);
    const int64_t nrows = s.ihi - s.ilo + 1;
    std::vector<T> arows;
    for (size_t blk = 0; blk < s.blocks.size(); ++blk) {
      Block& x = s.blocks[blk];
      if (x.cols.empty()) continue;
      if (arows.empty()) arows = get_patch<T>(g_a, s.ilo, s.ihi, 0, kdim - 1);
      const int64_t jlo = col_lo(s, blk), jhi = col_lo(s, blk + 1) - 1, w = jhi - jlo + 1;
      // op(B)'s columns jlo..jhi: B[0..k)[jlo..jhi] (element (l, j) at l*w + j), or with
      // transB B[jlo..jhi][0..k) (element (j, l) at j*k + l).
      const std::vector<T> bpart = trans ? get_patch<T>(g_b, jlo, jhi, 0, kdim - 1)
                                         : get_patch<T>(g_b, 0, kdim - 1, jlo, jhi);
      T* v = values<T>(x);
      for (int64_t r = 0; r < nrows; ++r)
        for (int64_t e = x.rows[static_cast<size_t>(r)]; e < x.rows[static_cast<size_t>(r + 1)];
             ++e) {
          const int64_t j = x.cols[static_cast<size_t>(e)] - jlo;
          T sum = zero;
          for (int64_t l = 0; l < kdim; ++l)
            sum += arows[static_cast<size_t>(r * kdim + l)] *
                   bpart[static_cast<size_t>(trans ? j * kdim + l : l * w + j)];
          v[e] = sum;
        }
    }
  });
  publish(s);  // after a sync of the group
}

int NGA_Sprs_array_quantize256(int s_a, void* max) {
  const char* fn = "NGA_Sprs_array_quantize256";
  Sparse& s = lookup_ready(fn, s_a);
  require_real(fn, s, s_a);
  if (max == nullptr) ga_fail(fn, "max=NULL: the value mapped to 255 is required");
  auto c = std::make_unique<Sparse>(s);
  c->g_rows = c->g_cols = c->g_vals = c->g_table = 0;
  GA_Pgroup_sync(s.grp);
  with_type(s.type, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (is_real<T>) {
      T mx;
      std::memcpy(&mx, max, sizeof mx);
      if (!(mx > zero))
        ga_fail(fn, "*max=%g: the value mapped to 255 must be positive", (double)mx);
      std::vector<int64_t> ti, tj, qi, qj;
      std::vector<T> tv, qv;
      triplets(s, ti, tj, tv);
      for (size_t k = 0; k < tv.size(); ++k) {
        const T x = tv[k];
        const bool diagonal = ti[k] == tj[k];
        T q = zero;
        if (x >= mx) {
          q = static_cast<T>(255);
        } else if (x > zero) {
          // GA's arithmetic: integers through double, floating types by their own division.
          if constexpr (std::is_integral_v<T>)
            q = static_cast<T>(static_cast<double>(x) / static_cast<double>(mx) * 255.0);
          else
            q = static_cast<T>(static_cast<int>(static_cast<double>(x / mx) * 255.0));
          if (q == zero && !diagonal) continue;
        } else if (!diagonal) {
          continue;
        }
        qi.push_back(ti[k]);
        qj.push_back(tj[k]);
        qv.push_back(q);
      }
      build(*c, qi, qj, qv);
    }
  });
  GA_Pgroup_sync(s.grp);
  publish(*c);
  return new_sparse(std::move(c));
}

int NGA_Sprs_array_activate_ReLU(int s_a, void* bias, int** categories, int* features) {
  (void)categories;
  (void)features;
  return activate_relu("NGA_Sprs_array_activate_ReLU", s_a, bias);
}

int NGA_Sprs_array_activate_ReLU64(int s_a, void* bias, int64_t** categories, int64_t* features) {
  (void)categories;
  (void)features;
  return activate_relu("NGA_Sprs_array_activate_ReLU64", s_a, bias);
}

}  // extern "C"
