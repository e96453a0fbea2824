/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Which figures may be judged against which (accel.c): the one rule that
 * compare, run --against, history and every later judge call. A run in
 * one of benchcore's own guests records its accelerator ("tcg": QEMU's
 * software emulation, "kvm"); a run anywhere else records none (native).
 * An emulated figure is the emulator's speed, not the kernel's: it is
 * judged against other emulated figures only.
 */
#ifndef BENCHCORE_ACCEL_H
#define BENCHCORE_ACCEL_H

#include <stdbool.h>
#include <stddef.h>

/* The word reports show: "tcg", "kvm", or "native" for NULL or "". */
const char *bc_accel_name(const char *accel);
/* Is a figure measured under accel emulation (TCG)? */
bool bc_accel_emulated(const char *accel);
/*
 * May a figure measured under accelerator a be judged against one under b?
 * TCG only against TCG; KVM and native against each other (the hypervisor
 * is a difference the judges warn about, not a refusal). When not, why
 * gets "not comparable: accelerator (tcg against native)", a against b.
 */
bool bc_accel_comparable(const char *a, const char *b, char *why, size_t len);

/* The words every judge and report uses for a figure under TCG. */
#define BC_ACCEL_EMULATION_NOTE \
	"measured under emulation (QEMU TCG): every figure is the emulator's speed, not the kernel's"

#endif /* BENCHCORE_ACCEL_H */
