/* ARMCI's message-passing calls (armci_msg_*) on Remora's collectives (libremora_armci). The
 * declarations match ARMCI-MPI's message.h for every call provided here. Collectives are over
 * every ARMCI rank. */
#ifndef HAVE_ARMCI_MSG_H
#define HAVE_ARMCI_MSG_H

#include <armci.h>

/* SCOPE_ALL: every rank; SCOPE_NODE: the ranks of this rank's node; SCOPE_MASTERS: as
 * SCOPE_ALL (as in ARMCI-MPI). */
enum armci_scope_e { SCOPE_ALL, SCOPE_NODE, SCOPE_MASTERS };

enum armci_type_e { ARMCI_INT, ARMCI_LONG, ARMCI_LONG_LONG, ARMCI_FLOAT, ARMCI_DOUBLE };

#ifdef __cplusplus
extern "C" {
#endif

int armci_msg_me(void);
int armci_msg_nproc(void);

void armci_msg_abort(int code);
double armci_timer(void);

/* Point to point: len bytes to rank to, received with the same tag (messages of one tag from
 * one sender arrive in order). rcv fails when the message is longer than buflen; *msglen (may
 * be NULL) receives its length. rcvany takes the first message of tag from any rank and returns
 * the sender. */
void armci_msg_snd(int tag, void* buffer, int len, int to);
void armci_msg_rcv(int tag, void* buffer, int buflen, int* msglen, int from);
int armci_msg_rcvany(int tag, void* buffer, int buflen, int* msglen);

void armci_msg_barrier(void);
/* Collective over the members of group. */
void armci_msg_group_barrier(ARMCI_Group* group);
/* A binary tree over the ranks of scope (ranks; -1 where there is none). */
void armci_msg_bintree(int scope, int* Root, int* Up, int* Left, int* Right);

/* len bytes from root (a rank of scope) to every rank of scope. */
void armci_msg_bcast(void* buffer, int len, int root);
void armci_msg_bcast_scope(int scope, void* buffer, int len, int root);
void armci_msg_brdcst(void* buffer, int len, int root);
/* Over the members of group (SCOPE_NODE: those on this rank's node); root is an absolute rank
 * (a member; on this node for SCOPE_NODE), as in ARMCI-MPI. */
void armci_msg_group_bcast_scope(int scope, void* buf, int len, int root, ARMCI_Group* group);

/* Elementwise reductions of x[0..n) over the ranks, result on every rank. op: "+", "*", "max",
 * "min", "absmax", "absmin" (compared by prefix, as ARMCI does); integer types also "or" (bitwise).
 * type: an armci_type_e. */
void armci_msg_gop_scope(int scope, void* x, int n, char* op, int type);
void armci_msg_igop(int* x, int n, char* op);
void armci_msg_lgop(long* x, int n, char* op);
void armci_msg_llgop(long long* x, int n, char* op);
void armci_msg_fgop(float* x, int n, char* op);
void armci_msg_dgop(double* x, int n, char* op);
/* The same over the members of group (SCOPE_NODE: those on this rank's node). */
void armci_msg_group_gop_scope(int scope, void* x, int n, char* op, int type, ARMCI_Group* group);
void armci_msg_group_igop(int* x, int n, char* op, ARMCI_Group* group);
void armci_msg_group_lgop(long* x, int n, char* op, ARMCI_Group* group);
void armci_msg_group_llgop(long long* x, int n, char* op, ARMCI_Group* group);
void armci_msg_group_fgop(float* x, int n, char* op, ARMCI_Group* group);
void armci_msg_group_dgop(double* x, int n, char* op, ARMCI_Group* group);

/* Reductions as the gop calls (ARMCI: the result on the scope's first rank; here on every rank of
 * the scope, the first included). */
void armci_msg_reduce(void* x, int n, char* op, int type);
void armci_msg_reduce_scope(int scope, void* x, int n, char* op, int type);

/* ARMCI 1.x's node ("cluster") forms: gop within this rank's node (SCOPE_NODE); clus_brdcst:
 * len bytes from the node's lowest rank to the node's ranks; grp_clus_brdcst: from grp_master
 * (an absolute rank on this node) to the members of mastergroup on this node, of which there
 * must be grp_clus_nproc. */
void armci_msg_clus_brdcst(void* buf, int len);
void armci_msg_clus_igop(int* x, int n, char* op);
void armci_msg_clus_fgop(float* x, int n, char* op);
void armci_msg_clus_lgop(long* x, int n, char* op);
void armci_msg_clus_llgop(long long* x, int n, char* op);
void armci_msg_clus_dgop(double* x, int n, char* op);
void armci_grp_clus_brdcst(void* buf, int len, int grp_master, int grp_clus_nproc,
                           ARMCI_Group* mastergroup);

/* Collective: ptr_ar[r] (n entries, n = the number of ARMCI ranks, or of group's members for
 * _grp, indexed by group rank) receives rank r's ptr_ar[r]. */
void armci_exchange_address(void* ptr_ar[], int n);
void armci_exchange_address_grp(void* ptr_arr[], int n, ARMCI_Group* group);

/* Selection: op "min" or "max" over the ranks that contribute (contribute != 0) of the first
 * element of x; x (n bytes: the value and what goes with it) of the rank holding the selected
 * value is copied to every rank (the lowest such rank on ties). */
void armci_msg_sel(void* x, int n, char* op, int type, int contribute);
void armci_msg_sel_scope(int scope, void* x, int n, char* op, int type, int contribute);

/* Profiling names of the barriers (armci.h: the profiling interface). */
void parmci_msg_barrier(void);
void parmci_msg_group_barrier(ARMCI_Group* group);

#ifdef __cplusplus
}
#endif

#endif /* HAVE_ARMCI_MSG_H */
