// The schedule engine. A collective is compiled into a dependency graph of steps (send,
// receive, reduce, copy, callback); a step is issued as soon as every step it depends on is
// done, so a reduction folds in a child's data the moment it arrives instead of waiting for a
// round to end (LibNBC's rounds are the special case of a graph that chains every step).
//
// start() issues every step without dependencies. A receive completes inside the messenger's
// handler, on whichever thread runs it (the progress thread in thread mode), and issues the
// steps it releases right there. A rendezvous send completes likewise, once the receiver has
// read the data in place; until then a ready step that would write into the send's buffer is
// held back (the algorithms were written for eager sends, which never needed that
// dependency). All state changes happen under the schedule's mutex; done() is an atomic flag
// that waiters read without it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <forward_list>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "coll/communicator.hpp"
#include "coll/messaging.hpp"
#include "coll/signature.hpp"
#include "core/request.hpp"

namespace remora::coll {

class Schedule final : public Request,
                       public ReceiveOwner,
                       public SendOwner,
                       public std::enable_shared_from_this<Schedule> {
 public:
  using StepId = int;
  // Steps this one waits for; negative ids are ignored (convenient for "no previous step").
  using Deps = std::vector<StepId>;

  // The steps' peers are ranks of comm; messages are tagged with the collective's sequence
  // number on comm.
  // signature: the call as the messages carry it (coll/signature.hpp).
  Schedule(Messenger& messenger, std::shared_ptr<Communicator> comm,
           uint32_t signature = kInternalSignature);
  Schedule(const Schedule&) = delete;
  Schedule& operator=(const Schedule&) = delete;

  const Communicator& comm() const { return *comm_; }
  const std::shared_ptr<Communicator>& shared_comm() const { return comm_; }
  // The collective's sequence number on its communicator (the same on every member).
  uint64_t sequence() const { return sequence_; }
  // The tag on the wire of step tag `tag` of collective `sequence`.
  static uint64_t message_tag(uint64_t sequence, uint32_t tag);
  // This rank's position: its rank in comm, or its position in the order given to use_order.
  int rank() const { return rank_; }
  int size() const { return comm_->size(); }
  // Before building: the steps' peers are positions in order (see coll/rank_order.hpp).
  void use_order(std::shared_ptr<const RankOrder> order);

  // Building, before start(). tag tells apart the messages of one collective between the same
  // two ranks; both sides must use the same one.
  StepId send(int peer, uint32_t tag, const void* data, size_t bytes, const Deps& deps = {});
  // Sends whatever the vector holds when the step is issued; it must not change after that
  // until the collective completes (a rendezvous reads it in place).
  StepId send_vector(int peer, uint32_t tag, const std::vector<uint8_t>* data,
                     const Deps& deps = {});
  // Receives exactly `bytes` (another size is reported as mismatched counts).
  StepId recv(int peer, uint32_t tag, void* data, size_t bytes, const Deps& deps = {});
  // Receives a message of any size into the vector.
  StepId recv_vector(int peer, uint32_t tag, std::vector<uint8_t>* data, const Deps& deps = {});
  // target = target op source, elementwise.
  StepId reduce(int op, int type, void* target, const void* source, size_t count,
                const Deps& deps = {});
  StepId copy(void* target, const void* source, size_t bytes, const Deps& deps = {});
  // A local computation; a negative return (with fail()) fails the collective, and the other
  // members hear of it unless announce is false (a failure that concerns this rank only, such
  // as one kept from an earlier collective).
  StepId call(std::function<int()> function, const Deps& deps = {}, bool announce = true);
  // A local step that advances in pieces, without blocking: poll() returns 1 while it is in
  // flight, else its status. It is first polled when issued, then whenever a thread waits for
  // the collective (check_stalled), never by the progress thread. cancel() is called once the
  // collective fails (it must then stop touching shared state of other ranks).
  struct Polled {
    virtual ~Polled() = default;
    virtual int poll() = 0;
    virtual void cancel() {}
    // A cheap check without locks: false when poll() would surely find nothing to do.
    virtual bool may_advance() const { return true; }
  };
  StepId poll(std::shared_ptr<Polled> polled, const Deps& deps = {});

  // Memory that lives as long as the schedule.
  uint8_t* scratch(size_t bytes);
  std::vector<uint8_t>* scratch_vector();

  // Issues the steps that are ready. The schedule must be owned by a shared_ptr.
  void start();
  bool done() const override { return done_.load(std::memory_order_acquire); }
  // Once done(): REMORA_SUCCESS, or the first failure, whose message becomes the calling
  // thread's last error.
  int status() const override;

  // Receives posted and not yet filled: each needs a message still to be delivered here.
  size_t receives_awaited() const { return awaited_.load(std::memory_order_acquire); }

  // Fail (and tell the others) once no step finished for this long while a thread waits for
  // the collective (REMORA_COLL_TIMEOUT); 0: never.
  void set_timeout(std::chrono::nanoseconds timeout) { timeout_ = timeout; }
  // Also advances the polled steps in flight (see poll).
  void check_stalled() override;
  bool polls_shared_memory() const override { return has_polling_.load(std::memory_order_acquire); }
  // The application-bypass reduce's way: a failed step is recorded, the remaining steps still
  // run and nobody is told (its protocol reports mismatches itself, see bypass_reduce.hpp).
  void keep_running_on_failure() { keep_running_ = true; }

  // Steps held back now because they would overwrite a rendezvous send in flight (for tests).
  size_t held_back();

  void received(Receive& receive) override;
  bool claim(Receive& receive) override;
  void released(Receive& receive) override;
  void sent(int step, int status) override;
  // Ends the collective here with failure (unless it is done already): no further step runs,
  // and with tell_others every other member hears of it (an error notice).
  void end_with_failure(const Failure& failure, bool tell_others);

 private:
  enum class Kind { Send, SendVector, Recv, Reduce, Copy, Call, Poll };
  struct Step {
    explicit Step(Kind step_kind) : kind(step_kind) {}
    Kind kind;
    int peer = -1;
    uint32_t tag = 0;
    const void* source = nullptr;
    void* target = nullptr;
    size_t bytes = 0;  // elements for Reduce
    int op = 0;
    int type = 0;
    const std::vector<uint8_t>* vector = nullptr;
    Receive receive;
    std::function<int()> function;
    std::shared_ptr<Polled> polled;
    bool announce = true;  // a failure of this step is sent to the other members
    int waiting_for = 0;   // dependencies not yet done
    std::vector<StepId> dependents;
  };

  Step message(Kind kind, int peer, uint32_t tag) const;
  StepId add(Step step, const Deps& deps);
  uint64_t message_tag(uint32_t tag) const { return message_tag(sequence_, tag); }
  // Under mutex_: issue ready steps until none is left.
  void run_ready();
  int issue(Step& step, StepId id);  // 1 when still in flight
  int receive_status(const Receive& receive) const;
  // Whether step would write memory that a rendezvous send still in flight reads from (the
  // receiver reads it in place): such a step waits until the send is done.
  bool overwrites_pending_send(const Step& step) const;
  void finish(StepId id, int status);
  // Under mutex_: the first failure ends the collective (see fail).
  void record_failure(int status, const std::string& message, bool tell_others);
  void complete();  // under mutex_: done, and the instance ends
  void poll_steps();

  Messenger& messenger_;
  std::shared_ptr<Communicator> comm_;  // kept alive while the collective runs
  uint32_t signature_;
  Failure announced_;  // a failure announced before this rank began the collective
  uint64_t sequence_;  // after announced_, which its initialisation fills
  std::shared_ptr<const RankOrder> order_;  // nullptr: peers are ranks of comm
  int rank_;
  std::mutex mutex_;
  // Every step is added before start() (no step adds another), so posted receives, which
  // point into it, never move. A vector: one allocation for a small schedule, where a deque
  // took two before the first step (its map and first chunk).
  std::vector<Step> steps_;
  bool started_ = false;  // add() after start() would move posted receives
  std::vector<StepId> ready_;
  std::vector<StepId> sending_;  // rendezvous sends in flight
  std::vector<StepId> parked_;   // ready steps held back by overwrites_pending_send
  std::vector<StepId> polling_;  // polled steps in flight
  std::atomic<bool> has_polling_{false};
  size_t remaining_ = 0;
  std::atomic<size_t> awaited_{0};  // receives_awaited(); changed under mutex_
  // A list: stable addresses, and nothing allocated for the many schedules that need none.
  std::forward_list<std::vector<uint8_t>> scratch_;
  int status_ = 0;
  std::string message_;
  bool failed_ = false;  // no step runs any more
  bool keep_running_ = false;
  int claims_ = 0;  // receives being filled by a delivering thread
  std::chrono::nanoseconds timeout_{0};
  std::atomic<std::chrono::steady_clock::rep> last_progress_{0};  // when a step last finished
  std::atomic<bool> done_{false};
};

}  // namespace remora::coll
