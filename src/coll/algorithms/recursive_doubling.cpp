// Recursive doubling: allreduce (allreduce.cpp; a non-power-of-two count of ranks folds the
// extra ones in first) and scan/exscan (scan.cpp, Hillis-Steele).
#include "coll/algorithms/algorithms.hpp"

namespace remora::coll {
namespace {

void build(Schedule& schedule, Operation operation, const CollectiveArgs& args, const BuildEnv&) {
  if (operation == Operation::Scan) return build_scan(schedule, args, args.exclusive);
  build_allreduce(schedule, args, Algorithm::RecursiveDoubling);
}

}  // namespace

const AlgorithmDescriptor kRecursiveDoublingAlgorithm{
    Algorithm::RecursiveDoubling, "recursive_doubling",
    operations_of({Operation::Allreduce, Operation::Scan}), kNoConstraint, build};

}  // namespace remora::coll
