// Binomial trees: bcast (bcast.cpp), reduce (reduce.cpp), gather (gather.cpp) and scatter
// (scatter.cpp) over the tree of coll/tree.hpp rooted at the call's root.
#include "coll/algorithms/algorithms.hpp"

namespace remora::coll {
namespace {

void build(Schedule& schedule, Operation operation, const CollectiveArgs& args, const BuildEnv&) {
  switch (operation) {
    case Operation::Bcast:
      return build_bcast(schedule, args, Algorithm::Binomial);
    case Operation::Reduce:
      return build_reduce(schedule, args);
    case Operation::Gather:
      return build_gather(schedule, args, Algorithm::Binomial);
    default:
      return build_scatter(schedule, args, Algorithm::Binomial);
  }
}

}  // namespace

const AlgorithmDescriptor kBinomialAlgorithm{
    Algorithm::Binomial, "binomial",
    operations_of({Operation::Bcast, Operation::Reduce, Operation::Gather, Operation::Scatter}),
    kNoConstraint, build};

}  // namespace remora::coll
