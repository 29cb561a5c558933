// Collectives over a process group: GA_Pgroup_brdcst and GA_Pgroup_igop / lgop / llgop / fgop /
// dgop / cgop / zgop, on the communicator-taking forms shared with GA_Brdcst and GA_*gop
// (ga_collective_gop.hpp).
#include "ga/ga_collective_gop.hpp"
#include "ga/ga_registry.hpp"

using namespace remora::ga;

extern "C" {

void GA_Pgroup_brdcst(int grp_id, void* buf, int lenbuf, int root) {
  constexpr const char* fn = "GA_Pgroup_brdcst";
  brdcst(fn, pgroup_comm(fn, grp_id), buf, lenbuf, root);
}

void GA_Pgroup_igop(int grp_id, int* x, int n, char* op) {
  constexpr const char* fn = "GA_Pgroup_igop";
  gop(fn, pgroup_comm(fn, grp_id), REMORA_INT32, x, n, op);
}

void GA_Pgroup_lgop(int grp_id, long* x, int n, char* op) {
  constexpr const char* fn = "GA_Pgroup_lgop";
  static_assert(sizeof(long) == sizeof(int64_t), "GA long is 64-bit here");
  gop(fn, pgroup_comm(fn, grp_id), REMORA_INT64, x, n, op);
}

void GA_Pgroup_dgop(int grp_id, double* x, int n, char* op) {
  constexpr const char* fn = "GA_Pgroup_dgop";
  gop(fn, pgroup_comm(fn, grp_id), REMORA_DOUBLE, x, n, op);
}

void GA_Pgroup_llgop(int grp, long long x[], int n, char* op) {
  constexpr const char* fn = "GA_Pgroup_llgop";
  gop(fn, pgroup_comm(fn, grp), REMORA_INT64, x, n, op);
}

void GA_Pgroup_fgop(int grp, float x[], int n, char* op) {
  constexpr const char* fn = "GA_Pgroup_fgop";
  gop(fn, pgroup_comm(fn, grp), REMORA_FLOAT, x, n, op);
}

void GA_Pgroup_cgop(int grp, SingleComplex x[], int n, char* op) {
  constexpr const char* fn = "GA_Pgroup_cgop";
  gop(fn, pgroup_comm(fn, grp), REMORA_FLOAT_COMPLEX, x, n, op);
}

void GA_Pgroup_zgop(int grp, DoubleComplex x[], int n, char* op) {
  constexpr const char* fn = "GA_Pgroup_zgop";
  gop(fn, pgroup_comm(fn, grp), REMORA_DOUBLE_COMPLEX, x, n, op);
}

}  // extern "C"
