// What the C API's request handles stand for: any operation that completes in the background
// (a collective's schedule, a request-based RMA operation). remora_request_test/wait and the
// other request calls work on this interface, whichever layer made the request.
#pragma once

namespace remora {

class Request {
 public:
  virtual ~Request() = default;
  // True once the operation is complete; never false again afterwards.
  virtual bool done() const = 0;
  // done() for a thread that waits until it is (remora_request_wait, waitall): it may block
  // until the operation completes, where that costs less than polling for it.
  virtual bool done_waiting() const { return done(); }
  // Once done(): REMORA_SUCCESS, or the failure, whose message becomes the calling thread's
  // last error.
  virtual int status() const = 0;
  // Called while a thread waits for it: a request that can tell it will never complete (a
  // collective without progress for REMORA_COLL_TIMEOUT) fails itself here.
  virtual void check_stalled() {}
  // Whether it waits now for other ranks' flags in a shared-memory area (a collective's shm
  // rounds): waiters then take the yield phase before sleeping (Collectives::wait_until).
  virtual bool polls_shared_memory() const { return false; }
};

}  // namespace remora
