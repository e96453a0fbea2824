// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "pb_progs.h"

#include <string.h>

#include "bc_test_util.h"

static bool pb_map_is_ours(int fd, const struct bpf_map_info *info, const void *arg)
{
	(void)fd;
	(void)arg;
	return info->type == BPF_MAP_TYPE_PERF_EVENT_ARRAY && !strcmp(info->name, "perfbuf");
}

bool pb_prog_is_ours(int fd, const struct bpf_prog_info *info, const void *arg)
{
	(void)info;
	return bc_test_prog_has_map(fd, pb_map_is_ours, arg);
}
