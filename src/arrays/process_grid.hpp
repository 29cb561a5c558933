// Process grids: how many ranks each dimension of an array is cut over.
#pragma once

#include <cstdint>
#include <vector>

namespace remora::arrays {

// Elemental's near-square 2-D grid: rows = the largest divisor of ranks not above its square
// root, columns = ranks / rows.
std::vector<int> near_square_grid(int ranks);

// Global Arrays' choice for block distributions: ranks split into prime factors, each factor
// (largest first) given to the dimension whose blocks are currently the longest. Dimensions
// never get more parts than elements, so some ranks may own nothing.
std::vector<int> block_grid(int ranks, const std::vector<int64_t>& dims);

// Row-major rank of grid coordinates, and back.
int grid_rank(const std::vector<int>& grid, const std::vector<int>& coords);
std::vector<int> grid_coords(const std::vector<int>& grid, int rank);
int grid_size(const std::vector<int>& grid);

}  // namespace remora::arrays
