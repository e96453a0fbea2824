// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tracefs on demand: `tp/...` programs are attached through the tracepoint's
 * id, which libbpf reads from tracefs; a fresh machine often has it
 * unmounted. We run as root, so mount it rather than fail.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include <benchcore/attach.h>
#include "bc_internal.h"

#define BC_TRACEFS "/sys/kernel/tracing"
/* libbpf prefers this path whenever it exists (debugfs mounted): tracefs is
 * then automounted below it on first access. */
#define BC_DEBUGFS_TRACING "/sys/kernel/debug/tracing"

static bool bc_tracefs_usable(const char *dir)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/events", dir);
	return access(path, F_OK) == 0;
}

int bc_tracefs_ensure(char *hint, size_t hint_len)
{
	int err;

	if (hint && hint_len)
		hint[0] = '\0';
	/* Look where libbpf will look, so "usable" means usable by it. */
	if (access(BC_DEBUGFS_TRACING, F_OK) == 0) {
		if (bc_tracefs_usable(BC_DEBUGFS_TRACING))
			return 0;
		err = -errno;
		if (hint && hint_len)
			snprintf(hint, hint_len, "%s/events: %s; run: mount -t tracefs nodev %s",
				 BC_DEBUGFS_TRACING, strerror(-err), BC_DEBUGFS_TRACING);
		return err ? err : -ENOENT;
	}
	if (bc_tracefs_usable(BC_TRACEFS))
		return 0;
	if (mount("nodev", BC_TRACEFS, "tracefs", 0, NULL) == 0) {
		bc_info("mounted tracefs at %s (tracepoint programs need it)", BC_TRACEFS);
		if (bc_tracefs_usable(BC_TRACEFS))
			return 0;
		err = -ENOENT;
	} else {
		err = -errno;
	}
	if (hint && hint_len)
		snprintf(hint, hint_len, "cannot mount tracefs at %s: %s; run as root: "
			 "mount -t tracefs nodev %s", BC_TRACEFS, strerror(-err), BC_TRACEFS);
	return err;
}
