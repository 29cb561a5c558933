#include "shm_cleanup.hpp"

#include <dirent.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace remorarun {

int remove_job_shm_objects(const std::string& job_id) {
  if (job_id.empty()) return 0;  // never sweep every job's objects
  const std::string prefix = "remora-" + job_id + "-";
  DIR* directory = opendir("/dev/shm");
  if (directory == nullptr) return 0;
  // Collect first: unlinking while iterating may make readdir skip entries.
  std::vector<std::string> names;
  while (const dirent* entry = readdir(directory)) {
    if (std::strncmp(entry->d_name, prefix.c_str(), prefix.size()) == 0)
      names.emplace_back(entry->d_name);
  }
  closedir(directory);

  int removed = 0;
  for (const auto& name : names) {
    if (shm_unlink(("/" + name).c_str()) == 0) {
      ++removed;
    } else if (errno != ENOENT) {  // ENOENT: a rank unlinked it meanwhile
      std::fprintf(stderr, "remorarun: warning: cannot remove /dev/shm/%s: %s\n", name.c_str(),
                   std::strerror(errno));
    }
  }
  return removed;
}

}  // namespace remorarun
