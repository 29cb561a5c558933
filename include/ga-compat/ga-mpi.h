/* Global-Arrays-compatible MPI interoperability (Remora): the communicators GA runs on. */
#ifndef REMORA_GA_MPI_H
#define REMORA_GA_MPI_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The communicator of GA's world group (every rank GA_Initialize* brought in). */
MPI_Comm GA_MPI_Comm(void);
/* The communicator of process group p_handle, and of the default group. */
MPI_Comm GA_MPI_Comm_pgroup(int p_handle);
MPI_Comm GA_MPI_Comm_pgroup_default(void);

#ifdef __cplusplus
}
#endif

#endif /* REMORA_GA_MPI_H */
