#include "coll/algorithms/common.hpp"

namespace remora::coll {

// Recursive doubling (Hillis-Steele): in round k rank r sends its partial reduction of ranks
// (r - 2^k, r] to r + 2^k and folds in the one from r - 2^k. The folding order depends only on
// the rank count, so floating-point results are reproducible.
void build_scan(Schedule& schedule, const CollectiveArgs& args, bool exclusive) {
  const int size = schedule.size(), rank = schedule.rank();
  const size_t bytes = args.count * args.extent;
  auto* result = static_cast<uint8_t*>(args.recv);
  uint8_t* partial = schedule.scratch(bytes);
  Schedule::Deps after{schedule.copy(partial, input_of(args), bytes)};
  bool have_result = !exclusive;  // an exclusive scan starts from nothing
  if (!exclusive && !args.in_place) after.push_back(schedule.copy(result, args.send, bytes));
  uint32_t round = 0;
  for (int distance = 1; distance < size; distance <<= 1, ++round) {
    Schedule::StepId sent = -1;
    if (rank + distance < size) sent = schedule.send(rank + distance, round, partial, bytes, after);
    if (rank - distance < 0) {
      after.push_back(sent);
      continue;
    }
    uint8_t* tmp = schedule.scratch(bytes);
    Schedule::Deps arrived = after;
    arrived.push_back(schedule.recv(rank - distance, round, tmp, bytes));
    const auto folded = have_result
                            ? schedule.reduce(args.op, args.type, result, tmp, args.count, arrived)
                            : schedule.copy(result, tmp, bytes, arrived);
    have_result = true;
    arrived.push_back(sent);  // the partial may change only once it has been sent
    after = {folded, schedule.reduce(args.op, args.type, partial, tmp, args.count, arrived)};
  }
}

}  // namespace remora::coll
