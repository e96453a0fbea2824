/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `benchcore vm` (cmd_vm.c): a benchmark, sweep or suite command line run
 * inside a guest booted from a kernel image under QEMU, with this
 * machine's benchcore and plugins (the host's root shared read-only over
 * 9p); the documents come back, and --save keeps them in this machine's
 * store. Two kernels alternate round by round, and compare says how the
 * second moved against the first. Booting is vm/boot.sh's, the code the
 * kernel matrix (scripts/vmtest.sh) runs too.
 */
#ifndef BENCHCORE_CMD_VM_H
#define BENCHCORE_CMD_VM_H

#include <stdbool.h>

#include "runtime/config.h"
#include "vm_image.h"

struct bc_cli_env;

#define BC_VM_MAX_KERNELS 2
#define BC_VM_MAX_ROUNDS 100

struct bc_vm_opts {
	struct bc_vm_image kernels[BC_VM_MAX_KERNELS];
	unsigned int kernel_cnt;
	unsigned int rounds;		/* 1 with one kernel, default 3 with two */
	bool save;
	const char *store;		/* --store, NULL: the default store */
	const char *label;		/* --label: every saved entry's name */
	const char *accel;		/* "auto", "kvm", "tcg" */
	const char *memory;		/* QEMU's -m: "2G" */
	unsigned int cpus;		/* vCPUs */
	unsigned int timeout_sec;	/* per guest */
	const char *keep;		/* --keep DIR: the work directory, kept */
	enum bc_format format;		/* the comparison's table */
	const char *collect;		/* --collect DIR: the host half only */
	/* the guest's command line: run, sweep or suite and its words */
	int cmd_argc;
	char **cmd_argv;
};

/* Reads vm's options (argv[0] is "vm") into o; 0, BC_EXIT_OK after
 * --help (*help set), or BC_EXIT_USAGE after one line on stderr. */
int bc_vm_parse(int argc, char **argv, struct bc_vm_opts *o, bool *help);

int bc_vm_main(struct bc_cli_env *env, int argc, char **argv);

#endif /* BENCHCORE_CMD_VM_H */
