// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What every command shares: the global options and the plugins, loaded
 * once, on the first command that asks for them. Below the commands, so
 * that a command (run, sweeps, suites) loads plugins without calling up
 * into the command table.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "runtime/loader.h"
#include "cli_env.h"
#include "runtime/log.h"
#include "runtime/plugin_opts.h"

void bc_cli_print_version(FILE *f)
{
	fprintf(f, "benchcore %s (plugin ABI %d.%d, libbpf %s)\n", bc_version(), BC_ABI_MAJOR,
		BC_ABI_MINOR, libbpf_version_string());
}

/* Does dir hold a "*.so" entry? A --plugin-dir without one is a wrong
 * directory (docs/cli.md), not a search that found nothing. */
static bool bc_dir_has_plugin(const char *dir)
{
	struct dirent *de;
	bool found = false;
	DIR *d = opendir(dir);

	if (!d)
		return true;	/* the loader says why it cannot be read */
	while (!found && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		found = len > 3 && !strcmp(de->d_name + len - 3, ".so");
	}
	closedir(d);
	return found;
}

int bc_cli_load_plugins(struct bc_cli_env *env)
{
	struct bc_loader_opts opts = {
		.dirs = env->plugin_dirs,
		.dir_cnt = env->plugin_dir_cnt,
		.allow_unsafe = env->allow_unsafe,
		/* Option tables are refused as the plugin loads, so that `list`
		 * never shows a benchmark whose every run would be refused. */
		.check = bc_opts_check_plugin,
	};

	if (env->plugins_loaded)
		return env->load_err;
	env->plugins_loaded = true;
	for (size_t i = 0; i < env->plugin_dir_cnt; i++) {
		struct stat st;

		if (stat(env->plugin_dirs[i], &st) || !S_ISDIR(st.st_mode) ||
		    bc_dir_has_plugin(env->plugin_dirs[i]))
			continue;
		bc_warn("--plugin-dir '%s': holds no plugin (.so) files; expected a directory of plugin .so files",
			env->plugin_dirs[i]);
		env->load_err = -ENOENT;
		return env->load_err;
	}
	env->load_err = bc_plugins_load(&env->plugins, &opts);
	if (!env->load_err && !env->plugins.cnt) {
		bc_warn("no plugins found; pass --plugin-dir DIR or set BENCHCORE_PLUGIN_PATH (-v shows where benchcore looked)");
	}
	return env->load_err;
}

bool bc_exe_prefix(char *buf, size_t len)
{
	const char *bindir = BENCHCORE_BINDIR;
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;
	size_t blen = strlen(bindir), dlen;

	if (n <= 0)
		return false;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return false;
	*slash = '\0';
	dlen = strlen(buf);
	if (bindir[0] == '/' || dlen < blen + 1 || strcmp(buf + dlen - blen, bindir) ||
	    buf[dlen - blen - 1] != '/')
		return false;
	buf[dlen - blen - 1] = '\0';
	return true;
}
