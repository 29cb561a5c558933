// The progress engine: who runs the transport's poll() and when.
//   manual: only inside Remora calls (every wait polls) and remora_progress();
//   thread: additionally a progress thread per rank that polls while there is work and sleeps
//           on the rank's wake word while idle (asking to be woken only then);
//   ghost:  no thread; the node's ghost process serves the work other ranks' passive-target
//           operations need from this rank (owner-computes accumulates), see serve_loop.hpp
//           and rma/ghost_service.hpp. This rank's own calls still poll as in manual mode.
#pragma once

#include <atomic>
#include <string>
#include <thread>

#include "transport/transport.hpp"

namespace remora::progress {

enum class Mode { Manual, Thread, Ghost };

int parse_mode(const std::string& name, Mode* mode);

class ProgressEngine {
 public:
  ProgressEngine(transport::Transport& transport, Mode mode);
  ~ProgressEngine();
  ProgressEngine(const ProgressEngine&) = delete;
  ProgressEngine& operator=(const ProgressEngine&) = delete;

  int start();
  void stop();
  Mode mode() const { return mode_; }

  // Also advances the rank's local work (Transport::run_local_work): the application's polls.
  bool poll() {
    transport_.run_local_work();
    return transport_.poll();
  }

  // Waits per the waiting policy until ready() (see Transport::wait_until).
  template <typename F>
  int wait(const F& ready) {
    return transport_.wait_until(ready);
  }

 private:
  void run();

  transport::Transport& transport_;
  Mode mode_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace remora::progress
