// Binary trees: gather (gather.cpp) and scatter (scatter.cpp).
#include "coll/algorithms/algorithms.hpp"

namespace remora::coll {
namespace {

void build(Schedule& schedule, Operation operation, const CollectiveArgs& args, const BuildEnv&) {
  if (operation == Operation::Gather) return build_gather(schedule, args, Algorithm::Binary);
  build_scatter(schedule, args, Algorithm::Binary);
}

}  // namespace

const AlgorithmDescriptor kBinaryAlgorithm{Algorithm::Binary, "binary",
                                           operations_of({Operation::Gather, Operation::Scatter}),
                                           kNoConstraint, build};

}  // namespace remora::coll
