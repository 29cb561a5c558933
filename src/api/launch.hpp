// How this process was started decides its transport: by remorarun (shared memory, the
// launcher's control block), by an MPI launcher or inside an MPI program (the MPI transport,
// when Remora is built with MPI), or alone (shared memory, a job of one rank).
#pragma once

#include <memory>

#include "core/config.hpp"
#include "progress/progress_engine.hpp"
#include "transport/ghost_directory.hpp"
#include "transport/job_control.hpp"
#include "transport/transport.hpp"

namespace remora::api {

// *mode may change from Thread to Manual when MPI cannot serve a progress thread (with a
// warning). *job and *ghosts receive the transport's job control and ghost directory (parts of
// *transport).
int open_transport(int* argc, char*** argv, const Config& config, progress::Mode* mode,
                   std::unique_ptr<transport::Transport>* transport, transport::JobControl** job,
                   const transport::GhostDirectory** ghosts);

// Ends the whole job (MPI_Abort) when MPI carries it; returns otherwise (remorarun or a lone
// process: the caller's exit ends the job).
void end_job(int code);

}  // namespace remora::api
