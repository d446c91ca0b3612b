/* SPDX-License-Identifier: MIT */
/*
 * Several recordings in one command (readperf collapse|pprof FILE|DIR...):
 * the arguments expanded into recordings, each recording read by a worker
 * thread of its own (at most -j at once) into an output of its own, and
 * the outputs handed back to the command's thread in the order of the
 * arguments, where they are merged (rp_output_merge()) or written one by
 * one.  The order of the hand-back, not the workers' timing, decides the
 * result: -j 1 and -j 8 give the same bytes.  docs/multi.md.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Recordings one command takes (arguments and directory entries). */
#define CLI_MAX_RECORDINGS 65536u

static int cli_paths_push(struct cli_paths *paths, const char *path)
{
	if (paths->nr >= CLI_MAX_RECORDINGS) {
		cli_errorf("more than %u recordings", CLI_MAX_RECORDINGS);
		return RP_EXIT_USAGE;
	}
	if (paths->nr == paths->alloc) {
		size_t n = paths->alloc ? paths->alloc * 2 : 8;
		char **v = realloc(paths->v, n * sizeof(*v));

		if (!v)
			goto nomem;
		paths->v = v;
		paths->alloc = n;
	}
	if (!(paths->v[paths->nr] = strdup(path)))
		goto nomem;
	paths->nr++;
	return 0;
nomem:
	cli_errorf("out of memory");
	return RP_EXIT_BAD_INPUT;
}

/* Whether dir is one recording: perf record --threads (or --kcore)
 * writes a directory whose header is the file `data`. */
static int cli_dir_is_recording(const char *dir)
{
	char buf[4096];
	struct stat st;
	int n = snprintf(buf, sizeof(buf), "%s/data", dir);

	return n > 0 && (size_t)n < sizeof(buf) && stat(buf, &st) == 0 && S_ISREG(st.st_mode);
}

static int cli_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The perf.data* entries of dir (files, and --threads directories), by
 * name. */
static int cli_paths_dir(struct cli_paths *paths, const char *dir)
{
	struct cli_paths names = { 0 };
	struct dirent *de;
	DIR *d = opendir(dir);
	int status = 0;
	char buf[4096];

	if (!d) {
		cli_errorf("%s: cannot open directory: %s", dir, strerror(errno));
		return RP_EXIT_BAD_INPUT;
	}
	while (!status && (de = readdir(d)) != NULL) {
		struct stat st;
		int n;

		if (strncmp(de->d_name, "perf.data", 9))
			continue;
		n = snprintf(buf, sizeof(buf), "%s%s%s", dir,
			     dir[strlen(dir) - 1] == '/' ? "" : "/", de->d_name);
		if (n < 0 || (size_t)n >= sizeof(buf) || stat(buf, &st) < 0)
			continue;
		if (S_ISREG(st.st_mode) || (S_ISDIR(st.st_mode) && cli_dir_is_recording(buf)))
			status = cli_paths_push(&names, buf);
	}
	closedir(d);
	if (!status && !names.nr) {
		cli_errorf("%s: no recording in this directory (no perf.data* file, no data "
			   "file of perf record --threads)",
			   dir);
		status = RP_EXIT_BAD_INPUT;
	}
	if (names.nr)
		qsort(names.v, names.nr, sizeof(*names.v), cli_name_cmp);
	for (size_t i = 0; !status && i < names.nr; i++)
		status = cli_paths_push(paths, names.v[i]);
	cli_paths_release(&names);
	return status;
}

int cli_paths_add(struct cli_paths *paths, const char *arg)
{
	struct stat st;

	if (strcmp(arg, "-") && stat(arg, &st) == 0 && S_ISDIR(st.st_mode) &&
	    !cli_dir_is_recording(arg))
		return cli_paths_dir(paths, arg);
	/* a file, "-", a --threads directory, or a path whose error the
	 * opening reports */
	return cli_paths_push(paths, arg);
}

void cli_paths_release(struct cli_paths *paths)
{
	for (size_t i = 0; i < paths->nr; i++)
		free(paths->v[i]);
	free(paths->v);
	memset(paths, 0, sizeof(*paths));
}

/* --- the workers --- */

struct cli_multi_run {
	const struct cli_paths *paths;
	const struct cli_multi_opts *opts;
	const struct cli_multi_ops *ops;
	void *ctx;
	struct cli_job *jobs;
	unsigned pipeline_threads;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t next;      /* the next job a worker takes */
	size_t handed;    /* jobs handed back so far */
	size_t window;    /* jobs processed ahead of the hand-back, at most */
	int stop;
};

/* Reads job's recording into its output (in the worker's thread). */
static void cli_job_run(struct cli_multi_run *r, struct cli_job *job)
{
	const struct cli_multi_opts *o = r->opts;

	job->status = cli_input_open(&job->in, job->path, o->order, o->sym);
	if (job->status)
		return;
	job->opened = 1;
	job->in.threads = r->pipeline_threads;
	if ((job->status = cli_input_filter(&job->in, o->filters ? &o->filters[job->idx] : o->filter)))
		return;
	if ((job->status = r->ops->open(r->ctx, job)))
		return;
	struct rp_consumer c[2];
	size_t nr = 0;
	struct rp_progress *progress = NULL;

	if (job->out)
		c[nr++] = rp_output_consumer(job->out);
	/* A bar for one recording only: several would share the line. */
	if (o->progress && r->paths->nr == 1 &&
	    (progress = rp_progress_new(stderr, job->in.session, 0)))
		c[nr++] = rp_progress_consumer(progress);
	job->status = cli_input_run(&job->in, c, nr);
	job->processed = 1;
	rp_progress_finish(progress);
	rp_progress_free(progress);
}

static void *cli_worker(void *arg)
{
	struct cli_multi_run *r = arg;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		while (!r->stop && r->next < r->paths->nr && r->next >= r->handed + r->window)
			pthread_cond_wait(&r->cond, &r->lock);
		if (r->stop || r->next >= r->paths->nr)
			break;
		struct cli_job *job = &r->jobs[r->next++];

		pthread_mutex_unlock(&r->lock);
		/* Its messages wait for the hand-back: recordings read ahead
		 * print nothing out of order, nor after one that stopped the
		 * run (as with -j 1). */
		FILE *msg = open_memstream(&job->messages, &job->messages_len);

		cli_messages_to(msg);
		cli_job_run(r, job);
		cli_messages_to(NULL);
		if (msg)
			fclose(msg);
		pthread_mutex_lock(&r->lock);
		job->finished = 1;
		pthread_cond_broadcast(&r->cond);
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

static void cli_job_release(struct cli_job *job)
{
	rp_output_free(job->out);
	job->out = NULL;
	if (job->opened)
		cli_input_close(&job->in);
	job->opened = 0;
}

unsigned cli_multi_workers(const struct cli_multi_opts *opts, size_t nr)
{
	unsigned jobs = opts->jobs;

	if (!jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = n > 0 ? (unsigned)n : 1;
	}
	return nr < jobs ? (unsigned)(nr ? nr : 1) : jobs;
}

int cli_multi_run(const struct cli_paths *paths, const struct cli_multi_opts *opts,
		  const struct cli_multi_ops *ops, void *ctx)
{
	struct cli_multi_run r = { .paths = paths, .opts = opts, .ops = ops, .ctx = ctx };
	unsigned workers = cli_multi_workers(opts, paths->nr);
	unsigned jobs = opts->jobs ? opts->jobs : workers;
	pthread_t *threads = NULL;
	unsigned started = 0;
	int status = 0;

	r.jobs = calloc(paths->nr ? paths->nr : 1, sizeof(*r.jobs));
	if (!r.jobs) {
		cli_errorf("out of memory");
		return RP_EXIT_BAD_INPUT;
	}
	for (size_t i = 0; i < paths->nr; i++) {
		r.jobs[i].idx = i;
		r.jobs[i].path = paths->v[i];
	}
	/* One worker: the pipeline takes -j as for one file (0: its
	 * default).  Several: each pipeline its share of -j. */
	r.pipeline_threads = workers > 1 ? (jobs / workers ? jobs / workers : 1) : 0;
	/* a recording read ahead of the merge order beyond the workers: one
	 * (each held costs its session, machine, symbols and output) */
	r.window = (size_t)workers + 1;
	pthread_mutex_init(&r.lock, NULL);
	pthread_cond_init(&r.cond, NULL);
	if (workers > 1 && (threads = calloc(workers, sizeof(*threads)))) {
		for (; started < workers; started++)
			if (pthread_create(&threads[started], NULL, cli_worker, &r))
				break;
	}
	for (size_t i = 0; i < paths->nr; i++) {
		struct cli_job *job = &r.jobs[i];
		int st;

		if (started) {
			pthread_mutex_lock(&r.lock);
			while (!job->finished)
				pthread_cond_wait(&r.cond, &r.lock);
			pthread_mutex_unlock(&r.lock);
		} else {
			/* no worker thread (-j 1, or none could start) */
			cli_job_run(&r, job);
		}
		if (job->messages_len)
			fwrite(job->messages, 1, job->messages_len, stderr);
		if (job->status > status)
			status = job->status;
		st = ops->done(ctx, job);
		cli_job_release(job);
		pthread_mutex_lock(&r.lock);
		r.handed = i + 1;
		if (st)
			r.stop = 1;
		pthread_cond_broadcast(&r.cond);
		pthread_mutex_unlock(&r.lock);
		if (st) {
			if (st > status)
				status = st;
			break;
		}
	}
	for (unsigned t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
	for (size_t i = 0; i < paths->nr; i++) {
		cli_job_release(&r.jobs[i]);
		free(r.jobs[i].messages);
	}
	free(threads);
	free(r.jobs);
	pthread_cond_destroy(&r.cond);
	pthread_mutex_destroy(&r.lock);
	return status;
}

/* --- merging outputs --- */

struct cli_merge {
	const char *name;
	int strict;
	const void *opts;
	const struct rp_output_target *target;
	/* the first recording that made an output: the result, merged into */
	struct cli_job first;
	int have_first;
	int failed; /* a merge failed */
};

static int cli_merge_open(void *ctx, struct cli_job *job)
{
	struct cli_merge *m = ctx;
	struct rp_output_env env = { .sz = sizeof(env),
				     .session = job->in.session,
				     .machine = job->in.machine,
				     .symbols = job->in.symbols,
				     .filter = job->in.filter };
	struct rp_error err = { 0 };

	if (rp_output_new(&job->out, m->name, &env, m->opts, m->target, &err) < 0) {
		cli_error(m->name, &err);
		return err.code == RP_ERR_INVAL || err.code == RP_ERR_UNSUPPORTED ?
			       RP_EXIT_USAGE :
			       RP_EXIT_BAD_INPUT;
	}
	return 0;
}

static int cli_merge_done(void *ctx, struct cli_job *job)
{
	struct cli_merge *m = ctx;
	struct rp_error err = { 0 };

	/* Each recording has its place: without one, nothing is written. */
	if (m->strict && (!job->out || !job->processed || job->status)) {
		m->failed = 1;
		return job->status ? job->status : RP_EXIT_BAD_INPUT;
	}
	/* A recording that could not be read at all adds nothing; one whose
	 * reading stopped at an error adds what was read before it. */
	if (!job->out || !job->processed)
		return job->status == RP_EXIT_USAGE ? RP_EXIT_USAGE : 0;
	if (!m->have_first) {
		/* The result lives on with its recording's session; its machine
		 * and symbols, the bulk, go now (output.h: RP_OUTPUT_MERGE). */
		m->first = *job;
		m->have_first = 1;
		job->out = NULL;
		job->opened = 0;
		rp_filter_free(m->first.in.filter);
		rp_symbols_free(m->first.in.symbols);
		rp_machine_free(m->first.in.machine);
		m->first.in.filter = NULL;
		m->first.in.symbols = NULL;
		m->first.in.machine = NULL;
		return 0;
	}
	if (rp_output_merge(m->first.out, job->out, &err) < 0) {
		cli_error(job->path, &err);
		m->failed = 1;
		return RP_EXIT_BAD_INPUT;
	}
	return 0;
}

int cli_multi_merge(const struct cli_paths *paths, const struct cli_multi_opts *mo,
		    const char *name, const void *opts, const struct rp_output_target *target,
		    int *written)
{
	struct cli_merge m = { .name = name, .strict = mo->strict, .opts = opts, .target = target };
	struct cli_multi_ops ops = { cli_merge_open, cli_merge_done };
	struct rp_error err = { 0 };
	int status = cli_multi_run(paths, mo, &ops, &m);

	*written = 0;
	if (!m.have_first)
		return status ? status : RP_EXIT_BAD_INPUT;
	/* An error that stopped the run (a merge, a usage error) leaves no
	 * output: it would lack recordings without saying which. */
	if (status != RP_EXIT_USAGE && !m.failed) {
		if (rp_output_finish(m.first.out, &err) < 0) {
			cli_error(name, &err);
			if (!status)
				status = RP_EXIT_USAGE;
		} else {
			*written = 1;
		}
	}
	cli_job_release(&m.first);
	return status;
}

/* --- one output per recording --- */

struct cli_each {
	const char *name;
	const void *opts;
	const char *target; /* the target, or the directory of targets */
	int in_dir;         /* each recording gets DIR/<its path>.db */
	size_t written;     /* outputs finished */
};

/*
 * The database of one recording in the directory: its path with '/' as
 * '_' (so that a/perf.data and b/perf.data differ) and ".db".  Returns a
 * malloc'd path, or NULL.
 */
static char *cli_each_path(const char *dir, const char *path)
{
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	while (*path == '/')
		path++;
	size_t n = strlen(dir) + strlen(path) + sizeof("/.db");
	char *out = malloc(n);

	if (!out)
		return NULL;
	snprintf(out, n, "%s/%s.db", dir, path);
	for (char *p = out + strlen(dir) + 1; *p; p++)
		if (*p == '/')
			*p = '_';
	return out;
}

static int cli_each_open(void *ctx, struct cli_job *job)
{
	struct cli_each *e = ctx;
	struct rp_output_env env = { .sz = sizeof(env),
				     .session = job->in.session,
				     .machine = job->in.machine,
				     .symbols = job->in.symbols,
				     .filter = job->in.filter };
	struct rp_output_target target = { .sz = sizeof(target), .path = e->target };
	struct rp_error err = { 0 };
	char *path = NULL;
	int ret;

	if (e->in_dir && !(target.path = path = cli_each_path(e->target, job->path))) {
		cli_errorf("out of memory");
		return RP_EXIT_BAD_INPUT;
	}
	ret = rp_output_new(&job->out, e->name, &env, e->opts, &target, &err);
	free(path);
	if (ret < 0) {
		cli_error(job->path, &err);
		return err.code == RP_ERR_INVAL || err.code == RP_ERR_UNSUPPORTED ? RP_EXIT_USAGE
										  : RP_EXIT_BAD_INPUT;
	}
	return 0;
}

static int cli_each_done(void *ctx, struct cli_job *job)
{
	struct cli_each *e = ctx;
	struct rp_error err = { 0 };

	/* A recording that could not be read to the end is not written (a
	 * database holds whole recordings); the others are. */
	if (!job->out || !job->processed || job->status)
		return job->status == RP_EXIT_USAGE ? RP_EXIT_USAGE : 0;
	if (rp_output_finish(job->out, &err) < 0) {
		cli_error(job->path, &err);
		return 0;
	}
	e->written++;
	return 0;
}

int cli_multi_each(const struct cli_paths *paths, const struct cli_multi_opts *mo,
		   const char *name, const void *opts, const char *target, int in_dir)
{
	struct cli_each e = { .name = name, .opts = opts, .target = target, .in_dir = in_dir };
	struct cli_multi_ops ops = { cli_each_open, cli_each_done };

	if (in_dir && mkdir(target, 0777) < 0 && errno != EEXIST) {
		cli_errorf("cannot create %s: %s", target, strerror(errno));
		return RP_EXIT_USAGE;
	}
	int status = cli_multi_run(paths, mo, &ops, &e);

	if (!status && e.written < paths->nr)
		status = RP_EXIT_BAD_INPUT;
	return status;
}
