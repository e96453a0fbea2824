// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The private_stack plugin's reading of a JIT image (plugins/private_stack/
 * ps_jit.c), fed by hand: each encoding the x86-64 JIT's emit_mov_imm64()
 * can give the r9 load, followed by the per-CPU add, is a private stack;
 * an ordinary frame, a load without the add, and a truncated image are not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ps_jit.h"

/* nopl; push rbp; mov rbp, rsp: what precedes the load in a prologue. */
#define PROLOGUE 0x0f, 0x1f, 0x44, 0x00, 0x00, 0x55, 0x48, 0x89, 0xe5
/* add r9, gs:[0x1234] */
#define GS_ADD 0x65, 0x4c, 0x03, 0x0c, 0x25, 0x34, 0x12, 0x00, 0x00
/* xor eax, eax; leave; ret */
#define EPILOGUE 0x31, 0xc0, 0xc9, 0xc3

static void check(const unsigned char *img, size_t len, bool want, const char *what)
{
	if (ps_jit_image_loads_private_stack(img, len) != want)
		fail_msg("%s: expected %s", what, want ? "a private stack" : "none");
}

static void test_movabs(void **state)
{
	const unsigned char img[] = { PROLOGUE, 0x49, 0xb9, 0x00, 0x10, 0x32, 0x54, 0x76, 0x98,
				      0xff, 0xff, GS_ADD, EPILOGUE };

	(void)state;
	check(img, sizeof(img), true, "movabs r9, imm64");
}

static void test_mov_r9d_imm32(void **state)
{
	const unsigned char img[] = { PROLOGUE, 0x41, 0xb9, 0x00, 0x10, 0x32, 0x54, GS_ADD,
				      EPILOGUE };

	(void)state;
	check(img, sizeof(img), true, "mov r9d, imm32");
}

static void test_mov_r9_simm32(void **state)
{
	const unsigned char img[] = { PROLOGUE, 0x49, 0xc7, 0xc1, 0x00, 0x10, 0x32, 0x94, GS_ADD,
				      EPILOGUE };

	(void)state;
	check(img, sizeof(img), true, "mov r9, simm32");
}

static void test_xor_r9d(void **state)
{
	const unsigned char img[] = { PROLOGUE, 0x45, 0x31, 0xc9, GS_ADD, EPILOGUE };

	(void)state;
	check(img, sizeof(img), true, "xor r9d, r9d");
}

/* What this project's 6.18 build gives: sub rsp, 0x60, no r9. */
static void test_ordinary_frame(void **state)
{
	const unsigned char img[] = { PROLOGUE, 0x48, 0x81, 0xec, 0x60, 0x00, 0x00, 0x00, 0x31,
				      0xff, 0x48, 0x89, 0x7d, 0xa0, EPILOGUE };

	(void)state;
	check(img, sizeof(img), false, "an ordinary frame");
}

static void test_load_without_gs_add(void **state)
{
	const unsigned char img[] = { PROLOGUE, 0x41, 0xb9, 0x00, 0x10, 0x32, 0x54, EPILOGUE,
				      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 };

	(void)state;
	check(img, sizeof(img), false, "an r9 load without the per-CPU add");
}

/* The add's displacement cut off: no reading past the end. */
static void test_truncated(void **state)
{
	const unsigned char img[] = { PROLOGUE, 0x45, 0x31, 0xc9, 0x65, 0x4c, 0x03, 0x0c, 0x25,
				      0x34 };

	(void)state;
	check(img, sizeof(img), false, "a truncated image");
	check(img, 0, false, "an empty image");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_movabs),
		cmocka_unit_test(test_mov_r9d_imm32),
		cmocka_unit_test(test_mov_r9_simm32),
		cmocka_unit_test(test_xor_r9d),
		cmocka_unit_test(test_ordinary_frame),
		cmocka_unit_test(test_load_without_gs_add),
		cmocka_unit_test(test_truncated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
