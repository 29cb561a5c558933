// C API: start-up, identity, timing, progress, barrier and abort.
#include "api/runtime.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "remora/runtime.h"

using remora::api::enter;
using remora::api::Runtime;

extern "C" {

int remora_init(int* argc, char*** argv) {
  return remora::api::initialize(argc, argv);
}

int remora_init_thread(int* argc, char*** argv, int required, int* provided) {
  if (required < REMORA_THREAD_SINGLE || required > REMORA_THREAD_MULTIPLE)
    return remora::fail(REMORA_ERR_ARG,
                        "remora_init_thread: required=%d is not a thread level "
                        "(REMORA_THREAD_SINGLE=0 .. REMORA_THREAD_MULTIPLE=3)",
                        required);
  if (int status = remora::api::check_pointer("remora_init_thread", "provided", provided))
    return status;
  const int status = remora::api::initialize(argc, argv, required);
  if (status == REMORA_SUCCESS) *provided = remora::threads::level();
  return status;
}

int remora_query_thread(int* provided) {
  Runtime* runtime = nullptr;
  if (int status = enter("remora_query_thread", &runtime)) return status;
  if (int status = remora::api::check_pointer("remora_query_thread", "provided", provided))
    return status;
  *provided = remora::threads::level();
  return REMORA_SUCCESS;
}

int remora_finalize(void) {
  return remora::api::finalize();
}

int remora_initialized(int* flag) {
  if (int status = remora::api::check_pointer("remora_initialized", "flag", flag)) return status;
  *flag = remora::api::is_initialized() ? 1 : 0;
  return REMORA_SUCCESS;
}

int remora_rank(void) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter("remora_rank", &runtime)) return status;
  return runtime->transport->rank();
}

int remora_size(void) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter("remora_size", &runtime)) return status;
  return runtime->transport->size();
}

int remora_local_rank(void) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter("remora_local_rank", &runtime)) return status;
  const auto& local = runtime->transport->local_ranks();
  const int rank = runtime->transport->rank();
  for (size_t i = 0; i < local.size(); ++i)
    if (local[i] == rank) return static_cast<int>(i);
  return remora::fail(REMORA_ERR_INTERNAL,
                      "remora_local_rank: rank %d is not among its node's ranks", rank);
}

int remora_local_size(void) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter("remora_local_size", &runtime)) return status;
  return static_cast<int>(runtime->transport->local_ranks().size());
}

int remora_node(void) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter("remora_node", &runtime)) return status;
  return runtime->transport->node_of(runtime->transport->rank());
}

int remora_rank_node(int rank) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter("remora_rank_node", &runtime)) return status;
  if (int status = remora::api::check_rank("remora_rank_node", "rank", rank, *runtime))
    return status;
  return runtime->transport->node_of(rank);
}

int remora_local_ranks(int* ranks, int capacity) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter("remora_local_ranks", &runtime)) return status;
  if (capacity < 0)
    return remora::fail(REMORA_ERR_ARG, "remora_local_ranks: capacity=%d is negative", capacity);
  if (capacity > 0)
    if (int status = remora::api::check_pointer("remora_local_ranks", "ranks", ranks))
      return status;
  const auto& local = runtime->transport->local_ranks();
  for (size_t i = 0; i < local.size() && i < static_cast<size_t>(capacity); ++i)
    ranks[i] = local[i];
  return static_cast<int>(local.size());
}

double remora_wtime(void) {
  return remora::wtime();
}

int remora_progress(void) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter("remora_progress", &runtime)) return status;
  runtime->progress->poll();
  return REMORA_SUCCESS;
}

int remora_barrier(void) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = enter("remora_barrier", &runtime)) return status;
  if (int status = remora::api::check_not_in_handler("remora_barrier")) return status;
  return runtime->barrier->run();
}

int remora_abort(int code, const char* message) {
  remora::api::abort_job(code, message);
}

}  // extern "C"
