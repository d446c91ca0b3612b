/* SPDX-License-Identifier: MIT */
/*
 * readperf: the version of the headers and of the library.
 *
 * These three numbers are the project's version: CMakeLists.txt reads them
 * from this file (project(VERSION), the SONAME's major, readperf.pc), so
 * a release changes them here and nowhere else.  The SONAME is
 * libreadperf.so.RP_VERSION_MAJOR; see docs/api.md for what a change of each
 * number promises.
 */
#ifndef READPERF_VERSION_H
#define READPERF_VERSION_H

#include <readperf/api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RP_VERSION_MAJOR 0
#define RP_VERSION_MINOR 1
#define RP_VERSION_PATCH 0

/* MAJOR * 10000 + MINOR * 100 + PATCH, for #if comparisons (0.1.0: 100). */
#define RP_VERSION_NUMBER \
	(RP_VERSION_MAJOR * 10000 + RP_VERSION_MINOR * 100 + RP_VERSION_PATCH)

#define RP_VERSION_STR_(x) #x
#define RP_VERSION_XSTR_(x) RP_VERSION_STR_(x)
/* "MAJOR.MINOR.PATCH" of the headers compiled against ("0.1.0"). */
#define RP_VERSION_STRING                                                   \
	RP_VERSION_XSTR_(RP_VERSION_MAJOR) "." RP_VERSION_XSTR_(RP_VERSION_MINOR) \
	"." RP_VERSION_XSTR_(RP_VERSION_PATCH)

/*
 * The version of the library running, "MAJOR.MINOR.PATCH" ("0.1.0"): a
 * static string, never NULL.  A program built against one release and run
 * with another finds out by comparing it with RP_VERSION_STRING.
 */
RP_API const char *rp_version(void);

#ifdef __cplusplus
}
#endif

#endif
