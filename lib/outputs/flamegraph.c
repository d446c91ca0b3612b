/* SPDX-License-Identifier: MIT */
/*
 * The interactive SVG flame graph (readperf/flamegraph.h): the folded
 * stacks become a tree of frames (children merged by name, laid out in
 * name order, as flamegraph.pl does), drawn bottom-up, with a script for
 * hover details, zoom and search.  docs/flamegraph.md describes it.
 */
#include <readperf/flamegraph.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <readperf/collapse.h>
#include <readperf/error.h>
#include <readperf/session.h>

#include "common/arena.h"
#include "common/error_int.h"
#include "common/hashmap.h"
#include "common/opts.h"
#include "outputs/output_int.h"

#define RP_FG_WIDTH_DEFAULT 1200
#define RP_FG_FRAME_HEIGHT 16
#define RP_FG_FONT_SIZE 12
#define RP_FG_CHAR_WIDTH 7.0 /* pixels per character of the monospace font */
#define RP_FG_PAD_TOP 60     /* title, subtitle, buttons */
#define RP_FG_PAD_BOTTOM 34  /* the details line */
#define RP_FG_PAD_SIDE 10
/* Deepest stack drawn (perf's stacks stop at 127 frames, plus the comm). */
#define RP_FG_MAX_DEPTH 1024

enum rp_fg_kind { RP_FG_USER, RP_FG_KERNEL, RP_FG_JIT, RP_FG_COMM, RP_FG_ROOT };

struct rp_fg_node {
	struct rp_fg_node *parent, *child, *sibling, *hnext;
	const char *name; /* without the annotation */
	size_t name_len;
	enum rp_fg_kind kind;
	uint64_t value; /* samples of the stacks through this frame */
	uint32_t depth;
	/* A differential graph: the baseline's samples through this frame,
	 * and both profiles' samples of the stack that ends here. */
	uint64_t old_value;
	uint64_t self_new, self_old;
};

struct rp_fg {
	struct rp_arena arena;
	struct rp_hashmap index; /* hash(parent, name, kind) -> chain */
	struct rp_fg_node root;
	size_t nr_nodes;
	uint32_t max_depth;
	/* A differential graph (rp_flamegraph_write_diff()). */
	int diff;
	int normalize;         /* the baseline's counts scaled to the new total */
	uint64_t old_total;
	uint64_t maxdelta;     /* the largest |delta| of a stack, at least 1 */
	uint32_t drawn_depth;  /* the deepest frame with new samples */
};

static uint64_t rp_fg_hash(const struct rp_fg_node *parent, const char *name, size_t len,
			   enum rp_fg_kind kind)
{
	return rp_hash64(rp_hash_bytes(name, len) ^ (uint64_t)(uintptr_t)parent) + (uint64_t)kind;
}

static struct rp_fg_node *rp_fg_child(struct rp_fg *fg, struct rp_fg_node *parent,
				      const char *name, size_t len, enum rp_fg_kind kind, int *err)
{
	uint64_t h = rp_fg_hash(parent, name, len, kind);
	struct rp_fg_node *first = rp_hashmap_get(&fg->index, h), *n;

	for (n = first; n; n = n->hnext)
		if (n->parent == parent && n->kind == kind && n->name_len == len &&
		    !memcmp(n->name, name, len))
			return n;
	if (fg->nr_nodes >= RP_FLAMEGRAPH_MAX_NODES) {
		*err = RP_ERR_LIMIT;
		return NULL;
	}
	n = rp_arena_alloc(&fg->arena, sizeof(*n));
	char *copy = rp_arena_strndup(&fg->arena, name, len);
	if (!n || !copy) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	memset(n, 0, sizeof(*n));
	n->parent = parent;
	n->name = copy;
	n->name_len = len;
	n->kind = kind;
	n->depth = parent->depth + 1;
	n->hnext = first;
	if (rp_hashmap_put(&fg->index, h, n) < 0) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	n->sibling = parent->child;
	parent->child = n;
	fg->nr_nodes++;
	if (n->depth > fg->max_depth)
		fg->max_depth = n->depth;
	return n;
}

/* Adds one folded stack with its count (and its count in the baseline,
 * for a differential graph). */
static int rp_fg_add(struct rp_fg *fg, const char *stack, uint64_t count, uint64_t old_count,
		     int has_comm)
{
	struct rp_fg_node *n = &fg->root;
	const char *p = stack;
	int err = 0, first = 1;

	fg->root.value += count;
	fg->root.old_value += old_count;
	while (*p) {
		size_t len = strcspn(p, ";");
		enum rp_fg_kind kind = RP_FG_USER;

		if (first && has_comm)
			kind = RP_FG_COMM;
		else if (len >= 4 && !memcmp(p + len - 4, "_[k]", 4))
			kind = RP_FG_KERNEL, len -= 4;
		else if (len >= 4 && !memcmp(p + len - 4, "_[j]", 4))
			kind = RP_FG_JIT, len -= 4;
		first = 0;
		if (n->depth < RP_FG_MAX_DEPTH) {
			n = rp_fg_child(fg, n, p, len, kind, &err);
			if (!n)
				return err;
			n->value += count;
			n->old_value += old_count;
			if (count && n->depth > fg->drawn_depth)
				fg->drawn_depth = n->depth;
		}
		p += strcspn(p, ";");
		if (*p == ';')
			p++;
	}
	n->self_new += count;
	n->self_old += old_count;
	return 0;
}

/*
 * A frame's delta, as difffolded.pl and flamegraph.pl make it: the new
 * samples of the stack that ends at the frame minus the baseline's (scaled
 * to the new total with normalize, difffolded.pl -n: int(old * new total /
 * old total)); 0 for a frame no stack ends at.
 */
static int64_t rp_fg_delta(const struct rp_fg *fg, const struct rp_fg_node *n)
{
	uint64_t old = n->self_old;

	if (fg->normalize && fg->old_total && fg->old_total != fg->root.value)
		old = (uint64_t)((double)old * (double)fg->root.value / (double)fg->old_total);
	return (int64_t)n->self_new - (int64_t)old;
}

/* The largest |delta| of the frames under n (flamegraph.pl's maxdelta,
 * over every stack, those of the baseline only too). */
static void rp_fg_maxdelta(struct rp_fg *fg, const struct rp_fg_node *n)
{
	int64_t d = rp_fg_delta(fg, n);
	uint64_t a = d < 0 ? (uint64_t)-d : (uint64_t)d;

	if (a > fg->maxdelta)
		fg->maxdelta = a;
	for (const struct rp_fg_node *c = n->child; c; c = c->sibling)
		rp_fg_maxdelta(fg, c);
}

/* ---- drawing ------------------------------------------------------------ */

static void rp_xml_escape(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			/* Control characters are not allowed in XML 1.0. */
			if (c < 0x20 && c != '\t')
				fputc('?', out);
			else
				fputc(c, out);
		}
	}
}

/* A stable colour per name within the kind's palette. */
static void rp_fg_colour(const struct rp_fg_node *n, char *buf, size_t size)
{
	uint64_t h = rp_hash_bytes(n->name, n->name_len);
	unsigned v1 = (unsigned)(h & 0xff), v2 = (unsigned)((h >> 8) & 0xff);
	unsigned r, g, b;

	switch (n->kind) {
	case RP_FG_KERNEL: /* blue */
		r = 70 + v1 * 50 / 255;
		g = 130 + v2 * 50 / 255;
		b = 205 + v1 * 50 / 255;
		break;
	case RP_FG_JIT: /* green */
		r = 50 + v1 * 60 / 255;
		g = 180 + v2 * 60 / 255;
		b = 50 + v2 * 50 / 255;
		break;
	case RP_FG_COMM:
	case RP_FG_ROOT: /* grey */
		r = g = b = 170 + v1 * 30 / 255;
		break;
	case RP_FG_USER:
	default: /* red to yellow, flamegraph.pl's "hot" */
		r = 205 + v1 * 50 / 255;
		g = v2 * 200 / 255;
		b = v1 * 55 / 255;
		break;
	}
	snprintf(buf, size, "rgb(%u,%u,%u)", r, g, b);
}

/* flamegraph.pl's color_scale(): white for no change, red for more samples
 * in the new profile, blue for fewer, deeper as |delta| nears maxdelta. */
static void rp_fg_diff_colour(const struct rp_fg *fg, const struct rp_fg_node *n, char *buf,
			      size_t size)
{
	int64_t d = rp_fg_delta(fg, n);
	double max = (double)fg->maxdelta;
	unsigned r = 255, g = 255, b = 255;

	if (d > 0)
		g = b = (unsigned)(210.0 * (max - (double)d) / max);
	else if (d < 0)
		r = g = (unsigned)(210.0 * (max + (double)d) / max);
	snprintf(buf, size, "rgb(%u,%u,%u)", r, g, b);
}

static const char *rp_fg_kind_code(enum rp_fg_kind k)
{
	switch (k) {
	case RP_FG_KERNEL: return "k";
	case RP_FG_JIT: return "j";
	case RP_FG_COMM: return "c";
	case RP_FG_ROOT: return "r";
	case RP_FG_USER:
	default: return "u";
	}
}

static int rp_fg_name_cmp(const void *pa, const void *pb)
{
	const struct rp_fg_node *a = *(const struct rp_fg_node *const *)pa;
	const struct rp_fg_node *b = *(const struct rp_fg_node *const *)pb;
	size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
	int c = memcmp(a->name, b->name, n);

	if (c)
		return c;
	if (a->name_len != b->name_len)
		return a->name_len < b->name_len ? -1 : 1;
	return (int)a->kind - (int)b->kind;
}

struct rp_fg_draw {
	const struct rp_fg *fg;
	FILE *out;
	double scale;  /* pixels per sample */
	double height; /* image height */
	uint64_t total;
};

/* The text shown in a box w pixels wide: the name, cut with "..". */
static void rp_fg_label(FILE *out, const struct rp_fg_node *n, double w)
{
	size_t fit = (size_t)((w - 6.0) / RP_FG_CHAR_WIDTH);

	if (fit < 3)
		return;
	if (n->name_len <= fit) {
		rp_xml_escape(out, n->name, n->name_len);
	} else {
		rp_xml_escape(out, n->name, fit - 2);
		fputs("..", out);
	}
}

/* Draws n at sample offset `offset`, then its children (in name order). */
static int rp_fg_draw_node(struct rp_fg_draw *d, const struct rp_fg_node *n, uint64_t offset)
{
	FILE *out = d->out;
	double w = (double)n->value * d->scale;
	double x = RP_FG_PAD_SIDE + (double)offset * d->scale;
	double y = d->height - RP_FG_PAD_BOTTOM - (double)(n->depth + 1) * RP_FG_FRAME_HEIGHT;
	char colour[32];
	size_t nr = 0, i;

	if (w < RP_FLAMEGRAPH_MIN_WIDTH)
		return 0;
	double pct = d->total ? 100.0 * (double)n->value / (double)d->total : 0.0;
	if (d->fg->diff) {
		const struct rp_fg *fg = d->fg;
		double old_pct = fg->old_total ? 100.0 * (double)n->old_value / (double)fg->old_total
					       : 0.0;

		rp_fg_diff_colour(fg, n, colour, sizeof(colour));
		fprintf(out, "<g class=\"f\" data-o=\"%" PRIu64 "\" data-v=\"%" PRIu64
			     "\" data-d=\"%u\" data-k=\"%s\" data-old=\"%" PRIu64
			     "\" data-delta=\"%" PRId64 "\"><title>",
			offset, n->value, n->depth, rp_fg_kind_code(n->kind), n->old_value,
			rp_fg_delta(fg, n));
		rp_xml_escape(out, n->name, n->name_len);
		fprintf(out, " (%" PRIu64 " samples, %.2f%%; before: %" PRIu64
			     " samples, %.2f%%; %+.2f%%)</title>",
			n->value, pct, n->old_value, old_pct, pct - old_pct);
	} else {
		rp_fg_colour(n, colour, sizeof(colour));
		fprintf(out, "<g class=\"f\" data-o=\"%" PRIu64 "\" data-v=\"%" PRIu64
			     "\" data-d=\"%u\" data-k=\"%s\"><title>",
			offset, n->value, n->depth, rp_fg_kind_code(n->kind));
		rp_xml_escape(out, n->name, n->name_len);
		fprintf(out, " (%" PRIu64 " samples, %.2f%%)</title>", n->value, pct);
	}
	fprintf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\" rx=\"2\"/>",
		x, y, w, RP_FG_FRAME_HEIGHT - 1, colour);
	fprintf(out, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + RP_FG_FRAME_HEIGHT - 4.5);
	rp_fg_label(out, n, w);
	fputs("</text></g>\n", out);

	for (const struct rp_fg_node *c = n->child; c; c = c->sibling)
		nr++;
	if (!nr)
		return 0;
	const struct rp_fg_node **kids = malloc(nr * sizeof(*kids));
	if (!kids)
		return RP_ERR_NOMEM;
	i = 0;
	for (const struct rp_fg_node *c = n->child; c; c = c->sibling)
		kids[i++] = c;
	qsort(kids, nr, sizeof(*kids), rp_fg_name_cmp);
	int rc = 0;
	for (i = 0; i < nr && !rc; i++) {
		rc = rp_fg_draw_node(d, kids[i], offset);
		offset += kids[i]->value;
	}
	free(kids);
	return rc;
}

static const char rp_fg_style[] =
	"<style type=\"text/css\"><![CDATA[\n"
	"text { font-family: monospace; font-size: 12px; fill: rgb(0,0,0); }\n"
	"#title { font-size: 17px; text-anchor: middle; }\n"
	"#subtitle { text-anchor: middle; fill: rgb(90,90,90); }\n"
	".f text { pointer-events: none; }\n"
	".f:hover rect { stroke: black; stroke-width: 0.5; cursor: pointer; }\n"
	".f.hidden { display: none; }\n"
	".f.parent rect { opacity: 0.5; }\n"
	".btn { cursor: pointer; fill: rgb(30,60,160); }\n"
	".btn.off { opacity: 0; pointer-events: none; }\n"
	"]]></style>\n";

/* The embedded script: hover details, zoom on click, search. */
static const char rp_fg_script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"'use strict';\n"
	"var svg = document.documentElement;\n"
	"var W = +svg.getAttribute('data-width'), PAD = +svg.getAttribute('data-pad');\n"
	"var CW = +svg.getAttribute('data-charw'), TOTAL = +svg.getAttribute('data-total');\n"
	"var frames = Array.prototype.slice.call(document.querySelectorAll('g.f'));\n"
	"var details = document.getElementById('details');\n"
	"var matched = document.getElementById('matched');\n"
	"var unzoomBtn = document.getElementById('unzoom');\n"
	"var clearBtn = document.getElementById('clearsearch');\n"
	"var zoomed = null, searchRe = null;\n"
	"function info(g) { return g.querySelector('title').textContent; }\n"
	"function nameOf(g) { var t = info(g); return t.substring(0, t.lastIndexOf(' (')); }\n"
	"function num(g, a) { return +g.getAttribute('data-' + a); }\n"
	"function pct(v) { return (TOTAL ? 100 * v / TOTAL : 0).toFixed(2) + '%'; }\n"
	"function label(g, w) {\n"
	"  var name = nameOf(g), fit = Math.floor((w - 6) / CW);\n"
	"  var t = g.querySelector('text');\n"
	"  if (fit < 3) t.textContent = '';\n"
	"  else if (name.length <= fit) t.textContent = name;\n"
	"  else t.textContent = name.substring(0, fit - 2) + '..';\n"
	"}\n"
	"function place(g, x, w) {\n"
	"  var r = g.querySelector('rect');\n"
	"  r.setAttribute('x', x.toFixed(2)); r.setAttribute('width', w.toFixed(2));\n"
	"  g.querySelector('text').setAttribute('x', (x + 3).toFixed(2));\n"
	"  label(g, w);\n"
	"}\n"
	"function zoom(target) {\n"
	"  var o = num(target, 'o'), v = num(target, 'v'), d = num(target, 'd');\n"
	"  var scale = (W - 2 * PAD) / v;\n"
	"  zoomed = target;\n"
	"  frames.forEach(function (g) {\n"
	"    var go = num(g, 'o'), gv = num(g, 'v'), gd = num(g, 'd');\n"
	"    g.classList.remove('hidden'); g.classList.remove('parent');\n"
	"    if (gd < d && go <= o && go + gv >= o + v) {\n"
	"      g.classList.add('parent'); place(g, PAD, W - 2 * PAD);\n"
	"    } else if (gd >= d && go >= o && go + gv <= o + v) {\n"
	"      place(g, PAD + (go - o) * scale, gv * scale);\n"
	"    } else {\n"
	"      g.classList.add('hidden');\n"
	"    }\n"
	"  });\n"
	"  unzoomBtn.classList.remove('off');\n"
	"}\n"
	"function unzoom() {\n"
	"  if (frames.length) zoom(frames[0]);\n"
	"  zoomed = null; unzoomBtn.classList.add('off');\n"
	"}\n"
	"function search(re) {\n"
	"  var spans = [];\n"
	"  searchRe = re;\n"
	"  frames.forEach(function (g) {\n"
	"    var r = g.querySelector('rect');\n"
	"    if (!r.hasAttribute('data-fill')) r.setAttribute('data-fill', r.getAttribute('fill'));\n"
	"    if (re && num(g, 'd') > 0 && re.test(nameOf(g))) {\n"
	"      r.setAttribute('fill', 'rgb(230,0,230)');\n"
	"      spans.push([num(g, 'o'), num(g, 'o') + num(g, 'v')]);\n"
	"    } else {\n"
	"      r.setAttribute('fill', r.getAttribute('data-fill'));\n"
	"    }\n"
	"  });\n"
	"  /* nested matches count once: the union of their sample ranges */\n"
	"  spans.sort(function (a, b) { return a[0] - b[0]; });\n"
	"  var sum = 0, end = -1;\n"
	"  spans.forEach(function (s) {\n"
	"    if (s[0] >= end) { sum += s[1] - s[0]; end = s[1]; }\n"
	"    else if (s[1] > end) { sum += s[1] - end; end = s[1]; }\n"
	"  });\n"
	"  if (re) {\n"
	"    matched.textContent = 'Matched: ' + sum + ' samples, ' + pct(sum);\n"
	"    clearBtn.classList.remove('off');\n"
	"  } else {\n"
	"    matched.textContent = ''; clearBtn.classList.add('off');\n"
	"  }\n"
	"  return sum;\n"
	"}\n"
	"function askSearch() {\n"
	"  var s = window.prompt('Search for (regular expression):', '');\n"
	"  if (s === null || s === '') return;\n"
	"  try { search(new RegExp(s)); } catch (e) { window.alert('Bad regular expression: ' + e.message); }\n"
	"}\n"
	"frames.forEach(function (g) {\n"
	"  g.addEventListener('mouseover', function () { details.textContent = 'Function: ' + info(g); });\n"
	"  g.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
	"  g.addEventListener('click', function () { zoom(g); });\n"
	"});\n"
	"unzoomBtn.addEventListener('click', unzoom);\n"
	"document.getElementById('search').addEventListener('click', askSearch);\n"
	"clearBtn.addEventListener('click', function () { search(null); });\n"
	"window.addEventListener('keydown', function (e) {\n"
	"  if ((e.ctrlKey || e.metaKey) && e.key === 'f') { e.preventDefault(); askSearch(); }\n"
	"  else if (e.key === 'Escape') { search(null); unzoom(); }\n"
	"});\n"
	"/* for tests and the address bar: ?s=REGEX searches, ?z=DEPTH,OFFSET zooms */\n"
	"(function () {\n"
	"  var q = new URLSearchParams(window.location.search);\n"
	"  if (q.get('s')) search(new RegExp(q.get('s')));\n"
	"  if (q.get('z')) {\n"
	"    var a = q.get('z').split(',');\n"
	"    frames.forEach(function (g) { if (num(g, 'd') == +a[0] && num(g, 'o') == +a[1]) zoom(g); });\n"
	"  }\n"
	"})();\n"
	"]]></script>\n";

/* Copies the caller's options (sz first; NULL: the defaults). */
static void rp_fg_opts(struct rp_flamegraph_opts *o, const struct rp_flamegraph_opts *opts)
{
	memset(o, 0, sizeof(*o));
	if (opts) {
		size_t sz = opts->sz && opts->sz < sizeof(*o) ? opts->sz : sizeof(*o);

		memcpy(o, opts, sz);
	}
}

static void rp_fg_init(struct rp_fg *fg)
{
	memset(fg, 0, sizeof(*fg));
	fg->root.name = "all";
	fg->root.name_len = 3;
	fg->root.kind = RP_FG_ROOT;
}

static void rp_fg_release(struct rp_fg *fg)
{
	rp_hashmap_release(&fg->index);
	rp_arena_release(&fg->arena);
}

/* Writes the SVG of the tree fg holds. */
static int rp_fg_write(FILE *out, struct rp_fg *fg, const struct rp_flamegraph_opts *o)
{
	unsigned width = o->width ? o->width : RP_FG_WIDTH_DEFAULT;
	const char *title = o->title ? o->title
			    : fg->diff ? "Differential Flame Graph"
				       : "Flame Graph";
	/* A differential graph is as deep as the new profile's frames: the
	 * baseline's own are not drawn (no width), as in flamegraph.pl. */
	uint32_t depth = fg->diff ? fg->drawn_depth : fg->max_depth;
	struct rp_fg_draw d;
	double height = RP_FG_PAD_TOP + RP_FG_PAD_BOTTOM + (double)(depth + 1) * RP_FG_FRAME_HEIGHT;
	int rc = 0;

	d.fg = fg;
	d.out = out;
	d.total = fg->root.value;
	d.scale = d.total ? (double)(width - 2 * RP_FG_PAD_SIDE) / (double)d.total : 0.0;
	d.height = height;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		     "<svg version=\"1.1\" width=\"%u\" height=\"%.0f\" "
		     "viewBox=\"0 0 %u %.0f\" xmlns=\"http://www.w3.org/2000/svg\" "
		     "data-width=\"%u\" data-pad=\"%d\" data-charw=\"%.1f\" "
		     "data-total=\"%" PRIu64 "\"",
		width, height, width, height, width, RP_FG_PAD_SIDE, RP_FG_CHAR_WIDTH, d.total);
	if (fg->diff)
		fprintf(out, " data-old-total=\"%" PRIu64 "\" data-maxdelta=\"%" PRIu64
			     "\" data-normalized=\"%d\"",
			fg->old_total, fg->maxdelta, fg->normalize);
	fputs(">\n", out);
	fputs(rp_fg_style, out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%.0f\" fill=\"rgb(248,248,240)\"/>\n",
		width, height);
	fprintf(out, "<text id=\"title\" x=\"%u\" y=\"24\">", width / 2);
	rp_xml_escape(out, title, strlen(title));
	fputs("</text>\n", out);
	fprintf(out, "<text id=\"subtitle\" x=\"%u\" y=\"42\">", width / 2);
	if (o->subtitle)
		rp_xml_escape(out, o->subtitle, strlen(o->subtitle));
	fprintf(out, "%s%" PRIu64 " samples", o->subtitle ? ", " : "", d.total);
	if (fg->diff)
		fprintf(out, " (before: %" PRIu64 " samples%s)", fg->old_total,
			fg->normalize && fg->old_total != d.total ? ", scaled to compare" : "");
	fputs("</text>\n", out);
	fprintf(out, "<text id=\"unzoom\" class=\"btn off\" x=\"%d\" y=\"24\">Reset Zoom</text>\n",
		RP_FG_PAD_SIDE);
	fprintf(out, "<text id=\"search\" class=\"btn\" x=\"%u\" y=\"24\" "
		     "text-anchor=\"end\">Search</text>\n",
		width - RP_FG_PAD_SIDE);
	fprintf(out, "<text id=\"clearsearch\" class=\"btn off\" x=\"%u\" y=\"42\" "
		     "text-anchor=\"end\">Clear search</text>\n",
		width - RP_FG_PAD_SIDE);
	/* The legend: the colours of the kinds of frames, or of the changes. */
	fprintf(out, "<g id=\"legend\">"
		     "<rect x=\"%d\" y=\"33\" width=\"10\" height=\"10\" fill=\"%s\"/>"
		     "<text x=\"%d\" y=\"42\">%s</text>"
		     "<rect x=\"%d\" y=\"33\" width=\"10\" height=\"10\" fill=\"%s\"/>"
		     "<text x=\"%d\" y=\"42\">%s</text>"
		     "<rect x=\"%d\" y=\"33\" width=\"10\" height=\"10\" fill=\"%s\"/>"
		     "<text x=\"%d\" y=\"42\">%s</text></g>\n",
		RP_FG_PAD_SIDE, fg->diff ? "rgb(255,60,60)" : "rgb(230,100,20)", RP_FG_PAD_SIDE + 14,
		fg->diff ? "more" : "user", RP_FG_PAD_SIDE + 54,
		fg->diff ? "rgb(60,60,255)" : "rgb(95,155,230)", RP_FG_PAD_SIDE + 68,
		fg->diff ? "fewer" : "kernel", RP_FG_PAD_SIDE + 122,
		fg->diff ? "rgb(255,255,255)" : "rgb(80,210,75)", RP_FG_PAD_SIDE + 136,
		fg->diff ? "same" : "JIT");
	fprintf(out, "<text id=\"details\" x=\"%d\" y=\"%.0f\"> </text>\n", RP_FG_PAD_SIDE,
		height - 12);
	fprintf(out, "<text id=\"matched\" x=\"%u\" y=\"%.0f\" text-anchor=\"end\"></text>\n",
		width - RP_FG_PAD_SIDE, height - 12);
	fputs("<g id=\"frames\">\n", out);
	if (d.total)
		rc = rp_fg_draw_node(&d, &fg->root, 0);
	fputs("</g>\n", out);
	fputs(rp_fg_script, out);
	fputs("</svg>\n", out);
	if (!rc && (fflush(out) != 0 || ferror(out)))
		rc = RP_ERR_IO;
	return rc;
}

int rp_flamegraph_write(FILE *out, const char *const *stacks, const uint64_t *counts, size_t nr,
			const struct rp_flamegraph_opts *opts)
{
	struct rp_flamegraph_opts o;
	struct rp_fg fg;
	int rc = 0;

	if (!out || (nr && (!stacks || !counts)))
		return RP_ERR_INVAL;
	rp_fg_opts(&o, opts);
	rp_fg_init(&fg);
	for (size_t i = 0; i < nr && !rc; i++)
		rc = rp_fg_add(&fg, stacks[i], counts[i], 0, o.has_comm);
	if (!rc)
		rc = rp_fg_write(out, &fg, &o);
	rp_fg_release(&fg);
	return rc;
}

int rp_flamegraph_write_diff(FILE *out, const char *const *old_stacks, const uint64_t *old_counts,
			     size_t nr_old, const char *const *new_stacks,
			     const uint64_t *new_counts, size_t nr_new,
			     const struct rp_flamegraph_opts *opts)
{
	struct rp_flamegraph_opts o;
	struct rp_fg fg;
	int rc = 0;

	if (!out || (nr_old && (!old_stacks || !old_counts)) ||
	    (nr_new && (!new_stacks || !new_counts)))
		return RP_ERR_INVAL;
	rp_fg_opts(&o, opts);
	rp_fg_init(&fg);
	fg.diff = 1;
	fg.normalize = !o.no_normalize;
	/* The union of the two sets of stacks, as difffolded.pl's: a stack
	 * of one profile only has 0 samples in the other. */
	for (size_t i = 0; i < nr_old && !rc; i++)
		rc = rp_fg_add(&fg, old_stacks[i], 0, old_counts[i], o.has_comm);
	for (size_t i = 0; i < nr_new && !rc; i++)
		rc = rp_fg_add(&fg, new_stacks[i], new_counts[i], 0, o.has_comm);
	if (!rc) {
		fg.old_total = fg.root.old_value;
		fg.maxdelta = 1;
		rp_fg_maxdelta(&fg, &fg.root);
		rc = rp_fg_write(out, &fg, &o);
	}
	rp_fg_release(&fg);
	return rc;
}

/* ---- the output "flamegraph" ------------------------------------------- */

/* Room for the event names of the subtitle. */
#define RP_FG_SUBTITLE_MAX 512

struct rp_fg_output {
	struct rp_flamegraph_opts opts;
	struct rp_collapse_opts copts;
	struct rp_collapse *col;   /* this recording's stacks (diff: the baseline) */
	struct rp_collapse *next;  /* diff: the new profile, merged in */
	FILE *f;
	char subtitle[RP_FG_SUBTITLE_MAX];
};

/* "cpu-clock, task-clock": the events of the recording, in attr order. */
static void rp_fg_event_names(const struct rp_session *s, char *buf, size_t size)
{
	size_t n = rp_session_nr_evsels(s), len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len + 1 < size; i++) {
		const char *name = rp_evsel_name(rp_session_evsel(s, i));
		int k = snprintf(buf + len, size - len, "%s%s", len ? ", " : "", name ? name : "?");

		if (k < 0)
			break;
		len += (size_t)k;
	}
	if (len >= size)
		buf[size - 1] = '\0';
}

static void rp_fg_output_destroy(void *state)
{
	struct rp_fg_output *o = state;

	rp_collapse_free(o->col);
	rp_collapse_free(o->next);
	free(o);
}

static int rp_fg_output_create(void **state, const struct rp_output_env *env, const void *opts,
			       const struct rp_output_target *target, struct rp_error *err)
{
	struct rp_fg_output *o = calloc(1, sizeof(*o));
	int ret;

	if (!o)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	if (rp_opts_copy(&o->opts, sizeof(o->opts), opts) < 0) {
		free(o);
		return rp_error_set(err, RP_ERR_INVAL, "bad options");
	}
	o->copts = (struct rp_collapse_opts){ .sz = sizeof(o->copts),
					      .include_tid = o->opts.include_tid,
					      .include_pid = o->opts.include_pid,
					      .no_comm = o->opts.no_comm,
					      .tidy_java = o->opts.tidy_java,
					      .annotate_kernel = 1,
					      .annotate_jit = 1 };
	o->opts.has_comm = !o->opts.no_comm;
	if (!o->opts.subtitle) {
		rp_fg_event_names(env->session, o->subtitle, sizeof(o->subtitle));
		o->opts.subtitle = o->subtitle;
	}
	o->f = target->stream;
	ret = rp_collapse_new(&o->col, &o->copts);
	if (ret < 0) {
		free(o);
		return rp_error_set(err, ret, ret == RP_ERR_INVAL
						      ? "a pid or tid needs the comm"
						      : "out of memory");
	}
	*state = o;
	return 0;
}

static struct rp_consumer rp_fg_output_consumer(void *state)
{
	return rp_collapse_consumer(((struct rp_fg_output *)state)->col);
}

static int rp_fg_output_merge(void *state, void *from, struct rp_error *err)
{
	struct rp_fg_output *o = state;
	const struct rp_fg_output *f = from;
	struct rp_collapse *into = o->col;
	int ret;

	if (o->opts.diff) {
		if (o->next)
			return rp_error_set(err, RP_ERR_INVAL,
					    "--diff takes two recordings: OLD NEW");
		if ((ret = rp_collapse_new(&o->next, &o->copts)) < 0)
			return rp_error_set(err, ret, "out of memory");
		into = o->next;
	}
	ret = rp_collapse_merge(into, f->col);
	if (ret == RP_ERR_LIMIT)
		return rp_error_set(err, ret, "too many distinct stacks");
	return ret < 0 ? rp_error_set(err, ret, "out of memory") : 0;
}

static int rp_fg_output_finish(void *state, struct rp_error *err)
{
	struct rp_fg_output *o = state;
	const char *const *stacks, *const *old_stacks;
	const uint64_t *counts, *old_counts;
	long n, old_n;
	int ret;

	if (o->opts.diff && !o->next)
		return rp_error_set(err, RP_ERR_INVAL,
				    "--diff takes two recordings: OLD NEW");
	if (!o->opts.diff) {
		if ((n = rp_collapse_stacks(o->col, &stacks, &counts)) < 0)
			return rp_error_set(err, (int)n, "out of memory");
		ret = rp_flamegraph_write(o->f, stacks, counts, (size_t)n, &o->opts);
	} else {
		if ((old_n = rp_collapse_stacks(o->col, &old_stacks, &old_counts)) < 0 ||
		    (n = rp_collapse_stacks(o->next, &stacks, &counts)) < 0)
			return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
		ret = rp_flamegraph_write_diff(o->f, old_stacks, old_counts, (size_t)old_n, stacks,
					       counts, (size_t)n, &o->opts);
	}
	if (ret == RP_ERR_IO)
		return rp_error_set(err, ret, "cannot write the flame graph");
	return ret < 0 ? rp_error_set(err, ret, "%s", rp_strerror(ret)) : 0;
}

const struct rp_output_def rp_output_flamegraph = {
	.name = "flamegraph",
	.flags = RP_OUTPUT_SYMBOLS | RP_OUTPUT_MERGE,
	.create = rp_fg_output_create,
	.consumer = rp_fg_output_consumer,
	.merge = rp_fg_output_merge,
	.finish = rp_fg_output_finish,
	.destroy = rp_fg_output_destroy,
};
