#include "arrays/owner_batches.hpp"

#include <algorithm>
#include <cstring>

#include "arrays/array.hpp"
#include "arrays/element_types.hpp"
#include "rma/reduce_op.hpp"

namespace remora::arrays {

std::vector<OwnerGroup> group_by_owner(const Distribution& dist, const int64_t* subscripts,
                                       size_t n) {
  const size_t ndim = static_cast<size_t>(dist.ndim());
  std::vector<int> owners(n);
  std::vector<int64_t> locals(n);
  int max_owner = -1;
  for (size_t k = 0; k < n; ++k) {
    dist.locate(subscripts + k * ndim, &owners[k], &locals[k]);
    max_owner = std::max(max_owner, owners[k]);
  }
  std::vector<OwnerGroup> by_rank(static_cast<size_t>(max_owner + 1));
  for (size_t k = 0; k < n; ++k)
    by_rank[static_cast<size_t>(owners[k])].elements.push_back({locals[k], k});
  std::vector<OwnerGroup> groups;
  for (size_t r = 0; r < by_rank.size(); ++r) {
    OwnerGroup& group = by_rank[r];
    if (group.elements.empty()) continue;
    group.owner = static_cast<int>(r);
    std::stable_sort(group.elements.begin(), group.elements.end(),
                     [](const auto& a, const auto& b) { return a.local < b.local; });
    for (size_t i = 0; i < group.elements.size(); ++i)
      if (i == 0 || group.elements[i].local != group.elements[i - 1].local)
        group.distinct.push_back(i);
    groups.push_back(std::move(group));
  }
  return groups;
}

namespace {

// The elements of distinct index j of group: [first, end) in group.elements.
size_t distinct_end(const OwnerGroup& group, size_t j) {
  return j + 1 < group.distinct.size() ? group.distinct[j + 1] : group.elements.size();
}

// A gather reads an owner's whole span of local indices in one transfer when it is at most
// this many times longer than the number of distinct indices (or short anyway).
constexpr int64_t kSpanFactor = 4;
constexpr int64_t kShortSpan = 512;

}  // namespace

int Array::scatter(const void* values, const int64_t* subscripts, size_t n) {
  const auto* in = static_cast<const char*>(values);
  std::vector<char> packed;
  for (const OwnerGroup& group : group_by_owner(dist_, subscripts, n)) {
    const int owner = world_rank(group.owner);  // owners are the array's ranks
    // Duplicates: the last value in the caller's list wins, as if put one after another.
    packed.resize(group.distinct.size() * element_);
    for (size_t j = 0; j < group.distinct.size(); ++j)
      std::memcpy(packed.data() + j * element_,
                  in + group.elements[distinct_end(group, j) - 1].position * element_, element_);
    int status = REMORA_SUCCESS;
    for_each_run(group, [&](size_t j, size_t count) {
      if (status != REMORA_SUCCESS) return;
      const size_t offset = static_cast<size_t>(group.elements[group.distinct[j]].local) * element_;
      status = transport_.put(window_->data_segment(), owner, offset, packed.data() + j * element_,
                              count * element_);
    });
    if (status != REMORA_SUCCESS) return status;
    touch(owner);
  }
  return REMORA_SUCCESS;
}

int Array::gather(void* values, const int64_t* subscripts, size_t n) {
  auto* out = static_cast<char*>(values);
  std::vector<char> fetched;
  for (const OwnerGroup& group : group_by_owner(dist_, subscripts, n)) {
    const int owner = world_rank(group.owner);  // owners are the array's ranks
    const int64_t first = group.elements.front().local, last = group.elements.back().local;
    const int64_t span = last - first + 1;
    const int64_t distinct = static_cast<int64_t>(group.distinct.size());
    const bool whole_span = span <= std::max(kShortSpan, kSpanFactor * distinct);
    int status = REMORA_SUCCESS;
    if (whole_span) {
      fetched.resize(static_cast<size_t>(span) * element_);
      status = transport_.get(window_->data_segment(), owner, static_cast<size_t>(first) * element_,
                              fetched.data(), fetched.size());
    } else {
      fetched.resize(group.distinct.size() * element_);
      for_each_run(group, [&](size_t j, size_t count) {
        if (status != REMORA_SUCCESS) return;
        const size_t offset =
            static_cast<size_t>(group.elements[group.distinct[j]].local) * element_;
        status = transport_.get(window_->data_segment(), owner, offset,
                                fetched.data() + j * element_, count * element_);
      });
    }
    if (status != REMORA_SUCCESS) return status;
    for (size_t j = 0; j < group.distinct.size(); ++j) {
      const size_t at =
          whole_span ? static_cast<size_t>(group.elements[group.distinct[j]].local - first) : j;
      for (size_t i = group.distinct[j]; i < distinct_end(group, j); ++i)
        std::memcpy(out + group.elements[i].position * element_, fetched.data() + at * element_,
                    element_);
    }
  }
  return REMORA_SUCCESS;
}

int Array::scatter_acc(const void* values, const int64_t* subscripts, size_t n, const void* alpha) {
  std::vector<char> combined;
  for (const OwnerGroup& group : group_by_owner(dist_, subscripts, n)) {
    const int owner = world_rank(group.owner);  // owners are the array's ranks
    // Duplicates are summed here, so each distinct element gets one update of alpha * sum.
    combined.assign(group.distinct.size() * element_, 0);
    dispatch(type_, [&](auto zero) {
      using T = decltype(zero);
      const T* in = static_cast<const T*>(values);
      T* sums = reinterpret_cast<T*>(combined.data());
      for (size_t j = 0; j < group.distinct.size(); ++j) {
        T sum = zero;
        for (size_t i = group.distinct[j]; i < distinct_end(group, j); ++i)
          sum += in[group.elements[i].position];
        sums[j] = sum;
      }
    });
    int status = REMORA_SUCCESS;
    for_each_run(group, [&](size_t j, size_t count) {
      if (status != REMORA_SUCCESS) return;
      rma::AccArgs args;
      args.target = owner;
      args.offset = static_cast<uint64_t>(group.elements[group.distinct[j]].local) * element_;
      args.origin = combined.data() + j * element_;
      args.count = count;
      args.type = type_;
      args.op = REMORA_OP_SCALED_SUM;
      args.alpha = alpha;
      status = window_->accumulate("remora_array_scatter_acc", args);
    });
    if (status != REMORA_SUCCESS) return status;
    touch(owner);
  }
  return REMORA_SUCCESS;
}

}  // namespace remora::arrays
