// Under mpiexec the oversubscription check counts every rank that shares this machine, whatever
// REMORA_NODE_SIZE cut it into: with REMORA_NODE_SIZE=1, 3 ranks on 2 CPUs are oversubscribed
// although each rank's node holds one. A progress thread counts as a runnable thread only when
// the job is one node (its waits spin there; across nodes it sleeps between polls of MPI), so
// 2 ranks with progress threads on 2 CPUs are oversubscribed on one node only. The CPUs are those
// any of the machine's ranks may run on: 2 ranks bound one per CPU (mpiexec -bind-to core) are not
// oversubscribed although each rank's mask holds one CPU. The expected answer is computed from
// the launcher's count of ranks on this machine and the union of the ranks' CPU affinity masks
// (every rank of the test runs on this machine). The waits of an agent (a progress thread, a
// ghost: transport/agent_thread.hpp) follow the common policy on one node and make no yields
// across nodes (mpi/router.hpp: a yield hands its CPU to a computing application thread for a
// whole scheduler tick).
#include <mpi.h>
#include <sched.h>

#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "api/runtime.hpp"
#include "multirank.hpp"
#include "transport/agent_thread.hpp"

namespace {

int ranks_on_this_machine() {
  // MPICH's hydra, Open MPI.
  for (const char* name : {"MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE"})
    if (const char* value = std::getenv(name)) return std::atoi(value);
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  REQUIRE_OK(remora_init(&argc, &argv));
  remora::api::Runtime* runtime = nullptr;
  REQUIRE_OK(remora::api::enter("wait_policy_test", &runtime));
  const int ranks = ranks_on_this_machine();
  REQUIRE(ranks > 0, "the launcher did not say how many ranks share this machine");
  cpu_set_t mask;
  REQUIRE(sched_getaffinity(0, sizeof mask, &mask) == 0, "sched_getaffinity failed");
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<cpu_set_t> masks(static_cast<size_t>(size));
  MPI_Allgather(&mask, sizeof mask, MPI_BYTE, masks.data(), sizeof mask, MPI_BYTE, MPI_COMM_WORLD);
  cpu_set_t any;
  CPU_ZERO(&any);
  for (cpu_set_t& one : masks) CPU_OR(&any, &any, &one);
  const int cpus = CPU_COUNT(&any);
  const char* progress = std::getenv("REMORA_PROGRESS");
  const bool one_node = runtime->transport->local_ranks().size() == static_cast<size_t>(size);
  const int threads =
      one_node && progress != nullptr && std::strcmp(progress, "thread") == 0 ? 2 : 1;
  const bool expected = ranks * threads > cpus;
  const bool oversubscribed = runtime->transport->wait_policy().oversubscribed;
  REQUIRE(oversubscribed == expected,
          "%d ranks x %d threads on %d CPUs: oversubscribed should be %d, the wait policy says %d "
          "(this rank's node holds %zu ranks)",
          ranks, threads, cpus, expected, oversubscribed, runtime->transport->local_ranks().size());
  const remora::WaitPolicy& common = runtime->transport->wait_policy();
  // The agents' policy: what the transport answers on a thread that serves as one.
  remora::WaitPolicy agent;
  std::thread([&] {
    remora::transport::agent_thread = true;
    agent = runtime->transport->wait_policy();
  }).join();
  REQUIRE(common.yields > 0, "the common policy makes %d yields (REMORA_WAIT_YIELDS set?)",
          common.yields);
  const int yields = one_node ? common.yields : 0;
  REQUIRE(agent.yields == yields && agent.spin_ns == common.spin_ns &&
              agent.first_sleep_ns == common.first_sleep_ns &&
              agent.max_sleep_ns == common.max_sleep_ns &&
              agent.oversubscribed == common.oversubscribed,
          "%s: the progress thread's policy makes %d yields (expected %d), spins %llu ns, sleeps "
          "%llu-%llu ns (the common policy: %llu ns, %llu-%llu ns)",
          one_node ? "one node" : "across nodes", agent.yields, yields,
          static_cast<unsigned long long>(agent.spin_ns),
          static_cast<unsigned long long>(agent.first_sleep_ns),
          static_cast<unsigned long long>(agent.max_sleep_ns),
          static_cast<unsigned long long>(common.spin_ns),
          static_cast<unsigned long long>(common.first_sleep_ns),
          static_cast<unsigned long long>(common.max_sleep_ns));
  REQUIRE_OK(remora_finalize());
  return 0;
}
