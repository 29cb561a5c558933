// Blocks dealt round-robin (Global Arrays' GA_Set_block_cyclic): an N-d array cut into blocks
// of fixed extents (the last block of a dimension may be shorter), numbered row-major over the
// block grid (the last dimension fastest); block k lives on rank k mod P. Each rank stores its
// blocks one after another in increasing number, each dense and row-major with its own
// extents, as GA does (NGA_Access_block_segment shows that memory). Ownership is not a product
// of per-dimension cycles, so this is a layout of its own beside Distribution's grids.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "arrays/block_store.hpp"

namespace remora::arrays {

class BlockDeal final : public BlockStore {
 public:
  BlockDeal(std::vector<int64_t> dims, std::vector<int64_t> block, int ranks);

  int ndim() const override { return static_cast<int>(dims_.size()); }
  int ranks() const { return ranks_; }
  const std::vector<int64_t>& dims() const { return dims_; }
  const std::vector<int64_t>& block() const { return block_; }
  int64_t blocks(int d) const override { return counts_[static_cast<size_t>(d)]; }
  int64_t start(int d, int64_t c) const override { return c * block_[static_cast<size_t>(d)]; }
  int64_t extent(int d, int64_t c) const override;
  int64_t block_of(int d, int64_t index) const override {
    return index / block_[static_cast<size_t>(d)];
  }
  // The number of the block with block coordinates coords (row-major); block k is on k mod P.
  int64_t number(const int64_t* coords) const;
  int owner(const int64_t* coords) const override {
    return static_cast<int>(number(coords) % ranks_);
  }
  int64_t offset(const int64_t* coords) const override;
  int64_t local_elements(int rank) const override;
  // 1 x ... x 1 x (the rank's element count): the blocks are not a grid per rank.
  int64_t local_extent(int rank, int d) const override {
    return d + 1 < ndim() ? 1 : local_elements(rank);
  }
  bool same(const BlockStore& other) const override {
    const auto* deal = dynamic_cast<const BlockDeal*>(&other);
    return deal != nullptr && dims_ == deal->dims_ && block_ == deal->block_ &&
           ranks_ == deal->ranks_;
  }

 private:
  // Sums of sizes over residues mod P. For dimension d, suffix[d][r] is the total size of the
  // blocks of the sub-grid of dimensions d+1.. whose number there is r mod P; walk(d, s, m) is
  // the sum of suffix[d][(s - x * step_d) mod P] over x in [0, m), which counts the blocks that
  // precede a block along dimension d. The residues s - x * step cycle with period P / gcd;
  // each cycle's prefix sums (laid out twice, so a walk never wraps) make a walk O(1).
  struct Walk {
    int64_t step = 0;               // blocks per step of dimension d, mod P
    int64_t period = 1;             // P / gcd(step, P)
    std::vector<int64_t> position;  // of each residue in its cycle
    std::vector<int64_t> prefix;    // per cycle (gcd of them): 2 * period + 1 partial sums
  };
  int64_t walk(int d, int64_t start, int64_t count) const;

  std::vector<int64_t> dims_, block_, counts_;
  int ranks_ = 1;
  std::vector<Walk> walks_;
  std::vector<int64_t> per_rank_;  // local elements of each residue (rank)
};

}  // namespace remora::arrays
