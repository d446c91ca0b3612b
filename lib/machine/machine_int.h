/* SPDX-License-Identifier: MIT */
/*
 * The machine's private structures, shared by the files of lib/machine and
 * readable (not writable) by the stages above it (symbols, report).
 *
 * Model (perf 6.1: tools/perf/util/machine.c, thread.c, maps.c, map.c,
 * dso.c, comm.c): threads hashed by tid; threads of one process point at
 * one struct rp_maps (the group leader's); the kernel has its own
 * rp_maps.  A struct rp_map never changes once created, so that processes
 * can share map objects: fork copies pointers, and clipping by an
 * overlapping mmap makes new, shorter maps instead of editing old ones.
 * Everything lives until rp_machine_free(), so pointers handed out stay
 * valid.  See docs/machine.md.
 */
#ifndef RP_MACHINE_MACHINE_INT_H
#define RP_MACHINE_MACHINE_INT_H

#include <stddef.h>
#include <stdint.h>

#include <readperf/machine.h>

#include "common/arena.h"
#include "common/hashmap.h"
#include "common/strpool.h"
#include "machine/dso.h"

/* A mapping of a DSO into an address space.  Immutable once created. */
struct rp_map {
	uint64_t start, end; /* [start, end), addresses */
	uint64_t pgoff;      /* file offset (bytes) mapped at start */
	struct rp_dso *dso;
	uint32_t prot, flags; /* MMAP2's prot and flags (PROT_EXEC for MMAP) */
	/* map_ip is the identity (kernel image, anonymous and no-file maps);
	 * otherwise map_ip(ip) = ip - start + pgoff. */
	uint8_t identity;
};

/* One address space: maps sorted by start. */
struct rp_maps {
	struct rp_map **items;
	size_t nr, alloc;
	size_t last;         /* index of the last hit, a lookup cache */
	uint8_t may_overlap; /* a plain insert (no clipping) overlapped */
	/* Written by the pipeline alone (lib/process.c rp_unwind_ready()):
	 * samples of this space are unwound (sticky), and the pipeline's
	 * generation + 1 when a check last found them not to be. */
	uint8_t unwind_ready;
	uint64_t unwind_checked;
	struct rp_maps *next_all; /* every rp_maps of the machine, for freeing */
};

/* A comm a thread had from time `start` on (ns; (uint64_t)-1 unknown). */
struct rp_comm {
	const char *str; /* interned */
	uint64_t start;
	uint8_t exec;    /* set by a COMM with PERF_RECORD_MISC_COMM_EXEC */
};

struct rp_thread {
	int32_t pid, tid, ppid; /* -1: unknown */
	/* The pid the thread was created with: perf names anonymous
	 * executable memory /tmp/perf-<this>.map (its nsinfo pid). */
	int32_t ns_pid;
	const char *comm; /* current comm, interned; == comms[nr_comms-1].str */
	struct rp_comm *comms; /* oldest first */
	uint32_t nr_comms, alloc_comms;
	uint8_t comm_set; /* a real comm replaced the ":<tid>" default */
	uint8_t dead;     /* EXIT seen */
	uint8_t removed;  /* replaced in the tid hash by a newer thread */
	struct rp_maps *maps;
	struct rp_thread *next_all; /* every thread ever created, for freeing */
};

struct rp_machine {
	const struct rp_session *session;
	struct rp_arena arena;     /* threads and maps */
	struct rp_strpool names;   /* comms and DSO names */
	struct rp_hashmap threads; /* tid -> live thread */
	struct rp_thread *last_thread;
	struct rp_thread *all_threads;
	uint64_t nr_threads;       /* ever created, against the cap */
	uint64_t nr_maps;          /* map objects ever created, against the cap */
	struct rp_maps *all_maps;
	struct rp_maps *kmaps;     /* the kernel's maps */
	const struct rp_map *vmlinux_map; /* the kernel image map, or NULL */
	/* The kernel MMAP's reference symbol ("_text") and its address (the
	 * record's pgoff), for relocating kallsyms; name NULL when none. */
	const char *kernel_ref_name;
	uint64_t kernel_ref_addr;
	/* DSOs in creation order (idx), and lookups by interned name. */
	struct rp_dso **dsos;
	size_t nr_dsos, alloc_dsos;
	struct rp_hashmap dso_by_long;  /* interned long name -> first dso */
	struct rp_hashmap dso_by_short; /* interned short name -> first dso */
	struct rp_dso *vdso;
	int arch_x86_64; /* the recording's arch allows the entry trampoline */
};

/* --- maps.c --- */

/* A new, empty address space owned by machine; NULL when out of memory. */
struct rp_maps *rp_maps_new(struct rp_machine *machine);
void rp_maps_release_all(struct rp_machine *machine);
/* A new map object; NULL on RP_ERR_NOMEM/LIMIT (*err set). */
struct rp_map *rp_map_new(struct rp_machine *machine, uint64_t start, uint64_t end,
			  uint64_t pgoff, struct rp_dso *dso, int *err);
/*
 * Inserts map, first clipping or splitting the maps it overlaps (perf's
 * maps__fixup_overlappings).  Returns 0, RP_ERR_NOMEM or RP_ERR_LIMIT.
 */
int rp_maps_insert_fixup(struct rp_machine *machine, struct rp_maps *maps,
			 struct rp_map *map);
/* Inserts map without clipping (perf's maps__insert).  0 or RP_ERR_NOMEM. */
int rp_maps_insert(struct rp_maps *maps, struct rp_map *map);
/* Removes map (by identity) if present. */
void rp_maps_remove(struct rp_maps *maps, const struct rp_map *map);
/* The map containing addr, or NULL (perf's maps__find). */
const struct rp_map *rp_maps_find(struct rp_maps *maps, uint64_t addr);
/*
 * The same without the lookup cache: it writes nothing, so threads may
 * call it at once on maps no one changes meanwhile (the unwinder's
 * workers, lib/process.c).  Where maps overlap, it gives the map the
 * search finds, which rp_maps_find() may not (its cache answers first).
 */
const struct rp_map *rp_maps_lookup(const struct rp_maps *maps, uint64_t addr);
/* Copies every map of src into dst (perf's maps__clone at fork). */
int rp_maps_clone(struct rp_machine *machine, struct rp_maps *dst, const struct rp_maps *src);

/* --- dso.c --- */

/*
 * The DSO of long name `name` (n bytes), created with perf's short name
 * when unknown (dsos__findnew).  NULL when out of memory.
 */
struct rp_dso *rp_machine_findnew_dso(struct rp_machine *machine, const char *name, size_t n);
/* The first DSO whose short name is `name`, or NULL. */
struct rp_dso *rp_machine_find_dso_short(struct rp_machine *machine, const char *name);
/* A DSO kept out of the name lookups (KSYMBOL's), short = long = name. */
struct rp_dso *rp_machine_new_dso_unlisted(struct rp_machine *machine, const char *name);
int rp_dso_set_short(struct rp_machine *machine, struct rp_dso *dso, const char *name, size_t n);
int rp_dso_set_long(struct rp_machine *machine, struct rp_dso *dso, const char *name);
void rp_dso_set_build_id(struct rp_dso *dso, const uint8_t *id, size_t size);
void rp_dsos_release(struct rp_machine *machine);

/*
 * perf's kmod_path__parse_name(): whether path names a kernel module
 * ("/lib/modules/.../x-y.ko[.gz|.xz|.zst...]" or "[x]" other than the
 * kernel and vdso names) and its module name "[x_y]" written into buf
 * (size bytes).  Returns 1 for a module, 0 otherwise; buf always gets
 * the name perf would use.
 */
int rp_kmod_name(const char *path, char *buf, size_t size);

/* --- machine.c, for the stages above --- */

/*
 * Creates the DSOs of the BUILD_ID feature's host entries (pid -1) with
 * their build-ids (perf's __event_process_build_id()); rp_machine_new()
 * calls it.  Returns 0 or RP_ERR_NOMEM.
 */
int rp_machine_add_build_ids(struct rp_machine *machine, const struct rp_header_info *h);

/*
 * Whether rp_machine_findnew_thread(machine, pid, tid) would change a
 * thread that exists: one first seen without its pid learns it, and its
 * group leader's maps (perf's machine__update_thread_pid()).  Creating
 * threads changes none that exist.  Reads only.
 */
int rp_machine_findnew_changes(const struct rp_machine *machine, uint32_t pid, uint32_t tid);

/* The comm thread had at time t (ns), as perf's thread__comm_by_time(). */
const char *rp_thread_comm_at(const struct rp_thread *thread, uint64_t t);
/* The kernel image map, or NULL before the kernel MMAP. */
const struct rp_map *rp_machine_kernel_map(const struct rp_machine *machine);
/*
 * Gives the kernel map `map` (one of machine's kernel maps) the range
 * [start, end) (addresses), as perf's map__fixup_start() and
 * map__fixup_end() do once kallsyms symbols were loaded through it: a new
 * map object with the new range (same DSO, pgoff, map_ip) replaces map in
 * the kernel maps (and as the kernel image map when it was that).  The
 * old object stays valid.  Returns the map now in place (map itself when
 * the range is unchanged or map is not a kernel map), NULL on
 * RP_ERR_NOMEM/RP_ERR_LIMIT (*err set; the maps are then unchanged).
 * This is the one change the symbols stage makes to the machine.
 */
const struct rp_map *rp_machine_kernel_map_resize(struct rp_machine *machine,
						  const struct rp_map *map, uint64_t start,
						  uint64_t end, int *err);
size_t rp_machine_nr_dsos(const struct rp_machine *machine);
struct rp_dso *rp_machine_dso(const struct rp_machine *machine, size_t idx);

#endif
