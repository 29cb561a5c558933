// Active messages between nodes: two-sided MPI on Remora's private duplicate of
// MPI_COMM_WORLD. A message is one MPI message (handler id, then the payload), sent with
// MPI_Isend from a copy, so am_send returns at once; MPI's non-overtaking rule keeps the
// messages of one sender to one receiver in order. poll() receives with MPI_Improbe/MPI_Mrecv
// into the rank's dispatcher, which runs the handlers as for shared-memory messages. A notice
// (send_notice) is a message without a handler: it only makes the receiver's poll report that
// something arrived (the MPI transport's waiting policy, mpi_transport.hpp).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <utility>
#include <vector>

#include "transport/am_dispatcher.hpp"
#include "transport/mpi/endpoint_map.hpp"
#include "transport/mpi/mpi_mutex.hpp"

namespace remora::mpi {

class AmChannel {
 public:
  // Targets and sources are endpoints, translated by map into comm's ranks.
  AmChannel(MPI_Comm comm, MpiMutex& mpi_mutex, EndpointMap map = {})
      : comm_(comm), mpi_mutex_(mpi_mutex), map_(std::move(map)) {}
  ~AmChannel();
  AmChannel(const AmChannel&) = delete;
  AmChannel& operator=(const AmChannel&) = delete;

  int send(int target, int handler, const void* payload, size_t bytes);
  // An empty message that runs no handler at target.
  int send_notice(int target);
  // Receives what has arrived into dispatcher and retires completed sends; true if it received.
  // Skips (returns false) while another thread of this rank is inside MPI.
  bool poll(transport::AmDispatcher& dispatcher);
  // Turns MPI's progress engine once (MPI_Iprobe) without receiving; true if a message waits
  // for poll(). Skips (returns false) while another thread of this rank is inside MPI.
  bool probe();

 private:
  struct Sending {
    MPI_Request request = MPI_REQUEST_NULL;
    std::vector<uint8_t> wire;
  };
  void retire_completed();  // with mpi_mutex_ held

  MPI_Comm comm_;
  MpiMutex& mpi_mutex_;
  EndpointMap map_;
  std::deque<Sending> sending_;
  std::vector<uint8_t> receive_buffer_;
};

}  // namespace remora::mpi
