#include "transport/mpi/death_notice.hpp"

#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace remora::mpi {
namespace {

int notice_fd = -1;  // this process's connection to its host's notice server

constexpr int kMaxClients = 1024;  // processes per launcher and host; later ones go unwatched

// The server is forked from a possibly multithreaded process: it uses only async-signal-safe
// calls (no malloc, no stdio), so messages are assembled by hand.
struct Text {
  char text[256];
  size_t length = 0;
  void add(const char* s) {
    while (*s != '\0' && length + 1 < sizeof text) text[length++] = *s++;
  }
  void add(long value) {
    char digits[24];
    int n = 0;
    unsigned long magnitude =
        value < 0 ? 0UL - static_cast<unsigned long>(value) : static_cast<unsigned long>(value);
    do {
      digits[n++] = static_cast<char>('0' + magnitude % 10);
      magnitude /= 10;
    } while (magnitude != 0);
    if (value < 0) add("-");
    while (n > 0 && length + 1 < sizeof text) text[length++] = digits[--n];
  }
};

const char* signal_name(int number) {
  switch (number) {
    case SIGKILL:
      return "SIGKILL";
    case SIGSEGV:
      return "SIGSEGV";
    case SIGABRT:
      return "SIGABRT";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGHUP:
      return "SIGHUP";
    case SIGQUIT:
      return "SIGQUIT";
    case SIGPIPE:
      return "SIGPIPE";
    case SIGTRAP:
      return "SIGTRAP";
    case SIGSYS:
      return "SIGSYS";
    case SIGXCPU:
      return "SIGXCPU";
    default:
      return "";
  }
}

// The abstract socket of the notice server of the processes that `launcher` started on this
// host (their parent: hydra's proxy, Open MPI's daemon, slurmstepd).
socklen_t server_address(pid_t launcher, sockaddr_un* address) {
  Text name;
  name.add("remora-death-notice-");
  name.add(static_cast<long>(launcher));
  *address = sockaddr_un{};
  address->sun_family = AF_UNIX;
  std::memcpy(address->sun_path + 1, name.text, name.length);  // sun_path[0] = 0: abstract
  return static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.length);
}

// A dead process's wait status, from /proc/<pid>/stat (field 52, exit_code) once it is a
// zombie (its connection closes a moment before, while it exits), waiting up to about 10 ms
// for that; false when it cannot be read (not a zombie yet, or already reaped).
bool read_wait_status(pid_t pid, int* status) {
  Text path;
  path.add("/proc/");
  path.add(static_cast<long>(pid));
  path.add("/stat");
  path.text[path.length] = '\0';
  for (int attempt = 0; attempt < 50; ++attempt) {
    const int fd = open(path.text, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    char stat[1024];
    const ssize_t n = read(fd, stat, sizeof stat - 1);
    close(fd);
    if (n <= 0) return false;
    stat[n] = '\0';
    const char* field = std::strrchr(stat, ')');  // the command name may contain anything
    if (field == nullptr || field[1] != ' ') return false;
    field += 2;  // field 3: the state
    if (*field == 'Z' || *field == 'X') {
      for (int index = 3; index < 52; ++index) {
        field = std::strchr(field, ' ');
        if (field == nullptr) return false;
        ++field;
      }
      long value = 0;
      for (; *field >= '0' && *field <= '9'; ++field) value = value * 10 + (*field - '0');
      *status = static_cast<int>(value);
      return true;
    }
    const timespec pause{0, 200 * 1000};
    nanosleep(&pause, nullptr);
  }
  return false;
}

struct Client {
  int fd = -1;
  pid_t pid = 0;
  char who[64] = {};
  size_t who_length = 0;
  bool naming = false;
  bool goodbye = false;
};

// A death by a crash signal (SIGSEGV, SIGABRT...) is never the launcher's doing: reported
// before deaths by SIGKILL, SIGTERM, SIGINT or SIGHUP (how launchers end a job), by an exit
// code or of unknown cause, whatever the order the connections closed in.
bool crashed(bool known, int status) {
  if (!known || !WIFSIGNALED(status)) return false;
  const int number = WTERMSIG(status);
  return number != SIGKILL && number != SIGTERM && number != SIGINT && number != SIGHUP;
}

// later_ms: -1 for the death reported as the job's end; else how long after it this one was
// seen (during the grace period: the order of deaths a moment apart is not certain).
void report_death(const Client& client, bool known, int status, long later_ms) {
  Text message;
  message.add("remora: ");
  message.add(client.who[0] != '\0' ? client.who : "a process of the job");
  message.add(" (pid ");
  message.add(static_cast<long>(client.pid));
  if (later_ms >= 0) {
    message.add(") also died, seen ");
    message.add(later_ms);
    message.add(" ms after the first: ");
  } else {
    message.add(") died without remora_finalize or remora_abort: ");
  }
  if (known && WIFSIGNALED(status)) {
    message.add("killed by signal ");
    message.add(static_cast<long>(WTERMSIG(status)));
    if (*signal_name(WTERMSIG(status)) != '\0') {
      message.add(" (");
      message.add(signal_name(WTERMSIG(status)));
      message.add(")");
    }
  } else if (known && WIFEXITED(status)) {
    message.add("exited with code ");
    message.add(static_cast<long>(WEXITSTATUS(status)));
  } else {
    message.add("its exit status is unknown");
  }
  message.add(later_ms >= 0 ? "\n" : "; the job cannot go on\n");
  size_t written = 0;
  while (written < message.length) {
    const ssize_t w = write(STDERR_FILENO, message.text + written, message.length - written);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    written += static_cast<size_t>(w);
  }
}

// Messages from a client: 'N' <name> '\n' names it (once its rank is known), 'F' says goodbye.
void take(Client* client, const char* bytes, ssize_t count) {
  for (ssize_t i = 0; i < count; ++i) {
    const char byte = bytes[i];
    if (client->naming) {
      if (byte == '\n') {
        client->naming = false;
        client->who[client->who_length] = '\0';
      } else if (client->who_length + 1 < sizeof client->who) {
        client->who[client->who_length++] = byte;
      }
    } else if (byte == 'N') {
      client->naming = true;
      client->who_length = 0;
    } else if (byte == 'F') {
      client->goodbye = true;
    }
  }
}

// Watches every process of the launcher on this host through its connection. The first
// connection that closes without a goodbye is reported; epoll lists ready connections in the
// order their events happened, so that is the first death even when this process runs late
// (the launcher then kills the others: their deaths follow as "also died" lines). Exits
// when every connection has closed (or when none came within 10 s).
[[noreturn]] void serve(int listener) {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int number = 1; number < NSIG; ++number)
    if (number != SIGKILL && number != SIGSTOP) sigaction(number, &default_action, nullptr);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  // A group of its own, so that the launcher's kill of the ranks' groups spares it. Only
  // stderr and the listener stay open: whatever else the rank holds must close when it dies.
  setpgid(0, 0);
  prctl(PR_SET_NAME, "remora-notice");  // so that ps, and tests looking for ranks, tell it apart
  close(STDIN_FILENO);
  close(STDOUT_FILENO);
  if (listener > STDERR_FILENO + 1)
    close_range(STDERR_FILENO + 1, static_cast<unsigned>(listener) - 1, 0);
  close_range(static_cast<unsigned>(listener) + 1, ~0U, 0);
  const int poller = epoll_create1(EPOLL_CLOEXEC);
  if (poller < 0) _exit(1);
  static Client clients[kMaxClients];
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.u32 = kMaxClients;  // the listener
  epoll_ctl(poller, EPOLL_CTL_ADD, listener, &event);
  int connected = 0, ever = 0;
  // Deaths are collected for a moment after the first (kGraceMs, or until every connection has
  // closed): a process that crashes may close its connection after the launcher, having heard
  // of the crash otherwise, has already killed others (a core dump, a large address space to
  // release). Then the first crash, else the first death, is reported as the job's end.
  // The other deaths of the grace period follow it, each with how long after the first it was
  // seen: when the launcher kills the others with the victim's signal (SIGKILL), a victim
  // descheduled while it exits may be seen after one of them, and is then named there.
  constexpr int kGraceMs = 500;
  struct Death {
    Client client;
    bool known;
    int status;
    long seen_ms;  // after the first death
  };
  static Death deaths[kMaxClients];
  int death_count = 0;
  int chosen = -1;
  bool reported = false, dying = false;
  timespec first{};
  auto elapsed_ms = [&first] {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - first.tv_sec) * 1000 + (now.tv_nsec - first.tv_nsec) / 1000000;
  };
  auto report = [&] {
    report_death(deaths[chosen].client, deaths[chosen].known, deaths[chosen].status, -1);
    for (int i = 0; i < death_count; ++i)
      if (i != chosen)
        report_death(deaths[i].client, deaths[i].known, deaths[i].status, deaths[i].seen_ms);
    reported = true;
  };
  for (;;) {
    int wait_ms = ever == 0 ? 10000 : -1;
    if (dying && !reported) {
      const long elapsed = elapsed_ms();
      wait_ms = elapsed >= kGraceMs ? 0 : static_cast<int>(kGraceMs - elapsed);
    }
    const int n = epoll_wait(poller, &event, 1, wait_ms);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0 && dying && !reported) {
      report();
      continue;
    }
    if (n <= 0) break;  // nobody came
    if (event.data.u32 == kMaxClients) {
      const int fd = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) continue;
      int slot = 0;
      while (slot < kMaxClients && clients[slot].fd >= 0) ++slot;
      ucred peer{};
      socklen_t length = sizeof peer;
      if (slot == kMaxClients || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0) {
        close(fd);
        continue;
      }
      clients[slot] = Client{};
      clients[slot].fd = fd;
      clients[slot].pid = peer.pid;
      event.events = EPOLLIN;
      event.data.u32 = static_cast<uint32_t>(slot);
      epoll_ctl(poller, EPOLL_CTL_ADD, fd, &event);
      ++connected;
      ++ever;
      continue;
    }
    Client& client = clients[event.data.u32];
    char bytes[128];
    const ssize_t count = read(client.fd, bytes, sizeof bytes);
    if (count < 0 && errno == EINTR) continue;
    if (count > 0) {
      take(&client, bytes, count);
      continue;
    }
    if (!client.goodbye && !reported) {
      if (!dying) clock_gettime(CLOCK_MONOTONIC, &first);
      Death& death = deaths[death_count];
      death.client = client;
      death.status = 0;
      death.known = read_wait_status(client.pid, &death.status);
      death.seen_ms = elapsed_ms();
      if (chosen < 0 || (crashed(death.known, death.status) &&
                         !crashed(deaths[chosen].known, deaths[chosen].status)))
        chosen = death_count;
      ++death_count;
      dying = true;
    }
    epoll_ctl(poller, EPOLL_CTL_DEL, client.fd, nullptr);
    close(client.fd);
    client.fd = -1;
    if (--connected == 0) break;
  }
  if (dying && !reported) report();
  _exit(0);
}

// Starts the server of the launcher's processes on this host, unless one runs; false when
// none can be started.
bool start_server(pid_t launcher) {
  const int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener < 0) return false;
  sockaddr_un address;
  const socklen_t length = server_address(launcher, &address);
  if (bind(listener, reinterpret_cast<const sockaddr*>(&address), length) != 0) {
    close(listener);
    return errno == EADDRINUSE;  // another process of the launcher was first
  }
  if (listen(listener, 128) != 0) {
    close(listener);
    return false;
  }
  // Forked twice: the server is nobody's child to wait for, and outlives this process when
  // other ranks still run.
  const pid_t child = fork();
  if (child == 0) {
    if (fork() == 0) serve(listener);
    _exit(0);
  }
  close(listener);
  if (child < 0) return false;
  while (waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
  }
  return true;
}

void send_bytes(const char* bytes, size_t length) {
  while (length > 0) {
    const ssize_t n = ::send(notice_fd, bytes, length, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    bytes += n;
    length -= static_cast<size_t>(n);
  }
}

// The kernel closes a dying process's descriptors in increasing order. MPICH's hydra ends the
// job as soon as a process's PMI connection closes (the descriptor PMI_FD, inherited, so lower
// than ours): the others could then die, and be seen dying, before this connection closes.
// Trade places: this connection takes PMI_FD's number and the PMI connection moves above it
// (PMI_FD is read by MPI_Init, which has not run yet). Returns this connection's descriptor.
int place_before_launcher_socket(int fd) {
  const char* value = std::getenv("PMI_FD");
  if (value == nullptr) return fd;
  char* end = nullptr;
  const long pmi = std::strtol(value, &end, 10);
  if (end == value || *end != '\0' || pmi < 0 || pmi >= fd) return fd;
  const int moved = fcntl(static_cast<int>(pmi), F_DUPFD, fd + 1);
  if (moved < 0) return fd;
  if (dup3(fd, static_cast<int>(pmi), O_CLOEXEC) < 0) {
    close(moved);
    return fd;
  }
  close(fd);
  char text[16];
  std::snprintf(text, sizeof text, "%d", moved);
  setenv("PMI_FD", text, 1);
  return static_cast<int>(pmi);
}

}  // namespace

void start_death_notice(bool before_mpi_init) {
  if (notice_fd >= 0) return;
  const pid_t launcher = getppid();
  sockaddr_un address;
  const socklen_t length = server_address(launcher, &address);
  // Connect to the server, starting it if none runs; the processes starting at once retry
  // while the first one brings it up (up to about a second).
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return;
    if (connect(fd, reinterpret_cast<const sockaddr*>(&address), length) == 0) {
      notice_fd = before_mpi_init ? place_before_launcher_socket(fd) : fd;
      return;
    }
    close(fd);
    if (errno != ECONNREFUSED && errno != ENOENT && errno != EAGAIN) return;
    if (!start_server(launcher)) return;
    const timespec pause{0, 10 * 1000 * 1000};
    if (attempt > 0) nanosleep(&pause, nullptr);
  }
}

void name_death_notice(const char* who) {
  if (notice_fd < 0) return;
  send_bytes("N", 1);
  send_bytes(who, std::strlen(who));
  send_bytes("\n", 1);
}

void stop_death_notice() {
  if (notice_fd < 0) return;
  send_bytes("F", 1);
  close(notice_fd);
  notice_fd = -1;
}

}  // namespace remora::mpi
