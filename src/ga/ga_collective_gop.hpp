// GA's global operations (GA_*gop) and broadcast (GA_Brdcst) on any Remora communicator, so
// that the world forms here and the process-group forms (GA_Pgroup_*gop / _brdcst) share one
// implementation: the pgroup functions pass their group's communicator.
#pragma once

#include "remora.h"

namespace remora::ga {

// x[0..n-1] (elements of `type`) combined element-wise over comm with GA's op name: "+",
// "*", "max", "min", "absmax", "absmin" (complex types: "+" and "*"); every member gets the
// result. Fails like GA_Error (naming fn) for a bad op, n < 0 or x NULL with n > 0.
void gop(const char* fn, remora_comm_t comm, remora_datatype_t type, void* x, int n,
         const char* op);
// lenbuf bytes of buf from root (a rank of comm) to every member of comm.
void brdcst(const char* fn, remora_comm_t comm, void* buf, int lenbuf, int root);
// The communicator of GA's default group (the world unless GA_Pgroup_set_default chose another).
remora_comm_t default_group_comm(const char* fn);

}  // namespace remora::ga
