// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The driver of the raw_tp candidate: calls the kfunc
 * bpf_modify_return_test_tp(), which fires the tracepoint
 * bpf_test_run:bpf_trigger_tp where ps_rawtp sits, batch_iters times per
 * BPF_PROG_TEST_RUN.
 *
 * An object of its own, apart from private_stack.bpf.c, because of the
 * kfunc extern: where vmlinux BTF lacks the kfunc, libbpf looks for it in
 * module BTF, whose objects only CAP_SYS_ADMIN may list, and libbpf 1.1
 * then fails the whole object holding the extern, weak or not. The
 * fentry candidate (ps_fentry and ps_driver) calls no kfunc and must not
 * fail with it. User space loads this object only after vmlinux BTF said
 * the kfunc is there.
 */
#include "benchcore.bpf.h"

/* A kfunc call needs a GPL-compatible licence. */
char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set before load: how many times one driver run fires the program. */
const volatile __u32 batch_iters = 1;

extern int bpf_modify_return_test_tp(int nonce) __ksym __weak;

SEC("?raw_tp")
int ps_driver_kfunc(void *ctx)
{
	for (__u32 i = 0; i < batch_iters; i++)
		(void)bpf_modify_return_test_tp(0);
	return 0;
}
