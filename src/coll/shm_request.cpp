#include "coll/shm_request.hpp"

#include <vector>

#include "core/error.hpp"

namespace remora::coll {
namespace {
constexpr int kInFlight = 1;  // Schedule::Polled::poll's "still in flight"
}  // namespace

std::shared_ptr<ShmRequest> ShmRequest::reuse(Communicator& comm) {
  ShmRequestPool& pool = comm.shm_requests;
  std::lock_guard lock(pool.mutex);
  for (auto it = pool.finished.begin(); it != pool.finished.end(); ++it) {
    if (it->use_count() != 1) continue;  // the application has not freed it yet
    // What the thread that let go of it last did with it happens before this reuse (the
    // counter's decrement releases).
    std::atomic_thread_fence(std::memory_order_acquire);
    std::shared_ptr<ShmRequest> request = std::move(*it);
    *it = std::move(pool.finished.back());
    pool.finished.pop_back();
    return request;
  }
  return nullptr;
}

bool ShmRequest::start(Messenger& messenger, const std::shared_ptr<Communicator>& comm,
                       ShmArea& area, Operation operation, const ShmFast::Small& args,
                       uint32_t signature, std::chrono::nanoseconds timeout,
                       std::shared_ptr<Request>* out) {
  if (!small_shm_fits(area, operation, args)) return false;
  std::shared_ptr<ShmRequest> request = reuse(*comm);
  if (request == nullptr) {
    request = std::make_shared<ShmRequest>(Private{}, messenger, comm, timeout);
  } else {
    request->comm_ = comm;
    request->timeout_ = timeout;
    request->status_ = REMORA_SUCCESS;
    request->message_.clear();
    request->done_.store(false, std::memory_order_relaxed);
  }
  ShmRequest& r = *request;
  InstanceTable& instances = messenger.instances();
  r.announcements_ = instances.announcements();
  Failure announced;
  // An entry of its own in the communicator's instance slot when one is free (no lock, no
  // hash map); else a scheduled instance's entry.
  r.slot_ = area.instance_slot(instances, comm->context());
  r.entry_ = InstanceTable::claim(r.slot_);
  r.sequence_ = r.entry_ > 0 ? instances.begin_unscheduled(r.slot_, signature, &announced, r.entry_)
                             : instances.begin(comm->context(), signature, &announced);
  // Not enlisted yet: start() below enlists them unless they complete at once (a call that
  // fails at once abandons its sequence by cancel). A reused request's rounds have left the area
  // (it finished); only it holds them unless a waiter of the area is about to look at them. Its
  // round list serves again as it is when the shape is the same (its functions read call_).
  const uint64_t shape = small_shm_shape(area, operation, args);
  if (r.rounds_ != nullptr && r.rounds_.use_count() == 1 && shape == r.shape_) {
    small_shm_call(area, operation, args, &r.call_);
    r.rounds_->restart(r.sequence_, nullptr, false);
  } else {
    std::vector<ShmRounds::Round>& rounds = r.spare_rounds_;
    rounds.clear();
    small_shm_rounds(area, operation, args, &r.call_, &rounds);
    if (r.rounds_ != nullptr && r.rounds_.use_count() == 1)
      r.rounds_->restart(r.sequence_, &rounds, false);
    else
      r.rounds_ =
          ShmRounds::make(area.shared_from_this(), r.sequence_, std::move(rounds), nullptr, false);
    r.shape_ = shape;
  }
  if (timeout.count() != 0) r.started_ = std::chrono::steady_clock::now();
  // Without mutex_: no other thread can reach the request before *out is handed out (the
  // area's waiters reach its rounds only, under their own lock).
  if (announced.code != 0) {
    r.rounds_->cancel();
    r.finish(announced.code, announced.message, false);
  } else {
    // Published now when its slot or cell is free (the rounds' first poll, as a schedule
    // issues a polled step at its start); enlisted on the area only if still in flight then,
    // or behind pending calls (ShmRounds::start).
    const int status = r.rounds_->start();
    if (status != kInFlight) r.finish(status, status < 0 ? last_error() : std::string(), true);
  }
  *out = std::move(request);
  return true;
}

ShmRequest::~ShmRequest() {
  // Its rounds read call_: none may run after this (finished ones run nothing; an unfinished
  // one, of a request freed before completion, leaves the area and abandons its sequence). A
  // done request's rounds have finished or were cancelled when it finished.
  if (rounds_ != nullptr && !done()) rounds_->cancel();
}

void ShmRequest::check_stalled() {
  if (done()) return;
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock() || done()) return;  // another thread advances it now
  // An error notice for this collective (a member failed it): the failure it names ends it.
  InstanceTable& instances = messenger_.instances();
  const uint64_t announced = instances.announcements();
  if (announced != announcements_) {
    announcements_ = announced;
    Failure failure = instances.announced(comm_->context(), sequence_);
    if (failure.code != 0) {
      rounds_->cancel();
      return finish(failure.code, failure.message, false);
    }
  }
  if (rounds_->may_advance()) {
    const int status = rounds_->poll();
    if (status != kInFlight) return finish(status, status < 0 ? last_error() : std::string(), true);
  }
  if (timeout_.count() == 0 || std::chrono::steady_clock::now() - started_ < timeout_) return;
  rounds_->cancel();
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(timeout_).count();
  finish(REMORA_ERR_ARG,
         format("this collective did not complete in %lld s (REMORA_COLL_TIMEOUT); rank %d of the "
                "communicator still waits in the shared area (shm) for other ranks: the ranks may "
                "disagree on the operation or its sizes, or a rank did not make this call",
                static_cast<long long>(seconds), comm_->rank()),
         true);
}

void ShmRequest::finish(int status, const std::string& message, bool tell_others) {
  if (status < 0) {
    status_ = status;
    message_ = message;
    // The others would otherwise wait for this rank's rounds (which abandoned the sequence).
    if (tell_others) messenger_.notify(comm_->context(), sequence_, status, message);
  }
  if (entry_ > 0)
    messenger_.end_unscheduled_instance(slot_, comm_->context(), sequence_, entry_);
  else
    messenger_.end_instance(comm_->context(), sequence_);
  // Into the pool before done: a thread that sees it done may free it, and the next call on the
  // communicator then finds it there. The communicator goes last (this may be its last reference:
  // the caller's keeps this request alive).
  const std::shared_ptr<Communicator> comm = std::move(comm_);
  {
    ShmRequestPool& pool = comm->shm_requests;
    std::lock_guard lock(pool.mutex);
    if (pool.finished.size() < ShmRequestPool::kMax) pool.finished.push_back(shared_from_this());
  }
  done_.store(true, std::memory_order_release);
}

int ShmRequest::status() const {
  if (status_ == REMORA_SUCCESS) return REMORA_SUCCESS;
  return fail(status_, "%s", message_.c_str());
}

}  // namespace remora::coll
