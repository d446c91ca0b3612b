/* SPDX-License-Identifier: MIT */
/*
 * DSOs: one per long name, with the short name perf prints.
 *
 * Follows perf 6.1's dso.c and dsos.c: dsos__findnew() looks a DSO up by
 * long name and creates it with the basename as short name
 * (dso__set_basename(): "/tmp/perf-<pid>.map" becomes "[JIT] tid <pid>");
 * kernel modules get "[name]" (kmod_path__parse_name(), '-' turned into
 * '_'); module DSOs are found by short name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "machine/machine_int.h"

/* Longest DSO name kept, bytes (perf's PATH_MAX-bounded names). */
#define RP_DSO_NAME_MAX 4096

static uint64_t rp_name_key(const char *interned)
{
	return (uint64_t)(uintptr_t)interned;
}

/* POSIX basename() (libgen.h), which perf's dso.c uses, without editing. */
static size_t rp_basename(const char *path, size_t n, const char **out)
{
	while (n > 1 && path[n - 1] == '/')
		n--;
	if (n == 0) {
		*out = ".";
		return 1;
	}
	if (n == 1 && path[0] == '/') {
		*out = "/";
		return 1;
	}
	size_t b = n;

	while (b > 0 && path[b - 1] != '/')
		b--;
	*out = path + b;
	return n - b;
}

int rp_dso_set_short(struct rp_machine *machine, struct rp_dso *dso, const char *name, size_t n)
{
	const char *s = rp_strpool_intern(&machine->names, name, n);

	if (!s)
		return RP_ERR_NOMEM;
	dso->short_name = s;
	if (!rp_hashmap_get(&machine->dso_by_short, rp_name_key(s)) &&
	    rp_hashmap_put(&machine->dso_by_short, rp_name_key(s), dso) < 0)
		return RP_ERR_NOMEM;
	return 0;
}

int rp_dso_set_long(struct rp_machine *machine, struct rp_dso *dso, const char *name)
{
	const char *s = rp_strpool_intern_str(&machine->names, name);

	if (!s)
		return RP_ERR_NOMEM;
	if (dso->long_name &&
	    rp_hashmap_get(&machine->dso_by_long, rp_name_key(dso->long_name)) == dso)
		rp_hashmap_del(&machine->dso_by_long, rp_name_key(dso->long_name));
	dso->long_name = s;
	if (!rp_hashmap_get(&machine->dso_by_long, rp_name_key(s)) &&
	    rp_hashmap_put(&machine->dso_by_long, rp_name_key(s), dso) < 0)
		return RP_ERR_NOMEM;
	return 0;
}

void rp_dso_set_build_id(struct rp_dso *dso, const uint8_t *id, size_t size)
{
	if (size > sizeof(dso->build_id))
		size = sizeof(dso->build_id);
	memcpy(dso->build_id, id, size);
	if (size < sizeof(dso->build_id))
		memset(dso->build_id + size, 0, sizeof(dso->build_id) - size);
	dso->build_id_size = (uint8_t)size;
}

static struct rp_dso *rp_dso_alloc(struct rp_machine *machine)
{
	if (RP_ARRAY_RESERVE(machine->dsos, machine->alloc_dsos, machine->nr_dsos + 1) < 0)
		return NULL;
	struct rp_dso *dso = rp_arena_alloc(&machine->arena, sizeof(*dso));

	if (!dso)
		return NULL;
	memset(dso, 0, sizeof(*dso));
	dso->idx = (uint32_t)machine->nr_dsos;
	machine->dsos[machine->nr_dsos++] = dso;
	return dso;
}

struct rp_dso *rp_machine_findnew_dso(struct rp_machine *machine, const char *name, size_t n)
{
	if (n > RP_DSO_NAME_MAX)
		n = RP_DSO_NAME_MAX;
	const char *s = rp_strpool_intern(&machine->names, name, n);

	if (!s)
		return NULL;
	struct rp_dso *dso = rp_hashmap_get(&machine->dso_by_long, rp_name_key(s));

	if (dso)
		return dso;
	if (!(dso = rp_dso_alloc(machine)) || rp_dso_set_long(machine, dso, s) < 0)
		return NULL;

	int pid;
	char jit[40];

	if (sscanf(s, "/tmp/perf-%d.map", &pid) == 1) {
		int len = snprintf(jit, sizeof(jit), "[JIT] tid %d", pid);

		if (rp_dso_set_short(machine, dso, jit, (size_t)len) < 0)
			return NULL;
	} else {
		const char *base;
		size_t blen = rp_basename(s, n, &base);

		if (rp_dso_set_short(machine, dso, base, blen) < 0)
			return NULL;
	}
	return dso;
}

struct rp_dso *rp_machine_find_dso_short(struct rp_machine *machine, const char *name)
{
	const char *s = rp_strpool_intern_str(&machine->names, name);

	return s ? rp_hashmap_get(&machine->dso_by_short, rp_name_key(s)) : NULL;
}

struct rp_dso *rp_machine_new_dso_unlisted(struct rp_machine *machine, const char *name)
{
	struct rp_dso *dso = rp_dso_alloc(machine);
	const char *s = rp_strpool_intern(&machine->names, name, strnlen(name, RP_DSO_NAME_MAX));

	if (!dso || !s)
		return NULL;
	dso->long_name = dso->short_name = s;
	return dso;
}

void rp_dsos_release(struct rp_machine *machine)
{
	free(machine->dsos);
	machine->dsos = NULL;
	machine->nr_dsos = machine->alloc_dsos = 0;
	rp_hashmap_release(&machine->dso_by_long);
	rp_hashmap_release(&machine->dso_by_short);
}

static int rp_has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Compression suffixes perf 6.1 recognises on module files (gzip, xz). */
static int rp_is_compression_ext(const char *ext)
{
	return !strcmp(ext, "gz") || !strcmp(ext, "xz");
}

int rp_kmod_name(const char *path, char *buf, size_t size)
{
	const char *name = strrchr(path, '/');
	const char *ext = strrchr(path, '.');
	int kmod = 0;

	name = name ? name + 1 : path;
	if (name[0] == '[') {
		kmod = !(rp_has_prefix(name, "[kernel.kallsyms]") ||
			 rp_has_prefix(name, "[guest.kernel.kallsyms") ||
			 rp_has_prefix(name, "[vdso]") || rp_has_prefix(name, "[vdso32]") ||
			 rp_has_prefix(name, "[vdsox32]") || rp_has_prefix(name, "[vsyscall]"));
		snprintf(buf, size, "%s", name);
		return kmod;
	}
	if (!ext) {
		snprintf(buf, size, "%s", name);
		return 0;
	}
	if (rp_is_compression_ext(ext + 1) && ext - 3 >= path)
		ext -= 3;
	if (ext > name)
		kmod = !strncmp(ext, ".ko", 3);
	if (kmod)
		snprintf(buf, size, "[%.*s]", (int)(ext - name), name);
	else
		snprintf(buf, size, "%s", name);
	for (char *p = buf; *p; p++)
		if (*p == '-')
			*p = '_';
	return kmod;
}
