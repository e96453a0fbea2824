// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A skeleton's whole life, driven by the core (ABI 2.3, bc_bench_desc.skel):
 * what every BPF plugin's attach() and teardown() used to do by hand. For
 * one candidate of the ladder: open, load only its programs, let the plugin
 * configure the opened object, load, declare the program under test, let
 * the plugin use the loaded object, attach, hand the object over; destroy
 * all of it when a step fails. Since the core makes each call itself, it
 * knows whose answer a failure is: a failed load or attach is the kernel's
 * (the ladder judges it), a failed open or callback the plugin's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "context.h"
#include "names.h"
#include "skel.h"

static const char *bc_skel_bench(const struct bc_ctx *ctx)
{
	return ctx->bench->desc.name;
}

/* "a, b, c": the object's programs, and the one nearest `want`. */
static void bc_skel_programs(struct bpf_object *obj, const char *want, char *buf, size_t len,
			     char *hint, size_t hint_len)
{
	struct bpf_program *p;
	struct bc_closest c;
	size_t off = 0;

	buf[0] = hint[0] = '\0';
	bc_closest_init(&c, want);
	bpf_object__for_each_program(p, obj) {
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						bpf_program__name(p));
		bc_closest_offer(&c, bpf_program__name(p));
	}
	if (!buf[0])
		snprintf(buf, len, "none");
	if (c.best)
		snprintf(hint, hint_len, " (did you mean '%s'?)", c.best);
}

static int bc_skel_name_missing(struct bc_ctx *ctx, struct bpf_object *obj,
				const struct bc_attach_point *pt, const char *field, const char *name)
{
	char progs[512], hint[160];

	bc_skel_programs(obj, name, progs, sizeof(progs), hint, sizeof(hint));
	return bc_error(ctx, -ENOENT,
			"%s: attach point '%s' names %s '%s', which BPF object '%s' does not have%s; it has: %s; fix the attach point's %s",
			bc_skel_bench(ctx), pt->name ? pt->name : "?", field, name,
			ctx->bench->desc.skel->name, hint, progs, field);
}

/* A plugin built against an older attach.h: read each by its own stride. */
static void bc_skel_point_get(const struct bc_attach_point *pts, size_t i,
			      struct bc_attach_point *out)
{
	size_t stride = pts[0].sz ? pts[0].sz : sizeof(*out);

	memset(out, 0, sizeof(*out));
	memcpy(out, (const char *)pts + i * stride, stride < sizeof(*out) ? stride : sizeof(*out));
}

int bc_skel_check(struct bc_ctx *ctx, const struct bc_attach_point *pts, size_t cnt)
{
	const struct bc_skel *sk = ctx->bench->desc.skel;
	struct bc_attach_point pt;
	struct bpf_object *obj;
	void *s;
	int err = 0;

	errno = 0;
	s = sk->open();
	if (!s) {
		err = errno ? -errno : -ENOMEM;
		return bc_error(ctx, err, "%s: opening BPF object '%s' failed: %s",
				bc_skel_bench(ctx), sk->name, bc_strerror(err));
	}
	obj = sk->object(s);
	for (size_t i = 0; i < cnt && !err; i++) {
		bc_skel_point_get(pts, i, &pt);
		if (!pt.prog_name)
			err = bc_error(ctx, -EINVAL,
				       "%s: attach point '%s' has no prog_name; a benchmark with a skeleton names the program of each",
				       bc_skel_bench(ctx), pt.name ? pt.name : "?");
		else if (!bpf_object__find_program_by_name(obj, pt.prog_name))
			err = bc_skel_name_missing(ctx, obj, &pt, "prog_name", pt.prog_name);
		else if (pt.also_prog && !bpf_object__find_program_by_name(obj, pt.also_prog))
			err = bc_skel_name_missing(ctx, obj, &pt, "also_prog", pt.also_prog);
	}
	sk->destroy(s);
	return err;
}

/* The programs a candidate loads: its own and its also_prog, no other. */
static int bc_skel_autoload(struct bpf_object *obj, const struct bc_attach_point *pt)
{
	struct bpf_program *p;
	int err;

	bpf_object__for_each_program(p, obj) {
		const char *name = bpf_program__name(p);

		err = bpf_program__set_autoload(p, !strcmp(name, pt->prog_name) ||
						       (pt->also_prog && !strcmp(name, pt->also_prog)));
		if (err)
			return err;
	}
	return 0;
}

/*
 * A plugin callback on the skeleton: whatever it returns is the plugin's
 * answer, never the kernel's refusal of the candidate, unless it skipped
 * the candidate (bc_attach_skip()). Its own words stay; a bare errno gets
 * a line that names the callback.
 */
static int bc_skel_call(struct bc_ctx *ctx, const char *what,
			int (*fn)(struct bc_ctx *, void *, const struct bc_attach_point *), void *s,
			const struct bc_attach_point *pt)
{
	int err = fn(ctx, s, pt);

	if (!err || ctx->skipped)
		return err;
	if (err > 0)
		return bc_error(ctx, -EINVAL,
				"%s: %s() returned %d at %s; a callback returns 0 or a negative errno",
				bc_skel_bench(ctx), what, err, pt->name ? pt->name : "?");
	if (ctx->reason[0])
		return err;
	return bc_error(ctx, err, "%s: %s() failed at %s: %s", bc_skel_bench(ctx), what,
			pt->name ? pt->name : "?", bc_strerror(err));
}

/* Declarations a failed candidate made are not the run's. */
static void bc_skel_undeclare(struct bc_ctx *ctx, size_t keep)
{
	while (ctx->prog_cnt > keep)
		free(ctx->progs[--ctx->prog_cnt].role);
}

int bc_skel_attach(struct bc_ctx *ctx, const struct bc_attach_point *pt)
{
	const struct bc_bench_desc *d = &ctx->bench->desc;
	const struct bc_skel *sk = d->skel;
	size_t progs = ctx->prog_cnt;
	struct bpf_program *prog;
	struct bpf_object *obj;
	bool kernel = false;
	void *s;
	int err;

	errno = 0;
	s = sk->open();
	if (!s) {
		err = errno ? -errno : -ENOMEM;
		return bc_error(ctx, err, "%s: opening BPF object '%s' failed: %s",
				bc_skel_bench(ctx), sk->name, bc_strerror(err));
	}
	obj = sk->object(s);
	err = bc_skel_autoload(obj, pt);
	if (err)
		err = bc_error(ctx, err, "%s: choosing the programs of %s: %s", bc_skel_bench(ctx),
			       pt->name, bc_strerror(err));
	if (!err && d->configure)
		err = bc_skel_call(ctx, "configure", d->configure, s, pt);
	if (!err) {
		err = sk->load(s);
		kernel = err != 0;
	}
	if (!err && d->loaded)
		err = bc_skel_call(ctx, "loaded", d->loaded, s, pt);
	/* The program under test, unless loaded() declared its own. */
	if (!err && ctx->prog_cnt == progs) {
		prog = bpf_object__find_program_by_name(obj, pt->prog_name);
		err = bc_ctx_add_prog(ctx, bpf_program__fd(prog), "producer");
		if (err)
			err = bc_error(ctx, err, "%s: declaring program '%s': %s",
				       bc_skel_bench(ctx), pt->prog_name, bc_strerror(err));
	}
	if (!err) {
		err = sk->attach(s);
		kernel = err != 0;
	}
	if (err) {
		bc_skel_undeclare(ctx, progs);
		sk->destroy(s);
		/* The kernel's answer, bare, for the ladder to judge. */
		if (kernel)
			return err < 0 ? err : -EINVAL;
		return err;
	}
	ctx->skel = s;
	ctx->skel_attached = true;
	ctx->bpf_obj = obj;
	return 0;
}

void bc_skel_detach(struct bc_ctx *ctx)
{
	if (!ctx->skel || !ctx->skel_attached)
		return;
	ctx->bench->desc.skel->detach(ctx->skel);
	ctx->skel_attached = false;
}

void bc_skel_destroy(struct bc_ctx *ctx)
{
	if (!ctx->skel)
		return;
	ctx->bench->desc.skel->destroy(ctx->skel);
	ctx->skel = NULL;
	ctx->skel_attached = false;
	ctx->bpf_obj = NULL;
}
