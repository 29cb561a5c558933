#include <algorithm>

#include "coll/algorithms/common.hpp"

namespace remora::coll {
namespace {

constexpr uint32_t kFoldInTag = 0;      // the extra ranks of a non-power-of-two size
constexpr uint32_t kHandBackTag = 100;  // the result back to them

// Recursive doubling and Rabenseifner run on a power-of-two number of ranks. Of the first
// 2 * extra ranks (extra = size - power), each even one folds its data into the odd one above
// it and sits out; the odd ones act as rank r / 2, the rest as r - extra.
struct PowerOfTwo {
  int power = 1, extra = 0;
  int virtual_rank = -1;  // -1: sits out
  int real(int virtual_peer) const {
    return virtual_peer < extra ? 2 * virtual_peer + 1 : virtual_peer + extra;
  }
};

PowerOfTwo fold_in(Schedule& schedule, const CollectiveArgs& args, uint8_t* acc, size_t bytes,
                   Schedule::Deps* after) {
  const int size = schedule.size(), rank = schedule.rank();
  PowerOfTwo group;
  while (group.power * 2 <= size) group.power *= 2;
  group.extra = size - group.power;
  if (rank >= 2 * group.extra) {
    group.virtual_rank = rank - group.extra;
  } else if (rank % 2 == 0) {
    *after = {schedule.send(rank + 1, kFoldInTag, acc, bytes, *after)};
  } else {
    uint8_t* tmp = schedule.scratch(bytes);
    const auto received = schedule.recv(rank - 1, kFoldInTag, tmp, bytes);
    after->push_back(received);
    *after = {schedule.reduce(args.op, args.type, acc, tmp, args.count, *after)};
    group.virtual_rank = rank / 2;
  }
  return group;
}

void hand_back(Schedule& schedule, const PowerOfTwo& group, uint8_t* acc, size_t bytes,
               const Schedule::Deps& after) {
  const int rank = schedule.rank();
  if (rank >= 2 * group.extra) return;
  if (rank % 2 == 1) {
    schedule.send(rank - 1, kHandBackTag, acc, bytes, after);
  } else {
    schedule.recv(rank + 1, kHandBackTag, acc, bytes, after);
  }
}

// log2(power) exchanges of the whole vector with rank ^ 2^k. Both partners compute a op b
// of the same two operands, so every rank ends with bitwise the same result.
void recursive_doubling(Schedule& schedule, const CollectiveArgs& args, uint8_t* acc,
                        Schedule::Deps after) {
  const size_t bytes = args.count * args.extent;
  const PowerOfTwo group = fold_in(schedule, args, acc, bytes, &after);
  if (group.virtual_rank >= 0) {
    uint32_t round = 1;
    for (int mask = 1; mask < group.power; mask <<= 1, ++round) {
      const int partner = group.real(group.virtual_rank ^ mask);
      const auto sent = schedule.send(partner, round, acc, bytes, after);
      uint8_t* tmp = schedule.scratch(bytes);
      const auto received = schedule.recv(partner, round, tmp, bytes);
      after.push_back(sent);
      after.push_back(received);
      after = {schedule.reduce(args.op, args.type, acc, tmp, args.count, after)};
    }
  }
  hand_back(schedule, group, acc, bytes, after);
}

// Rabenseifner: reduce-scatter by recursive halving (each rank keeps half of its window and
// sends the other half to its partner), then allgather by recursive doubling.
void rabenseifner(Schedule& schedule, const CollectiveArgs& args, uint8_t* acc,
                  Schedule::Deps after) {
  const size_t bytes = args.count * args.extent;
  const PowerOfTwo group = fold_in(schedule, args, acc, bytes, &after);
  if (group.virtual_rank >= 0) {
    const int me = group.virtual_rank;
    const Blocks blocks = even_blocks(args.count, args.extent, static_cast<size_t>(group.power));
    auto offset = [&](int block) {
      return block == group.power ? bytes : blocks.offset[static_cast<size_t>(block)];
    };
    uint8_t* tmp = schedule.scratch(bytes);
    int low = 0, high = group.power;
    uint32_t round = 1;
    for (int mask = group.power / 2; mask >= 1; mask >>= 1, ++round) {
      const int partner = group.real(me ^ mask);
      const int middle = (low + high) / 2;
      const bool keep_low = (me & mask) == 0;
      const int keep_first = keep_low ? low : middle, keep_last = keep_low ? middle : high;
      const int give_first = keep_low ? middle : low, give_last = keep_low ? high : middle;
      const auto sent = schedule.send(partner, round, acc + offset(give_first),
                                      offset(give_last) - offset(give_first), after);
      const auto received = schedule.recv(partner, round, tmp + offset(keep_first),
                                          offset(keep_last) - offset(keep_first), after);
      after = {schedule.reduce(
          args.op, args.type, acc + offset(keep_first), tmp + offset(keep_first),
          (offset(keep_last) - offset(keep_first)) / args.extent, {sent, received})};
      low = keep_first;
      high = keep_last;
    }
    for (int mask = 1; mask < group.power; mask <<= 1, ++round) {
      const int partner = group.real(me ^ mask);
      const int their_first = (me & mask) != 0 ? low - mask : high;
      const auto sent =
          schedule.send(partner, round, acc + offset(low), offset(high) - offset(low), after);
      const auto received = schedule.recv(partner, round, acc + offset(their_first),
                                          offset(their_first + mask) - offset(their_first), after);
      after = {sent, received};
      low = std::min(low, their_first);
      high = low + 2 * mask;
    }
  }
  hand_back(schedule, group, acc, bytes, after);
}

// Ring: reduce-scatter then allgather, each in size - 1 steps of one block.
void ring(Schedule& schedule, const CollectiveArgs& args, uint8_t* acc, Schedule::StepId init) {
  const int size = schedule.size(), rank = schedule.rank();
  const Blocks blocks = even_blocks(args.count, args.extent, static_cast<size_t>(size));
  uint8_t* tmp = schedule.scratch(args.count * args.extent);
  const RingSteps reduced = ring_reduce_scatter(schedule, acc, tmp, blocks, 0, args, init);
  // Allgather step s overwrites the block that reduce-scatter step s sent.
  std::vector<Schedule::Deps> recv_after;
  for (auto sent : reduced.sends) recv_after.push_back({sent});
  ring_allgather(schedule, acc, blocks, modulo(rank + 1, size), modulo(rank - 1, size),
                 modulo(rank + 1, size), static_cast<uint32_t>(size), {reduced.reduces.back()},
                 recv_after);
}

}  // namespace

void build_allreduce(Schedule& schedule, const CollectiveArgs& args, Algorithm algorithm) {
  auto* acc = static_cast<uint8_t*>(args.recv);
  const Schedule::StepId init =
      args.in_place ? -1 : schedule.copy(acc, args.send, args.count * args.extent);
  if (schedule.size() == 1) return;
  switch (algorithm) {
    case Algorithm::Ring:
      return ring(schedule, args, acc, init);
    case Algorithm::Rabenseifner:
      return rabenseifner(schedule, args, acc, {init});
    default:
      return recursive_doubling(schedule, args, acc, {init});
  }
}

namespace {
void build_rabenseifner(Schedule& schedule, Operation, const CollectiveArgs& args,
                        const BuildEnv&) {
  build_allreduce(schedule, args, Algorithm::Rabenseifner);
}
}  // namespace

const AlgorithmDescriptor kRabenseifnerAlgorithm{Algorithm::Rabenseifner, "rabenseifner",
                                                 operations_of({Operation::Allreduce}),
                                                 kNoConstraint, build_rabenseifner};

}  // namespace remora::coll
