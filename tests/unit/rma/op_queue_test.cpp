// The deferred epochs' operation queue: issue order, get-last order, copies of origin data and
// per-target counts.
#include "rma/op_queue.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "remora/status.h"
#include "remora/win.h"

namespace remora::rma {
namespace {

// One letter per operation kind and its target, e.g. "P1 G0 A2".
std::string trace(const OpQueue& queue, bool get_last) {
  std::string out;
  auto record = [&out](const QueuedOp& op) {
    const char kind = op.kind == OpKind::Put ? 'P' : op.kind == OpKind::Get ? 'G' : 'A';
    if (!out.empty()) out += ' ';
    out += kind;
    out += std::to_string(op.target);
    return 0;
  };
  if (get_last)
    queue.for_each_get_last(record);
  else
    queue.for_each(record);
  return out;
}

AccArgs fetch_add(int target, const int64_t* origin, int64_t* result) {
  AccArgs args;
  args.target = target;
  args.origin = origin;
  args.result = result;
  args.count = 1;
  args.type = REMORA_INT64;
  args.op = REMORA_OP_SUM;
  return args;
}

TEST(OpQueue, IssueOrderAndGetLast) {
  OpQueue queue;
  int64_t value = 1, result = 0;
  queue.push_get(0, 0, &result, 8);
  queue.push_put(1, 8, &value, 8);
  queue.push_get(2, 0, &result, 8);
  queue.push_accumulate(fetch_add(2, &value, &result));  // a result: keeps its place
  queue.push_put(0, 0, &value, 8);
  EXPECT_EQ(trace(queue, false), "G0 P1 G2 A2 P0");
  EXPECT_EQ(trace(queue, true), "P1 A2 P0 G0 G2");
  EXPECT_EQ(queue.size(), 5u);
}

TEST(OpQueue, CopiesOriginData) {
  OpQueue queue;
  int64_t values[3] = {10, 20, 30};
  const int64_t compare = 7;
  queue.push_put(1, 0, values, sizeof values);
  AccArgs cas = fetch_add(1, &values[0], nullptr);
  cas.compare = &compare;
  queue.push_accumulate(cas);
  values[0] = values[1] = values[2] = -1;  // the caller reuses its buffer at once
  std::vector<int64_t> seen;
  queue.for_each([&seen](const QueuedOp& op) {
    const auto* data =
        static_cast<const int64_t*>(op.kind == OpKind::Put ? op.origin : op.acc.origin);
    const size_t n = op.kind == OpKind::Put ? op.bytes / 8 : op.acc.count;
    seen.insert(seen.end(), data, data + n);
    if (op.kind == OpKind::Accumulate) {
      EXPECT_NE(op.acc.compare, nullptr);
      EXPECT_EQ(*static_cast<const int64_t*>(op.acc.compare), 7);
      EXPECT_EQ(op.acc.alpha, nullptr);
    }
    return 0;
  });
  EXPECT_EQ(seen, (std::vector<int64_t>{10, 20, 30, 10}));
}

TEST(OpQueue, GetsKeepTheirResultBuffer) {
  OpQueue queue;
  int64_t result = 0;
  queue.push_get(3, 16, &result, 8);
  queue.for_each([&result](const QueuedOp& op) {
    EXPECT_EQ(op.result, &result);
    EXPECT_EQ(op.offset, 16u);
    EXPECT_EQ(op.bytes, 8u);
    return 0;
  });
}

TEST(OpQueue, CountsTargetsAndClears) {
  OpQueue queue;
  int64_t value = 0;
  queue.push_put(1, 0, &value, 8);
  queue.push_put(1, 0, &value, 8);
  queue.push_get(3, 0, &value, 8);
  std::vector<uint64_t> counts(4, 0);
  queue.count_targets(&counts);
  EXPECT_EQ(counts, (std::vector<uint64_t>{0, 2, 0, 1}));
  queue.clear();
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(trace(queue, true), "");
}

TEST(OpQueue, ReturnsTheFirstFailureAfterPerformingAll) {
  OpQueue queue;
  int64_t value = 0;
  for (int t = 0; t < 3; ++t) queue.push_put(t, 0, &value, 8);
  int performed = 0;
  const int status = queue.for_each_get_last([&performed](const QueuedOp& op) {
    ++performed;
    return op.target == 1 ? REMORA_ERR_STATE : op.target == 2 ? REMORA_ERR_ARG : 0;
  });
  EXPECT_EQ(status, REMORA_ERR_STATE);
  EXPECT_EQ(performed, 3);
}

}  // namespace
}  // namespace remora::rma
