#include "progress/progress_engine.hpp"

#include <system_error>

#include "core/error.hpp"

namespace remora::progress {

int parse_mode(const std::string& name, Mode* mode) {
  if (name == "manual") {
    *mode = Mode::Manual;
  } else if (name == "thread") {
    *mode = Mode::Thread;
  } else {
    return fail(REMORA_ERR_CONFIG, "REMORA_PROGRESS='%s' is malformed: expected manual or thread",
                name.c_str());
  }
  return REMORA_SUCCESS;
}

ProgressEngine::ProgressEngine(transport::Transport& transport, Mode mode)
    : transport_(transport), mode_(mode) {}

ProgressEngine::~ProgressEngine() {
  stop();
}

int ProgressEngine::start() {
  if (mode_ != Mode::Thread || thread_.joinable()) return REMORA_SUCCESS;
  stopping_.store(false, std::memory_order_relaxed);
  try {
    thread_ = std::thread([this] { run(); });
  } catch (const std::system_error& error) {
    return fail(REMORA_ERR_SYSTEM, "cannot start the progress thread: %s", error.what());
  }
  return REMORA_SUCCESS;
}

void ProgressEngine::stop() {
  if (!thread_.joinable()) return;
  stopping_.store(true, std::memory_order_release);
  transport_.wake_progress_thread();
  thread_.join();
}

// Polls while messages keep arriving; once idle, waits with the common policy, which ends in a
// sleep on the rank's wake word that senders (and stop()) interrupt.
void ProgressEngine::run() {
  while (!stopping_.load(std::memory_order_acquire)) {
    bool woke = false;
    transport_.wait_until(
        [this, &woke] { return woke || stopping_.load(std::memory_order_acquire); },
        [this, &woke] { return woke = transport_.poll(); }, transport::Sleeper::ProgressThread);
    if (transport_.aborting()) {
      // Nothing more can complete; sleep until finalize or the launcher ends the process.
      transport_.sleep(
          100000000, [this] { return stopping_.load(std::memory_order_acquire); },
          transport::Sleeper::ProgressThread);
    }
  }
}

}  // namespace remora::progress
