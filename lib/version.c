/* SPDX-License-Identifier: MIT */
/* rp_version(): the library's own version, from include/readperf/version.h. */
#include <readperf/version.h>

const char *rp_version(void)
{
	return RP_VERSION_STRING;
}
