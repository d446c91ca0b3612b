/* SPDX-License-Identifier: MIT */
/*
 * The recorded machine: threads, comms, address spaces, kernel maps.
 *
 * Follows perf 6.1 (tools/perf/util/machine.c, thread.c, map.c, comm.c);
 * docs/machine.md lists each rule and where perf keeps it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <readperf/machine.h>

#include "common/array.h"
#include "machine/machine_int.h"

/* mman.h values, spelled out: the recording's, not the host's. */
#define RP_PROT_EXEC 0x4u
#define RP_MAP_HUGETLB 0x40000u

/* PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER (perf_event.h). */
#define RP_KSYMBOL_UNREGISTER 1u

/* perf's name for the host kernel ("[kernel.kallsyms]"), machine->mmap_name. */
static const char rp_kernel_mmap_name[] = "[kernel.kallsyms]";

/* ---------------------------------------------------------------- threads */

static uint64_t rp_tid_key(int32_t tid)
{
	return (uint64_t)(uint32_t)tid;
}

static struct rp_thread *rp_thread_new(struct rp_machine *machine, int32_t pid, int32_t tid,
				       int *err)
{
	if (machine->nr_threads >= RP_MACHINE_MAX_THREADS) {
		*err = RP_ERR_LIMIT;
		return NULL;
	}
	/* The comm history's first entry is allocated with the thread. */
	struct rp_thread *th = rp_arena_alloc(&machine->arena, sizeof(*th) + sizeof(struct rp_comm));
	char buf[16];
	int n = snprintf(buf, sizeof(buf), ":%d", (int)tid);
	const char *comm = rp_strpool_intern(&machine->names, buf, (size_t)n);

	if (!th || !comm) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	memset(th, 0, sizeof(*th));
	th->pid = pid;
	th->tid = tid;
	th->ppid = -1;
	th->ns_pid = pid;
	th->comms = (struct rp_comm *)(th + 1);
	th->comms[0].str = comm;
	th->comms[0].start = 0;
	th->comms[0].exec = 0;
	th->nr_comms = 1;
	th->comm = comm;
	th->next_all = machine->all_threads;
	machine->all_threads = th;
	machine->nr_threads++;
	return th;
}

static struct rp_thread *rp_findnew(struct rp_machine *machine, int32_t pid, int32_t tid,
				    int create, int *err);

/*
 * perf's machine__update_thread_pid(): a thread first seen without its
 * pid learns it, and from then on uses its group leader's maps.
 */
static int rp_update_pid(struct rp_machine *machine, struct rp_thread *th, int32_t pid)
{
	int err = 0;

	if (pid == th->pid || pid == -1 || th->pid != -1)
		return 0;
	th->pid = pid;
	if (th->pid == th->tid)
		return 0;

	struct rp_thread *leader = rp_findnew(machine, pid, pid, 1, &err);

	if (!leader)
		return err;
	if (!leader->maps && !(leader->maps = rp_maps_new(machine)))
		return RP_ERR_NOMEM;
	/* Maps the thread collected on its own are dropped, as perf does. */
	th->maps = leader->maps;
	return 0;
}

static struct rp_thread *rp_findnew(struct rp_machine *machine, int32_t pid, int32_t tid,
				    int create, int *err)
{
	struct rp_thread *th = machine->last_thread;

	if (!th || th->tid != tid)
		th = rp_hashmap_get(&machine->threads, rp_tid_key(tid));
	if (th) {
		machine->last_thread = th;
		if ((*err = rp_update_pid(machine, th, pid)) < 0)
			return NULL;
		return th;
	}
	if (!create)
		return NULL;
	/* perf's thread__init_maps(): a leader, or a thread of unknown
	 * process, gets its own address space; others share the leader's.
	 * The leader is found first, so that no thread is ever hashed
	 * without an address space. */
	struct rp_maps *maps;

	if (pid == tid || pid == -1) {
		maps = rp_maps_new(machine);
	} else {
		struct rp_thread *leader = rp_findnew(machine, pid, pid, 1, err);

		if (!leader)
			return NULL;
		maps = leader->maps;
	}
	if (!maps) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	if (!(th = rp_thread_new(machine, pid, tid, err)))
		return NULL;
	th->maps = maps;
	if (rp_hashmap_put(&machine->threads, rp_tid_key(tid), th) < 0) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	machine->last_thread = th;
	return th;
}

/* perf's machine__remove_thread(): the tid is free for a new thread. */
static void rp_remove_thread(struct rp_machine *machine, struct rp_thread *th)
{
	if (rp_hashmap_get(&machine->threads, rp_tid_key(th->tid)) == th)
		rp_hashmap_del(&machine->threads, rp_tid_key(th->tid));
	if (machine->last_thread == th)
		machine->last_thread = NULL;
	th->removed = 1;
}

/* Caps the comms one thread keeps in its history. */
#define RP_THREAD_MAX_COMMS (1u << 20)

/* perf's __thread__set_comm(). */
static int rp_thread_set_comm(struct rp_machine *machine, struct rp_thread *th,
			      const char *str, uint64_t time, int exec)
{
	const char *s = rp_strpool_intern_str(&machine->names, str);

	if (!s)
		return RP_ERR_NOMEM;
	if (!th->comm_set) {
		/* The first real comm overrides the ":<tid>" default. */
		struct rp_comm *c = &th->comms[th->nr_comms - 1];

		c->str = s;
		c->start = time;
		if (exec)
			c->exec = 1;
	} else {
		if (th->nr_comms >= RP_THREAD_MAX_COMMS) {
			/* Keep the current comm right; lose the oldest history. */
			memmove(th->comms, th->comms + 1, (th->nr_comms - 1) * sizeof(*th->comms));
			th->nr_comms--;
		}
		if (th->nr_comms + 1 > th->alloc_comms) {
			uint32_t n = th->alloc_comms ? th->alloc_comms * 2 : 4;
			struct rp_comm *inl = (struct rp_comm *)(th + 1);
			struct rp_comm *p = th->comms == inl ? malloc(n * sizeof(*p))
							     : realloc(th->comms, n * sizeof(*p));

			if (!p)
				return RP_ERR_NOMEM;
			if (th->comms == inl)
				memcpy(p, inl, sizeof(*p));
			th->comms = p;
			th->alloc_comms = n;
		}
		th->comms[th->nr_comms].str = s;
		th->comms[th->nr_comms].start = time;
		th->comms[th->nr_comms].exec = (uint8_t)!!exec;
		th->nr_comms++;
	}
	th->comm = s;
	th->comm_set = 1;
	return 0;
}

const char *rp_thread_comm_at(const struct rp_thread *thread, uint64_t t)
{
	if (!thread)
		return NULL;
	for (uint32_t i = thread->nr_comms; i > 0; i--)
		if (t >= thread->comms[i - 1].start)
			return thread->comms[i - 1].str;
	return thread->comms[0].str;
}

struct rp_thread *rp_machine_findnew_thread(struct rp_machine *machine, uint32_t pid,
					    uint32_t tid)
{
	int err = 0;

	if (!machine)
		return NULL;
	return rp_findnew(machine, (int32_t)pid, (int32_t)tid, 1, &err);
}

int rp_machine_findnew_changes(const struct rp_machine *machine, uint32_t pid, uint32_t tid)
{
	if (!machine || (int32_t)pid == -1)
		return 0;
	const struct rp_thread *th = rp_hashmap_get(&machine->threads, rp_tid_key((int32_t)tid));

	return th && th->pid == -1 && th->pid != (int32_t)pid;
}

int32_t rp_thread_pid(const struct rp_thread *thread)
{
	return thread ? thread->pid : -1;
}

int32_t rp_thread_tid(const struct rp_thread *thread)
{
	return thread ? thread->tid : -1;
}

const char *rp_thread_comm(const struct rp_thread *thread)
{
	return thread ? thread->comm : NULL;
}

const char *rp_thread_first_comm(const struct rp_thread *thread)
{
	/* The override replaced comms[0] (rp_thread_set_comm). */
	return thread && thread->nr_comms ? thread->comms[0].str : NULL;
}

/* ---------------------------------------------------------------- records */

static uint64_t rp_event_time(const struct rp_event *ev)
{
	return (ev->sid.present & RP_SAMPLE_TIME) ? ev->sid.time : (uint64_t)-1;
}

/* perf's machine__process_comm_event(). */
static int rp_process_comm(struct rp_machine *machine, const struct rp_event *ev)
{
	const struct rp_comm_event *c = &ev->u.comm;
	int err = 0;
	struct rp_thread *th = rp_findnew(machine, (int32_t)c->pid, (int32_t)c->tid, 1, &err);

	if (!th)
		return err;
	if (!c->comm)
		return 0;
	return rp_thread_set_comm(machine, th, c->comm, rp_event_time(ev),
				  c->exec || (ev->misc & RP_MISC_COMM_EXEC));
}

/* perf's thread__fork(). */
static int rp_thread_fork(struct rp_machine *machine, struct rp_thread *th,
			  struct rp_thread *parent, uint64_t time, int clone_maps)
{
	if (parent->comm_set) {
		int err = rp_thread_set_comm(machine, th, parent->comm, time, 0);

		if (err < 0)
			return err;
	}
	th->ppid = parent->tid;
	/* A new thread shares its process's maps; a new process copies. */
	if (th->pid == parent->pid || th->maps == parent->maps || !clone_maps)
		return 0;
	return rp_maps_clone(machine, th->maps, parent->maps);
}

/* perf's machine__process_fork_event(). */
static int rp_process_fork(struct rp_machine *machine, const struct rp_event *ev)
{
	const struct rp_task_event *t = &ev->u.task;
	int32_t pid = (int32_t)t->pid, tid = (int32_t)t->tid;
	int32_t ppid = (int32_t)t->ppid, ptid = (int32_t)t->ptid;
	int err = 0;
	struct rp_thread *th = rp_findnew(machine, pid, tid, 0, &err);

	if (err < 0)
		return err;

	struct rp_thread *parent = rp_findnew(machine, ppid, ptid, 1, &err);

	if (!parent)
		return err;
	/* A thread under the parent's tid that belongs to another process
	 * is a leftover (its EXIT or FORK was lost): replace it. */
	if (parent->pid != ppid) {
		rp_remove_thread(machine, parent);
		if (!(parent = rp_findnew(machine, ppid, ptid, 1, &err)))
			return err;
	}
	/* A reused tid: the old thread stays for those that hold it. */
	if (th)
		rp_remove_thread(machine, th);
	if (!(th = rp_findnew(machine, pid, tid, 1, &err)))
		return err;

	/* perf marks the FORKs it synthesizes for running threads with
	 * FORK_EXEC: their maps come in MMAP records of their own. */
	int clone = !(ev->misc & RP_MISC_FORK_EXEC);
	uint64_t time = (ev->sid.present & RP_SAMPLE_TIME) ? ev->sid.time : t->time;

	return rp_thread_fork(machine, th, parent, time, clone);
}

/* perf's machine__process_exit_event(). */
static int rp_process_exit(struct rp_machine *machine, const struct rp_event *ev)
{
	int err = 0;
	struct rp_thread *th = rp_findnew(machine, (int32_t)ev->u.task.pid,
					  (int32_t)ev->u.task.tid, 0, &err);

	if (th)
		th->dead = 1;
	return err < 0 ? err : 0;
}

static int rp_build_id_defined(const uint8_t *id, size_t size)
{
	for (size_t i = 0; i < size; i++)
		if (id[i])
			return 1;
	return 0;
}

static int rp_has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Module DSO of a kernel MMAP (perf's machine__findnew_module_dso()). */
static struct rp_dso *rp_findnew_module_dso(struct rp_machine *machine, const char *filename)
{
	char name[512];
	int kmod = rp_kmod_name(filename, name, sizeof(name));
	struct rp_dso *dso = rp_machine_find_dso_short(machine, name);

	(void)kmod;
	if (dso)
		return dso;
	/* perf adds it under the module name, then renames it to the path. */
	dso = rp_machine_new_dso_unlisted(machine, name);
	if (!dso || rp_dso_set_short(machine, dso, name, strlen(name)) < 0 ||
	    rp_dso_set_long(machine, dso, filename) < 0)
		return NULL;
	dso->kind = RP_DSO_MODULE;
	return dso;
}

/* The kernel image DSO: the first kernel, non-module DSO, else a new one. */
static struct rp_dso *rp_kernel_dso(struct rp_machine *machine)
{
	for (size_t i = 0; i < machine->nr_dsos; i++)
		if (machine->dsos[i]->kind == RP_DSO_KERNEL)
			return machine->dsos[i];

	struct rp_dso *dso = rp_machine_findnew_dso(machine, rp_kernel_mmap_name,
						    strlen(rp_kernel_mmap_name));

	if (dso)
		dso->kind = RP_DSO_KERNEL;
	return dso;
}

/* perf's machine__process_kernel_mmap_event() for the host machine. */
static int rp_process_kernel_mmap(struct rp_machine *machine, const struct rp_mmap_event *m)
{
	const char *name = m->filename ? m->filename : "";
	uint64_t start = m->start, end = m->start + m->len;
	/* perf compares all but the closing bracket: "[kernel.kallsyms]_text"
	 * and "[kernel.kallsyms]" both name the kernel. */
	int is_kernel = strncmp(name, rp_kernel_mmap_name, sizeof(rp_kernel_mmap_name) - 2) == 0;
	int err = 0;

	if (name[0] == '/' || (!is_kernel && name[0] == '[')) {
		struct rp_dso *dso = rp_findnew_module_dso(machine, name);

		if (!dso)
			return RP_ERR_NOMEM;
		/* map__new2(): pgoff 0, addresses relative to the start. */
		struct rp_map *map = rp_map_new(machine, start, end, 0, dso, &err);

		if (!map)
			return err;
		if ((err = rp_maps_insert(machine->kmaps, map)) < 0)
			return err;
		if (m->has_build_id && rp_build_id_defined(m->build_id, m->build_id_size))
			rp_dso_set_build_id(dso, m->build_id, m->build_id_size);
		return 0;
	}
	if (is_kernel) {
		struct rp_dso *kernel = rp_kernel_dso(machine);

		if (!kernel)
			return RP_ERR_NOMEM;
		/* A second kernel MMAP replaces the kernel map. */
		if (machine->vmlinux_map)
			rp_maps_remove(machine->kmaps, machine->vmlinux_map);
		machine->vmlinux_map = NULL;
		/* Some files carry a zero-sized kernel MMAP: perf lets the
		 * kernel map cover everything then. */
		if (start == 0 && end == 0)
			end = ~0ull;

		struct rp_map *map = rp_map_new(machine, start, end, m->pgoff, kernel, &err);

		if (!map)
			return err;
		map->identity = 1;
		map->prot = RP_PROT_EXEC;
		if ((err = rp_maps_insert(machine->kmaps, map)) < 0)
			return err;
		machine->vmlinux_map = map;
		if (strstr(kernel->long_name, "vmlinux") &&
		    rp_dso_set_short(machine, kernel, "[kernel.vmlinux]", 16) < 0)
			return RP_ERR_NOMEM;
		if (m->pgoff != 0) {
			/* What follows the kernel's name: "_text", "_stext". */
			size_t skip = sizeof(rp_kernel_mmap_name) - 1;
			const char *ref = rp_strpool_intern_str(
				&machine->names, strlen(name) >= skip ? name + skip : "");

			if (!ref)
				return RP_ERR_NOMEM;
			machine->kernel_ref_name = ref;
			machine->kernel_ref_addr = m->pgoff;
		}
		return 0;
	}
	/* The x86_64 PTI entry trampoline: a piece of the kernel image mapped
	 * elsewhere (perf's extra kernel maps). */
	if (machine->arch_x86_64 && !strcmp(name, "__entry_SYSCALL_64_trampoline")) {
		if (!machine->vmlinux_map)
			return 0;

		struct rp_map *map = rp_map_new(machine, start, end, m->pgoff,
						machine->vmlinux_map->dso, &err);

		if (!map)
			return err;
		map->prot = RP_PROT_EXEC;
		return rp_maps_insert(machine->kmaps, map);
	}
	return 0;
}

static int rp_is_anon_memory(const char *name)
{
	return !strcmp(name, "//anon") || rp_has_prefix(name, "/dev/zero") ||
	       rp_has_prefix(name, "/anon_hugepage");
}

static int rp_is_no_dso_memory(const char *name)
{
	return rp_has_prefix(name, "[stack") || rp_has_prefix(name, "/SYSV") ||
	       !strcmp(name, "[heap]");
}

/* perf's machine__process_mmap{,2}_event() and map__new(). */
static int rp_process_mmap(struct rp_machine *machine, const struct rp_event *ev)
{
	const struct rp_mmap_event *m = &ev->u.mmap;
	uint8_t cpumode = ev->misc & RP_MISC_CPUMODE_MASK;

	if (cpumode == RP_MISC_KERNEL || cpumode == RP_MISC_GUEST_KERNEL)
		return rp_process_kernel_mmap(machine, m);

	int err = 0;
	struct rp_thread *th = rp_findnew(machine, (int32_t)m->pid, (int32_t)m->tid, 1, &err);

	if (!th)
		return err;

	const char *filename = m->filename ? m->filename : "";
	uint32_t prot, flags;

	if (ev->type == RP_RECORD_MMAP2 && !m->no_prot) {
		prot = m->prot;
		flags = m->flags;
	} else {
		/* MMAP records (and MMAP2 of the early layout) carry no prot:
		 * the kernel marks data maps, all others are code. */
		prot = (ev->misc & RP_MISC_MMAP_DATA) ? 0 : RP_PROT_EXEC;
		flags = 0;
	}

	int anon = rp_is_anon_memory(filename) || (flags & RP_MAP_HUGETLB);
	int no_dso = rp_is_no_dso_memory(filename);
	int vdso = !strcmp(filename, "[vdso]");
	uint64_t pgoff = m->pgoff;
	char jit[40];

	/* Executable memory with no file is JIT code: perf looks for its
	 * symbols in /tmp/perf-<pid>.map (no pid for the idle thread). */
	if ((anon || no_dso) && th->ns_pid != 0 && (prot & RP_PROT_EXEC)) {
		snprintf(jit, sizeof(jit), "/tmp/perf-%d.map", (int)th->ns_pid);
		filename = jit;
	}

	struct rp_dso *dso;

	if (vdso) {
		pgoff = 0;
		dso = machine->vdso;
		if (!dso)
			dso = machine->vdso = rp_machine_findnew_dso(machine, "[vdso]", 6);
	} else {
		dso = rp_machine_findnew_dso(machine, filename, strlen(filename));
	}
	if (!dso)
		return RP_ERR_NOMEM;

	struct rp_map *map = rp_map_new(machine, m->start, m->start + m->len, pgoff, dso, &err);

	if (!map)
		return err;
	map->prot = prot;
	map->flags = flags;
	map->identity = (uint8_t)(anon || no_dso);
	if (m->is_mmap2 && m->has_build_id && rp_build_id_defined(m->build_id, m->build_id_size))
		rp_dso_set_build_id(dso, m->build_id, m->build_id_size);
	/* perf's __dsos__findnew_id(): a DSO takes the first id it meets. */
	if (m->is_mmap2 && !m->has_build_id && !dso->id_maj && !dso->id_min && !dso->id_ino &&
	    !dso->id_ino_gen) {
		dso->id_maj = m->maj;
		dso->id_min = m->min;
		dso->id_ino = m->ino;
		dso->id_ino_gen = m->ino_generation;
	}
	return rp_maps_insert_fixup(machine, th->maps, map);
}

static int rp_is_bpf_image(const char *name)
{
	return rp_has_prefix(name, "bpf_trampoline_") || rp_has_prefix(name, "bpf_dispatcher_");
}

/* perf's machine__process_ksymbol(). */
static int rp_process_ksymbol(struct rp_machine *machine, const struct rp_event *ev)
{
	const struct rp_ksymbol_event *k = &ev->u.ksymbol;
	const struct rp_map *found = rp_maps_find(machine->kmaps, k->addr);
	int err = 0;

	if (k->flags & RP_KSYMBOL_UNREGISTER) {
		if (found && found != machine->vmlinux_map)
			rp_maps_remove(machine->kmaps, found);
		return 0;
	}
	/* A symbol inside a map already there only adds a symbol. */
	if (found)
		return 0;

	const char *name = k->name ? k->name : "";
	struct rp_dso *dso = rp_machine_new_dso_unlisted(machine, name);

	if (!dso)
		return RP_ERR_NOMEM;
	dso->kind = RP_DSO_BPF;
	if (rp_is_bpf_image(name)) {
		const char *empty = rp_strpool_intern(&machine->names, "", 0);

		if (!empty)
			return RP_ERR_NOMEM;
		dso->long_name = empty;
	}

	struct rp_map *map = rp_map_new(machine, k->addr, k->addr + k->len, 0, dso, &err);

	if (!map)
		return err;
	map->prot = RP_PROT_EXEC;
	return rp_maps_insert(machine->kmaps, map);
}

int rp_machine_process(struct rp_machine *machine, const struct rp_event *ev)
{
	if (!machine || !ev)
		return RP_ERR_INVAL;
	switch (ev->type) {
	case RP_RECORD_COMM:
		return rp_process_comm(machine, ev);
	case RP_RECORD_FORK:
		return rp_process_fork(machine, ev);
	case RP_RECORD_EXIT:
		return rp_process_exit(machine, ev);
	case RP_RECORD_MMAP:
	case RP_RECORD_MMAP2:
		return rp_process_mmap(machine, ev);
	case RP_RECORD_KSYMBOL:
		return rp_process_ksymbol(machine, ev);
	default:
		return 0;
	}
}

/* ---------------------------------------------------------------- lookup */

int rp_machine_find_map(struct rp_machine *machine, struct rp_thread *thread,
			uint8_t cpumode, uint64_t ip, struct rp_addr_location *al)
{
	struct rp_maps *maps;

	memset(al, 0, sizeof(*al));
	al->thread = thread;
	al->ip = ip;
	al->addr = ip;
	al->cpumode = cpumode;
	/* perf_host is on and perf_guest off, as in perf report: guest and
	 * hypervisor samples (and unknown modes) find no map. */
	if (cpumode == RP_MISC_KERNEL) {
		al->level = 'k';
		maps = machine ? machine->kmaps : NULL;
	} else if (cpumode == RP_MISC_USER) {
		al->level = '.';
		maps = thread ? thread->maps : NULL;
	} else {
		al->level = 'H';
		return 0;
	}

	const struct rp_map *map = rp_maps_find(maps, ip);

	if (!map)
		return 0;
	al->map = map;
	al->dso = map->dso;
	al->addr = map->identity ? ip : ip - map->start + map->pgoff;
	return 1;
}

/* ---------------------------------------------------------------- getters */

uint64_t rp_map_start(const struct rp_map *map)
{
	return map->start;
}

uint64_t rp_map_end(const struct rp_map *map)
{
	return map->end;
}

uint64_t rp_map_pgoff(const struct rp_map *map)
{
	return map->pgoff;
}

int rp_machine_kernel_ref(const struct rp_machine *machine, const char **name, uint64_t *addr)
{
	if (!machine->kernel_ref_name)
		return 0;
	if (name)
		*name = machine->kernel_ref_name;
	if (addr)
		*addr = machine->kernel_ref_addr;
	return 1;
}

struct rp_dso *rp_map_dso(const struct rp_map *map)
{
	return map->dso;
}

const char *rp_dso_long_name(const struct rp_dso *dso)
{
	return dso->long_name;
}

const char *rp_dso_short_name(const struct rp_dso *dso)
{
	return dso->short_name;
}

int rp_dso_is_kernel(const struct rp_dso *dso)
{
	return dso->kind != RP_DSO_USER;
}

size_t rp_dso_build_id(const struct rp_dso *dso, const uint8_t **build_id)
{
	if (build_id)
		*build_id = dso->build_id_size ? dso->build_id : NULL;
	return dso->build_id_size;
}

const struct rp_map *rp_machine_kernel_map(const struct rp_machine *machine)
{
	return machine->vmlinux_map;
}

const struct rp_map *rp_machine_kernel_map_resize(struct rp_machine *machine,
						  const struct rp_map *map, uint64_t start,
						  uint64_t end, int *err)
{
	int present = 0;

	for (size_t i = 0; i < machine->kmaps->nr && !present; i++)
		present = machine->kmaps->items[i] == map;
	if (!present || (map->start == start && map->end == end))
		return map;

	struct rp_map *n = rp_map_new(machine, start, end, map->pgoff, map->dso, err);

	if (!n)
		return NULL;
	n->prot = map->prot;
	n->flags = map->flags;
	n->identity = map->identity;
	rp_maps_remove(machine->kmaps, map);
	if ((*err = rp_maps_insert(machine->kmaps, n)) < 0) {
		/* Room for the old map was there a moment ago. */
		(void)rp_maps_insert(machine->kmaps, (struct rp_map *)map);
		return NULL;
	}
	if (machine->vmlinux_map == map)
		machine->vmlinux_map = n;
	return n;
}

size_t rp_machine_nr_dsos(const struct rp_machine *machine)
{
	return machine->nr_dsos;
}

struct rp_dso *rp_machine_dso(const struct rp_machine *machine, size_t idx)
{
	return idx < machine->nr_dsos ? machine->dsos[idx] : NULL;
}

/* ---------------------------------------------------------------- life */

/* perf's __event_process_build_id() for the host machine's entries. */
int rp_machine_add_build_ids(struct rp_machine *machine, const struct rp_header_info *h)
{
	for (size_t i = 0; i < h->nr_build_ids; i++) {
		const struct rp_build_id_entry *e = &h->build_ids[i];
		uint8_t cpumode = e->misc & RP_MISC_CPUMODE_MASK;
		int kernel;

		/* Other pids are guest machines, which perf report keeps
		 * apart and does not show by default. */
		if (e->pid != (uint32_t)-1 || !e->filename)
			continue;
		if (cpumode == RP_MISC_KERNEL || cpumode == RP_MISC_GUEST_KERNEL)
			kernel = 1;
		else if (cpumode == RP_MISC_USER || cpumode == RP_MISC_GUEST_USER)
			kernel = 0;
		else
			continue;

		struct rp_dso *dso = rp_machine_findnew_dso(machine, e->filename,
							    strlen(e->filename));

		if (!dso)
			return RP_ERR_NOMEM;
		rp_dso_set_build_id(dso, e->build_id, e->size);
		if (kernel) {
			char name[512];

			if (rp_kmod_name(e->filename, name, sizeof(name))) {
				if (rp_dso_set_short(machine, dso, name, strlen(name)) < 0)
					return RP_ERR_NOMEM;
				dso->kind = RP_DSO_MODULE;
			} else {
				dso->kind = RP_DSO_KERNEL;
			}
		}
	}
	return 0;
}

int rp_machine_new(struct rp_machine **out, const struct rp_session *session)
{
	struct rp_machine *machine = calloc(1, sizeof(*machine));
	int err = RP_ERR_NOMEM;

	*out = NULL;
	if (!machine)
		return RP_ERR_NOMEM;
	machine->session = session;
	machine->arch_x86_64 = 1;
	if (!(machine->kmaps = rp_maps_new(machine)))
		goto fail;

	const struct rp_header_info *h = session ? rp_session_header(session) : NULL;

	if (h && h->arch)
		machine->arch_x86_64 = !strcmp(h->arch, "x86_64");
	if (h && (err = rp_machine_add_build_ids(machine, h)) < 0)
		goto fail;

	/* perf_session__register_idle_thread(): 0/0 is "swapper". */
	struct rp_thread *idle = rp_findnew(machine, 0, 0, 1, &err);

	if (!idle || (err = rp_thread_set_comm(machine, idle, "swapper", 0, 0)) < 0)
		goto fail;
	*out = machine;
	return 0;
fail:
	rp_machine_free(machine);
	return err < 0 ? err : RP_ERR_NOMEM;
}

void rp_machine_free(struct rp_machine *machine)
{
	if (!machine)
		return;
	for (struct rp_thread *th = machine->all_threads; th; th = th->next_all)
		if (th->comms != (struct rp_comm *)(th + 1))
			free(th->comms);
	rp_maps_release_all(machine);
	rp_dsos_release(machine);
	rp_hashmap_release(&machine->threads);
	rp_strpool_release(&machine->names);
	rp_arena_release(&machine->arena);
	free(machine);
}
