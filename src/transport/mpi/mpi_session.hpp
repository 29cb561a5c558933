// Who owns MPI: if the application called MPI_Init, Remora uses that MPI and never finalises
// it; otherwise Remora initialises MPI (asking for MPI_THREAD_MULTIPLE when a progress thread
// will run, except with Open MPI 4, see mpi_session.cpp) and finalises it when the session ends.
#pragma once

#include <memory>

namespace remora::mpi {

// Whether this process was started by an MPI launcher (mpiexec, srun: PMI/PMIx/Open MPI
// environment variables) or the application has already initialised MPI.
bool started_by_mpi();

class Session {
 public:
  // want_multiple: a progress thread will call MPI concurrently with the application.
  static int open(int* argc, char*** argv, bool want_multiple, std::unique_ptr<Session>* out);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  bool owns_mpi() const { return owns_; }
  int thread_level() const { return provided_; }
  // Whether a progress thread may call MPI next to the application's threads.
  bool serves_progress_thread() const;

 private:
  Session(bool owns, int provided) : owns_(owns), provided_(provided) {}
  bool owns_;
  int provided_;
};

const char* thread_level_name(int level);

// The communicator the job spans: MPI_COMM_WORLD unless remora_init_mpi_comm chose another
// (set before the transport is built; the transport duplicates it).
void set_job_comm(const void* comm);  // points to an MPI_Comm
const void* job_comm();

// Ends every process of the job through MPI_Abort if MPI is up; returns otherwise.
void abort_job(int code);

}  // namespace remora::mpi
