// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sdk_util.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t cap = 4096, len = 0, n;
	char *buf = malloc(cap + 1), *grown;

	if (!buf) {
		if (f)
			fclose(f);
		return NULL;
	}
	if (f) {
		while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
			len += n;
			if (len == cap) {
				cap *= 2;
				grown = realloc(buf, cap + 1);
				if (!grown)
					break;
				buf = grown;
			}
		}
		fclose(f);
	}
	buf[len] = '\0';
	return buf;
}

int sdk_run(struct sdk_out *res, const char *work, const char *fmt, ...)
{
	char cmd[8192], full[8192 + 2 * 1100 + 64], out_path[1100], err_path[1100];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	/* `work` is at most 1024 bytes: the test programs make it so. */
	snprintf(out_path, sizeof(out_path), "%.1024s/.cmd.out", work);
	snprintf(err_path, sizeof(err_path), "%.1024s/.cmd.err", work);
	snprintf(full, sizeof(full), "( %s ) >'%s' 2>'%s' </dev/null", cmd, out_path, err_path);

	fprintf(stderr, "$ %s\n", cmd);
	rc = system(full);
	res->status = (rc != -1 && WIFEXITED(rc)) ? WEXITSTATUS(rc) : -1;
	res->out = slurp(out_path);
	res->err = slurp(err_path);
	if (!res->out || !res->err) {
		sdk_out_free(res);
		res->status = -1;
		return -ENOMEM;
	}
	if (getenv("BC_SDK_VERBOSE"))
		sdk_out_dump(res);
	return 0;
}

void sdk_out_free(struct sdk_out *res)
{
	free(res->out);
	free(res->err);
	res->out = NULL;
	res->err = NULL;
}

void sdk_out_dump(const struct sdk_out *res)
{
	fprintf(stderr, "exit status %d\n--- stdout\n%s--- stderr\n%s---\n", res->status,
		res->out ? res->out : "", res->err ? res->err : "");
}

double sdk_json_summary_mean(const char *json, const char *metric)
{
	char key[256];
	const char *p;
	char *end;
	double v;

	p = strstr(json, "\"summary\"");
	if (!p)
		return -1;
	snprintf(key, sizeof(key), "\"%s\"", metric);
	p = strstr(p, key);
	if (!p)
		return -1;
	p = strstr(p, "\"mean\"");
	if (!p)
		return -1;
	p += strlen("\"mean\"");
	while (*p == ' ' || *p == ':' || *p == '\t' || *p == '\n')
		p++;
	errno = 0;
	v = strtod(p, &end);
	if (end == p || errno)
		return -1;
	return v;
}

bool sdk_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

int sdk_rm_rf(const char *path)
{
	char cmd[4200];
	int rc;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	rc = system(cmd);
	return (rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0) ? 0 : -1;
}

void sdk_require_root(const char *what)
{
	if (geteuid() != 0) {
		printf("skipped: %s needs root (BPF programs are loaded)\n", what);
		exit(77);
	}
}
