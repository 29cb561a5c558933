// Removes the shared-memory objects a job left behind.
#pragma once

#include <string>

namespace remorarun {

// Unlinks every object in /dev/shm whose name begins with "remora-<job_id>-". The library
// unlinks its segments once every rank has mapped them; this covers ranks killed in between.
// Returns how many objects were removed.
int remove_job_shm_objects(const std::string& job_id);

}  // namespace remorarun
