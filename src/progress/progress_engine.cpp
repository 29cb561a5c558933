#include "progress/progress_engine.hpp"

#include <system_error>

#include "core/error.hpp"
#include "progress/serve_loop.hpp"

namespace remora::progress {

int parse_mode(const std::string& name, Mode* mode) {
  if (name == "manual") {
    *mode = Mode::Manual;
  } else if (name == "thread") {
    *mode = Mode::Thread;
  } else if (name == "ghost") {
    *mode = Mode::Ghost;
  } else {
    return fail(REMORA_ERR_CONFIG,
                "REMORA_PROGRESS='%s' is malformed: expected manual, thread or ghost",
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

void ProgressEngine::run() {
  serve_until(transport_, stopping_);
}

}  // namespace remora::progress
