/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * BC_TRIGGER_TP_DRIVER(name): a raw_tp program, run with
 * BPF_PROG_TEST_RUN, that calls the test-run kfunc
 * bpf_modify_return_test_tp() batch_iters times (read-only data, set
 * before load). Each call fires the tracepoint bpf_test_run:bpf_trigger_tp
 * and is itself a target for fmod_ret: the batched driver of programs
 * that sit there.
 *
 * Include it only in an object of its own, never beside the programs it
 * drives: where vmlinux BTF lacks the kfunc (before Linux 6.10), libbpf
 * looks for it in module BTF, which only CAP_SYS_ADMIN may list
 * (BPF_BTF_GET_NEXT_ID), and libbpf 1.1 then fails the whole object that
 * holds the extern, weak or not. User space loads the driver's object
 * only after vmlinux BTF said the kfunc is there. Include after
 * benchcore.bpf.h.
 */
#ifndef BENCHCORE_TRIGGER_TP_DRIVER_BPF_H
#define BENCHCORE_TRIGGER_TP_DRIVER_BPF_H

/* A kfunc call needs a GPL-compatible licence. */
char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set before load: how many times one driver run calls the kfunc. */
const volatile __u32 batch_iters = 1;

extern int bpf_modify_return_test_tp(int nonce) __ksym __weak;

#define BC_TRIGGER_TP_DRIVER(name)						\
	SEC("?raw_tp")								\
	int name(void *ctx)							\
	{									\
		for (__u32 i = 0; i < batch_iters; i++)				\
			(void)bpf_modify_return_test_tp(0);			\
		return 0;							\
	}

#endif /* BENCHCORE_TRIGGER_TP_DRIVER_BPF_H */
