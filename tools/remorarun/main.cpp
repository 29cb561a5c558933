// remorarun: starts N ranks of a program on this node and supervises them.
// See usage_text() in options.cpp and docs/ for the protocol with the ranks.
#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "api/ghost_process.hpp"
#include "core/config.hpp"
#include "core/error.hpp"
#include "job.hpp"
#include "options.hpp"
#include "program_lookup.hpp"
#include "shm_cleanup.hpp"
#include "transport/shm/control_block.hpp"

namespace {

constexpr int kUsageError = 2;
constexpr int kCannotExecute = 127;

// "<launcher pid>-<8 hex digits>": unique on this node, and only [0-9a-f-] so it is safe in
// shared-memory object names.
std::string make_job_id() {
  uint32_t random = 0;
  if (getrandom(&random, sizeof(random), GRND_NONBLOCK) != sizeof(random)) {
    // Fallback: the clock differs between two launchers even if the pid was reused.
    random = static_cast<uint32_t>(std::chrono::steady_clock::now().time_since_epoch().count() *
                                   2654435761u);
  }
  char id[40];
  std::snprintf(id, sizeof(id), "%d-%08x", static_cast<int>(getpid()), random);
  return id;
}

// Sweeps the job's shared-memory objects however main returns once the block exists.
class ShmSweep {
 public:
  explicit ShmSweep(std::string job_id) : job_id_(std::move(job_id)) {}
  ShmSweep(const ShmSweep&) = delete;
  ShmSweep& operator=(const ShmSweep&) = delete;
  ~ShmSweep() { remorarun::remove_job_shm_objects(job_id_); }

 private:
  std::string job_id_;
};

// With 0, 1 or 2 closed, the control block or a pipe could get one of those numbers and a
// rank's dup2 onto its stdout would then clobber it: keep them occupied.
void reserve_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd)
    if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) open("/dev/null", O_RDWR);
}

int usage_error(const std::string& error) {
  // The error and the synopsis only: the full text would bury the error.
  const std::string usage = remorarun::usage_text();
  const std::string synopsis = usage.substr(0, usage.find("\n\n") + 1);
  std::fprintf(stderr, "remorarun: %s\n%sTry 'remorarun --help' for more information.\n",
               error.c_str(), synopsis.c_str());
  return kUsageError;
}

}  // namespace

int main(int argc, char** argv) {
  reserve_standard_descriptors();
  remorarun::Options options;
  std::string error;
  if (!remorarun::parse_options(argc, argv, &options, &error)) return usage_error(error);
  if (options.ghost) {
    remora::api::run_ghost_process();  // returns only if start-up fails
    std::fprintf(stderr, "remorarun: the ghost process cannot start: %s\n", remora::last_error());
    return 1;
  }
  if (options.help) {
    std::fputs(remorarun::usage_text().c_str(), stdout);
    return 0;
  }
  if (options.version) {
    std::fputs(remorarun::version_text().c_str(), stdout);
    return 0;
  }
  if (options.help_config == remorarun::HelpConfig::Text) {
    std::fputs(remora::config_help_text().c_str(), stdout);
    return 0;
  }
  if (options.help_config == remorarun::HelpConfig::Markdown) {
    std::fputs(remora::config_markdown().c_str(), stdout);
    return 0;
  }

  // The ranks parse the same environment; checking it here reports a mistake once.
  remora::Config config;
  std::vector<std::string> warnings;
  if (remora::parse_config(remora::process_environment(), &config, &warnings) != REMORA_SUCCESS) {
    std::fprintf(stderr, "remorarun: %s\n", remora::last_error());
    return kUsageError;
  }
  for (const auto& warning : warnings)
    std::fprintf(stderr, "remorarun: warning: %s\n", warning.c_str());

  const std::string& program = options.command.front();
  if (const int lookup = remorarun::check_program(program); lookup != 0) {
    std::fprintf(stderr, "remorarun: cannot execute '%s': %s\n", program.c_str(),
                 std::strerror(lookup));
    return kCannotExecute;
  }

  const std::string job_id = make_job_id();
  ShmSweep sweep(job_id);
  remora::shm::ControlBlock block;
  if (remora::shm::ControlBlock::create(
          options.nranks, job_id, static_cast<uint32_t>(config.am_queue_slots),
          static_cast<uint32_t>(config.am_slot_bytes),
          /*in_memfd=*/true, &block,
          /*ghosts=*/config.progress == "ghost" ? 1 : 0) != REMORA_SUCCESS) {
    std::fprintf(stderr, "remorarun: cannot create the job's control block: %s\n",
                 remora::last_error());
    return 1;
  }

  remorarun::Job job(options, &block, job_id);
  return job.run();
}
