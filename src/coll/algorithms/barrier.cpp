#include "coll/algorithms/common.hpp"

namespace remora::coll {

// Dissemination: in round k a rank signals rank + 2^k and waits for rank - 2^k. A round's
// signal means "I and the 2^k - 1 ranks before me have arrived" only once every earlier
// round's signal has arrived, so the receives are chained, not just the sends.
void build_barrier(Schedule& schedule) {
  const int size = schedule.size(), rank = schedule.rank();
  Schedule::StepId arrived = -1;
  uint32_t round = 0;
  for (int distance = 1; distance < size; distance *= 2, ++round) {
    schedule.send(modulo(rank + distance, size), round, nullptr, 0, {arrived});
    arrived = schedule.recv(modulo(rank - distance, size), round, nullptr, 0, {arrived});
  }
}

namespace {
void build_dissemination(Schedule& schedule, Operation, const CollectiveArgs&, const BuildEnv&) {
  build_barrier(schedule);
}
}  // namespace

const AlgorithmDescriptor kDisseminationAlgorithm{Algorithm::Dissemination, "dissemination",
                                                  operations_of({Operation::Barrier}),
                                                  kNoConstraint, build_dissemination};

}  // namespace remora::coll
