#include "rma/op_queue.hpp"

#include <algorithm>
#include <cstring>

#include "rma/reduce_op.hpp"

namespace remora::rma {

size_t OpQueue::copy(const void* source, size_t bytes) {
  if (source == nullptr) return kNone;
  const size_t at = data_used_;
  if (at + bytes > data_capacity_) {
    const size_t capacity = std::max({at + bytes, 2 * data_capacity_, size_t{256}});
    std::unique_ptr<unsigned char[]> grown(new unsigned char[capacity]);
    if (at > 0) std::memcpy(grown.get(), data_.get(), at);
    data_ = std::move(grown);
    data_capacity_ = capacity;
  }
  if (bytes > 0) std::memcpy(data_.get() + at, source, bytes);
  data_used_ = at + bytes;
  return at;
}

void OpQueue::push_put(int target, uint64_t offset, const void* origin, size_t bytes) {
  Entry& entry = append();
  entry.op.target = target;
  entry.op.offset = offset;
  entry.op.bytes = bytes;
  if (origins_ == OriginData::Referenced)
    entry.op.origin = origin;
  else
    entry.origin = copy(origin, bytes);
}

void OpQueue::push_get(int target, uint64_t offset, void* result, size_t bytes) {
  Entry& entry = append();
  entry.op.kind = OpKind::Get;
  entry.op.target = target;
  entry.op.offset = offset;
  entry.op.bytes = bytes;
  entry.op.result = result;
}

void OpQueue::push_accumulate(const AccArgs& args) {
  Entry& entry = append();
  entry.op.kind = OpKind::Accumulate;
  entry.op.target = args.target;
  entry.op.acc = args;
  const size_t element = datatype_size(args.type);
  if (origins_ == OriginData::Copied) entry.origin = copy(args.origin, args.count * element);
  entry.compare = copy(args.compare, element);
  entry.alpha = copy(args.alpha, element);
}

QueuedOp OpQueue::resolve(const Entry& entry) const {
  QueuedOp op = entry.op;
  auto at = [this](size_t offset) -> const void* {
    return offset == kNone ? nullptr : data_.get() + offset;
  };
  if (origins_ == OriginData::Copied) {  // else the operation keeps the caller's pointers
    if (op.kind == OpKind::Put) op.origin = at(entry.origin);
    if (op.kind == OpKind::Accumulate) op.acc.origin = at(entry.origin);
  }
  if (op.kind == OpKind::Accumulate) {
    op.acc.compare = at(entry.compare);
    op.acc.alpha = at(entry.alpha);
  }
  return op;
}

}  // namespace remora::rma
