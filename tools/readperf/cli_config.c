/* SPDX-License-Identifier: MIT */
/*
 * perf's config files, read as perf 6.1 reads them (tools/perf/util/config.c,
 * the git config format): $PERF_CONFIG alone when set (an empty value reads
 * none), else /etc/perfconfig (unless $PERF_CONFIG_NOSYSTEM) and then
 * ~/.perfconfig (unless $PERF_CONFIG_NOGLOBAL; ignored when another user
 * owns it).  Each "section.key = value" goes to a callback in file order,
 * so that a later value overrides an earlier one.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Longest section.key and value taken, bytes (longer lines are skipped). */
#define CLI_CONFIG_MAX_NAME 256
#define CLI_CONFIG_MAX_VALUE 4096
/* Largest config file read, bytes. */
#define CLI_CONFIG_MAX_FILE (1u << 20)

int cli_config_bool(const char *value, int *out)
{
	char *end;
	long v;

	if (!value || !*value) { /* "key" alone, or "key =": true, as git */
		*out = value ? 0 : 1;
		return 0;
	}
	if (!strcasecmp(value, "true") || !strcasecmp(value, "yes") || !strcasecmp(value, "on")) {
		*out = 1;
		return 0;
	}
	if (!strcasecmp(value, "false") || !strcasecmp(value, "no") || !strcasecmp(value, "off")) {
		*out = 0;
		return 0;
	}
	errno = 0;
	v = strtol(value, &end, 0);
	if (end == value || *end || errno)
		return -1;
	*out = v != 0;
	return 0;
}

/* A value: spaces around it dropped, quotes removed, escapes read, an
 * unquoted # or ; ends it.  Returns 0, or -1 for a bad one. */
static int cli_config_value(const char *p, char *out, size_t size)
{
	size_t n = 0, keep = 0;
	int quoted = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	for (; *p && *p != '\n'; p++) {
		char c = *p;

		if (!quoted && (c == '#' || c == ';'))
			break;
		if (c == '"') {
			quoted = !quoted;
			keep = n;
			continue;
		}
		if (c == '\\') {
			p++;
			switch (*p) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'b': c = '\b'; break;
			case '\\': c = '\\'; break;
			case '"': c = '"'; break;
			default: return -1;
			}
		}
		if (n + 1 >= size)
			return -1;
		out[n++] = c;
		if (quoted || (c != ' ' && c != '\t'))
			keep = n;
	}
	if (quoted)
		return -1;
	out[keep] = '\0';
	return 0;
}

static int cli_config_keychar(int c)
{
	return isalnum(c) || c == '-' || c == '_';
}

/* Reads one file; 0, or -1 when it could not be read (as perf, quietly). */
static int cli_config_file(const char *path, cli_config_fn fn, void *ctx)
{
	FILE *f = fopen(path, "r");
	char section[CLI_CONFIG_MAX_NAME] = "";
	char line[CLI_CONFIG_MAX_VALUE + CLI_CONFIG_MAX_NAME];
	size_t total = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char name[CLI_CONFIG_MAX_NAME * 2 + 2], value[CLI_CONFIG_MAX_VALUE];
		char *p = line;
		size_t len = strlen(line);

		total += len;
		if (total > CLI_CONFIG_MAX_FILE)
			break;
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p || *p == '\n' || *p == '#' || *p == ';')
			continue;
		if (*p == '[') {
			/* [section] or [section "subsection"] */
			size_t n = 0;

			p++;
			while (*p && (cli_config_keychar((unsigned char)*p) || *p == '.') &&
			       n + 1 < sizeof(section))
				section[n++] = (char)tolower((unsigned char)*p++);
			section[n] = '\0';
			if (*p == ' ' || *p == '\t') {
				while (*p == ' ' || *p == '\t')
					p++;
				if (*p == '"') {
					p++;
					if (n + 1 < sizeof(section))
						section[n++] = '.';
					while (*p && *p != '"' && n + 1 < sizeof(section))
						section[n++] = *p++;
					section[n] = '\0';
					if (*p == '"')
						p++;
				}
			}
			if (*p != ']')
				section[0] = '\0';
			continue;
		}
		if (!section[0] || !isalpha((unsigned char)*p))
			continue;
		size_t n = (size_t)snprintf(name, sizeof(name), "%s.", section);
		while (cli_config_keychar((unsigned char)*p) && n + 1 < sizeof(name))
			name[n++] = (char)tolower((unsigned char)*p++);
		name[n] = '\0';
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (*p == '=') {
			if (cli_config_value(p + 1, value, sizeof(value)) < 0) {
				cli_warnf("%s: bad value of %s, ignored", path, name);
				continue;
			}
			fn(ctx, name, value);
		} else if (!*p || *p == '\n' || *p == '#' || *p == ';') {
			fn(ctx, name, NULL);
		}
	}
	fclose(f);
	return 0;
}

static int cli_env_bool(const char *name)
{
	const char *v = getenv(name);
	int b = 0;

	return v && !cli_config_bool(v, &b) && b;
}

void cli_config_read(cli_config_fn fn, void *ctx)
{
	const char *exclusive = getenv("PERF_CONFIG");
	const char *home = getenv("HOME");

	if (exclusive) {
		if (*exclusive)
			(void)cli_config_file(exclusive, fn, ctx);
		return;
	}
	if (!cli_env_bool("PERF_CONFIG_NOSYSTEM") && !access("/etc/perfconfig", R_OK))
		(void)cli_config_file("/etc/perfconfig", fn, ctx);
	if (!cli_env_bool("PERF_CONFIG_NOGLOBAL") && home && *home) {
		char path[4096];
		struct stat st;

		if (snprintf(path, sizeof(path), "%s/.perfconfig", home) >= (int)sizeof(path))
			return;
		if (stat(path, &st) < 0)
			return;
		if (st.st_uid && st.st_uid != geteuid()) {
			cli_warnf("%s is not owned by the current user or root, ignored", path);
			return;
		}
		if (st.st_size)
			(void)cli_config_file(path, fn, ctx);
	}
}
