/*
 * simsched/version.h — the library's version, at compile time and at run time.
 *
 * SS_VERSION_* are the version of the headers a program is compiled with;
 * ss_version_number() is the version of the library it runs with. The
 * shared library's SONAME is libsimsched.so.SS_SOVERSION: it changes when a
 * symbol of the public API is removed or changes meaning (docs/library.md).
 */
#ifndef SIMSCHED_VERSION_H
#define SIMSCHED_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

#define SS_VERSION_MAJOR 0
#define SS_VERSION_MINOR 1
#define SS_VERSION_PATCH 0
/** The version as one integer, major × 10000 + minor × 100 + patch (0.1.0 = 100). */
#define SS_VERSION_NUMBER (SS_VERSION_MAJOR * 10000 + SS_VERSION_MINOR * 100 + SS_VERSION_PATCH)
/** True when the headers are at least version maj.min.patch. */
#define SS_VERSION_AT_LEAST(maj, min, patch) (SS_VERSION_NUMBER >= (maj) * 10000 + (min) * 100 + (patch))
/** The ABI generation of the shared library: libsimsched.so.SS_SOVERSION. */
#define SS_SOVERSION 0

/** The library's version as "MAJOR.MINOR.PATCH" (static string; the SS_VERSION_STRING it was built with). */
const char *ss_version(void);
/** The library's SS_VERSION_NUMBER, to compare with the headers' at run time. */
unsigned ss_version_number(void);

#ifdef __cplusplus
}
#endif

#endif
