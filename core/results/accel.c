// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The accelerator rule (accel.h). Under TCG a BPF program's cost is the
 * cost of translating and emulating it, so a TCG figure says nothing about
 * a kernel on hardware, and a change between a TCG and a native figure is
 * the emulator, never the kernel. KVM runs guest code on the CPU: its
 * figures are a guest's, comparable with the host's as any VM's are.
 */
#include <stdio.h>
#include <string.h>

#include "accel.h"

const char *bc_accel_name(const char *accel)
{
	return accel && *accel ? accel : "native";
}

bool bc_accel_emulated(const char *accel)
{
	return accel && !strcmp(accel, "tcg");
}

bool bc_accel_comparable(const char *a, const char *b, char *why, size_t len)
{
	if (bc_accel_emulated(a) == bc_accel_emulated(b))
		return true;
	if (why && len)
		snprintf(why, len, "not comparable: accelerator (%s against %s)", bc_accel_name(a),
			 bc_accel_name(b));
	return false;
}
