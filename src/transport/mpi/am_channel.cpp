#include "transport/mpi/am_channel.hpp"

#include <chrono>
#include <climits>
#include <cstring>
#include <thread>

#include "core/error.hpp"

namespace remora::mpi {
namespace {
constexpr int kAmTag = 1;
constexpr size_t kHeaderBytes = 8;  // handler id and padding: the payload stays 8-byte aligned
constexpr int kReceiveBatch = 64;
constexpr uint32_t kNoticeHandler = 0xffffffffu;  // no handler: a notice (send_notice)
}  // namespace

AmChannel::~AmChannel() {
  // Sends still in flight at finalize have been received (finalize ends with a barrier and a
  // drain); wait a little for their local completion, then let MPI_Finalize clean up.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  std::lock_guard lock(mpi_mutex_);
  while (!sending_.empty() && std::chrono::steady_clock::now() < deadline) {
    retire_completed();
    if (!sending_.empty()) std::this_thread::yield();
  }
  // MPI may still read what never completed: leave those buffers allocated.
  if (!sending_.empty()) new std::deque<Sending>(std::move(sending_));
}

int AmChannel::send(int target, int handler, const void* payload, size_t bytes) {
  if (bytes > static_cast<size_t>(INT_MAX) - kHeaderBytes)
    return fail(REMORA_ERR_ARG, "remora_am_send: bytes=%zu exceeds what one MPI message carries",
                bytes);
  Sending sending;
  sending.wire.resize(kHeaderBytes + bytes);
  const auto id = static_cast<uint32_t>(handler);
  std::memcpy(sending.wire.data(), &id, sizeof id);
  if (bytes > 0) std::memcpy(sending.wire.data() + kHeaderBytes, payload, bytes);
  std::lock_guard lock(mpi_mutex_);
  retire_completed();
  sending_.push_back(std::move(sending));
  Sending& queued = sending_.back();
  if (MPI_Isend(queued.wire.data(), static_cast<int>(queued.wire.size()), MPI_BYTE,
                map_.process_of(target), kAmTag, comm_, &queued.request) != MPI_SUCCESS) {
    sending_.pop_back();
    return fail(REMORA_ERR_SYSTEM, "active message to rank %d: MPI_Isend failed", target);
  }
  return REMORA_SUCCESS;
}

int AmChannel::send_notice(int target) {
  return send(target, static_cast<int>(kNoticeHandler), nullptr, 0);
}

void AmChannel::retire_completed() {
  while (!sending_.empty()) {
    int done = 0;
    MPI_Test(&sending_.front().request, &done, MPI_STATUS_IGNORE);
    if (!done) break;
    sending_.pop_front();
  }
}

bool AmChannel::poll(transport::AmDispatcher& dispatcher) {
  std::unique_lock lock(mpi_mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return false;
  retire_completed();
  bool received = false;
  for (int i = 0; i < kReceiveBatch; ++i) {
    int found = 0;
    MPI_Message message;
    MPI_Status status;
    MPI_Improbe(MPI_ANY_SOURCE, kAmTag, comm_, &found, &message, &status);
    if (!found) break;
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    receive_buffer_.resize(static_cast<size_t>(count));
    MPI_Mrecv(receive_buffer_.data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE);
    uint32_t handler = 0;
    std::memcpy(&handler, receive_buffer_.data(), sizeof handler);
    received = true;
    if (handler == kNoticeHandler) continue;
    const size_t bytes = static_cast<size_t>(count) - kHeaderBytes;
    dispatcher.accept_chunk(map_.endpoint_of(status.MPI_SOURCE), static_cast<int>(handler), true,
                            true, static_cast<uint32_t>(bytes),
                            receive_buffer_.data() + kHeaderBytes, bytes);
  }
  return received;
}

bool AmChannel::probe() {
  std::unique_lock lock(mpi_mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return false;
  int found = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, kAmTag, comm_, &found, MPI_STATUS_IGNORE);
  return found != 0;
}

}  // namespace remora::mpi
