#include "arrays/block_deal.hpp"

#include <numeric>

namespace remora::arrays {

namespace {
int64_t residue(int64_t value, int64_t modulus) {
  return ((value % modulus) + modulus) % modulus;
}
}  // namespace

BlockDeal::BlockDeal(std::vector<int64_t> dims, std::vector<int64_t> block, int ranks)
    : dims_(std::move(dims)), block_(std::move(block)), ranks_(ranks) {
  const size_t n = dims_.size();
  const int64_t p = ranks_;
  counts_.resize(n);
  for (size_t d = 0; d < n; ++d) counts_[d] = (dims_[d] + block_[d] - 1) / block_[d];
  walks_.resize(n);
  // suffix: the sizes of the sub-grid after dimension d per residue; empty sub-grid first.
  std::vector<int64_t> suffix(static_cast<size_t>(p), 0), next(static_cast<size_t>(p));
  suffix[0] = 1;
  int64_t step = 1 % p;
  for (size_t d = n; d-- > 0;) {
    Walk& w = walks_[d];
    w.step = step;
    const int64_t cycles = std::gcd(step, p);  // gcd(0, P) = P: every residue its own cycle
    w.period = p / cycles;
    const int64_t width = 2 * w.period + 1;
    w.position.assign(static_cast<size_t>(p), 0);
    w.prefix.assign(static_cast<size_t>(cycles * width), 0);
    for (int64_t c = 0; c < cycles; ++c)
      for (int64_t x = 0; x < 2 * w.period; ++x) {
        const int64_t r = residue(c - x * step, p);
        if (x < w.period) w.position[static_cast<size_t>(r)] = x;
        const size_t at = static_cast<size_t>(c * width + x);
        w.prefix[at + 1] = w.prefix[at] + suffix[static_cast<size_t>(r)];
      }
    // Blocks 0 .. counts-2 of dimension d are full, the last one may be shorter.
    const int64_t last = counts_[d] - 1;
    for (int64_t r = 0; r < p; ++r)
      next[static_cast<size_t>(r)] =
          block_[d] * walk(static_cast<int>(d), r, last) +
          extent(static_cast<int>(d), last) *
              suffix[static_cast<size_t>(residue(r - (last % p) * step, p))];
    suffix.swap(next);
    step = step * (counts_[d] % p) % p;
  }
  per_rank_ = std::move(suffix);
}

int64_t BlockDeal::walk(int d, int64_t start, int64_t count) const {
  const Walk& w = walks_[static_cast<size_t>(d)];
  const int64_t cycles = ranks_ / w.period, width = 2 * w.period + 1;
  const int64_t base = (start % cycles) * width;
  const int64_t x = w.position[static_cast<size_t>(start)];
  const auto at = [&](int64_t i) { return w.prefix[static_cast<size_t>(base + i)]; };
  return (count / w.period) * at(w.period) + at(x + count % w.period) - at(x);
}

int64_t BlockDeal::extent(int d, int64_t c) const {
  const size_t u = static_cast<size_t>(d);
  return c + 1 < counts_[u] ? block_[u] : dims_[u] - c * block_[u];
}

int64_t BlockDeal::number(const int64_t* coords) const {
  int64_t k = 0;
  for (int d = 0; d < ndim(); ++d) k = k * counts_[static_cast<size_t>(d)] + coords[d];
  return k;
}

// The blocks before this one on the same rank: for each dimension d, those that share the
// coordinates before d and have a smaller one at d (all full along d), whatever follows.
int64_t BlockDeal::offset(const int64_t* coords) const {
  const int n = ndim();
  int64_t tail[8] = {};  // the block's number from dimension d on, mod P
  for (int d = n; d-- > 0;)
    tail[d] = ((coords[d] % ranks_) * walks_[static_cast<size_t>(d)].step + tail[d + 1]) % ranks_;
  int64_t before = 1, total = 0;
  for (int d = 0; d < n; ++d) {
    total += before * block_[static_cast<size_t>(d)] * walk(d, tail[d], coords[d]);
    before *= extent(d, coords[d]);
  }
  return total;
}

int64_t BlockDeal::local_elements(int rank) const {
  return rank >= 0 && rank < ranks_ ? per_rank_[static_cast<size_t>(rank)] : 0;
}

}  // namespace remora::arrays
