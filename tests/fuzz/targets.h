/* SPDX-License-Identifier: MIT */
/*
 * The fuzz targets of readperf: one per entry point that reads a file's
 * bytes (docs/robustness.md lists them).  Each target takes one input (the
 * bytes of a perf.data file, or for `pipe` of a pipe-mode stream), hands
 * it to the library through a path (a memfd, /proc/self/fd/N, or a pipe)
 * and drives one API to the end: errors are expected, crashes, leaks and
 * sanitizer reports are findings.
 *
 * The same code runs under libFuzzer (fuzz_main.c, one binary per target)
 * and in the replay driver (replay.c, every input through every target).
 */
#ifndef RP_FUZZ_TARGETS_H
#define RP_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

/* Inputs larger than this are cut (bytes): the cap keeps a run short. */
#define RP_FUZZ_MAX_INPUT (1u << 20)

struct rp_fuzz_target {
	const char *name;
	/* Runs one input; returns 0 (whatever the library said about it). */
	int (*run)(const uint8_t *data, size_t size);
};

/* Every target, NULL-terminated. */
extern const struct rp_fuzz_target rp_fuzz_targets[];

/* The target called name, or NULL. */
const struct rp_fuzz_target *rp_fuzz_find(const char *name);

#endif
