// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Attach-point probing with fallback. The decision (which candidate, which
 * error means "try the next one", what to tell the user) is kept apart from
 * the kernel: bc_attach_select() only sees the answers of the try and
 * precheck callbacks, so tests can play any kernel.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include <benchcore/attach.h>
#include "context.h"
#include "attach.h"
#include "bpf_source.h"
#include "config.h"
#include "exit_status.h"
#include "guard.h"
#include "log.h"
#include "names.h"
#include "plugin_opts.h"
#include "skel.h"

/* The one list (ABI 2.3 made it public): the plugins' private copies,
 * which disagreed with it, are gone. */
bool bc_attach_is_refusal(int err)
{
	switch (err < 0 ? -err : err) {
	case EPERM:		/* trampolines unavailable, lockdown, no CAP */
	case EACCES:		/* verifier rejected this program type/helper */
	case BC_ENOTSUPP:	/* attach type compiled out */
	case EOPNOTSUPP:
	case ENOENT:		/* no such tracepoint / symbol / BTF id */
	case ESRCH:		/* BTF id lookup failed */
	case EINVAL:		/* program type or attach type unknown here */
	case E2BIG:		/* attr larger than this kernel knows */
	case ENODEV:		/* no such PMU (kprobe, uprobe perf events) */
	case ENOSYS:		/* the syscall or link type is compiled out */
	case ENXIO:		/* no such probe target */
		return true;
	default:
		return false;
	}
}

/*
 * A plugin's mistake an SDK call found during the current candidate
 * (bc_bpf_autoload_only() given a name its object lacks): whatever errno
 * the candidate then returns is not the kernel's. Per thread, as the
 * failed-map note below.
 */
static __thread char bc_attach_mistake[BC_REASON_LEN];

int bc_attach_skip(struct bc_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->skip_reason, sizeof(ctx->skip_reason), fmt, ap);
	va_end(ap);
	ctx->skip_reason[strcspn(ctx->skip_reason, "\n")] = '\0';
	ctx->skipped = true;
	/* A refusal's errno, for a caller that does not know skips. */
	return -ENODEV;
}

const char *bc_attach_strerror(int err, char *buf, size_t len)
{
	if (err < 0)
		err = -err;
	if (err == BC_ENOTSUPP) {
		snprintf(buf, len, "not supported by this kernel (ENOTSUPP)");
		return buf;
	}
	/* libbpf_strerror also knows libbpf's own codes (LIBBPF_ERRNO__*). */
	if (libbpf_strerror(-err, buf, len))
		snprintf(buf, len, "error %d", err);
	return buf;
}

/*
 * The map whose creation failed during the current candidate's load, from
 * libbpf's "map 'NAME': failed to create: ..." line: every candidate creates
 * the same maps, so a refused map says nothing about the attach point.
 * Per thread: probes of different benchmarks may run at once.
 */
static __thread char bc_attach_failed_map[128];

void bc_attach_note_libbpf(const char *line)
{
	const char *name = strstr(line, "map '"), *end;

	if (!name)
		return;
	name += 5;
	end = strstr(name, "': failed to create:");
	if (!end || end == name || memchr(name, '\'', (size_t)(end - name)))
		return;
	snprintf(bc_attach_failed_map, sizeof(bc_attach_failed_map), "%.*s",
		 (int)(end - name), name);
}

/*
 * A map refused at creation with an error a value causes (E2BIG, EINVAL,
 * ENOMEM, ERANGE), where the user changed an option that sets that map's
 * attributes (struct bc_option's `maps`): not a kernel without a feature
 * but a value it will not take, so the run fails naming the option. With
 * only the defaults, the kernel lacks the map type or flag: the caller
 * goes on as for any other refusal. Returns 0 when not such a case.
 */
static int bc_attach_map_refused(struct bc_ctx *ctx, const char *bench, int err)
{
	char culprits[512], errbuf[128];

	if (!bc_attach_failed_map[0])
		return 0;
	switch (-err) {
	case E2BIG:
	case EINVAL:
	case ENOMEM:
	case ERANGE:
		break;
	default:
		return 0;
	}
	if (!ctx->cfg || !bc_opts_map_culprits(ctx->cfg->opts, bc_attach_failed_map, culprits,
					      sizeof(culprits)))
		return 0;
	bc_attach_strerror(err, errbuf, sizeof(errbuf));
	return bc_error(ctx, err,
			"%s: the kernel refused to create map '%s' with %s: %s; expected a value this kernel can create that map with",
			bench, bc_attach_failed_map, culprits, errbuf);
}

/* Appends "; name: text" (or "name: text" first) without overflowing. */
static void bc_reason_append(char *reasons, size_t len, const char *name, const char *text)
{
	size_t used = strlen(reasons);

	if (used + 1 >= len)
		return;
	snprintf(reasons + used, len - used, "%s%s: %s", used ? "; " : "", name, text);
}

/*
 * A plugin built against an older header may hand us a shorter struct:
 * step through its array by its own sz and read only what it covers.
 */
static void bc_attach_point_get(const struct bc_attach_point *pts, size_t i,
				struct bc_attach_point *out)
{
	size_t stride = pts[0].sz ? pts[0].sz : sizeof(*out);
	const char *p = (const char *)pts + i * stride;

	memset(out, 0, sizeof(*out));
	memcpy(out, p, stride < sizeof(*out) ? stride : sizeof(*out));
}

/*
 * `run` probes a benchmark and then sets it up: the same choice twice. Say
 * it at info once per benchmark and attach point; repeats go to debug.
 */
static void bc_attach_log_choice(const struct bc_ctx *ctx, const char *bench, const char *name,
				 const char *reasons)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static char last[256];
	char key[256];
	bool repeat;

	snprintf(key, sizeof(key), "%s\n%s", bench, name);
	pthread_mutex_lock(&lock);
	repeat = strcmp(key, last) == 0;
	snprintf(last, sizeof(last), "%s", key);
	pthread_mutex_unlock(&lock);

	/* The ctx's prefix names the plugin and the benchmark. */
	bc_ctx_log(ctx, repeat ? BC_LOG_DEBUG : BC_LOG_INFO, "attached at %s%s%s%s", name,
		   reasons[0] ? " (refused before it: " : "", reasons, reasons[0] ? ")" : "");
}

int bc_attach_select(struct bc_ctx *ctx, const struct bc_attach_point *pts, size_t cnt,
		     bc_attach_try_fn try_fn, void *cookie,
		     bc_attach_precheck_fn precheck, void *precheck_cookie)
{
	char reasons[BC_REASON_LEN] = "";
	const char *bench = bc_ctx_bench_name(ctx);
	size_t i;

	if (!pts || !cnt || !try_fn)
		return bc_error(ctx, -EINVAL, "no attach point to try");
	if (!bench)
		bench = "benchmark";

	for (i = 0; i < cnt; i++) {
		struct bc_attach_point pt;
		char why[256] = "";
		char errbuf[128];
		const char *name;
		int err;

		bc_attach_point_get(pts, i, &pt);
		name = pt.name ? pt.name : (pt.prog_name ? pt.prog_name : "?");

		if (precheck) {
			err = precheck(&pt, why, sizeof(why), precheck_cookie);
			if (err) {
				/* A failed pre-flight check only rules out this
				 * candidate: the kernel was not even asked. */
				if (!why[0])
					bc_attach_strerror(err, why, sizeof(why));
				bc_debug("%s: %s not usable: %s", bench, name, why);
				bc_reason_append(reasons, sizeof(reasons), name, why);
				continue;
			}
		}

		bc_attach_failed_map[0] = '\0';
		bc_attach_mistake[0] = '\0';
		ctx->skipped = false;
		err = try_fn(ctx, &pt, cookie);
		if (err && ctx->skipped) {
			/* The plugin ruled the candidate out itself. */
			ctx->skipped = false;
			bc_debug("%s: %s not usable: %s", bench, name, ctx->skip_reason);
			bc_reason_append(reasons, sizeof(reasons), name, ctx->skip_reason);
			continue;
		}
		/* Not the kernel's answer, whatever the errno: the plugin's
		 * mistake, said as one (status 1), never "unavailable". */
		if (err && bc_attach_mistake[0])
			return bc_error(ctx, -ENOENT, "%s: attach point %s: %s", bench, name,
					bc_attach_mistake);
		if (err > 0)
			return bc_error(ctx, -EINVAL,
					"%s: attaching at %s: the attach callback returned %d; it returns 0 or a negative errno (the kernel's answer), and says any other failure with bc_error()",
					bench, name, err);
		if (!err) {
			bc_ctx_set_attach_point(ctx, name);
			bc_attach_log_choice(ctx, bench, name, reasons);
			return (int)i;
		}
		if (bc_attach_map_refused(ctx, bench, err))
			return err;
		bc_attach_strerror(err, errbuf, sizeof(errbuf));
		if (bc_attach_failed_map[0]) {
			/* Still a refusal (a map type this kernel lacks), but
			 * of the map, not of the attach point. */
			char text[sizeof(errbuf)];

			snprintf(text, sizeof(text), "%s", errbuf);
			if (snprintf(errbuf, sizeof(errbuf), "map '%.64s': %.56s", bc_attach_failed_map,
				     text) < 0)
				errbuf[0] = '\0';
		}
		if (!bc_attach_is_refusal(err))
			return bc_error(ctx, err, "%s: attaching at %s failed: %s", bench, name,
					errbuf);
		bc_debug("%s: kernel refused %s: %s", bench, name, errbuf);
		bc_reason_append(reasons, sizeof(reasons), name, errbuf);
	}
	return bc_unavailable(ctx, "the kernel refused every attach point: %s", reasons);
}

/* Tracepoints need tracefs; mount it (or say how) before the kernel is
 * asked, so the reason names the real problem instead of ENOENT. */
static int bc_attach_precheck_default(const struct bc_attach_point *pt, char *why, size_t len,
				      void *cookie)
{
	char hint[256];
	int err;

	(void)cookie;
	if (pt->kind != BC_ATTACH_TP)
		return 0;
	err = bc_tracefs_ensure(hint, sizeof(hint));
	if (err)
		snprintf(why, len, "%s", hint);
	return err;
}

/*
 * While probing, a refused candidate is expected, not a problem: libbpf's
 * warnings about it (and its verifier log) go to debug (-v), and the user
 * gets our one line naming each candidate's reason instead.
 */
static int bc_attach_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[1024];

	(void)level;
	vsnprintf(line, sizeof(line), fmt, ap);
	bc_attach_note_libbpf(line);
	bc_debug("%s", line);
	return 0;
}

int bc_attach_first(struct bc_ctx *ctx, const struct bc_attach_point *pts, size_t cnt,
		    bc_attach_try_fn try_fn, void *cookie)
{
	libbpf_print_fn_t prev;
	int ret;

	/* setup() and probe() run before any benchmark thread: nothing else
	 * prints through libbpf meanwhile. */
	prev = libbpf_set_print(bc_attach_libbpf_print);
	ret = bc_attach_select(ctx, pts, cnt, try_fn, cookie, bc_attach_precheck_default, NULL);
	libbpf_set_print(prev);
	return ret;
}

/* What a candidate that reported its own failure said. */
struct bc_ladder {
	int own_err;
	char own_reason[BC_REASON_LEN];
};

/*
 * One candidate of the descriptor's ladder, through its attach callback.
 * A bare negative errno is the kernel's answer about this candidate; a
 * failure the callback reported itself (bc_error() and friends: a map it
 * could not fill, a ring it could not map) ends the ladder with its words.
 */
static int bc_attach_desc_try(struct bc_ctx *ctx, const struct bc_attach_point *pt, void *cookie)
{
	struct bc_ladder *l = cookie;
	int err;

	bc_ctx_reason_copy(ctx, l->own_reason, sizeof(l->own_reason));
	ctx->reason[0] = '\0';	/* no thread runs yet */
	bc_guard_enter("attach", true);
	/* 2.3: a benchmark with a skeleton is attached by the core itself. */
	err = ctx->bench->desc.skel ? bc_skel_attach(ctx, pt) : ctx->bench->desc.attach(ctx, pt);
	bc_guard_leave();
	if (!err)
		return 0;
	/* A refused candidate destroyed what it loaded. */
	ctx->bpf_obj = NULL;
	if (!ctx->reason[0]) {
		memcpy(ctx->reason, l->own_reason, sizeof(ctx->reason));
		return err;
	}
	l->own_err = err < 0 ? err : -err;
	bc_ctx_reason_copy(ctx, l->own_reason, sizeof(l->own_reason));
	return -ECANCELED;	/* not a refusal: the ladder stops here */
}

/* The ladder over pts, through the descriptor's attach callback (or the
 * core's own for a skeleton). */
static int bc_ladder_run(struct bc_ctx *ctx, const struct bc_attach_point *pts, size_t cnt,
			 bool declare)
{
	const struct bc_bench_desc *d = &ctx->bench->desc;
	struct bc_attach_point pt;
	struct bc_ladder l = { 0 };
	struct bpf_program *prog;
	size_t progs = ctx->prog_cnt;
	int idx, err;

	/* A typo in a program's name is found before anything loads. */
	if (d->skel) {
		err = bc_skel_check(ctx, pts, cnt);
		if (err)
			return err;
	}
	idx = bc_attach_first(ctx, pts, cnt, bc_attach_desc_try, &l);
	if (idx < 0 && l.own_err) {
		/* Its words again (the ladder wrote its own over them); the
		 * flags bc_unavailable() or bc_usage_error() set stay, and
		 * with them the exit status the callback chose. */
		bc_error(ctx, l.own_err, "%s", l.own_reason);
		return l.own_err;
	}
	if (idx < 0)
		return idx;
	/* The program under test, unless the callback declared its own (the
	 * skeleton path declares it as soon as it is loaded). */
	bc_attach_point_get(pts, (size_t)idx, &pt);
	if (!declare || ctx->prog_cnt != progs || !ctx->bpf_obj || !pt.prog_name)
		return idx;
	prog = bpf_object__find_program_by_name(ctx->bpf_obj, pt.prog_name);
	if (!prog || bpf_program__fd(prog) < 0)
		return bc_error(ctx, -ENOENT, "%s: attach point %s names program '%s', which the BPF object did not load",
				d->name, pt.name ? pt.name : "?", pt.prog_name);
	err = bc_ctx_add_prog(ctx, bpf_program__fd(prog), "producer");
	return err ? err : idx;
}

int bc_attach_ladder(struct bc_ctx *ctx, bool declare)
{
	const struct bc_bench_desc *d = &ctx->bench->desc;
	int err;

	if (!d->attach && !d->skel)
		return 0;
	/* setup() chose its own candidates (bc_skel_ladder()). */
	if (d->skel && ctx->skel)
		return 0;
	if (!d->attach_point_cnt)
		return bc_error(ctx, -EINVAL,
				"benchmark '%s' has an attach callback but no attach points", d->name);
	err = bc_ladder_run(ctx, d->attach_points, d->attach_point_cnt, declare);
	return err < 0 ? err : 0;
}

int bc_skel_ladder(struct bc_ctx *ctx, const struct bc_attach_point *pts, size_t cnt)
{
	const char *bench = bc_ctx_bench_name(ctx);

	if (!ctx->bench || !ctx->bench->desc.skel)
		return bc_error(ctx, -EINVAL,
				"%s: bc_skel_ladder() needs the benchmark's skeleton in its descriptor (.skel = &NAME_skel)",
				bench ? bench : "benchmark");
	if (ctx->skel)
		return bc_error(ctx, -EALREADY,
				"%s: bc_skel_ladder() called twice; the skeleton is already attached",
				bench);
	if (!pts || !cnt)
		return bc_error(ctx, -EINVAL, "%s: bc_skel_ladder() given no attach point", bench);
	return bc_ladder_run(ctx, pts, cnt, true);
}

int bc_attach_probe(struct bc_ctx *ctx)
{
	const struct bc_bench_desc *d = &ctx->bench->desc;
	int err = 0;

	/* What `run` checks before setup(), checked here too: a kernel that
	 * lacks a declared need is told so, not that it refused a program. */
	if (d->need_cnt)
		err = bc_need_check(ctx, d->needs, d->need_cnt);
	if (!err && d->setup) {
		bc_guard_enter("setup", false);
		err = d->setup(ctx);
		bc_guard_leave();
	}
	if (!err)
		err = bc_attach_ladder(ctx, false);
	/* What the metrics name in the object: a typo is found by `list
	 * --probe` as by `run`. */
	if (!err)
		err = bc_bpf_src_resolve(ctx);
	bc_bpf_src_free(ctx);
	bc_skel_detach(ctx);
	if (d->teardown) {
		bc_guard_enter("teardown", false);
		d->teardown(ctx);
		bc_guard_leave();
	}
	bc_skel_destroy(ctx);
	ctx->bpf_obj = NULL;
	ctx->data = NULL;
	/* Lines a teardown() adds are a run's, not a probe's. */
	bc_ctx_release(ctx);
	return err;
}

/* The line for a program name the plugin's object lacks, kept for the
 * ladder, which owns the candidate's verdict. */
static void bc_attach_note_missing(struct bpf_object *obj, const char *prog_name)
{
	char progs[512] = "", hint[160] = "";
	struct bpf_program *prog;
	struct bc_closest c;
	size_t off = 0;

	bc_closest_init(&c, prog_name);
	bpf_object__for_each_program(prog, obj) {
		if (off < sizeof(progs))
			off += (size_t)snprintf(progs + off, sizeof(progs) - off, "%s%s",
						off ? ", " : "", bpf_program__name(prog));
		bc_closest_offer(&c, bpf_program__name(prog));
	}
	if (c.best)
		snprintf(hint, sizeof(hint), " (did you mean '%s'?)", c.best);
	snprintf(bc_attach_mistake, sizeof(bc_attach_mistake),
		 "program '%s' is not in the plugin's BPF object '%s'%s; it has: %s; fix the attach point's prog_name",
		 prog_name, bpf_object__name(obj), hint, progs[0] ? progs : "none");
}

int bc_bpf_autoload_only(struct bpf_object *obj, const char *prog_name)
{
	struct bpf_program *prog;
	bool found = false;
	int err;

	if (!obj || !prog_name)
		return -EINVAL;
	bpf_object__for_each_program(prog, obj) {
		bool mine = strcmp(bpf_program__name(prog), prog_name) == 0;

		err = bpf_program__set_autoload(prog, mine);
		if (err)
			return err;
		found |= mine;
	}
	if (!found)
		bc_attach_note_missing(obj, prog_name);
	return found ? 0 : -ENOENT;
}

int bc_getpgid_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	(void)ctx;
	while (!bc_thread_should_stop(t))
		bc_getpgid_trigger();
	return 0;
}
