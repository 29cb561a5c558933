#include "coll/barrier.hpp"

#include <atomic>

#include "core/error.hpp"

namespace remora::coll {
namespace {
constexpr int kMaxRounds = 32;  // enough for 2^32 ranks
}

Barrier::Barrier(transport::Transport& transport, BarrierAlgorithm algorithm)
    : transport_(transport), algorithm_(algorithm) {}

Barrier::~Barrier() {
  if (counters_ != nullptr) delete counters_;  // not collective: only at teardown after errors
}

int Barrier::create(transport::Transport& transport, const std::string& algorithm,
                    std::unique_ptr<Barrier>* out) {
  const bool one_node = transport.local_ranks().size() == static_cast<size_t>(transport.size());
  BarrierAlgorithm chosen;
  if (algorithm == "dissemination") {
    chosen = BarrierAlgorithm::Dissemination;
  } else if (algorithm == "central" || algorithm == "auto") {
    chosen = one_node ? BarrierAlgorithm::Central : BarrierAlgorithm::Dissemination;
  } else {
    return fail(REMORA_ERR_CONFIG,
                "REMORA_BARRIER='%s' is malformed: expected auto, dissemination or central",
                algorithm.c_str());
  }
  std::unique_ptr<Barrier> barrier(new Barrier(transport, chosen));
  // Every algorithm allocates the counters, so that switching algorithms needs no new segment
  // and so that allocation stays collective whatever each rank chose.
  const int status = transport.allocate_segment(kMaxRounds * sizeof(uint64_t), &barrier->counters_);
  if (status != REMORA_SUCCESS) return status;
  *out = std::move(barrier);
  return REMORA_SUCCESS;
}

int Barrier::destroy() {
  const int status = transport_.free_segment(counters_);
  counters_ = nullptr;
  return status;
}

int Barrier::run() {
  if (transport_.size() == 1) {
    transport_.poll();
    return REMORA_SUCCESS;
  }
  if (algorithm_ == BarrierAlgorithm::Central) return transport_.node_barrier();
  return run_dissemination();
}

int Barrier::run_dissemination() {
  const int size = transport_.size();
  const int rank = transport_.rank();
  ++epoch_;
  auto* mine = static_cast<uint64_t*>(transport_.address(*counters_, rank));
  for (int round = 0, distance = 1; distance < size; ++round, distance *= 2) {
    const int partner = (rank + distance) % size;
    uint64_t previous = 0;
    int status =
        transport_.atomic(*counters_, partner, static_cast<size_t>(round) * sizeof(uint64_t),
                          transport::AtomicOp::FetchAdd, 1, 0, &previous);
    if (status != REMORA_SUCCESS) return status;
    transport_.wake(partner);
    std::atomic_ref<uint64_t> arrived(mine[round]);
    status = transport_.wait_until(
        [&arrived, this] { return arrived.load(std::memory_order_acquire) >= epoch_; });
    if (status != REMORA_SUCCESS) return status;
  }
  return REMORA_SUCCESS;
}

}  // namespace remora::coll
