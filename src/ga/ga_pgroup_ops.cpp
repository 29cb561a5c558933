// Collectives over a process group: GA_Pgroup_brdcst and GA_Pgroup_igop / lgop / dgop with GA's
// ops "+", "*", "max", "min", "absmax", "absmin" (the abs forms take absolute values first, as
// GA does). Written over the group's Remora communicator.
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "ga/ga_registry.hpp"

namespace remora::ga {
namespace {

template <typename T>
void group_gop(const char* fn, int grp, T* x, int n, const char* op, remora_datatype_t type) {
  const remora_comm_t comm = pgroup_comm(fn, grp);
  if (n < 0) ga_fail(fn, "n=%d is negative", n);
  if (n > 0 && x == nullptr) ga_fail(fn, "x is NULL");
  if (op == nullptr) ga_fail(fn, "op is NULL");
  remora_op_t reduce = REMORA_OP_SUM;
  bool absolute = false;
  if (std::strcmp(op, "+") == 0) {
    reduce = REMORA_OP_SUM;
  } else if (std::strcmp(op, "*") == 0) {
    reduce = REMORA_OP_PROD;
  } else if (std::strcmp(op, "max") == 0 || std::strcmp(op, "absmax") == 0) {
    reduce = REMORA_OP_MAX;
    absolute = op[0] == 'a';
  } else if (std::strcmp(op, "min") == 0 || std::strcmp(op, "absmin") == 0) {
    reduce = REMORA_OP_MIN;
    absolute = op[0] == 'a';
  } else {
    ga_fail(fn, "op=\"%s\" is not one of \"+\", \"*\", \"max\", \"min\", \"absmax\", \"absmin\"",
            op);
  }
  if (absolute)
    for (int i = 0; i < n; ++i) x[i] = x[i] < T{} ? -x[i] : x[i];
  if (n > 0)
    check(fn, remora_allreduce(REMORA_IN_PLACE, x, static_cast<size_t>(n), type, reduce, comm,
                               REMORA_COLL_AUTO));
}

}  // namespace
}  // namespace remora::ga

using namespace remora::ga;

extern "C" {

void GA_Pgroup_brdcst(int grp_id, void* buf, int lenbuf, int root) {
  constexpr const char* fn = "GA_Pgroup_brdcst";
  const remora_comm_t comm = pgroup_comm(fn, grp_id);
  const int size = GA_Pgroup_nnodes(grp_id);
  if (root < 0 || root >= size)
    ga_fail(fn, "root=%d is not a rank of process group %d [0, %d)", root, grp_id, size);
  if (lenbuf < 0) ga_fail(fn, "lenbuf=%d is negative", lenbuf);
  if (lenbuf == 0) return;
  if (buf == nullptr) ga_fail(fn, "buf is NULL");
  check(fn,
        remora_bcast(buf, static_cast<size_t>(lenbuf), REMORA_UINT8, root, comm, REMORA_COLL_AUTO));
}

void GA_Pgroup_igop(int grp_id, int* x, int n, char* op) {
  group_gop("GA_Pgroup_igop", grp_id, x, n, op, REMORA_INT32);
}

void GA_Pgroup_lgop(int grp_id, long* x, int n, char* op) {
  static_assert(sizeof(long) == sizeof(int64_t), "GA long is 64-bit here");
  group_gop("GA_Pgroup_lgop", grp_id, x, n, op, REMORA_INT64);
}

void GA_Pgroup_dgop(int grp_id, double* x, int n, char* op) {
  group_gop("GA_Pgroup_dgop", grp_id, x, n, op, REMORA_DOUBLE);
}

}  // extern "C"
