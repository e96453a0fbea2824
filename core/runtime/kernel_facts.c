// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What a number ran on, beyond the release: a kernel with lockdep or KASAN
 * runs BPF programs' helpers several times slower, the interpreter is not
 * the JIT, and an emulated CPU is no CPU at all. Each is read from the
 * kernel's own files (its config, /proc, /sys), once per process and
 * before anything is measured, so that a result can be judged later
 * without the machine.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <zlib.h>

#include "kernel_facts.h"

/*
 * The options recorded. skews: a debug option whose cost lands on the
 * paths BPF benchmarks measure (locking, allocation, every memory access);
 * cheap ones that distributions enable (DEBUG_LIST, SCHED_DEBUG, KFENCE)
 * are not. The rest say what the kernel can run and how it preempts.
 */
static const struct {
	const char *name;
	bool skews;
} bc_kconfig_names[] = {
	{ "CONFIG_BPF_SYSCALL", false },
	{ "CONFIG_BPF_JIT", false },
	{ "CONFIG_BPF_JIT_ALWAYS_ON", false },
	{ "CONFIG_DEBUG_INFO_BTF", false },
	{ "CONFIG_BPF_LSM", false },
	{ "CONFIG_KPROBES", false },
	{ "CONFIG_FPROBE", false },
	{ "CONFIG_FUNCTION_TRACER", false },
	{ "CONFIG_PREEMPT_NONE", false },
	{ "CONFIG_PREEMPT_VOLUNTARY", false },
	{ "CONFIG_PREEMPT", false },
	{ "CONFIG_PREEMPT_LAZY", false },
	{ "CONFIG_PREEMPT_RT", false },
	{ "CONFIG_PREEMPT_DYNAMIC", false },
	{ "CONFIG_HZ", false },
	{ "CONFIG_NO_HZ_FULL", false },
	{ "CONFIG_CPU_MITIGATIONS", false },
	{ "CONFIG_SPECULATION_MITIGATIONS", false },
	{ "CONFIG_RETPOLINE", false },
	{ "CONFIG_MITIGATION_RETPOLINE", false },
	{ "CONFIG_PAGE_TABLE_ISOLATION", false },
	{ "CONFIG_MITIGATION_PAGE_TABLE_ISOLATION", false },
	{ "CONFIG_LOCKDEP", true },
	{ "CONFIG_PROVE_LOCKING", true },
	{ "CONFIG_DEBUG_LOCK_ALLOC", true },
	{ "CONFIG_LOCK_STAT", true },
	{ "CONFIG_PROVE_RCU", true },
	{ "CONFIG_KASAN", true },
	{ "CONFIG_KCSAN", true },
	{ "CONFIG_KMSAN", true },
	{ "CONFIG_DEBUG_KMEMLEAK", true },
	{ "CONFIG_DEBUG_PAGEALLOC_ENABLE_DEFAULT", true },
	{ "CONFIG_DEBUG_OBJECTS", true },
	{ "CONFIG_DEBUG_ATOMIC_SLEEP", true },
	{ "CONFIG_DEBUG_SPINLOCK", true },
	{ "CONFIG_DEBUG_MUTEXES", true },
	{ "CONFIG_DEBUG_RT_MUTEXES", true },
	{ "CONFIG_DEBUG_RWSEMS", true },
	{ "CONFIG_DEBUG_VM", true },
	{ "CONFIG_DEBUG_PREEMPT", true },
	{ "CONFIG_SLUB_DEBUG_ON", true },
	{ "CONFIG_KCOV_INSTRUMENT_ALL", true },
	{ "CONFIG_GCOV_PROFILE_ALL", true },
};

_Static_assert(sizeof(bc_kconfig_names) / sizeof(bc_kconfig_names[0]) <= BC_KCONFIG_MAX,
	       "BC_KCONFIG_MAX holds every recorded option");

/* FNV-1a, 64 bits */
static uint64_t bc_fnv(uint64_t h, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ULL;
	return h;
}

/* Calls fn for each "CONFIG_X=V" line of a config file (gzip or plain);
 * "# CONFIG_X is not set" lines are no options. 0, or a negative errno. */
static int bc_kconfig_each(const char *path,
			   void (*fn)(const char *name, const char *val, void *cookie), void *cookie)
{
	char line[4096];
	gzFile gz;

	/* gzopen() reads a file that is not gzip as it is. */
	gz = gzopen(path, "rbe");
	if (!gz)
		return errno ? -errno : -ENOMEM;
	while (gzgets(gz, line, sizeof(line))) {
		char *eq;

		line[strcspn(line, "\r\n")] = '\0';
		if (strncmp(line, "CONFIG_", 7) || !(eq = strchr(line, '=')))
			continue;
		*eq = '\0';
		fn(line, eq + 1, cookie);
		*eq = '=';
	}
	gzclose(gz);
	return 0;
}

struct bc_lookup {
	const char *name;
	char *val;
	size_t len;
	bool found;
};

static void bc_lookup_line(const char *name, const char *val, void *cookie)
{
	struct bc_lookup *l = cookie;

	if (l->found || strcmp(name, l->name))
		return;
	snprintf(l->val, l->len, "%s", val);
	l->found = true;
}

int bc_kconfig_lookup(const char *path, const char *name, char *val, size_t len)
{
	struct bc_lookup l = { .name = name, .val = val, .len = len };
	int ret;

	if (len)
		val[0] = '\0';
	ret = bc_kconfig_each(path, bc_lookup_line, &l);
	if (ret)
		return ret;
	return l.found ? 1 : 0;
}

struct bc_config_walk {
	struct bc_kernel_facts *kf;
	uint64_t hash;
};

static void bc_config_line(const char *name, const char *val, void *cookie)
{
	struct bc_config_walk *w = cookie;
	struct bc_kernel_facts *kf = w->kf;

	/* the line as the file has it */
	w->hash = bc_fnv(w->hash, name, strlen(name));
	w->hash = bc_fnv(w->hash, "=", 1);
	w->hash = bc_fnv(w->hash, val, strlen(val));
	w->hash = bc_fnv(w->hash, "\n", 1);
	for (size_t i = 0; i < kf->opt_cnt; i++) {
		struct bc_kconfig_opt *o = &kf->opts[i];

		if (strcmp(o->name, name))
			continue;
		/* a quoted string keeps its quotes out */
		if (val[0] == '"') {
			snprintf(o->value, sizeof(o->value), "%.*s", (int)strcspn(val + 1, "\""), val + 1);
		} else {
			snprintf(o->value, sizeof(o->value), "%s", val);
		}
		o->set = strcmp(val, "n") != 0;
		break;
	}
}

static FILE *bc_open_at(const char *root, const char *path)
{
	char full[PATH_MAX];

	snprintf(full, sizeof(full), "%s%s", root, path);
	return fopen(full, "re");
}

/* The first line of a small file, without its newline; false when unreadable. */
static bool bc_read_line(const char *root, const char *path, char *buf, size_t len)
{
	FILE *f = bc_open_at(root, path);
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	else if (len)
		buf[0] = '\0';
	return ok;
}

static int bc_read_int(const char *root, const char *path)
{
	char buf[32], *end;
	long v;

	if (!bc_read_line(root, path, buf, sizeof(buf)))
		return -1;
	errno = 0;
	v = strtol(buf, &end, 10);
	return errno || end == buf || v < 0 || v > 1000 ? -1 : (int)v;
}

static const char *bc_opt_value(const struct bc_kernel_facts *kf, const char *name)
{
	for (size_t i = 0; i < kf->opt_cnt; i++)
		if (!strcmp(kf->opts[i].name, name))
			return kf->opts[i].set ? kf->opts[i].value : NULL;
	return NULL;
}

/* A word of the boot command line ("preempt=full" for "preempt"), or NULL. */
static const char *bc_cmdline_arg(const char *cmdline, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);

	for (const char *p = cmdline; *p;) {
		size_t wlen = strcspn(p, " \t");

		/* "--" ends the kernel's own words: the rest is init's */
		if (wlen == 2 && !strncmp(p, "--", 2))
			break;
		if (wlen > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			snprintf(buf, len, "%.*s", (int)(wlen - klen - 1), p + klen + 1);
			return buf;
		}
		p += wlen;
		p += strspn(p, " \t");
	}
	return NULL;
}

static void bc_preemption(struct bc_kernel_facts *kf)
{
	const char *model = NULL;
	char arg[32];
	bool dynamic = bc_opt_value(kf, "CONFIG_PREEMPT_DYNAMIC") != NULL;

	if (!kf->opt_cnt)
		return;
	if (bc_opt_value(kf, "CONFIG_PREEMPT_RT"))
		model = "rt";
	else if (bc_opt_value(kf, "CONFIG_PREEMPT"))
		model = "full";
	else if (bc_opt_value(kf, "CONFIG_PREEMPT_LAZY"))
		model = "lazy";
	else if (bc_opt_value(kf, "CONFIG_PREEMPT_VOLUNTARY"))
		model = "voluntary";
	else if (bc_opt_value(kf, "CONFIG_PREEMPT_NONE"))
		model = "none";
	/* PREEMPT_DYNAMIC: the build's choice is a default preempt= overrides */
	if (dynamic && bc_cmdline_arg(kf->cmdline, "preempt", arg, sizeof(arg)))
		model = arg;
	if (model)
		snprintf(kf->preemption, sizeof(kf->preemption), "%s%.20s", dynamic ? "dynamic: " : "",
			 model);
}

static void bc_config(const char *root, const char *release, struct bc_kernel_facts *kf)
{
	struct bc_config_walk w = { .kf = kf, .hash = 0xcbf29ce484222325ULL };
	char boot[256];
	const char *const where[] = { "/proc/config.gz", boot };

	kf->opt_cnt = sizeof(bc_kconfig_names) / sizeof(bc_kconfig_names[0]);
	for (size_t i = 0; i < kf->opt_cnt; i++) {
		kf->opts[i].name = bc_kconfig_names[i].name;
		kf->opts[i].skews = bc_kconfig_names[i].skews;
	}
	snprintf(boot, sizeof(boot), "/boot/config-%s", release);
	for (size_t k = 0; k < sizeof(where) / sizeof(where[0]); k++) {
		char full[PATH_MAX];

		if (k == 1 && !*release)
			break;
		snprintf(full, sizeof(full), "%s%s", root, where[k]);
		if (bc_kconfig_each(full, bc_config_line, &w))
			continue;
		snprintf(kf->config_source, sizeof(kf->config_source), "%.127s", where[k]);
		snprintf(kf->config_hash, sizeof(kf->config_hash), "%016llx",
			 (unsigned long long)w.hash);
		return;
	}
	kf->opt_cnt = 0;
}

static int bc_name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void bc_mitigations(const char *root, struct bc_kernel_facts *kf)
{
	const char *dir = "/sys/devices/system/cpu/vulnerabilities";
	char full[PATH_MAX];
	struct dirent **names;
	int n;

	snprintf(full, sizeof(full), "%s%s", root, dir);
	n = scandir(full, &names, NULL, bc_name_cmp);
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX];

		if (names[i]->d_name[0] != '.' && kf->mitigation_cnt < BC_KMITIG_MAX &&
		    strlen(names[i]->d_name) < sizeof(kf->mitigations[0].name)) {
			size_t k = kf->mitigation_cnt;

			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			if (bc_read_line(root, path, kf->mitigations[k].state,
					 sizeof(kf->mitigations[k].state))) {
				snprintf(kf->mitigations[k].name, sizeof(kf->mitigations[k].name),
					 "%.47s", names[i]->d_name);
				kf->mitigation_cnt++;
			}
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

static unsigned long long bc_memtotal(const char *root)
{
	unsigned long long kb = 0;
	char line[256];
	FILE *f = bc_open_at(root, "/proc/meminfo");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

void bc_kernel_facts_read(const char *root, const char *release, struct bc_kernel_facts *kf)
{
	char accel[16];

	memset(kf, 0, sizeof(*kf));
	bc_read_line(root, "/proc/cmdline", kf->cmdline, sizeof(kf->cmdline));
	/* Only the two words benchcore's boot code writes: anything else on
	 * a command line someone typed is not our guest. */
	if (bc_cmdline_arg(kf->cmdline, "benchcore.accel", accel, sizeof(accel)) &&
	    (!strcmp(accel, "tcg") || !strcmp(accel, "kvm")))
		snprintf(kf->accelerator, sizeof(kf->accelerator), "%.3s", accel);
	kf->memory_bytes = bc_memtotal(root);
	bc_read_line(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource",
		     kf->clocksource, sizeof(kf->clocksource));
	kf->jit_enable = bc_read_int(root, "/proc/sys/net/core/bpf_jit_enable");
	kf->jit_harden = bc_read_int(root, "/proc/sys/net/core/bpf_jit_harden");
	bc_config(root, release ? release : "", kf);
	bc_preemption(kf);
	bc_mitigations(root, kf);
}

static struct bc_kernel_facts bc_facts;
static pthread_once_t bc_facts_once = PTHREAD_ONCE_INIT;

static void bc_facts_init(void)
{
	struct utsname u;

	bc_kernel_facts_read("", uname(&u) ? "" : u.release, &bc_facts);
}

const struct bc_kernel_facts *bc_kernel_facts(void)
{
	pthread_once(&bc_facts_once, bc_facts_init);
	return &bc_facts;
}

size_t bc_kernel_facts_warnings(const struct bc_kernel_facts *kf, char out[][320], size_t max)
{
	char list[256] = "";
	size_t n = 0, off = 0, skew = 0;
	const char *jit;

	if (n < max && !strcmp(kf->accelerator, "tcg"))
		snprintf(out[n++], 320,
			 "measured under emulation (QEMU TCG, no hardware virtualisation): every "
			 "figure is the emulator's speed, not this kernel's; compare it only with "
			 "other TCG runs");
	for (size_t i = 0; i < kf->opt_cnt; i++) {
		if (!kf->opts[i].skews || !kf->opts[i].set)
			continue;
		if (off < sizeof(list))
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s",
						skew ? ", " : "", kf->opts[i].name);
		skew++;
	}
	if (n < max && skew)
		snprintf(out[n++], 320,
			 "the kernel is built with %s (%s): debug option%s that slow the paths BPF "
			 "runs on, so these are not a production kernel's numbers",
			 list, kf->config_source, skew > 1 ? "s" : "");
	jit = bc_opt_value(kf, "CONFIG_BPF_JIT");
	if (n < max && kf->opt_cnt && !jit)
		snprintf(out[n++], 320,
			 "the kernel is built without CONFIG_BPF_JIT (%s): BPF programs run in the "
			 "interpreter", kf->config_source);
	else if (n < max && kf->jit_enable == 0)
		snprintf(out[n++], 320,
			 "the BPF JIT is off (net.core.bpf_jit_enable = 0): BPF programs run in the "
			 "interpreter");
	return n;
}
