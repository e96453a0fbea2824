/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The kernel a run measured (kernel_facts.c): the options of its build
 * that move BPF numbers (JIT always on, the preemption model, debug
 * options that slow the kernel down), the mitigations in force, the clock
 * source, the boot command line, the machine's memory, and the emulator
 * when the run is inside one of benchcore's own guests. Every run's
 * context carries them (report_json.c), and a debug option that skews
 * numbers, an interpreter instead of the JIT, or emulation costs a
 * warning (runner.c).
 */
#ifndef BENCHCORE_KERNEL_FACTS_H
#define BENCHCORE_KERNEL_FACTS_H

#include <stdbool.h>
#include <stddef.h>

/* The options recorded, each with its value or "not set". */
#define BC_KCONFIG_MAX 48
/* The mitigation files of /sys/devices/system/cpu/vulnerabilities. */
#define BC_KMITIG_MAX 32

struct bc_kconfig_opt {
	const char *name;		/* "CONFIG_BPF_JIT_ALWAYS_ON" */
	bool set;			/* false: "is not set", or absent */
	char value[24];			/* "y", "m", "250", ... */
	bool skews;			/* a debug option that slows what BPF measures */
};

struct bc_kernel_facts {
	/* benchcore vm's guests only (benchcore.accel= on the kernel's
	 * command line, which the boot code sets): "tcg" or "kvm"; empty
	 * elsewhere. */
	char accelerator[8];
	unsigned long long memory_bytes;	/* MemTotal; 0: unknown */
	char clocksource[32];		/* "" unknown */
	char cmdline[2048];		/* /proc/cmdline, "" unknown */
	/* Where the configuration was read ("/proc/config.gz",
	 * "/boot/config-RELEASE"), "" when neither could be. */
	char config_source[128];
	/* 16 hex digits: FNV-1a over the config's CONFIG_ lines, so that two
	 * builds with the same options have the same hash whatever comments
	 * their files carry; "" without a config. */
	char config_hash[20];
	struct bc_kconfig_opt opts[BC_KCONFIG_MAX];
	size_t opt_cnt;			/* 0 without a config */
	/* "none", "voluntary", "full", "rt", each "dynamic: X" where the model
	 * is chosen at boot (PREEMPT_DYNAMIC, preempt= honoured); "" unknown */
	char preemption[32];
	int jit_enable;			/* net.core.bpf_jit_enable; -1 unknown */
	int jit_harden;			/* net.core.bpf_jit_harden; -1 unknown */
	struct {
		char name[48];
		char state[160];
	} mitigations[BC_KMITIG_MAX];
	size_t mitigation_cnt;
};

/* The running kernel's facts, read once per process. */
const struct bc_kernel_facts *bc_kernel_facts(void);
/* The same from a tree laid out like / (tests): ROOT/proc/cmdline, ...;
 * release names /boot/config-RELEASE. */
void bc_kernel_facts_read(const char *root, const char *release, struct bc_kernel_facts *kf);

/* The warnings a run gets from these facts, one line each into out:
 * emulation, a debug option that skews numbers, no JIT. Returns how many. */
size_t bc_kernel_facts_warnings(const struct bc_kernel_facts *kf, char out[][320], size_t max);

/* One option of a kernel config file (plain text, or gzip like
 * /proc/config.gz): 1 and its value ("y", "m", "250") in val when it is
 * set, 0 when it is not, a negative errno when the file cannot be read. */
int bc_kconfig_lookup(const char *path, const char *name, char *val, size_t len);

#endif /* BENCHCORE_KERNEL_FACTS_H */
