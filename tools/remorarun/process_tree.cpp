#include "process_tree.hpp"

#include <dirent.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

namespace remorarun {
namespace {

// The parent pid from /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may contain spaces
// and parentheses, so parse after the last ')'.
pid_t parent_of(long pid) {
  char path[64];
  std::snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
  FILE* file = std::fopen(path, "r");
  if (file == nullptr) return -1;
  char buffer[1024];
  const size_t got = std::fread(buffer, 1, sizeof(buffer) - 1, file);
  std::fclose(file);
  buffer[got] = '\0';
  const char* close_paren = std::strrchr(buffer, ')');
  if (close_paren == nullptr) return -1;
  char state = 0;
  int parent = -1;
  if (std::sscanf(close_paren + 1, " %c %d", &state, &parent) != 2) return -1;
  return parent;
}

}  // namespace

std::vector<pid_t> descendants_of(const std::vector<pid_t>& roots) {
  std::unordered_map<pid_t, std::vector<pid_t>> children;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return {};
  while (const dirent* entry = readdir(proc)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (*end != '\0' || pid <= 0) continue;
    const pid_t parent = parent_of(pid);
    if (parent > 0) children[parent].push_back(static_cast<pid_t>(pid));
  }
  closedir(proc);

  std::vector<pid_t> found;
  std::unordered_set<pid_t> seen(roots.begin(), roots.end());
  std::vector<pid_t> frontier = roots;
  while (!frontier.empty()) {
    const pid_t pid = frontier.back();
    frontier.pop_back();
    const auto it = children.find(pid);
    if (it == children.end()) continue;
    for (const pid_t child : it->second) {
      if (!seen.insert(child).second) continue;
      found.push_back(child);
      frontier.push_back(child);
    }
  }
  return found;
}

}  // namespace remorarun
