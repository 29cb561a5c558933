#include "arrays/nonblocking.hpp"

#include <cstring>

#include "arrays/array.hpp"

namespace remora::arrays {

NbOperation::NbOperation(Kind kind, Array& array, const int64_t* lo, const int64_t* hi,
                         void* buffer, const int64_t* ld, const void* alpha)
    : kind_(kind),
      array_(array),
      lo_(lo, lo + array.ndim()),
      hi_(hi, hi + array.ndim()),
      buffer_(buffer) {
  // ld has ndim-1 entries; keep one more so data() is never null for 1-d arrays.
  if (array.ndim() > 1) ld_.assign(ld, ld + array.ndim() - 1);
  ld_.push_back(1);
  if (alpha != nullptr) std::memcpy(alpha_, alpha, array.element());
}

void NbOperation::perform() {
  status_ = array_.perform(kind_, lo_.data(), hi_.data(), buffer_, ld_.data(), alpha_);
  done_.store(true, std::memory_order_release);
}

int NbQueue::prepare(transport::Transport& transport) {
  if (transport_ == &transport) return 0;
  // Remora is initialised once per process, so one registration serves its whole life.
  if (int status = transport.am_register(&NbQueue::on_doorbell, this, &handler_id_)) return status;
  transport_ = &transport;
  return 0;
}

int NbQueue::issue(transport::Transport& transport, std::shared_ptr<NbOperation> op) {
  (void)transport;
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(op));
  }
  return ring();
}

// One doorbell at a time: the handler clears the flag before it drains the queue, so work
// queued after the drain began rings again.
int NbQueue::ring() {
  if (doorbell_pending_.exchange(true, std::memory_order_acq_rel)) return 0;
  const char ring = 0;
  return transport_->am_send(transport_->rank(), handler_id_, &ring, sizeof ring);
}

bool NbQueue::run_one() {
  // One operation at a time, oldest first, so that operations complete in issue order even
  // when the progress thread and a waiting application thread both work the queue.
  std::unique_lock performing(perform_mutex_, std::try_to_lock);
  if (!performing.owns_lock()) return false;
  std::shared_ptr<NbOperation> op;
  {
    std::lock_guard lock(mutex_);
    if (queue_.empty()) return false;
    op = std::move(queue_.front());
    queue_.pop_front();
  }
  op->perform();
  performing.unlock();
  // A doorbell handled while this thread performed found the queue busy and left: ring again
  // so that the progress thread takes the rest.
  if (queued() > 0) ring();
  return true;
}

size_t NbQueue::queued() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

void NbQueue::on_doorbell(int source, const void* payload, size_t bytes, void* context) {
  (void)source;
  (void)payload;
  (void)bytes;
  auto* queue = static_cast<NbQueue*>(context);
  queue->doorbell_pending_.store(false, std::memory_order_release);
  bool ran = false;
  while (queue->run_one()) ran = true;
  // An application thread sleeping in wait or flush learns that its operation is done.
  if (ran) queue->transport_->wake(queue->transport_->rank());
}

NbQueue& nb_queue() {
  static NbQueue queue;
  return queue;
}

}  // namespace remora::arrays
