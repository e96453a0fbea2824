/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The batched driver of trig-tp, trig-rawtp and trig-fmodret, which calls
 * the kfunc BC_TRIG_KFUNC: whether this kernel has the kfunc, and the
 * driver's own BPF object (trig_kfunc.bpf.c), loaded only when it does.
 */
#ifndef BENCHCORE_TRIG_KFUNC_H
#define BENCHCORE_TRIG_KFUNC_H

#include <stdbool.h>
#include <stddef.h>

/* The skeleton of trig_kfunc.bpf.c (trig_kfunc.skel.h). */
struct trig_kfunc;

/*
 * Whether vmlinux BTF lists `kfunc` as a function: 0 when it does,
 * -ENOENT when it does not, another negative errno when there is no BTF
 * to ask. Either failure leaves in why[len] a reason for the report that
 * names the kfunc. Only vmlinux is asked, never module BTF: listing module
 * BTF objects needs CAP_SYS_ADMIN, which a benchmark need not have.
 */
int trig_kfunc_lookup(const char *kfunc, char *why, size_t len);

/*
 * Opens and loads the driver trig_driver_kfunc, set to call the kfunc
 * batch_iters times a run, with its verifier statistics asked for as
 * trig_load.h does. Returns 0 and the loaded object in *out, or a negative
 * errno with nothing loaded. Ask trig_kfunc_lookup() first: on a kernel
 * without the kfunc libbpf may fail the load for want of CAP_SYS_ADMIN,
 * which says nothing about the kfunc.
 */
int trig_kfunc_load(unsigned int batch_iters, struct trig_kfunc **out);

/* The loaded driver's program fd, for BPF_PROG_TEST_RUN. */
int trig_kfunc_driver_fd(const struct trig_kfunc *obj);

/* Unloads the object; NULL is fine. */
void trig_kfunc_free(struct trig_kfunc *obj);

#endif /* BENCHCORE_TRIG_KFUNC_H */
