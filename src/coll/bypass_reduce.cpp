#include "coll/bypass_reduce.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "coll/algorithms/common.hpp"
#include "coll/bypass_slots.hpp"
#include "coll/schedule.hpp"
#include "coll/staged_message.hpp"
#include "coll/tree.hpp"
#include "core/error.hpp"
#include "rma/reduce_op.hpp"

namespace remora::coll {
namespace {

struct WireHeader {
  uint32_t context;
  uint32_t reserved;
  uint64_t instance;
};
constexpr size_t kHeader = sizeof(WireHeader);
constexpr size_t kNoSlot = static_cast<size_t>(-1);

// A contribution (a leaf's input or a descriptor's result) to the parent. The root runs the
// standard schedule, so it gets an ordinary message with its receive's tag; an internal parent
// gets one on the bypass handler.
int send_to_parent(Messenger& messenger, transport::Transport& transport, int handler, int parent,
                   bool parent_is_root, uint32_t context, uint64_t instance, const void* data,
                   size_t bytes) {
  if (parent_is_root)
    return messenger.send(parent, context, Schedule::message_tag(instance, 0), data, bytes,
                          kUncheckedSignature);
  const WireHeader header{context, 0, instance};
  const StagedMessage message(&header, kHeader, data, bytes);
  return transport.am_send(parent, handler, message.data(), message.size());
}

}  // namespace

// The state of one reduction delegated to the progress engine (the paper's descriptor).
struct BypassReduce::Descriptor {
  std::shared_ptr<Communicator> comm;  // keeps the context id reserved until forwarded
  uint32_t context = 0;
  uint64_t instance = 0;
  int parent = -1;  // world rank
  bool parent_is_root = false;
  int op = 0, type = 0;
  size_t count = 0, bytes = 0;
  bool ordered = false;         // floating point: fold in a fixed order (reproducible)
  std::vector<uint8_t> result;  // the running result
  std::vector<int> children;    // world ranks, in folding order (smallest subtree first)
  std::vector<bool> arrived;
  std::vector<std::vector<uint8_t>> held;  // arrived out of order, not yet folded
  size_t folded = 0;

  bool complete() const { return folded == children.size(); }
  size_t slot_of(int source) const {
    const auto found = std::find(children.begin(), children.end(), source);
    return found == children.end() ? kNoSlot : static_cast<size_t>(found - children.begin());
  }
};

size_t BypassReduce::KeyHash::operator()(const Key& key) const {
  return std::hash<uint64_t>()(key.instance * 0x9e3779b97f4a7c15ULL ^
                               (uint64_t{key.context} << 32 | static_cast<uint32_t>(key.source)));
}

int BypassReduce::create(transport::Transport& transport, Messenger& messenger,
                         const BypassOptions& options, std::unique_ptr<BypassReduce>* out) {
  std::unique_ptr<BypassReduce> bypass(new BypassReduce(transport, messenger, options));
  const int status =
      transport.am_register(&BypassReduce::on_message, bypass.get(), &bypass->handler_);
  if (status != REMORA_SUCCESS) return status;
  // Nothing pending yet: an early child's message need not wake an idle progress thread.
  transport.set_wake_on_arrival(bypass->handler_, false);
  *out = std::move(bypass);
  return REMORA_SUCCESS;
}

BypassReduce::BypassReduce(transport::Transport& transport, Messenger& messenger,
                           const BypassOptions& options)
    : transport_(transport), messenger_(messenger), options_(options) {}

BypassReduce::~BypassReduce() = default;

bool BypassReduce::contributes_only(int rank, const CollectiveArgs& args) const {
  // Every rank sees the same size and limits, so all take the same branch.
  const size_t eager = std::min(options_.eager_bytes, messenger_.max_bytes());
  return rank != args.root && args.count * args.extent <= eager;
}

bool BypassReduce::uses_slots(const Communicator& comm, const CollectiveArgs& args) const {
  const size_t bytes = args.count * args.extent;
  return shape(comm.size()) == TreeShape::Flat &&
         bytes <= std::min(options_.eager_bytes, messenger_.max_bytes()) &&
         BypassSlots::serves(comm.shm_area_ptr(), bytes);
}

void BypassReduce::build(Schedule& schedule, const CollectiveArgs& args) {
  schedule.keep_running_on_failure();
  const Communicator& comm = schedule.comm();
  if (uses_slots(comm, args)) {
    ShmArea& area = *comm.shm_area_ptr();
    if (comm.rank() == args.root) {
      auto step = std::make_shared<BypassSlots::Collection>(transport_, comm, area,
                                                            schedule.sequence(), args);
      schedule.poll(step);
      area.enlist(std::move(step));
    } else {
      schedule.poll(std::make_shared<BypassSlots::Contribution>(transport_, comm, area,
                                                                schedule.sequence(), args, true));
    }
    return;
  }
  if (!contributes_only(schedule.rank(), args))
    return build_reduce(schedule, args, shape(schedule.size()));
  // Its failures are this rank's own (kept from an earlier reduce): nobody else waits on them.
  schedule.call([this, comm = schedule.shared_comm(), instance = schedule.sequence(),
                 args] { return contribute(comm, instance, args); },
                {}, false);
}

int BypassReduce::contribute_unscheduled(const std::shared_ptr<Communicator>& comm,
                                         uint32_t signature, const CollectiveArgs& args) {
  InstanceTable& instances = messenger_.instances();
  InstanceTable::Context* slot = instances.slot(comm->context());
  Failure announced;
  const uint64_t instance = instances.begin_unscheduled(slot, signature, &announced);
  const int status = announced.code != 0 ? fail(announced.code, "%s", announced.message.c_str())
                                         : contribute(comm, instance, args);
  messenger_.end_unscheduled_instance(slot, comm->context(), instance);
  return status;
}

int BypassReduce::run_slots(const std::shared_ptr<Communicator>& comm, uint32_t signature,
                            const CollectiveArgs& args, std::chrono::nanoseconds timeout) {
  InstanceTable& instances = messenger_.instances();
  ShmArea& area = *comm->shm_area_ptr();
  // The area keeps the table's entry: no lock and no hash look-up per call.
  InstanceTable::Context* slot = area.instance_slot(instances, comm->context());
  Failure announced;
  const uint64_t instance = instances.begin_unscheduled(slot, signature, &announced);
  int status = REMORA_SUCCESS;
  if (comm->rank() == args.root) {
    // Made even for a call that fails at once: it counts the arrivals of the root's calls.
    BypassSlots::Collection step(transport_, *comm, area, instance, args);
    if (announced.code != 0) {
      step.cancel();
      status = fail(announced.code, "%s", announced.message.c_str());
    } else {
      status = wait_slots(step, *comm, instance, true, timeout);
    }
  } else if (announced.code != 0) {
    area.abandon(instance);  // the root stops waiting for this rank
    status = fail(announced.code, "%s", announced.message.c_str());
  } else {
    BypassSlots::Contribution step(transport_, *comm, area, instance, args, false);
    status = wait_slots(step, *comm, instance, false, timeout);
  }
  messenger_.end_unscheduled_instance(slot, comm->context(), instance);
  if (status != REMORA_SUCCESS) return status;
  return take_failure();
}

template <typename Step>
int BypassReduce::wait_slots(Step& step, const Communicator& comm, uint64_t instance, bool root,
                             std::chrono::nanoseconds timeout) {
  int outcome = step.poll();
  if (outcome != 1) return outcome;
  InstanceTable& instances = messenger_.instances();
  uint64_t announcements = instances.announcements();
  const auto start = std::chrono::steady_clock::now();
  unsigned checks = 0;
  const auto ready = [&] {
    // The wait may call this again after it held (ShmTransport::sleep calls it before it
    // blocks, and the wait loop once more when the sleep returns at once): no second poll.
    if (outcome != 1) return true;
    outcome = step.poll();
    if (outcome != 1) return true;
    // An error notice for this call: the failure it names ends the call here.
    const uint64_t now_announced = instances.announcements();
    if (now_announced != announcements) {
      announcements = now_announced;
      const Failure failure = instances.announced(comm.context(), instance);
      if (failure.code != 0) {
        step.cancel();
        outcome = fail(failure.code, "%s", failure.message.c_str());
        return true;
      }
    }
    if (timeout.count() != 0 && (++checks & 63) == 0 &&
        std::chrono::steady_clock::now() - start >= timeout) {
      step.cancel();
      const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(timeout).count();
      const std::string message = format(
          "no step of this collective finished for %lld s (REMORA_COLL_TIMEOUT); rank %d of the "
          "communicator still waits in an application-bypass reduce for %s: the ranks may "
          "disagree on the root, the count or the algorithm, or a rank did not make this call",
          static_cast<long long>(seconds), comm.rank(),
          root ? "the other ranks' contributions" : "its slot, held by an earlier call's root");
      messenger_.notify(comm.context(), instance, REMORA_ERR_ARG, message);
      outcome = fail(REMORA_ERR_ARG, "%s", message.c_str());
      return true;
    }
    return false;
  };
  // Only a contribution (whose last one wakes the root) or a freed slot ends the wait. The
  // root's sleep issues no membarrier: its wakers fence (Transport::sleep_for_arrivals).
  const int status = root ? transport_.wait_for_arrival(ready, [] { return size_t{1}; })
                          : transport_.wait_until(ready);
  if (status != REMORA_SUCCESS) {
    step.cancel();  // the job aborts
    return status;
  }
  return outcome;
}

int BypassReduce::contribute(const std::shared_ptr<Communicator>& comm, uint64_t instance,
                             const CollectiveArgs& args) {
  const int size = comm->size();
  const int me = relative_rank(comm->rank(), args.root, size);
  const TreeNode node = tree_node(shape(size), me, size);
  const auto world = [&](int relative) {
    return comm->world_rank(absolute_rank(relative, args.root, size));
  };
  const size_t bytes = args.count * args.extent;
  if (node.children.empty()) {
    // A leaf (every rank of a flat tree) sends its input as it is, with no descriptor: the
    // send copies it, so the caller may reuse its buffer as soon as we return.
    const int status =
        send_to_parent(messenger_, transport_, handler_, world(node.parent), node.parent == 0,
                       comm->context(), instance, input_of(args), bytes);
    if (status != REMORA_SUCCESS) record_failure(status);
    return take_failure();
  }
  auto d = std::make_unique<Descriptor>();
  d->context = comm->context();
  d->instance = instance;
  d->parent = world(node.parent);
  d->parent_is_root = node.parent == 0;
  d->bytes = bytes;
  d->result.resize(bytes);
  if (bytes > 0) std::memcpy(d->result.data(), input_of(args), bytes);
  d->comm = comm;
  d->op = args.op;
  d->type = args.type;
  d->count = args.count;
  d->ordered = is_floating(args.type);
  for (auto child = node.children.rbegin(); child != node.children.rend(); ++child)
    d->children.push_back(world(*child));
  d->arrived.assign(d->children.size(), false);
  d->held.resize(d->children.size());
  created_.fetch_add(1, std::memory_order_relaxed);

  const Key key{comm->context(), instance, -1};
  {
    std::lock_guard lock(mutex_);
    for (size_t slot = 0; slot < d->children.size(); ++slot) {
      auto early = unexpected_.find(Key{key.context, instance, d->children[slot]});
      if (early == unexpected_.end()) continue;
      accept(*d, slot, early->second.data(), early->second.size(), &early->second);
      unexpected_.erase(early);
    }
    if (!d->complete()) {
      // Late children's messages must now wake the progress thread: turned on before we poll.
      if (pending_.fetch_add(1, std::memory_order_release) == 0)
        transport_.set_wake_on_arrival(handler_, true);
      descriptors_.emplace(key, std::move(d));
    }
  }
  if (d != nullptr) {  // every child was early
    forward(*d);
    return take_failure();
  }
  // Something is pending now, so it is worth a poll (and only now): children whose data sits
  // in the transport's queue are folded in without a round trip through the progress engine.
  transport_.poll();
  if (options_.delay_us > 0) {
    // The paper's optional delay: give late children a chance to arrive while we still poll.
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::microseconds(options_.delay_us);
    while (is_pending(key) && std::chrono::steady_clock::now() < deadline) transport_.poll();
  }
  if (is_pending(key)) returned_early_.fetch_add(1, std::memory_order_relaxed);
  return take_failure();
}

void BypassReduce::on_message(int source, const void* payload, size_t bytes, void* context) {
  static_cast<BypassReduce*>(context)->deliver(source, payload, bytes);
}

// The asynchronous part (the paper's Fig. 5): a late child is folded in straight from the
// packet; an early one is kept in the unexpected queue.
void BypassReduce::deliver(int source, const void* payload, size_t bytes) {
  WireHeader header;
  std::memcpy(&header, payload, kHeader);
  const auto* data = static_cast<const uint8_t*>(payload) + kHeader;
  const size_t data_bytes = bytes - kHeader;
  std::unique_ptr<Descriptor> finished;
  {
    std::lock_guard lock(mutex_);
    auto found = descriptors_.find(Key{header.context, header.instance, -1});
    const size_t slot = found == descriptors_.end() ? kNoSlot : found->second->slot_of(source);
    if (slot == kNoSlot || found->second->arrived[slot]) {
      unexpected_[Key{header.context, header.instance, source}].assign(data, data + data_bytes);
      return;
    }
    accept(*found->second, slot, data, data_bytes, nullptr);
    if (!found->second->complete()) return;
    finished = std::move(found->second);
    descriptors_.erase(found);
    // Before the send: once the parent has the result, nothing here may still count as pending.
    if (pending_.fetch_sub(1, std::memory_order_release) == 1)
      transport_.set_wake_on_arrival(handler_, false);
  }
  forward(*finished);
}

void BypassReduce::accept(Descriptor& d, size_t slot, const uint8_t* data, size_t bytes,
                          std::vector<uint8_t>* storage) {
  d.arrived[slot] = true;
  if (bytes != d.bytes) {
    // Counted as folded so that the reduction still completes and nobody waits forever.
    record_failure(fail(REMORA_ERR_ARG,
                        "mismatched counts: an application-bypass reduce expected %zu bytes from "
                        "world rank %d but was sent %zu",
                        d.bytes, d.children[slot], bytes));
    if (!d.ordered) ++d.folded;
    fold_in_order(d);
    return;
  }
  if (!d.ordered || slot == d.folded) {
    if (bytes > 0) rma::apply_op(d.op, d.type, d.result.data(), data, d.count);
    ++d.folded;
  } else if (storage != nullptr) {
    d.held[slot] = std::move(*storage);
  } else {
    d.held[slot].assign(data, data + bytes);
  }
  fold_in_order(d);
}

void BypassReduce::fold_in_order(Descriptor& d) {
  if (!d.ordered) return;
  while (d.folded < d.children.size() && d.arrived[d.folded]) {
    std::vector<uint8_t>& data = d.held[d.folded];
    if (d.bytes > 0 && data.size() == d.bytes)
      rma::apply_op(d.op, d.type, d.result.data(), data.data(), d.count);
    data = {};
    ++d.folded;
  }
}

int BypassReduce::forward(Descriptor& d) {
  const int status = send_to_parent(messenger_, transport_, handler_, d.parent, d.parent_is_root,
                                    d.context, d.instance, d.result.data(), d.bytes);
  if (status != REMORA_SUCCESS) record_failure(status);
  return status;
}

bool BypassReduce::is_pending(const Key& key) {
  std::lock_guard lock(mutex_);
  return descriptors_.count(key) != 0;
}

void BypassReduce::record_failure(int status) {
  std::lock_guard lock(failure_mutex_);
  // the first failure explains the rest
  if (failure_.load(std::memory_order_relaxed) != REMORA_SUCCESS) return;
  failure_message_ = last_error();
  failure_.store(status, std::memory_order_release);  // after the message it publishes
}

int BypassReduce::take_failure() {
  // One recorded by this thread is seen (program order); one recorded concurrently on the
  // progress thread may be seen by the next call instead, as it could with the lock alone.
  if (failure_.load(std::memory_order_acquire) == REMORA_SUCCESS) return REMORA_SUCCESS;
  std::lock_guard lock(failure_mutex_);
  const int status = failure_.load(std::memory_order_relaxed);
  if (status == REMORA_SUCCESS) return REMORA_SUCCESS;  // another thread took it meanwhile
  failure_.store(REMORA_SUCCESS, std::memory_order_relaxed);
  return fail(status, "an application-bypass reduce failed while completing in the background: %s",
              failure_message_.c_str());
}

}  // namespace remora::coll
