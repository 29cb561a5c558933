// Element lists (scatter, gather, scatter_acc) grouped per owner: every element is located
// once, the elements of each owner are sorted by local index (stably, so duplicates keep their
// order), and each owner then gets its distinct indices as runs of consecutive local indices:
// one transfer per run, or for a gather one transfer of the owner's whole span when the
// indices are dense enough. On memory this rank maps (every owner on shared memory) the
// transport's copies are plain loads and stores.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "arrays/distribution.hpp"

namespace remora::arrays {

struct OwnerGroup {
  int owner = 0;
  // Sorted by local index; position = the element's place in the caller's list.
  struct Element {
    int64_t local;
    size_t position;
  };
  std::vector<Element> elements;
  // distinct[j]: the first element (in elements) of the j-th distinct local index.
  std::vector<size_t> distinct;
};

// The owners the n elements (subscripts: n * ndim indices) touch, in rank order.
std::vector<OwnerGroup> group_by_owner(const Distribution& dist, const int64_t* subscripts,
                                       size_t n);

// Calls visit(first distinct index, count) for each run of consecutive local indices of group.
template <typename Visit>
void for_each_run(const OwnerGroup& group, Visit&& visit) {
  const size_t n = group.distinct.size();
  for (size_t j = 0; j < n;) {
    size_t end = j + 1;
    while (end < n && group.elements[group.distinct[end]].local ==
                          group.elements[group.distinct[end - 1]].local + 1)
      ++end;
    visit(j, end - j);
    j = end;
  }
}

}  // namespace remora::arrays
