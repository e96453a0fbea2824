// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "uprobe_multi.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bpf.h>

/*
 * The part of union bpf_attr that BPF_LINK_CREATE reads for a uprobe.multi
 * link (Linux 6.6 uapi; the installed headers may predate it). uapi
 * layouts never change, and the kernel reads a shorter attr as if the rest
 * were zero, so this is all the syscall needs.
 */
struct trig_link_create_uprobe_multi {
	uint32_t prog_fd;
	uint32_t target_fd;
	uint32_t attach_type;
	uint32_t flags;
	/* link_create's union starts here, 8-byte aligned */
	uint64_t path;
	uint64_t offsets;
	uint64_t ref_ctr_offsets;
	uint64_t cookies;
	uint32_t cnt;
	uint32_t um_flags;	/* BPF_F_UPROBE_MULTI_RETURN */
	uint32_t pid;		/* 0: every process */
};

#define BC_F_UPROBE_MULTI_RETURN (1U << 0)

_Static_assert(offsetof(struct trig_link_create_uprobe_multi, path) == 16,
	       "link_create's union starts at offset 16");
_Static_assert(offsetof(struct trig_link_create_uprobe_multi, cnt) == 48,
	       "uprobe_multi.cnt follows four 64-bit fields");
/* The fields before the union are the uapi's own. */
_Static_assert(offsetof(union bpf_attr, link_create.prog_fd) ==
	       offsetof(struct trig_link_create_uprobe_multi, prog_fd), "prog_fd");
_Static_assert(offsetof(union bpf_attr, link_create.attach_type) ==
	       offsetof(struct trig_link_create_uprobe_multi, attach_type), "attach_type");
_Static_assert(offsetof(union bpf_attr, link_create.flags) ==
	       offsetof(struct trig_link_create_uprobe_multi, flags), "flags");
_Static_assert(offsetof(union bpf_attr, link_create.target_btf_id) ==
	       offsetof(struct trig_link_create_uprobe_multi, path), "the union");

static uint64_t ptr_u64(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

int trig_uprobe_multi_link(int prog_fd, const char *path, const unsigned long *offs,
			      const unsigned long *ref_ctr_offs, size_t cnt, bool retprobe)
{
	struct trig_link_create_uprobe_multi attr;
	long fd;

	if (prog_fd < 0 || !path || !offs || cnt == 0 || cnt > UINT32_MAX)
		return -EINVAL;
	memset(&attr, 0, sizeof(attr));
	attr.prog_fd = (uint32_t)prog_fd;
	attr.attach_type = BC_TRIG_ATTACH_UPROBE_MULTI;
	attr.path = ptr_u64(path);
	attr.offsets = ptr_u64(offs);
	attr.ref_ctr_offsets = ptr_u64(ref_ctr_offs);
	attr.cnt = (uint32_t)cnt;
	attr.um_flags = retprobe ? BC_F_UPROBE_MULTI_RETURN : 0;
	fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	return fd < 0 ? -errno : (int)fd;
}
