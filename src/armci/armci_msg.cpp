// message.h: armci_msg_* on Remora's collectives over ARMCI's ranks (SCOPE_NODE: the node's
// ranks), and point-to-point messages on active messages.
#include <sched.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>

#include "armci/armci_internal.hpp"
#include "message.h"

namespace remora::armci {
namespace {

// ---- point to point: a message travels as fragments (header + up to kFragment bytes) ----
constexpr size_t kFragment = 1024;  // well below any REMORA_AM_MAX_BYTES in use
struct Header {
  int tag;
  int total;  // bytes of the whole message
};
struct Message {
  int source;
  int tag;
  std::vector<char> data;
};
std::mutex inbox_mutex;             // the handler may run on the progress thread
std::deque<Message> inbox;          // complete messages, in arrival order
std::vector<Message> partial;       // per source: the message being assembled
std::vector<int> partial_expected;  // per source: its total bytes (-1: none)
int handler_id = -1;

void on_fragment(int source, const void* payload, size_t bytes, void*) {
  Header h;
  std::memcpy(&h, payload, sizeof h);
  const char* data = static_cast<const char*>(payload) + sizeof h;
  const size_t n = bytes - sizeof h;
  std::lock_guard<std::mutex> lock(inbox_mutex);
  const auto s = static_cast<size_t>(source);
  if (partial_expected[s] < 0) {
    partial[s] = Message{source, h.tag, {}};
    partial_expected[s] = h.total;
  }
  partial[s].data.insert(partial[s].data.end(), data, data + n);
  if (partial[s].data.size() == static_cast<size_t>(partial_expected[s])) {
    inbox.push_back(std::move(partial[s]));
    partial_expected[s] = -1;
  }
}

// Waits for the first message of tag (from `from`, or any rank when from < 0).
Message take(const char* fn, int tag, int from) {
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(inbox_mutex);
      for (auto it = inbox.begin(); it != inbox.end(); ++it)
        if (it->tag == tag && (from < 0 || it->source == from)) {
          Message m = std::move(*it);
          inbox.erase(it);
          return m;
        }
    }
    check(fn, remora_progress());
    sched_yield();
  }
}

void deliver(const char* fn, const Message& m, void* buffer, int buflen, int* msglen) {
  if (m.data.size() > static_cast<size_t>(buflen))
    fail(fn, "the message of %zu bytes (tag %d from rank %d) does not fit buflen=%d", m.data.size(),
         m.tag, m.source, buflen);
  if (!m.data.empty()) std::memcpy(buffer, m.data.data(), m.data.size());
  if (msglen != nullptr) *msglen = static_cast<int>(m.data.size());
}

// ---- collectives ----
// group: the armci_msg_group_* calls' group (NULL: every ARMCI rank).
remora_comm_t scope_comm(const char* fn, int scope, const Group* group = nullptr) {
  require_initialized(fn);
  switch (scope) {
    case SCOPE_ALL:
    case SCOPE_MASTERS:
      return group != nullptr ? group->comm : world_comm();
    case SCOPE_NODE:
      return group != nullptr ? group->node : node_comm();
    default:
      fail(fn, "scope=%d is not SCOPE_ALL, SCOPE_NODE or SCOPE_MASTERS", scope);
  }
}

// root (an ARMCI rank) as a rank of scope's communicator (of group's when group is given).
int scope_root(const char* fn, int scope, int root, const Group* group = nullptr) {
  check_proc(fn, "root", root);
  const int position = group != nullptr ? group->group_rank[static_cast<size_t>(root)] : root;
  if (position < 0) fail(fn, "root=%d is not a member of the group", root);
  if (scope != SCOPE_NODE) return position;
  if (remora_rank_node(root) != remora_node())
    fail(fn, "root=%d is not on this rank's node (scope SCOPE_NODE)", root);
  int index = 0;
  for (int r = 0; r < root; ++r)
    index += remora_rank_node(r) == remora_node() &&
                     (group == nullptr || group->group_rank[static_cast<size_t>(r)] >= 0)
                 ? 1
                 : 0;
  return index;
}

struct TypeInfo {
  remora_datatype_t type;
  size_t bytes;
  bool integer;
};

TypeInfo type_info(const char* fn, int type) {
  switch (type) {
    case ARMCI_INT:
      return {REMORA_INT32, sizeof(int), true};
    case ARMCI_LONG:
      return {sizeof(long) == 8 ? REMORA_INT64 : REMORA_INT32, sizeof(long), true};
    case ARMCI_LONG_LONG:
      return {REMORA_INT64, sizeof(long long), true};
    case ARMCI_FLOAT:
      return {REMORA_FLOAT, sizeof(float), false};
    case ARMCI_DOUBLE:
      return {REMORA_DOUBLE, sizeof(double), false};
    default:
      fail(fn, "type=%d is not ARMCI_INT, ARMCI_LONG, ARMCI_LONG_LONG, ARMCI_FLOAT or ARMCI_DOUBLE",
           type);
  }
}

template <typename T>
void make_absolute(void* x, int n) {
  T* v = static_cast<T*>(x);
  for (int i = 0; i < n; ++i)
    if (v[i] < 0) v[i] = -v[i];
}

void absolute(int type, void* x, int n) {
  switch (type) {
    case ARMCI_INT:
      make_absolute<int>(x, n);
      break;
    case ARMCI_LONG:
      make_absolute<long>(x, n);
      break;
    case ARMCI_LONG_LONG:
      make_absolute<long long>(x, n);
      break;
    case ARMCI_FLOAT:
      make_absolute<float>(x, n);
      break;
    default:
      make_absolute<double>(x, n);
      break;
  }
}

void gop(const char* fn, int scope, void* x, int n, const char* op, int type,
         const Group* group = nullptr) {
  const remora_comm_t comm = scope_comm(fn, scope, group);
  const TypeInfo t = type_info(fn, type);
  if (n < 0) fail(fn, "n=%d is negative", n);
  if (op == nullptr) fail(fn, "op is NULL");
  if (x == nullptr && n > 0) fail(fn, "x is NULL with n=%d", n);
  remora_op_t rop;
  bool abs_first = false;
  // By prefix, as ARMCI compares them; absmax / absmin before max / min.
  if (op[0] == '+') {
    rop = REMORA_OP_SUM;
  } else if (op[0] == '*') {
    rop = REMORA_OP_PROD;
  } else if (std::strncmp(op, "absmax", 6) == 0) {
    rop = REMORA_OP_MAX;
    abs_first = true;
  } else if (std::strncmp(op, "absmin", 6) == 0) {
    rop = REMORA_OP_MIN;
    abs_first = true;
  } else if (std::strncmp(op, "max", 3) == 0) {
    rop = REMORA_OP_MAX;
  } else if (std::strncmp(op, "min", 3) == 0) {
    rop = REMORA_OP_MIN;
  } else if (std::strncmp(op, "or", 2) == 0 && t.integer) {
    rop = REMORA_OP_BOR;
  } else {
    fail(fn, "op=\"%s\" is not \"+\", \"*\", \"max\", \"min\", \"absmax\", \"absmin\"%s", op,
         t.integer ? " or \"or\"" : "");
  }
  if (abs_first) absolute(type, x, n);
  if (n == 0) {
    check(fn, remora_comm_barrier(comm, REMORA_COLL_AUTO));
    return;
  }
  std::vector<char> out(static_cast<size_t>(n) * t.bytes);
  check(fn, remora_allreduce(x, out.data(), static_cast<size_t>(n), t.type, rop, comm,
                             REMORA_COLL_AUTO));
  std::memcpy(x, out.data(), out.size());
}

void bcast(const char* fn, int scope, void* buffer, int len, int root,
           const Group* group = nullptr) {
  const remora_comm_t comm = scope_comm(fn, scope, group);
  const int comm_root = scope_root(fn, scope, root, group);
  if (len < 0) fail(fn, "len=%d is negative", len);
  if (buffer == nullptr && len > 0) fail(fn, "buffer is NULL with len=%d", len);
  if (len == 0) {
    check(fn, remora_comm_barrier(comm, REMORA_COLL_AUTO));
    return;
  }
  check(fn, remora_bcast(buffer, static_cast<size_t>(len), REMORA_UINT8, comm_root, comm,
                         REMORA_COLL_AUTO));
}

double first_as_double(int type, const void* x) {
  switch (type) {
    case ARMCI_INT:
      return *static_cast<const int*>(x);
    case ARMCI_LONG:
      return static_cast<double>(*static_cast<const long*>(x));
    case ARMCI_LONG_LONG:
      return static_cast<double>(*static_cast<const long long*>(x));
    case ARMCI_FLOAT:
      return *static_cast<const float*>(x);
    default:
      return *static_cast<const double*>(x);
  }
}

void sel(const char* fn, int scope, void* x, int n, const char* op, int type, int contribute) {
  const remora_comm_t comm = scope_comm(fn, scope);
  const TypeInfo t = type_info(fn, type);
  if (op == nullptr) fail(fn, "op is NULL");
  const bool is_min = std::strncmp(op, "min", 3) == 0;
  if (!is_min && std::strncmp(op, "max", 3) != 0)
    fail(fn, "op=\"%s\" is not \"min\" or \"max\"", op);
  if (n < static_cast<int>(t.bytes))
    fail(fn, "n=%d bytes cannot hold one element of type=%d (%zu bytes)", n, type, t.bytes);
  if (x == nullptr) fail(fn, "x is NULL");
  int size = 0;
  check(fn, remora_comm_size(comm, &size));
  // Each rank: (contributes, its value); integers compared exactly as long long.
  struct Entry {
    int64_t contributes;
    int64_t integer;
    double real;
  } mine{contribute != 0 ? 1 : 0, 0, first_as_double(type, x)};
  if (type == ARMCI_INT) mine.integer = *static_cast<int*>(x);
  if (type == ARMCI_LONG) mine.integer = *static_cast<long*>(x);
  if (type == ARMCI_LONG_LONG) mine.integer = *static_cast<long long*>(x);
  std::vector<Entry> all(static_cast<size_t>(size));
  static_assert(sizeof(Entry) == 3 * sizeof(int64_t), "Entry is three 8-byte words");
  check(fn, remora_allgather(&mine, all.data(), 3, REMORA_INT64, comm, REMORA_COLL_AUTO));
  int best = -1;
  for (int r = 0; r < size; ++r) {
    const Entry& e = all[static_cast<size_t>(r)];
    if (!e.contributes) continue;
    if (best < 0) {
      best = r;
      continue;
    }
    const Entry& b = all[static_cast<size_t>(best)];
    const bool better = t.integer ? (is_min ? e.integer < b.integer : e.integer > b.integer)
                                  : (is_min ? e.real < b.real : e.real > b.real);
    if (better) best = r;
  }
  if (best < 0) return;  // nobody contributed: x unchanged
  check(fn, remora_bcast(x, static_cast<size_t>(n), REMORA_UINT8, best, comm, REMORA_COLL_AUTO));
}

// armci_exchange_address(_grp): every rank's ptr[rank] to every rank (size ranks in comm).
void exchange(const char* fn, void** ptr, int n, remora_comm_t comm, int size, int rank) {
  if (ptr == nullptr) fail(fn, "ptr_ar is NULL");
  if (n != size) fail(fn, "n=%d is not the number of ranks (%d)", n, size);
  uint64_t mine = reinterpret_cast<uintptr_t>(ptr[rank]);
  std::vector<uint64_t> all(static_cast<size_t>(size));
  check(fn, remora_allgather(&mine, all.data(), 1, REMORA_UINT64, comm, REMORA_COLL_AUTO));
  for (int r = 0; r < size; ++r)
    ptr[r] = reinterpret_cast<void*>(static_cast<uintptr_t>(all[static_cast<size_t>(r)]));
}

}  // namespace

void message_init() {
  const auto n = static_cast<size_t>(nprocs());
  {
    const std::lock_guard<std::mutex> lock(inbox_mutex);
    inbox.clear();
    partial.assign(n, Message{});
    partial_expected.assign(n, -1);
  }
  // Registered at every start (collective, so the ids agree): a Remora started again after
  // ARMCI_Finalize ended it has forgotten the earlier registration.
  check("ARMCI_Init", remora_am_register(on_fragment, nullptr, &handler_id));
}

}  // namespace remora::armci

using namespace remora::armci;

extern "C" {

int armci_msg_me(void) {
  require_initialized("armci_msg_me");
  return my_rank();
}

int armci_msg_nproc(void) {
  require_initialized("armci_msg_nproc");
  return nprocs();
}

void armci_msg_abort(int code) {
  char text[128];
  std::snprintf(text, sizeof text, "armci_msg_abort: code %d", code);
  remora_abort(code >= 1 && code <= 255 ? code : 1, text);
  std::abort();
}

double armci_timer(void) {
  return remora_wtime();
}

void armci_msg_snd(int tag, void* buffer, int len, int to) {
  const char* fn = "armci_msg_snd";
  check_proc(fn, "to", to);
  if (len < 0) fail(fn, "len=%d is negative", len);
  if (buffer == nullptr && len > 0) fail(fn, "buffer is NULL with len=%d", len);
  const Header h{tag, len};
  char fragment[sizeof(Header) + kFragment];
  std::memcpy(fragment, &h, sizeof h);
  size_t sent = 0;
  do {
    const size_t n = std::min(kFragment, static_cast<size_t>(len) - sent);
    if (n > 0) std::memcpy(fragment + sizeof h, static_cast<const char*>(buffer) + sent, n);
    check(fn, remora_am_send(to, handler_id, fragment, sizeof h + n));
    sent += n;
  } while (sent < static_cast<size_t>(len));
}

void armci_msg_rcv(int tag, void* buffer, int buflen, int* msglen, int from) {
  const char* fn = "armci_msg_rcv";
  check_proc(fn, "from", from);
  if (buflen < 0) fail(fn, "buflen=%d is negative", buflen);
  if (buffer == nullptr && buflen > 0) fail(fn, "buffer is NULL with buflen=%d", buflen);
  deliver(fn, take(fn, tag, from), buffer, buflen, msglen);
}

int armci_msg_rcvany(int tag, void* buffer, int buflen, int* msglen) {
  const char* fn = "armci_msg_rcvany";
  require_initialized(fn);
  if (buflen < 0) fail(fn, "buflen=%d is negative", buflen);
  if (buffer == nullptr && buflen > 0) fail(fn, "buffer is NULL with buflen=%d", buflen);
  const Message m = take(fn, tag, -1);
  deliver(fn, m, buffer, buflen, msglen);
  return m.source;
}

void parmci_msg_barrier(void) {
  require_initialized("armci_msg_barrier");
  check("armci_msg_barrier", remora_comm_barrier(world_comm(), REMORA_COLL_AUTO));
}

void parmci_msg_group_barrier(ARMCI_Group* group) {
  const char* fn = "armci_msg_group_barrier";
  require_initialized(fn);
  check(fn, remora_comm_barrier(group_of(fn, "group", group, true).comm, REMORA_COLL_AUTO));
}

void armci_msg_group_bcast_scope(int scope, void* buf, int len, int root, ARMCI_Group* group) {
  const char* fn = "armci_msg_group_bcast_scope";
  require_initialized(fn);
  bcast(fn, scope, buf, len, root, &group_of(fn, "group", group, true));
}

void armci_msg_group_gop_scope(int scope, void* x, int n, char* op, int type, ARMCI_Group* group) {
  const char* fn = "armci_msg_group_gop_scope";
  require_initialized(fn);
  gop(fn, scope, x, n, op, type, &group_of(fn, "group", group, true));
}

void armci_msg_group_igop(int* x, int n, char* op, ARMCI_Group* group) {
  const char* fn = "armci_msg_group_igop";
  require_initialized(fn);
  gop(fn, SCOPE_ALL, x, n, op, ARMCI_INT, &group_of(fn, "group", group, true));
}

void armci_msg_group_lgop(long* x, int n, char* op, ARMCI_Group* group) {
  const char* fn = "armci_msg_group_lgop";
  require_initialized(fn);
  gop(fn, SCOPE_ALL, x, n, op, ARMCI_LONG, &group_of(fn, "group", group, true));
}

void armci_msg_group_llgop(long long* x, int n, char* op, ARMCI_Group* group) {
  const char* fn = "armci_msg_group_llgop";
  require_initialized(fn);
  gop(fn, SCOPE_ALL, x, n, op, ARMCI_LONG_LONG, &group_of(fn, "group", group, true));
}

void armci_msg_group_fgop(float* x, int n, char* op, ARMCI_Group* group) {
  const char* fn = "armci_msg_group_fgop";
  require_initialized(fn);
  gop(fn, SCOPE_ALL, x, n, op, ARMCI_FLOAT, &group_of(fn, "group", group, true));
}

void armci_msg_group_dgop(double* x, int n, char* op, ARMCI_Group* group) {
  const char* fn = "armci_msg_group_dgop";
  require_initialized(fn);
  gop(fn, SCOPE_ALL, x, n, op, ARMCI_DOUBLE, &group_of(fn, "group", group, true));
}

void armci_msg_reduce(void* x, int n, char* op, int type) {
  gop("armci_msg_reduce", SCOPE_ALL, x, n, op, type);
}

void armci_msg_reduce_scope(int scope, void* x, int n, char* op, int type) {
  gop("armci_msg_reduce_scope", scope, x, n, op, type);
}

void armci_msg_clus_brdcst(void* buf, int len) {
  const char* fn = "armci_msg_clus_brdcst";
  require_initialized(fn);
  int master = 0;
  while (remora_rank_node(master) != remora_node()) ++master;  // the node's lowest rank
  bcast(fn, SCOPE_NODE, buf, len, master);
}

void armci_msg_clus_igop(int* x, int n, char* op) {
  gop("armci_msg_clus_igop", SCOPE_NODE, x, n, op, ARMCI_INT);
}

void armci_msg_clus_fgop(float* x, int n, char* op) {
  gop("armci_msg_clus_fgop", SCOPE_NODE, x, n, op, ARMCI_FLOAT);
}

void armci_msg_clus_lgop(long* x, int n, char* op) {
  gop("armci_msg_clus_lgop", SCOPE_NODE, x, n, op, ARMCI_LONG);
}

void armci_msg_clus_llgop(long long* x, int n, char* op) {
  gop("armci_msg_clus_llgop", SCOPE_NODE, x, n, op, ARMCI_LONG_LONG);
}

void armci_msg_clus_dgop(double* x, int n, char* op) {
  gop("armci_msg_clus_dgop", SCOPE_NODE, x, n, op, ARMCI_DOUBLE);
}

void armci_grp_clus_brdcst(void* buf, int len, int grp_master, int grp_clus_nproc,
                           ARMCI_Group* mastergroup) {
  const char* fn = "armci_grp_clus_brdcst";
  require_initialized(fn);
  const Group& g = group_of(fn, "mastergroup", mastergroup, true);
  int on_node = 0;
  check(fn, remora_comm_size(g.node, &on_node));
  if (grp_clus_nproc != on_node)
    fail(fn, "grp_clus_nproc=%d, but the group has %d members on this node", grp_clus_nproc,
         on_node);
  bcast(fn, SCOPE_NODE, buf, len, grp_master, &g);
}

void armci_exchange_address(void* ptr_ar[], int n) {
  const char* fn = "armci_exchange_address";
  require_initialized(fn);
  exchange(fn, ptr_ar, n, world_comm(), nprocs(), my_rank());
}

void armci_exchange_address_grp(void* ptr_arr[], int n, ARMCI_Group* group) {
  const char* fn = "armci_exchange_address_grp";
  require_initialized(fn);
  const Group& g = group_of(fn, "group", group, true);
  exchange(fn, ptr_arr, n, g.comm, static_cast<int>(g.members.size()), g.rank);
}

void armci_msg_bintree(int scope, int* Root, int* Up, int* Left, int* Right) {
  const char* fn = "armci_msg_bintree";
  const remora_comm_t comm = scope_comm(fn, scope);
  if (Root == nullptr || Up == nullptr || Left == nullptr || Right == nullptr)
    fail(fn, "Root=%p, Up=%p, Left=%p, Right=%p: NULL", static_cast<void*>(Root),
         static_cast<void*>(Up), static_cast<void*>(Left), static_cast<void*>(Right));
  int size = 0, me = 0;
  check(fn, remora_comm_size(comm, &size));
  check(fn, remora_comm_rank(comm, &me));
  // Tree positions are ranks of scope; as ARMCI ranks for SCOPE_ALL, node ranks mapped back.
  std::vector<int> members;
  for (int r = 0; r < nprocs(); ++r)
    if (scope != SCOPE_NODE || remora_rank_node(r) == remora_node()) members.push_back(r);
  auto global = [&](int i) { return i < size ? members[static_cast<size_t>(i)] : -1; };
  *Root = global(0);
  *Up = me == 0 ? -1 : global((me - 1) / 2);
  *Left = global(2 * me + 1);
  *Right = global(2 * me + 2);
}

void armci_msg_bcast(void* buffer, int len, int root) {
  bcast("armci_msg_bcast", SCOPE_ALL, buffer, len, root);
}

void armci_msg_bcast_scope(int scope, void* buffer, int len, int root) {
  bcast("armci_msg_bcast_scope", scope, buffer, len, root);
}

void armci_msg_brdcst(void* buffer, int len, int root) {
  bcast("armci_msg_brdcst", SCOPE_ALL, buffer, len, root);
}

void armci_msg_gop_scope(int scope, void* x, int n, char* op, int type) {
  gop("armci_msg_gop_scope", scope, x, n, op, type);
}

void armci_msg_igop(int* x, int n, char* op) {
  gop("armci_msg_igop", SCOPE_ALL, x, n, op, ARMCI_INT);
}

void armci_msg_lgop(long* x, int n, char* op) {
  gop("armci_msg_lgop", SCOPE_ALL, x, n, op, ARMCI_LONG);
}

void armci_msg_llgop(long long* x, int n, char* op) {
  gop("armci_msg_llgop", SCOPE_ALL, x, n, op, ARMCI_LONG_LONG);
}

void armci_msg_fgop(float* x, int n, char* op) {
  gop("armci_msg_fgop", SCOPE_ALL, x, n, op, ARMCI_FLOAT);
}

void armci_msg_dgop(double* x, int n, char* op) {
  gop("armci_msg_dgop", SCOPE_ALL, x, n, op, ARMCI_DOUBLE);
}

void armci_msg_sel(void* x, int n, char* op, int type, int contribute) {
  sel("armci_msg_sel", SCOPE_ALL, x, n, op, type, contribute);
}

void armci_msg_sel_scope(int scope, void* x, int n, char* op, int type, int contribute) {
  sel("armci_msg_sel_scope", scope, x, n, op, type, contribute);
}

}  // extern "C"

// The ARMCI_ names: weak aliases of the PARMCI_ definitions (armci_internal.hpp).
REMORA_ARMCI_PROFILED_MSG(armci_msg_barrier);
REMORA_ARMCI_PROFILED_MSG(armci_msg_group_barrier);
