// Layouts (datatypes) of origin and target buffers: which elements an operation touches, in
// order. contiguous, vector and N-dimensional subarray all become one normal form: runs of
// `block` contiguous elements, repeated over up to kMaxDims levels of (count, stride), starting
// at element `first`. Normalising merges levels that are contiguous with the run below them, so
// a vector with stride == blocklen, or a subarray spanning whole rows, is one long run.
// Operations walk the runs of both layouts together and issue one contiguous operation per
// piece that is contiguous on both sides (matched_runs), coalescing adjacent pieces.
#pragma once

#include <cstddef>
#include <vector>

namespace remora::rma {

class Layout {
 public:
  static constexpr int kMaxDims = 32;
  static constexpr int kOrderC = 0;        // last index varies fastest
  static constexpr int kOrderFortran = 1;  // first index varies fastest

  // Each validates its arguments, failing with REMORA_ERR_ARG and a message naming function.
  static int contiguous(const char* function, size_t count, Layout* out);
  // count blocks of blocklen elements, block i starting at element i * stride (stride >=
  // blocklen: blocks never overlap).
  static int vector(const char* function, size_t count, size_t blocklen, size_t stride,
                    Layout* out);
  // The subsizes[] box at starts[] of an array of sizes[] elements, in the given order.
  static int subarray(const char* function, int ndims, const size_t* sizes, const size_t* subsizes,
                      const size_t* starts, int order, Layout* out);

  size_t elements() const { return elements_; }
  // Elements from element 0 to one past the last element touched.
  size_t extent() const { return extent_; }
  size_t runs() const;

  struct Level {
    size_t count;
    size_t stride;  // in elements
  };
  size_t first() const { return first_; }
  size_t block() const { return block_; }
  const std::vector<Level>& levels() const { return levels_; }

 private:
  // Sets first_, block_, levels_ (innermost first), then merges and sizes them.
  void assign(size_t first, size_t block, std::vector<Level> levels);

  size_t first_ = 0;
  size_t block_ = 0;
  std::vector<Level> levels_;
  size_t elements_ = 0;
  size_t extent_ = 0;
};

// A stretch of count elements contiguous in both buffers, at these element offsets.
struct MatchedRun {
  size_t origin;
  size_t target;
  size_t count;
};

// Calls visit(run) for each maximal stretch contiguous in both layouts, in element order; stops
// at and returns the first non-zero result. The layouts must have the same number of elements.
template <typename Visit>
int matched_runs(const Layout& origin, const Layout& target, const Visit& visit);

// Steps through one layout's runs.
class RunCursor {
 public:
  explicit RunCursor(const Layout& layout);
  bool done() const { return done_; }
  size_t offset() const { return run_offset_ + used_; }    // the next element
  size_t left() const { return layout_.block() - used_; }  // elements left in this run
  void advance(size_t count);

 private:
  const Layout& layout_;
  std::vector<size_t> index_;
  size_t run_offset_ = 0;
  size_t used_ = 0;
  bool done_ = false;
};

template <typename Visit>
int matched_runs(const Layout& origin, const Layout& target, const Visit& visit) {
  RunCursor a(origin), b(target);
  MatchedRun pending{0, 0, 0};
  while (!a.done() && !b.done()) {
    const size_t count = a.left() < b.left() ? a.left() : b.left();
    if (pending.count > 0 && pending.origin + pending.count == a.offset() &&
        pending.target + pending.count == b.offset()) {
      pending.count += count;
    } else {
      if (pending.count > 0)
        if (int status = visit(pending)) return status;
      pending = MatchedRun{a.offset(), b.offset(), count};
    }
    a.advance(count);
    b.advance(count);
  }
  return pending.count > 0 ? visit(pending) : 0;
}

}  // namespace remora::rma
