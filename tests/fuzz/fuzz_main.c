/* SPDX-License-Identifier: MIT */
/*
 * The libFuzzer entry point of one target: built once per target with
 * RP_FUZZ_TARGET set to its name (cmake/fuzz.cmake).
 */
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>

#include "targets.h"

#ifndef RP_FUZZ_TARGET
#error "RP_FUZZ_TARGET must name the target"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct rp_fuzz_target *t;

	if (!t) {
		t = rp_fuzz_find(RP_FUZZ_TARGET);
		if (!t) {
			fprintf(stderr, "no fuzz target %s\n", RP_FUZZ_TARGET);
			abort();
		}
	}
	if (size > RP_FUZZ_MAX_INPUT)
		size = RP_FUZZ_MAX_INPUT;
	t->run(data, size);
	return 0;
}
