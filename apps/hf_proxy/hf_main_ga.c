/* hf_proxy_ga: the HF proxy (hf_main.c) unchanged, over the Global-Arrays-compatible API
 * (hf_array_ga.c) and started as a GA program: MPI_Init_thread, GA_Initialize, ..., GA_Terminate,
 * MPI_Finalize, under the MPI launcher. The AXPY variants have no GA counterpart and are
 * skipped; rma_nb and rma_blocking run on both layouts with the same options, table rows and
 * checksums as hf_proxy's.
 *
 *   mpiexec -n 4 hf_proxy_ga [--tasks N] [--n N] [--tile B] [--layout NAME|all]
 *                            [--variant rma_nb|rma_blocking|all] [--repetitions R]
 *                            [--progress thread|manual] */
#include <ga.h>
#include <macdecls.h>
#include <mpi.h>
#include <string.h>

#include "hf_driver.h"

int main(int argc, char** argv) {
  hf_options o;
  hf_options_parse(argc, argv, &o);
  const char* progress = hf_choose_progress(&o); /* before GA_Initialize starts Remora */
  /* Remora's progress thread needs MPI_THREAD_MULTIPLE from an application-initialised MPI;
   * without it Remora falls back to manual progress (with a warning), and so does the label. */
  const int wants_thread = strcmp(progress, "thread") == 0;
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, wants_thread ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
  if (wants_thread && provided < MPI_THREAD_MULTIPLE) progress = "manual";
  GA_Initialize();
  MA_init(C_DBL, 1000, 1000); /* MA for local buffers, as GA programs start it (none used) */
  const int code = hf_drive(hf_ga_api(), &o, progress);
  if (code == HF_EXIT_CALL_FAILED) GA_Error("hf_proxy_ga: a call failed", code);
  GA_Terminate();
  MPI_Finalize();
  return code;
}
