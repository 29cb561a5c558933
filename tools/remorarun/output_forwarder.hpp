// Reads each rank's stdout and stderr from pipes and writes them to the launcher's stdout and
// stderr a whole line at a time, so that lines of different ranks never interleave; with
// --tag-output every line is prefixed with "[rank] ".
#pragma once

#include <poll.h>

#include <string>
#include <vector>

namespace remorarun {

class OutputForwarder {
 public:
  // tag: prefix lines with "[rank] " (and end a partial last line with a newline).
  explicit OutputForwarder(bool tag) : tag_(tag) {}
  OutputForwarder(const OutputForwarder&) = delete;
  OutputForwarder& operator=(const OutputForwarder&) = delete;
  ~OutputForwarder();

  // Creates the stdout and stderr pipes of rank. The write ends are close-on-exec in the
  // launcher; the child dup2()s them onto 1 and 2, and the launcher closes them after fork.
  bool add_rank(int rank, int* stdout_write, int* stderr_write, std::string* error);

  // Appends a pollfd for every stream not yet at end of file.
  void append_poll_fds(std::vector<pollfd>* fds) const;
  // Reads from every stream that poll reported ready; forwards complete lines.
  void handle(const std::vector<pollfd>& fds);

  bool all_closed() const;
  // Flushes partial lines and closes the streams that are still open (a grandchild of a rank
  // may hold a pipe open after every rank has exited).
  void close_all();

 private:
  struct Stream {
    int rank;
    int read_fd;
    int target_fd;          // 1 or 2
    std::string pending;    // an incomplete last line
    bool mid_line = false;  // part of the current line was already written (very long lines)
  };

  void read_stream(Stream& stream);
  void forward(Stream& stream, const char* data, size_t bytes);
  void finish(Stream& stream);
  void write_out(int fd, const std::string& text);

  std::string prefix_of(int rank) const;

  bool tag_;
  std::vector<Stream> streams_;
  bool target_broken_[3] = {false, false, false};
};

}  // namespace remorarun
