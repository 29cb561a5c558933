// The hierarchical algorithm (paper 004's topology-aware collectives): on a communicator whose
// members span several nodes, with two or more of them on some node, an operation runs as
// phases on two sub-communicators that the communicator gets at its first hierarchical call
// (Collectives::make_hierarchy, collective over it, cached on it):
//   node:    its members on this rank's node, in rank order; the node's leader is its lowest
//            rank. It has a shared area (coll/shm_area.hpp) when its group segment could be
//            made, and then runs the shm algorithm; else the message-based default;
//   leaders: the leaders of all nodes, in rank order (node i's leader is rank i), running the
//            operation's message-based default.
// The phases:
//   barrier:   node barrier, leaders' barrier, node barrier;
//   bcast:     on the root's node, a node bcast from the root (unless the root leads it); the
//              leaders' bcast from the root's leader; on the other nodes (and the root's, when
//              the root leads it) a node bcast from the leader;
//   reduce:    a node reduce to the leader; the leaders' reduce to the root's leader; that
//              leader sends the result to the root (when the root does not lead its node);
//   allreduce: a node reduce to the leader; the leaders' allreduce; a node bcast from the
//              leader. Every rank gets the same bits (one reduction order, the same for all).
// Each phase is a schedule of its own on its sub-communicator; a polled step of the call's
// schedule (Phases) starts a phase once the one before has completed here. The phases of a
// call are made when they start, and a call starts its phases only after the hierarchical call
// before it on the communicator has completed here, so every member of a sub-communicator makes
// its schedules in the same order (their sequence numbers match) whatever the order in which
// nonblocking calls are waited for. A member of a sub-communicator that takes no part in a
// phase of it (a bystander of the reduce's last send) still makes that phase's schedule, empty.
#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "coll/algorithms/common.hpp"
#include "coll/collectives.hpp"
#include "core/error.hpp"

namespace remora::coll {

struct Hierarchy {
  std::shared_ptr<Communicator> node;     // this rank's node
  std::shared_ptr<Communicator> leaders;  // nullptr where this rank leads no node
  std::vector<int> node_index;            // by rank: its node's index (its leader's rank there)
  std::vector<int> node_rank;             // by rank: its rank in its node's communicator
  std::vector<int> leader;                // by node index: the leader's rank
  std::mutex mutex;
  std::weak_ptr<Schedule::Polled> last;  // the latest hierarchical call's phases here
};

namespace {

constexpr int kInFlight = 1;

// The phases of one call, run one after the other. A phase maker returns nullptr where this
// rank is no member of the phase's communicator.
class Phases final : public Schedule::Polled {
 public:
  using Make = std::function<std::shared_ptr<Schedule>()>;

  static std::shared_ptr<Phases> make(const std::shared_ptr<Hierarchy>& hierarchy,
                                      std::vector<Make> makes) {
    auto phases = std::make_shared<Phases>(std::move(makes));
    std::lock_guard lock(hierarchy->mutex);
    phases->previous_ = hierarchy->last.lock();
    hierarchy->last = phases;
    return phases;
  }
  explicit Phases(std::vector<Make> makes) : makes_(std::move(makes)) {}

  int poll() override {
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return kInFlight;
    if (finished_)
      return status_ == REMORA_SUCCESS ? status_ : fail(status_, "%s", message_.c_str());
    if (cancelled_) return kInFlight;
    if (previous_ != nullptr) {
      // Advances the earlier call too: a thread may wait for this one only.
      if (previous_->poll() == kInFlight) return kInFlight;
      previous_.reset();
    }
    while (next_ < makes_.size()) {
      if (current_ == nullptr) {
        current_ = makes_[next_]();
        if (current_ == nullptr) {
          ++next_;
          continue;
        }
        current_->start();
      }
      current_->check_stalled();
      if (!current_->done()) return kInFlight;
      const int status = current_->status();
      current_.reset();
      ++next_;
      if (status != REMORA_SUCCESS) {
        finished_ = true;
        status_ = status;
        message_ = last_error();
        return status;
      }
    }
    finished_ = true;
    return REMORA_SUCCESS;
  }

  void cancel() override {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
    if (current_ != nullptr)
      current_->end_with_failure(
          Failure{REMORA_ERR_ARG, "a member failed the hierarchical collective around this one"},
          true);
  }

 private:
  std::vector<Make> makes_;
  std::shared_ptr<Schedule::Polled> previous_;
  std::mutex mutex_;
  size_t next_ = 0;
  std::shared_ptr<Schedule> current_;
  bool finished_ = false, cancelled_ = false;
  int status_ = REMORA_SUCCESS;
  std::string message_;
};

// A phase: operation over sub (shm where it has an area, else the message-based default for
// `bytes`, which must be the same on every member of sub).
Phases::Make phase(Collectives* collectives, std::shared_ptr<Communicator> sub, Operation operation,
                   CollectiveArgs args, size_t bytes) {
  return
      [collectives, sub = std::move(sub), operation, args, bytes]() -> std::shared_ptr<Schedule> {
        if (sub == nullptr) return nullptr;
        Algorithm algorithm = default_algorithm(operation, bytes, sub->size());
        if (sub->shm_area_ptr() != nullptr && supports(operation, Algorithm::Shm))
          algorithm = Algorithm::Shm;
        auto schedule = collectives->new_schedule(sub);
        collectives->build(*schedule, operation, algorithm, args);
        return schedule;
      };
}

Phases::Make phase(Collectives* collectives, std::shared_ptr<Communicator> sub, Operation operation,
                   const CollectiveArgs& args) {
  return phase(collectives, std::move(sub), operation, args, args.count * args.extent);
}

CollectiveArgs data_args(const CollectiveArgs& args, const void* send, void* recv, int root) {
  CollectiveArgs sub;
  sub.type = args.type;
  sub.extent = args.extent;
  sub.count = args.count;
  sub.op = args.op;
  sub.root = root;
  sub.in_place = send == recv && recv != nullptr;
  sub.send = sub.in_place ? nullptr : send;
  sub.recv = recv;
  return sub;
}

// Where each rank's block sits when the blocks are laid out node by node (nodes in index order,
// ranks of a node in rank order), in elements: the layout of the node and leaders phases.
struct NodeLayout {
  std::vector<size_t> at;         // by rank
  std::vector<size_t> node_at;    // by node index: where its blocks begin
  std::vector<size_t> node_size;  // by node index: its blocks' elements together
  size_t total = 0;
  bool in_rank_order = true;  // at[r] is recv_displs[r]: the result can be laid out in place
};

NodeLayout node_layout(const Hierarchy& h, const std::vector<size_t>& counts,
                       const std::vector<size_t>& displs) {
  NodeLayout layout;
  const size_t nodes = h.leader.size(), ranks = counts.size();
  layout.at.assign(ranks, 0);
  layout.node_size.assign(nodes, 0);
  for (size_t rank = 0; rank < ranks; ++rank)
    layout.node_size[static_cast<size_t>(h.node_index[rank])] += counts[rank];
  for (size_t node = 0; node < nodes; ++node) {
    layout.node_at.push_back(layout.total);
    layout.total += layout.node_size[node];
  }
  std::vector<size_t> next = layout.node_at;
  for (size_t rank = 0; rank < ranks; ++rank) {
    size_t& at = next[static_cast<size_t>(h.node_index[rank])];
    layout.at[rank] = at;
    at += counts[rank];
    layout.in_rank_order = layout.in_rank_order && layout.at[rank] == displs[rank];
  }
  return layout;
}

// allgather(v) and gather: a node gather to the leader, the leaders' allgatherv (gatherv to the
// root's leader), then a node bcast from the leader (gather: the root's leader hands the result
// to the root when the root does not lead its node). The phases work in the node layout
// (NodeLayout), in recv itself when it has that layout, else in a scratch buffer that the
// ranks holding the result copy into recv at the end.
void gathering_phases(Schedule& schedule, Operation operation, const CollectiveArgs& args,
                      Collectives* c, const std::shared_ptr<Hierarchy>& h_ptr,
                      std::vector<Phases::Make>* makes) {
  const Communicator& comm = schedule.comm();
  const Hierarchy& h = *h_ptr;
  const auto me = static_cast<size_t>(comm.rank());
  const bool all = operation == Operation::Allgather;
  const size_t extent = args.extent;
  // Every member knows every block (gather: the regular form, kRegularBlocksOnly).
  std::vector<size_t> counts = args.recv_counts, displs = args.recv_displs;
  if (!all) {
    counts.assign(static_cast<size_t>(comm.size()), args.count);
    displs.clear();
    for (size_t rank = 0; rank < counts.size(); ++rank) displs.push_back(rank * args.count);
  }
  const NodeLayout layout = node_layout(h, counts, displs);
  const auto my_node = static_cast<size_t>(h.node_index[me]);
  const bool leads = h.node_rank[me] == 0;
  const int root = all ? -1 : args.root;
  const int root_node = all ? -1 : h.node_index[static_cast<size_t>(root)];
  const int root_leader = all ? -1 : h.leader[static_cast<size_t>(root_node)];
  // The ranks that hold the whole result in the node layout at some point, and whether that is
  // recv (the result: every rank for allgather, the root for gather).
  const bool result_here = all || static_cast<int>(me) == root;
  const bool holds = all || leads || static_cast<int>(me) == root;
  const bool direct = result_here && layout.in_rank_order;
  uint8_t* whole = nullptr;
  if (holds)
    whole = direct ? static_cast<uint8_t*>(args.recv) : schedule.scratch(layout.total * extent);
  const auto* recv = static_cast<const uint8_t*>(args.recv);
  const void* input = args.in_place ? recv + displs[me] * extent : args.send;
  // 1: the node's blocks into the leader's node region.
  const std::shared_ptr<Communicator> node = h.node->size() > 1 ? h.node : nullptr;
  if (node != nullptr) {
    CollectiveArgs sub =
        data_args(args, input, leads ? whole + layout.node_at[my_node] * extent : nullptr, 0);
    sub.count = counts[me];
    sub.in_place = leads && input == sub.recv;
    if (sub.in_place) sub.send = nullptr;
    size_t largest = 0;
    for (size_t rank = 0; rank < counts.size(); ++rank)
      if (static_cast<size_t>(h.node_index[rank]) == my_node) {
        sub.recv_counts.push_back(counts[rank]);
        sub.recv_displs.push_back(layout.at[rank] - layout.node_at[my_node]);
        largest = std::max(largest, counts[rank]);
        sub.vector_form = sub.vector_form || counts[rank] != counts[me];
      }
    makes->push_back(phase(c, node, Operation::Gather, sub, largest * extent));
  }
  // A node of one rank: its block goes into the node layout before the leaders' phase.
  Schedule::Deps staged;
  uint8_t* region = holds ? whole + layout.node_at[my_node] * extent : nullptr;
  if (node == nullptr && leads && input != region && counts[me] > 0)
    staged.push_back(schedule.copy(region, input, counts[me] * extent));
  // 2: the leaders exchange their node regions (allgatherv) or send them to the root's leader
  // (gatherv); in place in `whole`.
  if (leads && h.leader.size() > 1) {
    CollectiveArgs sub;
    sub.type = args.type;
    sub.extent = extent;
    sub.root = root_node < 0 ? 0 : root_node;
    sub.recv = whole;
    sub.in_place = all || static_cast<int>(me) == root_leader;
    sub.send = sub.in_place ? nullptr : whole + layout.node_at[my_node] * extent;
    sub.count = layout.node_size[my_node];
    sub.recv_counts = layout.node_size;
    sub.recv_displs = layout.node_at;
    sub.vector_form = true;
    size_t largest = 0;
    for (size_t size : layout.node_size) largest = std::max(largest, size);
    makes->push_back(
        phase(c, h.leaders, all ? Operation::Allgather : Operation::Gather, sub, largest * extent));
  }
  // 3: the result to the node (allgather) or to the root (gather).
  if (all && node != nullptr) {
    CollectiveArgs sub = data_args(args, whole, whole, 0);
    sub.count = layout.total;
    makes->push_back(phase(c, node, Operation::Bcast, sub));
  } else if (!all && h.node_rank[static_cast<size_t>(root)] != 0 &&
             my_node == static_cast<size_t>(root_node)) {
    const int to = h.node_rank[static_cast<size_t>(root)];
    const bool sends = leads, receives = static_cast<int>(me) == root;
    std::shared_ptr<Communicator> sub = h.node;
    makes->push_back([c, sub, to, sends, receives, whole, bytes = layout.total * extent] {
      auto handover = c->new_schedule(sub);
      if (sends) handover->send(to, 0, whole, bytes);
      if (receives) handover->recv(0, 0, whole, bytes);
      return handover;
    });
  }
  const Schedule::StepId phases = schedule.poll(Phases::make(h_ptr, std::move(*makes)), staged);
  if (!result_here || direct) return;
  // The result from the node layout into recv.
  for (size_t rank = 0; rank < counts.size(); ++rank)
    if (counts[rank] > 0)
      schedule.copy(static_cast<uint8_t*>(args.recv) + displs[rank] * extent,
                    whole + layout.at[rank] * extent, counts[rank] * extent, {phases});
}

void build_hierarchical(Schedule& schedule, Operation operation, const CollectiveArgs& args,
                        const BuildEnv& env) {
  const std::shared_ptr<Communicator>& comm = schedule.shared_comm();
  const std::shared_ptr<Hierarchy> h = comm->hierarchy();
  if (h == nullptr) {  // the call did not go through Collectives::launch, which makes it
    const Algorithm fallback = default_algorithm(operation, args.count * args.extent, comm->size());
    find_algorithm(fallback)->build(schedule, operation, args, env);
    return;
  }
  Collectives* c = env.collectives;
  const auto me = static_cast<size_t>(comm->rank());
  const bool leads = h->node_rank[me] == 0;
  const bool node_phase = h->node->size() > 1;
  const std::shared_ptr<Communicator> node = node_phase ? h->node : nullptr;
  const std::shared_ptr<Communicator> leaders =
      leads && h->leader.size() > 1 ? h->leaders : nullptr;
  const size_t bytes = args.count * args.extent;
  std::vector<Phases::Make> makes;
  switch (operation) {
    case Operation::Barrier: {
      const CollectiveArgs none;
      makes = {phase(c, node, operation, none), phase(c, leaders, operation, none),
               phase(c, node, operation, none)};
      break;
    }
    case Operation::Bcast: {
      const auto root = static_cast<size_t>(args.root);
      const int root_node = h->node_index[root];
      const bool root_leads = h->node_rank[root] == 0;
      const bool my_node = h->node_index[me] == root_node;
      if (my_node && !root_leads)
        makes.push_back(
            phase(c, node, operation, data_args(args, args.recv, args.recv, h->node_rank[root])));
      makes.push_back(
          phase(c, leaders, operation, data_args(args, args.recv, args.recv, root_node)));
      if (!my_node || root_leads)
        makes.push_back(phase(c, node, operation, data_args(args, args.recv, args.recv, 0)));
      break;
    }
    case Operation::Reduce: {
      const auto root = static_cast<size_t>(args.root);
      const int root_node = h->node_index[root];
      const int root_leader = h->leader[static_cast<size_t>(root_node)];
      const bool root_leads = h->node_rank[root] == 0;
      const void* input = input_of(args);
      // The node's partial result (at the leader), then the whole result at the root's leader.
      const void* partial = input;
      if (node_phase) {
        uint8_t* part =
            leads ? (me == root ? static_cast<uint8_t*>(args.recv) : schedule.scratch(bytes))
                  : nullptr;
        makes.push_back(phase(c, node, operation, data_args(args, input, part, 0)));
        partial = part;
      }
      void* result = nullptr;
      if (static_cast<int>(me) == root_leader)
        result = me == root ? args.recv : schedule.scratch(bytes);
      makes.push_back(phase(c, leaders, operation, data_args(args, partial, result, root_node)));
      if (!root_leads && h->node_index[me] == root_node) {
        // The root's leader hands the result to the root.
        const int to = h->node_rank[root];
        const bool sends = static_cast<int>(me) == root_leader, receives = me == root;
        std::shared_ptr<Communicator> sub = h->node;
        makes.push_back([c, sub, to, sends, receives, result, recv = args.recv, bytes] {
          auto handover = c->new_schedule(sub);
          if (sends) handover->send(to, 0, result, bytes);
          if (receives) handover->recv(0, 0, recv, bytes);
          return handover;
        });
      }
      break;
    }
    case Operation::Allreduce: {
      const void* input = input_of(args);
      if (node_phase)
        makes.push_back(phase(c, node, Operation::Reduce,
                              data_args(args, input, leads ? args.recv : nullptr, 0)));
      makes.push_back(phase(c, leaders, operation,
                            data_args(args, node_phase ? args.recv : input, args.recv, 0)));
      if (node_phase)
        makes.push_back(phase(c, node, Operation::Bcast, data_args(args, args.recv, args.recv, 0)));
      break;
    }
    case Operation::Allgather:
    case Operation::Gather:
      gathering_phases(schedule, operation, args, c, h, &makes);
      return;
    default:
      break;
  }
  schedule.poll(Phases::make(h, std::move(makes)));
}

}  // namespace

int Collectives::make_hierarchy(const std::shared_ptr<Communicator>& comm) {
  if (comm->hierarchy() != nullptr) return REMORA_SUCCESS;
  auto h = std::make_shared<Hierarchy>();
  const int size = comm->size();
  std::vector<int> node_ids;  // the transport's node of each leader
  std::vector<int> members;   // by node index: how many so far
  for (int rank = 0; rank < size; ++rank) {
    const int id = transport_.node_of(comm->world_rank(rank));
    size_t index = 0;
    while (index < node_ids.size() && node_ids[index] != id) ++index;
    if (index == node_ids.size()) {
      node_ids.push_back(id);
      members.push_back(0);
      h->leader.push_back(rank);
    }
    h->node_index.push_back(static_cast<int>(index));
    h->node_rank.push_back(members[index]++);
  }
  const int mine = h->node_index[static_cast<size_t>(comm->rank())];
  std::vector<int> node_world, leader_world;
  for (int rank = 0; rank < size; ++rank)
    if (h->node_index[static_cast<size_t>(rank)] == mine)
      node_world.push_back(comm->world_rank(rank));
  for (int rank : h->leader) leader_world.push_back(comm->world_rank(rank));
  if (int status = create(comm, Group(std::move(node_world), transport_.size()), &h->node))
    return status;
  make_shm_area(h->node, true);
  if (int status = create(comm, Group(std::move(leader_world), transport_.size()), &h->leaders))
    return status;
  comm->set_hierarchy(std::move(h));
  return REMORA_SUCCESS;
}

const AlgorithmDescriptor kHierarchicalAlgorithm{
    Algorithm::Hierarchical, "hierarchical",
    operations_of({Operation::Barrier, Operation::Bcast, Operation::Reduce, Operation::Allreduce,
                   Operation::Allgather, Operation::Gather}),
    kIgnoresRankOrder | kNeedsSeveralNodes | kRegularBlocksOnly, build_hierarchical};

}  // namespace remora::coll
