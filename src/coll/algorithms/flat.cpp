// Flat: the root talks to every rank at once in gather (gather.cpp) and scatter (scatter.cpp);
// in alltoall (alltoall.cpp) every rank posts all its exchanges at once.
#include "coll/algorithms/algorithms.hpp"

namespace remora::coll {
namespace {

void build(Schedule& schedule, Operation operation, const CollectiveArgs& args, const BuildEnv&) {
  switch (operation) {
    case Operation::Gather:
      return build_gather(schedule, args, Algorithm::Flat);
    case Operation::Scatter:
      return build_scatter(schedule, args, Algorithm::Flat);
    default:
      return build_alltoall(schedule, args, Algorithm::Flat);
  }
}

}  // namespace

const AlgorithmDescriptor kFlatAlgorithm{
    Algorithm::Flat, "flat",
    operations_of({Operation::Gather, Operation::Scatter, Operation::Alltoall}), kNoConstraint,
    build};

}  // namespace remora::coll
