/* ARMCI-MPI's extensions (the armcix.h that Global Arrays installs beside armci.h), on Remora:
 * groups made by splitting or duplicating a group, batches of mutexes over a group (mutex
 * handles, so that a library can have mutexes of its own beside ARMCI_Create_mutexes'), and
 * explicit progress.
 *
 * ARMCIX_Group_split: collective over parent (this rank must be a member); the members passing
 * the same color (>= 0) form one new group, ordered by key and then by rank in parent, as
 * MPI_Comm_split. ARMCIX_Group_dup: collective over parent; a new group of the same members.
 * Both return 0; free the result with ARMCI_Group_free.
 *
 * ARMCIX_Create_mutexes_hdl: collective over pgroup; this rank creates count mutexes (counts may
 * differ per rank). In Lock / Trylock / Unlock, proc is the absolute (world) rank of a member
 * of that group, as in ARMCI-MPI, and mutex one of the mutexes proc created.
 * ARMCIX_Trylock_hdl returns 0 when it took the mutex and 1 when another rank holds it (as
 * ARMCI-MPI's spinning mutexes; its default, queueing build waits for the mutex instead).
 * ARMCIX_Unlock_hdl completes this rank's ARMCI operations first (as
 * ARMCI_Unlock), so what was written under the lock is visible to the next holder.
 * ARMCIX_Destroy_mutexes_hdl: collective over the group; returns 0. Handles still alive at
 * ARMCI_Finalize are destroyed there. The handle is opaque (ARMCI-MPI's exposes MPI windows).
 *
 * ARMCIX_Progress: lets Remora serve requests from other ranks (remora_progress). */
#ifndef REMORA_ARMCIX_H
#define REMORA_ARMCIX_H

#include <stdint.h>

#include "armci.h"

#ifdef __cplusplus
extern "C" {
#endif

int ARMCIX_Group_split(ARMCI_Group* parent, int color, int key, ARMCI_Group* new_group);
int ARMCIX_Group_dup(ARMCI_Group* parent, ARMCI_Group* new_group);

typedef struct armcix_mutex_hdl_s* armcix_mutex_hdl_t;

armcix_mutex_hdl_t ARMCIX_Create_mutexes_hdl(int count, ARMCI_Group* pgroup);
int ARMCIX_Destroy_mutexes_hdl(armcix_mutex_hdl_t hdl);
void ARMCIX_Lock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc);
int ARMCIX_Trylock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc);
void ARMCIX_Unlock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc);

void ARMCIX_Progress(void);

#ifdef __cplusplus
}
#endif

#endif /* REMORA_ARMCIX_H */
