// GA_Initialize* / GA_Terminate, process and cluster information, memory queries, GA_Error
// and GA_MPI_Comm (MA is in ga_ma.cpp).
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ga-mpi.h"
#include "ga/ga_memory.hpp"
#include "ga/ga_registry.hpp"
#include "ga/ga_sparse_array.hpp"
#include "ga/ga_stats.hpp"

// The ARMCI layer's start and end, when the program links libremora_armci (weak: null when
// it does not).
extern "C" int ARMCI_Init(void) __attribute__((weak));
extern "C" int ARMCI_Finalize(void) __attribute__((weak));

namespace remora::ga {
namespace {

// GA_Initialize started MPI. As in GA, GA_Terminate leaves MPI running (programs call
// MPI_Finalize after it); a program that never does gets it at exit.
bool we_initialized_mpi = false;

void finalize_mpi_at_exit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}
std::vector<std::vector<int>> node_ranks;  // ranks of each node, in increasing order

void build_node_table() {
  node_ranks.clear();
  const int size = remora_size();
  for (int rank = 0; rank < size; ++rank) {
    const int node = remora_rank_node(rank);
    if (node >= static_cast<int>(node_ranks.size()))
      node_ranks.resize(static_cast<size_t>(node) + 1);
    node_ranks[static_cast<size_t>(node)].push_back(rank);
  }
}

bool we_initialized_remora = false;  // else the ARMCI layer had started it

// The Remora thread level matching MPI's (GA's thread-safe mode follows the level MPI was
// initialised with, as GA's does).
int remora_level_of_mpi() {
  int mpi_level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&mpi_level);
  if (mpi_level == MPI_THREAD_MULTIPLE) return REMORA_THREAD_MULTIPLE;
  if (mpi_level == MPI_THREAD_SERIALIZED) return REMORA_THREAD_SERIALIZED;
  if (mpi_level == MPI_THREAD_FUNNELED) return REMORA_THREAD_FUNNELED;
  return REMORA_THREAD_SINGLE;
}

// comm: MPI_COMM_WORLD, or the communicator of GA_Initialize_comm (Remora spans only it).
void initialize(int* argc, char*** argv, MPI_Comm on = MPI_COMM_WORLD) {
  if (world_comm() != MPI_COMM_NULL) return;  // GA allows repeated initialisation calls
  int mpi_up = 0;
  MPI_Initialized(&mpi_up);
  if (!mpi_up) {
    // What Remora asks for when it starts MPI itself (enough for its progress thread); a
    // program whose threads call GA starts MPI itself with MPI_THREAD_MULTIPLE.
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
      ga_fail("GA_Initialize", "MPI_Init_thread failed");
    if (!we_initialized_mpi) std::atexit(finalize_mpi_at_exit);
    we_initialized_mpi = true;
  }
  int remora_up = 0;
  remora_initialized(&remora_up);
  if (!remora_up) {
    const int level = remora_level_of_mpi();
    int provided = 0;
    if (on == MPI_COMM_WORLD)
      check("GA_Initialize", remora_init_thread(argc, argv, level, &provided));
    else
      check("GA_Initialize_comm", remora_init_mpi_comm_thread(argc, argv, &on, level, &provided));
    we_initialized_remora = true;
  }
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(on, &comm);
  set_world_comm(comm);
  build_node_table();
  // As GA's start-up starts ARMCI: a program linked with libremora_armci may call ARMCI beside
  // GA without ARMCI_Init of its own (its own ARMCI_Init / ARMCI_Finalize pairs nest).
  if (ARMCI_Init != nullptr) ARMCI_Init();
}

const std::vector<int>& ranks_of_node(const char* fn, int node) {
  require_initialized(fn);
  if (node < 0 || node >= static_cast<int>(node_ranks.size()))
    ga_fail(fn, "node=%d is outside [0, %zu)", node, node_ranks.size());
  return node_ranks[static_cast<size_t>(node)];
}

}  // namespace
}  // namespace remora::ga

using namespace remora::ga;

extern "C" {

void GA_Initialize(void) {
  initialize(nullptr, nullptr);
}

void GA_Initialize_args(int* argc, char*** argv) {
  initialize(argc, argv);
}

int GA_Initialize_comm(MPI_Comm comm) {
  int mpi_up = 0;
  MPI_Initialized(&mpi_up);
  if (!mpi_up) ga_fail("GA_Initialize_comm", "MPI is not initialized (call MPI_Init first)");
  if (comm == MPI_COMM_NULL) ga_fail("GA_Initialize_comm", "comm is MPI_COMM_NULL");
  initialize(nullptr, nullptr, comm);
  return 1;
}

void GA_Initialize_ltd(size_t limit) {
  initialize(nullptr, nullptr);
  memory_set_limit(limit);
}

int GA_Initialized(void) {
  int flag = 0;
  remora_initialized(&flag);
  return flag && world_comm() != MPI_COMM_NULL ? 1 : 0;
}

void GA_Terminate(void) {
  if (!GA_Initialized()) return;
  // GA destroys the arrays still alive (collective: every rank holds the same handles).
  remora::ga::forget_sparse_arrays();
  for (int handle : live_handles()) GA_Destroy(handle);
  remora::ga::free_pool_memory();  // as GA's ARMCI_Finalize frees what GA_Getmem gave
  remora::ga::free_pgroups();      // and the process groups the program did not destroy
  GA_Destroy_mutexes();
  check("GA_Terminate", remora_array_sync());
  if (ARMCI_Finalize != nullptr) ARMCI_Finalize();  // matches GA_Initialize's ARMCI_Init
  MPI_Comm comm = world_comm();
  if (comm != MPI_COMM_NULL && comm != MPI_COMM_WORLD) MPI_Comm_free(&comm);
  set_world_comm(MPI_COMM_NULL);
  // Remora ends with whichever layer started it (ARMCI_Finalize when ARMCI_Init came first).
  if (we_initialized_remora) {
    we_initialized_remora = false;
    check("GA_Terminate", remora_finalize());
  }
}

int GA_Nodeid(void) {
  require_initialized("GA_Nodeid");
  return GA_Pgroup_nodeid(default_pgroup());  // GA: the rank in the default group
}

int GA_Nnodes(void) {
  require_initialized("GA_Nnodes");
  return GA_Pgroup_nnodes(default_pgroup());
}

int GA_Cluster_nnodes(void) {
  require_initialized("GA_Cluster_nnodes");
  return static_cast<int>(node_ranks.size());
}

int GA_Cluster_nodeid(void) {
  require_initialized("GA_Cluster_nodeid");
  return remora_node();
}

int GA_Cluster_nprocs(int node) {
  return static_cast<int>(ranks_of_node("GA_Cluster_nprocs", node).size());
}

int GA_Cluster_procid(int node, int loc_proc) {
  const std::vector<int>& ranks = ranks_of_node("GA_Cluster_procid", node);
  if (loc_proc < 0 || loc_proc >= static_cast<int>(ranks.size()))
    ga_fail("GA_Cluster_procid", "loc_proc=%d is outside [0, %zu) on node %d", loc_proc,
            ranks.size(), node);
  return ranks[static_cast<size_t>(loc_proc)];
}

int GA_Cluster_proc_nodeid(int proc) {
  require_initialized("GA_Cluster_proc_nodeid");
  const int node = remora_rank_node(proc);
  if (node < 0)
    ga_fail("GA_Cluster_proc_nodeid", "proc=%d is not a rank [0, %d)", proc, remora_size());
  return node;
}

int GA_Uses_fapi(void) {
  return 0;
}

int GA_Uses_ma(void) {
  return 0;
}

size_t GA_Memory_avail(void) {
  return memory_available();
}

int GA_Memory_limited(void) {
  return memory_limited() ? 1 : 0;
}

size_t GA_Inquire_memory(void) {
  return memory_in_use();
}

double GA_Wtime(void) {
  return remora_wtime();
}

void GA_Error(char* message, int code) {
  ga_error(message, code);
}

void GA_Print_stats(void) {
  require_initialized("GA_Print_stats");
  stats_print();
}

MPI_Comm GA_MPI_Comm(void) {
  require_initialized("GA_MPI_Comm");
  return world_comm();
}

}  // extern "C"
