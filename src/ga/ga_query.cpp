// Local queries: shape, name, distribution, owners of elements and patches, process grid,
// blocks, and GA_Print_distribution.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "ga/ga_blocks.hpp"
#include "ga/ga_registry.hpp"

namespace remora::ga {
namespace {

// One owner's share of a patch: the rank and the intersection lo..hi.
struct Piece {
  int owner;
  int64_t lo[GA_MAX_DIM], hi[GA_MAX_DIM];
};

// Whether lo..hi is a non-empty patch inside a (GA answers "no owners" otherwise).
bool valid_patch(const char* fn, const GaArray& a, const int64_t* lo, const int64_t* hi) {
  if (lo == nullptr || hi == nullptr) ga_fail(fn, "lo or hi is NULL");
  for (int d = 0; d < a.ndim; ++d)
    if (lo[d] < 0 || hi[d] >= a.dims[d] || lo[d] > hi[d]) return false;
  return true;
}

// Block-cyclic arrays: every block meeting the patch (GA reports blocks, not bounding boxes),
// in row-major block order. As GA, a piece's owner is the block's index (blocks numbered
// row-major over the block grid, as NGA_Distribution numbers them), not a rank.
void cyclic_pieces(const GaArray& a, const int64_t* lo, const int64_t* hi,
                   std::vector<Piece>* pieces) {
  int64_t first[GA_MAX_DIM], last[GA_MAX_DIM], coords[GA_MAX_DIM], counts[GA_MAX_DIM];
  block_counts(a, counts);
  for (int d = 0; d < a.ndim; ++d) {
    first[d] = block_of(a, d, lo[d]);
    last[d] = block_of(a, d, hi[d]);
    coords[d] = first[d];
  }
  while (true) {
    Piece piece{};
    int64_t index = 0;
    for (int d = 0; d < a.ndim; ++d) index = index * counts[d] + coords[d];
    piece.owner = static_cast<int>(index);
    for (int d = 0; d < a.ndim; ++d) {
      const int64_t end = coords[d] + 1 < counts[d] ? block_start(a, d, coords[d] + 1) : a.dims[d];
      piece.lo[d] = std::max(lo[d], block_start(a, d, coords[d]));
      piece.hi[d] = std::min(hi[d], end - 1);
    }
    pieces->push_back(piece);
    int d = a.ndim - 1;
    while (d >= 0 && coords[d] == last[d]) coords[d] = first[d], --d;
    if (d < 0) return;
    ++coords[d];
  }
}

std::vector<Piece> locate_pieces(const char* fn, const GaArray& a, const int64_t* lo,
                                 const int64_t* hi) {
  std::vector<Piece> pieces;
  if (!valid_patch(fn, a, lo, hi)) return pieces;
  if (is_cyclic(a)) {
    cyclic_pieces(a, lo, hi, &pieces);
    return pieces;
  }
  const int ranks = array_ranks(a);
  std::vector<int> owners(static_cast<size_t>(ranks));
  std::vector<int64_t> owner_lo(static_cast<size_t>(ranks * a.ndim)), owner_hi(owner_lo.size());
  int count = 0;
  check(fn, remora_array_locate_region(a.array, lo, hi, ranks, owners.data(), owner_lo.data(),
                                       owner_hi.data(), &count));
  for (int k = 0; k < count; ++k) {
    Piece piece{};
    piece.owner = group_rank_of(a, owners[static_cast<size_t>(k)]);
    std::memcpy(piece.lo, &owner_lo[static_cast<size_t>(k * a.ndim)], sizeof(int64_t) * a.ndim);
    std::memcpy(piece.hi, &owner_hi[static_cast<size_t>(k * a.ndim)], sizeof(int64_t) * a.ndim);
    pieces.push_back(piece);
  }
  return pieces;
}

void distribution(const char* fn, int g_a, int iproc, int64_t* lo, int64_t* hi) {
  const GaArray& a = lookup_allocated(fn, g_a, Types::Any);
  if (lo == nullptr || hi == nullptr) ga_fail(fn, "lo or hi is NULL");
  if (is_cyclic(a)) {
    // GA: for block-cyclic arrays iproc names a block.
    int64_t counts[GA_MAX_DIM];
    if (iproc >= 0 && iproc < block_counts(a, counts)) return block_bounds(fn, a, iproc, lo, hi);
    for (int d = 0; d < a.ndim; ++d) lo[d] = 0, hi[d] = -1;
    return;
  }
  if (iproc < 0 || iproc >= array_ranks(a))
    ga_fail(fn, "iproc=%d is outside [0, %d)", iproc, array_ranks(a));
  owned_patch(fn, a, iproc, lo, hi);
}

template <typename Index>
void distribution_as(const char* fn, int g_a, int iproc, Index* lo, Index* hi) {
  int64_t lo64[GA_MAX_DIM], hi64[GA_MAX_DIM];
  distribution(fn, g_a, iproc, lo64, hi64);
  const int ndim = lookup(fn, g_a).ndim;
  from_int64(lo64, ndim, lo);
  from_int64(hi64, ndim, hi);
}

template <typename Index>
int locate(const char* fn, int g_a, const Index* subscript) {
  const GaArray& a = lookup_allocated(fn, g_a);
  if (subscript == nullptr) ga_fail(fn, "subscript is NULL");
  const Indices s(subscript, a.ndim);
  for (int d = 0; d < a.ndim; ++d)
    if (s.values[d] < 0 || s.values[d] >= a.dims[d]) return -1;
  return locate_pieces(fn, a, s.values, s.values).front().owner;
}

template <typename Index>
int locate_region(const char* fn, int g_a, const Index* lo, const Index* hi, Index* map,
                  int* procs) {
  const GaArray& a = lookup_allocated(fn, g_a);
  const Indices lo64(lo, a.ndim), hi64(hi, a.ndim);
  const std::vector<Piece> pieces = locate_pieces(fn, a, lo64.data, hi64.data);
  for (size_t k = 0; k < pieces.size(); ++k) {
    if (procs != nullptr) procs[k] = pieces[k].owner;
    if (map == nullptr) continue;
    from_int64(pieces[k].lo, a.ndim, map + 2 * k * static_cast<size_t>(a.ndim));
    from_int64(pieces[k].hi, a.ndim, map + (2 * k + 1) * static_cast<size_t>(a.ndim));
  }
  return static_cast<int>(pieces.size());
}

template <typename Index>
int locate_nnodes(const char* fn, int g_a, const Index* lo, const Index* hi) {
  const GaArray& a = lookup_allocated(fn, g_a);
  const Indices lo64(lo, a.ndim), hi64(hi, a.ndim);
  return static_cast<int>(locate_pieces(fn, a, lo64.data, hi64.data).size());
}

// GA: the number of blocks of a block-cyclic array that lo..hi meets, -1 for other arrays; a
// patch that is not inside the array ends the job (GA aborts too).
int locate_num_blocks(const char* fn, int g_a, const int* lo, const int* hi) {
  const GaArray& a = lookup_allocated(fn, g_a);
  if (lo == nullptr || hi == nullptr) ga_fail(fn, "lo or hi is NULL");
  if (!is_cyclic(a)) return -1;
  const Indices lo64(lo, a.ndim), hi64(hi, a.ndim);
  for (int d = 0; d < a.ndim; ++d)
    if (lo64.values[d] < 0 || hi64.values[d] >= a.dims[d] || lo64.values[d] > hi64.values[d])
      ga_fail(fn, "lo[%d]=%lld, hi[%d]=%lld: not a patch of array '%s' (dimension %d has %lld)", d,
              static_cast<long long>(lo64.values[d]), d, static_cast<long long>(hi64.values[d]),
              a.name.c_str(), d, static_cast<long long>(a.dims[d]));
  int64_t count = 1;
  for (int d = 0; d < a.ndim; ++d)
    count *= block_of(a, d, hi64.values[d]) - block_of(a, d, lo64.values[d]) + 1;
  return static_cast<int>(count);
}

template <typename Index>
void inquire(const char* fn, int g_a, int* type, int* ndim, Index* dims) {
  const GaArray& a = lookup_allocated(fn, g_a, Types::Any);
  if (type != nullptr) *type = a.type;
  if (ndim != nullptr) *ndim = a.ndim;
  if (dims != nullptr) from_int64(a.dims, a.ndim, dims);
}

const char* type_name(int type) {
  switch (type) {
    case C_INT:
      return "int";
    case C_LONG:
      return "long";
    case C_LONGLONG:
      return "long long";
    case F_INT:
      return "Integer";
    case C_FLOAT:
    case F_REAL:
      return "float";
    case C_DBL:
    case F_DBL:
      return "double";
    case C_SCPL:
    case F_SCPL:
      return "single complex";
    default:
      return "double complex";
  }
}

void print_range(const int64_t* lo, const int64_t* hi, int ndim) {
  std::printf("[");
  for (int d = 0; d < ndim; ++d)
    std::printf("%s%lld:%lld", d > 0 ? "," : "", static_cast<long long>(lo[d]),
                static_cast<long long>(hi[d]));
  std::printf("]");
}

// GA counts a handle as valid (active) from GA_Allocate until GA_Destroy: a handle from
// GA_Create_handle that is not allocated yet is not valid, and GA_Check_handle refuses it.
bool handle_active(const char* fn, int g_a) {
  return handle_exists(g_a) && lookup(fn, g_a).array != nullptr;
}

}  // namespace
}  // namespace remora::ga

using namespace remora::ga;

extern "C" {

void NGA_Inquire(int g_a, int* type, int* ndim, int dims[]) {
  inquire("NGA_Inquire", g_a, type, ndim, dims);
}
void NGA_Inquire64(int g_a, int* type, int* ndim, int64_t dims[]) {
  inquire("NGA_Inquire64", g_a, type, ndim, dims);
}

int GA_Ndim(int g_a) {
  return lookup_allocated("GA_Ndim", g_a, Types::Any).ndim;
}

char* GA_Inquire_name(int g_a) {
  return lookup("GA_Inquire_name", g_a).name.data();
}

void NGA_Distribution(int g_a, int iproc, int lo[], int hi[]) {
  distribution_as("NGA_Distribution", g_a, iproc, lo, hi);
}
void NGA_Distribution64(int g_a, int iproc, int64_t lo[], int64_t hi[]) {
  distribution_as("NGA_Distribution64", g_a, iproc, lo, hi);
}

int NGA_Locate(int g_a, int subscript[]) {
  return locate("NGA_Locate", g_a, subscript);
}
int NGA_Locate64(int g_a, int64_t subscript[]) {
  return locate("NGA_Locate64", g_a, subscript);
}

int NGA_Locate_region(int g_a, int lo[], int hi[], int map[], int procs[]) {
  return locate_region("NGA_Locate_region", g_a, lo, hi, map, procs);
}
int NGA_Locate_region64(int g_a, int64_t lo[], int64_t hi[], int64_t map[], int procs[]) {
  return locate_region("NGA_Locate_region64", g_a, lo, hi, map, procs);
}

int NGA_Locate_num_blocks(int g_a, int lo[], int hi[]) {
  return locate_num_blocks("NGA_Locate_num_blocks", g_a, lo, hi);
}

int NGA_Locate_nnodes(int g_a, int lo[], int hi[]) {
  return locate_nnodes("NGA_Locate_nnodes", g_a, lo, hi);
}
int NGA_Locate_nnodes64(int g_a, int64_t lo[], int64_t hi[]) {
  return locate_nnodes("NGA_Locate_nnodes64", g_a, lo, hi);
}

int GA_Compare_distr(int g_a, int g_b) {
  const char* fn = "GA_Compare_distr";
  const GaArray& a = lookup_allocated(fn, g_a);
  const GaArray& b = lookup_allocated(fn, g_b);
  if (a.ndim != b.ndim || std::memcmp(a.dims, b.dims, sizeof(int64_t) * a.ndim) != 0) return 1;
  remora_distribution_kind_t kind_a, kind_b;
  check(fn, remora_array_kind(a.array, &kind_a));
  check(fn, remora_array_kind(b.array, &kind_b));
  if (is_cyclic(a) != is_cyclic(b)) return 1;
  int grid_a[GA_MAX_DIM] = {}, grid_b[GA_MAX_DIM] = {};
  process_grid(fn, a, grid_a);
  process_grid(fn, b, grid_b);
  if (std::memcmp(grid_a, grid_b, sizeof grid_a) != 0) return 1;
  if (is_cyclic(a))
    return kind_a == kind_b && a.block == b.block && a.map == b.map && a.nblock == b.nblock ? 0 : 1;
  // Block and irregular arrays: the same ranks, the same patch on every rank.
  if (array_ranks(a) != array_ranks(b)) return 1;
  for (int rank = 0; rank < array_ranks(a); ++rank) {
    int64_t lo_a[GA_MAX_DIM], hi_a[GA_MAX_DIM], lo_b[GA_MAX_DIM], hi_b[GA_MAX_DIM];
    owned_patch(fn, a, rank, lo_a, hi_a);
    owned_patch(fn, b, rank, lo_b, hi_b);
    if (std::memcmp(lo_a, lo_b, sizeof(int64_t) * a.ndim) != 0 ||
        std::memcmp(hi_a, hi_b, sizeof(int64_t) * a.ndim) != 0)
      return 1;
  }
  return 0;
}

void GA_Print_distribution(int g_a) {
  const char* fn = "GA_Print_distribution";
  const GaArray& a = lookup_allocated(fn, g_a);
  if (array_rank(a) != 0) return;
  std::printf("Array Handle=%d Name:'%s' Data Type:%s\n", g_a, a.name.c_str(), type_name(a.type));
  std::printf("Array Dimensions:");
  for (int d = 0; d < a.ndim; ++d)
    std::printf("%s%lld", d > 0 ? "x" : "", static_cast<long long>(a.dims[d]));
  std::printf("\n");
  int64_t lo[GA_MAX_DIM], hi[GA_MAX_DIM];
  if (is_cyclic(a)) {
    int64_t counts[GA_MAX_DIM], coords[GA_MAX_DIM];
    const int64_t total = block_counts(a, counts);
    for (int64_t idx = 0; idx < total; ++idx) {
      block_bounds(fn, a, idx, lo, hi);
      for (int d = 0; d < a.ndim; ++d) coords[d] = block_of(a, d, lo[d]);
      std::printf("Block=%lld  owner=%d  section: ", static_cast<long long>(idx),
                  block_owner(fn, a, coords));
      print_range(lo, hi, a.ndim);
      std::printf("\n");
    }
  } else {
    for (int rank = 0; rank < array_ranks(a); ++rank) {
      owned_patch(fn, a, rank, lo, hi);
      std::printf("Process=%d\towns array section: ", rank);
      print_range(lo, hi, a.ndim);
      std::printf("\n");
    }
  }
  std::fflush(stdout);
}

void NGA_Proc_topology(int g_a, int proc, int coordinates[]) {
  const char* fn = "NGA_Proc_topology";
  const GaArray& a = lookup_allocated(fn, g_a);
  if (coordinates == nullptr) ga_fail(fn, "coordinates is NULL");
  if (proc < 0 || proc >= array_ranks(a))
    ga_fail(fn, "proc=%d is outside [0, %d)", proc, array_ranks(a));
  int grid[GA_MAX_DIM];
  process_grid(fn, a, grid);
  if (a.layout == Layout::BlockCyclic)  // GA 5.8 divides by its zero grid here
    ga_fail(fn, "array '%s' deals its blocks round-robin (GA_Set_block_cyclic): no process grid",
            a.name.c_str());
  // Ranks run over the grid with the last C dimension fastest. GA's C binding copies its
  // Fortran-order coordinates without reversing them, so coordinates[0] is that of the last C
  // dimension. A rank beyond the grid owns nothing; GA's formula has no bound and wraps it
  // around the grid, and so does this one (GA 5.8 at 4 ranks, grid 2 x 1: rank 3 gets (1, 0)).
  for (int d = a.ndim - 1, rest = proc; d >= 0; --d) {
    coordinates[a.ndim - 1 - d] = rest % grid[d];
    rest /= grid[d];
  }
}

void GA_Get_proc_index(int g_a, int iproc, int subscript[]) {
  const char* fn = "GA_Get_proc_index";
  const GaArray& a = lookup_allocated(fn, g_a);
  if (subscript == nullptr) ga_fail(fn, "subscript is NULL");
  if (a.layout != Layout::ScalapackCyclic && a.layout != Layout::Tiled &&
      a.layout != Layout::TiledIrregular)
    ga_fail(fn, "array '%s' does not use a ScaLAPACK-style process grid", a.name.c_str());
  if (iproc < 0 || iproc >= array_ranks(a))
    ga_fail(fn, "iproc=%d is outside [0, %d)", iproc, array_ranks(a));
  int grid[GA_MAX_DIM];
  process_grid(fn, a, grid);
  // Ranks run over the grid row-major (block_owner), and GA returns C order here.
  for (int d = a.ndim - 1, rest = iproc; d >= 0; --d) {
    subscript[d] = rest % grid[d];
    rest /= grid[d];
  }
}

void GA_List_nodeid(int* list, int nprocs) {
  const char* fn = "GA_List_nodeid";
  require_initialized(fn);
  if (nprocs < 0 || nprocs > remora_size())
    ga_fail(fn, "nprocs=%d is outside [0, %d] (the number of processes)", nprocs, remora_size());
  if (list == nullptr && nprocs > 0) ga_fail(fn, "list is NULL");
  for (int i = 0; i < nprocs; ++i) list[i] = i;  // GA's ids are the world ranks
}

void GA_Get_proc_grid(int g_a, int dims[]) {
  const char* fn = "GA_Get_proc_grid";
  if (dims == nullptr) ga_fail(fn, "dims is NULL");
  const GaArray& a = lookup_allocated(fn, g_a);
  int grid[GA_MAX_DIM];
  process_grid(fn, a, grid);
  // In Fortran order, as GA's C binding returns it (the order of NGA_Proc_topology).
  for (int d = 0; d < a.ndim; ++d) dims[d] = grid[a.ndim - 1 - d];
}

void GA_Get_block_info(int g_a, int num_blocks[], int block_dims[]) {
  const char* fn = "GA_Get_block_info";
  const GaArray& a = lookup_allocated(fn, g_a);
  if (num_blocks == nullptr || block_dims == nullptr)
    ga_fail(fn, "num_blocks or block_dims is NULL");
  if (is_cyclic(a)) {
    int64_t counts[GA_MAX_DIM];
    block_counts(a, counts);
    from_int64(counts, a.ndim, num_blocks);
    if (a.layout == Layout::TiledIrregular) {  // no common extent: the first tile's
      for (int d = 0; d < a.ndim; ++d)
        block_dims[d] = static_cast<int>((counts[d] > 1 ? block_start(a, d, 1) : a.dims[d]) -
                                         block_start(a, d, 0));
      return;
    }
    from_int64(a.block.data(), a.ndim, block_dims);
    return;
  }
  process_grid(fn, a, num_blocks);
  for (int d = 0; d < a.ndim; ++d)
    block_dims[d] = static_cast<int>((a.dims[d] + num_blocks[d] - 1) / num_blocks[d]);
}

int GA_Valid_handle(int g_a) {
  require_initialized("GA_Valid_handle");
  return handle_active("GA_Valid_handle", g_a) ? 1 : 0;
}

int GA_Verify_handle(int g_a) {
  require_initialized("GA_Verify_handle");
  return handle_active("GA_Verify_handle", g_a) ? 1 : 0;
}

void GA_Check_handle(int g_a, char* string) {
  const char* fn = "GA_Check_handle";
  require_initialized(fn);
  const char* context = string != nullptr ? string : "(no context)";
  if (!handle_exists(g_a))
    ga_fail(fn, "%s: g_a=%d is not a valid array handle (never created, or destroyed)", context,
            g_a);
  if (lookup(fn, g_a).array == nullptr)
    ga_fail(fn, "%s: g_a=%d is not active: created but not allocated yet (GA_Allocate)", context,
            g_a);
}

int GA_Get_dimension(int g_a) {
  return lookup_allocated("GA_Get_dimension", g_a).ndim;
}

int GA_Uses_proc_grid(int g_a) {
  const GaArray& a = lookup_allocated("GA_Uses_proc_grid", g_a);
  return a.layout == Layout::ScalapackCyclic || a.layout == Layout::Tiled ? 1 : 0;
}

void GA_Nblock(int g_a, int nblock[]) {
  const char* fn = "GA_Nblock";
  if (nblock == nullptr) ga_fail(fn, "nblock is NULL");
  const GaArray& a = lookup_allocated(fn, g_a);
  if (is_cyclic(a)) {
    int64_t counts[GA_MAX_DIM];
    block_counts(a, counts);
    from_int64(counts, a.ndim, nblock);
    return;
  }
  process_grid(fn, a, nblock);
}

int GA_Total_blocks(int g_a) {
  const GaArray& a = lookup_allocated("GA_Total_blocks", g_a);
  if (!is_cyclic(a)) return -1;  // as GA: only block-cyclic arrays count blocks
  int64_t counts[GA_MAX_DIM];
  return static_cast<int>(block_counts(a, counts));
}

}  // extern "C"
