/* SPDX-License-Identifier: MIT */
/* libpq and libcrypto loaded when a postgres export starts: pqload_int.h. */
#ifdef RP_HAVE_POSTGRES

#include "outputs/pqload_int.h"

#include <dlfcn.h>
#include <string.h>

/* A library to load: its SONAME, what it is, the package that holds it. */
struct rp_pq_lib {
	const char *soname, *what, *package;
};

static const struct rp_pq_lib rp_pq_libpq = {
	RP_LIBPQ_SONAME, "the PostgreSQL client library", RP_LIBPQ_PACKAGE
};
static const struct rp_pq_lib rp_pq_libcrypto = {
	RP_LIBCRYPTO_SONAME, "OpenSSL's crypto library", RP_LIBCRYPTO_PACKAGE
};

/* The message: what the library is and where it comes from first, so
 * that a long dlerror() text (a path, a missing dependency) is what
 * RP_ERROR_MSG_MAX cuts.  func: the function dlsym() did not find, or
 * NULL when dlopen() failed. */
static int rp_pq_fail(const struct rp_pq_lib *lib, const char *func, struct rp_error *err)
{
	const char *why = dlerror();

	if (!why)
		why = "unknown error";
	if (func)
		return rp_error_set(err, RP_ERR_UNSUPPORTED,
				    "postgres: cannot load %s, %s (apt-get install %s): it has no"
				    " %s (%s)",
				    lib->soname, lib->what, lib->package, func, why);
	return rp_error_set(err, RP_ERR_UNSUPPORTED,
			    "postgres: cannot load %s, %s (apt-get install %s): %s", lib->soname,
			    lib->what, lib->package, why);
}

int rp_pq_load(struct rp_pq *pq, struct rp_error *err)
{
	int ret;

	memset(pq, 0, sizeof(*pq));
	/* libcrypto first: when it is what is missing, the message names it
	 * rather than libpq, which needs it too. */
	pq->libcrypto = dlopen(rp_pq_libcrypto.soname, RTLD_NOW | RTLD_LOCAL);
	if (!pq->libcrypto)
		return rp_pq_fail(&rp_pq_libcrypto, NULL, err);
	pq->libpq = dlopen(rp_pq_libpq.soname, RTLD_NOW | RTLD_LOCAL);
	if (!pq->libpq) {
		ret = rp_pq_fail(&rp_pq_libpq, NULL, err);
		goto fail;
	}
	/* dlsym()'s object pointer becomes the member's function pointer
	 * type (POSIX guarantees the conversion). */
#define RP_PQ_SYM(handle, lib, f)                                                           \
	do {                                                                                \
		pq->f = (__typeof__(pq->f))dlsym(pq->handle, #f);                           \
		if (!pq->f) {                                                               \
			ret = rp_pq_fail(&lib, #f, err);                                    \
			goto fail;                                                          \
		}                                                                           \
	} while (0);
#define RP_PQ_LIBPQ(f) RP_PQ_SYM(libpq, rp_pq_libpq, f)
#define RP_PQ_LIBCRYPTO(f) RP_PQ_SYM(libcrypto, rp_pq_libcrypto, f)
	RP_PQ_FUNCS(RP_PQ_LIBPQ)
	RP_CRYPTO_FUNCS(RP_PQ_LIBCRYPTO)
#undef RP_PQ_LIBCRYPTO
#undef RP_PQ_LIBPQ
#undef RP_PQ_SYM
	return 0;
fail:
	rp_pq_unload(pq);
	return ret;
}

void rp_pq_unload(struct rp_pq *pq)
{
	if (!pq)
		return;
	if (pq->libpq)
		dlclose(pq->libpq);
	if (pq->libcrypto)
		dlclose(pq->libcrypto);
	memset(pq, 0, sizeof(*pq));
}

#endif
