/* SPDX-License-Identifier: MIT */
/* libpq and libcrypto loaded when a postgres export starts: pqload_int.h. */
#ifdef RP_HAVE_POSTGRES

#include "outputs/pqload_int.h"

#include <string.h>

#include "common/dlload_int.h"

/* libcrypto first: when it is what is missing, the message names it
 * rather than libpq, which needs it too. */
enum { RP_PQ_LIBCRYPTO, RP_PQ_LIBPQ };

static const struct rp_dl_lib rp_pq_libs[RP_PQ_NR_LIBS] = {
	[RP_PQ_LIBCRYPTO] = { RP_LIBCRYPTO_SONAME, "OpenSSL's crypto library",
			      RP_LIBCRYPTO_PACKAGE },
	[RP_PQ_LIBPQ] = { RP_LIBPQ_SONAME, "the PostgreSQL client library", RP_LIBPQ_PACKAGE },
};

#define RP_PQ_SYM_LIBPQ(f) RP_DL_SYM(struct rp_pq, RP_PQ_LIBPQ, f)
#define RP_PQ_SYM_LIBCRYPTO(f) RP_DL_SYM(struct rp_pq, RP_PQ_LIBCRYPTO, f)
static const struct rp_dl_sym rp_pq_syms[] = {
	RP_PQ_FUNCS(RP_PQ_SYM_LIBPQ) RP_CRYPTO_FUNCS(RP_PQ_SYM_LIBCRYPTO)
};

static const struct rp_dl_set rp_pq_set = {
	rp_pq_libs, RP_PQ_NR_LIBS, rp_pq_syms, sizeof(rp_pq_syms) / sizeof(rp_pq_syms[0])
};

int rp_pq_load(struct rp_pq *pq, struct rp_error *err)
{
	memset(pq, 0, sizeof(*pq));
	return rp_dl_load(&rp_pq_set, pq->handles, pq, err);
}

void rp_pq_unload(struct rp_pq *pq)
{
	if (!pq)
		return;
	rp_dl_unload(&rp_pq_set, pq->handles);
	memset(pq, 0, sizeof(*pq));
}

#endif
