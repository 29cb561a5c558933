// ARMCI groups (ARMCI_Group_*, ARMCI_Absolute_id, ARMCI_Malloc_group / ARMCI_Free_group,
// ARMCI_Uses_shm_grp): a table of Remora communicators. An ARMCI_Group holds its index in the
// table (0: the world group), this rank's rank in it (-1 outside) and its size (0 outside).
#include <algorithm>
#include <cstring>

#include "armci/armci_internal.hpp"
#include "armcix.h"

namespace remora::armci {
namespace {

std::vector<std::unique_ptr<Group>> the_groups;  // index 0: the world group
size_t default_index = 0;

void describe(size_t index, ARMCI_Group* out) {
  const Group& g = *the_groups[index];
  out->id = static_cast<int>(index);
  out->rank = g.rank;
  out->size = g.rank >= 0 ? static_cast<int>(g.members.size()) : 0;
}

size_t index_of(const char* fn, const char* what, const ARMCI_Group* group) {
  require_initialized(fn);
  if (group == nullptr) fail(fn, "%s is NULL", what);
  if (group->id < 0 || static_cast<size_t>(group->id) >= the_groups.size())
    fail(fn, "%s has id=%d, not a group this rank created", what, group->id);
  if (the_groups[static_cast<size_t>(group->id)]->freed)
    fail(fn, "%s (id=%d) was freed by ARMCI_Group_free", what, group->id);
  return static_cast<size_t>(group->id);
}

// A member's communicators: comm, and its split by node for SCOPE_NODE.
void make_group(const char* fn, remora_comm_t comm, std::vector<int> members, ARMCI_Group* out) {
  auto g = std::make_unique<Group>();
  g->comm = comm;
  g->group_rank.assign(static_cast<size_t>(nprocs()), -1);
  for (size_t i = 0; i < members.size(); ++i)
    g->group_rank[static_cast<size_t>(members[i])] = static_cast<int>(i);
  g->rank = comm != nullptr ? g->group_rank[static_cast<size_t>(my_rank())] : -1;
  g->members = std::move(members);
  if (comm != nullptr) check(fn, remora_comm_split(comm, remora_node(), g->rank, &g->node));
  the_groups.push_back(std::move(g));
  describe(the_groups.size() - 1, out);
}

void create_child(const char* fn, int grp_size, int* pid_list, ARMCI_Group* group_out,
                  const ARMCI_Group* parent_group) {
  const size_t p = index_of(fn, "group_parent", parent_group);
  Group& parent = *the_groups[p];
  if (parent.rank < 0) fail(fn, "group_parent names a group this rank is not a member of");
  if (group_out == nullptr) fail(fn, "group_out is NULL");
  const int parent_size = static_cast<int>(parent.members.size());
  if (grp_size < 1 || grp_size > parent_size)
    fail(fn, "grp_size=%d is outside [1, %d] (the parent group's size)", grp_size, parent_size);
  if (pid_list == nullptr) fail(fn, "pid_list is NULL");
  std::vector<int> seen(static_cast<size_t>(parent_size), 0), members;
  for (int i = 0; i < grp_size; ++i) {
    const int r = pid_list[i];
    if (r < 0 || r >= parent_size)
      fail(fn, "pid_list[%d]=%d is not a rank of the parent group in [0, %d)", i, r, parent_size);
    if (seen[static_cast<size_t>(r)]++ != 0)
      fail(fn, "pid_list[%d]=%d appears more than once", i, r);
    members.push_back(parent.members[static_cast<size_t>(r)]);
  }
  // Every parent member must pass the same list: compare a checksum over the parent.
  uint64_t hash = 0;
  for (int i = 0; i < grp_size; ++i)
    hash = hash * 1000003u + static_cast<uint64_t>(pid_list[i]) + 1;
  int64_t sum[2] = {grp_size, static_cast<int64_t>(hash)}, low[2] = {0, 0}, high[2] = {0, 0};
  check(fn,
        remora_allreduce(sum, low, 2, REMORA_INT64, REMORA_OP_MIN, parent.comm, REMORA_COLL_AUTO));
  check(fn,
        remora_allreduce(sum, high, 2, REMORA_INT64, REMORA_OP_MAX, parent.comm, REMORA_COLL_AUTO));
  if (low[0] != high[0] || low[1] != high[1])
    fail(fn, "the ranks of the parent group pass different pid_list (this rank: grp_size=%d)",
         grp_size);
  remora_group_t whole = REMORA_GROUP_NULL, part = REMORA_GROUP_NULL;
  check(fn, remora_comm_group(parent.comm, &whole));
  check(fn, remora_group_incl(whole, grp_size, pid_list, &part));
  remora_comm_t comm = nullptr;
  check(fn, remora_comm_create(parent.comm, part, &comm));
  check(fn, remora_group_free(&part));
  check(fn, remora_group_free(&whole));
  make_group(fn, comm, std::move(members), group_out);
}

}  // namespace

Group& group_of(const char* fn, const char* what, const ARMCI_Group* group, bool member_only) {
  Group& g = *the_groups[index_of(fn, what, group)];
  if (member_only && g.rank < 0) fail(fn, "%s names a group this rank is not a member of", what);
  return g;
}

Group& default_group() {
  return *the_groups[default_index];
}

void groups_start() {
  the_groups.clear();
  default_index = 0;
  std::vector<int> all(static_cast<size_t>(nprocs()));
  for (size_t r = 0; r < all.size(); ++r) all[r] = static_cast<int>(r);
  remora_comm_t world = nullptr;
  check("ARMCI_Init", remora_comm_dup(world_comm(), &world));
  ARMCI_Group unused;
  make_group("ARMCI_Init", world, std::move(all), &unused);
}

void groups_finish() {
  for (auto& g : the_groups) {
    if (g->node != nullptr) check("ARMCI_Finalize", remora_comm_free(&g->node));
    if (g->comm != nullptr) check("ARMCI_Finalize", remora_comm_free(&g->comm));
  }
  the_groups.clear();
  default_index = 0;
}

}  // namespace remora::armci

using namespace remora::armci;

extern "C" {

void PARMCI_Group_create_child(int grp_size, int* pid_list, ARMCI_Group* group_out,
                               ARMCI_Group* group_parent) {
  create_child("ARMCI_Group_create_child", grp_size, pid_list, group_out, group_parent);
}

void PARMCI_Group_create(int grp_size, int* pid_list, ARMCI_Group* group_out) {
  const char* fn = "ARMCI_Group_create";
  require_initialized(fn);
  ARMCI_Group parent;
  describe(default_index, &parent);
  create_child(fn, grp_size, pid_list, group_out, &parent);
}

void PARMCI_Group_free(ARMCI_Group* group) {
  const char* fn = "ARMCI_Group_free";
  const size_t i = index_of(fn, "group", group);
  if (i == 0) fail(fn, "group is the world group, which ARMCI_Finalize frees");
  if (i == default_index) fail(fn, "group (id=%d) is the default group", group->id);
  Group& g = *the_groups[i];
  for (const auto& region : regions())
    if (region->group == &g)
      fail(fn, "group (id=%d) still has memory from ARMCI_Malloc_group (free it first)", group->id);
  if (g.node != nullptr) check(fn, remora_comm_free(&g.node));
  if (g.comm != nullptr) check(fn, remora_comm_free(&g.comm));
  g.freed = true;
  group->id = -1;
  group->rank = -1;
  group->size = 0;
}

int PARMCI_Group_rank(ARMCI_Group* group, int* rank) {
  const Group& g = group_of("ARMCI_Group_rank", "group", group, false);
  if (rank == nullptr) fail("ARMCI_Group_rank", "rank is NULL");
  *rank = g.rank;
  return g.rank >= 0 ? 0 : 1;  // as ARMCI-MPI: 1 on a rank outside the group
}

void PARMCI_Group_size(ARMCI_Group* group, int* size) {
  const Group& g = group_of("ARMCI_Group_size", "group", group, false);
  if (size == nullptr) fail("ARMCI_Group_size", "size is NULL");
  *size = g.rank >= 0 ? static_cast<int>(g.members.size()) : 0;
}

void PARMCI_Group_set_default(ARMCI_Group* group) {
  const char* fn = "ARMCI_Group_set_default";
  group_of(fn, "group", group, true);
  default_index = static_cast<size_t>(group->id);
}

void PARMCI_Group_get_default(ARMCI_Group* group_out) {
  require_initialized("ARMCI_Group_get_default");
  if (group_out == nullptr) fail("ARMCI_Group_get_default", "group_out is NULL");
  describe(default_index, group_out);
}

void PARMCI_Group_get_world(ARMCI_Group* group_out) {
  require_initialized("ARMCI_Group_get_world");
  if (group_out == nullptr) fail("ARMCI_Group_get_world", "group_out is NULL");
  describe(0, group_out);
}

int PARMCI_Absolute_id(ARMCI_Group* group, int group_rank) {
  const char* fn = "ARMCI_Absolute_id";
  const Group& g = group_of(fn, "group", group, true);
  const int size = static_cast<int>(g.members.size());
  if (group_rank < 0 || group_rank >= size)
    fail(fn, "group_rank=%d is not a rank of the group in [0, %d)", group_rank, size);
  return g.members[static_cast<size_t>(group_rank)];
}

int PARMCI_Malloc_group(void** ptr_arr, armci_size_t bytes, ARMCI_Group* group) {
  const char* fn = "ARMCI_Malloc_group";
  malloc_in(fn, group_of(fn, "group", group, true), ptr_arr, bytes);
  return 0;
}

int PARMCI_Free_group(void* ptr, ARMCI_Group* group) {
  const char* fn = "ARMCI_Free_group";
  free_in(fn, group_of(fn, "group", group, true), ptr);
  return 0;
}

int PARMCI_Malloc_memdev(void** ptr_arr, armci_size_t bytes, const char* device) {
  const char* fn = "ARMCI_Malloc_memdev";
  require_initialized(fn);
  if (device == nullptr) fail(fn, "device is NULL");
  malloc_in(fn, default_group(), ptr_arr, bytes);
  return 0;
}

int PARMCI_Malloc_group_memdev(void** ptr_arr, armci_size_t bytes, ARMCI_Group* group,
                               const char* device) {
  const char* fn = "ARMCI_Malloc_group_memdev";
  Group& g = group_of(fn, "group", group, true);
  if (device == nullptr) fail(fn, "device is NULL");
  malloc_in(fn, g, ptr_arr, bytes);
  return 0;
}

int PARMCI_Free_memdev(void* ptr) {
  const char* fn = "ARMCI_Free_memdev";
  require_initialized(fn);
  free_in(fn, default_group(), ptr);
  return 0;
}

// armcix.h: a new group from a split or a duplicate of parent's communicator; its members'
// absolute ranks gathered in the new group's rank order.
int ARMCIX_Group_split(ARMCI_Group* parent, int color, int key, ARMCI_Group* new_group) {
  const char* fn = "ARMCIX_Group_split";
  Group& p = group_of(fn, "parent", parent, true);
  if (new_group == nullptr) fail(fn, "new_group is NULL");
  if (color < 0)
    fail(fn, "color=%d is negative (every member joins a group: colours are >= 0)", color);
  remora_comm_t comm = nullptr;
  check(fn, remora_comm_split(p.comm, color, key, &comm));
  int size = 0;
  check(fn, remora_comm_size(comm, &size));
  std::vector<int> members(static_cast<size_t>(size));
  const int me = my_rank();
  check(fn, remora_allgather(&me, members.data(), 1, REMORA_INT32, comm, REMORA_COLL_AUTO));
  make_group(fn, comm, std::move(members), new_group);
  return 0;
}

int ARMCIX_Group_dup(ARMCI_Group* parent, ARMCI_Group* new_group) {
  const char* fn = "ARMCIX_Group_dup";
  Group& p = group_of(fn, "parent", parent, true);
  if (new_group == nullptr) fail(fn, "new_group is NULL");
  remora_comm_t comm = nullptr;
  check(fn, remora_comm_dup(p.comm, &comm));
  std::vector<int> members = p.members;
  make_group(fn, comm, std::move(members), new_group);
  return 0;
}

int PARMCI_Uses_shm_grp(ARMCI_Group* group) {
  group_of("ARMCI_Uses_shm_grp", "group", group, false);
  return 1;
}

}  // extern "C"

// The ARMCI_ names: weak aliases of the PARMCI_ definitions (armci_internal.hpp).
REMORA_ARMCI_PROFILED(ARMCI_Group_create_child);
REMORA_ARMCI_PROFILED(ARMCI_Group_create);
REMORA_ARMCI_PROFILED(ARMCI_Group_free);
REMORA_ARMCI_PROFILED(ARMCI_Group_rank);
REMORA_ARMCI_PROFILED(ARMCI_Group_size);
REMORA_ARMCI_PROFILED(ARMCI_Group_set_default);
REMORA_ARMCI_PROFILED(ARMCI_Group_get_default);
REMORA_ARMCI_PROFILED(ARMCI_Group_get_world);
REMORA_ARMCI_PROFILED(ARMCI_Absolute_id);
REMORA_ARMCI_PROFILED(ARMCI_Malloc_group);
REMORA_ARMCI_PROFILED(ARMCI_Free_group);
REMORA_ARMCI_PROFILED(ARMCI_Uses_shm_grp);
REMORA_ARMCI_PROFILED(ARMCI_Malloc_memdev);
REMORA_ARMCI_PROFILED(ARMCI_Malloc_group_memdev);
REMORA_ARMCI_PROFILED(ARMCI_Free_memdev);
