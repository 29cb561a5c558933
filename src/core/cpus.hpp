// How many CPUs this job may use, for oversubscription detection.
#pragma once

namespace remora {

// CPUs in this process's affinity mask (what the job may run on), at least 1.
int available_cpus();

}  // namespace remora
