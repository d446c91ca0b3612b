/* SPDX-License-Identifier: MIT */
/* The "postgres" output (postgres.h): not written yet. */
#include <readperf/postgres.h>

#include "common/error_int.h"
#include "outputs/output_int.h"

static int rp_postgres_create(void **state, const struct rp_output_env *env, const void *opts,
			      const struct rp_output_target *target, struct rp_error *err)
{
	(void)state;
	(void)env;
	(void)opts;
	(void)target;
	return rp_error_set(err, RP_ERR_UNSUPPORTED, "readperf was built without PostgreSQL");
}

static struct rp_consumer rp_postgres_consumer(void *state)
{
	struct rp_consumer c = { state, NULL, 0 };

	return c;
}

static void rp_postgres_destroy(void *state)
{
	(void)state;
}

const struct rp_output_def rp_output_postgres = {
	.name = "postgres",
	.flags = RP_OUTPUT_PATH | RP_OUTPUT_SYMBOLS,
	.create = rp_postgres_create,
	.consumer = rp_postgres_consumer,
	.destroy = rp_postgres_destroy,
};
