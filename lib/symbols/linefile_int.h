/* SPDX-License-Identifier: MIT */
/* Line-table rows named as binutils' addr2line names them (linefile.c). */
#ifndef RP_SYMBOLS_LINEFILE_INT_H
#define RP_SYMBOLS_LINEFILE_INT_H

#include <elfutils/libdw.h>

struct rp_line_files;

/*
 * The source file (full path) addr2line names for line, a row of cu's
 * line table in dw: the row's own file, but file 0 for the rows a DWARF 5
 * sequence emits before its first DW_LNS_set_file, its path as
 * rp_line_name() makes it.  *fp caches what was
 * read of dw (NULL at first; rp_line_files_free() frees it).  NULL when
 * the row has no file.  *err: set to RP_ERR_NOMEM when out of memory
 * (the row's own file is returned then).
 */
const char *rp_line_file(Dwarf *dw, struct rp_line_files **fp, Dwarf_Die *cu, Dwarf_Line *line,
			 int *err);
/*
 * file, a name of cu's line table as libdw gives it (dwarf_filesrc()),
 * as addr2line names it: DW_AT_comp_dir before it where bfd puts it
 * (linefile.c, read_names()).  NULL for NULL; *fp and *err as above.
 */
const char *rp_line_name(Dwarf *dw, struct rp_line_files **fp, Dwarf_Die *cu, const char *file,
			 int *err);
void rp_line_files_free(struct rp_line_files *f);

#endif
