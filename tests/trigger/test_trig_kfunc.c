// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kfunc driver's own object (plugins/trigger/trig_kfunc.c), apart from
 * the plugin: the vmlinux BTF question the plugin asks before loading it,
 * for a kfunc no kernel has (the path a kernel without
 * bpf_modify_return_test_tp, as Debian's 6.1, takes) and for the real
 * one, checked against libbpf's own reading of the BTF; then, as root on
 * a kernel with the kfunc, that the object loads alone, runs its loop and
 * leaves nothing loaded.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <benchcore/benchcore.h>

#include "trig_kfunc.h"
#include "trigger_spec.h"

#define NO_SUCH_KFUNC "bc_test_no_such_kfunc"

/* 1: libbpf finds the kfunc in vmlinux BTF, 0: it does not, -1: no BTF. */
static int libbpf_answer(const char *kfunc)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int id;

	if (!btf)
		return -1;
	id = btf__find_by_name_kind(btf, kfunc, BTF_KIND_FUNC);
	btf__free(btf);
	return id > 0;
}

static void test_absent_kfunc_is_named(void **state)
{
	char why[256] = "";
	int err;

	(void)state;
	if (libbpf_answer(NO_SUCH_KFUNC) < 0)
		skip();
	err = trig_kfunc_lookup(NO_SUCH_KFUNC, why, sizeof(why));
	assert_int_equal(err, -ENOENT);
	assert_string_equal(why, "this kernel has no kfunc " NO_SUCH_KFUNC "() (vmlinux BTF)");
}

static void test_driver_kfunc_as_libbpf_sees_it(void **state)
{
	int want = libbpf_answer(BC_TRIG_KFUNC);
	char why[256] = "";
	int err;

	(void)state;
	if (want < 0)
		skip();
	err = trig_kfunc_lookup(BC_TRIG_KFUNC, why, sizeof(why));
	assert_int_equal(err, want ? 0 : -ENOENT);
	if (!want)
		assert_non_null(strstr(why, BC_TRIG_KFUNC "()"));
}

/* As root where the kernel has the kfunc: loaded alone, the driver runs
 * (each run calls the kfunc, whose body returns nothing we read), and
 * freeing it unloads it. */
static void test_loads_alone_and_unloads(void **state)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct bpf_prog_info info;
	struct trig_kfunc *obj = NULL;
	__u32 len = sizeof(info);
	char why[256];
	__u32 id;
	int fd, err;

	(void)state;
	if (geteuid() != 0 || trig_kfunc_lookup(BC_TRIG_KFUNC, why, sizeof(why)))
		skip();
	err = trig_kfunc_load(3, &obj);
	if (err)
		fail_msg("loading the kfunc driver: %s", strerror(-err));
	fd = trig_kfunc_driver_fd(obj);
	assert_true(fd >= 0);
	memset(&info, 0, sizeof(info));
	assert_int_equal(bpf_obj_get_info_by_fd(fd, &info, &len), 0);
	/* The kernel keeps 15 characters of the name. */
	assert_int_equal(strncmp(info.name, "trig_driver_kfunc", sizeof(info.name) - 1), 0);
	id = info.id;
	assert_int_equal(bpf_prog_test_run_opts(fd, &opts), 0);
	assert_int_equal(opts.retval, 0);
	trig_kfunc_free(obj);
	/* Ours was the only reference: the id is gone, at once or after the
	 * kernel's deferred free. */
	for (int i = 0; i < 500; i++) {
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0)
			break;
		close(fd);
		usleep(10000);
	}
	assert_true(fd < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_absent_kfunc_is_named),
		cmocka_unit_test(test_driver_kfunc_as_libbpf_sees_it),
		cmocka_unit_test(test_loads_alone_and_unloads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
