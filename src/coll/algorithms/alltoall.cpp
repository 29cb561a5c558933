#include <algorithm>
#include <cstring>
#include <memory>

#include "coll/algorithms/common.hpp"
#include "coll/records.hpp"
#include "core/error.hpp"

namespace remora::coll {
namespace {

struct Exchange {
  const uint8_t* send;
  uint8_t* recv;
  Blocks out, in;  // out[j]: for rank j; in[j]: from rank j
};

// Flat: every send and receive at once. Ring: in step s send to rank + s and receive from
// rank - s, one step after the other. Pairwise: in each step the ranks form pairs that swap
// their blocks (a round-robin tournament: size - 1 steps for an even size, size for an odd one,
// where one rank rests per step).
void direct(Schedule& schedule, const Exchange& x, Algorithm algorithm) {
  const int size = schedule.size(), rank = schedule.rank();
  auto exchange = [&](int to, int from, uint32_t tag, const Schedule::Deps& after) {
    const auto t = static_cast<size_t>(to), f = static_cast<size_t>(from);
    return Schedule::Deps{schedule.send(to, tag, x.send + x.out.offset[t], x.out.bytes[t], after),
                          schedule.recv(from, tag, x.recv + x.in.offset[f], x.in.bytes[f], after)};
  };
  Schedule::Deps after;
  if (algorithm == Algorithm::Pairwise) {
    const int players = size + size % 2;  // a dummy player when the size is odd
    for (int round = 0; round < players - 1; ++round) {
      int partner;
      if (rank == players - 1) {
        partner = (round * (players / 2)) % (players - 1);
      } else {
        partner = modulo(round - rank, players - 1);
        if (partner == rank) partner = players - 1;
      }
      if (partner < size) after = exchange(partner, partner, static_cast<uint32_t>(round), after);
    }
    return;
  }
  for (int step = 1; step < size; ++step) {
    const Schedule::Deps previous = algorithm == Algorithm::Ring ? after : Schedule::Deps{};
    after = exchange(modulo(rank + step, size), modulo(rank - step, size),
                     static_cast<uint32_t>(step), previous);
  }
}

// Bruck: after a local rotation, block i of rank r is bound for rank r + i. In round k every
// rank sends the blocks whose index has bit k set to rank + 2^k; after ceil(log2 size) rounds
// block i holds the data from rank r - i. Blocks travel as records, so the v-form works too.
void bruck(Schedule& schedule, const Exchange& x) {
  const int size = schedule.size(), rank = schedule.rank();
  auto blocks = std::make_shared<std::vector<std::vector<uint8_t>>>(static_cast<size_t>(size));
  Schedule::StepId previous = schedule.call([blocks, x, rank, size]() -> int {
    for (int i = 0; i < size; ++i) {
      const auto to = static_cast<size_t>(modulo(rank + i, size));
      const uint8_t* data = x.send + x.out.offset[to];
      (*blocks)[static_cast<size_t>(i)].assign(data, data + x.out.bytes[to]);
    }
    return REMORA_SUCCESS;
  });
  uint32_t round = 0;
  for (int bit = 1; bit < size; bit <<= 1, ++round) {
    std::vector<uint8_t>* outgoing = schedule.scratch_vector();
    std::vector<uint8_t>* incoming = schedule.scratch_vector();
    const auto packed = schedule.call(
        [blocks, outgoing, bit, size]() -> int {
          for (int i = 0; i < size; ++i)
            if ((i & bit) != 0) {
              const auto& block = (*blocks)[static_cast<size_t>(i)];
              append_record(outgoing, static_cast<size_t>(i), block.data(), block.size());
            }
          return REMORA_SUCCESS;
        },
        {previous});
    const auto sent = schedule.send_vector(modulo(rank + bit, size), round, outgoing, {packed});
    const auto received = schedule.recv_vector(modulo(rank - bit, size), round, incoming);
    previous = schedule.call(
        [blocks, incoming, size]() -> int {
          const bool well_formed =
              for_each_record(*incoming, [&](size_t i, const uint8_t* data, size_t bytes) {
                if (i < static_cast<size_t>(size)) (*blocks)[i].assign(data, data + bytes);
              });
          return well_formed ? REMORA_SUCCESS
                             : fail(REMORA_ERR_INTERNAL, "alltoall: a malformed Bruck message");
        },
        {received, sent});
  }
  schedule.call(
      [blocks, x, rank, size]() -> int {
        for (int i = 0; i < size; ++i) {
          const auto from = static_cast<size_t>(modulo(rank - i, size));
          const auto& block = (*blocks)[static_cast<size_t>(i)];
          if (block.size() != x.in.bytes[from])
            return fail(REMORA_ERR_ARG,
                        "mismatched counts: rank %d expected %zu bytes from rank %zu, which sent "
                        "%zu",
                        rank, x.in.bytes[from], from, block.size());
          if (!block.empty()) std::memcpy(x.recv + x.in.offset[from], block.data(), block.size());
        }
        return REMORA_SUCCESS;
      },
      {previous});
}

}  // namespace

void build_alltoall(Schedule& schedule, const CollectiveArgs& args, Algorithm algorithm) {
  const auto rank = static_cast<size_t>(schedule.rank());
  Exchange x{static_cast<const uint8_t*>(args.send), static_cast<uint8_t*>(args.recv),
             blocks_of(args.send_counts, args.send_displs, args.extent),
             blocks_of(args.recv_counts, args.recv_displs, args.extent)};
  if (args.in_place) {
    // The input is the receive buffer, laid out like the output: work from a copy of it.
    size_t total = 0;
    for (size_t j = 0; j < x.in.size(); ++j) total = std::max(total, x.in.end(j));
    uint8_t* copy = schedule.scratch(total);
    if (total > 0) std::memcpy(copy, args.recv, total);
    x.send = copy;
    x.out = x.in;
  }
  if (algorithm == Algorithm::Bruck) return bruck(schedule, x);
  // Our own block; a mismatch with what we expect from ourselves is a count error too (the
  // exchange with the others still runs, so that they are not left waiting).
  if (x.out.bytes[rank] == x.in.bytes[rank]) {
    schedule.copy(x.recv + x.in.offset[rank], x.send + x.out.offset[rank], x.in.bytes[rank]);
  } else {
    schedule.call([rank, x]() -> int {
      return fail(REMORA_ERR_ARG,
                  "mismatched counts: rank %zu sends itself %zu bytes but expects %zu", rank,
                  x.out.bytes[rank], x.in.bytes[rank]);
    });
  }
  direct(schedule, x, algorithm);
}

namespace {
void build_bruck(Schedule& schedule, Operation, const CollectiveArgs& args, const BuildEnv&) {
  build_alltoall(schedule, args, Algorithm::Bruck);
}
void build_pairwise(Schedule& schedule, Operation, const CollectiveArgs& args, const BuildEnv&) {
  build_alltoall(schedule, args, Algorithm::Pairwise);
}
}  // namespace

const AlgorithmDescriptor kBruckAlgorithm{
    Algorithm::Bruck, "bruck", operations_of({Operation::Alltoall}), kNoConstraint, build_bruck};
const AlgorithmDescriptor kPairwiseAlgorithm{Algorithm::Pairwise, "pairwise",
                                             operations_of({Operation::Alltoall}), kNoConstraint,
                                             build_pairwise};

}  // namespace remora::coll
