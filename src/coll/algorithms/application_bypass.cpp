// Application-bypass reduce (paper 002; the engine is coll/bypass_reduce.hpp): internal tree
// nodes return without waiting for late children. It runs over ranks, not the communicator's
// rank order, since the engine's messages name world ranks.
#include "coll/algorithms/algorithms.hpp"
#include "coll/bypass_reduce.hpp"

namespace remora::coll {
namespace {

void build(Schedule& schedule, Operation, const CollectiveArgs& args, const BuildEnv& env) {
  env.bypass->build(schedule, args);
}

}  // namespace

const AlgorithmDescriptor kApplicationBypassAlgorithm{
    Algorithm::ApplicationBypass, "application_bypass", operations_of({Operation::Reduce}),
    kIgnoresRankOrder, build};

}  // namespace remora::coll
