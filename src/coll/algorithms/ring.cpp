// Rings: allreduce as reduce-scatter then allgather (allreduce.cpp), reduce_scatter
// (reduce_scatter.cpp), allgather (allgather.cpp), and alltoall where step s sends to
// rank + s and receives from rank - s (alltoall.cpp).
#include "coll/algorithms/algorithms.hpp"

namespace remora::coll {
namespace {

void build(Schedule& schedule, Operation operation, const CollectiveArgs& args, const BuildEnv&) {
  switch (operation) {
    case Operation::Allreduce:
      return build_allreduce(schedule, args, Algorithm::Ring);
    case Operation::ReduceScatter:
      return build_reduce_scatter(schedule, args);
    case Operation::Allgather:
      return build_allgather(schedule, args);
    default:
      return build_alltoall(schedule, args, Algorithm::Ring);
  }
}

}  // namespace

const AlgorithmDescriptor kRingAlgorithm{
    Algorithm::Ring, "ring",
    operations_of({Operation::Allreduce, Operation::ReduceScatter, Operation::Allgather,
                   Operation::Alltoall}),
    kNoConstraint, build};

}  // namespace remora::coll
