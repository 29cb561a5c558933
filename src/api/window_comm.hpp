// Windows on a communicator (remora_win_allocate_comm): the API layer turns a communicator
// into the rma layer's WindowGroup (members and collectives), since rma sits below coll.
#pragma once

#include <memory>

#include "api/runtime.hpp"
#include "remora/coll.h"
#include "rma/window_group.hpp"

namespace remora::api {

// Collective over comm. *group is nullptr for the world communicator itself (the world window
// path); otherwise the members of comm, with collectives over a private duplicate of comm (so
// the window's own collectives never interleave with the application's on comm, and the
// window keeps working after the application frees comm).
int window_group(const char* function, Runtime& runtime, remora_comm_t comm,
                 std::shared_ptr<const rma::WindowGroup>* group);

}  // namespace remora::api
