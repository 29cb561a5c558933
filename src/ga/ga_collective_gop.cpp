// GA_Brdcst and GA_*gop over the default group (as GA: the world unless
// GA_Pgroup_set_default chose another), on the communicator-taking forms below.
#include "ga/ga_collective_gop.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "ga/ga_registry.hpp"

namespace remora::ga {

namespace {

// x[i] = |x[i]| for real element types (absmax / absmin).
template <typename T>
void absolute(void* x, int n) {
  T* values = static_cast<T*>(x);
  for (int i = 0; i < n; ++i) values[i] = values[i] < T(0) ? T(0) - values[i] : values[i];
}

bool make_absolute(remora_datatype_t type, void* x, int n) {
  switch (type) {
    case REMORA_INT32:
      absolute<int32_t>(x, n);
      return true;
    case REMORA_INT64:
      absolute<int64_t>(x, n);
      return true;
    case REMORA_FLOAT:
      absolute<float>(x, n);
      return true;
    case REMORA_DOUBLE:
      absolute<double>(x, n);
      return true;
    default:
      return false;
  }
}

bool is_complex(remora_datatype_t type) {
  return type == REMORA_FLOAT_COMPLEX || type == REMORA_DOUBLE_COMPLEX;
}

bool is_integer(remora_datatype_t type) {
  return type == REMORA_INT32 || type == REMORA_INT64;
}

}  // namespace

remora_comm_t default_group_comm(const char* fn) {
  require_initialized(fn);
  return pgroup_comm(fn, default_pgroup());
}

void gop(const char* fn, remora_comm_t comm, remora_datatype_t type, void* x, int n,
         const char* op) {
  if (op == nullptr) ga_fail(fn, "op is NULL");
  if (n < 0) ga_fail(fn, "n=%d is negative", n);
  if (x == nullptr && n > 0) ga_fail(fn, "x is NULL (n=%d)", n);
  // GA (through ARMCI) matches ops by their first characters: '+' and '*' by the first one,
  // "max", "min", "absmax", "absmin" and "or" as prefixes ("maximum" is "max").
  auto starts = [op](const char* prefix) {
    return std::strncmp(op, prefix, std::strlen(prefix)) == 0;
  };
  const bool absolute_values = starts("absmax") || starts("absmin");
  remora_op_t reduction = REMORA_OP_SUM;
  if (op[0] == '+')
    reduction = REMORA_OP_SUM;
  else if (op[0] == '*')
    reduction = REMORA_OP_PROD;
  else if (starts("max") || starts("absmax"))
    reduction = REMORA_OP_MAX;
  else if (starts("min") || starts("absmin"))
    reduction = REMORA_OP_MIN;
  else if (starts("or") && is_integer(type))
    reduction = REMORA_OP_BOR;
  else
    ga_fail(fn,
            "op=\"%s\" does not start with \"+\", \"*\", \"max\", \"min\", \"absmax\", "
            "\"absmin\" or (integer types) \"or\"",
            op);
  // GA reduces a complex value as its two real parts, each with the op: "*" multiplies the
  // real parts and the imaginary parts, "absmax" takes the largest absolute real part and the
  // largest absolute imaginary part (checked against GA 5.8).
  if (is_complex(type)) {
    type = type == REMORA_FLOAT_COMPLEX ? REMORA_FLOAT : REMORA_DOUBLE;
    n *= 2;
  }
  if (absolute_values) make_absolute(type, x, n);
  if (n == 0) return;
  check(fn, remora_allreduce(REMORA_IN_PLACE, x, static_cast<size_t>(n), type, reduction, comm,
                             REMORA_COLL_AUTO));
}

void brdcst(const char* fn, remora_comm_t comm, void* buf, int lenbuf, int root) {
  int size = 0;
  check(fn, remora_comm_size(comm, &size));
  if (root < 0 || root >= size)
    ga_fail(fn, "root=%d is not a rank of the group [0, %d)", root, size);
  if (lenbuf < 0) ga_fail(fn, "lenbuf=%d is negative", lenbuf);
  if (buf == nullptr && lenbuf > 0) ga_fail(fn, "buf is NULL (lenbuf=%d)", lenbuf);
  if (lenbuf == 0) return;
  check(fn,
        remora_bcast(buf, static_cast<size_t>(lenbuf), REMORA_UINT8, root, comm, REMORA_COLL_AUTO));
}

}  // namespace remora::ga

using remora::ga::default_group_comm;
using remora::ga::gop;

extern "C" {

void GA_Brdcst(void* buf, int lenbuf, int root) {
  remora::ga::brdcst("GA_Brdcst", default_group_comm("GA_Brdcst"), buf, lenbuf, root);
}

void GA_Igop(int x[], int n, char* op) {
  gop("GA_Igop", default_group_comm("GA_Igop"), REMORA_INT32, x, n, op);
}

void GA_Lgop(long x[], int n, char* op) {
  gop("GA_Lgop", default_group_comm("GA_Lgop"), sizeof(long) == 8 ? REMORA_INT64 : REMORA_INT32, x,
      n, op);
}

void GA_Llgop(long long x[], int n, char* op) {
  gop("GA_Llgop", default_group_comm("GA_Llgop"), REMORA_INT64, x, n, op);
}

void GA_Fgop(float x[], int n, char* op) {
  gop("GA_Fgop", default_group_comm("GA_Fgop"), REMORA_FLOAT, x, n, op);
}

void GA_Dgop(double x[], int n, char* op) {
  gop("GA_Dgop", default_group_comm("GA_Dgop"), REMORA_DOUBLE, x, n, op);
}

void GA_Cgop(SingleComplex x[], int n, char* op) {
  gop("GA_Cgop", default_group_comm("GA_Cgop"), REMORA_FLOAT_COMPLEX, x, n, op);
}

void GA_Zgop(DoubleComplex x[], int n, char* op) {
  gop("GA_Zgop", default_group_comm("GA_Zgop"), REMORA_DOUBLE_COMPLEX, x, n, op);
}

void GA_Gop(int type, void* x, int n, char* op) {
  gop("GA_Gop", default_group_comm("GA_Gop"), remora::ga::datatype_of("GA_Gop", type), x, n, op);
}

}  // extern "C"
