/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Reading an x86-64 JIT image for the private-stack prologue, apart from
 * the plugin so that a unit test can feed it every encoding by hand.
 */
#ifndef PS_JIT_H
#define PS_JIT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Whether IMG (an x86-64 JIT image, LEN bytes) loads a private stack's
 * frame pointer into r9 and then adds this CPU's per-CPU offset to it.
 */
bool ps_jit_image_loads_private_stack(const unsigned char *img, size_t len);

#endif
