// Process groups (GA_Pgroup_*): a group is a list of GA world ranks with a Remora communicator
// (arrays created on the group live on it: remora_array_set_create_comm) and an MPI
// communicator (GA_MPI_Comm_pgroup). As in GA, GA_Pgroup_create is collective over the default
// group and its list holds ranks of the default group, taken in ascending order; GA_Nodeid /
// GA_Nnodes answer for the default group.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <vector>

#include "ga-mpi.h"
#include "ga/ga_registry.hpp"

namespace remora::ga {
namespace {

struct Pgroup {
  std::vector<int> members;               // GA world ranks, in the group's order
  remora_comm_t comm = REMORA_COMM_NULL;  // REMORA_COMM_NULL on processes outside the group
  MPI_Comm mpi = MPI_COMM_NULL;
  int rank = -1;  // this process's rank in the group, -1 outside it
};

// Handles count from 1 (GA keeps 0 for its mirror group and -1 for the world). The map is
// guarded by state_mutex(); its nodes never move, so a group found stays valid until
// GA_Pgroup_destroy (collective, single-threaded).
std::map<int, Pgroup>& groups() {
  static std::map<int, Pgroup> table;
  return table;
}
int next_handle = 1;
constexpr int kMirrorGroup = 0;  // GA_Pgroup_get_mirror's handle: never a live group here

// Records a new group (its communicators made by the caller) and returns its handle.
int record(Pgroup group) {
  if (group.comm != REMORA_COMM_NULL) check("record", remora_comm_rank(group.comm, &group.rank));
  const std::lock_guard<std::mutex> hold(state_mutex());
  const int handle = next_handle++;
  groups()[handle] = std::move(group);
  return handle;
}

Pgroup* find(int handle) {
  const std::lock_guard<std::mutex> hold(state_mutex());
  auto it = groups().find(handle);
  return it == groups().end() ? nullptr : &it->second;
}

const Pgroup& live(const char* fn, int handle) {
  require_initialized(fn);
  const Pgroup* group = find(handle);
  if (group == nullptr && handle == kMirrorGroup)
    ga_fail(fn, "p_handle=0 is GA's mirror group: Remora has no mirrored arrays");
  if (group == nullptr) ga_fail(fn, "p_handle=%d is not a live process group", handle);
  return *group;
}

// The members (in GA world ranks) of any group, the world included.
std::vector<int> members_of(const char* fn, int handle) {
  if (handle != kWorldGroup) return live(fn, handle).members;
  std::vector<int> all(static_cast<size_t>(remora_size()));
  for (size_t r = 0; r < all.size(); ++r) all[r] = static_cast<int>(r);
  return all;
}

MPI_Comm mpi_comm_of(const char* fn, int handle) {
  return handle == kWorldGroup ? world_comm() : live(fn, handle).mpi;
}

// A new group of the members of grp that pass this process's colour (>= 0), in grp's order:
// collective over grp, as MPI_Comm_split (GA_Pgroup_split / _split_irreg / _self).
int split_group(const char* fn, int grp, int color) {
  const remora_comm_t parent = pgroup_comm(fn, grp);
  const std::vector<int> parent_members = members_of(fn, grp);
  int rank = 0;
  check(fn, remora_comm_rank(parent, &rank));
  Pgroup group;
  check(fn, remora_comm_split(parent, color, rank, &group.comm));
  if (MPI_Comm_split(mpi_comm_of(fn, grp), color, rank, &group.mpi) != MPI_SUCCESS)
    ga_fail(fn, "MPI_Comm_split failed");
  // The new group's members as GA world ranks: its ranks translated to grp's.
  remora_group_t mine = REMORA_GROUP_NULL, theirs = REMORA_GROUP_NULL;
  check(fn, remora_comm_group(group.comm, &mine));
  check(fn, remora_comm_group(parent, &theirs));
  int size = 0;
  check(fn, remora_group_size(mine, &size));
  std::vector<int> ranks(static_cast<size_t>(size)), in_parent(static_cast<size_t>(size));
  for (int r = 0; r < size; ++r) ranks[static_cast<size_t>(r)] = r;
  check(fn, remora_group_translate_ranks(mine, size, ranks.data(), theirs, in_parent.data()));
  check(fn, remora_group_free(&mine));
  check(fn, remora_group_free(&theirs));
  for (int r : in_parent) group.members.push_back(parent_members[static_cast<size_t>(r)]);
  return record(std::move(group));
}

}  // namespace

remora_comm_t pgroup_comm(const char* fn, int handle) {
  require_initialized(fn);
  if (handle == kWorldGroup) {
    remora_comm_t world = REMORA_COMM_NULL;
    check(fn, remora_comm_world(&world));
    return world;
  }
  const Pgroup& group = live(fn, handle);
  if (group.comm == REMORA_COMM_NULL)
    ga_fail(fn, "this process (GA rank %d) is not a member of process group %d", remora_rank(),
            handle);
  return group.comm;
}

bool pgroup_exists(int handle) {
  return handle == kWorldGroup || find(handle) != nullptr;
}

int pgroup_size(const char* fn, int handle) {
  return static_cast<int>(members_of(fn, handle).size());
}

int array_ranks(const GaArray& a) {
  int size = 0;
  check("array_ranks", remora_array_ranks(a.array, &size, nullptr));
  return size;
}

int array_rank(const GaArray& a) {
  int rank = 0;
  check("array_rank", remora_array_ranks(a.array, nullptr, &rank));
  return group_rank_of(a, rank);
}

// The array's ranks are the listed group ranks in list order, then the others in group order.
int group_rank_of(const GaArray& a, int array_rank) {
  const auto& list = a.restricted;
  if (list.empty() || array_rank < 0) return array_rank;
  const size_t count = list.size();
  if (static_cast<size_t>(array_rank) < count) return list[static_cast<size_t>(array_rank)];
  int rest = array_rank - static_cast<int>(count);
  for (int g = 0;; ++g)
    if (std::find(list.begin(), list.end(), g) == list.end() && rest-- == 0) return g;
}

int array_rank_of(const GaArray& a, int group_rank) {
  const auto& list = a.restricted;
  if (list.empty() || group_rank < 0) return group_rank;
  const auto it = std::find(list.begin(), list.end(), group_rank);
  if (it != list.end()) return static_cast<int>(it - list.begin());
  int before = 0;  // unlisted group ranks below group_rank
  for (int g = 0; g < group_rank; ++g)
    if (std::find(list.begin(), list.end(), g) == list.end()) ++before;
  return static_cast<int>(list.size()) + before;
}

void free_pgroups() {
  std::map<int, Pgroup> left;
  {
    const std::lock_guard<std::mutex> hold(state_mutex());
    left.swap(groups());
  }
  // Freeing a communicator is collective over its members: every rank goes in handle order,
  // the order the program created the groups in.
  for (auto& [handle, group] : left) {
    if (group.comm != REMORA_COMM_NULL) check("GA_Terminate", remora_comm_free(&group.comm));
    if (group.mpi != MPI_COMM_NULL) MPI_Comm_free(&group.mpi);
  }
  default_pgroup() = kWorldGroup;
}

}  // namespace remora::ga

using namespace remora::ga;

extern "C" {

int GA_Pgroup_create(int* list, int count) {
  constexpr const char* fn = "GA_Pgroup_create";
  require_initialized(fn);
  const int parent = default_pgroup();
  const std::vector<int> parent_members = members_of(fn, parent);
  const int parent_size = static_cast<int>(parent_members.size());
  if (count < 1 || count > parent_size)
    ga_fail(fn, "count=%d must lie in [1, %d] (the default group's size)", count, parent_size);
  if (list == nullptr) ga_fail(fn, "list is NULL");
  std::vector<char> seen(static_cast<size_t>(parent_size), 0);
  for (int i = 0; i < count; ++i) {
    if (list[i] < 0 || list[i] >= parent_size)
      ga_fail(fn, "list[%d]=%d is not a rank of the default group [0, %d)", i, list[i],
              parent_size);
    if (seen[static_cast<size_t>(list[i])]++) ga_fail(fn, "list[%d]=%d appears twice", i, list[i]);
  }
  // GA sorts the list: the group's rank i is its i-th smallest default-group rank, whatever
  // order the caller wrote them in.
  std::vector<int> world_ranks;
  for (int r = 0; r < parent_size; ++r)
    if (seen[static_cast<size_t>(r)]) world_ranks.push_back(parent_members[static_cast<size_t>(r)]);
  Pgroup group;
  group.members = world_ranks;
  // The Remora communicator: collective over the default group (non-members get none).
  remora_group_t world_group = REMORA_GROUP_NULL, members = REMORA_GROUP_NULL;
  remora_comm_t world = REMORA_COMM_NULL;
  check(fn, remora_comm_world(&world));
  check(fn, remora_comm_group(world, &world_group));
  check(fn, remora_group_incl(world_group, count, world_ranks.data(), &members));
  check(fn, remora_comm_create(pgroup_comm(fn, parent), members, &group.comm));
  check(fn, remora_group_free(&members));
  check(fn, remora_group_free(&world_group));
  // The matching MPI communicator, over the same ranks in the same order.
  MPI_Group mpi_world = MPI_GROUP_NULL, mpi_members = MPI_GROUP_NULL;
  MPI_Comm_group(world_comm(), &mpi_world);
  MPI_Group_incl(mpi_world, count, world_ranks.data(), &mpi_members);
  if (MPI_Comm_create(mpi_comm_of(fn, parent), mpi_members, &group.mpi) != MPI_SUCCESS)
    ga_fail(fn, "MPI_Comm_create failed");
  MPI_Group_free(&mpi_members);
  MPI_Group_free(&mpi_world);
  return record(std::move(group));
}

int GA_Pgroup_destroy(int grp) {
  constexpr const char* fn = "GA_Pgroup_destroy";
  require_initialized(fn);
  Pgroup* group = find(grp);
  if (group == nullptr) return 0;  // GA: FALSE for a group that is not active
  for (int handle : live_handles())
    if (lookup(fn, handle).pgroup == grp)
      ga_fail(fn, "process group %d still has arrays (GA handle %d): destroy them first", grp,
              handle);
  if (group->comm != REMORA_COMM_NULL) check(fn, remora_comm_free(&group->comm));
  if (group->mpi != MPI_COMM_NULL) MPI_Comm_free(&group->mpi);
  if (default_pgroup() == grp) default_pgroup() = kWorldGroup;
  const std::lock_guard<std::mutex> hold(state_mutex());
  groups().erase(grp);
  return 1;
}

int GA_Pgroup_split(int grp_id, int num_group) {
  constexpr const char* fn = "GA_Pgroup_split";
  int size = 0, rank = 0;
  const remora_comm_t parent = pgroup_comm(fn, grp_id);
  check(fn, remora_comm_size(parent, &size));
  check(fn, remora_comm_rank(parent, &rank));
  if (num_group < 0) ga_fail(fn, "num_group=%d is negative", num_group);
  if (num_group == 0) return grp_id;  // as GA
  // As GA: groups of ceil(size / num_group) consecutive ranks, the last one smaller (so there
  // may be fewer than num_group groups).
  const int per_group = (size + num_group - 1) / num_group;
  return split_group(fn, grp_id, rank / per_group);
}

int GA_Pgroup_split_irreg(int grp_id, int color) {
  constexpr const char* fn = "GA_Pgroup_split_irreg";
  pgroup_comm(fn, grp_id);  // a live group this process belongs to
  if (color < 0) ga_fail(fn, "color=%d is negative", color);
  return split_group(fn, grp_id, color);
}

int GA_Pgroup_self(void) {
  constexpr const char* fn = "GA_Pgroup_self";
  require_initialized(fn);
  const int parent = default_pgroup();
  int rank = 0;
  check(fn, remora_comm_rank(pgroup_comm(fn, parent), &rank));
  return split_group(fn, parent, rank);
}

int GA_Pgroup_duplicate(int grp) {
  constexpr const char* fn = "GA_Pgroup_duplicate";
  Pgroup group;
  const remora_comm_t parent = pgroup_comm(fn, grp);
  group.members = members_of(fn, grp);
  check(fn, remora_comm_dup(parent, &group.comm));
  if (MPI_Comm_dup(mpi_comm_of(fn, grp), &group.mpi) != MPI_SUCCESS)
    ga_fail(fn, "MPI_Comm_dup failed");
  return record(std::move(group));
}

int GA_Pgroup_absolute_id(int pgroup, int pid) {
  constexpr const char* fn = "GA_Pgroup_absolute_id";
  const std::vector<int> members = members_of(fn, pgroup);
  if (pid < 0 || pid >= static_cast<int>(members.size()))
    ga_fail(fn, "pid=%d is not a rank of process group %d [0, %zu)", pid, pgroup, members.size());
  return members[static_cast<size_t>(pid)];
}

int GA_Pgroup_get_mirror(void) {
  require_initialized("GA_Pgroup_get_mirror");
  return kMirrorGroup;
}

void GA_Pgroup_set_default(int grp) {
  constexpr const char* fn = "GA_Pgroup_set_default";
  require_initialized(fn);
  if (grp != kWorldGroup) pgroup_comm(fn, grp);  // a live group this process belongs to
  default_pgroup() = grp;
}

int GA_Pgroup_get_default(void) {
  require_initialized("GA_Pgroup_get_default");
  return default_pgroup();
}

int GA_Pgroup_get_world(void) {
  require_initialized("GA_Pgroup_get_world");
  return kWorldGroup;
}

int GA_Pgroup_nodeid(int grp) {
  if (grp == kWorldGroup) {
    require_initialized("GA_Pgroup_nodeid");
    return remora_rank();
  }
  return live("GA_Pgroup_nodeid", grp).rank;
}

int GA_Pgroup_nnodes(int grp) {
  return pgroup_size("GA_Pgroup_nnodes", grp);
}

void GA_Pgroup_sync(int grp_id) {
  constexpr const char* fn = "GA_Pgroup_sync";
  check(fn, remora_array_sync_comm(pgroup_comm(fn, grp_id)));
  invalidate_read_caches();
}

void GA_Set_pgroup(int g_a, int p_handle) {
  constexpr const char* fn = "GA_Set_pgroup";
  require_initialized(fn);
  GaArray& a = lookup(fn, g_a);
  if (a.array != nullptr)
    ga_fail(fn, "array '%s' is already allocated: its process group cannot change", a.name.c_str());
  if (!pgroup_exists(p_handle)) ga_fail(fn, "p_handle=%d is not a live process group", p_handle);
  a.pgroup = p_handle;
}

int GA_Get_pgroup(int g_a) {
  return lookup("GA_Get_pgroup", g_a).pgroup;
}

int GA_Get_pgroup_size(int grp_id) {
  return GA_Pgroup_nnodes(grp_id);
}

MPI_Comm GA_MPI_Comm_pgroup(int p_handle) {
  constexpr const char* fn = "GA_MPI_Comm_pgroup";
  require_initialized(fn);
  return mpi_comm_of(fn, p_handle);
}

MPI_Comm GA_MPI_Comm_pgroup_default(void) {
  constexpr const char* fn = "GA_MPI_Comm_pgroup_default";
  require_initialized(fn);
  return mpi_comm_of(fn, default_pgroup());
}

}  // extern "C"
