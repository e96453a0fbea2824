/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the kernel in front of a test can do, asked directly: hand-written
 * programs loaded and attached through bpf(2) (libbpf's low-level calls),
 * maps created, cgroups made, files under /sys read. Never through a plugin
 * or the core, so that a test's expectation does not come from the code it
 * tests. Builds of one kernel release differ (trampolines, kprobes, fprobe,
 * uprobes, sockmap and memory cgroups are all config or boot options), so
 * a test asks the kernel instead of reading its release number.
 *
 * Each probe prints one "# kernel: ..." line to stderr saying what it found
 * (stdout stays free for a test's own output, and for tests/kernel_features'
 * table) and returns 0 when the kernel does it, else a negative errno.
 * None needs cmocka: tests/kernel_features links this alone.
 */
#ifndef BENCHCORE_TEST_KERNEL_H
#define BENCHCORE_TEST_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#include <bpf/bpf.h>

/* A trivial raw_tp program loads: this process may load BPF at all. */
int bc_test_kernel_bpf(void);

/* The same program loads and attaches (raw_tracepoint_open on sys_enter)
 * in a child that gave up CAP_SYS_ADMIN but kept CAP_BPF and CAP_PERFMON:
 * Debian's 6.1 refuses that load (EINVAL), newer kernels take it. */
int bc_test_kernel_raw_tp_without_sys_admin(void);

/*
 * A trampoline program (type BPF_TRACE_FENTRY, BPF_TRACE_FEXIT or
 * BPF_MODIFY_RETURN) on kernel function func loads AND attaches: a kernel
 * may accept the program and still refuse the trampoline. Detached and
 * closed before returning.
 */
int bc_test_kernel_trampoline(enum bpf_attach_type type, const char *func);

/* An lsm (lsm.s when sleepable) program on hook (without its bpf_lsm_
 * prefix) loads and attaches: BPF LSM is also a boot option (lsm=). */
int bc_test_kernel_lsm(const char *hook, bool sleepable);

/*
 * A kprobe program attaches to a kprobe on func, through the kprobe PMU
 * (/sys/bus/event_source/devices/kprobe); without the PMU, kprobes are
 * available where tracefs offers kprobe_events (what libbpf falls back to).
 */
int bc_test_kernel_kprobe(const char *func);

/* A kprobe.multi link on func is created (fprobe, CONFIG_FPROBE). */
int bc_test_kernel_kprobe_multi(const char *func);

/* A uprobe on a function of this very binary attaches, through the uprobe
 * PMU. */
int bc_test_kernel_uprobe(void);

/* A uprobe.multi link (BPF_TRACE_UPROBE_MULTI, Linux 6.6 with
 * CONFIG_UPROBES) on a function of this very binary is created. */
int bc_test_kernel_uprobe_multi(void);

/* A BPF iterator program on target ("tcp": bpf_iter_tcp) loads and its
 * link is created. */
int bc_test_kernel_iter(const char *target);

/* A cgroup/getsockopt program attaches to the root of a cgroup v2 mount
 * (wherever /proc/self/mountinfo says one is). */
int bc_test_kernel_cgroup_sockopt(void);

/* A BPF_MAP_TYPE_SOCKMAP is created (CONFIG_BPF_STREAM_PARSER). */
int bc_test_kernel_sockmap(void);

/* An LRU hash map is created and held by an array of maps. */
int bc_test_kernel_lru_in_array_of_maps(void);

/* A program of type prog_type (with prog_flags) using may_goto loads. */
int bc_test_kernel_may_goto(enum bpf_prog_type prog_type, __u32 prog_flags);

/* The number of possible CPUs (/sys/devices/system/cpu/possible), or a
 * negative errno. */
int bc_test_kernel_possible_cpus(void);

/* tracefs is mounted at /sys/kernel/tracing, or is mounted there now (the
 * test runs as root; a fresh machine has it unmounted). */
int bc_test_kernel_tracefs(void);

/*
 * A memory cgroup can be made and joined: one of this process's own,
 * created on cgroup v2 (memory in the root's subtree_control) or, where a
 * cgroup v1 hierarchy holds the memory controller, there; a child process
 * joins it and reads its memory figure; the cgroup is removed. mnt (may be
 * NULL) gets the hierarchy's mount point.
 */
int bc_test_kernel_memcg(char *mnt, size_t mnt_len);

#endif
