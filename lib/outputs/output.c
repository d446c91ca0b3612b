/* SPDX-License-Identifier: MIT */
/* The outputs by name, behind one contract (include/readperf/output.h). */
#include <stdlib.h>
#include <string.h>

#include "common/error_int.h"
#include "common/opts.h"
#include "outputs/output_int.h"

/* Every output of the library, in the order rp_output_names() gives. */
static const struct rp_output_def *const rp_output_defs[] = {
	&rp_output_report,
	&rp_output_collapse,
	&rp_output_flamegraph,
	&rp_output_annotate,
	&rp_output_csv,
	&rp_output_dump,
	&rp_output_json,
	&rp_output_script,
	&rp_output_stats,
	&rp_output_header,
	&rp_output_html,
	&rp_output_sqlite,
	&rp_output_postgres,
	&rp_output_pprof,
	&rp_output_diff,
};

#define RP_NR_OUTPUTS (sizeof(rp_output_defs) / sizeof(rp_output_defs[0]))

struct rp_output {
	const struct rp_output_def *def;
	void *state;
	int finished;
};

static const struct rp_output_def *rp_output_lookup(const char *name)
{
	for (size_t i = 0; name && i < RP_NR_OUTPUTS; i++)
		if (!strcmp(rp_output_defs[i]->name, name))
			return rp_output_defs[i];
	return NULL;
}

const char *rp_output_name(size_t i)
{
	return i < RP_NR_OUTPUTS ? rp_output_defs[i]->name : NULL;
}

int rp_output_flags(const char *name)
{
	const struct rp_output_def *def = rp_output_lookup(name);

	if (!def)
		return RP_ERR_INVAL;
	return (int)(def->flags | (def->merge ? RP_OUTPUT_MERGE : 0));
}

int rp_output_new(struct rp_output **out, const char *name, const struct rp_output_env *env,
		  const void *opts, const struct rp_output_target *target, struct rp_error *err)
{
	const struct rp_output_def *def = rp_output_lookup(name);
	struct rp_output_env e;
	struct rp_output_target t;
	struct rp_output *o;
	int ret;

	if (!out)
		return rp_error_set(err, RP_ERR_INVAL, "rp_output_new: no place for the output");
	*out = NULL;
	if (!def)
		return rp_error_set(err, RP_ERR_INVAL, "no output called '%s'", name ? name : "");
	if (def->unavailable)
		return rp_error_set(err, RP_ERR_UNSUPPORTED, "%s", def->unavailable);
	if (rp_opts_copy(&e, sizeof(e), env) < 0 || !e.session)
		return rp_error_set(err, RP_ERR_INVAL, "bad rp_output_env (no session?)");
	if (rp_opts_copy(&t, sizeof(t), target) < 0)
		return rp_error_set(err, RP_ERR_INVAL, "bad rp_output_target");
	if ((def->flags & RP_OUTPUT_PATH) ? !t.path : !t.stream)
		return rp_error_set(err, RP_ERR_INVAL, "writes to a %s: none given",
				    (def->flags & RP_OUTPUT_PATH) ? "path" : "stream");
	o = calloc(1, sizeof(*o));
	if (!o)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	o->def = def;
	ret = def->create(&o->state, &e, opts, &t, err);
	if (ret < 0) {
		free(o);
		return ret;
	}
	*out = o;
	return 0;
}

struct rp_consumer rp_output_consumer(struct rp_output *o)
{
	return o->def->consumer(o->state);
}

int rp_output_merge(struct rp_output *into, struct rp_output *from, struct rp_error *err)
{
	if (!into || !from || into == from || into->def != from->def)
		return rp_error_set(err, RP_ERR_INVAL, "rp_output_merge: not two outputs of one kind");
	if (!into->def->merge)
		return rp_error_set(err, RP_ERR_UNSUPPORTED, "cannot merge outputs");
	if (into->finished)
		return rp_error_set(err, RP_ERR_INVAL, "merge after finish");
	return into->def->merge(into->state, from->state, err);
}

int rp_output_finish(struct rp_output *o, struct rp_error *err)
{
	if (o->finished)
		return rp_error_set(err, RP_ERR_INVAL, "finished twice");
	o->finished = 1;
	return o->def->finish ? o->def->finish(o->state, err) : 0;
}

const char *rp_output_warnings(struct rp_output *o)
{
	return o->def->warnings ? o->def->warnings(o->state) : NULL;
}

void rp_output_free(struct rp_output *o)
{
	if (!o)
		return;
	o->def->destroy(o->state);
	free(o);
}
