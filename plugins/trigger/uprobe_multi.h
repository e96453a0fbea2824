/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * uprobe.multi links without libbpf's help: libbpf gained
 * bpf_program__attach_uprobe_multi() only in 1.3, while the kernel has
 * had the link since 6.6. Whether a uprobe.multi benchmark runs must depend
 * on the kernel, not on the libbpf benchcore was built against, so the link
 * is created with the bpf(2) syscall directly.
 */
#ifndef BENCHCORE_TRIGGER_UPROBE_MULTI_H
#define BENCHCORE_TRIGGER_UPROBE_MULTI_H

#include <stdbool.h>
#include <stddef.h>

/* enum bpf_attach_type's BPF_TRACE_UPROBE_MULTI (Linux 6.6 uapi): load the
 * program with it as its expected attach type. */
#define BC_TRIG_ATTACH_UPROBE_MULTI 48

/*
 * Attaches the loaded program prog_fd at the file offsets offs[0..cnt-1] of
 * the file at path, for every process, as a uprobe.multi link (as a
 * uretprobe.multi one when retprobe). ref_ctr_offs: NULL, or per offset
 * the file offset of a USDT semaphore the kernel keeps counted while the
 * link lives. Returns the link's fd, or a negative errno: the kernel's
 * answer.
 */
int trig_uprobe_multi_link(int prog_fd, const char *path, const unsigned long *offs,
			      const unsigned long *ref_ctr_offs, size_t cnt, bool retprobe);

#endif /* BENCHCORE_TRIGGER_UPROBE_MULTI_H */
