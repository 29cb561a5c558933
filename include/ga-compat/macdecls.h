/* Global-Arrays-compatible MA declarations (Remora): GA's memory allocator for local buffers
 * (a heap and a stack of typed blocks, limited by MA_init's sizes), which GA programs use beside
 * their arrays; Remora's arrays do not use it (see docs/global-arrays.md, "MA"). The MT_* type
 * codes have GA's numeric values, so programs that pass them to NGA_Create work unchanged. */
#ifndef REMORA_GA_MACDECLS_H
#define REMORA_GA_MACDECLS_H

#ifdef __cplusplus
extern "C" {
#endif

/* GA's Fortran-compatible scalar types (Integer is a 64-bit integer, as in GA's 64-bit builds
 * with 8-byte Fortran integers; F_INT arrays hold Integer elements). */
typedef long Integer;
typedef Integer logical;
typedef Integer Boolean; /* MA_TRUE or MA_FALSE, what the MA calls return */
typedef long MA_AccessIndex;
typedef char* Pointer;
typedef float Real;
typedef double DoublePrecision;
typedef long double MA_LongDouble;
typedef struct {
  float dummy[2];
} MA_SingleComplex;
typedef struct {
  double dummy[2];
} MA_DoubleComplex;
typedef struct {
  double dummy[4];
} MA_LongDoubleComplex;

#define MT_BASE 1000
#define MT_C_CHAR (MT_BASE + 0)
#define MT_C_INT (MT_BASE + 1)
#define MT_C_LONGINT (MT_BASE + 2)
#define MT_C_FLOAT (MT_BASE + 3)
#define MT_C_DBL (MT_BASE + 4)
#define MT_C_LDBL (MT_BASE + 5)
#define MT_C_SCPL (MT_BASE + 6)
#define MT_C_DCPL (MT_BASE + 7)
#define MT_C_LDCPL (MT_BASE + 8)
#define MT_F_BYTE (MT_BASE + 9)
#define MT_F_INT (MT_BASE + 10)
#define MT_F_LOG (MT_BASE + 11)
#define MT_F_REAL (MT_BASE + 12)
#define MT_F_DBL (MT_BASE + 13)
#define MT_F_SCPL (MT_BASE + 14)
#define MT_F_DCPL (MT_BASE + 15)
#define MT_C_LONGLONG (MT_BASE + 16)
#define MT_FIRST MT_C_CHAR
#define MT_LAST MT_C_LONGLONG
#define MT_NUMTYPES (MT_LAST - MT_FIRST + 1)

/* GA's shorter aliases (MT_REAL is C's float, as in GA's macdecls.h). */
#define MT_CHAR MT_C_CHAR
#define MT_INT MT_C_INT
#define MT_LONGINT MT_C_LONGINT
#define MT_LONGLONG MT_C_LONGLONG
#define MT_FLOAT MT_C_FLOAT
#define MT_DBL MT_C_DBL
#define MT_LDBL MT_C_LDBL
#define MT_SCPL MT_C_SCPL
#define MT_DCPL MT_C_DCPL
#define MT_LDCPL MT_C_LDCPL
#define MT_BYTE MT_F_BYTE
#define MT_INTEGER MT_F_INT
#define MT_LOGICAL MT_F_LOG
#define MT_REAL MT_C_FLOAT
#define MT_DBL_PREC MT_F_DBL
#define MT_C_FIRST MT_CHAR
#define MT_C_LAST MT_LDCPL
#define MT_SGL_COMPLEX MT_F_SCPL
#define MT_DBL_COMPLEX MT_F_DCPL

#ifndef MA_TRUE
#define MA_TRUE 1
#define MA_FALSE 0
#endif
#define MA_DEFAULT_SPACE (-1)
#define MA_NAMESIZE 32

/* MA_init(datatype, nominal_stack, nominal_heap): the stack and the heap hold that many
 * elements of datatype together (as in MA, either may grow into the other's free part;
 * MA_DEFAULT_SPACE or another negative size: no limit); once only. Blocks
 * are allocated from the system, each aligned for its type, and cost no overhead (so
 * MA_sizeof_overhead is 0). A failing call prints "MA error: ..." when error_print is on (the
 * default) and returns MA_FALSE, or ends the job when hard_fail is on. The index of a block is
 * its offset in elements from the type's base array (ma_cb_* below, MA_get_mbase), 1-based for
 * the Fortran types, as in MA. */
Boolean MA_init(Integer datatype, Integer nominal_stack, Integer nominal_heap);
Boolean MA_initialized(void);
Boolean MA_alloc_get(Integer datatype, Integer nelem, const char* name, Integer* memhandle,
                     MA_AccessIndex* index);
Boolean MA_allocate_heap(Integer datatype, Integer nelem, const char* name, Integer* memhandle);
Boolean MA_free_heap(Integer memhandle);
/* Frees the last nelem elements of the heap block (all of them: the block). */
Boolean MA_free_heap_piece(Integer memhandle, Integer nelem);
Boolean MA_push_get(Integer datatype, Integer nelem, const char* name, Integer* memhandle,
                    MA_AccessIndex* index);
Boolean MA_push_stack(Integer datatype, Integer nelem, const char* name, Integer* memhandle);
Boolean MA_pop_stack(Integer memhandle);  /* the top block only */
Boolean MA_chop_stack(Integer memhandle); /* memhandle and every block above it */
Boolean MA_get_index(Integer memhandle, MA_AccessIndex* index);
/* pointer: the address of the caller's pointer (void** passed as void*, as in MA). */
Boolean MA_get_pointer(Integer memhandle, void* pointer);
Pointer MA_get_mbase(Integer datatype);
/* As in GA's MA, the memhandle iterator is not implemented: an MA error, MA_FALSE. */
Boolean MA_init_memhandle_iterator(Integer* ithandle);
Boolean MA_get_next_memhandle(Integer* ithandle, Integer* memhandle);
/* Elements of datatype that fit: in the heap's part, in the stack's part (the _check_ forms
 * alike), and in the whole free space (MA_inquire_avail, the _no_partition forms). */
Integer MA_inquire_avail(Integer datatype);
Integer MA_inquire_heap(Integer datatype);
Integer MA_inquire_heap_check_stack(Integer datatype);
Integer MA_inquire_heap_no_partition(Integer datatype);
Integer MA_inquire_stack(Integer datatype);
Integer MA_inquire_stack_check_heap(Integer datatype);
Integer MA_inquire_stack_no_partition(Integer datatype);
/* Elements of datatype2 needed to hold nelem1 elements of datatype1. */
Integer MA_sizeof(Integer datatype1, Integer nelem1, Integer datatype2);
Integer MA_sizeof_overhead(Integer datatype);
/* Alignment of new blocks: 2^value bytes at least (0: the type's own). */
Boolean MA_set_numalign(Integer value);
Boolean MA_get_numalign(Integer* value);
/* Each returns the flag's previous value (initially: auto_verify and hard_fail MA_FALSE,
 * error_print MA_TRUE). auto_verify has no effect (blocks have no guards to verify). */
Boolean MA_set_auto_verify(Boolean value);
Boolean MA_set_hard_fail(Boolean value);
Boolean MA_set_error_print(Boolean value);
/* Called before the job ends on an MA error with hard_fail on. */
void MA_set_error_callback(void (*func)(void));
void MA_trace(Boolean value); /* on: every allocation and free printed to stdout */
void MA_print_stats(Boolean printroutines);
void MA_summarize_allocated_blocks(void);
Boolean MA_verify_allocator_stuff(void); /* MA_TRUE: nothing to verify */

/* The base arrays of the C types (indices count from them). */
extern char ma_cb_char[];
extern int ma_cb_int[];
extern long ma_cb_long[];
extern long long ma_cb_longlong[];
extern float ma_cb_float[];
extern double ma_cb_dbl[];
extern MA_LongDouble ma_cb_ldbl[];
extern MA_SingleComplex ma_cb_scpl[];
extern MA_DoubleComplex ma_cb_dcpl[];
extern MA_LongDoubleComplex ma_cb_ldcpl[];

#ifdef __cplusplus
}
#endif

#endif /* REMORA_GA_MACDECLS_H */
