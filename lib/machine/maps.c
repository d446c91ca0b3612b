/* SPDX-License-Identifier: MIT */
/*
 * Address spaces: maps sorted by start address in an array of pointers,
 * found by binary search behind a last-hit cache.
 *
 * Follows perf 6.1's maps.c/map.c: maps__fixup_overlappings() clips or
 * splits every map a new one overlaps (the part before keeps its pgoff,
 * the part after advances it), maps__insert() adds without clipping (the
 * kernel's maps), maps__clone() copies a parent's maps at fork.
 */
#include <stdlib.h>
#include <string.h>

#include "common/array.h"
#include "machine/machine_int.h"

struct rp_maps *rp_maps_new(struct rp_machine *machine)
{
	struct rp_maps *maps = calloc(1, sizeof(*maps));

	if (!maps)
		return NULL;
	maps->next_all = machine->all_maps;
	machine->all_maps = maps;
	return maps;
}

void rp_maps_release_all(struct rp_machine *machine)
{
	struct rp_maps *maps = machine->all_maps;

	while (maps) {
		struct rp_maps *next = maps->next_all;

		free(maps->items);
		free(maps);
		maps = next;
	}
	machine->all_maps = NULL;
}

struct rp_map *rp_map_new(struct rp_machine *machine, uint64_t start, uint64_t end,
			  uint64_t pgoff, struct rp_dso *dso, int *err)
{
	if (machine->nr_maps >= RP_MACHINE_MAX_MAPS) {
		*err = RP_ERR_LIMIT;
		return NULL;
	}
	struct rp_map *map = rp_arena_alloc(&machine->arena, sizeof(*map));

	if (!map) {
		*err = RP_ERR_NOMEM;
		return NULL;
	}
	memset(map, 0, sizeof(*map));
	map->start = start;
	map->end = end;
	map->pgoff = pgoff;
	map->dso = dso;
	machine->nr_maps++;
	return map;
}

static struct rp_map *rp_map_clone(struct rp_machine *machine, const struct rp_map *from,
				   int *err)
{
	struct rp_map *map = rp_map_new(machine, from->start, from->end, from->pgoff,
					from->dso, err);

	if (map) {
		map->prot = from->prot;
		map->flags = from->flags;
		map->identity = from->identity;
	}
	return map;
}

/* Index of the first map whose start (by_end: end) is above addr; by
 * end, the maps must not overlap. */
static size_t rp_maps_search(const struct rp_maps *maps, uint64_t addr, int by_end)
{
	size_t lo = 0, hi = maps->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct rp_map *m = maps->items[mid];

		if ((by_end ? m->end : m->start) <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static size_t rp_maps_upper(const struct rp_maps *maps, uint64_t addr)
{
	return rp_maps_search(maps, addr, 0);
}

static size_t rp_maps_first_ending_after(const struct rp_maps *maps, uint64_t addr)
{
	return rp_maps_search(maps, addr, 1);
}

static int rp_map_contains(const struct rp_map *map, uint64_t addr)
{
	return addr >= map->start && addr < map->end;
}

const struct rp_map *rp_maps_find(struct rp_maps *maps, uint64_t addr)
{
	if (!maps || !maps->nr)
		return NULL;
	if (maps->last < maps->nr && rp_map_contains(maps->items[maps->last], addr))
		return maps->items[maps->last];

	size_t i = rp_maps_upper(maps, addr);

	while (i > 0) {
		i--;
		if (rp_map_contains(maps->items[i], addr)) {
			maps->last = i;
			return maps->items[i];
		}
		/* Without overlaps only the last map starting at or below
		 * addr can hold it. */
		if (!maps->may_overlap)
			break;
	}
	return NULL;
}

const struct rp_map *rp_maps_lookup(const struct rp_maps *maps, uint64_t addr)
{
	if (!maps || !maps->nr)
		return NULL;

	size_t i = rp_maps_upper(maps, addr);

	while (i > 0) {
		i--;
		if (rp_map_contains(maps->items[i], addr))
			return maps->items[i];
		if (!maps->may_overlap)
			break;
	}
	return NULL;
}

int rp_maps_insert(struct rp_maps *maps, struct rp_map *map)
{
	if (RP_ARRAY_RESERVE(maps->items, maps->alloc, maps->nr + 1) < 0)
		return RP_ERR_NOMEM;

	/* Equal starts go after the maps already there, as in perf's tree. */
	size_t i = rp_maps_upper(maps, map->start);

	memmove(&maps->items[i + 1], &maps->items[i], (maps->nr - i) * sizeof(*maps->items));
	maps->items[i] = map;
	maps->nr++;
	maps->last = i;
	if (map->end <= map->start || (i > 0 && maps->items[i - 1]->end > map->start) ||
	    (i + 1 < maps->nr && maps->items[i + 1]->start < map->end))
		maps->may_overlap = 1;
	return 0;
}

void rp_maps_remove(struct rp_maps *maps, const struct rp_map *map)
{
	for (size_t i = 0; i < maps->nr; i++) {
		if (maps->items[i] != map)
			continue;
		memmove(&maps->items[i], &maps->items[i + 1],
			(maps->nr - i - 1) * sizeof(*maps->items));
		maps->nr--;
		maps->last = 0;
		return;
	}
}

/* The general (slow) clipping, for address spaces that already overlap. */
static int rp_maps_fixup_slow(struct rp_machine *machine, struct rp_maps *maps,
			      struct rp_map *map)
{
	size_t i = 0;
	int err = 0;

	while (i < maps->nr) {
		struct rp_map *pos = maps->items[i];

		if (pos->end <= map->start || pos->start >= map->end) {
			i++;
			continue;
		}
		memmove(&maps->items[i], &maps->items[i + 1],
			(maps->nr - i - 1) * sizeof(*maps->items));
		maps->nr--;
		if (map->start > pos->start) {
			struct rp_map *before = rp_map_clone(machine, pos, &err);

			if (!before)
				return err;
			before->end = map->start;
			if ((err = rp_maps_insert(maps, before)) < 0)
				return err;
		}
		if (map->end < pos->end) {
			struct rp_map *after = rp_map_clone(machine, pos, &err);

			if (!after)
				return err;
			after->start = map->end;
			after->pgoff += map->end - pos->start;
			if ((err = rp_maps_insert(maps, after)) < 0)
				return err;
		}
		/* The pieces went in at their sorted places: look again
		 * from the start of the overlap. */
		i = 0;
	}
	return rp_maps_insert(maps, map);
}

int rp_maps_insert_fixup(struct rp_machine *machine, struct rp_maps *maps,
			 struct rp_map *map)
{
	int err = 0;

	/*
	 * An empty (or wrapping) map never contains an address: perf would
	 * only split the map under its start in two, which changes no
	 * lookup, so it is left out.
	 */
	if (map->end <= map->start)
		return 0;
	if (maps->may_overlap)
		return rp_maps_fixup_slow(machine, maps, map);

	/* Maps [i, k) overlap the new one. */
	size_t i = rp_maps_first_ending_after(maps, map->start);
	size_t k = i;

	while (k < maps->nr && maps->items[k]->start < map->end)
		k++;

	struct rp_map *pieces[3];
	size_t n = 0;

	if (k > i && maps->items[i]->start < map->start) {
		struct rp_map *before = rp_map_clone(machine, maps->items[i], &err);

		if (!before)
			return err;
		before->end = map->start;
		pieces[n++] = before;
	}
	pieces[n++] = map;
	if (k > i && maps->items[k - 1]->end > map->end) {
		const struct rp_map *pos = maps->items[k - 1];
		struct rp_map *after = rp_map_clone(machine, pos, &err);

		if (!after)
			return err;
		after->start = map->end;
		after->pgoff += map->end - pos->start;
		pieces[n++] = after;
	}

	size_t removed = k - i;

	if (n > removed && RP_ARRAY_RESERVE(maps->items, maps->alloc, maps->nr + n - removed) < 0)
		return RP_ERR_NOMEM;
	memmove(&maps->items[i + n], &maps->items[k], (maps->nr - k) * sizeof(*maps->items));
	memcpy(&maps->items[i], pieces, n * sizeof(*pieces));
	maps->nr = maps->nr + n - removed;
	maps->last = i;
	return 0;
}

int rp_maps_clone(struct rp_machine *machine, struct rp_maps *dst, const struct rp_maps *src)
{
	if (!src || !src->nr)
		return 0;
	if (!dst->nr) {
		/* Maps never change once made: the child shares the objects. */
		if (RP_ARRAY_RESERVE(dst->items, dst->alloc, src->nr) < 0)
			return RP_ERR_NOMEM;
		memcpy(dst->items, src->items, src->nr * sizeof(*src->items));
		dst->nr = src->nr;
		dst->may_overlap = src->may_overlap;
		dst->last = 0;
		return 0;
	}
	/*
	 * perf inserts the parent's maps without clipping; the child only
	 * has maps of its own when records came out of order.  Clipping
	 * keeps the address space well formed.
	 */
	for (size_t i = 0; i < src->nr; i++) {
		int err = rp_maps_insert_fixup(machine, dst, src->items[i]);

		if (err < 0)
			return err;
	}
	return 0;
}
