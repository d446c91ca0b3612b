/* SPDX-License-Identifier: MIT */
/* Filling a struct rp_error inside the library. */
#ifndef RP_COMMON_ERROR_INT_H
#define RP_COMMON_ERROR_INT_H

#include <stdint.h>

#include <readperf/error.h>

/* Sets err (may be NULL) to code with a printf-style message; returns code. */
int rp_error_set(struct rp_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Same, with the input offset where it happened. */
int rp_error_set_at(struct rp_error *err, int code, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Same, with offset and record type. */
int rp_error_set_record(struct rp_error *err, int code, uint64_t offset, uint32_t type,
			const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
