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

// A phase: operation over sub (shm where it has an area, else the message-based default).
Phases::Make phase(Collectives* collectives, std::shared_ptr<Communicator> sub, Operation operation,
                   CollectiveArgs args) {
  return [collectives, sub = std::move(sub), operation, args]() -> std::shared_ptr<Schedule> {
    if (sub == nullptr) return nullptr;
    Algorithm algorithm = default_algorithm(operation, args.count * args.extent, sub->size());
    if (sub->shm_area_ptr() != nullptr && supports(operation, Algorithm::Shm))
      algorithm = Algorithm::Shm;
    auto schedule = collectives->new_schedule(sub);
    collectives->build(*schedule, operation, algorithm, args);
    return schedule;
  };
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
    operations_of({Operation::Barrier, Operation::Bcast, Operation::Reduce, Operation::Allreduce}),
    kIgnoresRankOrder | kNeedsSeveralNodes, build_hierarchical};

}  // namespace remora::coll
