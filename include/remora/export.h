/* Symbol visibility for the Remora C API. */
#ifndef REMORA_EXPORT_H
#define REMORA_EXPORT_H

#if defined(REMORA_BUILDING_LIBRARY)
#define REMORA_API __attribute__((visibility("default")))
#else
#define REMORA_API
#endif

#endif /* REMORA_EXPORT_H */
