/* SPDX-License-Identifier: MIT */
/*
 * readperf: error codes and error details.
 *
 * Every library function returns 0 (or a count) on success and a negative
 * enum rp_err on failure.  Details (file offset, record type, errno, a
 * message) are kept in a struct rp_error owned by the handle that failed.
 */
#ifndef READPERF_ERROR_H
#define READPERF_ERROR_H

#include <stdint.h>

#include <readperf/api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum rp_err {
	RP_OK = 0,
	RP_ERR_IO = -1,          /* open/read/mmap failed; see rp_error.sys_errno */
	RP_ERR_NOMEM = -2,       /* an allocation failed */
	RP_ERR_TRUNCATED = -3,   /* the file ends inside a structure */
	RP_ERR_BAD_MAGIC = -4,   /* not a perf.data file */
	RP_ERR_UNSUPPORTED = -5, /* a valid but unsupported variant (PERFFILE v1) */
	RP_ERR_CORRUPT = -6,     /* a structure contradicts itself or the file */
	RP_ERR_LIMIT = -7,       /* a count or length exceeds a named cap */
	RP_ERR_INVAL = -8,       /* the caller passed an invalid argument */
};

/* Size of the message buffer in struct rp_error, in bytes. */
#define RP_ERROR_MSG_MAX 256

/*
 * Where and why something failed.  offset is a byte offset in the input
 * (the file, or the stream for pipe input) when has_offset is set;
 * record_type is a PERF_RECORD_* value when has_record_type is set.
 */
struct rp_error {
	int code;                /* enum rp_err, 0 when nothing failed */
	int sys_errno;           /* errno of a failed system call, else 0 */
	uint64_t offset;
	uint32_t record_type;
	uint8_t has_offset;
	uint8_t has_record_type;
	char msg[RP_ERROR_MSG_MAX]; /* one line, no trailing newline */
};

/* A static, human-readable name for an enum rp_err ("truncated", ...). */
RP_API const char *rp_strerror(int code);

/*
 * Formats err as one line into buf (at most size bytes, NUL-terminated):
 * "<msg>" followed by " at offset 0x...: NAME (type)" when known.
 * Returns buf.  Never fails; a NULL or empty error gives "no error".
 */
RP_API char *rp_error_format(const struct rp_error *err, char *buf, unsigned size);

#ifdef __cplusplus
}
#endif

#endif
