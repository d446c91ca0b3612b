/* SPDX-License-Identifier: MIT */
/*
 * libpq and libcrypto for the postgres output, loaded with dlopen when an
 * export starts rather than linked (common/dlload_int.h): libpq brings
 * ~20 shared libraries (libssl, gnutls, krb5, ldap, sasl, ...) whose
 * loading and relocation cost every readperf command ~3.5 ms of
 * start-up, and only `readperf postgres` calls them.  The headers still
 * give the types and constants (libpq-fe.h, openssl/evp.h); the functions
 * are called through a table that the output keeps in its state.
 *
 * The libraries are opened by the SONAME of those the build found
 * (cmake/outputs.cmake: RP_LIBPQ_SONAME, RP_LIBCRYPTO_SONAME).
 */
#ifndef RP_OUTPUTS_PQLOAD_INT_H
#define RP_OUTPUTS_PQLOAD_INT_H

#include <libpq-fe.h>
#include <openssl/evp.h>

#include "common/error_int.h"

#ifndef RP_LIBPQ_SONAME
#define RP_LIBPQ_SONAME "libpq.so.5"
#endif
#ifndef RP_LIBPQ_PACKAGE
#define RP_LIBPQ_PACKAGE "libpq5"
#endif
#ifndef RP_LIBCRYPTO_SONAME
#define RP_LIBCRYPTO_SONAME "libcrypto.so.3"
#endif
#ifndef RP_LIBCRYPTO_PACKAGE
#define RP_LIBCRYPTO_PACKAGE "libssl3"
#endif

/* Every function postgres.c calls, by library: one X(name) each. */
#define RP_PQ_FUNCS(X)                                                                      \
	X(PQclear) X(PQconnectdb) X(PQerrorMessage) X(PQexec) X(PQexecParams) X(PQfinish)   \
	X(PQgetResult) X(PQgetvalue) X(PQntuples) X(PQputCopyData) X(PQputCopyEnd)          \
	X(PQresultErrorMessage) X(PQresultStatus) X(PQsetClientEncoding) X(PQstatus)        \
	X(PQtransactionStatus)
#define RP_CRYPTO_FUNCS(X)                                                                  \
	X(EVP_DigestFinal_ex) X(EVP_DigestInit_ex) X(EVP_DigestUpdate) X(EVP_MD_CTX_free)   \
	X(EVP_MD_CTX_new) X(EVP_sha256)

/*
 * The loaded libraries and their functions, each member named as the
 * function and of its type in the header (pq->PQexec(conn, sql)).  All
 * NULL until rp_pq_load() succeeds.
 */
#define RP_PQ_NR_LIBS 2
struct rp_pq {
	void *handles[RP_PQ_NR_LIBS]; /* libcrypto's, libpq's (common/dlload_int.h) */
#define RP_PQ_MEMBER(f) __typeof__(f) *f;
	RP_PQ_FUNCS(RP_PQ_MEMBER)
	RP_CRYPTO_FUNCS(RP_PQ_MEMBER)
#undef RP_PQ_MEMBER
};

/*
 * Opens libcrypto and libpq and fills every member of *pq (rp_dl_load()).
 * Returns 0, or RP_ERR_UNSUPPORTED with err naming the library, the
 * package that holds it and dlerror()'s reason (nothing is left open).
 */
int rp_pq_load(struct rp_pq *pq, struct rp_error *err);

/* Closes what rp_pq_load() opened and clears *pq; NULL-safe, idempotent. */
void rp_pq_unload(struct rp_pq *pq);

#endif
