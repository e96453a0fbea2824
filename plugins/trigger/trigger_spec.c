// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "trigger_spec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KERNEL_BENCH(name_, drv_, kind_, prog_, point_, tracefs_, ...)                    \
	{ .name = (name_), .driver = (drv_), .kind = (kind_), .prog = (prog_),              \
	  .driver_prog = (drv_) == BC_TRIG_DRV_KFUNC ? "trig_driver_kfunc" : "trig_driver", \
	  .attach_point = (point_), .batched = true, .needs_bpf = true,                     \
	  .needs_tracefs = (tracefs_), __VA_ARGS__ }

#define UPROBE_BENCH(name_, kind_, target_)                                               \
	{ .name = (name_), .driver = BC_TRIG_DRV_UPROBED_CALL, .kind = (kind_),             \
	  .prog = "trig_uprobe", .attach_point = "uprobe", .target = (target_),          \
	  .needs_bpf = true }

/* The 6.1-era runner's way: the program on the syscall's tracepoint, on
 * the raw sys_enter tracepoint (filtering getpgid's number), and fmod_ret,
 * fired by a getpgid() loop. The runner put fmod_ret on the syscall's own
 * function, which needs CONFIG_FUNCTION_ERROR_INJECTION: Debian's 6.1 has
 * it off and refuses that (EINVAL). fmod_ret is always allowed on an LSM
 * hook, and getpgid(pid) passes one, security_task_getpgid(): the same
 * syscall loop fires it on every kernel with CONFIG_SECURITY. */
static const struct trig_alt tp_syscall = {
	.prog = "trig_syscall_tp",
	.attach_point = "tp/syscalls/sys_enter_getpgid (syscall driver)",
	.needs_tracefs = true,
};

static const struct trig_alt rawtp_syscall = {
	.prog = "trig_rawtp_syscall",
	.attach_point = "raw_tp/sys_enter (syscall driver)",
};

static const struct trig_alt fmodret_syscall = {
	.prog = "trig_fmodret_syscall",
	.attach_point = "fmod_ret/security_task_getpgid (syscall driver)",
	.getpgid_self = true,
};

/*
 * Order is the report order: baselines first, as the kernel's trigger
 * script prints them, so every number has its reference above it.
 */
const struct trig_spec trig_specs[BC_TRIG_CNT] = {
	[BC_TRIG_KERNEL_COUNT] = { .name = "trig-kernel-count", .driver = BC_TRIG_DRV_KERNEL_COUNT,
	  .driver_prog = "trig_kernel_count",
	  .attach_point = "none (the raw_tp driver counts its own loop)",
	  .batched = true, .needs_bpf = true },
	[BC_TRIG_SYSCALL_COUNT] = { .name = "trig-syscall-count", .driver = BC_TRIG_DRV_SYSCALL_COUNT,
	  .attach_point = "none (getpgid() counted in user space)" },
	[BC_TRIG_USERMODE_COUNT] = { .name = "trig-usermode-count", .driver = BC_TRIG_DRV_USER_COUNT,
	  .attach_point = "none (function call counted in user space)",
	  .target = BC_TRIG_TARGET_NOP },

	[BC_TRIG_TP] =
		KERNEL_BENCH("trig-tp", BC_TRIG_DRV_KFUNC, BC_ATTACH_TP, "trig_tp",
		     "tp/bpf_test_run/bpf_trigger_tp (batched kfunc driver)", true,
		     .syscall_alt = &tp_syscall),
	[BC_TRIG_RAWTP] =
		KERNEL_BENCH("trig-rawtp", BC_TRIG_DRV_KFUNC, BC_ATTACH_RAW_TP,
		     "trig_rawtp", "raw_tp/bpf_trigger_tp (batched kfunc driver)", false,
		     .syscall_alt = &rawtp_syscall),
	[BC_TRIG_FENTRY] =
		KERNEL_BENCH("trig-fentry", BC_TRIG_DRV_HELPER, BC_ATTACH_FENTRY, "trig_fentry",
		     "fentry/bpf_get_numa_node_id", false),
	[BC_TRIG_FEXIT] =
		KERNEL_BENCH("trig-fexit", BC_TRIG_DRV_HELPER, BC_ATTACH_FEXIT, "trig_fexit",
		     "fexit/bpf_get_numa_node_id", false),
	[BC_TRIG_FMODRET] =
		KERNEL_BENCH("trig-fmodret", BC_TRIG_DRV_KFUNC, BC_ATTACH_FMOD_RET,
		     "trig_fmodret",
		     "fmod_ret/bpf_modify_return_test_tp (batched kfunc driver)", false,
		     .syscall_alt = &fmodret_syscall),
	[BC_TRIG_KPROBE] =
		KERNEL_BENCH("trig-kprobe", BC_TRIG_DRV_HELPER, BC_ATTACH_KPROBE, "trig_kprobe",
		     "kprobe/bpf_get_numa_node_id", false),
	[BC_TRIG_KRETPROBE] =
		KERNEL_BENCH("trig-kretprobe", BC_TRIG_DRV_HELPER, BC_ATTACH_KRETPROBE,
		     "trig_kretprobe", "kretprobe/bpf_get_numa_node_id", false),
	[BC_TRIG_KPROBE_MULTI] =
		KERNEL_BENCH("trig-kprobe-multi", BC_TRIG_DRV_HELPER, BC_ATTACH_KPROBE_MULTI,
		     "trig_kprobe_multi", "kprobe.multi/bpf_get_numa_node_id", false),
	[BC_TRIG_KRETPROBE_MULTI] =
		KERNEL_BENCH("trig-kretprobe-multi", BC_TRIG_DRV_HELPER, BC_ATTACH_KRETPROBE_MULTI,
		     "trig_kretprobe_multi", "kretprobe.multi/bpf_get_numa_node_id", false),
	[BC_TRIG_KPROBE_MULTI_ALL] =
		KERNEL_BENCH("trig-kprobe-multi-all", BC_TRIG_DRV_HELPER,
		     BC_ATTACH_KPROBE_MULTI, "trig_kprobe_multi",
		     "kprobe.multi/bpf_get_numa_node_id (+ an empty kprobe.multi on every other "
		     "traceable kernel function)", false,
		     .attach_all_prog = "trig_kprobe_multi_empty"),
	[BC_TRIG_KRETPROBE_MULTI_ALL] =
		KERNEL_BENCH("trig-kretprobe-multi-all", BC_TRIG_DRV_HELPER,
		     BC_ATTACH_KRETPROBE_MULTI, "trig_kretprobe_multi",
		     "kretprobe.multi/bpf_get_numa_node_id (+ an empty kretprobe.multi on every "
		     "other traceable kernel function)", false,
		     .attach_all_prog = "trig_kretprobe_multi_empty"),

	[BC_TRIG_UPROBE_NOP] =
		UPROBE_BENCH("trig-uprobe-nop", BC_ATTACH_UPROBE, BC_TRIG_TARGET_NOP),
	[BC_TRIG_URETPROBE_NOP] =
		UPROBE_BENCH("trig-uretprobe-nop", BC_ATTACH_URETPROBE, BC_TRIG_TARGET_NOP),
	[BC_TRIG_UPROBE_PUSH] =
		UPROBE_BENCH("trig-uprobe-push", BC_ATTACH_UPROBE, BC_TRIG_TARGET_PUSH),
	[BC_TRIG_URETPROBE_PUSH] =
		UPROBE_BENCH("trig-uretprobe-push", BC_ATTACH_URETPROBE, BC_TRIG_TARGET_PUSH),
	[BC_TRIG_UPROBE_RET] =
		UPROBE_BENCH("trig-uprobe-ret", BC_ATTACH_UPROBE, BC_TRIG_TARGET_RET),
	[BC_TRIG_URETPROBE_RET] =
		UPROBE_BENCH("trig-uretprobe-ret", BC_ATTACH_URETPROBE, BC_TRIG_TARGET_RET),
	[BC_TRIG_UPROBE_NOP5] =
		UPROBE_BENCH("trig-uprobe-nop5", BC_ATTACH_UPROBE, BC_TRIG_TARGET_NOP5),
	[BC_TRIG_URETPROBE_NOP5] =
		UPROBE_BENCH("trig-uretprobe-nop5", BC_ATTACH_URETPROBE, BC_TRIG_TARGET_NOP5),
	[BC_TRIG_UPROBE_MULTI_NOP] =
		UPROBE_BENCH("trig-uprobe-multi-nop", BC_ATTACH_UPROBE_MULTI, BC_TRIG_TARGET_NOP),
	[BC_TRIG_URETPROBE_MULTI_NOP] =
		UPROBE_BENCH("trig-uretprobe-multi-nop", BC_ATTACH_URETPROBE_MULTI, BC_TRIG_TARGET_NOP),
	[BC_TRIG_UPROBE_MULTI_PUSH] =
		UPROBE_BENCH("trig-uprobe-multi-push", BC_ATTACH_UPROBE_MULTI, BC_TRIG_TARGET_PUSH),
	[BC_TRIG_URETPROBE_MULTI_PUSH] =
		UPROBE_BENCH("trig-uretprobe-multi-push", BC_ATTACH_URETPROBE_MULTI, BC_TRIG_TARGET_PUSH),
	[BC_TRIG_UPROBE_MULTI_RET] =
		UPROBE_BENCH("trig-uprobe-multi-ret", BC_ATTACH_UPROBE_MULTI, BC_TRIG_TARGET_RET),
	[BC_TRIG_URETPROBE_MULTI_RET] =
		UPROBE_BENCH("trig-uretprobe-multi-ret", BC_ATTACH_URETPROBE_MULTI, BC_TRIG_TARGET_RET),
	[BC_TRIG_UPROBE_MULTI_NOP5] =
		UPROBE_BENCH("trig-uprobe-multi-nop5", BC_ATTACH_UPROBE_MULTI, BC_TRIG_TARGET_NOP5),
	[BC_TRIG_URETPROBE_MULTI_NOP5] =
		UPROBE_BENCH("trig-uretprobe-multi-nop5", BC_ATTACH_URETPROBE_MULTI, BC_TRIG_TARGET_NOP5),
	/* A USDT probe is a uprobe (with the semaphore counted) on the site
	 * its note names: the probe's cost, as the runner measures it. */
	[BC_TRIG_USDT_NOP] =
		UPROBE_BENCH("trig-usdt-nop", BC_ATTACH_UPROBE, BC_TRIG_TARGET_USDT_NOP),
	[BC_TRIG_USDT_NOP5] =
		UPROBE_BENCH("trig-usdt-nop5", BC_ATTACH_UPROBE, BC_TRIG_TARGET_USDT_NOP5),

	[BC_TRIG_TESTRUN] = { .name = "trig-testrun", .driver = BC_TRIG_DRV_TESTRUN,
	  .driver_prog = "trig_testrun",
	  .attach_point = "none (raw_tp run by BPF_PROG_TEST_RUN on the producer's CPU)",
	  .needs_bpf = true },
	[BC_TRIG_TESTRUN_ON_CPU] = { .name = "trig-testrun-on-cpu", .driver = BC_TRIG_DRV_TESTRUN_ON_CPU,
	  .driver_prog = "trig_testrun",
	  .attach_point = "none (raw_tp run by BPF_PROG_TEST_RUN with BPF_F_TEST_RUN_ON_CPU, "
			  "rotating over the online CPUs)",
	  .needs_bpf = true },
	[BC_TRIG_SYSCALL_ON_CPU] = { .name = "trig-syscall-on-cpu", .driver = BC_TRIG_DRV_SYSCALL_ON_CPU,
	  .kind = BC_ATTACH_TP, .prog = "trig_syscall_tp",
	  .attach_point = "tp/syscalls/sys_enter_getpgid", .needs_bpf = true,
	  .needs_tracefs = true },
};

const size_t trig_spec_cnt = sizeof(trig_specs) / sizeof(trig_specs[0]);

const struct trig_spec *trig_spec_find(const char *name)
{
	for (size_t i = 0; name && i < trig_spec_cnt; i++)
		if (strcmp(trig_specs[i].name, name) == 0)
			return &trig_specs[i];
	return NULL;
}

const char *const trig_drive_words[] = { "auto", "batched", "syscall", NULL };

int trig_choose(const struct trig_spec *spec, enum trig_drive want, int kfunc,
		   struct trig_spec *out)
{
	const struct trig_alt *alt = spec->syscall_alt;

	*out = *spec;
	if (!alt)
		return 0;
	switch (want) {
	case BC_TRIG_DRIVE_BATCHED:
		/* No BTF to ask: let the kernel answer when the driver loads. */
		return kfunc == 0 ? -EOPNOTSUPP : 0;
	case BC_TRIG_DRIVE_AUTO:
		/* Without BTF a kfunc call cannot load either. */
		if (kfunc > 0)
			return 0;
		break;
	case BC_TRIG_DRIVE_SYSCALL:
		break;
	}
	out->driver = BC_TRIG_DRV_SYSCALL;
	out->prog = alt->prog;
	out->driver_prog = NULL;
	out->attach_point = alt->attach_point;
	out->attach_target = alt->attach_target;
	out->batched = false;
	out->needs_tracefs = alt->needs_tracefs;
	out->getpgid_self = alt->getpgid_self;
	return 0;
}

bool trig_target_x86_only(enum trig_target target)
{
	return target == BC_TRIG_TARGET_NOP5 || target == BC_TRIG_TARGET_USDT_NOP ||
	       target == BC_TRIG_TARGET_USDT_NOP5;
}

/* What the kernel runner leaves out of its attach-to-everything list. */
static bool trig_sym_skipped(const char *name)
{
	static const char *const exact[] = {
		"arch_cpu_idle", "default_idle", "bpf_dispatcher_xdp_func",
		"migrate_disable", "migrate_enable", "rcu_read_unlock_strict",
		"preempt_count_add", "preempt_count_sub", "__rcu_read_lock",
		"__rcu_read_unlock",
		/* where the program under test sits */
		"bpf_get_numa_node_id",
	};

	if (!strncmp(name, "rcu_", 4) || !strncmp(name, "__ftrace_invalid_address__", 26))
		return true;
	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (!strcmp(name, exact[i]))
			return true;
	return false;
}

static int trig_cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int trig_syms_all(const char *text, struct trig_syms *out)
{
	size_t cap = 0, cnt = 0;
	char *line, *save = NULL;

	memset(out, 0, sizeof(*out));
	out->buf = strdup(text ? text : "");
	if (!out->buf)
		return -ENOMEM;
	for (line = strtok_r(out->buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *end = line + strcspn(line, " \t");

		/* "name [module]": a module's function, not the kernel's. */
		if (strchr(line, '['))
			continue;
		*end = '\0';
		if (!*line || trig_sym_skipped(line))
			continue;
		if (cnt == cap) {
			const char **n = realloc(out->names, (cap = cap ? cap * 2 : 1024) *
							      sizeof(*n));

			if (!n) {
				trig_syms_free(out);
				return -ENOMEM;
			}
			out->names = n;
		}
		out->names[cnt++] = line;
	}
	/* A name listed twice (static functions of several files) would
	 * attach twice: keep one of each. */
	if (cnt)
		qsort(out->names, cnt, sizeof(*out->names), trig_cmp_names);
	out->cnt = 0;
	for (size_t i = 0; i < cnt; i++)
		if (!out->cnt || strcmp(out->names[out->cnt - 1], out->names[i]))
			out->names[out->cnt++] = out->names[i];
	return 0;
}

void trig_syms_free(struct trig_syms *syms)
{
	free(syms->names);
	free(syms->buf);
	memset(syms, 0, sizeof(*syms));
}

const char *trig_kind_name(enum bc_attach_kind kind)
{
	switch (kind) {
	case BC_ATTACH_FENTRY: return "fentry";
	case BC_ATTACH_FEXIT: return "fexit";
	case BC_ATTACH_FMOD_RET: return "fmod_ret";
	case BC_ATTACH_LSM: return "lsm";
	case BC_ATTACH_KPROBE: return "kprobe";
	case BC_ATTACH_KRETPROBE: return "kretprobe";
	case BC_ATTACH_KPROBE_MULTI: return "kprobe.multi";
	case BC_ATTACH_KRETPROBE_MULTI: return "kretprobe.multi";
	case BC_ATTACH_TP: return "tracepoint";
	case BC_ATTACH_RAW_TP: return "raw_tp";
	case BC_ATTACH_TP_BTF: return "tp_btf";
	case BC_ATTACH_UPROBE: return "uprobe";
	case BC_ATTACH_URETPROBE: return "uretprobe";
	case BC_ATTACH_UPROBE_MULTI: return "uprobe.multi";
	case BC_ATTACH_URETPROBE_MULTI: return "uretprobe.multi";
	case BC_ATTACH_OTHER: return "other";
	}
	return "none";
}

static int parse_cpu(const char **p, unsigned int *out)
{
	char *end;
	unsigned long v;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(*p, &end, 10);
	if (errno || v > 1u << 20)
		return -EINVAL;
	*out = (unsigned int)v;
	*p = end;
	return 0;
}

int trig_parse_cpulist(const char *text, unsigned int *cpus, unsigned int max)
{
	const char *p = text;
	unsigned int cnt = 0;

	if (!p)
		return -EINVAL;
	while (*p && *p != '\n') {
		unsigned int lo, hi;

		if (parse_cpu(&p, &lo))
			return -EINVAL;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_cpu(&p, &hi) || hi < lo)
				return -EINVAL;
		}
		for (unsigned int c = lo; c <= hi; c++) {
			/* The kernel prints ranges ascending and disjoint. */
			if (cnt && c <= cpus[cnt - 1])
				return -EINVAL;
			if (cnt == max)
				return -E2BIG;
			cpus[cnt++] = c;
		}
		if (*p == ',') {
			p++;
			if (!*p || *p == '\n')
				return -EINVAL;
		} else if (*p && *p != '\n') {
			return -EINVAL;
		}
	}
	return cnt ? (int)cnt : -EINVAL;
}

int trig_file_offset(const char *maps, unsigned long addr, char *path, size_t path_len,
			unsigned long *offset)
{
	const char *line = maps;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		unsigned long start, end, off;
		char perms[8];
		int name_at = 0;

		/* start-end perms offset dev inode   path */
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %n", &start, &end, perms, &off,
			   &name_at) == 4 && name_at > 0 && addr >= start && addr < end) {
			size_t line_len = nl ? (size_t)(nl - line) : strlen(line);
			const char *name = line + name_at;
			size_t len;

			/* An anonymous mapping has no path: the %n then lies
			 * beyond this line, scanf having skipped the newline. */
			if ((size_t)name_at > line_len)
				return -ENOENT;
			len = line_len - (size_t)name_at;
			if (len == 0 || name[0] != '/' || len >= path_len)
				return -ENOENT;
			memcpy(path, name, len);
			path[len] = '\0';
			*offset = addr - start + off;
			return 0;
		}
		line = nl ? nl + 1 : NULL;
	}
	return -ENOENT;
}
