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

namespace remora::arrays {

class BlockDeal {
 public:
  BlockDeal(std::vector<int64_t> dims, std::vector<int64_t> block, int ranks);

  int ndim() const { return static_cast<int>(dims_.size()); }
  int ranks() const { return ranks_; }
  const std::vector<int64_t>& dims() const { return dims_; }
  const std::vector<int64_t>& block() const { return block_; }
  // Blocks along dimension d, and the extent of block c of dimension d.
  int64_t blocks(int d) const { return counts_[static_cast<size_t>(d)]; }
  int64_t extent(int d, int64_t c) const;
  // The number of the block with block coordinates coords, and its owner.
  int64_t number(const int64_t* coords) const;
  int owner(int64_t number) const { return static_cast<int>(number % ranks_); }
  // Where the block with these coordinates starts in its owner's local array (elements).
  int64_t offset(const int64_t* coords) const;
  int64_t local_elements(int rank) const;
  // The owner of one element and its index in the owner's local array.
  void locate(const int64_t* index, int* owner, int64_t* local) const;
  bool operator==(const BlockDeal& other) const {
    return dims_ == other.dims_ && block_ == other.block_ && ranks_ == other.ranks_;
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
