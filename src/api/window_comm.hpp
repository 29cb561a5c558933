// Windows on a communicator (remora_win_allocate_comm): the API layer turns a communicator
// into the rma layer's WindowGroup (members and collectives), since rma sits below coll.
#pragma once

#include <memory>

#include "api/runtime.hpp"
#include "coll/internal_calls.hpp"
#include "remora/coll.h"
#include "rma/window_group.hpp"

namespace remora::api {

// Collective over comm. *group is nullptr for the world communicator itself (the world window
// path); otherwise the members of comm, with collectives over a private duplicate of comm (so
// the window's own collectives never interleave with the application's on comm, and the
// window keeps working after the application frees comm).
int window_group(const char* function, Runtime& runtime, remora_comm_t comm,
                 std::shared_ptr<const rma::WindowGroup>* group);

// Collective over *comm (the world if comm is NULL): every rank learns whether every rank's
// local checks passed (local_status), so that bad arguments on some ranks fail the call on all
// of them instead of leaving the others waiting in the next collective step. A rank whose own
// checks failed returns its own status and message; the others fail with REMORA_ERR_ARG naming
// the first such rank. An invalid comm is not agreed on (there is nothing to agree over): the
// local status is returned, and window_group reports the communicator.
int agree_on_arguments(const char* function, Runtime& runtime, const remora_comm_t* comm,
                       int local_status);
// As agree_on_arguments, over comm (nullptr: the local status is returned); `outcome` ends the
// message of the ranks whose own checks passed ("no rank created the window").
int agree_over(const char* function, Runtime& runtime, const coll::CommPtr& comm, int local_status,
               const char* outcome);
// The same over any allgather of one value per member (a window's group).
int agree_with(const char* function, const transport::Transport::GroupAllgather& allgather,
               int local_status, const char* outcome);

}  // namespace remora::api
