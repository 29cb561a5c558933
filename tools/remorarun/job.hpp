// One job: starts the ranks, watches them, and tears the job down when one dies abnormally,
// when remorarun is signalled, or when --timeout expires.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "options.hpp"
#include "output_forwarder.hpp"
#include "transport/shm/control_block.hpp"

namespace remorarun {

class Job {
 public:
  Job(const Options& options, remora::shm::ControlBlock* block, std::string job_id);
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;
  ~Job();

  // Starts every rank and waits until all have exited and their output is drained.
  // Returns remorarun's exit status.
  int run();

 private:
  using Clock = std::chrono::steady_clock;

  struct Rank {
    pid_t pid = -1;
    bool alive = false;
  };

  bool setup_signals();
  void restore_signals();
  bool spawn_all();
  // REMORA_PROGRESS=ghost: the node's ghost process, remorarun itself with kGhostOption.
  bool spawn_ghost(pid_t launcher);
  void on_ghost_exit(int status);
  [[noreturn]] void exec_child(int rank, int stdout_write, int stderr_write, pid_t launcher);
  std::vector<std::string> child_environment(int rank) const;

  void handle_signals();
  void reap_children();
  void on_rank_exit(int rank, int status);
  void start_teardown(int exit_code, const std::string& message);
  // Sends signal_number to every rank and every process below the launcher, except spared
  // ranks and their descendants.
  void signal_alive(int signal_number, const std::vector<pid_t>& spared = {});
  bool stragglers_remain() const;
  int poll_timeout_ms(Clock::time_point now) const;
  void check_deadlines(Clock::time_point now);

  const Options& options_;
  remora::shm::ControlBlock* block_;
  std::string job_id_;
  std::vector<Rank> ranks_;
  std::unordered_map<pid_t, int> rank_of_pid_;
  int alive_ = 0;
  pid_t ghost_pid_ = -1;
  bool ghost_alive_ = false;
  bool ghost_stopped_ = false;  // SIGTERM sent because every rank has exited
  OutputForwarder forwarder_;
  // The CPU each rank is bound to (--bind-to), by rank; empty: the ranks are not bound.
  std::vector<int> cpus_;

  int signal_fd_ = -1;
  sigset_t handled_signals_{};
  sigset_t saved_mask_{};
  struct sigaction saved_sigpipe_ {};
  bool signals_set_up_ = false;

  int exit_code_ = 0;
  bool tearing_down_ = false;
  bool killed_ = false;                              // SIGKILL sent
  std::optional<Clock::time_point> job_deadline_;    // --timeout
  std::optional<Clock::time_point> kill_deadline_;   // SIGTERM -> SIGKILL
  std::optional<Clock::time_point> drain_deadline_;  // every rank gone, output pipes still open
};

}  // namespace remorarun
