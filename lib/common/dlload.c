/* SPDX-License-Identifier: MIT */
/* Libraries an output loads when it starts: dlload_int.h. */
#include "common/dlload_int.h"

#include <dlfcn.h>
#include <string.h>

/* The message: what the library is and where it comes from first, so that
 * a long dlerror() text (a path, a missing dependency) is what
 * RP_ERROR_MSG_MAX cuts.  func: the function dlsym() did not find, or NULL
 * when dlopen() failed. */
static int rp_dl_fail(const struct rp_dl_lib *lib, const char *func, struct rp_error *err)
{
	const char *why = dlerror();

	if (!why)
		why = "unknown error";
	if (func)
		return rp_error_set(err, RP_ERR_UNSUPPORTED,
				    "cannot load %s, %s (apt-get install %s): it has no %s (%s)",
				    lib->soname, lib->what, lib->package, func, why);
	return rp_error_set(err, RP_ERR_UNSUPPORTED, "cannot load %s, %s (apt-get install %s): %s",
			    lib->soname, lib->what, lib->package, why);
}

int rp_dl_load(const struct rp_dl_set *set, void **handles, void *table, struct rp_error *err)
{
	int ret;

	for (unsigned i = 0; i < set->nr_libs; i++)
		handles[i] = NULL;
	for (unsigned i = 0; i < set->nr_libs; i++) {
		handles[i] = dlopen(set->libs[i].soname, RTLD_NOW | RTLD_LOCAL);
		if (!handles[i]) {
			ret = rp_dl_fail(&set->libs[i], NULL, err);
			goto fail;
		}
	}
	for (unsigned i = 0; i < set->nr_syms; i++) {
		const struct rp_dl_sym *s = &set->syms[i];
		void *p;

		dlerror();
		p = dlsym(handles[s->lib], s->name);
		if (!p) {
			ret = rp_dl_fail(&set->libs[s->lib], s->name, err);
			goto fail;
		}
		/* dlsym()'s object pointer becomes the member's function
		 * pointer (POSIX guarantees the conversion; every function
		 * pointer has one representation). */
		void (*fn)(void) = (void (*)(void))p;
		memcpy((char *)table + s->offset, &fn, sizeof(fn));
	}
	return 0;
fail:
	rp_dl_unload(set, handles);
	return ret;
}

void rp_dl_unload(const struct rp_dl_set *set, void **handles)
{
	for (unsigned i = set->nr_libs; i-- > 0;)
		if (handles[i]) {
			dlclose(handles[i]);
			handles[i] = NULL;
		}
}
