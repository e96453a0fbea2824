// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel's own answers for the tests (bc_test_kernel.h). Every program
 * here is written out by hand, a few instructions that do nothing, so that
 * what is asked is the attach type alone, never a plugin's program or the
 * core's feature checks.
 */
#define _GNU_SOURCE
#include "bc_test_kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/perf_event.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

/* r0 = 0; exit */
static const struct bpf_insn ret0[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

/* r0 = 1; exit (a cgroup/getsockopt program's "carry on") */
static const struct bpf_insn ret1[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 1 },
	{ .code = BPF_JMP | BPF_EXIT },
};

#define RET_LEN (sizeof(ret0) / sizeof(ret0[0]))

/* Prints "# kernel: WHAT: yes" or "# kernel: WHAT: no (STAGE: ERROR)" and
 * returns err, so that every probe ends in one line saying what it found. */
static int say(int err, const char *stage, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "# kernel: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (!err)
		fprintf(stderr, ": yes\n");
	else
		fprintf(stderr, ": no (%s: %s)\n", stage, strerror(-err));
	return err;
}

/* libbpf's low-level calls return -errno; a raw syscall returns -1. */
static int neg_errno(long ret)
{
	return ret < 0 ? (errno ? -errno : -EINVAL) : 0;
}

/* The BTF id of a kernel function in vmlinux BTF, or a negative errno. */
static int btf_func_id(const char *name)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int id;

	if (!btf)
		return errno ? -errno : -ENOENT;
	id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	btf__free(btf);
	return id < 0 ? -ENOENT : id;
}

int bc_test_kernel_bpf(void)
{
	int fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "bc_tk_bpf", "GPL", ret0, RET_LEN,
			       NULL);

	if (fd >= 0)
		close(fd);
	return say(fd < 0 ? fd : 0, "load", "a trivial raw_tp program");
}

/* The steps of raw_tp_child(), for the parent's line. */
static const char *const raw_tp_stages[] = { "capset", "load", "attach to sys_enter" };

/* Gives up CAP_SYS_ADMIN, keeping every other capability: 0 or -errno. */
static int drop_sys_admin(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	const __u32 bit = 1u << (CAP_SYS_ADMIN % 32);

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	data[CAP_SYS_ADMIN / 32].effective &= ~bit;
	data[CAP_SYS_ADMIN / 32].permitted &= ~bit;
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

/* In a child that gave up CAP_SYS_ADMIN (kept CAP_BPF and CAP_PERFMON, as
 * `setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin` leaves root):
 * load the trivial raw_tp program and attach it to sys_enter. Writes the
 * step that failed (raw_tp_stages) and its negative errno to fd, or
 * nothing. */
static void raw_tp_child(int fd)
{
	int answer[2] = { 0, 0 }, prog, link;

	answer[1] = drop_sys_admin();
	if (!answer[1]) {
		answer[0] = 1;
		prog = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "bc_tk_nosys", "GPL", ret0,
				     RET_LEN, NULL);
		answer[1] = prog < 0 ? prog : 0;
	}
	if (!answer[1]) {
		answer[0] = 2;
		link = bpf_raw_tracepoint_open("sys_enter", prog);
		answer[1] = link < 0 ? link : 0;
	}
	if (answer[1] && write(fd, answer, sizeof(answer)) != sizeof(answer))
		_exit(1);
	_exit(0);
}

int bc_test_kernel_raw_tp_without_sys_admin(void)
{
	int answer[2] = { 0, 0 }, pipefd[2], status = 0;
	ssize_t got;
	pid_t pid;

	if (pipe(pipefd))
		return say(-errno, "pipe", "a raw_tp program loads without CAP_SYS_ADMIN");
	pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		raw_tp_child(pipefd[1]);
	}
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		return say(-errno, "fork", "a raw_tp program loads without CAP_SYS_ADMIN");
	}
	got = read(pipefd[0], answer, sizeof(answer));
	close(pipefd[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return say(-ECHILD, "the probing child",
			   "a raw_tp program loads without CAP_SYS_ADMIN");
	if (got != (ssize_t)sizeof(answer) || answer[0] < 0 || answer[0] > 2)
		answer[1] = 0;
	return say(answer[1], raw_tp_stages[answer[1] ? answer[0] : 0],
		   "a raw_tp program loads and attaches without CAP_SYS_ADMIN");
}

static const char *trampoline_kind(enum bpf_attach_type type)
{
	switch (type) {
	case BPF_TRACE_FEXIT:
		return "fexit";
	case BPF_MODIFY_RETURN:
		return "fmod_ret";
	default:
		return "fentry";
	}
}

/* Loads a BTF-typed program on BTF function `name` and attaches it with
 * BPF_RAW_TRACEPOINT_OPEN, which every kernel with trampolines and BPF LSM
 * takes (a link_create for tracing programs is newer). */
static int load_and_attach_btf(enum bpf_prog_type prog_type, enum bpf_attach_type type,
			       const char *name, __u32 prog_flags, const char **stage)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = type,
		    .prog_flags = prog_flags);
	int id, fd, link;

	*stage = "vmlinux BTF";
	id = btf_func_id(name);
	if (id < 0)
		return id;
	opts.attach_btf_id = (__u32)id;
	*stage = "load";
	fd = bpf_prog_load(prog_type, "bc_tk_btf", "GPL", ret0, RET_LEN, &opts);
	if (fd < 0)
		return fd;
	*stage = "attach";
	link = bpf_raw_tracepoint_open(NULL, fd);
	close(fd);
	if (link < 0)
		return link;
	close(link);
	return 0;
}

int bc_test_kernel_trampoline(enum bpf_attach_type type, const char *func)
{
	const char *stage;
	int err = load_and_attach_btf(BPF_PROG_TYPE_TRACING, type, func, 0, &stage);

	return say(err, stage, "%s on %s loads and attaches", trampoline_kind(type), func);
}

int bc_test_kernel_lsm(const char *hook, bool sleepable)
{
	char name[128];
	const char *stage;
	int err;

	snprintf(name, sizeof(name), "bpf_lsm_%s", hook);
	err = load_and_attach_btf(BPF_PROG_TYPE_LSM, BPF_LSM_MAC, name,
				  sleepable ? BPF_F_SLEEPABLE : 0, &stage);
	return say(err, stage, "lsm%s on %s loads and attaches", sleepable ? ".s" : "", hook);
}

/* A dynamic PMU's type number (kprobe, uprobe), or a negative errno. */
static int pmu_type(const char *pmu)
{
	char path[128];
	int type = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (fscanf(f, "%d", &type) != 1)
		type = -EINVAL;
	fclose(f);
	return type;
}

/*
 * Opens a kprobe (config1: the function's name) or uprobe (config1: the
 * file, config2: the offset in it) perf event on CPU 0 for every process,
 * and attaches a kprobe-type program to it; detached and closed again.
 */
static int perf_probe_attach(int type, const char *where, __u64 offset, const char **stage)
{
	struct perf_event_attr attr;
	int pfd, fd, err;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = (__u32)type;
	attr.config1 = (__u64)(uintptr_t)where;
	attr.config2 = offset;
	*stage = "perf_event_open";
	pfd = (int)syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return neg_errno(pfd);
	*stage = "load";
	fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "bc_tk_probe", "GPL", ret0, RET_LEN, NULL);
	if (fd < 0) {
		close(pfd);
		return fd;
	}
	*stage = "attach";
	err = ioctl(pfd, PERF_EVENT_IOC_SET_BPF, fd) ? neg_errno(-1) : 0;
	close(fd);
	close(pfd);
	return err;
}

int bc_test_kernel_kprobe(const char *func)
{
	static const char *const legacy[] = {
		"/sys/kernel/tracing/kprobe_events",
		"/sys/kernel/debug/tracing/kprobe_events",
	};
	const char *stage = "the kprobe PMU";
	int type = pmu_type("kprobe");

	if (type >= 0)
		return say(perf_probe_attach(type, func, 0, &stage), stage,
			   "a kprobe on %s attaches", func);
	for (size_t i = 0; i < sizeof(legacy) / sizeof(legacy[0]); i++) {
		if (!access(legacy[i], F_OK)) {
			fprintf(stderr, "# kernel: no kprobe PMU, but %s (libbpf's fallback): "
				"kprobes yes\n", legacy[i]);
			return 0;
		}
	}
	return say(type, stage, "kprobes (no kprobe PMU, no kprobe_events)");
}

int bc_test_kernel_kprobe_multi(const char *func)
{
	const char *syms[] = { func };
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_KPROBE_MULTI);
	LIBBPF_OPTS(bpf_link_create_opts, lopts, .kprobe_multi.syms = syms,
		    .kprobe_multi.cnt = 1);
	const char *stage = "load";
	int fd, link;

	fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "bc_tk_kmulti", "GPL", ret0, RET_LEN, &opts);
	if (fd >= 0) {
		stage = "link_create";
		link = bpf_link_create(fd, 0, BPF_TRACE_KPROBE_MULTI, &lopts);
		close(fd);
		fd = link;
		if (link >= 0)
			close(link);
	}
	return say(fd < 0 ? fd : 0, stage, "a kprobe.multi link on %s is created", func);
}

/* What the uprobe probes attach to: a function of whichever binary links
 * this file (noinline, so that it has an address of its own). */
__attribute__((noinline)) int bc_test_kernel_probed(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x + 1;
}

/* The file holding addr, and addr's offset in it, from /proc/self/maps. */
static int self_file_offset(const void *addr, char *path, size_t len, unsigned long *off)
{
	unsigned long a = (unsigned long)(uintptr_t)addr, start, end, pgoff;
	char line[PATH_MAX + 256], perms[8];
	int err = -ENOENT, pos;
	FILE *f;

	f = fopen("/proc/self/maps", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		pos = 0;
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %n", &start, &end, perms, &pgoff,
			   &pos) < 4 || !pos || a < start || a >= end)
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (line[pos] != '/')
			break;
		snprintf(path, len, "%s", line + pos);
		*off = a - start + pgoff;
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

int bc_test_kernel_uprobe(void)
{
	char path[PATH_MAX];
	unsigned long off;
	const char *stage = "the uprobe PMU";
	int type = pmu_type("uprobe"), err;

	err = type < 0 ? type : 0;
	if (!err) {
		stage = "/proc/self/maps";
		err = self_file_offset((const void *)bc_test_kernel_probed, path, sizeof(path),
				       &off);
	}
	if (!err)
		err = perf_probe_attach(type, path, off, &stage);
	return say(err, stage, "a uprobe on a function of this binary attaches");
}

/* enum bpf_attach_type's BPF_TRACE_UPROBE_MULTI (Linux 6.6 uapi; the
 * installed headers may be older). */
#define BC_TK_TRACE_UPROBE_MULTI 48

/*
 * The part of union bpf_attr that BPF_LINK_CREATE reads for a uprobe.multi
 * link, in the 6.6 uapi's layout (uapi layouts never change; the kernel
 * reads a shorter attr as if the rest were zero).
 */
struct bc_tk_uprobe_multi_attr {
	__u32 prog_fd;
	__u32 target_fd;
	__u32 attach_type;
	__u32 flags;
	__u64 path;
	__u64 offsets;
	__u64 ref_ctr_offsets;
	__u64 cookies;
	__u32 cnt;
	__u32 um_flags;
	__u32 pid;
};

int bc_test_kernel_uprobe_multi(void)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = (enum bpf_attach_type)BC_TK_TRACE_UPROBE_MULTI);
	struct bc_tk_uprobe_multi_attr attr;
	char path[PATH_MAX];
	unsigned long off;
	const char *stage = "/proc/self/maps";
	int fd, link, err;

	err = self_file_offset((const void *)bc_test_kernel_probed, path, sizeof(path), &off);
	if (err)
		return say(err, stage, "a uprobe.multi link on a function of this binary");
	stage = "load";
	fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "bc_tk_umulti", "GPL", ret0, RET_LEN, &opts);
	if (fd >= 0) {
		memset(&attr, 0, sizeof(attr));
		attr.prog_fd = (__u32)fd;
		attr.attach_type = BC_TK_TRACE_UPROBE_MULTI;
		attr.path = (__u64)(uintptr_t)path;
		attr.offsets = (__u64)(uintptr_t)&off;
		attr.cnt = 1;
		stage = "link_create";
		link = (int)syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
		err = neg_errno(link);
		close(fd);
		if (link >= 0)
			close(link);
	} else {
		err = fd;
	}
	return say(err, stage, "a uprobe.multi link on a function of this binary is created");
}

int bc_test_kernel_iter(const char *target)
{
	char name[128];
	const char *stage = "vmlinux BTF";
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_ITER);
	int id, fd = -1, link, err;

	snprintf(name, sizeof(name), "bpf_iter_%s", target);
	id = btf_func_id(name);
	err = id < 0 ? id : 0;
	if (!err) {
		opts.attach_btf_id = (__u32)id;
		stage = "load";
		fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "bc_tk_iter", "GPL", ret0, RET_LEN,
				   &opts);
		err = fd < 0 ? fd : 0;
	}
	if (!err) {
		stage = "link_create";
		link = bpf_link_create(fd, 0, BPF_TRACE_ITER, NULL);
		err = link < 0 ? link : 0;
		if (link >= 0)
			close(link);
	}
	if (fd >= 0)
		close(fd);
	return say(err, stage, "an iter/%s program loads and attaches", target);
}

/*
 * The first mountinfo line whose file system type is fstype (and, when
 * option is given, whose super options hold it: "memory"): its mount point.
 */
static int find_mount(const char *fstype, const char *option, char *mnt, size_t len)
{
	char line[4096], type[64], super[1024], point[PATH_MAX];
	const char *sep;
	int err = -ENOENT;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return -errno;
	while (err && fgets(line, sizeof(line), f)) {
		sep = strstr(line, " - ");
		super[0] = '\0';
		if (!sep || sscanf(sep + 3, "%63s %*s %1023s", type, super) < 1 ||
		    strcmp(type, fstype))
			continue;
		if (option) {
			char *tok, *save = NULL;
			bool has = false;

			for (tok = strtok_r(super, ",", &save); tok && !has;
			     tok = strtok_r(NULL, ",", &save))
				has = !strcmp(tok, option);
			if (!has)
				continue;
		}
		/* id parent major:minor root mount-point ... */
		if (sscanf(line, "%*s %*s %*s %*s %4095s", point) == 1) {
			snprintf(mnt, len, "%s", point);
			err = 0;
		}
	}
	fclose(f);
	return err;
}

int bc_test_kernel_cgroup_sockopt(void)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_CGROUP_GETSOCKOPT);
	char mnt[PATH_MAX] = "";
	const char *stage = "a cgroup2 mount";
	int cg = -1, fd = -1, link, err;

	err = find_mount("cgroup2", NULL, mnt, sizeof(mnt));
	if (!err) {
		stage = "open";
		cg = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		err = neg_errno(cg);
	}
	if (!err) {
		stage = "load";
		fd = bpf_prog_load(BPF_PROG_TYPE_CGROUP_SOCKOPT, "bc_tk_sockopt", "GPL", ret1,
				   RET_LEN, &opts);
		err = fd < 0 ? fd : 0;
	}
	if (!err) {
		stage = "attach";
		link = bpf_link_create(fd, cg, BPF_CGROUP_GETSOCKOPT, NULL);
		err = link < 0 ? link : 0;
		if (link >= 0)
			close(link);
	}
	if (fd >= 0)
		close(fd);
	if (cg >= 0)
		close(cg);
	return say(err, stage, "a cgroup/getsockopt program attaches to the cgroup v2 root %s",
		   mnt[0] ? mnt : "(none mounted)");
}

int bc_test_kernel_sockmap(void)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_SOCKMAP, "bc_tk_sockmap", 4, 4, 1, NULL);

	if (fd >= 0)
		close(fd);
	return say(fd < 0 ? fd : 0, "map_create", "a sockmap is created");
}

int bc_test_kernel_lru_in_array_of_maps(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts);
	const char *stage = "LRU hash map_create";
	int inner, outer = -1, err;
	__u32 key = 0;

	inner = bpf_map_create(BPF_MAP_TYPE_LRU_HASH, "bc_tk_lru", 4, 4, 16, NULL);
	err = inner < 0 ? inner : 0;
	if (!err) {
		opts.inner_map_fd = (__u32)inner;
		stage = "array of maps map_create";
		outer = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "bc_tk_lrus", 4, 4, 1, &opts);
		err = outer < 0 ? outer : 0;
	}
	if (!err) {
		stage = "update";
		err = bpf_map_update_elem(outer, &key, &inner, BPF_ANY);
	}
	if (outer >= 0)
		close(outer);
	if (inner >= 0)
		close(inner);
	return say(err, stage, "an LRU hash map held in an array of maps");
}

/* BPF_JMP | BPF_JCOND, src_reg BPF_MAY_GOTO (0): Linux 6.9 uapi, newer
 * than the installed headers. */
#define BC_TK_JCOND 0xe0

int bc_test_kernel_may_goto(enum bpf_prog_type prog_type, __u32 prog_flags)
{
	/* r0 = 0; may_goto +1 (an offset of 0 is refused); r0 = 0; exit */
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BC_TK_JCOND, .off = 1 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_flags = prog_flags);
	int fd = bpf_prog_load(prog_type, "bc_tk_may_goto", "GPL", insns,
			       sizeof(insns) / sizeof(insns[0]), &opts);

	if (fd >= 0)
		close(fd);
	return say(fd < 0 ? fd : 0, "load", "may_goto in %s programs%s loads",
		   libbpf_bpf_prog_type_str(prog_type),
		   prog_flags & BPF_F_SLEEPABLE ? " (sleepable)" : "");
}

int bc_test_kernel_possible_cpus(void)
{
	char buf[4096], *p;
	long lo, hi, n = 0;
	FILE *f;

	f = fopen("/sys/devices/system/cpu/possible", "r");
	if (!f)
		return say(-errno, "open", "/sys/devices/system/cpu/possible");
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (!p)
		return say(-EINVAL, "read", "/sys/devices/system/cpu/possible");
	buf[strcspn(buf, "\n")] = '\0';
	/* "0-3,8,10-11" */
	while (*p) {
		lo = strtol(p, &p, 10);
		hi = lo;
		if (*p == '-')
			hi = strtol(p + 1, &p, 10);
		if (hi < lo)
			return say(-EINVAL, "parse", "/sys/devices/system/cpu/possible");
		n += hi - lo + 1;
		if (*p == ',')
			p++;
		else if (*p)
			return say(-EINVAL, "parse", "/sys/devices/system/cpu/possible");
	}
	fprintf(stderr, "# kernel: %ld possible CPUs (%s)\n", n, buf);
	return (int)n;
}

#define BC_TK_TRACEFS "/sys/kernel/tracing"

int bc_test_kernel_tracefs(void)
{
	if (!access(BC_TK_TRACEFS "/events", F_OK)) {
		fprintf(stderr, "# kernel: tracefs mounted at %s: yes\n", BC_TK_TRACEFS);
		return 0;
	}
	if (mount("nodev", BC_TK_TRACEFS, "tracefs", 0, NULL))
		return say(-errno, "mount", "tracefs at %s", BC_TK_TRACEFS);
	if (access(BC_TK_TRACEFS "/events", F_OK))
		return say(-errno, "events", "tracefs at %s", BC_TK_TRACEFS);
	fprintf(stderr, "# kernel: tracefs was not mounted; mounted it at %s: yes\n",
		BC_TK_TRACEFS);
	return 0;
}

static int write_text(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n < 0 ? -errno : 0;
}

static int read_text(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX + 64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' ' || p[n] == '\n'))
			return true;
	return false;
}

/* A child moves itself into dir and reads its memory figure there: 0, or
 * the positive errno of the step that failed. */
static int memcg_join(const char *dir, const char *figure)
{
	char buf[64];
	int st = 0, err;
	pid_t pid = fork();

	if (pid < 0)
		return errno;
	if (pid == 0) {
		err = write_text(dir, "cgroup.procs", "0");
		if (!err)
			err = read_text(dir, figure, buf, sizeof(buf));
		_exit(err ? -err : 0);
	}
	if (waitpid(pid, &st, 0) != pid)
		return errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : EINTR;
}

int bc_test_kernel_memcg(char *mnt_out, size_t mnt_len)
{
	char mnt[PATH_MAX], dir[PATH_MAX + 64], ctrls[1024];
	const char *stage, *figure = "memory.current", *how = "cgroup v2";
	int err;

	/* A cgroup v1 hierarchy with the memory controller owns it: cgroup
	 * v2 then has none to give. */
	stage = "a memory cgroup mount";
	if (!find_mount("cgroup", "memory", mnt, sizeof(mnt))) {
		figure = "memory.usage_in_bytes";
		how = "cgroup v1";
		err = 0;
	} else {
		err = find_mount("cgroup2", NULL, mnt, sizeof(mnt));
		if (!err) {
			stage = "the memory controller in cgroup.controllers";
			err = read_text(mnt, "cgroup.controllers", ctrls, sizeof(ctrls));
			if (!err && !has_word(ctrls, "memory"))
				err = -EOPNOTSUPP;
		}
		if (!err) {
			stage = "+memory in the root's cgroup.subtree_control";
			err = read_text(mnt, "cgroup.subtree_control", ctrls, sizeof(ctrls));
			if (!err && !has_word(ctrls, "memory"))
				err = write_text(mnt, "cgroup.subtree_control", "+memory");
		}
	}
	if (err)
		return say(err, stage, "a memory cgroup can be made and joined");
	if (mnt_out)
		snprintf(mnt_out, mnt_len, "%s", mnt);
	snprintf(dir, sizeof(dir), "%s/bc-test-memcg-%d", mnt, (int)getpid());
	stage = "mkdir";
	err = mkdir(dir, 0755) && errno != EEXIST ? -errno : 0;
	if (!err) {
		stage = "join and read";
		err = -memcg_join(dir, figure);
		(void)rmdir(dir);
	}
	return say(err, stage, "a memory cgroup (%s, %s) can be made and joined", how, mnt);
}
