// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tracefs on demand: `tp/...` programs are attached through the tracepoint's
 * id, which libbpf reads from tracefs; a fresh machine often has it
 * unmounted. We run as root, so mount it rather than fail.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include <benchcore/attach.h>
#include "tracefs.h"
#include "log.h"

#define BC_TRACEFS "/sys/kernel/tracing"
/* libbpf prefers this path whenever it exists (debugfs mounted): tracefs is
 * then automounted below it on first access. */
#define BC_DEBUGFS_TRACING "/sys/kernel/debug/tracing"

/* 0 when dir/events is reachable, else the negative errno of the access. */
static int bc_tracefs_check(const char *dir)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/events", dir);
	return access(path, F_OK) == 0 ? 0 : -errno;
}

const char *bc_tracefs_dir(void)
{
	return access(BC_DEBUGFS_TRACING, F_OK) == 0 ? BC_DEBUGFS_TRACING : BC_TRACEFS;
}

int bc_tracefs_ensure(char *hint, size_t hint_len)
{
	const char *dir = BC_TRACEFS;
	bool debugfs = false;
	int err;

	if (hint && hint_len)
		hint[0] = '\0';
	/* Look where libbpf will look, so "usable" means usable by it. */
	if (access(BC_DEBUGFS_TRACING, F_OK) == 0) {
		dir = BC_DEBUGFS_TRACING;
		debugfs = true;
	}
	err = bc_tracefs_check(dir);
	if (!err)
		return 0;
	/* Mounted but not ours to read (tracefs is root-only): mounting
	 * again would not help. */
	if (err == -EACCES || err == -EPERM) {
		if (hint && hint_len)
			snprintf(hint, hint_len, "%s is not accessible: %s; run as root",
				 dir, strerror(-err));
		return err;
	}
	if (!debugfs && mount("nodev", BC_TRACEFS, "tracefs", 0, NULL) == 0) {
		bc_info("mounted tracefs at %s (tracepoint programs need it)", BC_TRACEFS);
		err = bc_tracefs_check(BC_TRACEFS);
		if (!err)
			return 0;
	} else if (!debugfs) {
		err = -errno;
	}
	if (hint && hint_len)
		snprintf(hint, hint_len, "tracefs is not mounted at %s and mounting it failed: %s; "
			 "run as root: mount -t tracefs nodev %s", dir, strerror(-err), dir);
	return err;
}
