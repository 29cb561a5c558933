#include "arrays/process_grid.hpp"

#include <algorithm>

namespace remora::arrays {

std::vector<int> near_square_grid(int ranks) {
  int rows = 1;
  for (int r = 1; static_cast<int64_t>(r) * r <= ranks; ++r)
    if (ranks % r == 0) rows = r;
  return {rows, ranks / rows};
}

std::vector<int> block_grid(int ranks, const std::vector<int64_t>& dims) {
  std::vector<int> factors;
  int rest = ranks;
  for (int f = 2; f * f <= rest; ++f)
    while (rest % f == 0) {
      factors.push_back(f);
      rest /= f;
    }
  if (rest > 1) factors.push_back(rest);
  std::sort(factors.rbegin(), factors.rend());
  std::vector<int> grid(dims.size(), 1);
  for (int factor : factors) {
    // The dimension with the longest blocks that can still be cut factor-fold more.
    int best = -1;
    double longest = 0;
    for (size_t d = 0; d < dims.size(); ++d) {
      if (static_cast<int64_t>(grid[d]) * factor > dims[d]) continue;
      const double length = static_cast<double>(dims[d]) / grid[d];
      if (best < 0 || length > longest) {
        best = static_cast<int>(d);
        longest = length;
      }
    }
    if (best >= 0) grid[static_cast<size_t>(best)] *= factor;
  }
  return grid;
}

int grid_size(const std::vector<int>& grid) {
  int size = 1;
  for (int g : grid) size *= g;
  return size;
}

int grid_rank(const std::vector<int>& grid, const std::vector<int>& coords) {
  int rank = 0;
  for (size_t d = 0; d < grid.size(); ++d) rank = rank * grid[d] + coords[d];
  return rank;
}

std::vector<int> grid_coords(const std::vector<int>& grid, int rank) {
  std::vector<int> coords(grid.size());
  for (size_t d = grid.size(); d-- > 0;) {
    coords[d] = rank % grid[d];
    rank /= grid[d];
  }
  return coords;
}

}  // namespace remora::arrays
