/* export.h — MOORE_API marks the declarations that form libmoore's API.
 *
 * libmoore is compiled with hidden visibility (-fvisibility=hidden), so only
 * functions declared with MOORE_API are exported from libmoore.so; everything
 * else, including the internals of src/ with their module prefixes, stays
 * private to the library. Every public header includes this one. */
#ifndef MOORE_EXPORT_H
#define MOORE_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define MOORE_API __attribute__((visibility("default")))
#else
#define MOORE_API
#endif

#endif
