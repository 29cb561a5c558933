// GA's view of how an array is cut: the process grid, and for block-cyclic arrays the blocks
// (numbered row-major over the block grid, as GA's C API numbers them) and their owners.
#pragma once

#include <cstdint>

#include "ga/ga_registry.hpp"

namespace remora::ga {

bool is_cyclic(const GaArray& a);
// The process grid (ndim entries; zeros for GA_Set_block_cyclic arrays, which have none).
void process_grid(const char* fn, const GaArray& a, int* grid);
// Block-cyclic arrays: blocks per dimension and their total.
int64_t block_counts(const GaArray& a, int64_t* counts);
// Block-cyclic arrays: the start of block k of dimension d, and the block holding index.
int64_t block_start(const GaArray& a, int d, int64_t k);
int64_t block_of(const GaArray& a, int d, int64_t index);
// The bounds of block idx (row-major block index) of a block-cyclic array.
void block_bounds(const char* fn, const GaArray& a, int64_t idx, int64_t* lo, int64_t* hi);
// The rank owning the block with block coordinates coords.
int block_owner(const char* fn, const GaArray& a, const int64_t* coords);
// lo..hi of what rank (a rank of the array's group) owns (block and irregular arrays); GA's
// empty patch lo = 0, hi = -1 when it owns nothing.
void owned_patch(const char* fn, const GaArray& a, int rank, int64_t* lo, int64_t* hi);

}  // namespace remora::ga
