/* Misuse of the collective operations ends the job with a message naming the function and the
 * argument, as GA_Error does. The mode (argv[1]) picks the misuse; the CMake registration
 * checks the non-zero exit and the message.
 *   copy_count  NGA_Copy_patch between patches of 4 and 6 elements
 *   gop_op      GA_Dgop with an op GA does not have
 *   dgemm_type  GA_Dgemm on C_INT arrays
 *   dot_trans   NGA_Ddot_patch with t_a = 'X'
 *   recip_zero  GA_Recip on an array of zeros */
#include <mpi.h>
#include <string.h>

#include "ga.h"
#include "macdecls.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  const char* mode = argc > 1 ? argv[1] : "copy_count";
  int dims[2] = {6, 6}, lo[2] = {0, 0}, hi[2] = {1, 1}, hi6[2] = {1, 2};
  int g_a = NGA_Create(C_DBL, 2, dims, "a", NULL), g_i = NGA_Create(C_INT, 2, dims, "i", NULL);
  double x[1] = {1};
  if (strcmp(mode, "copy_count") == 0) NGA_Copy_patch('N', g_a, lo, hi, g_a, lo, hi6);
  if (strcmp(mode, "gop_op") == 0) GA_Dgop(x, 1, "avg");
  if (strcmp(mode, "dgemm_type") == 0) GA_Dgemm('N', 'N', 2, 2, 2, 1.0, g_i, g_i, 0.0, g_i);
  if (strcmp(mode, "dot_trans") == 0) NGA_Ddot_patch(g_a, 'X', lo, hi, g_a, 'N', lo, hi);
  if (strcmp(mode, "recip_zero") == 0) GA_Recip(g_a);
  /* Not reached: every rank fails in the collective call above. */
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
