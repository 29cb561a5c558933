// Process grids, distributions and the decomposition of patches into per-owner strided
// transfers: every element of a patch is covered by exactly one tile, at the local index the
// owner stores it at, and tiles to one owner are coalesced into few strided levels.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "arrays/block_deal.hpp"
#include "arrays/distribution.hpp"
#include "arrays/grid_tiles.hpp"
#include "arrays/patch_plan.hpp"
#include "arrays/process_grid.hpp"

using namespace remora::arrays;

TEST(ProcessGrid, NearSquareAsElemental) {
  EXPECT_EQ(near_square_grid(1), (std::vector<int>{1, 1}));
  EXPECT_EQ(near_square_grid(4), (std::vector<int>{2, 2}));
  EXPECT_EQ(near_square_grid(6), (std::vector<int>{2, 3}));
  EXPECT_EQ(near_square_grid(8), (std::vector<int>{2, 4}));
  EXPECT_EQ(near_square_grid(5), (std::vector<int>{1, 5}));
  EXPECT_EQ(near_square_grid(12), (std::vector<int>{3, 4}));
}

TEST(ProcessGrid, BlockGridFollowsTheShape) {
  EXPECT_EQ(block_grid(4, {100, 10}), (std::vector<int>{4, 1}));
  EXPECT_EQ(block_grid(4, {10, 10}), (std::vector<int>{2, 2}));
  EXPECT_EQ(block_grid(8, {2, 2, 2}), (std::vector<int>{2, 2, 2}));
  // Never more parts than elements: a 1-element dimension is never cut.
  EXPECT_EQ(block_grid(6, {1, 30}), (std::vector<int>{1, 6}));
  EXPECT_EQ(grid_rank({2, 3}, {1, 2}), 5);
  EXPECT_EQ(grid_coords({2, 3}, 4), (std::vector<int>{1, 1}));
}

namespace {

std::vector<Distribution> distributions(int ranks) {
  std::vector<Distribution> out;
  out.push_back(Distribution::block_default({13, 11}, ranks));
  out.push_back(Distribution::block_default({5, 4, 3, 6}, ranks));
  out.push_back(Distribution::blocked(REMORA_DIST_IRREGULAR, {10, 9}, {{0, 1, 7}, {0, 4}}));
  out.push_back(Distribution::cyclic(REMORA_DIST_BLOCK_CYCLIC, {13, 11}, {2, 3}, {2, 2}));
  out.push_back(Distribution::cyclic(REMORA_DIST_BLOCK_CYCLIC, {13, 11}, {4, 1}, {1, 3}));
  out.push_back(Distribution::cyclic(REMORA_DIST_ELEMENT_CYCLIC, {13, 11}, {1, 1}, {2, 3}));
  out.push_back(Distribution::dealt({13, 11}, {2, 3}, ranks));
  out.push_back(Distribution::dealt({5, 4, 3, 6}, {2, 3, 2, 4}, ranks));
  return out;
}

int64_t linear(const std::vector<int64_t>& extents, const std::vector<int64_t>& index) {
  int64_t o = 0;
  for (size_t d = 0; d < extents.size(); ++d) o = o * extents[d] + index[d];
  return o;
}

}  // namespace

TEST(Distribution, LocalShapesPartitionTheArray) {
  // Fixed grids need 6 ranks; the default block grids adapt to any count.
  for (int ranks : {1, 2, 3, 5, 6}) {
    for (const Distribution& dist : distributions(ranks)) {
      if (ranks != 6 && dist.kind() != REMORA_DIST_BLOCK) continue;
      int64_t total = 0;
      for (int r = 0; r < ranks; ++r) total += dist.local_elements(r);
      EXPECT_EQ(total, dist.elements()) << "ranks " << ranks << " kind " << dist.kind();
    }
  }
}

// Every element of random patches: exactly one tile holds it, at the owner and local index
// that locate() gives.
TEST(PatchPlan, TilesCoverEachElementOnceWhereItLives) {
  std::mt19937_64 rng(3);
  for (const Distribution& dist : distributions(6)) {
    const size_t ndim = dist.dims().size();
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<int64_t> lo(ndim), hi(ndim);
      for (size_t d = 0; d < ndim; ++d) {
        const int64_t a = static_cast<int64_t>(rng() % dist.dims()[d]);
        const int64_t b = static_cast<int64_t>(rng() % dist.dims()[d]);
        lo[d] = std::min(a, b);
        hi[d] = std::max(a, b);
      }
      std::map<std::vector<int64_t>, int> seen;
      for_each_tile(dist, lo.data(), hi.data(), [&](const Tile& tile) {
        std::vector<int64_t> k(ndim, 0);
        EXPECT_EQ(tile.local.size(), ndim);
        for (;;) {
          std::vector<int64_t> global(ndim), local(ndim);
          for (size_t d = 0; d < ndim; ++d) {
            global[d] = tile.runs[d].global_start + k[d] * tile.runs[d].step;
            local[d] = tile.runs[d].local_start + k[d];
          }
          int owner = -1;
          int64_t index = -1;
          dist.locate(global.data(), &owner, &index);
          EXPECT_EQ(owner, tile.owner);
          EXPECT_EQ(index, tile.local_base + linear(tile.local, local));
          ++seen[global];
          size_t d = ndim;
          while (d-- > 0 && ++k[d] == tile.runs[d].length) k[d] = 0;
          if (d == static_cast<size_t>(-1)) break;
        }
      });
      int64_t expected = 1;
      for (size_t d = 0; d < ndim; ++d) expected *= hi[d] - lo[d] + 1;
      EXPECT_EQ(static_cast<int64_t>(seen.size()), expected);
      for (const auto& [index, count] : seen) EXPECT_EQ(count, 1);
    }
  }
}

// Blocks dealt round-robin, against a serial model of GA's storage: every block numbered
// row-major goes to rank k mod P, which stores its blocks one after another in number order,
// each row-major with its own extents. Every element is located where the model puts it, and
// each rank's element count is the model's, for shapes with short last blocks and P = 1..13.
TEST(BlockDeal, LocatesEveryElementWhereGaStoresIt) {
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> shapes = {
      {{10, 9}, {3, 2}}, {{5, 4, 3}, {2, 3, 2}}, {{11}, {3}},        {{7, 7, 7, 5}, {2, 3, 1, 2}},
      {{1, 1}, {1, 1}},  {{6, 4}, {6, 4}},       {{13, 11}, {1, 1}}, {{9, 8, 7}, {4, 4, 4}}};
  for (const auto& [dims, block] : shapes) {
    const size_t n = dims.size();
    std::vector<int64_t> counts(n);
    int64_t blocks = 1, elements = 1;
    for (size_t d = 0; d < n; ++d) {
      counts[d] = (dims[d] + block[d] - 1) / block[d];
      blocks *= counts[d];
      elements *= dims[d];
    }
    for (int ranks = 1; ranks <= 13; ++ranks) {
      const BlockDeal deal(dims, block, ranks);
      std::vector<int64_t> filled(static_cast<size_t>(ranks), 0);
      int checked = 0;
      for (int64_t k = 0; k < blocks; ++k) {
        std::vector<int64_t> c(n), lo(n), extent(n), i(n);
        for (size_t d = n, rest = static_cast<size_t>(k); d-- > 0; rest /= counts[d]) {
          c[d] = static_cast<int64_t>(rest % static_cast<size_t>(counts[d]));
          lo[d] = c[d] * block[d];
          extent[d] = std::min(block[d], dims[d] - lo[d]);
        }
        ASSERT_EQ(deal.number(c.data()), k);
        const int owner = static_cast<int>(k % ranks);
        int64_t& at = filled[static_cast<size_t>(owner)];
        for (;;) {  // the block's elements, row-major: the owner's next places
          std::vector<int64_t> global(n);
          for (size_t d = 0; d < n; ++d) global[d] = lo[d] + i[d];
          int got_owner = -1;
          int64_t got_local = -1;
          deal.locate(global.data(), &got_owner, &got_local);
          ASSERT_EQ(got_owner, owner) << "ranks " << ranks << " block " << k;
          ASSERT_EQ(got_local, at++) << "ranks " << ranks << " block " << k;
          ++checked;
          size_t d = n;
          while (d-- > 0 && ++i[d] == extent[d]) i[d] = 0;
          if (d == static_cast<size_t>(-1)) break;
        }
      }
      EXPECT_EQ(checked, elements);
      for (int r = 0; r < ranks; ++r)
        EXPECT_EQ(deal.local_elements(r), filled[static_cast<size_t>(r)]) << "rank " << r;
    }
  }
}

// Tiles on a process grid, against a serial model of GA's tiled storage: walking the tiles in
// row-major tile order, each goes to grid position (c_d mod grid[d]) and is appended, row-major
// with its own extents, to that rank's memory. Every element is located where the model puts it
// and each rank's element count and local extents are the model's; every patch's tiles (through
// for_each_tile) start where the model puts their first element. 1- to 4-d, regular and
// irregular tiles, grids of every rank count and one smaller than the ranks (the rest own
// nothing).
TEST(GridTiles, LocatesEveryElementWhereGaStoresIt) {
  struct Case {
    std::vector<int64_t> dims;
    std::vector<std::vector<int64_t>> starts;
    std::vector<int> grid;
    int ranks;
  };
  const std::vector<Case> cases = {
      {{23}, {{0, 4, 8, 12, 16, 20}}, {3}, 3},
      {{20}, {{0, 5, 6, 12}}, {2}, 4},
      {{10, 9}, {{0, 3, 6, 9}, {0, 2, 4, 6, 8}}, {2, 2}, 4},
      {{7, 6, 5}, {{0, 2, 4, 6}, {0, 4}, {0, 2, 4}}, {2, 1, 2}, 4},
      {{7, 6, 5}, {{0, 1, 4}, {0, 3, 5}, {0, 2}}, {3, 2, 1}, 6},
      {{5, 4, 3, 6}, {{0, 2, 4}, {0, 3}, {0, 2}, {0, 4}}, {1, 2, 1, 2}, 4},
      {{5, 4, 3, 6}, {{0, 2, 4}, {0, 3}, {0, 2}, {0, 4}}, {1, 1, 1, 1}, 3}};
  for (const Case& k : cases) {
    const size_t n = k.dims.size();
    const GridTiles tiles(k.dims, k.starts, k.grid);
    std::map<std::vector<int64_t>, std::pair<int, int64_t>> model;  // element -> (owner, local)
    std::vector<int64_t> filled(static_cast<size_t>(k.ranks), 0);
    std::vector<int64_t> c(n, 0);
    for (;;) {  // tiles, row-major
      std::vector<int64_t> lo(n), extent(n), i(n, 0);
      int owner = 0;
      for (size_t d = 0; d < n; ++d) {
        lo[d] = k.starts[d][static_cast<size_t>(c[d])];
        const auto next = static_cast<size_t>(c[d]) + 1;
        extent[d] = (next < k.starts[d].size() ? k.starts[d][next] : k.dims[d]) - lo[d];
        owner = owner * k.grid[d] + static_cast<int>(c[d] % k.grid[d]);
      }
      ASSERT_EQ(tiles.owner(c.data()), owner);
      ASSERT_EQ(tiles.offset(c.data()), filled[static_cast<size_t>(owner)]);
      for (;;) {
        std::vector<int64_t> global(n);
        for (size_t d = 0; d < n; ++d) global[d] = lo[d] + i[d];
        model[global] = {owner, filled[static_cast<size_t>(owner)]++};
        size_t d = n;
        while (d-- > 0 && ++i[d] == extent[d]) i[d] = 0;
        if (d == static_cast<size_t>(-1)) break;
      }
      size_t d = n;
      while (d-- > 0 && ++c[d] == static_cast<int64_t>(k.starts[d].size())) c[d] = 0;
      if (d == static_cast<size_t>(-1)) break;
    }
    const Distribution dist = Distribution::tiled(k.dims, k.starts, k.grid);
    for (const auto& [index, where] : model) {
      int owner = -1;
      int64_t local = -1;
      dist.locate(index.data(), &owner, &local);
      ASSERT_EQ(owner, where.first);
      ASSERT_EQ(local, where.second);
    }
    for (int r = 0; r < k.ranks; ++r) {
      EXPECT_EQ(dist.local_elements(r), filled[static_cast<size_t>(r)]) << "rank " << r;
      int64_t product = 1;
      for (int d = 0; d < static_cast<int>(n); ++d) product *= dist.local_extent(r, d);
      EXPECT_EQ(product, filled[static_cast<size_t>(r)]) << "rank " << r;
    }
    // Random patches: every element covered once, at the model's place.
    std::mt19937 rng(7);
    for (int trial = 0; trial < 50; ++trial) {
      std::vector<int64_t> lo(n), hi(n);
      for (size_t d = 0; d < n; ++d) {
        std::uniform_int_distribution<int64_t> pick(0, k.dims[d] - 1);
        lo[d] = pick(rng);
        hi[d] = pick(rng);
        if (lo[d] > hi[d]) std::swap(lo[d], hi[d]);
      }
      int64_t covered = 0, expected = 1;
      for (size_t d = 0; d < n; ++d) expected *= hi[d] - lo[d] + 1;
      for_each_tile(dist, lo.data(), hi.data(), [&](const Tile& tile) {
        std::vector<int64_t> i(n, 0);
        for (;;) {
          std::vector<int64_t> global(n);
          int64_t within = 0;
          for (size_t d = 0; d < n; ++d) {
            global[d] = tile.runs[d].global_start + i[d];
            within = within * tile.local[d] + tile.runs[d].local_start + i[d];
          }
          const auto& where = model.at(global);
          EXPECT_EQ(tile.owner, where.first);
          EXPECT_EQ(tile.local_base + within, where.second);
          ++covered;
          size_t d = n;
          while (d-- > 0 && ++i[d] == tile.runs[d].length) i[d] = 0;
          if (d == static_cast<size_t>(-1)) break;
        }
      });
      EXPECT_EQ(covered, expected);
    }
  }
}

// One strided transfer per owner for block and element-cyclic layouts, with contiguous
// levels merged.
TEST(PatchPlan, TransfersAreCoalescedPerOwner) {
  const Distribution block = Distribution::block_default({40, 10}, 4);  // grid 4 x 1
  ASSERT_EQ(block.grid(), (std::vector<int>{4, 1}));
  const int64_t lo[2] = {1, 0}, hi[2] = {38, 9};
  std::vector<int64_t> user = buffer_strides(2, std::vector<int64_t>{10}.data());
  int tiles = 0;
  for_each_tile(block, lo, hi, [&](const Tile& tile) {
    ++tiles;
    const TileTransfer t = tile_transfer(tile, lo, user, 8);
    EXPECT_EQ(t.shape.levels, 0) << "full rows of a row block are one contiguous run";
  });
  EXPECT_EQ(tiles, 4);

  const Distribution cyclic =
      Distribution::cyclic(REMORA_DIST_ELEMENT_CYCLIC, {12, 10}, {1, 1}, {2, 2});
  tiles = 0;
  const int64_t clo[2] = {1, 0}, chi[2] = {10, 9};
  for_each_tile(cyclic, clo, chi, [&](const Tile& tile) {
    ++tiles;
    const TileTransfer t = tile_transfer(tile, clo, user, 8);
    EXPECT_EQ(t.shape.levels, 2);
    EXPECT_EQ(t.shape.count[0], 8u);
  });
  EXPECT_EQ(tiles, 4) << "one strided transfer per owner";
}

TEST(PatchPlan, MergedShapeJoinsContiguousAxes) {
  // 3 x 4 doubles, contiguous on both sides: one block of 96 bytes.
  const auto whole = merged_shape({{3, 32, 32}, {4, 8, 8}}, 8);
  EXPECT_EQ(whole.levels, 0);
  EXPECT_EQ(whole.count[0], 96u);
  // Padded rows on side a: one level of 3 rows.
  const auto padded = merged_shape({{3, 40, 32}, {4, 8, 8}}, 8);
  EXPECT_EQ(padded.levels, 1);
  EXPECT_EQ(padded.count[0], 32u);
  EXPECT_EQ(padded.count[1], 3u);
  EXPECT_EQ(padded.local_stride[0], 40u);
  EXPECT_EQ(padded.remote_stride[0], 32u);
}
