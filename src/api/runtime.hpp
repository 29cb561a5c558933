// The process-wide state behind the C API, and the argument checks every entry point shares.
#pragma once

#include <atomic>
#include <memory>
#include <unordered_set>

#include "arrays/context.hpp"
#include "arrays/request.hpp"
#include "coll/barrier.hpp"
#include "coll/collectives.hpp"
#include "core/config.hpp"
#include "core/threads.hpp"
#include "progress/progress_engine.hpp"
#include "remora/array.h"
#include "remora/segment.h"
#include "remora/status.h"
#include "rma/window_registry.hpp"
#include "transport/am_dispatcher.hpp"
#include "transport/ghost_directory.hpp"
#include "transport/job_control.hpp"
#include "transport/transport.hpp"

struct remora_segment_s {
  remora::transport::Segment* segment;
};

// Opens every public entry point: at the multiple thread level, holds the library lock for the
// call (core/threads.hpp); active-message handlers, which run concurrently with the
// application at every level, never take it.
#define REMORA_API_ENTRY()                    \
  ::remora::threads::Scope remora_api_scope_( \
      [] { return ::remora::transport::AmDispatcher::in_handler(); })

namespace remora::api {

// The distributed-array handles of this process: live handles, to reject destroyed or
// invented ones, and the communicator new arrays are created on.
struct ArrayHandles {
  std::unordered_set<remora_array_s*> arrays;
  std::unordered_set<remora_mutexes_s*> mutexes;
  std::unordered_set<remora_axpy_s*> axpy_batches;  // attached, not yet detached
  arrays::RequestTable requests;
  remora_comm_t create_comm = nullptr;      // remora_array_set_create_comm; null: the world
  remora_array_s* create_memory = nullptr;  // remora_array_set_create_memory; null: their own
  bool create_memory_destroyed = false;     // create_memory was destroyed since it was set
};

struct Runtime {
  Config config;
  std::unique_ptr<transport::Transport> transport;
  transport::JobControl* job = nullptr;  // this process's state for the launcher (in transport)
  const transport::GhostDirectory* ghosts = nullptr;  // the nodes' ghosts (in transport)
  // Before progress: destroyed after the progress thread, which runs its message handler, stops.
  std::unique_ptr<coll::Collectives> collectives;
  std::unique_ptr<progress::ProgressEngine> progress;
  std::unique_ptr<coll::Barrier> barrier;
  std::unordered_set<remora_segment_s*> segments;  // live handles, to reject stale ones
  std::unique_ptr<rma::WindowRegistry> windows;    // destroyed after the array handles:
                                                   // unmaps window memory
  ArrayHandles array_handles;
  // The live segment check_segment found last (nullptr once it is freed): a program's accesses
  // mostly name one segment, whose check then needs no hash lookup.
  mutable std::atomic<remora_segment_s*> last_segment{nullptr};
};

// The layers distributed arrays are built on, from this runtime.
inline arrays::Context array_context(Runtime& runtime) {
  return {*runtime.transport, *runtime.collectives, *runtime.barrier, *runtime.windows,
          runtime.config};
}

// required: the thread level asked for (remora_init_thread; REMORA_THREAD_SINGLE otherwise).
int initialize(int* argc, char*** argv, int required = 0);
int finalize();
[[noreturn]] void abort_job(int code, const char* message);

namespace detail {
extern Runtime* the_runtime;  // from remora_init to remora_finalize, else nullptr
// The failures of enter() and check_not_in_handler(), out of line: the checks stay inline.
[[gnu::cold, gnu::noinline]] int not_initialized(const char* function);
[[gnu::cold, gnu::noinline]] int in_handler(const char* function);
}  // namespace detail

// Finds the runtime; fails with a message naming `function` when Remora is not initialized.
// Like errno, the thread's message is only ever written by failures, so it survives later
// successful calls (remora_last_error() after remora_rank() still explains the failure).
// Inline: every public call makes it.
inline int enter(const char* function, Runtime** runtime) {
  if (detail::the_runtime == nullptr) [[unlikely]]
    return detail::not_initialized(function);
  *runtime = detail::the_runtime;
  return REMORA_SUCCESS;
}
bool is_initialized();
// The runtime, once enter() has succeeded in this call.
Runtime& current_runtime();

// Shared argument checks; each names `function` and the argument in its message.
int check_rank(const char* function, const char* name, int rank, const Runtime& runtime);
int check_pointer(const char* function, const char* name, const void* pointer);
int check_segment(const char* function, remora_segment_t segment, const Runtime& runtime);
// offset..offset+bytes must lie inside rank's part of segment.
int check_range(const char* function, remora_segment_t segment, int rank, size_t offset,
                size_t bytes);
// No other thread of this rank inside a Remora call (creation and freeing of segments,
// windows, communicators and arrays are single-threaded at every thread level). Cheap: it
// looks only at the multiple level, where a count of the threads inside is kept.
int check_single_threaded(const char* function);
// Not from inside an active-message handler (collectives would deadlock there).
inline int check_not_in_handler(const char* function) {
  if (transport::AmDispatcher::in_handler()) [[unlikely]]
    return detail::in_handler(function);
  return REMORA_SUCCESS;
}

}  // namespace remora::api
