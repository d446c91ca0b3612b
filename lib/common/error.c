/* SPDX-License-Identifier: MIT */
#include "common/error_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <readperf/event.h>

const char *rp_strerror(int code)
{
	switch (code) {
	case RP_OK: return "success";
	case RP_ERR_IO: return "input/output error";
	case RP_ERR_NOMEM: return "out of memory";
	case RP_ERR_TRUNCATED: return "truncated";
	case RP_ERR_BAD_MAGIC: return "not a perf.data file";
	case RP_ERR_UNSUPPORTED: return "unsupported";
	case RP_ERR_CORRUPT: return "corrupt";
	case RP_ERR_LIMIT: return "over a limit";
	case RP_ERR_INVAL: return "invalid argument";
	}
	return "unknown error";
}

static int rp_error_vset(struct rp_error *err, int code, const char *fmt, va_list ap)
{
	if (!err)
		return code;
	err->code = code;
	err->sys_errno = 0;
	err->has_offset = 0;
	err->has_record_type = 0;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	return code;
}

int rp_error_set(struct rp_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rp_error_vset(err, code, fmt, ap);
	va_end(ap);
	return code;
}

int rp_error_set_at(struct rp_error *err, int code, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rp_error_vset(err, code, fmt, ap);
	va_end(ap);
	if (err) {
		err->offset = offset;
		err->has_offset = 1;
	}
	return code;
}

int rp_error_set_record(struct rp_error *err, int code, uint64_t offset, uint32_t type,
			const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rp_error_vset(err, code, fmt, ap);
	va_end(ap);
	if (err) {
		err->offset = offset;
		err->has_offset = 1;
		err->record_type = type;
		err->has_record_type = 1;
	}
	return code;
}

char *rp_error_format(const struct rp_error *err, char *buf, unsigned size)
{
	if (!size)
		return buf;
	if (!err || !err->code) {
		snprintf(buf, size, "no error");
		return buf;
	}
	const char *msg = err->msg[0] ? err->msg : rp_strerror(err->code);
	if (err->has_offset && err->has_record_type) {
		const char *name = rp_record_type_name(err->record_type);
		snprintf(buf, size, "%s at offset %#llx: %s (%u)", msg,
			 (unsigned long long)err->offset, name ? name : "unknown",
			 err->record_type);
	} else if (err->has_offset) {
		snprintf(buf, size, "%s at offset %#llx", msg, (unsigned long long)err->offset);
	} else {
		snprintf(buf, size, "%s", msg);
	}
	return buf;
}
