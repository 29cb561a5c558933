#include "job.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/error.hpp"
#include "process_tree.hpp"
#include "signal_names.hpp"

extern char** environ;

namespace remorarun {
namespace {

using remora::shm::RankState;

// SIGTERM first so ranks can die quietly; SIGKILL whoever is left after this long.
constexpr auto kTermGrace = std::chrono::milliseconds(300);
// After the last rank has exited, output pipes still open belong to a rank's background
// children; stop waiting for them after this long.
constexpr auto kDrainGrace = std::chrono::milliseconds(500);

constexpr auto kStragglerPoll = std::chrono::milliseconds(20);

constexpr const char* kProtocolVariables[] = {
    "REMORA_JOB_ID=", "REMORA_RANK=", "REMORA_SIZE=", "REMORA_CONTROL_FD="};

void say(const std::string& line) {
  std::fprintf(stderr, "remorarun: %s\n", line.c_str());
}

int exit_code_of_abort(int code) {
  return code >= 1 && code <= 255 ? code : 1;
}

// The CPUs of this process's affinity mask, in order.
std::vector<int> allowed_cpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}

// The CPU of each rank per --bind-to (see options.hpp); empty when the ranks stay unbound.
std::vector<int> rank_cpus(const Options& options) {
  if (options.binding == Binding::None) return {};
  const std::vector<int> cpus = allowed_cpus();
  if (cpus.empty()) return {};
  if (options.binding == Binding::Auto) {
    const char* progress = std::getenv("REMORA_PROGRESS");
    const bool one_thread = progress == nullptr || std::strcmp(progress, "manual") == 0;
    if (!one_thread || static_cast<size_t>(options.nranks) > cpus.size()) return {};
  }
  std::vector<int> chosen;
  for (int rank = 0; rank < options.nranks; ++rank)
    chosen.push_back(cpus[static_cast<size_t>(rank) % cpus.size()]);
  return chosen;
}

}  // namespace

Job::Job(const Options& options, remora::shm::ControlBlock* block, std::string job_id)
    : options_(options),
      block_(block),
      job_id_(std::move(job_id)),
      ranks_(static_cast<size_t>(options.nranks)),
      forwarder_(options.tag_output),
      cpus_(rank_cpus(options)) {}

Job::~Job() {
  if (signal_fd_ >= 0) close(signal_fd_);
  restore_signals();
}

bool Job::setup_signals() {
  sigemptyset(&handled_signals_);
  for (int number : {SIGCHLD, SIGINT, SIGTERM, SIGHUP}) sigaddset(&handled_signals_, number);
  // Blocked before the first fork, so no child exit or signal can be missed.
  if (sigprocmask(SIG_BLOCK, &handled_signals_, &saved_mask_) != 0) {
    say(std::string("cannot block signals: ") + std::strerror(errno));
    return false;
  }
  signals_set_up_ = true;
  // Orphans of dying ranks are re-parented to us rather than to init, so teardown finds them.
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  // Writing to a closed stdout (`remorarun ... | head`) must not kill the launcher and orphan
  // the job; the forwarder drops the output instead.
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &saved_sigpipe_);
  signal_fd_ = signalfd(-1, &handled_signals_, SFD_CLOEXEC | SFD_NONBLOCK);
  if (signal_fd_ < 0) {
    say(std::string("cannot create a signalfd: ") + std::strerror(errno));
    return false;
  }
  return true;
}

void Job::restore_signals() {
  if (!signals_set_up_) return;
  sigaction(SIGPIPE, &saved_sigpipe_, nullptr);
  sigprocmask(SIG_SETMASK, &saved_mask_, nullptr);
  signals_set_up_ = false;
}

std::vector<std::string> Job::child_environment(int rank) const {
  std::vector<std::string> env;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    bool ours = false;
    for (const char* prefix : kProtocolVariables)
      ours = ours || std::strncmp(*entry, prefix, std::strlen(prefix)) == 0;
    if (!ours) env.emplace_back(*entry);
  }
  env.push_back("REMORA_JOB_ID=" + job_id_);
  env.push_back("REMORA_RANK=" + std::to_string(rank));
  env.push_back("REMORA_SIZE=" + std::to_string(options_.nranks));
  env.push_back("REMORA_CONTROL_FD=" + std::to_string(block_->fd()));
  // Bound one rank per CPU, each rank sees one CPU in its mask; tell it that the node is not
  // oversubscribed (it would count its ranks against that one CPU), unless the user said.
  if (options_.binding == Binding::Auto && !cpus_.empty() &&
      std::getenv("REMORA_OVERSUBSCRIBED") == nullptr)
    env.emplace_back("REMORA_OVERSUBSCRIBED=no");
  return env;
}

void Job::exec_child(int rank, int stdout_write, int stderr_write, pid_t launcher) {
  // Die with the launcher, even if it is SIGKILLed; if it already died, do not start.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != launcher) _exit(127);
  // dup2 onto the same number would keep the close-on-exec flag, so clear it explicitly.
  for (auto [from, to] : {std::pair{stdout_write, 1}, std::pair{stderr_write, 2}}) {
    if (from == to)
      fcntl(to, F_SETFD, 0);
    else
      dup2(from, to);
  }
  if (signal_fd_ >= 0) close(signal_fd_);  // also close-on-exec; closed early for clarity
  restore_signals();
  if (!cpus_.empty()) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpus_[static_cast<size_t>(rank)], &set);
    // Best effort: an unbound rank runs as before.
    (void)sched_setaffinity(0, sizeof(set), &set);
  }

  std::vector<std::string> env = child_environment(rank);
  std::vector<char*> envp;
  for (auto& entry : env) envp.push_back(entry.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = options_.command;
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  execvpe(argv[0], argv.data(), envp.data());
  std::fprintf(stderr, "remorarun: cannot execute '%s': %s\n", argv[0], std::strerror(errno));
  _exit(127);
}

bool Job::spawn_ghost(pid_t launcher) {
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (length <= 0) {
    start_teardown(1, std::string("cannot start the ghost process: cannot find remorarun "
                                  "itself (/proc/self/exe): ") +
                          std::strerror(errno));
    return false;
  }
  self[length] = '\0';
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // like a rank: dies with the launcher
    if (getppid() != launcher) _exit(127);
    if (signal_fd_ >= 0) close(signal_fd_);
    restore_signals();
    std::vector<std::string> env = child_environment(block_->ghost());
    std::vector<char*> envp;
    for (auto& entry : env) envp.push_back(entry.data());
    envp.push_back(nullptr);
    char name[] = "remorarun";
    std::string option = kGhostOption;
    char* argv[] = {name, option.data(), nullptr};
    execve(self, argv, envp.data());
    std::fprintf(stderr, "remorarun: cannot execute the ghost process '%s': %s\n", self,
                 std::strerror(errno));
    _exit(127);
  }
  if (pid < 0) {
    start_teardown(
        1, std::string("cannot start the ghost process: fork failed: ") + std::strerror(errno));
    return false;
  }
  ghost_pid_ = pid;
  ghost_alive_ = true;
  return true;
}

bool Job::spawn_all() {
  const pid_t launcher = getpid();
  if (block_->ghost() >= 0 && !spawn_ghost(launcher)) return false;
  for (int rank = 0; rank < options_.nranks; ++rank) {
    int stdout_write = -1, stderr_write = -1;
    std::string error;
    if (!forwarder_.add_rank(rank, &stdout_write, &stderr_write, &error)) {
      start_teardown(1, error);
      return false;
    }
    std::fflush(nullptr);  // the child must not re-emit our buffered output
    const pid_t pid = fork();
    if (pid == 0) exec_child(rank, stdout_write, stderr_write, launcher);
    if (stdout_write >= 0) close(stdout_write);
    if (stderr_write >= 0) close(stderr_write);
    if (pid < 0) {
      start_teardown(1, "cannot start rank " + std::to_string(rank) +
                            ": fork failed: " + std::strerror(errno));
      return false;
    }
    ranks_[static_cast<size_t>(rank)] = Rank{pid, true};
    rank_of_pid_[pid] = rank;
    ++alive_;
  }
  return true;
}

void Job::signal_alive(int signal_number, const std::vector<pid_t>& spared) {
  auto is_spared = [&spared](pid_t pid) {
    return std::find(spared.begin(), spared.end(), pid) != spared.end();
  };
  for (const auto& rank : ranks_)  // not yet reaped: the pid is still ours
    if (rank.alive && !is_spared(rank.pid)) kill(rank.pid, signal_number);
  // Processes the ranks started (a rank may be `sh -c 'prog > file'`). As a subreaper the
  // launcher inherits those whose rank already died, so they are all below it.
  std::vector<pid_t> roots = {getpid()};
  const std::vector<pid_t> below = descendants_of(roots);
  // Children of a spared rank are spared too.
  const std::vector<pid_t> below_spared = spared.empty() ? spared : descendants_of(spared);
  for (const pid_t pid : below)
    if (!is_spared(pid) &&
        std::find(below_spared.begin(), below_spared.end(), pid) == below_spared.end())
      kill(pid, signal_number);
}

bool Job::stragglers_remain() const {
  return !descendants_of({getpid()}).empty();
}

void Job::start_teardown(int exit_code, const std::string& message) {
  say(message);
  if (exit_code_ == 0) exit_code_ = exit_code;  // the first failure decides
  tearing_down_ = true;
  // Ranks blocked in a wait notice the abort record and return REMORA_ERR_ABORTED.
  if (!block_->record_abort(-1, exit_code, message.c_str()))
    block_->wake_all(remora::shm::WakeTarget::Both);
  // Ranks past remora_finalize are exiting on their own; a SIGTERM now would lose the output
  // still in their stdio buffers. They get the grace period, then SIGKILL like the rest.
  std::vector<pid_t> finalized;
  for (size_t r = 0; r < ranks_.size(); ++r) {
    const auto state = block_->rank(static_cast<int>(r)).state.load(std::memory_order_acquire);
    if (ranks_[r].alive && state == static_cast<uint32_t>(RankState::Finalized))
      finalized.push_back(ranks_[r].pid);
  }
  signal_alive(SIGTERM, finalized);
  kill_deadline_ = Clock::now() + kTermGrace;
}

void Job::on_rank_exit(int rank, int status) {
  auto& slot = ranks_[static_cast<size_t>(rank)];
  slot.alive = false;
  --alive_;
  if (tearing_down_) return;  // expected: we are stopping the job

  const auto state =
      static_cast<RankState>(block_->rank(rank).state.load(std::memory_order_acquire));
  const auto& header = block_->header();
  const bool abort_recorded = header.aborting.load(std::memory_order_acquire) == 2;
  const std::string who =
      "rank " + std::to_string(rank) + " (pid " + std::to_string(slot.pid) + ")";

  std::string message;
  int code = 1;
  if (WIFSIGNALED(status)) {
    const int number = WTERMSIG(status);
    message = who + " was killed by signal " + signal_description(number) +
              (WCOREDUMP(status) ? " (core dumped)" : "");
    code = 128 + number;
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    code = WEXITSTATUS(status);
    message = who + " exited with code " + std::to_string(code);
    if (state == RankState::Aborted || (abort_recorded && header.abort_rank == rank))
      message += std::string(" after calling remora_abort: ") + header.abort_message;
  } else if (state == RankState::Aborted) {
    message = who + " exited with code 0 after calling remora_abort: " + header.abort_message;
  } else if (state == RankState::Running) {
    message = who + " exited with code 0 without calling remora_finalize";
    if (alive_ == 0) {
      // Nobody is left waiting for it, so the job is not harmed: warn only.
      say("warning: " + message);
      return;
    }
  } else {
    return;  // exited 0 after remora_finalize, or without ever calling remora_init
  }

  // A rank that called remora_abort caused the others to fail (they return
  // REMORA_ERR_ABORTED and may exit first): name the cause, not the first to exit.
  if (abort_recorded && header.abort_rank >= 0 && header.abort_rank != rank &&
      header.abort_rank < options_.nranks) {
    const int cause = header.abort_rank;
    message = "rank " + std::to_string(cause) + " (pid " +
              std::to_string(ranks_[static_cast<size_t>(cause)].pid) +
              ") called remora_abort with code " + std::to_string(header.abort_code) + ": " +
              header.abort_message;
    code = exit_code_of_abort(header.abort_code);
  }
  if (state == RankState::Finalized) {
    // Past remora_finalize nobody waits for this rank any more: the job fails, but the others
    // may finish (killing them now would lose their last output).
    say(message + " after remora_finalize");
    if (exit_code_ == 0) exit_code_ = code;
    return;
  }
  start_teardown(code, message);
}

void Job::on_ghost_exit(int status) {
  ghost_alive_ = false;
  if (tearing_down_ || ghost_stopped_) return;  // expected: we are stopping it
  const std::string who = "the ghost process (pid " + std::to_string(ghost_pid_) + ")";
  std::string how = "exited";
  int code = 1;
  if (WIFSIGNALED(status)) {
    how = "was killed by signal " + signal_description(WTERMSIG(status));
    code = 128 + WTERMSIG(status);
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    code = WEXITSTATUS(status);
    how = "exited with code " + std::to_string(code);
  }
  start_teardown(code, who + " " + how +
                           " (REMORA_PROGRESS=ghost): owner-computes accumulates cannot "
                           "complete without it; stopping the job");
}

void Job::reap_children() {
  while (true) {
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid <= 0) return;  // 0: none exited yet; -1/ECHILD: none left
    const auto found = rank_of_pid_.find(pid);
    if (found != rank_of_pid_.end()) on_rank_exit(found->second, status);
    if (pid == ghost_pid_) on_ghost_exit(status);
  }
}

void Job::handle_signals() {
  signalfd_siginfo infos[16];
  const ssize_t got = read(signal_fd_, infos, sizeof(infos));
  if (got <= 0) return;
  const size_t count = static_cast<size_t>(got) / sizeof(signalfd_siginfo);
  // Stop requests first: on Ctrl-C the ranks get SIGINT too, and their deaths are then a
  // consequence, not the cause.
  for (size_t i = 0; i < count; ++i) {
    const int number = static_cast<int>(infos[i].ssi_signo);
    if (number == SIGCHLD) continue;
    if (!tearing_down_) {
      start_teardown(128 + number, "received " + signal_name(number) + ", stopping the job");
    } else if (!killed_) {
      signal_alive(SIGKILL);  // asked twice: do not wait for the grace period
      killed_ = true;
    }
  }
  reap_children();  // SIGCHLD coalesces, so always reap everything that has exited
}

int Job::poll_timeout_ms(Clock::time_point now) const {
  std::optional<Clock::time_point> next;
  auto consider = [&next](const std::optional<Clock::time_point>& deadline) {
    if (deadline && (!next || *deadline < *next)) next = deadline;
  };
  if (!tearing_down_) consider(job_deadline_);
  if (tearing_down_ && !killed_) consider(kill_deadline_);
  // Waiting only for stragglers: no SIGCHLD tells us when they go, so look again soon.
  if (tearing_down_ && !killed_ && alive_ == 0) consider(Clock::now() + kStragglerPoll);
  if (alive_ == 0) consider(drain_deadline_);
  if (!next) return -1;
  if (*next <= now) return 0;
  const auto wait = std::chrono::ceil<std::chrono::milliseconds>(*next - now).count();
  return static_cast<int>(std::min<long long>(wait, 60 * 1000));
}

void Job::check_deadlines(Clock::time_point now) {
  if (!tearing_down_ && job_deadline_ && now >= *job_deadline_) {
    start_teardown(124, "job exceeded --timeout of " + options_.timeout_text + " s; stopping it");
  }
  if (tearing_down_ && !killed_ && kill_deadline_ && now >= *kill_deadline_) {
    signal_alive(SIGKILL);
    killed_ = true;
  }
  if (alive_ == 0 && ghost_alive_ && !ghost_stopped_) {
    kill(ghost_pid_, SIGTERM);  // the job has ended: nobody needs the ghost any more
    ghost_stopped_ = true;
  }
  if (alive_ == 0 && !drain_deadline_) drain_deadline_ = now + kDrainGrace;
  if (alive_ == 0 && drain_deadline_ && now >= *drain_deadline_) forwarder_.close_all();
}

int Job::run() {
  if (!setup_signals()) return 1;
  if (options_.timeout_seconds > 0) {
    job_deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(options_.timeout_seconds));
  }
  spawn_all();  // on failure it has started the teardown of the ranks already running

  std::vector<pollfd> fds;
  // During a teardown, also wait (at most until the SIGKILL deadline) for processes the ranks
  // started that ignore SIGTERM.
  while (alive_ > 0 || ghost_alive_ || !forwarder_.all_closed() ||
         (tearing_down_ && !killed_ && stragglers_remain())) {
    fds.clear();
    fds.push_back(pollfd{signal_fd_, POLLIN, 0});
    forwarder_.append_poll_fds(&fds);
    const int ready = poll(fds.data(), fds.size(), poll_timeout_ms(Clock::now()));
    if (ready < 0 && errno != EINTR) {
      say(std::string("poll failed: ") + std::strerror(errno));
      if (!tearing_down_) start_teardown(1, "stopping the job");
      signal_alive(SIGKILL);
      killed_ = true;
      while (alive_ > 0 || ghost_alive_) {  // blocking reap: SIGKILL cannot be ignored
        int status = 0;
        const pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) break;
        const auto found = rank_of_pid_.find(pid);
        if (found != rank_of_pid_.end()) on_rank_exit(found->second, status);
        if (pid == ghost_pid_) on_ghost_exit(status);
      }
      forwarder_.close_all();
      break;
    }
    if (ready > 0) {
      if (fds[0].revents != 0) handle_signals();
      forwarder_.handle(fds);
    }
    check_deadlines(Clock::now());
  }
  restore_signals();
  return exit_code_;
}

}  // namespace remorarun
