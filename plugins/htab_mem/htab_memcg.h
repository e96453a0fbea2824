/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A memory cgroup of the benchmark's own, so that the hash map's memory can
 * be read: the kernel charges a BPF map's memory (its elements included,
 * whoever allocates them) to the memory cgroup of the process that created
 * it. The kernel runner creates and joins one (cgroup v2, memory.current
 * and memory.peak); so does this, on cgroup v2 or on a cgroup v1 memory
 * hierarchy (memory.usage_in_bytes, memory.max_usage_in_bytes).
 */
#ifndef BENCHCORE_HTAB_MEMCG_H
#define BENCHCORE_HTAB_MEMCG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct htab_memcg {
	bool v2;
	char parent[PATH_MAX];	/* where ours is created */
	char home[PATH_MAX];	/* the cgroup the process came from */
	char path[PATH_MAX];	/* ours, once created */
	int dir_fd;		/* ours, open; -1 before */
	bool joined;
};

/*
 * Finds where a child cgroup with memory accounting can be made: a child of
 * the process's own memory cgroup on cgroup v1; on cgroup v2, where a
 * cgroup holding a process cannot enable controllers for children, a
 * sibling of the process's cgroup (or a child of the root). Makes nothing.
 * Returns 0, or a negative errno with the reason in why.
 */
int htab_memcg_locate(struct htab_memcg *cg, char *why, size_t why_len);

/* Creates the cgroup (named after the pid) and moves the whole process into
 * it. Returns 0, or a negative errno with the reason in why. */
int htab_memcg_enter(struct htab_memcg *cg, char *why, size_t why_len);

/* Memory charged to it now, or its high-water mark, in bytes. Returns 0 or
 * a negative errno (-ENOENT: this kernel has no peak file). */
int htab_memcg_read(const struct htab_memcg *cg, bool peak, uint64_t *bytes);

/* Moves the process back where it came from and removes the cgroup.
 * Safe on a cgroup never entered. */
void htab_memcg_leave(struct htab_memcg *cg);

/* The parsing underneath, separate so that tests can feed it any host's
 * lines. */

/* A /proc/self/mountinfo line: is it cgroup v2's mount (v2), or the cgroup
 * v1 mount holding the memory controller? Then its root within the
 * hierarchy and its mount point (PATH_MAX each). */
bool htab_memcg_mount_line(const char *line, bool v2, char *root, char *mnt);

/* A /proc/self/cgroup line (modified): is it cgroup v2's ("0::PATH"), or the
 * v1 hierarchy with the memory controller? Then *path points into line. */
bool htab_memcg_cgroup_line(char *line, bool v2, const char **path);

/* Where cgroup `path` of a hierarchy whose `root` is mounted at `mnt` is
 * (PATH_MAX): -ENOENT when the mount does not show it. */
int htab_memcg_join_path(char *out, const char *mnt, const char *root, const char *path);

#endif /* BENCHCORE_HTAB_MEMCG_H */
