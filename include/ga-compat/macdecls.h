/* Global-Arrays-compatible MA declarations (Remora). Remora needs no MA allocator: MA_init and
 * the MA_set_* calls are accepted and do nothing (see docs/global-arrays.md). The MT_* type
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
typedef Integer MA_AccessIndex;
typedef char* Pointer;
typedef float Real;
typedef double DoublePrecision;

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

/* GA's shorter aliases. */
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
#define MT_REAL MT_F_REAL
#define MT_DBL_PREC MT_F_DBL
#define MT_SGL_COMPLEX MT_F_SCPL
#define MT_DBL_COMPLEX MT_F_DCPL

#ifndef MA_TRUE
#define MA_TRUE 1
#define MA_FALSE 0
#endif

/* Accepted and ignored (Remora allocates array memory itself): MA_init returns MA_TRUE; the
 * MA_set_* calls return the flag's previous value, as MA's do (initially: auto_verify and
 * hard_fail MA_FALSE, error_print MA_TRUE). */
Boolean MA_init(Integer datatype, Integer nominal_stack, Integer nominal_heap);
Boolean MA_set_auto_verify(Integer value);
Boolean MA_set_hard_fail(Integer value);
Boolean MA_set_error_print(Integer value);

#ifdef __cplusplus
}
#endif

#endif /* REMORA_GA_MACDECLS_H */
