#include "coll/schedule.hpp"

#include <cassert>
#include <cstring>

#include "core/error.hpp"
#include "rma/reduce_op.hpp"

namespace remora::coll {
namespace {
constexpr int kInFlight = 1;
constexpr size_t kFirstSteps = 4;
}  // namespace

Schedule::Schedule(Messenger& messenger, std::shared_ptr<Communicator> comm, uint32_t signature)
    : messenger_(messenger),
      comm_(std::move(comm)),
      signature_(signature),
      sequence_(messenger_.instances().begin(comm_->context(), signature, &announced_)),
      rank_(comm_->rank()) {}

void Schedule::use_order(std::shared_ptr<const RankOrder> order) {
  order_ = std::move(order);
  rank_ = order_->position_of[static_cast<size_t>(comm_->rank())];
}

Schedule::StepId Schedule::add(Step step, const Deps& deps) {
  assert(!started_);  // the vector would move receives already posted
  // Most schedules have a few steps: one allocation for them instead of growing 1, 2, 4.
  if (steps_.empty()) steps_.reserve(kFirstSteps);
  const auto id = static_cast<StepId>(steps_.size());
  for (StepId dep : deps) {
    if (dep < 0) continue;
    steps_[static_cast<size_t>(dep)].dependents.push_back(id);
    ++step.waiting_for;
  }
  steps_.push_back(std::move(step));
  return id;
}

Schedule::Step Schedule::message(Kind kind, int peer, uint32_t tag) const {
  Step step(kind);
  step.peer = order_ ? order_->rank_at[static_cast<size_t>(peer)] : peer;  // a rank of comm
  step.tag = tag;
  return step;
}

Schedule::StepId Schedule::send(int peer, uint32_t tag, const void* data, size_t bytes,
                                const Deps& deps) {
  Step step = message(Kind::Send, peer, tag);
  step.source = data;
  step.bytes = bytes;
  return add(std::move(step), deps);
}

Schedule::StepId Schedule::send_vector(int peer, uint32_t tag, const std::vector<uint8_t>* data,
                                       const Deps& deps) {
  Step step = message(Kind::SendVector, peer, tag);
  step.vector = data;
  return add(std::move(step), deps);
}

Schedule::StepId Schedule::recv(int peer, uint32_t tag, void* data, size_t bytes,
                                const Deps& deps) {
  Step step = message(Kind::Recv, peer, tag);
  step.receive.buffer = data;
  step.receive.bytes = bytes;
  return add(std::move(step), deps);
}

Schedule::StepId Schedule::recv_vector(int peer, uint32_t tag, std::vector<uint8_t>* data,
                                       const Deps& deps) {
  Step step = message(Kind::Recv, peer, tag);
  step.receive.dynamic = data;
  return add(std::move(step), deps);
}

Schedule::StepId Schedule::reduce(int op, int type, void* target, const void* source, size_t count,
                                  const Deps& deps) {
  Step step(Kind::Reduce);
  step.op = op;
  step.type = type;
  step.target = target;
  step.source = source;
  step.bytes = count;
  return add(std::move(step), deps);
}

Schedule::StepId Schedule::copy(void* target, const void* source, size_t bytes, const Deps& deps) {
  Step step(Kind::Copy);
  step.target = target;
  step.source = source;
  step.bytes = bytes;
  return add(std::move(step), deps);
}

Schedule::StepId Schedule::call(std::function<int()> function, const Deps& deps, bool announce) {
  Step step(Kind::Call);
  step.function = std::move(function);
  step.announce = announce;
  return add(std::move(step), deps);
}

Schedule::StepId Schedule::poll(std::shared_ptr<Polled> polled, const Deps& deps) {
  Step step(Kind::Poll);
  step.polled = std::move(polled);
  return add(std::move(step), deps);
}

uint8_t* Schedule::scratch(size_t bytes) {
  return scratch_.emplace_front(bytes).data();
}

std::vector<uint8_t>* Schedule::scratch_vector() {
  return &scratch_.emplace_front();
}

uint64_t Schedule::message_tag(uint64_t sequence, uint32_t tag) {
  return sequence << kStepTagBits | tag;
}

void Schedule::start() {
  started_ = true;
  Failure announced =
      messenger_.instances().started(comm_->context(), sequence_, shared_from_this());
  if (announced_.code != 0) announced = std::move(announced_);
  last_progress_.store(std::chrono::steady_clock::now().time_since_epoch().count(),
                       std::memory_order_relaxed);
  std::lock_guard lock(mutex_);
  if (failed_) return;  // a notice came in between
  if (announced.code != 0) return record_failure(announced.code, announced.message, false);
  remaining_ = steps_.size();
  ready_.reserve(steps_.size());  // at most every step at once: one allocation, not a doubling
  for (size_t id = 0; id < steps_.size(); ++id)
    if (steps_[id].waiting_for == 0) ready_.push_back(static_cast<StepId>(id));
  if (remaining_ == 0) complete();
  run_ready();
}

void Schedule::run_ready() {
  while (!ready_.empty() && !failed_) {
    const StepId id = ready_.back();
    ready_.pop_back();
    Step& step = steps_[static_cast<size_t>(id)];
    if (overwrites_pending_send(step)) {
      parked_.push_back(id);
      continue;
    }
    const int status = issue(step, id);
    if (status != kInFlight) finish(id, status);
  }
}

bool Schedule::overwrites_pending_send(const Step& step) const {
  if (sending_.empty()) return false;
  const uint8_t* begin = nullptr;
  size_t bytes = 0;
  if (step.kind == Kind::Recv && step.receive.dynamic == nullptr) {
    begin = static_cast<const uint8_t*>(step.receive.buffer);
    bytes = step.receive.bytes;
  } else if (step.kind == Kind::Reduce) {
    begin = static_cast<const uint8_t*>(step.target);
    bytes = step.bytes * rma::datatype_size(step.type);
  } else if (step.kind == Kind::Copy) {
    begin = static_cast<const uint8_t*>(step.target);
    bytes = step.bytes;
  }
  if (bytes == 0) return false;
  for (StepId id : sending_) {
    const Step& send = steps_[static_cast<size_t>(id)];
    const auto* source = static_cast<const uint8_t*>(send.source);
    if (begin < source + send.bytes && source < begin + bytes) return true;
  }
  return false;
}

int Schedule::issue(Step& step, StepId id) {
  switch (step.kind) {
    case Kind::SendVector:
      // The algorithms fill a sent vector before the send and never touch it after, so it
      // stays in place for a rendezvous like any other buffer.
      step.source = step.vector->data();
      step.bytes = step.vector->size();
      [[fallthrough]];
    case Kind::Send: {
      const int status = messenger_.start_send(comm_->world_rank(step.peer), comm_->context(),
                                               message_tag(step.tag), step.source, step.bytes,
                                               signature_, shared_from_this(), id);
      if (status != Messenger::kPending) return status;
      sending_.push_back(id);
      return kInFlight;
    }
    case Kind::Recv:
      step.receive.key =
          MessageKey{comm_->context(), comm_->world_rank(step.peer), message_tag(step.tag)};
      step.receive.step = id;
      step.receive.owner = shared_from_this();
      if (!messenger_.post(&step.receive)) {
        awaited_.fetch_add(1, std::memory_order_release);
        return kInFlight;
      }
      return receive_status(step.receive);
    case Kind::Reduce:
      rma::apply_op(step.op, step.type, step.target, step.source, step.bytes);
      return REMORA_SUCCESS;
    case Kind::Copy:
      if (step.bytes > 0 && step.target != step.source)
        std::memcpy(step.target, step.source, step.bytes);
      return REMORA_SUCCESS;
    case Kind::Call:
      return step.function();
    case Kind::Poll: {
      const int status = step.polled->poll();
      if (status == kInFlight) {
        polling_.push_back(id);
        has_polling_.store(true, std::memory_order_release);
      }
      return status;
    }
  }
  return REMORA_SUCCESS;
}

int Schedule::receive_status(const Receive& receive) const {
  if (receive.failure != REMORA_SUCCESS) return receive.failure;
  if (!signatures_agree(signature_, receive.arrived_signature))
    return fail(REMORA_ERR_ARG,
                "mismatched arguments between ranks: rank %d of the communicator called %s where "
                "rank %d called %s",
                comm_->group().rank_of(receive.key.source),
                describe_signature(receive.arrived_signature).c_str(), comm_->rank(),
                describe_signature(signature_).c_str());
  if (receive.dynamic != nullptr || receive.arrived_bytes == receive.bytes) return REMORA_SUCCESS;
  return fail(REMORA_ERR_ARG,
              "mismatched counts: rank %d of the communicator expected %zu bytes from its rank %d "
              "but was sent %zu",
              comm_->rank(), receive.bytes, comm_->group().rank_of(receive.key.source),
              receive.arrived_bytes);
}

size_t Schedule::held_back() {
  std::lock_guard lock(mutex_);
  return parked_.size();
}

void Schedule::received(Receive& receive) {
  std::lock_guard lock(mutex_);
  --claims_;
  awaited_.fetch_sub(1, std::memory_order_release);
  if (failed_) {
    if (claims_ == 0) complete();
    return;
  }
  finish(receive.step, receive_status(receive));
  run_ready();
}

bool Schedule::claim(Receive&) {
  std::lock_guard lock(mutex_);
  if (failed_) return false;
  ++claims_;
  return true;
}

void Schedule::released(Receive&) {
  std::lock_guard lock(mutex_);
  --claims_;
  if (!failed_) return;
  // The receive went back to the posted queue after the collective failed: take it out again.
  messenger_.withdraw(comm_->context(), sequence_, this);
  if (claims_ == 0) complete();
}

void Schedule::sent(int step, int status) {
  std::lock_guard lock(mutex_);
  if (failed_) return;
  std::erase(sending_, step);
  finish(step, status);
  // Steps held back for this send may go now (those still overlapping another one park again).
  ready_.insert(ready_.end(), parked_.begin(), parked_.end());
  parked_.clear();
  run_ready();
}

void Schedule::poll_steps() {
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return;  // another thread polls it now
  if (failed_) return;
  bool any = false;
  for (StepId id : polling_) any = any || steps_[static_cast<size_t>(id)].polled->may_advance();
  if (!any) return;
  for (size_t i = 0; i < polling_.size();) {
    const StepId id = polling_[i];
    const int status = steps_[static_cast<size_t>(id)].polled->poll();
    if (status == kInFlight) {
      ++i;
      continue;
    }
    polling_.erase(polling_.begin() + static_cast<std::ptrdiff_t>(i));
    finish(id, status);
    if (failed_) return;
  }
  has_polling_.store(!polling_.empty(), std::memory_order_release);
  run_ready();
}

void Schedule::check_stalled() {
  if (has_polling_.load(std::memory_order_acquire)) poll_steps();
  if (timeout_.count() == 0 || done()) return;
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  if (std::chrono::steady_clock::duration(now - last_progress_.load(std::memory_order_relaxed)) <
      timeout_)
    return;
  std::lock_guard lock(mutex_);
  if (failed_ || done()) return;
  std::string peers;
  for (const Step& step : steps_)
    if (step.kind == Kind::Recv && step.receive.owner != nullptr)  // posted, not yet filled
      peers += (peers.empty() ? "" : ", ") +
               std::to_string(comm_->group().rank_of(step.receive.key.source));
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(timeout_).count();
  record_failure(REMORA_ERR_ARG,
                 format("no step of this collective finished for %lld s (REMORA_COLL_TIMEOUT); "
                        "rank %d of the communicator still waits for messages from rank(s) [%s]: "
                        "the ranks may disagree on the root, the operation or the algorithm, or a "
                        "rank did not make this call",
                        static_cast<long long>(seconds), comm_->rank(), peers.c_str()),
                 true);
}

void Schedule::finish(StepId id, int status) {
  last_progress_.store(std::chrono::steady_clock::now().time_since_epoch().count(),
                       std::memory_order_relaxed);
  if (status < 0 && !keep_running_)
    return record_failure(status, last_error(), steps_[static_cast<size_t>(id)].announce);
  if (status < 0 && status_ == REMORA_SUCCESS) {
    status_ = status;
    message_ = last_error();
  }
  for (StepId dependent : steps_[static_cast<size_t>(id)].dependents)
    if (--steps_[static_cast<size_t>(dependent)].waiting_for == 0) ready_.push_back(dependent);
  if (--remaining_ == 0) complete();
}

void Schedule::end_with_failure(const Failure& failure, bool tell_others) {
  std::lock_guard lock(mutex_);
  record_failure(failure.code, failure.message, tell_others);
}

void Schedule::record_failure(int status, const std::string& message, bool tell_others) {
  if (failed_ || done()) return;  // the first failure explains the rest
  failed_ = true;
  status_ = status;
  message_ = message;
  // The other ranks would otherwise wait for steps of this rank that will never run.
  if (tell_others) messenger_.notify(comm_->context(), sequence_, status, message);
  messenger_.withdraw(comm_->context(), sequence_, this);
  ready_.clear();
  parked_.clear();
  sending_.clear();
  for (Step& step : steps_)
    if (step.kind == Kind::Poll) step.polled->cancel();
  polling_.clear();
  has_polling_.store(false, std::memory_order_release);
  if (claims_ == 0) complete();
}

void Schedule::complete() {
  messenger_.end_instance(comm_->context(), sequence_);
  done_.store(true, std::memory_order_release);
}

int Schedule::status() const {
  if (status_ == REMORA_SUCCESS) return REMORA_SUCCESS;
  return fail(status_, "%s", message_.c_str());
}

}  // namespace remora::coll
