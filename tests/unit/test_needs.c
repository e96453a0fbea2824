// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The cheap checks' own parsing, without a kernel to ask: the vmlinux BTF
 * walk against libbpf's lookups (on a BTF holding every kind libbpf can
 * write, and on this kernel's when there is one), what it refuses to read,
 * and the target an attach point's name gives.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "needs.h"
#include "vmlinux_btf.h"

/* Every kind libbpf writes, with one name used twice (a struct and a
 * function): the kind decides which one a lookup means. */
static struct btf *every_kind(void)
{
	struct btf *b = btf__new_empty();
	int i32, proto, var;

	assert_non_null(b);
	i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	assert_true(i32 > 0);
	assert_true(btf__add_ptr(b, i32) > 0);
	assert_true(btf__add_array(b, i32, i32, 4) > 0);
	assert_true(btf__add_struct(b, "point", 8) > 0);
	assert_int_equal(btf__add_field(b, "x", i32, 0, 0), 0);
	assert_int_equal(btf__add_field(b, "y", i32, 32, 0), 0);
	assert_true(btf__add_union(b, "either", 4) > 0);
	assert_int_equal(btf__add_field(b, "a", i32, 0, 0), 0);
	assert_true(btf__add_enum(b, "colour", 4) > 0);
	assert_int_equal(btf__add_enum_value(b, "red", 0), 0);
	assert_int_equal(btf__add_enum_value(b, "green", 1), 0);
	assert_true(btf__add_enum64(b, "big", 8, false) > 0);
	assert_int_equal(btf__add_enum64_value(b, "huge", 1ULL << 40), 0);
	assert_true(btf__add_fwd(b, "opaque", BTF_FWD_STRUCT) > 0);
	assert_true(btf__add_typedef(b, "btf_trace_demo", i32) > 0);
	assert_true(btf__add_volatile(b, i32) > 0);
	assert_true(btf__add_const(b, i32) > 0);
	assert_true(btf__add_restrict(b, 2) > 0);
	proto = btf__add_func_proto(b, i32);
	assert_true(proto > 0);
	assert_int_equal(btf__add_func_param(b, "arg", i32), 0);
	assert_int_equal(btf__add_func_param(b, "other", i32), 0);
	assert_true(btf__add_func(b, "demo_func", BTF_FUNC_GLOBAL, proto) > 0);
	assert_true(btf__add_func(b, "point", BTF_FUNC_STATIC, proto) > 0);
	var = btf__add_var(b, "demo_var", BTF_VAR_GLOBAL_ALLOCATED, i32);
	assert_true(var > 0);
	assert_true(btf__add_datasec(b, ".data", 4) > 0);
	assert_int_equal(btf__add_datasec_var_info(b, var, 0, 4), 0);
	assert_true(btf__add_float(b, "double", 8) > 0);
	assert_true(btf__add_decl_tag(b, "tag", var, -1) > 0);
	assert_true(btf__add_type_tag(b, "user", i32) > 0);
	/* After every other kind: the walk must step over them all. */
	assert_true(btf__add_typedef(b, "last", i32) > 0);
	return b;
}

static const struct {
	const char *name;
	int kind;
} lookups[] = {
	{ "int", BTF_KIND_INT }, { "point", BTF_KIND_STRUCT }, { "point", BTF_KIND_FUNC },
	{ "either", BTF_KIND_UNION }, { "colour", BTF_KIND_ENUM }, { "big", BTF_KIND_ENUM64 },
	{ "opaque", BTF_KIND_FWD }, { "btf_trace_demo", BTF_KIND_TYPEDEF },
	{ "demo_func", BTF_KIND_FUNC }, { "demo_var", BTF_KIND_VAR }, { ".data", BTF_KIND_DATASEC },
	{ "double", BTF_KIND_FLOAT }, { "last", BTF_KIND_TYPEDEF },
};

static void test_walk_matches_libbpf(void **state)
{
	struct btf *b = every_kind();
	const void *raw;
	__u32 size;
	size_t i;

	(void)state;
	raw = btf__raw_data(b, &size);
	assert_non_null(raw);
	for (i = 0; i < sizeof(lookups) / sizeof(lookups[0]); i++) {
		int want = btf__find_by_name_kind(b, lookups[i].name, lookups[i].kind);

		assert_true(want > 0);
		if (bc_btf_walk(raw, size, lookups[i].name, lookups[i].kind) != want)
			fail_msg("%s (kind %d): walk says %d, libbpf %d", lookups[i].name,
				 lookups[i].kind, bc_btf_walk(raw, size, lookups[i].name,
							      lookups[i].kind), want);
	}
	/* Kind 0: a named type, not a function or variable. */
	assert_int_equal(bc_btf_walk(raw, size, "point", 0),
			 btf__find_by_name_kind(b, "point", BTF_KIND_STRUCT));
	assert_int_equal(bc_btf_walk(raw, size, "last", 0),
			 btf__find_by_name_kind(b, "last", BTF_KIND_TYPEDEF));
	assert_int_equal(bc_btf_walk(raw, size, "demo_func", 0), -ENOENT);
	assert_int_equal(bc_btf_walk(raw, size, "demo_var", 0), -ENOENT);
	/* Not there, or not of that kind. */
	assert_int_equal(bc_btf_walk(raw, size, "nothing", 0), -ENOENT);
	assert_int_equal(bc_btf_walk(raw, size, "colour", BTF_KIND_STRUCT), -ENOENT);
	btf__free(b);
}

/* What the walk will not read: it says so, and the caller asks libbpf. */
static void test_walk_refuses(void **state)
{
	struct btf *b = every_kind();
	struct btf_header *h;
	struct btf_type *t;
	unsigned char *copy;
	const void *raw;
	__u32 size;

	(void)state;
	raw = btf__raw_data(b, &size);
	copy = malloc(size);
	assert_non_null(copy);
	h = (struct btf_header *)copy;

	memcpy(copy, raw, size);
	h->magic = 0x9feb;	/* the other byte order */
	assert_int_equal(bc_btf_walk(copy, size, "last", 0), -EPROTO);
	assert_int_equal(bc_btf_walk(raw, sizeof(*h) - 1, "last", 0), -EPROTO);
	assert_int_equal(bc_btf_walk(raw, size - 1, "last", 0), -EPROTO);

	/* A kind newer than the walk knows, before the name looked for. */
	memcpy(copy, raw, size);
	t = (struct btf_type *)(copy + h->hdr_len + h->type_off);
	t->info = 31u << 24;	/* kind 31, vlen 0 */
	assert_int_equal(bc_btf_walk(copy, size, "last", 0), -EPROTO);
	free(copy);
	btf__free(b);
}

/* This kernel's BTF, when it has one: the walk and libbpf agree. */
static void test_vmlinux_matches_libbpf(void **state)
{
	static const struct {
		const char *name;
		int kind;
	} names[] = {
		{ "task_struct", BTF_KIND_STRUCT }, { "bpf_get_numa_node_id", BTF_KIND_FUNC },
		{ "btf_trace_sys_enter", BTF_KIND_TYPEDEF }, { "bpf_prog_type", BTF_KIND_ENUM },
		{ "benchcore_no_such_name", BTF_KIND_FUNC },
	};
	struct btf *b;
	size_t i;

	(void)state;
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		printf("skipped the vmlinux part: no /sys/kernel/btf/vmlinux to read\n");
		return;
	}
	b = btf__load_vmlinux_btf();
	assert_non_null(b);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int want = btf__find_by_name_kind(b, names[i].name, names[i].kind);

		if (want <= 0)
			want = -ENOENT;
		if (bc_vmlinux_btf_id(names[i].name, names[i].kind) != want)
			fail_msg("%s: %d, libbpf says %d", names[i].name,
				 bc_vmlinux_btf_id(names[i].name, names[i].kind), want);
	}
	btf__free(b);
	bc_vmlinux_btf_release();
}

static void expect_target(const char *name, const char *target, bool sleepable)
{
	char buf[64];
	bool sl = !sleepable;

	bc_attach_point_target(name, buf, sizeof(buf), &sl);
	if (strcmp(buf, target) || sl != sleepable)
		fail_msg("'%s': target '%s'%s, expected '%s'%s", name ? name : "(null)", buf,
			 sl ? " (sleepable)" : "", target, sleepable ? " (sleepable)" : "");
}

static void test_attach_point_target(void **state)
{
	(void)state;
	expect_target("fentry/__x64_sys_getpgid", "__x64_sys_getpgid", false);
	expect_target("tp/syscalls/sys_enter_getpgid", "syscalls/sys_enter_getpgid", false);
	expect_target("tp/syscalls/sys_enter_getpgid + sys_enter_getppid",
		      "syscalls/sys_enter_getpgid", false);
	expect_target("raw_tp/sys_enter (getpgid + getppid)", "sys_enter", false);
	expect_target("raw_tp/workqueue_execute_start+end (bpf_map_free_deferred)",
		      "workqueue_execute_start", false);
	expect_target("fentry+fexit/bpf_map_free_deferred", "bpf_map_free_deferred", false);
	expect_target("lsm.s/socket_post_create", "socket_post_create", true);
	expect_target("fmod_ret/security_task_getpgid (syscall driver)", "security_task_getpgid",
		      false);
	expect_target("uprobe", "", false);
	expect_target(NULL, "", false);
	expect_target("s/x", "x", false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk_matches_libbpf),
		cmocka_unit_test(test_walk_refuses),
		cmocka_unit_test(test_vmlinux_matches_libbpf),
		cmocka_unit_test(test_attach_point_target),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
