/* SPDX-License-Identifier: MIT */
/*
 * The header as perf 6.1's `perf report --header-only [-I]` prints it:
 * perf_header__fprintf_info() and the print_* function of each feature in
 * util/header.c, the attr lines of util/perf_event_attr_fprintf.c.  Where
 * perf prints from state its reader failed to fill (a damaged section, or
 * a section after the first damaged one), the same defaults are printed.
 * See docs/features.md.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <readperf/features.h>

#include "common/cursor.h"
#include "common/error_int.h"
#include "common/opts.h"
#include "format/features_int.h"
#include "outputs/output_int.h"

#define RP_HDR_RANGE_BUF 100u   /* perf's bitmap_scnprintf buffer */
#define RP_HDR_CPULIST_BUF 1024u /* perf's cpu_map__fprintf buffer */
#define RP_HDR_CPULIST_MAX 65536u /* cpus of one NUMA node list */
#define RP_HDR_NSEC_PER_SEC ((uint64_t)1000000000)

/* Bit names in perf 6.1's print order. */
struct rp_bitname {
	unsigned bit;
	const char *name;
};

static const struct rp_bitname rp_sample_bits[] = {
	{ 0, "IP" }, { 1, "TID" }, { 2, "TIME" }, { 3, "ADDR" }, { 4, "READ" },
	{ 5, "CALLCHAIN" }, { 6, "ID" }, { 7, "CPU" }, { 8, "PERIOD" }, { 9, "STREAM_ID" },
	{ 10, "RAW" }, { 11, "BRANCH_STACK" }, { 12, "REGS_USER" }, { 13, "STACK_USER" },
	{ 16, "IDENTIFIER" }, { 18, "REGS_INTR" }, { 15, "DATA_SRC" }, { 14, "WEIGHT" },
	{ 19, "PHYS_ADDR" }, { 20, "AUX" }, { 21, "CGROUP" }, { 22, "DATA_PAGE_SIZE" },
	{ 23, "CODE_PAGE_SIZE" }, { 24, "WEIGHT_STRUCT" }, { 0, NULL },
};

static const struct rp_bitname rp_branch_bits[] = {
	{ 0, "USER" }, { 1, "KERNEL" }, { 2, "HV" }, { 3, "ANY" }, { 4, "ANY_CALL" },
	{ 5, "ANY_RETURN" }, { 6, "IND_CALL" }, { 7, "ABORT_TX" }, { 8, "IN_TX" },
	{ 9, "NO_TX" }, { 10, "COND" }, { 11, "CALL_STACK" }, { 12, "IND_JUMP" },
	{ 13, "CALL" }, { 14, "NO_FLAGS" }, { 15, "NO_CYCLES" }, { 16, "TYPE_SAVE" },
	{ 17, "HW_INDEX" }, { 18, "PRIV_SAVE" }, { 0, NULL },
};

static const struct rp_bitname rp_read_format_bits[] = {
	{ 0, "TOTAL_TIME_ENABLED" }, { 1, "TOTAL_TIME_RUNNING" }, { 2, "ID" },
	{ 3, "GROUP" }, { 4, "LOST" }, { 0, NULL },
};

/* The one-bit attr flags perf prints, in its order (precise_ip apart). */
static const struct rp_bitname rp_flag_bits[] = {
	{ 0, "disabled" }, { 1, "inherit" }, { 2, "pinned" }, { 3, "exclusive" },
	{ 4, "exclude_user" }, { 5, "exclude_kernel" }, { 6, "exclude_hv" },
	{ 7, "exclude_idle" }, { 8, "mmap" }, { 9, "comm" }, { 10, "freq" },
	{ 11, "inherit_stat" }, { 12, "enable_on_exec" }, { 13, "task" }, { 14, "watermark" },
	{ 15, "precise_ip" }, /* two bits */
	{ 17, "mmap_data" }, { 18, "sample_id_all" }, { 19, "exclude_host" },
	{ 20, "exclude_guest" }, { 21, "exclude_callchain_kernel" },
	{ 22, "exclude_callchain_user" }, { 23, "mmap2" }, { 24, "comm_exec" },
	{ 25, "use_clockid" }, { 26, "context_switch" }, { 27, "write_backward" },
	{ 28, "namespaces" }, { 29, "ksymbol" }, { 30, "bpf_event" }, { 31, "aux_output" },
	{ 32, "cgroup" }, { 33, "text_poke" }, { 34, "build_id" }, { 35, "inherit_thread" },
	{ 36, "remove_on_exec" }, { 37, "sigtrap" }, { 0, NULL },
};

static void rp_print_bits(FILE *fp, const char *field, uint64_t v, const struct rp_bitname *b)
{
	const char *sep = "";

	if (!v)
		return;
	fprintf(fp, ", %s = ", field);
	for (; b->name; b++) {
		if (v >> b->bit & 1) {
			fprintf(fp, "%s%s", sep, b->name);
			sep = "|";
		}
	}
}

static void rp_pu(FILE *fp, const char *field, uint64_t v)
{
	if (v)
		fprintf(fp, ", %s = %" PRIu64, field, v);
}

static void rp_px(FILE *fp, const char *field, uint64_t v)
{
	if (v)
		fprintf(fp, ", %s = %#" PRIx64, field, v);
}

/* perf_event_attr__fprintf() of perf 6.1 (util/perf_event_attr_fprintf.c),
 * with ", name = value" items. */
static void rp_print_attr(FILE *fp, const struct rp_attr *a)
{
	rp_pu(fp, "type", a->type);
	rp_pu(fp, "size", a->size);
	rp_px(fp, "config", a->config);
	rp_pu(fp, "{ sample_period, sample_freq }", a->sample_period);
	rp_print_bits(fp, "sample_type", a->sample_type, rp_sample_bits);
	rp_print_bits(fp, "read_format", a->read_format, rp_read_format_bits);
	for (const struct rp_bitname *b = rp_flag_bits; b->name; b++) {
		unsigned width = b->bit == RP_ATTR_PRECISE_IP_SHIFT ? 3u : 1u;

		rp_pu(fp, b->name, a->flags >> b->bit & width);
	}
	rp_pu(fp, "{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	rp_pu(fp, "bp_type", a->bp_type);
	rp_px(fp, "{ bp_addr, config1 }", a->config1);
	rp_px(fp, "{ bp_len, config2 }", a->config2);
	rp_print_bits(fp, "branch_sample_type", a->branch_sample_type, rp_branch_bits);
	rp_px(fp, "sample_regs_user", a->sample_regs_user);
	rp_pu(fp, "sample_stack_user", a->sample_stack_user);
	if (a->clockid)
		fprintf(fp, ", clockid = %" PRId64, (int64_t)a->clockid);
	rp_px(fp, "sample_regs_intr", a->sample_regs_intr);
	rp_pu(fp, "aux_watermark", a->aux_watermark);
	rp_pu(fp, "sample_max_stack", a->sample_max_stack);
	rp_pu(fp, "aux_sample_size", a->aux_sample_size);
	rp_pu(fp, "sig_data", a->sig_data);
}

static void rp_print_event_desc(FILE *fp, const struct rp_features *f)
{
	if (!f->event_desc_ok) {
		fputs("# event desc: not available or unable to read\n", fp);
		return;
	}
	for (uint32_t i = 0; i < f->nr_events; i++) {
		const struct rp_event_desc *e = &f->events[i];

		/* perf's list ends at the first attr with size 0. */
		if (!e->attr.size)
			break;
		fprintf(fp, "# event : name = %s, ", e->name);
		if (e->nr_ids) {
			fputs(", id = {", fp);
			for (uint32_t j = 0; j < e->nr_ids; j++)
				fprintf(fp, "%s %" PRIu64, j ? "," : "", e->ids[j]);
			fputs(" }", fp);
		}
		rp_print_attr(fp, &e->attr);
		fputc('\n', fp);
	}
}

static const char *rp_str(const char *s)
{
	return s ? s : "(null)";
}

static void rp_print_cmdline(FILE *fp, const struct rp_features *f)
{
	fputs("# cmdline : ", fp);
	for (uint32_t i = 0; i < f->nr_cmdline; i++) {
		/* A quote is printed as \' (perf's escaping). */
		for (const char *s = f->cmdline[i]; *s; s++) {
			if (*s == '\'')
				fputs("\\'", fp);
			else
				fputc(*s, fp);
		}
		fputc(' ', fp);
	}
	fputc('\n', fp);
}

static void rp_print_cpu_topology(FILE *fp, const struct rp_features *f, uint32_t cpu_nr)
{
	for (uint32_t i = 0; i < f->nr_sibling_cores; i++)
		fprintf(fp, "# sibling sockets : %s\n", f->sibling_cores[i]);
	for (uint32_t i = 0; i < f->nr_sibling_dies; i++)
		fprintf(fp, "# sibling dies    : %s\n", f->sibling_dies[i]);
	for (uint32_t i = 0; i < f->nr_sibling_threads; i++)
		fprintf(fp, "# sibling threads : %s\n", f->sibling_threads[i]);
	if (f->nr_sibling_dies) {
		if (!f->topo_cpus) {
			fputs("# Core ID, Die ID and Socket ID information is not available\n", fp);
			return;
		}
		for (uint32_t i = 0; i < cpu_nr && i < f->nr_topo_cpus; i++)
			fprintf(fp, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
				(int)f->topo_cpus[i].core_id, (int)f->topo_cpus[i].die_id,
				(int)f->topo_cpus[i].socket_id);
		return;
	}
	if (!f->topo_cpus) {
		fputs("# Core ID and Socket ID information is not available\n", fp);
		return;
	}
	for (uint32_t i = 0; i < cpu_nr && i < f->nr_topo_cpus; i++)
		fprintf(fp, "# CPU %u: Core ID %d, Socket ID %d\n", i, (int)f->topo_cpus[i].core_id,
			(int)f->topo_cpus[i].socket_id);
}

static int rp_cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * perf parses a NUMA node's cpu list into a cpu map and prints the map
 * back as ranges ("0-3,8"); a list it cannot parse is printed as given.
 */
static void rp_print_cpulist(FILE *fp, const char *list)
{
	int *cpus = malloc(RP_HDR_CPULIST_MAX * sizeof(*cpus));
	size_t nr = 0;
	const char *s = list;
	char buf[RP_HDR_CPULIST_BUF];
	size_t used = 0;

	if (!cpus)
		goto verbatim;
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0)
			goto verbatim;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a)
				goto verbatim;
			s = end;
		}
		for (long c = a; c <= b; c++) {
			if (nr >= RP_HDR_CPULIST_MAX)
				goto verbatim;
			cpus[nr++] = (int)c;
		}
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			goto verbatim;
		else if (*s == '\n')
			break;
	}
	if (!nr)
		goto verbatim;
	qsort(cpus, nr, sizeof(*cpus), rp_cmp_int);
	buf[0] = 0;
	for (size_t i = 0; i < nr;) {
		size_t j = i;

		while (j + 1 < nr && cpus[j + 1] <= cpus[j] + 1)
			j++;
		int n;
		if (cpus[i] == cpus[j])
			n = snprintf(buf + used, sizeof(buf) - used, "%s%d", i ? "," : "", cpus[i]);
		else
			n = snprintf(buf + used, sizeof(buf) - used, "%s%d-%d", i ? "," : "",
				     cpus[i], cpus[j]);
		if (n < 0 || (size_t)n >= sizeof(buf) - used)
			break;
		used += (size_t)n;
		i = j + 1;
	}
	fprintf(fp, "%s\n", buf);
	free(cpus);
	return;
verbatim:
	free(cpus);
	fprintf(fp, "%s\n", list);
}

static void rp_print_numa(FILE *fp, const struct rp_features *f)
{
	for (uint32_t i = 0; i < f->nr_numa_nodes; i++) {
		const struct rp_numa_node *n = &f->numa_nodes[i];

		fprintf(fp, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n",
			n->node, n->mem_total, n->mem_free);
		fprintf(fp, "# node%u cpu list : ", n->node);
		rp_print_cpulist(fp, n->cpus);
	}
}

static void rp_print_pmu_mappings(FILE *fp, const struct rp_features *f)
{
	const char *sep = "# pmu mappings: ";

	if (!f->nr_pmu_mappings) {
		fputs("# pmu mappings: not available\n", fp);
		return;
	}
	for (uint32_t i = 0; i < f->nr_pmu_mappings; i++) {
		fprintf(fp, "%s%s = %" PRIu32, sep, f->pmu_mappings[i].name,
			f->pmu_mappings[i].type);
		sep = ", ";
	}
	fputc('\n', fp);
}

/* perf rebuilds the groups on its evsels from GROUP_DESC (stopping at the
 * first inconsistency) and prints each leader with its members. */
static void rp_print_group_desc(FILE *fp, const struct rp_session *s, const struct rp_features *f)
{
	size_t nr_ev = rp_session_nr_evsels(s);
	uint32_t *members = calloc(nr_ev ? nr_ev : 1, sizeof(*members));
	const char **names = calloc(nr_ev ? nr_ev : 1, sizeof(*names));
	uint8_t *is_member = calloc(nr_ev ? nr_ev : 1, 1);
	uint32_t gi = 0, left = 0;

	if (!members || !names || !is_member)
		goto out;
	for (size_t i = 0; i < nr_ev; i++) {
		if (gi < f->nr_groups && i == f->groups[gi].leader_idx) {
			if (strcmp(f->groups[gi].name, "{anon_group}"))
				names[i] = f->groups[gi].name;
			members[i] = f->groups[gi].nr_members;
			if (left > 0)
				break;
			left = members[i] ? members[i] - 1 : 0;
			gi++;
		} else if (left) {
			is_member[i] = 1;
			left--;
		}
	}
	left = 0;
	for (size_t i = 0; i < nr_ev; i++) {
		const char *name = rp_evsel_name(rp_session_evsel(s, i));

		if (!is_member[i] && members[i] > 1) {
			fprintf(fp, "# group: %s{%s", names[i] ? names[i] : "", name);
			left = members[i] - 1;
		} else if (left) {
			fprintf(fp, ",%s", name);
			if (--left == 0)
				fputs("}\n", fp);
		}
	}
out:
	free(members);
	free(names);
	free(is_member);
}

static void rp_print_sample_time(FILE *fp, const struct rp_features *f)
{
	uint64_t a = f->first_sample_time, b = f->last_sample_time;

	fprintf(fp, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n",
		a / RP_HDR_NSEC_PER_SEC, a % RP_HDR_NSEC_PER_SEC / 1000);
	fprintf(fp, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n",
		b / RP_HDR_NSEC_PER_SEC, b % RP_HDR_NSEC_PER_SEC / 1000);
	fprintf(fp, "# sample duration : %10.3f ms\n", (double)(b - a) / 1000000.0);
}

static int rp_bit(const struct rp_mem_node *n, uint64_t i)
{
	return (int)(n->bits[i / 64] >> (i % 64) & 1);
}

static void rp_print_mem_topology(FILE *fp, const struct rp_features *f)
{
	static const char units[] = "BKMG";

	fprintf(fp, "# memory nodes (nr %d, block size 0x%llx):\n", (int)f->nr_mem_nodes,
		(unsigned long long)f->mem_block_size);
	for (uint64_t i = 0; i < f->nr_mem_nodes; i++) {
		const struct rp_mem_node *n = &f->mem_nodes[i];
		char map[RP_HDR_RANGE_BUF] = "";
		size_t used = 0;
		uint64_t weight = 0, size;
		int u = 0;

		for (uint64_t b = 0; b < n->nr_bits; b++)
			weight += (uint64_t)rp_bit(n, b);
		size = f->mem_block_size * weight;
		while (size / 1024 > 1 && u < 3) {
			size /= 1024;
			u++;
		}
		/* Ranges of set bits, cut at perf's 100-byte buffer. */
		for (uint64_t b = 0; b < n->nr_bits;) {
			if (!rp_bit(n, b)) {
				b++;
				continue;
			}
			uint64_t e = b;
			while (e + 1 < n->nr_bits && rp_bit(n, e + 1))
				e++;
			int len;
			if (b == e)
				len = snprintf(map + used, sizeof(map) - used, "%s%" PRIu64,
					       used ? "," : "", b);
			else
				len = snprintf(map + used, sizeof(map) - used,
					       "%s%" PRIu64 "-%" PRIu64, used ? "," : "", b, e);
			if (len < 0 || (size_t)len >= sizeof(map) - used) {
				used = sizeof(map) - 1;
				break;
			}
			used += (size_t)len;
			b = e + 1;
		}
		fprintf(fp, "#  %3" PRIu64 " [%" PRIu64 "%c]: %s\n", n->node, size, units[u], map);
	}
}

static const char *rp_clockid_name(uint32_t id)
{
	switch (id) {
	case 1: return "monotonic";
	case 4: return "monotonic_raw";
	case 0: return "realtime";
	case 7: return "boottime";
	case 11: return "tai";
	default: return "(not found)";
	}
}

static void rp_print_clock_data(FILE *fp, const struct rp_features *f, int enabled)
{
	char date[64], tstr[96];
	struct tm tm;
	time_t sec;
	uint64_t tod = f->clock_tod_ns, ref = f->clock_ns;
	const char *name = rp_clockid_name(f->clock_clockid);

	if (!enabled) {
		fputs("# reference time disabled\n", fp);
		return;
	}
	sec = (time_t)(tod / RP_HDR_NSEC_PER_SEC);
	if (!localtime_r(&sec, &tm)) {
		snprintf(tstr, sizeof(tstr), "<error>");
	} else {
		strftime(date, sizeof(date), "%F %T", &tm);
		snprintf(tstr, sizeof(tstr), "%s.%06d", date,
			 (int)(tod % RP_HDR_NSEC_PER_SEC / 1000));
	}
	fprintf(fp, "# clockid: %s (%u)\n", name, f->clock_clockid);
	fprintf(fp, "# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n", tstr,
		(long)(tod / RP_HDR_NSEC_PER_SEC), (int)(tod % RP_HDR_NSEC_PER_SEC / 1000),
		(long)(ref / RP_HDR_NSEC_PER_SEC), (long)(ref % RP_HDR_NSEC_PER_SEC), name);
}

static void rp_print_pmu_caps_one(FILE *fp, const struct rp_pmu_caps *pc, const char *pmu)
{
	if (!pc->nr_caps) {
		fprintf(fp, "# %s pmu capabilities: not available\n", rp_str(pmu));
		return;
	}
	fprintf(fp, "# %s pmu capabilities: ", rp_str(pmu));
	for (uint32_t i = 0; i < pc->nr_caps; i++)
		fprintf(fp, "%s%s", i ? ", " : "", pc->caps[i]);
	fputc('\n', fp);
}

static int rp_cmp_prog(const void *a, const void *b)
{
	uint32_t x = (*(const struct rp_bpf_prog *const *)a)->id;
	uint32_t y = (*(const struct rp_bpf_prog *const *)b)->id;

	return (x > y) - (x < y);
}

static int rp_cmp_btf(const void *a, const void *b)
{
	uint32_t x = (*(const struct rp_bpf_btf *const *)a)->id;
	uint32_t y = (*(const struct rp_bpf_btf *const *)b)->id;

	return (x > y) - (x < y);
}

/* An element of one of a BPF program's arrays, found by its offset in the
 * program's data; 0 when outside it. */
static uint64_t rp_bpf_elem(const struct rp_bpf_prog *b, uint64_t off, uint32_t i,
			    unsigned size, int swap)
{
	uint64_t at = off + (uint64_t)i * size;

	if (off > b->data_len || at + size > b->data_len || at < off)
		return 0;
	return size == 8 ? rp_load64(b->data + at, swap) : rp_load32(b->data + at, swap);
}

#define RP_BTF_MAGIC 0xeb9f
#define RP_BTF_HDR_MIN 24u

/* Bytes that follow a btf_type of this kind (linux/btf.h). */
static uint64_t rp_btf_extra(uint32_t kind, uint32_t vlen)
{
	switch (kind) {
	case 1: case 14: case 17: return 4;           /* INT, VAR, DECL_TAG */
	case 3: return 12;                            /* ARRAY */
	case 4: case 5: case 15: case 19: return (uint64_t)vlen * 12; /* STRUCT UNION DATASEC ENUM64 */
	case 6: case 13: return (uint64_t)vlen * 8;   /* ENUM, FUNC_PROTO */
	default: return 0;
	}
}

/* The name of BTF type `id` in blob btf, or NULL. */
static const char *rp_btf_type_name(const struct rp_bpf_btf *btf, uint32_t id)
{
	const uint8_t *p = btf->data;
	uint64_t len = btf->data_size;

	if (len < RP_BTF_HDR_MIN || rp_load16(p, 0) != RP_BTF_MAGIC || id == 0)
		return NULL;
	uint64_t hdr = rp_load32(p + 4, 0), type_off = rp_load32(p + 8, 0);
	uint64_t type_len = rp_load32(p + 12, 0), str_off = rp_load32(p + 16, 0);
	uint64_t str_len = rp_load32(p + 20, 0);
	uint64_t t = hdr + type_off, tend = t + type_len, str = hdr + str_off;

	if (tend > len || str + str_len > len)
		return NULL;
	for (uint32_t cur = 1; t + 12 <= tend; cur++) {
		uint32_t name_off = rp_load32(p + t, 0), info = rp_load32(p + t + 4, 0);

		if (cur == id) {
			if (name_off >= str_len || !memchr(p + str + name_off, 0, str_len - name_off))
				return NULL;
			return (const char *)p + str + name_off;
		}
		t += 12 + rp_btf_extra(info >> 24 & 0x1f, info & 0xffff);
	}
	return NULL;
}

static void rp_bpf_name(char *buf, size_t len, const struct rp_features *f,
			const struct rp_bpf_prog *b, uint32_t sub)
{
	size_t used = (size_t)snprintf(buf, len, "bpf_prog_");
	uint64_t at = b->prog_tags + (uint64_t)sub * 8;
	const char *short_name = NULL;
	const struct rp_bpf_btf *btf = NULL;

	for (int i = 0; i < 8 && used + 3 <= len; i++) {
		uint8_t t = at + 8 <= b->data_len && at >= b->prog_tags ? b->data[at + (uint64_t)i] : 0;

		used += (size_t)snprintf(buf + used, len - used, "%02x", t);
	}
	for (uint32_t i = 0; b->btf_id && i < f->nr_bpf_btfs && !btf; i++)
		if (f->bpf_btfs[i].id == b->btf_id)
			btf = &f->bpf_btfs[i];
	if (btf) {
		/* The function's name from its BTF func_info record. */
		uint64_t fi = b->func_info + (uint64_t)sub * b->func_info_rec_size;

		if (fi + 8 <= b->data_len && fi >= b->func_info)
			short_name = rp_btf_type_name(btf, rp_load32(b->data + fi + 4, 0));
	} else if (b->nr_jited_ksyms == 1 && sub == 0) {
		if (b->name[0])
			short_name = b->name;
	} else {
		short_name = "F";
	}
	if (short_name && used < len)
		snprintf(buf + used, len - used, "_%s", short_name);
}

static void rp_print_bpf_prog_info(FILE *fp, const struct rp_features *f, int swap)
{
	const struct rp_bpf_prog **v = calloc(f->nr_bpf_progs ? f->nr_bpf_progs : 1, sizeof(*v));
	uint32_t n = 0;

	if (!v || swap) {
		free(v);
		return;
	}
	for (uint32_t i = 0; i < f->nr_bpf_progs; i++) {
		int dup = 0;

		for (uint32_t j = 0; j < n; j++)
			dup |= v[j]->id == f->bpf_progs[i].id;
		if (!dup)
			v[n++] = &f->bpf_progs[i];
	}
	qsort(v, n, sizeof(*v), rp_cmp_prog);
	for (uint32_t i = 0; i < n; i++) {
		const struct rp_bpf_prog *b = v[i];
		uint32_t cnt = b->nr_jited_ksyms;
		char name[512]; /* perf's KSYM_NAME_LEN */

		if (cnt != b->nr_prog_tags || cnt != b->nr_jited_func_lens)
			continue;
		if (cnt == 1) {
			rp_bpf_name(name, sizeof(name), f, b, 0);
			fprintf(fp, "# bpf_prog_info %u: %s addr 0x%llx size %u\n", b->id, name,
				(unsigned long long)rp_bpf_elem(b, b->jited_ksyms, 0, 8, swap),
				(unsigned)rp_bpf_elem(b, b->jited_func_lens, 0, 4, swap));
			continue;
		}
		fprintf(fp, "# bpf_prog_info %u:\n", b->id);
		for (uint32_t k = 0; k < cnt; k++) {
			rp_bpf_name(name, sizeof(name), f, b, k);
			fprintf(fp, "# \tsub_prog %u: %s addr 0x%llx size %u\n", k, name,
				(unsigned long long)rp_bpf_elem(b, b->jited_ksyms, k, 8, swap),
				(unsigned)rp_bpf_elem(b, b->jited_func_lens, k, 4, swap));
		}
	}
	free(v);
}

static void rp_print_bpf_btf(FILE *fp, const struct rp_features *f, int swap)
{
	const struct rp_bpf_btf **v = calloc(f->nr_bpf_btfs ? f->nr_bpf_btfs : 1, sizeof(*v));
	uint32_t n = 0;

	if (!v || swap) {
		free(v);
		return;
	}
	for (uint32_t i = 0; i < f->nr_bpf_btfs; i++) {
		int dup = 0;

		for (uint32_t j = 0; j < n; j++)
			dup |= v[j]->id == f->bpf_btfs[i].id;
		if (!dup)
			v[n++] = &f->bpf_btfs[i];
	}
	qsort(v, n, sizeof(*v), rp_cmp_btf);
	for (uint32_t i = 0; i < n; i++)
		fprintf(fp, "# btf info of id %u\n", v[i]->id);
	free(v);
}

/* Features perf prints only with -I. */
static int rp_full_only(unsigned feat)
{
	return feat == RP_FEAT_CPU_TOPOLOGY || feat == RP_FEAT_NUMA_TOPOLOGY ||
	       feat == RP_FEAT_CACHE || feat == RP_FEAT_MEM_TOPOLOGY ||
	       feat == RP_FEAT_HYBRID_TOPOLOGY;
}

static void rp_print_feature(FILE *fp, const struct rp_session *s, const struct rp_features *all,
			     unsigned feat, int full)
{
	static const struct rp_features none;
	/* perf prints from what its reader filled: nothing after it stopped. */
	const struct rp_features *f =
		all->perf_stop_feat && feat > all->perf_stop_feat ? &none : all;
	/* NRCPUS as perf's reader left it, for the topology. */
	uint32_t cpu_nr = all->perf_stop_feat && RP_FEAT_NRCPUS > all->perf_stop_feat
				  ? 0 : all->nr_cpus_avail;
	int swap = rp_session_needs_swap(s);

	if (feat == RP_FEAT_TRACING_DATA || feat == RP_FEAT_BUILD_ID)
		return;
	if (rp_full_only(feat) && !full) {
		fprintf(fp, "# %s info available, use -I to display\n", rp_feature_name(feat));
		return;
	}
	switch (feat) {
	case RP_FEAT_HOSTNAME: fprintf(fp, "# hostname : %s\n", rp_str(f->hostname)); break;
	case RP_FEAT_OSRELEASE: fprintf(fp, "# os release : %s\n", rp_str(f->osrelease)); break;
	case RP_FEAT_VERSION: fprintf(fp, "# perf version : %s\n", rp_str(f->version)); break;
	case RP_FEAT_ARCH: fprintf(fp, "# arch : %s\n", rp_str(f->arch)); break;
	case RP_FEAT_NRCPUS:
		fprintf(fp, "# nrcpus online : %u\n", f->nr_cpus_online);
		fprintf(fp, "# nrcpus avail : %u\n", f->nr_cpus_avail);
		break;
	case RP_FEAT_CPUDESC: fprintf(fp, "# cpudesc : %s\n", rp_str(f->cpudesc)); break;
	case RP_FEAT_CPUID: fprintf(fp, "# cpuid : %s\n", rp_str(f->cpuid)); break;
	case RP_FEAT_TOTAL_MEM:
		fprintf(fp, "# total memory : %llu kB\n", (unsigned long long)f->total_mem);
		break;
	case RP_FEAT_CMDLINE: rp_print_cmdline(fp, f); break;
	/* perf reads EVENT_DESC again from the file to print it. */
	case RP_FEAT_EVENT_DESC: rp_print_event_desc(fp, all); break;
	case RP_FEAT_CPU_TOPOLOGY: rp_print_cpu_topology(fp, f, cpu_nr); break;
	case RP_FEAT_NUMA_TOPOLOGY: rp_print_numa(fp, f); break;
	case RP_FEAT_BRANCH_STACK: fputs("# contains samples with branch stack\n", fp); break;
	case RP_FEAT_PMU_MAPPINGS: rp_print_pmu_mappings(fp, f); break;
	case RP_FEAT_GROUP_DESC: rp_print_group_desc(fp, s, f); break;
	case RP_FEAT_AUXTRACE:
		fputs("# contains AUX area data (e.g. instruction trace)\n", fp);
		break;
	case RP_FEAT_STAT: fputs("# contains stat data\n", fp); break;
	case RP_FEAT_CACHE:
		fputs("# CPU cache info:\n", fp);
		for (uint32_t i = 0; i < f->nr_caches; i++)
			fprintf(fp, "#  L%d %-15s %8s [%s]\n", (int)f->caches[i].level,
				f->caches[i].type, f->caches[i].size, f->caches[i].map);
		break;
	case RP_FEAT_SAMPLE_TIME: rp_print_sample_time(fp, f); break;
	case RP_FEAT_MEM_TOPOLOGY: rp_print_mem_topology(fp, f); break;
	case RP_FEAT_CLOCKID:
		fprintf(fp, "# clockid frequency: %" PRIu64 " MHz\n", f->clockid_res_ns * 1000);
		break;
	case RP_FEAT_DIR_FORMAT:
		fprintf(fp, "# directory data version : %" PRIu64 "\n", f->dir_version);
		break;
	case RP_FEAT_BPF_PROG_INFO: rp_print_bpf_prog_info(fp, f, swap); break;
	case RP_FEAT_BPF_BTF: rp_print_bpf_btf(fp, f, swap); break;
	case RP_FEAT_COMPRESSED:
		fprintf(fp, "# compressed : %s, level = %d, ratio = %d\n",
			f->comp_type == 1 ? "Zstd" : "Unknown", (int)f->comp_level,
			(int)f->comp_ratio);
		break;
	case RP_FEAT_CPU_PMU_CAPS: rp_print_pmu_caps_one(fp, &f->cpu_pmu_caps, "cpu"); break;
	case RP_FEAT_CLOCK_DATA:
		rp_print_clock_data(fp, f, f->state[RP_FEAT_CLOCK_DATA] == RP_FEAT_OK);
		break;
	case RP_FEAT_HYBRID_TOPOLOGY:
		fputs("# hybrid cpu system:\n", fp);
		for (uint32_t i = 0; i < f->nr_hybrid_nodes; i++)
			fprintf(fp, "# %s cpu list : %s\n", f->hybrid_nodes[i].pmu_name,
				f->hybrid_nodes[i].cpus);
		break;
	case RP_FEAT_PMU_CAPS:
		for (uint32_t i = 0; i < f->nr_pmu_caps; i++)
			rp_print_pmu_caps_one(fp, &f->pmu_caps[i], f->pmu_caps[i].pmu_name);
		break;
	default:
		break; /* CPU_DOMAIN_INFO and later: unknown to perf 6.1 */
	}
}

int rp_header_fprintf(FILE *fp, const struct rp_session *s, const struct rp_features *f,
		      const struct rp_header_print_opts *opts)
{
	struct rp_header_print_opts o;
	char when[64];
	time_t mtime;
	uint64_t off = 0, size = 0;

	if (!fp || !s || !f || rp_opts_copy(&o, sizeof(o), opts) < 0)
		return RP_ERR_INVAL;
	mtime = o.mtime;
	if (!ctime_r(&mtime, when))
		snprintf(when, sizeof(when), "(null)\n");
	if (!o.is_pipe) {
		off = rp_session_data_offset(s);
		size = rp_session_data_size(s);
	}
	fputs("# ========\n", fp);
	fprintf(fp, "# captured on    : %s", when);
	fprintf(fp, "# header version : %u\n", 1u);
	fprintf(fp, "# data offset    : %" PRIu64 "\n", off);
	fprintf(fp, "# data size      : %" PRIu64 "\n", size);
	fprintf(fp, "# feat offset    : %" PRIu64 "\n", off + size);
	if (o.is_pipe)
		fputs("# ========\n#\n", fp);
	for (unsigned feat = 1; feat < RP_FEATURES_PERF61_LAST; feat++)
		if (rp_session_has_feature(s, feat))
			rp_print_feature(fp, s, f, feat, o.full);
	if (!o.is_pipe) {
		fputs("# missing features: ", fp);
		for (unsigned feat = 1; feat < RP_FEATURES_PERF61_LAST; feat++)
			if (!rp_session_has_feature(s, feat))
				fprintf(fp, "%s ", rp_feature_name(feat));
		fputs("\n# ========\n#\n", fp);
	}
	fflush(fp);
	return ferror(fp) ? RP_ERR_IO : 0;
}

/* The header output: the decoded features, what they lack, where to. */
struct rp_header_output {
	const struct rp_session *session;
	struct rp_features *features;
	struct rp_header_print_opts opts;
	FILE *f;
	char *warnings; /* lines, or NULL */
};

static int rp_header_output_warn(struct rp_header_output *h)
{
	size_t n = 0, len;
	char *w;

	if (rp_session_stats(h->session)->cut_short)
		n += 160;
	for (unsigned feat = 1; feat <= RP_FEATURES_LAST; feat++)
		if (h->features->state[feat] == RP_FEAT_DAMAGED)
			n += 64;
	if (!n)
		return 0;
	w = h->warnings = calloc(1, n + 1);
	if (!w)
		return RP_ERR_NOMEM;
	if (rp_session_stats(h->session)->cut_short)
		strcpy(w, "the recording was cut short (data size 0 in its header: perf record "
			  "did not finish it); its header features were never written\n");
	for (unsigned feat = 1; feat <= RP_FEATURES_LAST; feat++) {
		len = strlen(w);
		if (h->features->state[feat] == RP_FEAT_DAMAGED)
			snprintf(w + len, n + 1 - len, "damaged %s feature section\n",
				 rp_feature_name(feat));
	}
	return 0;
}

static int rp_header_output_create(void **state, const struct rp_output_env *env,
				   const void *opts, const struct rp_output_target *target,
				   struct rp_error *err)
{
	struct rp_header_output *h = calloc(1, sizeof(*h));
	int ret;

	if (!h)
		return rp_error_set(err, RP_ERR_NOMEM, "out of memory");
	if (rp_opts_copy(&h->opts, sizeof(h->opts), opts) < 0) {
		free(h);
		return rp_error_set(err, RP_ERR_INVAL, "bad options");
	}
	h->opts.is_pipe = rp_session_is_pipe(env->session);
	h->session = env->session;
	h->f = target->stream;
	ret = rp_features_read(&h->features, env->session, err);
	if (ret < 0 || (ret = rp_header_output_warn(h)) < 0) {
		rp_features_free(h->features);
		free(h);
		return ret == RP_ERR_NOMEM ? rp_error_set(err, ret, "out of memory") : ret;
	}
	*state = h;
	return 0;
}

static int rp_header_output_ignore(void *ctx, const struct rp_event *ev,
				   const struct rp_resolved *res)
{
	(void)ctx;
	(void)ev;
	(void)res;
	return 0;
}

static struct rp_consumer rp_header_output_consumer(void *state)
{
	return (struct rp_consumer){ state, rp_header_output_ignore, 0 };
}

static int rp_header_output_finish(void *state, struct rp_error *err)
{
	struct rp_header_output *h = state;
	int ret = rp_header_fprintf(h->f, h->session, h->features, &h->opts);

	return ret < 0 ? rp_error_set(err, ret, "cannot write the header: %s", rp_strerror(ret))
		       : 0;
}

static void rp_header_output_destroy(void *state)
{
	struct rp_header_output *h = state;

	rp_features_free(h->features);
	free(h->warnings);
	free(h);
}

static const char *rp_header_output_warnings(void *state)
{
	return ((struct rp_header_output *)state)->warnings;
}

const struct rp_output_def rp_output_header = {
	.name = "header",
	.flags = RP_OUTPUT_HEADER_ONLY,
	.create = rp_header_output_create,
	.consumer = rp_header_output_consumer,
	.finish = rp_header_output_finish,
	.destroy = rp_header_output_destroy,
	.warnings = rp_header_output_warnings,
};
