/* SPDX-License-Identifier: MIT */
/*
 * The inputs of a session: a file (mapped), standard input or a pipe (read
 * in blocks of RP_STREAM_BLOCK bytes into refcounted chunks: a record is a
 * view into its block, which lives until every record read from it was
 * delivered; a record straddling two blocks is carried into the next), and
 * a directory written by `perf record --threads` (the file `data`, then
 * the `data.N` files, which are bare records without a header).
 *
 * A mapped input is read through a sliding window: the mapping covers the
 * whole file, but each time the position crosses a multiple of
 * RP_MAP_WINDOW bytes, the pages of the window before the previous one are
 * dropped from the process (madvise MADV_DONTNEED).  The mapping is
 * private, read-only and never written, so a dropped page that is read
 * again (a record still queued for time order, a feature section) is
 * faulted in again from the page cache with the same bytes: views stay
 * valid, and the file's pages in the process stay about two windows, plus
 * those of records read back from further behind.
 *
 * Format: tools/perf/Documentation/perf.data-directory-format.txt; perf's
 * util/data.c (which files of a directory are data files, kcore_dir).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error_int.h"
#include "format/session_int.h"

static int rp_io_error(struct rp_session *s, const char *what, const char *path)
{
	int e = errno;

	rp_error_set(&s->err, RP_ERR_IO, "%s%s%s: %s", what, path ? " " : "", path ? path : "",
		     strerror(e));
	s->err.sys_errno = e;
	return RP_ERR_IO;
}

/* Opens one input: a regular file is mapped, anything else streamed. */
static int rp_input_init(struct rp_session *s, struct rp_input *in, const char *path, int fd,
			 int allow_empty)
{
	struct stat st;

	in->fd = fd;
	in->path = strdup(path);
	if (!in->path)
		return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory");
	if (fstat(fd, &st) < 0)
		return rp_io_error(s, "cannot stat", NULL);
	if (!S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			return rp_error_set(&s->err, RP_ERR_IO, "a directory without a data file");
		in->stream = 1;
		in->end = UINT64_MAX;
		return 0;
	}
	in->map_size = (uint64_t)st.st_size;
	in->end = in->map_size;
	if (in->map_size == 0) {
		if (allow_empty)
			return 0;
		return rp_error_set_at(&s->err, RP_ERR_TRUNCATED, 0, "empty file");
	}
	void *p = mmap(NULL, (size_t)in->map_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return rp_io_error(s, "cannot map", NULL);
	in->map = p;
	madvise(p, (size_t)in->map_size, MADV_SEQUENTIAL);
	return 0;
}

/* Whether a directory entry is one of the data files perf reads: a
 * regular file (after symlinks) whose name starts with "data.". */
static int rp_is_data_file(const char *dir, const char *name)
{
	char buf[4096];
	struct stat st;
	int n;

	if (strncmp(name, "data.", 5))
		return 0;
	n = snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= sizeof(buf) || stat(buf, &st) < 0)
		return 0;
	return S_ISREG(st.st_mode);
}

static int rp_dir_open(struct rp_session *s)
{
	char buf[4096];
	char **names = NULL;
	size_t nr = 0, alloc = 0;
	DIR *d;
	struct dirent *de;
	int ret = 0;

	d = opendir(s->path);
	if (!d)
		return rp_io_error(s, "cannot open directory", NULL);
	while ((de = readdir(d)) != NULL) {
		if (!rp_is_data_file(s->path, de->d_name))
			continue;
		if (nr >= RP_MAX_DIR_FILES) {
			ret = rp_error_set(&s->err, RP_ERR_LIMIT, "more than %u data files",
					   RP_MAX_DIR_FILES);
			break;
		}
		if (nr == alloc) {
			size_t na = alloc ? alloc * 2 : 16;
			char **g = realloc(names, na * sizeof(*g));
			if (!g) {
				ret = rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory");
				break;
			}
			names = g;
			alloc = na;
		}
		names[nr] = strdup(de->d_name);
		if (!names[nr]) {
			ret = rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory");
			break;
		}
		nr++;
	}
	closedir(d);
	/* The files stay in readdir(3) order: perf reads them in that order,
	 * which decides the order of records with equal times in different
	 * files and which file's turn comes first. */

	s->inputs = calloc(nr + 1, sizeof(*s->inputs));
	if (!s->inputs && ret == 0)
		ret = rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory");
	for (size_t i = 0; ret == 0 && i <= nr; i++) {
		const char *name = i == 0 ? "data" : names[i - 1];
		int n = snprintf(buf, sizeof(buf), "%s/%s", s->path, name);
		int fd;

		if (n < 0 || (size_t)n >= sizeof(buf)) {
			ret = rp_error_set(&s->err, RP_ERR_INVAL, "path too long");
			break;
		}
		fd = open(buf, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ret = rp_io_error(s, "cannot open", buf);
			break;
		}
		s->nr_inputs++;
		ret = rp_input_init(s, &s->inputs[i], buf, fd, i > 0);
	}
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	if (ret < 0)
		return ret;

	int n = snprintf(buf, sizeof(buf), "%s/kcore_dir/kallsyms", s->path);
	if (n > 0 && (size_t)n < sizeof(buf) && access(buf, R_OK) == 0) {
		s->kcore_kallsyms = strdup(buf);
		if (!s->kcore_kallsyms)
			return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory");
	}
	return 0;
}

int rp_inputs_open(struct rp_session *s)
{
	struct stat st;
	int fd;

	if (strcmp(s->path, "-") == 0) {
		fd = dup(STDIN_FILENO);
		if (fd < 0)
			return rp_io_error(s, "cannot read standard input", NULL);
	} else {
		if (stat(s->path, &st) == 0 && S_ISDIR(st.st_mode)) {
			s->is_dir = 1;
			return rp_dir_open(s);
		}
		fd = open(s->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return rp_io_error(s, "cannot open", NULL);
	}
	s->inputs = calloc(1, sizeof(*s->inputs));
	if (!s->inputs) {
		close(fd);
		return rp_error_set(&s->err, RP_ERR_NOMEM, "out of memory");
	}
	s->nr_inputs = 1;
	return rp_input_init(s, &s->inputs[0], s->path, fd, 0);
}

static void rp_blocks_free(struct rp_input *in, int all)
{
	struct rp_zchunk **pp = &in->blocks;

	while (*pp) {
		struct rp_zchunk *c = *pp;

		if (all || (c != in->blk && !c->pending)) {
			*pp = c->next;
			free(c);
		} else {
			pp = &c->next;
		}
	}
	if (all)
		in->blk = NULL;
}

void rp_inputs_close(struct rp_session *s)
{
	for (size_t i = 0; i < s->nr_inputs; i++) {
		struct rp_input *in = &s->inputs[i];

		if (in->map)
			munmap((void *)in->map, (size_t)in->map_size);
		if (in->fd >= 0)
			close(in->fd);
		rp_blocks_free(in, 1);
		rp_zreader_release(&in->z);
		free(in->path);
	}
	free(s->inputs);
	s->inputs = NULL;
	s->nr_inputs = 0;
}

void rp_inputs_collect(struct rp_session *s)
{
	for (size_t i = 0; i < s->nr_inputs; i++) {
		rp_blocks_free(&s->inputs[i], 0);
		rp_zreader_collect(&s->inputs[i].z);
	}
}

/* Reads until the current block holds need bytes from its head, or the
 * input ends.  A block too small for that is replaced by a new one that
 * starts with the unread tail of the old. */
static int rp_stream_fill(struct rp_session *s, struct rp_input *in, size_t need)
{
	struct rp_zchunk *c = in->blk;
	size_t have = c ? c->len - c->head : 0;

	if (have >= need || in->eof)
		return 0;
	if (!c || c->cap - c->head < need) {
		size_t cap = need > RP_STREAM_BLOCK ? need : RP_STREAM_BLOCK;
		struct rp_zchunk *n = rp_zchunk_new(cap);

		if (!n)
			return rp_error_set_at(&s->err, RP_ERR_NOMEM, in->pos,
					       "out of memory reading the input");
		if (have)
			memcpy(n->data, c->data + c->head, have);
		n->len = have;
		n->offset = in->pos;
		if (c)
			c->head = c->len;
		n->next = in->blocks;
		in->blocks = n;
		in->blk = n;
		rp_blocks_free(in, 0);
		c = n;
	}
	while (c->len - c->head < need) {
		ssize_t r = read(in->fd, c->data + c->len, c->cap - c->len);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			rp_io_error(s, "cannot read", NULL);
			s->err.offset = in->pos;
			s->err.has_offset = 1;
			return RP_ERR_IO;
		}
		if (r == 0) {
			in->eof = 1;
			break;
		}
		c->len += (size_t)r;
		if (s->size < c->offset + c->len)
			s->size = c->offset + c->len;
	}
	return 0;
}

const uint8_t *rp_input_peek(struct rp_session *s, struct rp_input *in, size_t n,
			     size_t *avail)
{
	if (!in->stream) {
		uint64_t left = in->pos < in->end ? in->end - in->pos : 0;

		*avail = left < n ? (size_t)left : n;
		return in->map ? in->map + in->pos : (const uint8_t *)"";
	}
	if (rp_stream_fill(s, in, n) < 0)
		return NULL;
	if (!in->blk) {
		*avail = 0;
		return (const uint8_t *)"";
	}
	size_t have = in->blk->len - in->blk->head;
	*avail = have < n ? have : n;
	return in->blk->data + in->blk->head;
}

void rp_input_slide(struct rp_input *in, uint64_t old)
{
	uint64_t w = in->pos / RP_MAP_WINDOW;

	in->next_slide = (w + 1) * RP_MAP_WINDOW;
	if (!in->map)
		return;
	if (w != old / RP_MAP_WINDOW && w >= 2) {
		uint64_t from = (old / RP_MAP_WINDOW < 2 ? 0 : old / RP_MAP_WINDOW - 1) *
				RP_MAP_WINDOW;
		uint64_t to = (w - 1) * RP_MAP_WINDOW;

		if (to > in->map_size)
			to = in->map_size & ~(uint64_t)(RP_MAP_WINDOW - 1);
		if (to > from)
			madvise((void *)(in->map + from), (size_t)(to - from), MADV_DONTNEED);
	}
#ifdef MADV_POPULATE_READ
	/* The rest of this window, up to the end of the data: what stays
	 * mapped is still at most the previous window and this one.  Errors
	 * (an older kernel) only leave the pages to be faulted in. */
	uint64_t from = w * RP_MAP_WINDOW;
	uint64_t to = in->next_slide < in->end ? in->next_slide : in->end;

	if (to > in->map_size)
		to = in->map_size;
	if (to > from)
		madvise((void *)(in->map + from), (size_t)(to - from), MADV_POPULATE_READ);
#endif
}

void rp_input_advance(struct rp_input *in, size_t n)
{
	uint64_t old = in->pos;

	in->pos += n;
	if (in->stream) {
		if (in->blk)
			in->blk->head += n;
	} else if (in->pos >= in->next_slide) {
		rp_input_slide(in, old);
	}
}

int rp_input_skip(struct rp_session *s, struct rp_input *in, uint64_t n, uint8_t *dst)
{
	uint8_t discard[16384];

	if (!in->stream) {
		if (n > in->end - in->pos)
			return RP_ERR_TRUNCATED;
		if (dst)
			memcpy(dst, in->map + in->pos, (size_t)n);
		rp_input_advance(in, (size_t)n);
		return 0;
	}
	/* What the block holds first; the rest is read past the blocks (the
	 * block is then used up, and the next read starts a new one at the
	 * new position), so that the record before the payload stays where
	 * it is. */
	if (in->blk && in->blk->head < in->blk->len) {
		size_t have = in->blk->len - in->blk->head;
		size_t k = have < n ? have : (size_t)n;

		if (dst) {
			memcpy(dst, in->blk->data + in->blk->head, k);
			dst += k;
		}
		rp_input_advance(in, k);
		n -= k;
	}
	while (n) {
		size_t want = n < sizeof(discard) ? (size_t)n : sizeof(discard);
		ssize_t r = read(in->fd, dst ? dst : discard, want);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			rp_io_error(s, "cannot read", NULL);
			return RP_ERR_IO;
		}
		if (r == 0) {
			in->eof = 1;
			return RP_ERR_TRUNCATED;
		}
		if (dst)
			dst += r;
		in->pos += (uint64_t)r;
		n -= (uint64_t)r;
		if (s->size < in->pos)
			s->size = in->pos;
	}
	return 0;
}

struct rp_zchunk *rp_input_block(const struct rp_input *in)
{
	return in->stream ? in->blk : NULL;
}
