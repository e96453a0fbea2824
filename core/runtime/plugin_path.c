// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Where plugins are looked for. The installed directory is computed from
 * the executable's own location rather than from the configure-time prefix,
 * so that an install tree that is moved, or installed with DESTDIR into an
 * image, still finds its plugins.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader.h"

#ifndef BENCHCORE_BINDIR
#define BENCHCORE_BINDIR "bin"
#endif
#ifndef BENCHCORE_PLUGIN_INSTALL_DIR
#define BENCHCORE_PLUGIN_INSTALL_DIR "lib/benchcore/plugins"
#endif

struct bc_dir_list {
	struct bc_search_dir *dirs;
	size_t cnt;
};

static int bc_dir_list_add(struct bc_dir_list *l, const char *path, size_t len, bool explicit_dir)
{
	struct bc_search_dir *grown;
	char *copy;

	if (len == 0)
		return 0;	/* "a::b" or a trailing ':' in the env var */
	copy = strndup(path, len);
	if (!copy)
		return -ENOMEM;
	grown = realloc(l->dirs, (l->cnt + 1) * sizeof(*grown));
	if (!grown) {
		free(copy);
		return -ENOMEM;
	}
	l->dirs = grown;
	l->dirs[l->cnt].path = copy;
	l->dirs[l->cnt].explicit_dir = explicit_dir;
	l->cnt++;
	return 0;
}

/* The directory the running executable lives in, or "" if unknown. */
static void bc_exe_dir(char *buf, size_t len)
{
	ssize_t n;
	char *slash;

	n = readlink("/proc/self/exe", buf, len - 1);
	if (n <= 0) {
		buf[0] = '\0';
		return;
	}
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	else
		buf[0] = '\0';
}

/* Number of path components of a relative install dir ("bin" -> 1,
 * "libexec/x/bin" -> 3): how far up from the executable the prefix is. */
static unsigned int bc_path_depth(const char *rel)
{
	unsigned int depth = 0;
	const char *p = rel;

	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		if (!(p[0] == '.' && (p[1] == '/' || p[1] == '\0')))
			depth++;
		while (*p && *p != '/')
			p++;
	}
	return depth;
}

static int bc_add_installed_dir(struct bc_dir_list *l, const char *exe_dir)
{
	char path[PATH_MAX];
	unsigned int depth, i;
	size_t len;

	/* An absolute libdir was chosen at configure time: nothing to
	 * relocate. */
	if (BENCHCORE_PLUGIN_INSTALL_DIR[0] == '/')
		return bc_dir_list_add(l, BENCHCORE_PLUGIN_INSTALL_DIR,
				       strlen(BENCHCORE_PLUGIN_INSTALL_DIR), false);
	if (!exe_dir[0] || BENCHCORE_BINDIR[0] == '/')
		return 0;

	len = (size_t)snprintf(path, sizeof(path), "%s", exe_dir);
	depth = bc_path_depth(BENCHCORE_BINDIR);
	for (i = 0; i < depth && len < sizeof(path); i++)
		len += (size_t)snprintf(path + len, sizeof(path) - len, "/..");
	if (len < sizeof(path))
		len += (size_t)snprintf(path + len, sizeof(path) - len, "/%s",
					BENCHCORE_PLUGIN_INSTALL_DIR);
	if (len >= sizeof(path))
		return 0;
	return bc_dir_list_add(l, path, len, false);
}

int bc_plugin_search_dirs(const struct bc_loader_opts *opts, struct bc_search_dir **dirs,
			  size_t *cnt)
{
	struct bc_dir_list l = { 0 };
	char exe_dir[PATH_MAX];
	const char *env, *p, *colon;
	size_t i;
	int err = 0;

	for (i = 0; i < opts->dir_cnt && !err; i++)
		err = bc_dir_list_add(&l, opts->dirs[i], strlen(opts->dirs[i]), true);

	if (!opts->only_dirs && !err) {
		env = getenv("BENCHCORE_PLUGIN_PATH");
		for (p = env; p && *p;) {
			colon = strchr(p, ':');
			err = bc_dir_list_add(&l, p, colon ? (size_t)(colon - p) : strlen(p), false);
			if (err || !colon)
				break;
			p = colon + 1;
		}
	}
	if (!opts->only_dirs && !err) {
		bc_exe_dir(exe_dir, sizeof(exe_dir));
		if (exe_dir[0]) {
			char beside[PATH_MAX];
			int n = snprintf(beside, sizeof(beside), "%s/plugins", exe_dir);

			if (n > 0 && (size_t)n < sizeof(beside))
				err = bc_dir_list_add(&l, beside, (size_t)n, false);
		}
		if (!err)
			err = bc_add_installed_dir(&l, exe_dir);
	}
	if (err) {
		bc_plugin_search_dirs_free(l.dirs, l.cnt);
		return err;
	}
	*dirs = l.dirs;
	*cnt = l.cnt;
	return 0;
}

void bc_plugin_search_dirs_free(struct bc_search_dir *dirs, size_t cnt)
{
	size_t i;

	for (i = 0; i < cnt; i++)
		free(dirs[i].path);
	free(dirs);
}
