// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The batched driver of trig-tp, trig-rawtp and trig-fmodret: a raw_tp
 * program, run with BPF_PROG_TEST_RUN, that calls the kfunc
 * bpf_modify_return_test_tp() batch_iters times. The kfunc fires the
 * tracepoint bpf_test_run:bpf_trigger_tp, where trig_tp and trig_rawtp
 * sit, and is itself trig_fmodret's target.
 *
 * An object of its own, apart from trigger.bpf.c, because of the kfunc
 * extern: where vmlinux BTF lacks the kfunc (before Linux 6.10), libbpf
 * looks for it in module BTF, and listing module BTF objects
 * (BPF_BTF_GET_NEXT_ID) needs CAP_SYS_ADMIN. Without that capability
 * libbpf 1.1 fails the whole object holding the extern, weak or not, so
 * an extern in trigger.bpf.c would keep every trigger program from
 * loading, the getpgid()-driven ones that need no kfunc included. User
 * space loads this object only after vmlinux BTF said the kfunc is there.
 */
#include "benchcore.bpf.h"

/* A kfunc call needs a GPL-compatible licence. */
char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set before load: how many times one driver run calls the kfunc. */
const volatile __u32 batch_iters = 1;

extern int bpf_modify_return_test_tp(int nonce) __ksym __weak;

SEC("?raw_tp")
int trig_driver_kfunc(void *ctx)
{
	for (__u32 i = 0; i < batch_iters; i++)
		(void)bpf_modify_return_test_tp(0);
	return 0;
}
