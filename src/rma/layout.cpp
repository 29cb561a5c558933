#include "rma/layout.hpp"

#include <limits>

#include "core/error.hpp"
#include "remora/status.h"

namespace remora::rma {
namespace {

constexpr size_t kMax = std::numeric_limits<size_t>::max();

// a * b, or false on overflow.
bool multiply(size_t a, size_t b, size_t* product) {
  if (a != 0 && b > kMax / a) return false;
  *product = a * b;
  return true;
}

}  // namespace

void Layout::assign(size_t first, size_t block, std::vector<Level> levels) {
  // Drop repetitions of one; a level whose stride is the run length extends the run; a level
  // whose stride spans the level below extends that level.
  std::vector<Level> merged;
  for (const Level& level : levels) {
    if (level.count == 1) continue;
    if (merged.empty() && level.stride == block) {
      block *= level.count;
    } else if (!merged.empty() && level.stride == merged.back().count * merged.back().stride) {
      merged.back().count *= level.count;
    } else {
      merged.push_back(level);
    }
  }
  elements_ = block;
  extent_ = first + block;
  for (const Level& level : merged) {
    elements_ *= level.count;
    extent_ += (level.count - 1) * level.stride;
    if (level.count == 0) elements_ = 0;
  }
  if (elements_ == 0) {
    first = block = 0;
    merged.clear();
    extent_ = 0;
  }
  first_ = first;
  block_ = block;
  levels_ = std::move(merged);
}

size_t Layout::runs() const {
  if (elements_ == 0) return 0;
  size_t runs = 1;
  for (const Level& level : levels_) runs *= level.count;
  return runs;
}

int Layout::contiguous(const char*, size_t count, Layout* out) {
  out->assign(0, count, {});
  return REMORA_SUCCESS;
}

int Layout::vector(const char* function, size_t count, size_t blocklen, size_t stride,
                   Layout* out) {
  if (count > 1 && stride < blocklen)
    return fail(REMORA_ERR_ARG,
                "%s: stride=%zu is smaller than blocklen=%zu (blocks would overlap)", function,
                stride, blocklen);
  size_t span = 0;
  if (count > 0 && (!multiply(count - 1, stride, &span) || span > kMax - blocklen))
    return fail(REMORA_ERR_ARG, "%s: count=%zu blocks of stride=%zu overflow the address space",
                function, count, stride);
  out->assign(0, blocklen, {{count, stride}});
  return REMORA_SUCCESS;
}

int Layout::subarray(const char* function, int ndims, const size_t* sizes, const size_t* subsizes,
                     const size_t* starts, int order, Layout* out) {
  if (ndims < 1 || ndims > kMaxDims)
    return fail(REMORA_ERR_ARG, "%s: ndims=%d is not in [1, %d]", function, ndims, kMaxDims);
  if (sizes == nullptr || subsizes == nullptr || starts == nullptr)
    return fail(REMORA_ERR_ARG, "%s: %s is NULL", function,
                sizes == nullptr      ? "sizes"
                : subsizes == nullptr ? "subsizes"
                                      : "starts");
  if (order != kOrderC && order != kOrderFortran)
    return fail(REMORA_ERR_ARG,
                "%s: order=%d is neither REMORA_ORDER_C (0) nor REMORA_ORDER_FORTRAN (1)", function,
                order);
  // Dimensions from the fastest-varying one outwards.
  std::vector<Level> levels;
  size_t stride = 1, first = 0;
  for (int k = 0; k < ndims; ++k) {
    const int d = order == kOrderC ? ndims - 1 - k : k;
    if (sizes[d] == 0)
      return fail(REMORA_ERR_ARG, "%s: sizes[%d]=0 (every dimension needs an element)", function,
                  d);
    if (subsizes[d] > sizes[d] || starts[d] > sizes[d] - subsizes[d])
      return fail(REMORA_ERR_ARG, "%s: starts[%d]=%zu subsizes[%d]=%zu do not fit in sizes[%d]=%zu",
                  function, d, starts[d], d, subsizes[d], d, sizes[d]);
    size_t offset = 0;
    if (!multiply(starts[d], stride, &offset) || offset > kMax - first)
      return fail(REMORA_ERR_ARG, "%s: the array of sizes[] overflows the address space", function);
    first += offset;
    levels.push_back(Level{subsizes[d], stride});
    if (!multiply(stride, sizes[d], &stride))
      return fail(REMORA_ERR_ARG, "%s: the array of sizes[] overflows the address space", function);
  }
  // The fastest dimension is the run; the others repeat it.
  const size_t block = levels.front().count;
  levels.erase(levels.begin());
  out->assign(first, block, std::move(levels));
  return REMORA_SUCCESS;
}

RunCursor::RunCursor(const Layout& layout)
    : layout_(layout),
      index_(layout.levels().size(), 0),
      run_offset_(layout.first()),
      done_(layout.elements() == 0) {}

void RunCursor::advance(size_t count) {
  used_ += count;
  if (used_ < layout_.block()) return;
  used_ = 0;
  const std::vector<Layout::Level>& levels = layout_.levels();
  for (size_t i = 0; i < levels.size(); ++i) {
    if (++index_[i] < levels[i].count) {
      run_offset_ += levels[i].stride;
      return;
    }
    index_[i] = 0;
    run_offset_ -= (levels[i].count - 1) * levels[i].stride;
  }
  done_ = true;
}

}  // namespace remora::rma
