// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "rb_progs.h"

#include <stdbool.h>
#include <string.h>

#include <bpf/bpf.h>

#include "bc_test_util.h"

/*
 * Is this the read-only data map ("ringbuf.rodata") of a ringbuf program
 * run by process *pid? It starts with bc_tgid, the pid of the process that
 * loaded it (see bpf/benchcore.bpf.h). With pid 0: any ringbuf program.
 */
static bool rb_map_is_ours(int fd, const struct bpf_map_info *mi, const void *arg)
{
	const pid_t pid = *(const pid_t *)arg;
	unsigned char value[4096];
	__u32 key = 0, tgid;

	if (strcmp(mi->name, "ringbuf.rodata") || mi->value_size > sizeof(value) ||
	    bpf_map_lookup_elem(fd, &key, value))
		return false;
	memcpy(&tgid, value, sizeof(tgid));
	return !pid || tgid == (__u32)pid;
}

static bool rb_prog_is_ours(int fd, const struct bpf_prog_info *info, const void *arg)
{
	(void)info;
	return bc_test_prog_has_map(fd, rb_map_is_ours, arg);
}

void rb_count_progs(pid_t pid, unsigned int *all, unsigned int *ours)
{
	*ours = bc_test_count_progs(rb_prog_is_ours, &pid, all);
}
