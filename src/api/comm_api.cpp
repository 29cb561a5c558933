// C API: communicators and groups. Every entry point checks its arguments here; the coll layer
// below trusts them.
#include <memory>
#include <vector>

#include "api/coll_handles.hpp"
#include "core/error.hpp"
#include "remora/coll.h"

using remora::fail;
using remora::api::check_out;
using remora::api::check_single_threaded;
using remora::api::comm_handle;
using remora::api::CommPtr;
using remora::api::enter_waiting;
using remora::api::find_comm;
using remora::api::find_group;
using remora::api::group_handle;
using remora::api::Runtime;
using remora::coll::Group;

namespace {

static_assert(REMORA_UNDEFINED == Group::kUndefined);
static_assert(REMORA_ORDER_CUSTOM == static_cast<int>(remora::coll::OrderKind::Custom));

// n distinct ranks of group, each in [0, size).
int check_rank_list(const char* function, int n, const int* ranks, const Group& group,
                    std::vector<int>* out) {
  if (n < 0 || n > group.size())
    return fail(REMORA_ERR_ARG, "%s: n=%d is not in [0, %d] (the group's size)", function, n,
                group.size());
  if (n > 0)
    if (int status = remora::api::check_pointer(function, "ranks", ranks)) return status;
  std::vector<bool> seen(static_cast<size_t>(group.size()), false);
  for (int i = 0; i < n; ++i) {
    if (ranks[i] < 0 || ranks[i] >= group.size())
      return fail(REMORA_ERR_RANK, "%s: ranks[%d]=%d is not a rank of the group [0, %d)", function,
                  i, ranks[i], group.size());
    if (seen[static_cast<size_t>(ranks[i])])
      return fail(REMORA_ERR_ARG, "%s: ranks[%d]=%d appears twice", function, i, ranks[i]);
    seen[static_cast<size_t>(ranks[i])] = true;
    out->push_back(ranks[i]);
  }
  return REMORA_SUCCESS;
}

int group_subset(const char* function, remora_group_t group, int n, const int* ranks, bool include,
                 remora_group_t* newgroup) {
  Runtime* runtime = nullptr;
  std::shared_ptr<Group> found;
  std::vector<int> list;
  if (int status = remora::api::enter(function, &runtime)) return status;
  if (int status = check_out(function, "newgroup", newgroup)) return status;
  if (int status = find_group(function, "group", group, *runtime, &found)) return status;
  if (int status = check_rank_list(function, n, ranks, *found, &list)) return status;
  *newgroup = group_handle(*runtime, include ? found->incl(list) : found->excl(list));
  return REMORA_SUCCESS;
}

}  // namespace

extern "C" {

// ---- Communicators ----

int remora_comm_world(remora_comm_t* comm) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  if (int status = remora::api::enter("remora_comm_world", &runtime)) return status;
  if (int status = check_out("remora_comm_world", "comm", comm)) return status;
  *comm = static_cast<remora_comm_t>(const_cast<void*>(runtime->collectives->world_handle()));
  return REMORA_SUCCESS;
}

int remora_comm_rank(remora_comm_t comm, int* rank) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  CommPtr found;
  if (int status = remora::api::enter("remora_comm_rank", &runtime)) return status;
  if (int status = check_out("remora_comm_rank", "rank", rank)) return status;
  if (int status = find_comm("remora_comm_rank", "comm", comm, *runtime, &found)) return status;
  *rank = found->rank();
  return REMORA_SUCCESS;
}

int remora_comm_size(remora_comm_t comm, int* size) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  CommPtr found;
  if (int status = remora::api::enter("remora_comm_size", &runtime)) return status;
  if (int status = check_out("remora_comm_size", "size", size)) return status;
  if (int status = find_comm("remora_comm_size", "comm", comm, *runtime, &found)) return status;
  *size = found->size();
  return REMORA_SUCCESS;
}

int remora_comm_set_order(remora_comm_t comm, remora_rank_order_t order, const int* ranks) {
  REMORA_API_ENTRY();
  constexpr const char* function = "remora_comm_set_order";
  Runtime* runtime = nullptr;
  CommPtr found;
  if (int status = remora::api::enter(function, &runtime)) return status;
  if (int status = find_comm(function, "comm", comm, *runtime, &found)) return status;
  if (order < REMORA_ORDER_IDENTITY || order > REMORA_ORDER_CUSTOM)
    return fail(REMORA_ERR_ARG, "%s: order=%d is not a remora_rank_order_t", function,
                static_cast<int>(order));
  const bool custom = order == REMORA_ORDER_CUSTOM;
  if (custom && ranks == nullptr)
    return fail(REMORA_ERR_ARG, "%s: ranks is NULL with REMORA_ORDER_CUSTOM", function);
  if (!custom && ranks != nullptr)
    return fail(REMORA_ERR_ARG, "%s: ranks=%p must be NULL unless order is REMORA_ORDER_CUSTOM",
                function, static_cast<const void*>(ranks));
  if (custom && !remora::coll::is_permutation(ranks, found->size()))
    return fail(REMORA_ERR_ARG,
                "%s: ranks is not a permutation of the communicator's %d ranks (each of 0..%d "
                "exactly once)",
                function, found->size(), found->size() - 1);
  found->set_order(runtime->collectives->make_order(static_cast<remora::coll::OrderKind>(order),
                                                    found->group(), ranks));
  return REMORA_SUCCESS;
}

int remora_comm_dup(remora_comm_t comm, remora_comm_t* newcomm) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  CommPtr parent, created;
  if (int status = enter_waiting("remora_comm_dup", &runtime)) return status;
  if (int status = check_single_threaded("remora_comm_dup")) return status;
  if (int status = check_out("remora_comm_dup", "newcomm", newcomm)) return status;
  if (int status = find_comm("remora_comm_dup", "comm", comm, *runtime, &parent)) return status;
  if (int status = runtime->collectives->dup(parent, &created)) return status;
  *newcomm = comm_handle(*runtime, std::move(created));
  return REMORA_SUCCESS;
}

int remora_comm_split(remora_comm_t comm, int color, int key, remora_comm_t* newcomm) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  CommPtr parent, created;
  if (int status = enter_waiting("remora_comm_split", &runtime)) return status;
  if (int status = check_single_threaded("remora_comm_split")) return status;
  if (int status = check_out("remora_comm_split", "newcomm", newcomm)) return status;
  if (int status = find_comm("remora_comm_split", "comm", comm, *runtime, &parent)) return status;
  if (color < 0 && color != REMORA_UNDEFINED)
    return fail(REMORA_ERR_ARG,
                "remora_comm_split: color=%d is negative (only REMORA_UNDEFINED may be)", color);
  if (int status = runtime->collectives->split(parent, color, key, &created)) return status;
  *newcomm = comm_handle(*runtime, std::move(created));
  return REMORA_SUCCESS;
}

int remora_comm_create(remora_comm_t comm, remora_group_t group, remora_comm_t* newcomm) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  CommPtr parent, created;
  std::shared_ptr<Group> members;
  if (int status = enter_waiting("remora_comm_create", &runtime)) return status;
  if (int status = check_single_threaded("remora_comm_create")) return status;
  if (int status = check_out("remora_comm_create", "newcomm", newcomm)) return status;
  if (int status = find_comm("remora_comm_create", "comm", comm, *runtime, &parent)) return status;
  if (int status = find_group("remora_comm_create", "group", group, *runtime, &members))
    return status;
  for (int rank = 0; rank < members->size(); ++rank)
    if (parent->group().rank_of(members->world_rank(rank)) == Group::kUndefined)
      return fail(REMORA_ERR_ARG,
                  "remora_comm_create: rank %d of group (world rank %d) is not a member of comm",
                  rank, members->world_rank(rank));
  if (int status = runtime->collectives->create(parent, *members, &created)) return status;
  *newcomm = comm_handle(*runtime, std::move(created));
  return REMORA_SUCCESS;
}

int remora_comm_free(remora_comm_t* comm) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  CommPtr found;
  if (int status = remora::api::enter("remora_comm_free", &runtime)) return status;
  if (int status = check_single_threaded("remora_comm_free")) return status;
  if (int status = check_out("remora_comm_free", "comm", comm)) return status;
  if (int status = find_comm("remora_comm_free", "*comm", *comm, *runtime, &found)) return status;
  if (found == runtime->collectives->world())
    return fail(REMORA_ERR_ARG,
                "remora_comm_free: *comm is the world communicator, which lives "
                "until remora_finalize");
  runtime->collectives->communicators.remove(*comm);
  *comm = REMORA_COMM_NULL;
  return REMORA_SUCCESS;
}

// ---- Groups ----

int remora_comm_group(remora_comm_t comm, remora_group_t* group) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  CommPtr found;
  if (int status = remora::api::enter("remora_comm_group", &runtime)) return status;
  if (int status = check_out("remora_comm_group", "group", group)) return status;
  if (int status = find_comm("remora_comm_group", "comm", comm, *runtime, &found)) return status;
  *group = group_handle(*runtime, found->group());
  return REMORA_SUCCESS;
}

int remora_group_size(remora_group_t group, int* size) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  std::shared_ptr<Group> found;
  if (int status = remora::api::enter("remora_group_size", &runtime)) return status;
  if (int status = check_out("remora_group_size", "size", size)) return status;
  if (int status = find_group("remora_group_size", "group", group, *runtime, &found)) return status;
  *size = found->size();
  return REMORA_SUCCESS;
}

int remora_group_rank(remora_group_t group, int* rank) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  std::shared_ptr<Group> found;
  if (int status = remora::api::enter("remora_group_rank", &runtime)) return status;
  if (int status = check_out("remora_group_rank", "rank", rank)) return status;
  if (int status = find_group("remora_group_rank", "group", group, *runtime, &found)) return status;
  *rank = found->rank_of(runtime->transport->rank());
  return REMORA_SUCCESS;
}

int remora_group_incl(remora_group_t group, int n, const int* ranks, remora_group_t* newgroup) {
  REMORA_API_ENTRY();
  return group_subset("remora_group_incl", group, n, ranks, true, newgroup);
}

int remora_group_excl(remora_group_t group, int n, const int* ranks, remora_group_t* newgroup) {
  REMORA_API_ENTRY();
  return group_subset("remora_group_excl", group, n, ranks, false, newgroup);
}

int remora_group_union(remora_group_t first, remora_group_t second, remora_group_t* newgroup) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  std::shared_ptr<Group> a, b;
  if (int status = remora::api::enter("remora_group_union", &runtime)) return status;
  if (int status = check_out("remora_group_union", "newgroup", newgroup)) return status;
  if (int status = find_group("remora_group_union", "first", first, *runtime, &a)) return status;
  if (int status = find_group("remora_group_union", "second", second, *runtime, &b)) return status;
  *newgroup = group_handle(*runtime, a->unite(*b));
  return REMORA_SUCCESS;
}

int remora_group_translate_ranks(remora_group_t group1, int n, const int* ranks1,
                                 remora_group_t group2, int* ranks2) {
  REMORA_API_ENTRY();
  const char* function = "remora_group_translate_ranks";
  Runtime* runtime = nullptr;
  std::shared_ptr<Group> from, to;
  if (int status = remora::api::enter(function, &runtime)) return status;
  if (int status = find_group(function, "group1", group1, *runtime, &from)) return status;
  if (int status = find_group(function, "group2", group2, *runtime, &to)) return status;
  if (n < 0) return fail(REMORA_ERR_ARG, "%s: n=%d is negative", function, n);
  if (n > 0) {
    if (int status = remora::api::check_pointer(function, "ranks1", ranks1)) return status;
    if (int status = remora::api::check_pointer(function, "ranks2", ranks2)) return status;
  }
  for (int i = 0; i < n; ++i)
    if (ranks1[i] < 0 || ranks1[i] >= from->size())
      return fail(REMORA_ERR_RANK, "%s: ranks1[%d]=%d is not a rank of group1 [0, %d)", function, i,
                  ranks1[i], from->size());
  for (int i = 0; i < n; ++i) ranks2[i] = from->translate(ranks1[i], *to);
  return REMORA_SUCCESS;
}

int remora_group_free(remora_group_t* group) {
  REMORA_API_ENTRY();
  Runtime* runtime = nullptr;
  std::shared_ptr<Group> found;
  if (int status = remora::api::enter("remora_group_free", &runtime)) return status;
  if (int status = check_out("remora_group_free", "group", group)) return status;
  if (int status = find_group("remora_group_free", "*group", *group, *runtime, &found))
    return status;
  runtime->collectives->groups.remove(*group);
  *group = REMORA_GROUP_NULL;
  return REMORA_SUCCESS;
}

}  // extern "C"
