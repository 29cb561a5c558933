#include "coll/algorithms/common.hpp"

namespace remora::coll {

Blocks even_blocks(size_t count, size_t extent, size_t parts) {
  Blocks blocks;
  blocks.offset.reserve(parts);  // one allocation each, not one per doubling
  blocks.bytes.reserve(parts);
  const size_t base = count / parts, extra = count % parts;
  for (size_t part = 0, at = 0; part < parts; ++part) {
    const size_t elements = base + (part < extra ? 1 : 0);
    blocks.offset.push_back(at * extent);
    blocks.bytes.push_back(elements * extent);
    at += elements;
  }
  return blocks;
}

Blocks blocks_of(const std::vector<size_t>& counts, const std::vector<size_t>& displs,
                 size_t extent) {
  Blocks blocks;
  blocks.offset.reserve(counts.size());
  blocks.bytes.reserve(counts.size());
  for (size_t block = 0; block < counts.size(); ++block) {
    blocks.offset.push_back(displs[block] * extent);
    blocks.bytes.push_back(counts[block] * extent);
  }
  return blocks;
}

RingSteps ring_reduce_scatter(Schedule& schedule, uint8_t* acc, uint8_t* tmp, const Blocks& blocks,
                              int shift, const CollectiveArgs& args, Schedule::StepId after) {
  const int size = schedule.size(), rank = schedule.rank();
  const int left = modulo(rank - 1, size), right = modulo(rank + 1, size);
  RingSteps steps;
  Schedule::StepId reduced = after;
  for (int step = 0; step < size - 1; ++step) {
    // Send the block reduced in the previous step (our own at first); fold in the left one's.
    const auto out = static_cast<size_t>(modulo(rank - step + shift, size));
    const auto in = static_cast<size_t>(modulo(rank - step - 1 + shift, size));
    steps.sends.push_back(schedule.send(right, static_cast<uint32_t>(step),
                                        acc + blocks.offset[out], blocks.bytes[out], {reduced}));
    const auto received =
        schedule.recv(left, static_cast<uint32_t>(step), tmp + blocks.offset[in], blocks.bytes[in]);
    reduced = schedule.reduce(args.op, args.type, acc + blocks.offset[in], tmp + blocks.offset[in],
                              blocks.bytes[in] / args.extent, {received, after});
    steps.reduces.push_back(reduced);
  }
  return steps;
}

Schedule::Deps ring_allgather(Schedule& schedule, uint8_t* buf, const Blocks& blocks, int position,
                              int left, int right, uint32_t first_tag, const Schedule::Deps& after,
                              const std::vector<Schedule::Deps>& recv_after) {
  const int size = schedule.size();
  Schedule::Deps previous = after;
  for (int step = 0; step < size - 1; ++step) {
    const auto out = static_cast<size_t>(modulo(position - step, size));
    const auto in = static_cast<size_t>(modulo(position - step - 1, size));
    const uint32_t tag = first_tag + static_cast<uint32_t>(step);
    const auto sent =
        schedule.send(right, tag, buf + blocks.offset[out], blocks.bytes[out], previous);
    const auto received = schedule.recv(
        left, tag, buf + blocks.offset[in], blocks.bytes[in],
        recv_after.empty() ? Schedule::Deps{} : recv_after[static_cast<size_t>(step)]);
    // The next step forwards what this one received.
    previous = {sent, received};
  }
  return previous;
}

}  // namespace remora::coll
