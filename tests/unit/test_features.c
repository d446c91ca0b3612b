/* SPDX-License-Identifier: MIT */
/*
 * Feature section decoders (include/readperf/features.h): sections built
 * here in both byte orders, each decoded and checked, then cut at every
 * length (a damaged section is reported, never a crash).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <readperf/features.h>

#include "format/features_int.h"

#define SEC_MAX 8192

/* A section under construction, in little- or big-endian order. */
struct sec {
	uint8_t b[SEC_MAX];
	size_t n;
	int be;
};

static void put(struct sec *s, uint64_t v, unsigned size)
{
	assert_true(s->n + size <= SEC_MAX);
	for (unsigned i = 0; i < size; i++) {
		unsigned shift = s->be ? 8 * (size - 1 - i) : 8 * i;

		s->b[s->n++] = (uint8_t)(v >> shift);
	}
}

static void u32(struct sec *s, uint32_t v) { put(s, v, 4); }
static void u64(struct sec *s, uint64_t v) { put(s, v, 8); }

/* perf_header_string: u32 len, NUL-padded to 64. */
static void str(struct sec *s, const char *v)
{
	size_t len = (strlen(v) + 1 + 63) / 64 * 64;

	u32(s, (uint32_t)len);
	assert_true(s->n + len <= SEC_MAX);
	memset(s->b + s->n, 0, len);
	memcpy(s->b + s->n, v, strlen(v));
	s->n += len;
}

static int host_be(void)
{
	const uint16_t one = 1;
	uint8_t b;

	memcpy(&b, &one, 1);
	return b == 0;
}

typedef void (*build_fn)(struct sec *s);
typedef void (*check_fn)(const struct rp_features *f);

/*
 * Decodes the section built by build in both byte orders and checks it;
 * then every shorter cut must decode without a crash, and those that end
 * inside the section must be reported damaged unless ok_cut allows them.
 */
static void run(unsigned feat, build_fn build, check_fn check, int short_ok)
{
	for (int be = 0; be < 2; be++) {
		struct sec s = { .be = be };
		struct rp_features *f;

		build(&s);
		assert_int_equal(rp_features_new(&f), 0);
		assert_int_equal(rp_features_decode(f, feat, s.b, s.n, be != host_be()), 0);
		assert_int_equal(f->state[feat], RP_FEAT_OK);
		check(f);
		rp_features_free(f);

		for (size_t cut = 0; cut < s.n; cut++) {
			uint8_t *copy = malloc(cut ? cut : 1);

			assert_non_null(copy);
			memcpy(copy, s.b, cut);
			assert_int_equal(rp_features_new(&f), 0);
			int ret = rp_features_decode(f, feat, copy, cut, be != host_be());
			if (!short_ok) {
				assert_true(ret < 0);
				assert_int_equal(f->state[feat], RP_FEAT_DAMAGED);
			}
			rp_features_free(f);
			free(copy);
		}
	}
}

static void b_hostname(struct sec *s) { str(s, "myhost"); }
static void c_hostname(const struct rp_features *f) { assert_string_equal(f->hostname, "myhost"); }

static void b_nrcpus(struct sec *s) { u32(s, 8); u32(s, 6); }
static void c_nrcpus(const struct rp_features *f)
{
	assert_int_equal(f->nr_cpus_avail, 8);
	assert_int_equal(f->nr_cpus_online, 6);
}

static void b_total_mem(struct sec *s) { u64(s, 0x123456789ull); }
static void c_total_mem(const struct rp_features *f) { assert_true(f->total_mem == 0x123456789ull); }

static void b_cmdline(struct sec *s) { u32(s, 3); str(s, "/usr/bin/perf"); str(s, "record"); str(s, "it's"); }
static void c_cmdline(const struct rp_features *f)
{
	assert_int_equal(f->nr_cmdline, 3);
	assert_string_equal(f->cmdline[0], "/usr/bin/perf");
	assert_string_equal(f->cmdline[2], "it's");
}

static void attr(struct sec *s, uint32_t type, uint64_t config, uint64_t flags)
{
	size_t start = s->n;

	u32(s, type);
	u32(s, 128);
	u64(s, config);
	u64(s, 4000);     /* sample_period */
	u64(s, 0x107);    /* IP|TID|TIME|PERIOD */
	u64(s, 0x14);     /* ID|LOST */
	/* The flag bits: perf's bitfields, byte-swapped as perf does for the
	 * other order (bit order inside each byte reversed). */
	for (int i = 0; i < 8; i++) {
		uint8_t byte = (uint8_t)(flags >> (8 * i));

		if (s->be) {
			uint8_t r = 0;
			for (int k = 0; k < 8; k++)
				r |= (uint8_t)(((byte >> k) & 1) << (7 - k));
			byte = r;
		}
		s->b[s->n++] = byte;
	}
	while (s->n < start + 128)
		s->b[s->n++] = 0;
}

static void b_event_desc(struct sec *s)
{
	u32(s, 2);   /* events */
	u32(s, 128); /* attr size */
	attr(s, 1, 0, 1 | (1ull << 18));
	u32(s, 2);
	str(s, "cpu-clock");
	u64(s, 11);
	u64(s, 12);
	attr(s, 1, 1, 1);
	u32(s, 0);
	str(s, "task-clock");
}

static void c_event_desc(const struct rp_features *f)
{
	assert_int_equal(f->nr_events, 2);
	assert_true(f->event_desc_ok);
	assert_string_equal(f->events[0].name, "cpu-clock");
	assert_int_equal(f->events[0].nr_ids, 2);
	assert_true(f->events[0].ids[1] == 12);
	assert_true(f->events[0].attr.sample_type == 0x107);
	assert_true(f->events[0].attr.flags == (1 | (1ull << 18)));
	assert_true(f->events[1].attr.config == 1);
	assert_string_equal(f->events[1].name, "task-clock");
}

/* Revision 3: lists, per-cpu core/socket, die lists and die ids. */
static void b_topology(struct sec *s)
{
	u32(s, 1);
	str(s, "0-1");
	u32(s, 2);
	str(s, "0");
	str(s, "1");
	u32(s, 0); u32(s, 0);
	u32(s, 1); u32(s, 0);
	u32(s, 1);
	str(s, "0-1");
	u32(s, 0);
	u32(s, 0);
}

static void c_topology(const struct rp_features *f)
{
	assert_int_equal(f->nr_sibling_cores, 1);
	assert_int_equal(f->nr_sibling_threads, 2);
	assert_string_equal(f->sibling_threads[1], "1");
	assert_non_null(f->topo_cpus);
	assert_int_equal(f->topo_cpus[1].core_id, 1);
	assert_true(f->topo_has_dies);
	assert_int_equal(f->nr_sibling_dies, 1);
}

static void test_cpu_topology(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		struct sec s = { .be = be }, n = { .be = be };
		struct rp_features *f;

		b_nrcpus(&n);
		n.n = 0;
		u32(&n, 2);
		u32(&n, 2);
		b_topology(&s);
		assert_int_equal(rp_features_new(&f), 0);
		assert_int_equal(rp_features_decode(f, RP_FEAT_NRCPUS, n.b, n.n, be != host_be()), 0);
		assert_int_equal(rp_features_decode(f, RP_FEAT_CPU_TOPOLOGY, s.b, s.n,
						    be != host_be()), 0);
		c_topology(f);
		/* Cut inside the die ids: damaged; cut right after the lists:
		 * revision 1, no per-cpu ids. */
		assert_true(rp_features_decode(f, RP_FEAT_CPU_TOPOLOGY, s.b, s.n - 2,
					       be != host_be()) < 0);
		assert_int_equal(f->state[RP_FEAT_CPU_TOPOLOGY], RP_FEAT_DAMAGED);
		rp_features_free(f);
		assert_int_equal(rp_features_new(&f), 0);
		assert_int_equal(rp_features_decode(f, RP_FEAT_NRCPUS, n.b, n.n, be != host_be()), 0);
		assert_int_equal(rp_features_decode(f, RP_FEAT_CPU_TOPOLOGY, s.b,
						    4 + 68 + 4 + 68 + 68, be != host_be()), 0);
		assert_null(f->topo_cpus);
		assert_false(f->topo_has_dies);
		rp_features_free(f);
	}
}

static void b_numa(struct sec *s) { u32(s, 1); u32(s, 0); u64(s, 1000); u64(s, 500); str(s, "0-3"); }
static void c_numa(const struct rp_features *f)
{
	assert_int_equal(f->nr_numa_nodes, 1);
	assert_true(f->numa_nodes[0].mem_free == 500);
	assert_string_equal(f->numa_nodes[0].cpus, "0-3");
}

static void b_pmu(struct sec *s) { u32(s, 2); u32(s, 1); str(s, "software"); u32(s, 2); str(s, "tracepoint"); }
static void c_pmu(const struct rp_features *f)
{
	assert_int_equal(f->nr_pmu_mappings, 2);
	assert_int_equal(f->pmu_mappings[1].type, 2);
	assert_string_equal(f->pmu_mappings[1].name, "tracepoint");
}

static void b_group(struct sec *s) { u32(s, 1); str(s, "{anon_group}"); u32(s, 0); u32(s, 2); }
static void c_group(const struct rp_features *f)
{
	assert_int_equal(f->nr_groups, 1);
	assert_int_equal(f->groups[0].nr_members, 2);
}

static void b_aux(struct sec *s) { u64(s, 1); u64(s, 4096); u64(s, 64); }
static void c_aux(const struct rp_features *f)
{
	assert_true(f->nr_auxtrace_index == 1);
	assert_true(f->auxtrace_index[0].file_offset == 4096);
}

static void b_cache(struct sec *s)
{
	u32(s, 1); u32(s, 1);
	u32(s, 1); u32(s, 64); u32(s, 64); u32(s, 8);
	str(s, "Data"); str(s, "32K"); str(s, "0");
}
static void c_cache(const struct rp_features *f)
{
	assert_int_equal(f->nr_caches, 1);
	assert_int_equal(f->caches[0].line_size, 64);
	assert_string_equal(f->caches[0].size, "32K");
}

static void b_stime(struct sec *s) { u64(s, 1000); u64(s, 5000); }
static void c_stime(const struct rp_features *f) { assert_true(f->last_sample_time == 5000); }

static void b_mem(struct sec *s) { u64(s, 1); u64(s, 0x8000000); u64(s, 1); u64(s, 0); u64(s, 70); u64(s, 70); u64(s, 0xff); u64(s, 0x20); }
static void c_mem(const struct rp_features *f)
{
	assert_true(f->nr_mem_nodes == 1);
	assert_true(f->mem_nodes[0].nr_bits == 70);
	assert_true(f->mem_nodes[0].bits[1] == 0x20);
}

static void b_clockid(struct sec *s) { u64(s, 1); }
static void c_clockid(const struct rp_features *f) { assert_true(f->clockid_res_ns == 1); }

static void b_dir(struct sec *s) { u64(s, 1); }
static void c_dir(const struct rp_features *f) { assert_true(f->dir_version == 1); }

static void b_bpf(struct sec *s)
{
	u32(s, 1);
	u32(s, 16); /* info_len */
	u32(s, 8);  /* data_len */
	u64(s, 0);
	u32(s, 2);  /* type */
	u32(s, 7);  /* id */
	for (int i = 0; i < 8; i++)
		s->b[s->n++] = (uint8_t)i;
	u64(s, 0);
}
static void c_bpf(const struct rp_features *f)
{
	assert_int_equal(f->nr_bpf_progs, 1);
	assert_int_equal(f->bpf_progs[0].id, 7);
	assert_int_equal(f->bpf_progs[0].tag[3], 3);
}

static void b_btf(struct sec *s) { u32(s, 1); u32(s, 3); u32(s, 4); u32(s, 0xdeadbeef); }
static void c_btf(const struct rp_features *f)
{
	assert_int_equal(f->nr_bpf_btfs, 1);
	assert_int_equal(f->bpf_btfs[0].data_size, 4);
}

static void b_comp(struct sec *s) { u32(s, 1); u32(s, 1); u32(s, 3); u32(s, 4); u32(s, 528384); }
static void c_comp(const struct rp_features *f)
{
	assert_int_equal(f->comp_type, 1);
	assert_int_equal(f->comp_level, 3);
	assert_int_equal(f->comp_mmap_len, 528384);
}

static void b_cpucaps(struct sec *s) { u32(s, 2); str(s, "branches"); str(s, "32"); str(s, "max_precise"); str(s, "3"); }
static void c_cpucaps(const struct rp_features *f)
{
	assert_int_equal(f->cpu_pmu_caps.nr_caps, 2);
	assert_string_equal(f->cpu_pmu_caps.caps[1], "max_precise=3");
}

static void b_clockdata(struct sec *s) { u32(s, 1); u32(s, 1); u64(s, 1700000000123456789ull); u64(s, 405068949598ull); }
static void c_clockdata(const struct rp_features *f)
{
	assert_int_equal(f->clock_clockid, 1);
	assert_true(f->clock_ns == 405068949598ull);
}

static void b_hybrid(struct sec *s) { u32(s, 2); str(s, "cpu_core"); str(s, "0-7"); str(s, "cpu_atom"); str(s, "8-15"); }
static void c_hybrid(const struct rp_features *f)
{
	assert_int_equal(f->nr_hybrid_nodes, 2);
	assert_string_equal(f->hybrid_nodes[1].cpus, "8-15");
}

static void b_pmucaps(struct sec *s) { u32(s, 1); u32(s, 1); str(s, "mtc"); str(s, "1"); str(s, "intel_pt"); }
static void c_pmucaps(const struct rp_features *f)
{
	assert_int_equal(f->nr_pmu_caps, 1);
	assert_string_equal(f->pmu_caps[0].pmu_name, "intel_pt");
	assert_string_equal(f->pmu_caps[0].caps[0], "mtc=1");
}

static void b_build_id(struct sec *s)
{
	size_t start = s->n;

	u32(s, 0x43);       /* header.type: HEADER_BUILD_ID */
	put(s, 1, 2);       /* misc: kernel */
	put(s, 36 + 24, 2); /* size */
	u32(s, (uint32_t)-1);
	for (int i = 0; i < 24; i++)
		s->b[s->n++] = (uint8_t)(i + 1);
	memcpy(s->b + s->n, "[kernel.kallsyms]", 18);
	s->n += 18;
	while (s->n < start + 60)
		s->b[s->n++] = 0;
}
static void c_build_id(const struct rp_features *f)
{
	assert_int_equal(f->nr_build_ids, 1);
	assert_string_equal(f->build_ids[0].filename, "[kernel.kallsyms]");
	assert_int_equal(f->build_ids[0].build_id[0], 1);
}

static void b_tracing(struct sec *s)
{
	static const uint8_t m[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g', '0', 0 };

	memcpy(s->b, m, sizeof(m));
	s->n = sizeof(m);
}
static void c_tracing(const struct rp_features *f) { assert_true(f->tracing_data_size == 12); }

static void b_domains(struct sec *s)
{
	u32(s, 17); /* schedstat version */
	u32(s, 2);  /* max domains */
	u32(s, 0);  /* cpu */
	u32(s, 1);
	u32(s, 0);
	str(s, "SMT");
	str(s, "3");
	str(s, "0-1");
}

static void test_cpu_domain_info(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		struct sec s = { .be = be }, n = { .be = be };
		struct rp_features *f;

		u32(&n, 1);
		u32(&n, 1);
		b_domains(&s);
		assert_int_equal(rp_features_new(&f), 0);
		assert_int_equal(rp_features_decode(f, RP_FEAT_NRCPUS, n.b, n.n, be != host_be()), 0);
		assert_int_equal(rp_features_decode(f, RP_FEAT_CPU_DOMAIN_INFO, s.b, s.n,
						    be != host_be()), 0);
		assert_int_equal(f->nr_cpu_domains, 1);
		assert_string_equal(f->cpu_domains[0].domains[0].name, "SMT");
		assert_string_equal(f->cpu_domains[0].domains[0].cpulist, "0-1");
		for (size_t cut = 0; cut < s.n; cut++)
			assert_true(rp_features_decode(f, RP_FEAT_CPU_DOMAIN_INFO, s.b, cut,
						       be != host_be()) < 0);
		rp_features_free(f);
	}
}

#define T(name, feat, b, c, short_ok) \
	static void test_##name(void **state) { (void)state; run(feat, b, c, short_ok); }

T(hostname, RP_FEAT_HOSTNAME, b_hostname, c_hostname, 0)
T(nrcpus, RP_FEAT_NRCPUS, b_nrcpus, c_nrcpus, 0)
T(total_mem, RP_FEAT_TOTAL_MEM, b_total_mem, c_total_mem, 0)
T(cmdline, RP_FEAT_CMDLINE, b_cmdline, c_cmdline, 0)
T(event_desc, RP_FEAT_EVENT_DESC, b_event_desc, c_event_desc, 0)
T(numa, RP_FEAT_NUMA_TOPOLOGY, b_numa, c_numa, 0)
T(pmu_mappings, RP_FEAT_PMU_MAPPINGS, b_pmu, c_pmu, 0)
T(group_desc, RP_FEAT_GROUP_DESC, b_group, c_group, 0)
T(auxtrace, RP_FEAT_AUXTRACE, b_aux, c_aux, 0)
T(cache, RP_FEAT_CACHE, b_cache, c_cache, 0)
T(sample_time, RP_FEAT_SAMPLE_TIME, b_stime, c_stime, 0)
T(mem_topology, RP_FEAT_MEM_TOPOLOGY, b_mem, c_mem, 0)
T(clockid, RP_FEAT_CLOCKID, b_clockid, c_clockid, 0)
T(dir_format, RP_FEAT_DIR_FORMAT, b_dir, c_dir, 0)
T(bpf_prog_info, RP_FEAT_BPF_PROG_INFO, b_bpf, c_bpf, 0)
T(bpf_btf, RP_FEAT_BPF_BTF, b_btf, c_btf, 0)
T(compressed, RP_FEAT_COMPRESSED, b_comp, c_comp, 0)
T(cpu_pmu_caps, RP_FEAT_CPU_PMU_CAPS, b_cpucaps, c_cpucaps, 0)
T(clock_data, RP_FEAT_CLOCK_DATA, b_clockdata, c_clockdata, 0)
T(hybrid, RP_FEAT_HYBRID_TOPOLOGY, b_hybrid, c_hybrid, 0)
T(pmu_caps, RP_FEAT_PMU_CAPS, b_pmucaps, c_pmucaps, 0)
/* A table cut between records, or raw tracing data cut after its magic,
 * still decodes; cuts inside a record are checked in test_caps. */
T(build_id, RP_FEAT_BUILD_ID, b_build_id, c_build_id, 1)
T(tracing_data, RP_FEAT_TRACING_DATA, b_tracing, c_tracing, 1)

/* Counts beyond their caps or beyond the section are refused, not
 * allocated. */
static void test_caps(void **state)
{
	struct sec s = { .be = host_be() };
	struct rp_features *f;

	(void)state;
	u32(&s, 0xffffffffu);
	assert_int_equal(rp_features_new(&f), 0);
	assert_int_equal(rp_features_decode(f, RP_FEAT_CMDLINE, s.b, s.n, 0), RP_ERR_LIMIT);
	assert_true(rp_features_decode(f, RP_FEAT_PMU_MAPPINGS, s.b, s.n, 0) < 0);
	s.n = 0;
	u64(&s, 1);
	u64(&s, 0);
	u64(&s, 1000);
	assert_true(rp_features_decode(f, RP_FEAT_MEM_TOPOLOGY, s.b, s.n, 0) < 0);
	assert_int_equal(rp_features_decode(f, 0, s.b, s.n, 0), RP_ERR_INVAL);
	assert_int_equal(rp_features_decode(f, RP_FEATURES_LAST + 1, s.b, s.n, 0), RP_ERR_INVAL);
	/* A string without its NUL is damaged. */
	s.n = 0;
	u32(&s, 4);
	memcpy(s.b + s.n, "abcd", 4);
	s.n += 4;
	assert_int_equal(rp_features_decode(f, RP_FEAT_HOSTNAME, s.b, s.n, 0), RP_ERR_CORRUPT);
	/* An attr with unknown sample_type bits makes perf refuse EVENT_DESC. */
	s.n = 0;
	u32(&s, 1);
	u32(&s, 128);
	attr(&s, 1, 0, 0);
	s.b[8 + 24 + 7] = 0x80; /* sample_type bit 63 (little-endian host) */
	u32(&s, 0);
	str(&s, "x");
	if (!host_be()) {
		assert_true(rp_features_decode(f, RP_FEAT_EVENT_DESC, s.b, s.n, 0) < 0);
		assert_false(f->event_desc_ok);
		assert_int_equal(f->state[RP_FEAT_EVENT_DESC], RP_FEAT_DAMAGED);
		/* its entries stay, for the session's evsel names */
		assert_int_equal(f->nr_events, 1);
		assert_string_equal(f->events[0].name, "x");
	}
	/* An event description cut in its second entry keeps the first. */
	s.n = 0;
	b_event_desc(&s);
	assert_int_equal(rp_features_decode(f, RP_FEAT_EVENT_DESC, s.b, s.n - 4, 0),
			 RP_ERR_TRUNCATED);
	assert_false(f->event_desc_ok);
	assert_int_equal(f->nr_events, 1);
	assert_string_equal(f->events[0].name, "cpu-clock");
	/* A second build-id record cut inside: the first one stays. */
	s.n = 0;
	b_build_id(&s);
	b_build_id(&s);
	assert_int_equal(rp_features_decode(f, RP_FEAT_BUILD_ID, s.b, s.n - 10, 0),
			 RP_ERR_TRUNCATED);
	assert_int_equal(f->state[RP_FEAT_BUILD_ID], RP_FEAT_DAMAGED);
	assert_int_equal(f->nr_build_ids, 1);
	assert_string_equal(f->build_ids[0].filename, "[kernel.kallsyms]");
	/* A build-id record cut inside, and tracing data without its magic. */
	s.n = 0;
	b_build_id(&s);
	assert_int_equal(rp_features_decode(f, RP_FEAT_BUILD_ID, s.b, 30, 0), RP_ERR_TRUNCATED);
	assert_int_equal(f->state[RP_FEAT_BUILD_ID], RP_FEAT_DAMAGED);
	assert_true(rp_features_decode(f, RP_FEAT_TRACING_DATA, s.b, 5, 0) < 0);
	assert_true(rp_features_decode(f, RP_FEAT_TRACING_DATA, s.b, s.n, 0) < 0);
	rp_features_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostname),     cmocka_unit_test(test_nrcpus),
		cmocka_unit_test(test_total_mem),    cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_event_desc),   cmocka_unit_test(test_cpu_topology),
		cmocka_unit_test(test_numa),         cmocka_unit_test(test_pmu_mappings),
		cmocka_unit_test(test_group_desc),   cmocka_unit_test(test_auxtrace),
		cmocka_unit_test(test_cache),        cmocka_unit_test(test_sample_time),
		cmocka_unit_test(test_mem_topology), cmocka_unit_test(test_clockid),
		cmocka_unit_test(test_dir_format),   cmocka_unit_test(test_bpf_prog_info),
		cmocka_unit_test(test_bpf_btf),      cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_cpu_pmu_caps), cmocka_unit_test(test_clock_data),
		cmocka_unit_test(test_hybrid),       cmocka_unit_test(test_pmu_caps),
		cmocka_unit_test(test_build_id),     cmocka_unit_test(test_tracing_data),
		cmocka_unit_test(test_cpu_domain_info), cmocka_unit_test(test_caps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
