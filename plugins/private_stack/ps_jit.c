// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The x86-64 JIT gives a program a private stack by loading the stack's
 * per-CPU address into r9 in the prologue, then adding this CPU's per-CPU
 * offset: add r9, gs:[this_cpu_off] (65 4c 03 0c 25 disp32). The load is
 * the JIT's emit_mov_imm64(), which picks the shortest encoding of the
 * value, so a kernel whose per-CPU area lies low in the address space
 * emits a short form. Every form counts:
 *
 *   49 b9 imm64     movabs r9, imm64       (the common, high address)
 *   41 b9 imm32     mov r9d, imm32         (fits in 32 bits, unsigned)
 *   49 c7 c1 imm32  mov r9, simm32         (fits in 32 bits, signed)
 *   45 31 c9        xor r9d, r9d           (zero)
 *
 * r9 is no BPF register in this JIT: it is loaded only for a private
 * stack. Requiring the gs add right after the load keeps bytes inside
 * other instructions' immediates from matching. A uniprocessor kernel
 * emits no gs add and is not recognised; benchcore's kernels are SMP.
 */
#include <string.h>

#include "ps_jit.h"

static const unsigned char ps_gs_add_r9[] = { 0x65, 0x4c, 0x03, 0x0c, 0x25 };

struct ps_r9_load {
	unsigned char op[3];
	size_t op_len;
	size_t imm_len;
};

static const struct ps_r9_load ps_r9_loads[] = {
	{ { 0x49, 0xb9 }, 2, 8 },
	{ { 0x41, 0xb9 }, 2, 4 },
	{ { 0x49, 0xc7, 0xc1 }, 3, 4 },
	{ { 0x45, 0x31, 0xc9 }, 3, 0 },
};

/* Does the load form at IMG + I end right before the gs add? */
static bool ps_load_then_gs_add(const unsigned char *img, size_t len, size_t i,
				const struct ps_r9_load *f)
{
	size_t add = i + f->op_len + f->imm_len;

	if (add + sizeof(ps_gs_add_r9) + 4 > len)
		return false;
	return !memcmp(img + i, f->op, f->op_len) &&
	       !memcmp(img + add, ps_gs_add_r9, sizeof(ps_gs_add_r9));
}

bool ps_jit_image_loads_private_stack(const unsigned char *img, size_t len)
{
	for (size_t i = 0; i < len; i++)
		for (size_t f = 0; f < sizeof(ps_r9_loads) / sizeof(ps_r9_loads[0]); f++)
			if (ps_load_then_gs_add(img, len, i, &ps_r9_loads[f]))
				return true;
	return false;
}
