#include "coll/collectives.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "coll/algorithms/algorithms.hpp"
#include "coll/shm_fast.hpp"
#include "coll/shm_request.hpp"
#include "core/cpus.hpp"
#include "core/error.hpp"
#include "remora/types.h"

namespace remora::coll {

Collectives::Collectives(transport::Transport& transport, progress::ProgressEngine& progress)
    : transport_(transport), progress_(progress), contexts_(std::make_shared<ContextIds>()) {
  transport_.set_local_work(&areas_->pending(), &ShmAreas::advance_areas, areas_.get());
}

Collectives::~Collectives() {
  transport_.set_local_work(nullptr, nullptr, nullptr);
  areas_->release_all();
}

int Collectives::create(transport::Transport& transport, progress::ProgressEngine& progress,
                        const Config& config, std::unique_ptr<Collectives>* out) {
  std::unique_ptr<Collectives> collectives(new Collectives(transport, progress));
  const MessengerOptions messaging{config.rndv_bytes, config.single_copy != "off"};
  if (int status = Messenger::create(transport, messaging, &collectives->messenger_)) return status;
  const BypassOptions bypass{config.bypass_eager_bytes,
                             static_cast<uint64_t>(config.bypass_delay_us),
                             static_cast<int>(config.bypass_flat_ranks)};
  if (int status =
          BypassReduce::create(transport, *collectives->messenger_, bypass, &collectives->bypass_))
    return status;
  // The values were checked against the allowed names when the configuration was parsed.
  const std::pair<Operation, const std::string&> variables[] = {
      {Operation::Bcast, config.bcast},         {Operation::Reduce, config.reduce},
      {Operation::Allreduce, config.allreduce}, {Operation::Gather, config.gather},
      {Operation::Scatter, config.scatter},     {Operation::Alltoall, config.alltoall}};
  for (const auto& [operation, name] : variables)
    parse_algorithm(name, &collectives->configured_[static_cast<int>(operation)]);
  collectives->timeout_ = std::chrono::seconds(config.coll_timeout);
  const bool single_copy = config.single_copy != "off";
  collectives->single_copy_bytes_ =
      single_copy ? static_cast<size_t>(config.shm_single_copy_bytes) : 0;
  // The operations of ShmArea::single_copy_by_default are single-copy from
  // kDefaultSingleCopyBytes unless REMORA_SHM_SINGLE_COPY_BYTES is set, which decides them too.
  // Oversubscribed, the cells' bcast measured faster: a descheduled member holds up every other
  // member's copy there, and the single-copy waits do not spin through the others' copies.
  const bool default_single_copy = single_copy && !transport.wait_policy().oversubscribed;
  const auto threshold = [&](size_t by_default) {
    if (collectives->single_copy_bytes_ != 0) return collectives->single_copy_bytes_;
    return default_single_copy ? by_default : 0;
  };
  collectives->default_single_copy_bytes_ = threshold(kDefaultSingleCopyBytes);
  collectives->pair_single_copy_bytes_ = threshold(kPairSingleCopyBytes);
  // Oversubscribed, gather and scatter (and their v-forms' blocks) are single-copy from
  // kOversubscribedSingleCopyBytes, rooted (ShmArea::rooted_single_copy): each hand-off between
  // members costs a context switch, and the cells' pieces take one per round.
  collectives->rooted_single_copy_bytes_ =
      !single_copy || !transport.wait_policy().oversubscribed ? 0
      : collectives->single_copy_bytes_ != 0                  ? collectives->single_copy_bytes_
                                                              : kOversubscribedSingleCopyBytes;
  for (int rank = 0; rank < transport.size(); ++rank)
    if (transport.node_of(rank) != transport.node_of(transport.rank()))
      collectives->job_on_one_node_ = false;
  if (config.coll_order == "node_aware") collectives->default_order_ = OrderKind::NodeAware;
  if (config.coll_order == "reverse") collectives->default_order_ = OrderKind::Reverse;
  std::vector<int> everyone(static_cast<size_t>(transport.size()));
  std::iota(everyone.begin(), everyone.end(), 0);
  collectives->world_ = std::make_shared<Communicator>(Group(std::move(everyone), transport.size()),
                                                       transport.rank(), ContextIds::kWorld);
  collectives->messenger_->instances().open(
      ContextIds::kWorld, collectives->world_->group().world_ranks(), collectives->world_->rank());
  collectives->world_->set_order(
      collectives->make_order(collectives->default_order_, collectives->world_->group()));
  collectives->communicators.add(collectives->world_);
  collectives->shm_env_.emplace(collectives->make_shm_env());
  *out = std::move(collectives);
  return REMORA_SUCCESS;
}

std::shared_ptr<Schedule> Collectives::new_schedule(std::shared_ptr<Communicator> comm) {
  auto schedule = std::make_shared<Schedule>(*messenger_, std::move(comm));
  schedule->set_timeout(timeout_);
  return schedule;
}

std::shared_ptr<Schedule> Collectives::new_schedule(std::shared_ptr<Communicator> comm,
                                                    Operation operation, Algorithm algorithm,
                                                    CollectiveArgs* args) {
  // The order's atomic load (a lock of the shared_ptr lock pool) only for the algorithms that
  // follow it (shm ignores it).
  std::shared_ptr<const RankOrder> order =
      follows_order(operation, algorithm) ? comm->order() : nullptr;
  const bool rooted = operation == Operation::Bcast || operation == Operation::Reduce ||
                      operation == Operation::Gather || operation == Operation::Scatter;
  const int root = rooted && args != nullptr ? args->root : 0;
  auto schedule = std::make_shared<Schedule>(*messenger_, std::move(comm),
                                             signature(operation, algorithm, root));
  schedule->set_timeout(timeout_);
  if (order != nullptr) {
    schedule->use_order(order);
    if (args != nullptr) to_positions(operation, *order, args);
  }
  return schedule;
}

std::shared_ptr<const RankOrder> Collectives::make_order(OrderKind kind, const Group& group,
                                                         const int* custom) const {
  const int size = group.size();
  std::vector<int> ranks;
  switch (kind) {
    case OrderKind::Identity:
      return nullptr;
    case OrderKind::NodeAware: {
      std::vector<int> node_of;
      for (int rank = 0; rank < size; ++rank)
        node_of.push_back(transport_.node_of(group.world_rank(rank)));
      ranks = node_aware_order(node_of);
      break;
    }
    case OrderKind::Reverse:
      ranks = reverse_order(size);
      break;
    case OrderKind::Custom:
      ranks.assign(custom, custom + size);
      break;
  }
  auto order = std::make_shared<const RankOrder>(std::move(ranks));
  return order->identity() ? nullptr : order;
}

void Collectives::fail_before_start(const std::shared_ptr<Communicator>& comm, int code,
                                    const std::string& message) {
  InstanceTable& instances = messenger_->instances();
  Failure announced;
  const uint64_t sequence = instances.begin(comm->context(), kUncheckedSignature, &announced);
  instances.end(comm->context(), sequence);
  messenger_->notify(comm->context(), sequence, code, message);
  // Members that run this collective in the shared area must not wait for this rank there.
  if (auto area = comm->shm_area()) area->abandon(sequence);
}

int Collectives::launch(const std::shared_ptr<Communicator>& comm, Operation operation,
                        Algorithm requested, size_t bytes, CollectiveArgs* args,
                        std::shared_ptr<Request>* started) {
  const bool nonblocking = started != nullptr;
  // The v-forms whose members do not know each other's block sizes.
  const bool blocks_differ =
      args->vector_form && (operation == Operation::Gather || operation == Operation::Scatter ||
                            operation == Operation::Alltoall);
  Algorithm algorithm = choose(operation, requested, bytes, *comm, nonblocking, blocks_differ);
  if (blocks_differ && has_constraint(algorithm, kRegularBlocksOnly))
    algorithm = default_algorithm(operation, 0, comm->size());  // as choose(): no size
  if (algorithm == Algorithm::Hierarchical)
    if (int status = make_hierarchy(comm)) return status;
  int fast = REMORA_SUCCESS;
  if (!nonblocking && algorithm == Algorithm::Shm && run_shm_fast(comm, operation, *args, &fast))
    return fast;
  // A small nonblocking shm call without a schedule (coll/shm_request.hpp).
  if (nonblocking && algorithm == Algorithm::Shm &&
      start_shm_request(comm, operation, shm_small_args(operation, *args), started))
    return REMORA_SUCCESS;
  if (!nonblocking && algorithm == Algorithm::ApplicationBypass &&
      bypass_->uses_slots(*comm, *args))
    return bypass_->run_slots(comm, signature(operation, algorithm, args->root), *args, timeout_);
  if (!nonblocking && algorithm == Algorithm::ApplicationBypass &&
      bypass_->contributes_only(comm->rank(), *args))
    return bypass_->contribute_unscheduled(comm, signature(operation, algorithm, args->root),
                                           *args);
  auto schedule = new_schedule(comm, operation, algorithm, args);
  build(*schedule, operation, algorithm, *args);
  schedule->start();
  if (nonblocking) {
    *started = std::move(schedule);
    return REMORA_SUCCESS;
  }
  // What the bypass root waits for (the standard reduce's receives) ends only with its
  // children's messages, which come as late as the latest rank: it sleeps until they arrive.
  if (algorithm == Algorithm::ApplicationBypass && !schedule->polls_shared_memory())
    return wait(*schedule, true);
  return wait(*schedule);
}

bool Collectives::start_shm_request(const std::shared_ptr<Communicator>& comm, Operation operation,
                                    const ShmFast::Small& args, std::shared_ptr<Request>* started) {
  const bool rooted = operation == Operation::Bcast || operation == Operation::Reduce ||
                      operation == Operation::Gather;
  return ShmRequest::start(*messenger_, comm, *comm->shm_area_ptr(), operation, args,
                           signature(operation, Algorithm::Shm, rooted ? args.root : 0), timeout_,
                           started);
}

bool Collectives::start_small(Communicator& comm, Operation operation, Algorithm requested,
                              const ShmFast::Small& args, std::shared_ptr<Request>* started) {
  ShmArea* area = comm.shm_area_ptr();
  // What launch() decides for the call, from the same sizes (its bytes: the block, or the
  // vector), so that every member runs the same algorithm whichever entry it took.
  if (area == nullptr || !small_shm_fits(*area, operation, args)) return false;
  const size_t bytes = args.count * args.extent;
  if (requested == Algorithm::Auto
          ? !small_auto_shm(comm, operation, bytes, true, false)
          : choose(operation, requested, bytes, comm, true) != Algorithm::Shm)
    return false;
  return start_shm_request(comm.shared_from_this(), operation, args, started);
}

int Collectives::wait(Schedule& schedule, bool arrival_only) {
  const auto ready = [&schedule] {
    schedule.check_stalled();
    return schedule.done();
  };
  const int status = arrival_only ? transport_.wait_for_arrival(
                                        ready, [&schedule] { return schedule.receives_awaited(); })
                                  : wait_until(ready, schedule.polls_shared_memory());
  if (status != REMORA_SUCCESS) return status;
  return schedule.status();
}

int Collectives::complete_bypass(int* kept) {
  *kept = REMORA_SUCCESS;
  if (int status = progress_.wait([this] { return bypass_->pending() == 0; })) return status;
  *kept = bypass_->take_failure();
  return REMORA_SUCCESS;
}

int Collectives::run(const std::shared_ptr<Schedule>& schedule) {
  schedule->start();
  return wait(*schedule);
}

Algorithm Collectives::choose(Operation operation, Algorithm requested, size_t bytes,
                              int size) const {
  if (requested != Algorithm::Auto) return requested;
  const Algorithm configured = configured_[static_cast<int>(operation)];
  if (configured != Algorithm::Auto) return configured;
  return default_algorithm(operation, bytes, size);
}

Algorithm Collectives::choose(Operation operation, Algorithm requested, size_t bytes,
                              Communicator& comm, bool nonblocking, bool blocks_differ) {
  // A v-form's bytes are the member's own block, which differs between members: a choice by
  // size could differ between them (the message-based defaults' does, and the call then fails
  // as mismatched), so such calls choose as for an empty payload.
  if (blocks_differ) bytes = 0;
  Algorithm chosen = choose(operation, requested, bytes, comm.size());
  const bool automatic =
      requested == Algorithm::Auto && configured_[static_cast<int>(operation)] == Algorithm::Auto;
  // auto takes shm for the operations of its blocking fast path and payloads of up to one cell,
  // where it measured faster than the message-based algorithms; larger ones (chunked through
  // the cells) were slower (allreduce of 1 MiB at p = 2: 367 us against 228,
  // docs/benchmarks.md). Blocking gather, scatter and alltoall take it at every size: their
  // fast path (single-copy above a cell) measured 1.8-14x faster than the message-based
  // defaults from 8 B to 1 MiB at p = 2 (docs/benchmarks.md), and a rule without a size cannot
  // differ between members whose type signatures match with different datatypes. Nonblocking
  // calls take it too, and igather, where their NBC overhead
  // measured lower than the message-based default's (bench/nbc_overhead, p = 2 and 4; ialltoall
  // lost at p = 4, docs/benchmarks.md), except under thread progress: shm rounds advance only
  // inside the application's Remora calls, while message-based schedules advance on the progress
  // thread, the asynchronous progress that mode asks for.
  // ialltoall of blocks that take one round: the request without a schedule
  // (coll/shm_request.hpp), whose overhead measured below the pairwise default's (issue 15,
  // docs/benchmarks.md): blocks up to 1 KiB, and at p = 2 up to a cell (64 KiB); larger ones,
  // and at p > 2 blocks above 1 KiB (not measured), keep pairwise (shm's cell rounds on a
  // schedule lost at p = 4).
  const bool small_alltoall = operation == Operation::Alltoall && !blocks_differ &&
                              (bytes <= ShmFast::kSmallScatterBytes || comm.size() == 2) &&
                              bytes * static_cast<size_t>(comm.size() - 1) <= ShmArea::kCellBytes;
  const bool personal =
      !nonblocking && (operation == Operation::Gather || operation == Operation::Scatter ||
                       operation == Operation::Alltoall);
  const bool auto_shm = operation == Operation::Barrier || operation == Operation::Bcast ||
                        operation == Operation::Reduce || operation == Operation::Allreduce ||
                        operation == Operation::ReduceScatter ||
                        operation == Operation::Allgather ||
                        (nonblocking && operation == Operation::Gather) ||
                        (nonblocking && small_alltoall) || blocks_differ || personal;
  const bool shm_progresses = !nonblocking || progress_.mode() != progress::Mode::Thread;
  // gatherv, scatterv and alltoallv take shm whatever their blocks (bytes is 0 for them, above);
  // shm measured faster than the message-based default up to 64 KiB blocks at p = 2, slower at
  // 1 MiB (docs/benchmarks.md).
  const bool fits = bytes <= ShmArea::kCellBytes || blocks_differ || personal;
  if (automatic && shm_progresses && fits && auto_shm && comm.size() > 1 && on_one_node(comm))
    chosen = Algorithm::Shm;
  // Across nodes with ranks that share a node: the node phase in shared memory, then the
  // leaders (algorithms/hierarchical.cpp), for blocking barriers and allreduces up to 64 KiB,
  // where it measured 2.4-6x faster than the message-based default with REMORA_NODE_SIZE=2 at
  // p = 4 (docs/collectives.md); its bcast, reduce and 1 MiB allreduce measured slower.
  const bool hierarchical_wins =
      operation == Operation::Barrier || (operation == Operation::Allreduce && bytes <= 65536);
  if (automatic && !nonblocking && hierarchical_wins && spans_shared_nodes(comm))
    chosen = Algorithm::Hierarchical;
  if (has_constraint(chosen, kNeedsSeveralNodes) && !spans_shared_nodes(comm))
    return default_algorithm(operation, bytes, comm.size());
  if (!has_constraint(chosen, kNeedsSharedArea) || comm.shm_area_ptr() != nullptr) return chosen;
  return default_algorithm(operation, bytes, comm.size());
}

uint64_t Collectives::shm_yield_ns() const {
  return shm_env().yield_ns;  // as the fast path's
}

bool Collectives::on_one_node(Communicator& comm) const {
  int known = comm.on_one_node.load(std::memory_order_relaxed);
  if (known < 0) {
    known = 1;
    const int here = transport_.node_of(transport_.rank());
    for (int rank = 0; rank < comm.size(); ++rank)
      if (transport_.node_of(comm.world_rank(rank)) != here) known = 0;
    comm.on_one_node.store(known, std::memory_order_relaxed);
  }
  return known == 1;
}

bool Collectives::spans_shared_nodes(Communicator& comm) const {
  int known = comm.spans_shared_nodes.load(std::memory_order_relaxed);
  if (known < 0) {
    std::vector<int> nodes;
    for (int rank = 0; rank < comm.size(); ++rank)
      nodes.push_back(transport_.node_of(comm.world_rank(rank)));
    std::sort(nodes.begin(), nodes.end());
    const bool several = nodes.size() > 1 && nodes.front() != nodes.back();
    const bool shared = std::adjacent_find(nodes.begin(), nodes.end()) != nodes.end();
    known = several && shared ? 1 : 0;
    comm.spans_shared_nodes.store(known, std::memory_order_relaxed);
  }
  return known == 1;
}

void Collectives::make_shm_area(const std::shared_ptr<Communicator>& comm, bool across_nodes) {
  if (comm->size() < 2 || !(job_on_one_node_ || across_nodes) || !on_one_node(*comm)) return;
  const auto size = static_cast<size_t>(comm->size());
  const transport::Transport::GroupAllgather allgather =
      [this, &comm, size](uint64_t value, std::vector<uint64_t>* values) {
        values->assign(size, 0);
        CollectiveArgs args;
        args.send = &value;
        args.recv = values->data();
        args.type = REMORA_UINT64;
        args.extent = sizeof(uint64_t);
        args.count = 1;
        args.recv_counts.assign(size, 1);
        for (size_t rank = 0; rank < size; ++rank) args.recv_displs.push_back(rank);
        auto schedule = new_schedule(comm);
        build_allgather(*schedule, args);
        return run(schedule);
      };
  // A failure (every member sees it) leaves the communicator without an area: its shm calls
  // run the message-based defaults.
  std::shared_ptr<ShmArea> area;
  const size_t by_default =
      comm->size() == 2 ? pair_single_copy_bytes_ : default_single_copy_bytes_;
  if (ShmArea::create(transport_, *comm, allgather, single_copy_bytes_, by_default,
                      rooted_single_copy_bytes_, &area) != REMORA_SUCCESS)
    return;
  areas_->add(area);
  comm->set_shm_area(std::move(area));
}

void Collectives::build(Schedule& schedule, Operation operation, Algorithm algorithm,
                        const CollectiveArgs& args) {
  const BuildEnv env{bypass_.get(), this};
  find_algorithm(algorithm)->build(schedule, operation, args, env);
}

ShmFast::Env Collectives::make_shm_env() const {
  // The yield phase where a member this one waits for may be on this CPU's run queue: the node
  // is oversubscribed, or this rank is not bound to one CPU. A rank bound to a CPU of its own
  // (remorarun binds by default) gives that CPU to other programs' processes when it yields.
  static const bool bound = available_cpus() == 1;
  const bool oversubscribed = transport_.wait_policy().oversubscribed;
  return ShmFast::Env{*messenger_, progress_, timeout_, oversubscribed,
                      oversubscribed || !bound ? ShmFast::kYieldNs : 0};
}

bool Collectives::run_shm_fast(const std::shared_ptr<Communicator>& comm, Operation operation,
                               const CollectiveArgs& args, int* status) {
  // The fast path runs every operation the shm algorithm has (a blocking call that chose shm).
  if (!ShmFast::serves(operation)) return false;
  ShmArea* area = comm->shm_area_ptr();
  if (area == nullptr) return false;
  const bool rooted = operation == Operation::Bcast || operation == Operation::Reduce ||
                      operation == Operation::Gather || operation == Operation::Scatter;
  return ShmFast::run(shm_env(), *comm, *area, operation, args,
                      signature(operation, Algorithm::Shm, rooted ? args.root : 0), status);
}

bool Collectives::learn_small_auto_shm(Communicator& comm, Operation operation, size_t bytes,
                                       bool nonblocking, bool blocks_differ) {
  // Whether choose() gives shm depends here on the operation, the kind of call and
  // blocks_differ only: a small payload never exceeds the one cell auto takes shm for, comm has
  // its area (so it is on one node and not hierarchical), the REMORA_<OPERATION> choices and
  // the progress mode are fixed, and a nonblocking alltoall's blocks of up to
  // kSmallScatterBytes are shm's at every communicator size whose layout fits (small_shm_fits).
  // Larger nonblocking blocks are asked each time.
  static_assert(ShmFast::kSmallScatterBytes <= ShmArea::kCellBytes);
  if (nonblocking && bytes > ShmFast::kSmallScatterBytes)
    return choose(operation, Algorithm::Auto, bytes, comm, true) == Algorithm::Shm;
  const unsigned bit = small_auto_bit(operation, nonblocking, blocks_differ);
  uint64_t known = comm.auto_small_shm.load(std::memory_order_relaxed);
  if ((known >> bit & 1) == 0) {
    const bool shm = choose(operation, Algorithm::Auto, bytes, comm, nonblocking, blocks_differ) ==
                     Algorithm::Shm;
    known = uint64_t{1} << bit | uint64_t{shm ? 1U : 0U} << (bit + 1);
    comm.auto_small_shm.fetch_or(known, std::memory_order_relaxed);
  }
  return (known >> (bit + 1) & 1) != 0;
}

bool Collectives::run_small(Communicator& comm, Operation operation, Algorithm requested,
                            const ShmFast::Small& args, int* status) {
  // Another algorithm asked for is not shm: choose() keeps it or, where its constraints fail,
  // takes a message-based default (only auto picks shm), and the full path runs it.
  if (requested != Algorithm::Auto && requested != Algorithm::Shm) return false;
  ShmArea* area = comm.shm_area_ptr();
  if (area == nullptr || !ShmFast::small_serves(operation, args, comm.rank(), comm.size(),
                                                area->single_copy_bytes(operation)))
    return false;
  const size_t bytes = operation == Operation::ReduceScatter
                           ? args.count * args.extent * static_cast<size_t>(comm.size())
                           : args.count * args.extent;
  // shm asked for: choose() would keep it (comm has its area). gatherv and scatterv choose as
  // launch() does for them (blocks_differ).
  const bool blocks_differ = args.vector_form && operation != Operation::Allgather;
  if (requested == Algorithm::Auto && !small_auto_shm(comm, operation, bytes, false, blocks_differ))
    return false;
  const bool rooted = operation == Operation::Bcast || operation == Operation::Reduce ||
                      operation == Operation::Gather || operation == Operation::Scatter;
  return ShmFast::run_small(shm_env(), comm, *area, operation, args,
                            signature(operation, Algorithm::Shm, rooted ? args.root : 0), status);
}

std::shared_ptr<Communicator> Collectives::make_communicator(Group group, uint32_t context) {
  contexts_->take(context);
  // The id returns to the pool when the last user (handle or running collective) lets go.
  messenger_->instances().open(context, group.world_ranks(), group.rank_of(transport_.rank()));
  std::shared_ptr<Communicator> comm(
      new Communicator(std::move(group), transport_.rank(), context),
      [contexts = contexts_, instances = messenger_->shared_instances()](Communicator* released) {
        instances->close(released->context());
        contexts->release(released->context());
        delete released;
      });
  comm->set_order(make_order(default_order_, comm->group()));
  return comm;
}

int Collectives::new_context(const std::shared_ptr<Communicator>& parent, bool member,
                             uint32_t* context) {
  std::vector<uint64_t> mask = contexts_->free_mask();
  if (!member) std::fill(mask.begin(), mask.end(), ~uint64_t{0});  // no say in the choice
  CollectiveArgs args;
  args.in_place = true;
  args.recv = mask.data();
  args.count = mask.size();
  args.type = REMORA_UINT64;
  args.extent = sizeof(uint64_t);
  args.op = REMORA_OP_BAND;
  auto schedule = new_schedule(parent);
  build_allreduce(*schedule, args, Algorithm::RecursiveDoubling);
  if (int status = run(schedule)) return status;
  if (!ContextIds::lowest(mask, context))
    return fail(REMORA_ERR_NOMEM, "no free communicator context id: %zu communicators in use",
                ContextIds::kCount);
  return REMORA_SUCCESS;
}

int Collectives::dup(const std::shared_ptr<Communicator>& parent,
                     std::shared_ptr<Communicator>* out) {
  uint32_t context = 0;
  if (int status = new_context(parent, true, &context)) return status;
  *out = make_communicator(parent->group(), context);
  make_shm_area(*out);
  return REMORA_SUCCESS;
}

int Collectives::split(const std::shared_ptr<Communicator>& parent, int colour, int key,
                       std::shared_ptr<Communicator>* out) {
  const int size = parent->size();
  // Everyone learns everyone's (colour, key).
  std::vector<int32_t> mine{colour, key}, all(2 * static_cast<size_t>(size));
  CollectiveArgs args;
  args.send = mine.data();
  args.recv = all.data();
  args.count = 2;
  args.type = REMORA_INT32;
  args.extent = sizeof(int32_t);
  for (size_t rank = 0; rank < static_cast<size_t>(size); ++rank) {
    args.recv_counts.push_back(2);
    args.recv_displs.push_back(2 * rank);
  }
  auto schedule = new_schedule(parent);
  build_allgather(*schedule, args);
  if (int status = run(schedule)) return status;
  const bool member = colour != Group::kUndefined;
  uint32_t context = 0;
  if (int status = new_context(parent, member, &context)) return status;
  *out = nullptr;
  if (!member) return REMORA_SUCCESS;
  std::vector<std::tuple<int, int>> chosen;  // (key, parent rank) of my colour
  for (int rank = 0; rank < size; ++rank)
    if (all[2 * static_cast<size_t>(rank)] == colour)
      chosen.emplace_back(all[2 * static_cast<size_t>(rank) + 1], rank);
  std::sort(chosen.begin(), chosen.end());
  std::vector<int> world_ranks;
  for (const auto& [ignored, rank] : chosen) world_ranks.push_back(parent->world_rank(rank));
  *out = make_communicator(Group(std::move(world_ranks), transport_.size()), context);
  make_shm_area(*out);
  return REMORA_SUCCESS;
}

int Collectives::create(const std::shared_ptr<Communicator>& parent, const Group& group,
                        std::shared_ptr<Communicator>* out) {
  const bool member = group.rank_of(transport_.rank()) != Group::kUndefined;
  uint32_t context = 0;
  if (int status = new_context(parent, member, &context)) return status;
  *out = member ? make_communicator(group, context) : nullptr;
  if (*out != nullptr) make_shm_area(*out);
  return REMORA_SUCCESS;
}

}  // namespace remora::coll
