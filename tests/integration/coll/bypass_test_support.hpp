// What the application-bypass tests, which reach below the C API (INTERNAL), share: the
// runtime, this node's shared-memory transport and a busy loop that makes no Remora call.
#pragma once

#include "api/runtime.hpp"
#include "multirank.hpp"
#include "transport/shm/shm_transport.hpp"

namespace bypass_test {

inline remora::api::Runtime& runtime() {
  remora::api::Runtime* found = nullptr;
  REQUIRE_OK(remora::api::enter("bypass test", &found));
  return *found;
}

// This node's shared-memory transport: the runtime's job control (under MPI too).
inline remora::shm::ShmTransport& node() {
  return dynamic_cast<remora::shm::ShmTransport&>(*runtime().job);
}

// The rank is busy with something else: no Remora call, so nothing progresses here.
inline void compute_for(unsigned microseconds) {
  const double end = remora_wtime() + microseconds * 1e-6;
  while (remora_wtime() < end) {
  }
}

}  // namespace bypass_test
