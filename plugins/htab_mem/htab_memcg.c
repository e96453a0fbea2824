// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The htab-mem benchmark's memory cgroup: find where one can be made, make
 * it, move the process in and out, read its memory figures. Paths come from
 * /proc/self/cgroup (which cgroup we are in) and /proc/self/mountinfo (where
 * that hierarchy is mounted, and which part of it).
 */
#include "htab_memcg.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define HTAB_MEMCG_PREFIX "benchcore-htab-mem-"

/* Is `word` one of the `sep`-separated words of `list`? */
static bool memcg_has_word(const char *list, const char *word, char sep)
{
	size_t n = strlen(word);
	const char *p = list;

	while (p && *p) {
		if (!strncmp(p, word, n) && (p[n] == sep || p[n] == '\0' || p[n] == '\n'))
			return true;
		p = strchr(p, sep);
		if (p)
			p++;
	}
	return false;
}

bool htab_memcg_mount_line(const char *line, bool v2, char *root, char *mnt)
{
	char fstype[64], src[256], super[1024] = "";
	const char *sep = strstr(line, " - ");

	if (!sep || sscanf(sep + 3, "%63s %255s %1023s", fstype, src, super) < 2)
		return false;
	if (v2 ? strcmp(fstype, "cgroup2") :
		 strcmp(fstype, "cgroup") || !memcg_has_word(super, "memory", ','))
		return false;
	/* id parent major:minor root mount-point ... */
	return sscanf(line, "%*s %*s %*s %4095s %4095s", root, mnt) == 2;
}

bool htab_memcg_cgroup_line(char *line, bool v2, const char **path_out)
{
	char *ctrl, *path;

	line[strcspn(line, "\n")] = '\0';
	/* hierarchy-id:controllers:path */
	ctrl = strchr(line, ':');
	path = ctrl ? strchr(ctrl + 1, ':') : NULL;
	if (!path)
		return false;
	*path++ = '\0';
	*ctrl++ = '\0';	/* ends the hierarchy id */
	if (v2 ? strcmp(line, "0") || ctrl[0] : !memcg_has_word(ctrl, "memory", ','))
		return false;
	*path_out = path;
	return true;
}

/* The mount of cgroup v2, or of the cgroup v1 hierarchy holding the memory
 * controller: its root within the hierarchy and its mount point. */
static int memcg_mount(bool v2, char *root, char *mnt)
{
	char line[4096];
	int ret = -ENOENT;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (htab_memcg_mount_line(line, v2, root, mnt)) {
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

/* Our cgroup's path in that hierarchy, from /proc/self/cgroup. */
static int memcg_self_path(bool v2, char *out)
{
	char line[4096];
	const char *path;
	int ret = -ENOENT;
	FILE *f;

	f = fopen("/proc/self/cgroup", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (htab_memcg_cgroup_line(line, v2, &path)) {
			snprintf(out, PATH_MAX, "%s", path);
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

int htab_memcg_join_path(char *out, const char *mnt, const char *root, const char *path)
{
	size_t rlen = strlen(root);

	if (strcmp(root, "/")) {
		if (strncmp(path, root, rlen) || (path[rlen] && path[rlen] != '/'))
			return -ENOENT;	/* our cgroup is outside what is mounted */
		path += rlen;
	}
	if (snprintf(out, PATH_MAX, "%s%s", mnt, path) >= PATH_MAX)
		return -ENAMETOOLONG;
	/* "/sys/fs/cgroup/" for the root: no trailing slash. */
	rlen = strlen(out);
	if (rlen > 1 && out[rlen - 1] == '/')
		out[rlen - 1] = '\0';
	return 0;
}

static bool memcg_file_exists(const char *dir, const char *name)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return access(p, F_OK) == 0;
}

static int memcg_read_text(const char *dir, const char *name, char *buf, size_t len)
{
	char p[PATH_MAX + 64];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static int memcg_write_text(const char *dir, const char *name, const char *text)
{
	char p[PATH_MAX + 64];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n < 0 ? -errno : 0;
}

int htab_memcg_locate(struct htab_memcg *cg, char *why, size_t why_len)
{
	char root[PATH_MAX], mnt[PATH_MAX], self[PATH_MAX], ctrls[1024];
	char *slash;
	int err;

	memset(cg, 0, sizeof(*cg));
	cg->dir_fd = -1;
	/* A cgroup v1 memory hierarchy, when there is one, owns the
	 * controller: cgroup v2 then has none to give. */
	if (!memcg_mount(false, root, mnt) && !memcg_self_path(false, self)) {
		err = htab_memcg_join_path(cg->home, mnt, root, self);
		if (err) {
			snprintf(why, why_len, "our memory cgroup %s is outside the mounted hierarchy %s",
				 self, mnt);
			return err;
		}
		snprintf(cg->parent, sizeof(cg->parent), "%s", cg->home);
	} else if (!memcg_mount(true, root, mnt) && !memcg_self_path(true, self)) {
		cg->v2 = true;
		err = htab_memcg_join_path(cg->home, mnt, root, self);
		if (err) {
			snprintf(why, why_len, "our cgroup %s is outside the mounted cgroup2 at %s",
				 self, mnt);
			return err;
		}
		/* A cgroup with processes cannot give its children a
		 * controller; its parent already gives it one when it has
		 * memory.current. Else the root, as the kernel runner does. */
		snprintf(cg->parent, sizeof(cg->parent), "%s", mnt);
		if (strcmp(cg->home, mnt) && memcg_file_exists(cg->home, "memory.current")) {
			snprintf(cg->parent, sizeof(cg->parent), "%s", cg->home);
			slash = strrchr(cg->parent, '/');
			if (slash && slash != cg->parent)
				*slash = '\0';
		} else if (memcg_read_text(mnt, "cgroup.controllers", ctrls, sizeof(ctrls)) ||
			   !memcg_has_word(ctrls, "memory", ' ')) {
			snprintf(why, why_len, "cgroup v2 at %s has no memory controller (disabled, or held by a cgroup v1 hierarchy)",
				 mnt);
			return -EOPNOTSUPP;
		}
	} else {
		snprintf(why, why_len, "no memory cgroup: neither a cgroup v1 memory hierarchy nor cgroup v2 is mounted");
		return -EOPNOTSUPP;
	}
	if (access(cg->parent, W_OK)) {
		err = -errno;
		snprintf(why, why_len, "cannot create a memory cgroup in %s: %s (run as root)",
			 cg->parent, strerror(-err));
		return err;
	}
	return 0;
}

/* Removes cgroups that runs killed before their teardown left behind. */
static void memcg_sweep_stale(const char *parent)
{
	char p[PATH_MAX + 256];
	struct dirent *de;
	DIR *d;
	long pid;

	d = opendir(parent);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, HTAB_MEMCG_PREFIX, strlen(HTAB_MEMCG_PREFIX)))
			continue;
		pid = strtol(de->d_name + strlen(HTAB_MEMCG_PREFIX), NULL, 10);
		if (pid <= 0 || pid == getpid() || !kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		snprintf(p, sizeof(p), "%s/%s", parent, de->d_name);
		(void)rmdir(p);
	}
	closedir(d);
}

int htab_memcg_enter(struct htab_memcg *cg, char *why, size_t why_len)
{
	char ctrls[1024], pid[32];
	int err;

	memcg_sweep_stale(cg->parent);
	if (cg->v2 && (memcg_read_text(cg->parent, "cgroup.subtree_control", ctrls, sizeof(ctrls)) ||
		       !memcg_has_word(ctrls, "memory", ' '))) {
		err = memcg_write_text(cg->parent, "cgroup.subtree_control", "+memory");
		if (err) {
			snprintf(why, why_len, "enabling the memory controller in %s: %s", cg->parent,
				 strerror(-err));
			return err;
		}
	}
	if (snprintf(cg->path, sizeof(cg->path), "%s/" HTAB_MEMCG_PREFIX "%d", cg->parent,
		     (int)getpid()) >= (int)sizeof(cg->path)) {
		cg->path[0] = '\0';
		snprintf(why, why_len, "the cgroup path under %s is too long", cg->parent);
		return -ENAMETOOLONG;
	}
	if (mkdir(cg->path, 0755) && errno != EEXIST) {
		err = -errno;
		snprintf(why, why_len, "creating the memory cgroup %s: %s", cg->path, strerror(-err));
		cg->path[0] = '\0';
		return err;
	}
	cg->dir_fd = open(cg->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->dir_fd < 0) {
		err = -errno;
		snprintf(why, why_len, "opening %s: %s", cg->path, strerror(-err));
		return err;
	}
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	err = memcg_write_text(cg->path, "cgroup.procs", pid);
	if (err) {
		snprintf(why, why_len, "moving the process into %s: %s", cg->path, strerror(-err));
		return err;
	}
	cg->joined = true;
	return 0;
}

int htab_memcg_read(const struct htab_memcg *cg, bool peak, uint64_t *bytes)
{
	const char *name;
	char buf[64];
	ssize_t n;
	int fd;

	if (cg->v2)
		name = peak ? "memory.peak" : "memory.current";
	else
		name = peak ? "memory.max_usage_in_bytes" : "memory.usage_in_bytes";
	fd = openat(cg->dir_fd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	buf[n] = '\0';
	*bytes = strtoull(buf, NULL, 10);
	return 0;
}

void htab_memcg_leave(struct htab_memcg *cg)
{
	char pid[32];

	if (cg->joined) {
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		(void)memcg_write_text(cg->home, "cgroup.procs", pid);
		cg->joined = false;
	}
	if (cg->dir_fd >= 0) {
		close(cg->dir_fd);
		cg->dir_fd = -1;
	}
	if (cg->path[0]) {
		(void)rmdir(cg->path);
		cg->path[0] = '\0';
	}
}
