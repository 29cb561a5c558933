// For the MPI tests that look inside the MPI transport: the transport itself, and pauses outside
// Remora and MPI (longer than REMORA_MPI_ACTIVE_US, so that a rank's activity runs out).
#pragma once

#include <time.h>

#include "api/runtime.hpp"
#include "multirank.hpp"
#include "transport/mpi/mpi_transport.hpp"

namespace remora_test {

// The rank's MPI transport (after remora_test::init); fails the test in a job that does not run
// on it.
inline const remora::mpi::MpiTransport& mpi_transport(const char* test) {
  remora::api::Runtime* runtime = nullptr;
  REQUIRE_OK(remora::api::enter(test, &runtime));
  const auto* mpi = dynamic_cast<const remora::mpi::MpiTransport*>(runtime->transport.get());
  REQUIRE(mpi != nullptr, "the job does not run on the MPI transport");
  return *mpi;
}

inline void sleep_ms(long ms) {
  timespec duration{ms / 1000, (ms % 1000) * 1000000};
  while (nanosleep(&duration, &duration) != 0) {
  }
}

}  // namespace remora_test
