// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The attach decision logic against faked kernels: each test scripts what
 * the "kernel" answers per candidate and checks what was chosen, what was
 * tried, and what the user is told.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "loader.h"
#include "context.h"
#include "log.h"
#include "attach.h"
#include "exit_status.h"
#include "config.h"
#include "options.h"
#include "core_opts.h"
#include "bc_test_opts.h"

#define ENOTSUPP_KERNEL 524

static const struct bc_attach_point pts[] = {
	{ .sz = sizeof(struct bc_attach_point), .name = "fentry/__x64_sys_getpgid",
	  .kind = BC_ATTACH_FENTRY, .prog_name = "bench_fentry" },
	{ .sz = sizeof(struct bc_attach_point), .name = "tp/syscalls/sys_enter_getpgid",
	  .kind = BC_ATTACH_TP, .prog_name = "bench_tp" },
	{ .sz = sizeof(struct bc_attach_point), .name = "raw_tp/sys_enter",
	  .kind = BC_ATTACH_RAW_TP, .prog_name = "bench_raw_tp" },
};

/* The fake kernel: the answer of load+attach for each candidate, and of the
 * tracefs precheck. */
struct fake_kernel {
	int answer[3];
	int tracefs_err;
	unsigned int tried[3];
	unsigned int prechecked;
};

static int fake_try(struct bc_ctx *ctx, const struct bc_attach_point *pt, void *cookie)
{
	struct fake_kernel *k = cookie;
	size_t i;

	(void)ctx;
	for (i = 0; i < 3; i++) {
		if (strcmp(pt->prog_name, pts[i].prog_name) == 0) {
			k->tried[i]++;
			return k->answer[i];
		}
	}
	fail_msg("unknown candidate %s", pt->prog_name);
	return -EINVAL;
}

static int fake_precheck(const struct bc_attach_point *pt, char *why, size_t len, void *cookie)
{
	struct fake_kernel *k = cookie;

	if (pt->kind != BC_ATTACH_TP)
		return 0;
	k->prechecked++;
	if (k->tracefs_err)
		snprintf(why, len, "tracefs is not mounted (cannot mount: fake)");
	return k->tracefs_err;
}

static struct bc_bench bench = {
	.desc = { .sz = sizeof(struct bc_bench_desc), .name = "rb-fake" },
};

static int run(struct bc_ctx *ctx, struct fake_kernel *k)
{
	bc_ctx_init(ctx, NULL, &bench);
	return bc_attach_select(ctx, pts, 3, fake_try, k, fake_precheck, k);
}

static void test_fentry_refused_tp_chosen(void **state)
{
	struct fake_kernel k = { .answer = { -EPERM, 0, 0 } };
	struct bc_ctx ctx;

	(void)state;
	assert_int_equal(run(&ctx, &k), 1);
	assert_string_equal(bc_ctx_attach_point(&ctx), "tp/syscalls/sys_enter_getpgid");
	assert_int_equal(k.tried[0], 1);
	assert_int_equal(k.tried[1], 1);
	assert_int_equal(k.tried[2], 0);
	assert_false(ctx.unavailable);
}

static void test_first_accepted_stops(void **state)
{
	struct fake_kernel k = { 0 };
	struct bc_ctx ctx;

	(void)state;
	assert_int_equal(run(&ctx, &k), 0);
	assert_string_equal(bc_ctx_attach_point(&ctx), "fentry/__x64_sys_getpgid");
	assert_int_equal(k.tried[1], 0);
	/* No tracepoint candidate reached: tracefs left alone. */
	assert_int_equal(k.prechecked, 0);
}

static void test_tracepoint_missing_raw_tp_chosen(void **state)
{
	struct fake_kernel k = { .answer = { -ENOTSUPP_KERNEL, -ENOENT, 0 } };
	struct bc_ctx ctx;

	(void)state;
	assert_int_equal(run(&ctx, &k), 2);
	assert_string_equal(bc_ctx_attach_point(&ctx), "raw_tp/sys_enter");
}

static void test_tracefs_unmountable_raw_tp_chosen(void **state)
{
	struct fake_kernel k = { .answer = { -EPERM, 0, 0 }, .tracefs_err = -EPERM };
	struct bc_ctx ctx;

	(void)state;
	assert_int_equal(run(&ctx, &k), 2);
	/* The kernel is never asked for a tracepoint it cannot reach. */
	assert_int_equal(k.tried[1], 0);
	assert_int_equal(k.prechecked, 1);
	assert_string_equal(bc_ctx_attach_point(&ctx), "raw_tp/sys_enter");
}

static void test_all_refused_unavailable(void **state)
{
	struct fake_kernel k = { .answer = { -EPERM, -ENOENT, -EOPNOTSUPP } };
	struct bc_ctx ctx;

	(void)state;
	assert_int_equal(run(&ctx, &k), -EOPNOTSUPP);
	assert_true(ctx.unavailable);
	assert_null(bc_ctx_attach_point(&ctx));
	assert_int_equal(bc_ctx_exit_status(&ctx, -EOPNOTSUPP), BC_EXIT_UNAVAILABLE);
	/* Every candidate and the kernel's answer for it, in order. */
	assert_non_null(strstr(ctx.reason, "fentry/__x64_sys_getpgid: Operation not permitted; "
				      "tp/syscalls/sys_enter_getpgid: No such file or directory; "
				      "raw_tp/sys_enter: Operation not supported"));
}

static void test_all_refused_tracefs_reason(void **state)
{
	struct fake_kernel k = { .answer = { -EPERM, 0, -EINVAL }, .tracefs_err = -EACCES };
	struct bc_ctx ctx;

	(void)state;
	assert_int_equal(run(&ctx, &k), -EOPNOTSUPP);
	assert_non_null(strstr(ctx.reason, "tp/syscalls/sys_enter_getpgid: tracefs is not mounted"));
	assert_non_null(strstr(ctx.reason, "raw_tp/sys_enter: Invalid argument"));
}

static void test_enotsupp_named(void **state)
{
	struct fake_kernel k = { .answer = { -ENOTSUPP_KERNEL, -ENOTSUPP_KERNEL, -E2BIG } };
	struct bc_ctx ctx;

	(void)state;
	assert_int_equal(run(&ctx, &k), -EOPNOTSUPP);
	assert_non_null(strstr(ctx.reason, "fentry/__x64_sys_getpgid: not supported by this kernel (ENOTSUPP)"));
}

static void test_non_refusal_stops(void **state)
{
	struct fake_kernel k = { .answer = { -ENOMEM, 0, 0 } };
	struct bc_ctx ctx;

	(void)state;
	assert_int_equal(run(&ctx, &k), -ENOMEM);
	assert_false(ctx.unavailable);
	assert_int_equal(k.tried[1], 0);
	assert_null(bc_ctx_attach_point(&ctx));
	assert_non_null(strstr(ctx.reason, "fentry/__x64_sys_getpgid"));
	assert_int_equal(bc_ctx_exit_status(&ctx, -ENOMEM), BC_EXIT_FAILED);
}

static void test_non_refusal_after_refusal_stops(void **state)
{
	struct fake_kernel k = { .answer = { -EPERM, -EBUSY, 0 } };
	struct bc_ctx ctx;

	(void)state;
	assert_int_equal(run(&ctx, &k), -EBUSY);
	assert_int_equal(k.tried[2], 0);
}

static void test_refusal_classes(void **state)
{
	const int refused[] = { EPERM, EACCES, ENOTSUPP_KERNEL, EOPNOTSUPP, ENOENT, ESRCH,
				EINVAL, E2BIG };
	const int failed[] = { ENOMEM, EBUSY, EFAULT, EMFILE, EAGAIN };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		assert_true(bc_attach_is_refusal(-refused[i]));
	for (i = 0; i < sizeof(failed) / sizeof(failed[0]); i++)
		assert_false(bc_attach_is_refusal(-failed[i]));
}

/* A plugin built against an older attach.h: a shorter struct, read by its
 * own stride, the missing field taken as zero. */
struct old_attach_point {
	size_t sz;
	const char *name;
	enum bc_attach_kind kind;
};

static int old_try(struct bc_ctx *ctx, const struct bc_attach_point *pt, void *cookie)
{
	(void)ctx;
	(void)cookie;
	assert_null(pt->prog_name);
	return strcmp(pt->name, "second") == 0 ? 0 : -EPERM;
}

static void test_older_struct_size(void **state)
{
	static const struct old_attach_point old[] = {
		{ .sz = sizeof(struct old_attach_point), .name = "first", .kind = BC_ATTACH_FENTRY },
		{ .sz = sizeof(struct old_attach_point), .name = "second", .kind = BC_ATTACH_RAW_TP },
	};
	struct bc_ctx ctx;

	(void)state;
	bc_ctx_init(&ctx, NULL, &bench);
	assert_int_equal(bc_attach_select(&ctx, (const struct bc_attach_point *)old, 2, old_try,
					  NULL, NULL, NULL), 1);
	assert_string_equal(bc_ctx_attach_point(&ctx), "second");
}

static void test_no_candidates(void **state)
{
	struct bc_ctx ctx;

	(void)state;
	bc_ctx_init(&ctx, NULL, &bench);
	assert_int_equal(bc_attach_select(&ctx, pts, 0, fake_try, NULL, NULL, NULL), -EINVAL);
}

/* ------------------------------------- a map refused for a value */

/* Every candidate's load fails the same way: libbpf says which map. */
static int map_refused_try(struct bc_ctx *ctx, const struct bc_attach_point *pt, void *cookie)
{
	(void)ctx;
	(void)pt;
	bc_attach_note_libbpf("libbpf: map 'm': failed to create: Argument list too long(-7)\n");
	return *(int *)cookie;
}

struct map_opts {
	int64_t max_entries;
	int64_t nr_loops;
};

static const struct bc_option map_options[] = {
	BC_OPT_INT(struct map_opts, max_entries, "max_entries", .def = "10", .min = 1,
		   .max = UINT32_MAX, .maps = "other,m"),
	BC_OPT_INT(struct map_opts, nr_loops, "nr_loops", .def = "1", .min = 1, .max = 100),
};

static struct bc_plugin map_plugin = {
	.desc = { .sz = sizeof(struct bc_plugin_desc), .name = "fake",
		  .opts_size = sizeof(struct map_opts) },
	.options = (struct bc_option *)map_options, .option_cnt = 2,
};

static struct bc_bench map_bench = {
	.desc = { .sz = sizeof(struct bc_bench_desc), .name = "rb-fake" },
	.plugin = &map_plugin,
};

static int map_run(struct bc_ctx *ctx, struct bc_config *cfg, const char *const *words, int err)
{
	bc_config_init(cfg);
	bc_test_set_plugin_opts(cfg, &map_bench, words);
	bc_ctx_init(ctx, cfg, &map_bench);
	return bc_attach_select(ctx, pts, 3, map_refused_try, &err, NULL, NULL);
}

static void test_map_refused_names_option(void **state)
{
	const char *words[] = { "--max_entries", "4294967295", "--nr_loops", "5", NULL };
	struct bc_config cfg;
	struct bc_ctx ctx;

	(void)state;
	/* Not "unavailable": a failed run whose line names the option */
	assert_int_equal(map_run(&ctx, &cfg, words, -E2BIG), -E2BIG);
	assert_false(ctx.unavailable);
	assert_int_equal(bc_ctx_exit_status(&ctx, -E2BIG), BC_EXIT_FAILED);
	assert_string_equal(ctx.reason,
			    "rb-fake: the kernel refused to create map 'm' with --max_entries 4294967295: Argument list too long; expected a value this kernel can create that map with");
	bc_options_free(&cfg);
}

static void test_map_refused_defaults_unavailable(void **state)
{
	const char *given[] = { "--max_entries", "10", NULL };
	const char *none[] = { NULL };
	struct bc_config cfg;
	struct bc_ctx ctx;

	(void)state;
	/* The defaults refused (typed or not): the kernel lacks the map */
	map_run(&ctx, &cfg, given, -EINVAL);
	assert_true(ctx.unavailable);
	assert_non_null(strstr(ctx.reason, "raw_tp/sys_enter: map 'm': Invalid argument"));
	bc_options_free(&cfg);
	/* An errno no value causes is not blamed on one */
	map_run(&ctx, &cfg, none, -EPERM);
	assert_true(ctx.unavailable);
	bc_options_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fentry_refused_tp_chosen),
		cmocka_unit_test(test_first_accepted_stops),
		cmocka_unit_test(test_tracepoint_missing_raw_tp_chosen),
		cmocka_unit_test(test_tracefs_unmountable_raw_tp_chosen),
		cmocka_unit_test(test_all_refused_unavailable),
		cmocka_unit_test(test_all_refused_tracefs_reason),
		cmocka_unit_test(test_enotsupp_named),
		cmocka_unit_test(test_non_refusal_stops),
		cmocka_unit_test(test_non_refusal_after_refusal_stops),
		cmocka_unit_test(test_refusal_classes),
		cmocka_unit_test(test_older_struct_size),
		cmocka_unit_test(test_no_candidates),
		cmocka_unit_test(test_map_refused_names_option),
		cmocka_unit_test(test_map_refused_defaults_unavailable),
	};

	bc_log_set_verbosity(-1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
