#include "program_lookup.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

namespace remorarun {
namespace {

int check_file(const std::string& path) {
  struct stat status;
  if (stat(path.c_str(), &status) != 0) return errno;
  if (S_ISDIR(status.st_mode)) return EACCES;  // what execve reports for a directory
  if (access(path.c_str(), X_OK) != 0) return errno;
  return 0;
}

}  // namespace

int check_program(const std::string& program) {
  if (program.empty()) return ENOENT;
  if (program.find('/') != std::string::npos) return check_file(program);
  const char* path = std::getenv("PATH");
  const std::string directories = path != nullptr ? path : "/bin:/usr/bin";  // glibc's default
  int result = ENOENT;
  size_t start = 0;
  while (true) {
    const size_t end = directories.find(':', start);
    std::string directory = directories.substr(start, end - start);
    if (directory.empty()) directory.push_back('.');  // an empty entry: the current directory
    directory += '/';
    directory += program;
    const int error = check_file(directory);
    if (error == 0) return 0;
    if (error == EACCES) result = EACCES;  // execvp reports EACCES if any candidate had it
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return result;
}

}  // namespace remorarun
