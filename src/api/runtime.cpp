#include "api/runtime.hpp"

#include "api/launch.hpp"

#include <unistd.h>

#include <cstdio>
#include <random>

#include "coll/internal_calls.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "core/threads.hpp"
#include "rma/accumulate/acc_pieces.hpp"
#include "rma/reduce_op.hpp"

namespace remora::api {
namespace detail {
Runtime* the_runtime = nullptr;
}  // namespace detail
using detail::the_runtime;

namespace {

bool finalized = false;

}  // namespace

int initialize(int* argc, char*** argv, int required) {
  if (the_runtime != nullptr)
    return fail(REMORA_ERR_STATE, "remora_init: Remora is already initialized");
  if (finalized)
    return fail(REMORA_ERR_STATE,
                "remora_init: Remora cannot be initialized again after remora_finalize");
  if ((argc == nullptr) != (argv == nullptr))
    return fail(REMORA_ERR_ARG,
                "remora_init: argc=%p and argv=%p must both be NULL or both non-NULL",
                static_cast<void*>(argc), static_cast<void*>(argv));

  auto runtime = std::make_unique<Runtime>();
  std::vector<std::string> warnings;
  int status = parse_config(process_environment(), &runtime->config, &warnings);
  if (status != REMORA_SUCCESS) return status;
  const Config& config = runtime->config;
  static const char* const levels[] = {"single", "funneled", "serialized", "multiple"};
  int level = required;
  for (int l = 0; l < 4; ++l)
    if (config.thread_level == levels[l] && l > level) level = l;
  set_log_level(config.log.c_str());
  set_log_rank(config.rank >= 0 ? static_cast<int>(config.rank) : 0);
  if (int kernel = rma::configure_kernel(config)) return kernel;
  rma::configure_pieces(config);
  progress::Mode mode = progress::Mode::Manual;
  status = progress::parse_mode(config.progress, &mode);
  if (status != REMORA_SUCCESS) return status;

  status = open_transport(argc, argv, config, &mode, &runtime->transport, &runtime->job,
                          &runtime->ghosts);
  if (status != REMORA_SUCCESS) return status;
  // Once per job: by rank 0 (under MPI its rank is known only now), and not at all under
  // remorarun, which has printed them before starting the ranks.
  if (config.control_fd < 0 && runtime->transport->rank() == 0)
    for (const auto& warning : warnings) log(LogLevel::Warn, "%s", warning.c_str());
  runtime->job->set_state(transport::JobControl::State::Running);

  runtime->progress = std::make_unique<progress::ProgressEngine>(*runtime->transport, mode);
  status = runtime->progress->start();
  if (status != REMORA_SUCCESS) return status;
  // Before the barrier's collective allocation, so that every rank has registered the
  // collectives' message handler before any rank can send to it.
  status = coll::Collectives::create(*runtime->transport, *runtime->progress, config,
                                     &runtime->collectives);
  if (status != REMORA_SUCCESS) return status;
  status = coll::Barrier::create(*runtime->transport, config.barrier, &runtime->barrier);
  if (status != REMORA_SUCCESS) return status;
  // Every rank has registered the collectives' handler (the barrier's allocation synchronised).
  runtime->collectives->make_shm_area(runtime->collectives->world());
  status = rma::WindowRegistry::create(
      *runtime->transport, *runtime->ghosts,
      [barrier = runtime->barrier.get()] { return barrier->run(); },
      [collectives = runtime->collectives.get()](const uint64_t* counts, uint64_t* mine) {
        return coll::run_reduce_scatter_sum("remora_win_fence", *collectives, collectives->world(),
                                            counts, mine);
      },
      &runtime->windows,
      mode == progress::Mode::Thread ||
          (mode == progress::Mode::Ghost &&
           runtime->ghosts->ghost_of(runtime->transport->rank()) >= 0));
  if (status != REMORA_SUCCESS) return status;
  the_runtime = runtime.release();
  threads::set_level(level);
  return REMORA_SUCCESS;
}

int finalize() {
  Runtime* runtime = nullptr;
  if (int status = enter("remora_finalize", &runtime); status != REMORA_SUCCESS) return status;
  if (int status = check_not_in_handler("remora_finalize"); status != REMORA_SUCCESS) return status;
  if (int status = check_single_threaded("remora_finalize"); status != REMORA_SUCCESS)
    return status;
  // Reductions this rank delegated to the progress engine are forwarded before anyone leaves.
  int kept = REMORA_SUCCESS;  // a background reduction's failure: reported after the barrier
  int status = runtime->collectives->complete_bypass(&kept);
  const std::string kept_message = kept != REMORA_SUCCESS ? last_error() : "";
  // Nobody leaves while another rank may still access its memory or send to it.
  if (status == REMORA_SUCCESS) status = runtime->barrier->run();
  // Messages sent before everyone entered finalize are delivered, not dropped.
  while (status == REMORA_SUCCESS && runtime->progress->poll()) {
  }
  runtime->progress->stop();
  if (status == REMORA_SUCCESS) status = runtime->barrier->destroy();
  for (remora_segment_s* handle : runtime->segments) {
    delete handle->segment;
    delete handle;
  }
  runtime->job->set_state(transport::JobControl::State::Finalized);
  delete runtime;
  the_runtime = nullptr;
  threads::set_level(threads::Single);
  finalized = true;
  if (status == REMORA_SUCCESS && kept != REMORA_SUCCESS)
    return fail(kept, "%s", kept_message.c_str());
  return status;
}

void abort_job(int code, const char* message) {
  const int exit_code = code >= 1 && code <= 255 ? code : 1;
  const char* text = message != nullptr ? message : "(no message)";
  int rank = -1;
  if (the_runtime != nullptr) {
    rank = the_runtime->transport->rank();
    the_runtime->job->set_state(transport::JobControl::State::Aborted);
    the_runtime->job->record_abort(rank, code, text);
  }
  std::fflush(stdout);
  if (rank >= 0)
    std::fprintf(stderr, "remora: rank %d called remora_abort(%d): %s\n", rank, code, text);
  else
    std::fprintf(stderr, "remora: remora_abort(%d) before remora_init: %s\n", code, text);
  std::fflush(stderr);
  end_job(exit_code);
  _exit(exit_code);
}

int detail::not_initialized(const char* function) {
  return fail(REMORA_ERR_NOT_INITIALIZED,
              "%s: Remora is not initialized (call remora_init first%s)", function,
              finalized ? "; remora_finalize was already called" : "");
}

Runtime& current_runtime() {
  return *the_runtime;
}

bool is_initialized() {
  return the_runtime != nullptr;
}

int check_rank(const char* function, const char* name, int rank, const Runtime& runtime) {
  const int size = runtime.transport->size();
  if (rank < 0 || rank >= size)
    return fail(REMORA_ERR_RANK, "%s: %s=%d is not a rank of this job [0, %d)", function, name,
                rank, size);
  return REMORA_SUCCESS;
}

int check_pointer(const char* function, const char* name, const void* pointer) {
  if (pointer == nullptr) return fail(REMORA_ERR_ARG, "%s: %s is NULL", function, name);
  return REMORA_SUCCESS;
}

int check_segment(const char* function, remora_segment_t segment, const Runtime& runtime) {
  if (segment != nullptr && segment == runtime.last_segment.load(std::memory_order_relaxed))
    return REMORA_SUCCESS;
  if (segment == nullptr) return fail(REMORA_ERR_ARG, "%s: segment is NULL", function);
  if (runtime.segments.count(segment) == 0)
    return fail(REMORA_ERR_ARG, "%s: segment=%p is not a live segment (freed, or never allocated)",
                function, static_cast<void*>(segment));
  runtime.last_segment.store(segment, std::memory_order_relaxed);
  return REMORA_SUCCESS;
}

int check_range(const char* function, remora_segment_t segment, int rank, size_t offset,
                size_t bytes) {
  const size_t size = segment->segment->bytes[static_cast<size_t>(rank)];
  if (offset > size || bytes > size - offset) {
    const char* hint = (offset > SIZE_MAX / 2 || bytes > SIZE_MAX / 2)
                           ? " (a negative value converted to size_t?)"
                           : "";
    return fail(REMORA_ERR_RANGE,
                "%s: offset=%zu bytes=%zu lies outside rank %d's %zu bytes of the segment%s",
                function, offset, bytes, rank, size, hint);
  }
  return REMORA_SUCCESS;
}

int check_single_threaded(const char* function) {
  if (threads::multiple() && threads::other_threads_inside() > 0)
    return fail(REMORA_ERR_STATE,
                "%s: another thread of this rank is inside a Remora call (%d are); init, "
                "finalize and creating and freeing segments, windows, communicators and arrays "
                "are single-threaded even at REMORA_THREAD_MULTIPLE (docs/threads.md)",
                function, threads::other_threads_inside());
  return REMORA_SUCCESS;
}

int detail::in_handler(const char* function) {
  return fail(REMORA_ERR_STATE, "%s: not allowed inside an active-message handler", function);
}

}  // namespace remora::api
