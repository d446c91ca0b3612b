/* SPDX-License-Identifier: MIT */
/*
 * readperf: the recorded machine: processes, threads, comms, memory maps
 * and the DSOs they map.
 *
 * Follows perf's model (tools/perf/util/machine.c, thread.c, maps.c):
 * threads of one process share its maps; FORK of a new process copies the
 * parent's maps and comm; COMM with PERF_RECORD_MISC_COMM_EXEC starts a new
 * program; MMAP/MMAP2 insert maps, clipping the maps they overlap; kernel
 * maps (the kernel image, modules, BPF programs from KSYMBOL) are shared by
 * all threads.  Feed it records in time order with rp_machine_process().
 */
#ifndef READPERF_MACHINE_H
#define READPERF_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include <readperf/api.h>
#include <readperf/event.h>
#include <readperf/session.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rp_machine;
struct rp_thread;
struct rp_map;
struct rp_dso;
struct rp_symbol;

/*
 * Creates an empty machine.  session may be NULL; when given, the DSOs of
 * its BUILD_ID feature are created with their build-ids.  The session must
 * outlive the machine.  Returns 0 or RP_ERR_NOMEM.
 */
RP_API int rp_machine_new(struct rp_machine **out, const struct rp_session *session);
/* Frees the machine, its threads, maps and DSOs.  NULL is allowed. */
RP_API void rp_machine_free(struct rp_machine *machine);

/*
 * Applies one record (COMM, FORK, EXIT, MMAP, MMAP2, KSYMBOL; others are
 * ignored).  Returns 0, RP_ERR_NOMEM or RP_ERR_LIMIT (more threads or maps
 * than RP_MACHINE_MAX_THREADS / RP_MACHINE_MAX_MAPS).
 */
RP_API int rp_machine_process(struct rp_machine *machine, const struct rp_event *ev);

/* Caps on what a file can make the machine hold. */
#define RP_MACHINE_MAX_THREADS (16u << 20)
#define RP_MACHINE_MAX_MAPS (64u << 20)

/*
 * The thread tid of process pid, created as perf does when it is unknown
 * (comm ":<tid>", the maps of its process).  pid or tid of (uint32_t)-1
 * means unknown.  Returns NULL only when out of memory or at the cap.
 * The thread lives as long as the machine.
 */
RP_API struct rp_thread *rp_machine_findnew_thread(struct rp_machine *machine,
					    uint32_t pid, uint32_t tid);

RP_API int32_t rp_thread_pid(const struct rp_thread *thread);
RP_API int32_t rp_thread_tid(const struct rp_thread *thread);
/* The thread's current comm (the one valid at the last processed record). */
RP_API const char *rp_thread_comm(const struct rp_thread *thread);
/*
 * The thread's first comm.  A thread created before any COMM named it
 * starts as ":<tid>"; perf overrides that default in place with the first
 * real comm, so whatever was counted under the default shows that comm in
 * the end.  Returns the first real comm then, else the first comm.
 */
RP_API const char *rp_thread_first_comm(const struct rp_thread *thread);

/* Where an address was found. */
struct rp_addr_location {
	struct rp_thread *thread;
	const struct rp_map *map;    /* NULL when no map covers ip */
	struct rp_dso *dso;          /* map's DSO, or NULL */
	const struct rp_symbol *sym; /* filled by rp_symbols_resolve(), or NULL */
	uint64_t ip;                 /* the address as sampled */
	uint64_t addr;               /* ip in the DSO's address space (map_ip) */
	uint8_t cpumode;             /* RP_MISC_KERNEL, RP_MISC_USER, ... */
	char level;                  /* 'k' kernel, '.' user, 'H' hypervisor/guest */
};

/*
 * Finds the map of ip for thread in cpumode (kernel maps for
 * RP_MISC_KERNEL, the thread's process maps for RP_MISC_USER), as perf's
 * thread__find_map() does.  Fills al (sym is set to NULL); returns 1 when a
 * map was found, 0 when not.
 */
RP_API int rp_machine_find_map(struct rp_machine *machine, struct rp_thread *thread,
			uint8_t cpumode, uint64_t ip, struct rp_addr_location *al);

/* The kernel image's map (from the kernel's MMAP record, the last one
 * when there are several); NULL when the records read so far had none. */
RP_API const struct rp_map *rp_machine_kernel_map(const struct rp_machine *machine);
/*
 * The kernel's relocation reference (perf's ref_reloc_sym): the symbol
 * that follows the kernel's name in its MMAP record ("_text" of
 * "[kernel.kallsyms]_text") and its address (the record's pgoff).  Unset
 * when that pgoff was 0: kernel addresses were hidden from perf record
 * (kptr_restrict), so kernel symbols cannot be placed.  Returns 1 and
 * fills *name (valid for the machine's lifetime) and *addr, each may be
 * NULL; 0 when unset.
 */
RP_API int rp_machine_kernel_ref(const struct rp_machine *machine, const char **name, uint64_t *addr);

RP_API uint64_t rp_map_start(const struct rp_map *map);
RP_API uint64_t rp_map_end(const struct rp_map *map); /* exclusive */
RP_API uint64_t rp_map_pgoff(const struct rp_map *map);
RP_API struct rp_dso *rp_map_dso(const struct rp_map *map);

/* The DSO's path as recorded ("/usr/lib/x86_64-linux-gnu/libc.so.6",
 * "[kernel.kallsyms]", "[vdso]", "//anon"). */
RP_API const char *rp_dso_long_name(const struct rp_dso *dso);
/* The name perf prints in the Shared Object column ("libc.so.6"). */
RP_API const char *rp_dso_short_name(const struct rp_dso *dso);
/* Whether the DSO is the kernel or a kernel module. */
RP_API int rp_dso_is_kernel(const struct rp_dso *dso);
/* The DSO's build-id: returns its size in bytes (0 when unknown). */
RP_API size_t rp_dso_build_id(const struct rp_dso *dso, const uint8_t **build_id);

#ifdef __cplusplus
}
#endif

#endif
