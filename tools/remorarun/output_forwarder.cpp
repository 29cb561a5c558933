#include "output_forwarder.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace remorarun {
namespace {

// A line longer than this is written in pieces rather than buffered without bound.
constexpr size_t kMaxPendingBytes = 64 * 1024;

}  // namespace

std::string OutputForwarder::prefix_of(int rank) const {
  if (!tag_) return {};
  // Appended piecewise: `"[" + std::to_string(rank)` trips a GCC 12 -Wrestrict false positive.
  std::string prefix = "[";
  prefix += std::to_string(rank);
  prefix += "] ";
  return prefix;
}

OutputForwarder::~OutputForwarder() {
  for (auto& stream : streams_)
    if (stream.read_fd >= 0) close(stream.read_fd);
}

bool OutputForwarder::add_rank(int rank, int* stdout_write, int* stderr_write, std::string* error) {
  int writes[2] = {-1, -1};
  for (int target = 1; target <= 2; ++target) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) {
      *error = std::string("cannot create an output pipe: ") + std::strerror(errno);
      if (writes[0] >= 0) close(writes[0]);
      return false;
    }
    // Non-blocking so that draining a stream stops at "no more data" instead of blocking.
    fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK);
    streams_.push_back(Stream{rank, ends[0], target, {}, false});
    writes[target - 1] = ends[1];
  }
  *stdout_write = writes[0];
  *stderr_write = writes[1];
  return true;
}

void OutputForwarder::append_poll_fds(std::vector<pollfd>* fds) const {
  for (const auto& stream : streams_)
    if (stream.read_fd >= 0) fds->push_back(pollfd{stream.read_fd, POLLIN, 0});
}

void OutputForwarder::handle(const std::vector<pollfd>& fds) {
  for (const auto& ready : fds) {
    if (ready.revents == 0) continue;
    for (auto& stream : streams_) {
      if (stream.read_fd == ready.fd) {
        read_stream(stream);
        break;
      }
    }
  }
}

bool OutputForwarder::all_closed() const {
  for (const auto& stream : streams_)
    if (stream.read_fd >= 0) return false;
  return true;
}

void OutputForwarder::close_all() {
  for (auto& stream : streams_) {
    if (stream.read_fd < 0) continue;
    read_stream(stream);  // whatever is already buffered in the pipe
    if (stream.read_fd >= 0) finish(stream);
  }
}

void OutputForwarder::read_stream(Stream& stream) {
  char buffer[64 * 1024];
  // Bounded: one rank that writes continuously must not starve the others.
  for (int round = 0; round < 4; ++round) {
    const ssize_t got = read(stream.read_fd, buffer, sizeof(buffer));
    if (got > 0) {
      forward(stream, buffer, static_cast<size_t>(got));
      continue;
    }
    if (got < 0 && (errno == EINTR)) continue;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    finish(stream);  // end of file (or a read error, treated alike)
    return;
  }
}

void OutputForwarder::forward(Stream& stream, const char* data, size_t bytes) {
  const std::string prefix = prefix_of(stream.rank);
  std::string out;
  size_t start = 0;
  while (start < bytes) {
    const void* newline = std::memchr(data + start, '\n', bytes - start);
    if (newline == nullptr) break;
    const size_t end = static_cast<size_t>(static_cast<const char*>(newline) - data) + 1;
    if (!stream.mid_line) out += prefix;
    out += stream.pending;
    out.append(data + start, end - start);
    stream.pending.clear();
    stream.mid_line = false;
    start = end;
  }
  stream.pending.append(data + start, bytes - start);
  if (stream.pending.size() > kMaxPendingBytes) {
    if (!stream.mid_line) out += prefix;
    out += stream.pending;
    stream.pending.clear();
    stream.mid_line = true;
  }
  // One write per batch of lines keeps lines of different ranks from interleaving.
  if (!out.empty()) write_out(stream.target_fd, out);
}

void OutputForwarder::finish(Stream& stream) {
  if (!stream.pending.empty() || stream.mid_line) {
    std::string out = stream.mid_line ? "" : prefix_of(stream.rank);
    out += stream.pending;
    if (tag_) out += '\n';  // end the partial last line so the next rank's line starts clean
    write_out(stream.target_fd, out);
    stream.pending.clear();
    stream.mid_line = false;
  }
  close(stream.read_fd);
  stream.read_fd = -1;
}

void OutputForwarder::write_out(int fd, const std::string& text) {
  if (target_broken_[fd]) return;  // e.g. `remorarun ... | head`: keep draining, drop output
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t wrote = write(fd, text.data() + done, text.size() - done);
    if (wrote > 0) {
      done += static_cast<size_t>(wrote);
    } else if (wrote < 0 && errno == EINTR) {
      continue;
    } else if (wrote < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd writable{fd, POLLOUT, 0};  // our stdout was left non-blocking by someone
      poll(&writable, 1, 1000);
    } else {
      target_broken_[fd] = true;
      return;
    }
  }
}

}  // namespace remorarun
