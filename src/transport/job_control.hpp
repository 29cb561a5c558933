// What the runtime reports about this process to the job around it: its state (running,
// finalized, aborted), from which the launcher and the node's other processes tell a rank that
// ended normally from one that died, and the job's abort record (who aborted, with what code
// and message). The runtime talks to this, not to the transport that implements it (the node's
// shared-memory transport, over its control block, under remorarun and under MPI alike).
#pragma once

namespace remora::transport {

class JobControl {
 public:
  enum class State { Running, Finalized, Aborted };
  virtual void set_state(State state) = 0;
  // rank: the job's rank that aborts. Only the first record of a job is kept.
  virtual void record_abort(int rank, int code, const char* message) = 0;

 protected:
  ~JobControl() = default;
};

}  // namespace remora::transport
