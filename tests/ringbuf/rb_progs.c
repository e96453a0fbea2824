// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "rb_progs.h"

#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

/*
 * Does this program belong to the ringbuf plugin run by process `pid`? Its
 * read-only data map ("ringbuf.rodata") starts with bc_tgid, the pid of the
 * process that loaded it (see bpf/benchcore.bpf.h). With pid 0: any ringbuf
 * program.
 */
static bool rb_prog_is_ours(int prog_fd, pid_t pid)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info), ids[16], i;

	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len) || !info.nr_map_ids)
		return false;
	if (info.nr_map_ids > 16)
		info.nr_map_ids = 16;
	memset(&info, 0, sizeof(info));
	info.nr_map_ids = 16;
	info.map_ids = (__u64)(unsigned long)ids;
	len = sizeof(info);
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return false;
	for (i = 0; i < info.nr_map_ids && i < 16; i++) {
		struct bpf_map_info mi = { 0 };
		unsigned char value[4096];
		__u32 mlen = sizeof(mi), key = 0, tgid;
		int fd = bpf_map_get_fd_by_id(ids[i]);
		bool ours = false;

		if (fd < 0)
			continue;
		if (!bpf_obj_get_info_by_fd(fd, &mi, &mlen) && !strcmp(mi.name, "ringbuf.rodata") &&
		    mi.value_size <= sizeof(value) && !bpf_map_lookup_elem(fd, &key, value)) {
			memcpy(&tgid, value, sizeof(tgid));
			ours = !pid || tgid == (__u32)pid;
		}
		close(fd);
		if (ours)
			return true;
	}
	return false;
}

/* The bpf_prog_get_next_id walk: every program, and those of `pid`. */
void rb_count_progs(pid_t pid, unsigned int *all, unsigned int *ours)
{
	__u32 id = 0;

	*all = *ours = 0;
	while (!bpf_prog_get_next_id(id, &id)) {
		int fd = bpf_prog_get_fd_by_id(id);

		(*all)++;
		if (fd < 0)
			continue;	/* unloaded meanwhile */
		if (rb_prog_is_ours(fd, pid))
			(*ours)++;
		close(fd);
	}
}

