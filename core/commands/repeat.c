// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * run --repeat N / --precision PCT (repeat.h): one forked process per run,
 * their results pooled into one bc_run_result that the usual reporters
 * print, with the statistics over runs beside it.
 *
 * The pooled result's iterations are every run's, in order, so its
 * summary is what one run of N times the duration would print (the mean
 * of the run means, since every run has the same number of ticks); the
 * statistics over runs (repeats->metrics) are what says how far that mean
 * can be trusted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runtime/bpf_stats.h"
#include "runtime/figures.h"
#include "noise.h"
#include "runtime/output.h"
#include "repeat.h"
#include "baseline.h"
#include "transcript.h"
#include "runtime/config.h"
#include "runtime/loader.h"
#include "runtime/context.h"
#include "runtime/result.h"
#include "runtime/runner.h"
#include "runtime/stats.h"
#include "runtime/report.h"
#include "runtime/sysinfo.h"
#include "cli_args.h"
#include "runtime/exit_status.h"
#include "runtime/log.h"
#include "runtime/guard.h"

#define BC_REP_WARN_LEN 1024
#define BC_REP_PM "\xc2\xb1" /* U+00B1 PLUS-MINUS SIGN, as the reports print it */

/* The signal that asked the repetitions to stop (0: none), and how many
 * came: each is passed on to the running child once. */
static volatile sig_atomic_t bc_rep_stop;
static volatile sig_atomic_t bc_rep_sig_cnt;

static void bc_rep_on_signal(int sig)
{
	bc_rep_stop = sig;
	bc_rep_sig_cnt++;
}

static double bc_rep_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool bc_repeat_requested(const struct bc_run_request *req)
{
	return req->repeat > 1 || req->precision_pct > 0;
}

int bc_repeat_check(const struct bc_run_request *cfg)
{
	if (!(cfg->precision_pct > 0)) {
		if (cfg->max_repeat)
			return bc_cli_usage_error("--max-repeat %u: only with --precision PCT (it caps the runs --precision adds)",
						  cfg->max_repeat);
		if (cfg->max_time_sec > 0)
			return bc_cli_usage_error("--max-time %g: only with --precision PCT (it caps the time --precision takes)",
						  cfg->max_time_sec);
		return 0;
	}
	if (cfg->max_repeat && cfg->max_repeat < cfg->repeat)
		return bc_cli_usage_error("--max-repeat %u: expected at least --repeat %u, the fewest runs --precision makes",
					  cfg->max_repeat, cfg->repeat);
	return 0;
}

int bc_repeat_watched(const struct bc_run_result *res)
{
	const struct bc_figures *fg = res->figs;
	static const enum bc_metric_role order[] = { BC_ROLE_LATENCY, BC_ROLE_RATE };

	if (!fg)
		return -1;
	if (fg->judged >= 0)
		return fg->judged;
	for (size_t r = 0; r < sizeof(order) / sizeof(order[0]); r++)
		for (unsigned int m = 0; m < fg->metric_cnt; m++)
			if (fg->views[m].role == order[r] &&
			    fg->views[m].kind != BC_METRIC_HISTOGRAM)
				return (int)m;
	for (unsigned int m = 0; m < fg->metric_cnt; m++)
		if (fg->views[m].kind != BC_METRIC_HISTOGRAM)
			return (int)m;
	return -1;
}

/* ------------------------------------------------------------ one run */

struct bc_rep_state {
	const struct bc_config *cfg;
	const struct bc_bench *bench;
	struct bc_repeats rep;
	size_t run_cap;
	FILE *progress;
	bool quiet;
	pid_t parent;		/* the process that forks the runs */
	/* Why the last run gave no result (crashed, killed): "" if it did. */
	char lost[BC_REASON_LEN];
	int lost_status;
};

/* A teardown that calls exit() (guard.h): the run was summarised before
 * it, so its result still goes to the parent, failed; the guard then ends
 * the child with status 1. */
struct bc_rep_rescue {
	struct bc_run_result *res;
	int fd;
};

static void bc_rep_rescue(int code, void *arg)
{
	struct bc_rep_rescue *r = arg;

	bc_run_teardown_exited(r->res, code);
	fflush(NULL);
	if (bc_transcript_write(r->fd, r->res))
		bc_warn("cannot hand the measured run to the parent");
}

/* The child: one whole run, its progress on st->progress, its result on fd. */
static void __attribute__((noreturn)) bc_rep_child(const struct bc_rep_state *st, int fd)
{
	struct bc_progress pr = { .f = st->progress, .quiet = st->quiet };
	struct bc_run_result res;
	struct bc_rep_rescue rescue = { .res = &res, .fd = fd };
	int err;

	/* The runner takes the stop signals over; until then one ends this
	 * run, and the parent knows why. */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	/* Its own process group, so that the parent is the only one to pass
	 * a terminal's Ctrl-C on (once per press), and the group goes with
	 * it; a background group writes to the terminal all the same. */
	setpgid(0, 0);
	signal(SIGTTOU, SIG_IGN);
	/* A parent killed outright (SIGKILL, a crash) takes the run along:
	 * SIGTERM stops it and tears its BPF objects down. The parent may
	 * already be gone before the request took effect. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != st->parent)
		_exit(BC_EXIT_INTERRUPTED);
	bc_out_forget_all();
	memset(&res, 0, sizeof(res));
	bc_guard_set_rescue(bc_rep_rescue, &rescue);
	err = bc_run(st->cfg, st->bench, &res, bc_report_progress, &pr);
	bc_guard_set_rescue(NULL, NULL);
	if (err && res.exit_status == BC_EXIT_OK)
		res.exit_status = BC_EXIT_FAILED;
	/* _exit() flushes nothing. */
	fflush(NULL);
	err = bc_transcript_write(fd, &res);
	bc_run_result_free(&res);
	_exit(err ? BC_EXIT_FAILED : BC_EXIT_OK);
}

static int bc_rep_grow(struct bc_rep_state *st)
{
	struct bc_repeats *r = &st->rep;
	size_t cap = st->run_cap ? st->run_cap * 2 : 8;
	struct bc_run_result *runs;
	double *sec;

	if (r->run_cnt < st->run_cap)
		return 0;
	runs = realloc(r->runs, cap * sizeof(*runs));
	if (!runs)
		return -ENOMEM;
	r->runs = runs;
	sec = realloc(r->run_sec, cap * sizeof(*sec));
	if (!sec)
		return -ENOMEM;
	r->run_sec = sec;
	st->run_cap = cap;
	return 0;
}

/* Waits for the child, passing each SIGINT, SIGTERM or SIGHUP this
 * process gets on to it (it runs in a process group of its own, so a
 * terminal's Ctrl-C reaches this process only); then whatever the run
 * left in its group goes too. */
static int bc_rep_wait(pid_t pid, sig_atomic_t passed)
{
	int wstatus;

	for (;;) {
		/* Also before the first wait: the signal may have come first. */
		while (passed != bc_rep_sig_cnt) {
			kill(pid, bc_rep_stop);
			passed++;
		}
		if (waitpid(pid, &wstatus, 0) == pid)
			break;
		if (errno != EINTR)
			return -1;
	}
	kill(-pid, SIGKILL);
	return wstatus;
}

/* A child that ended with a failure status but handed a failed result over
 * first (a teardown that called exit(), bc_rep_rescue()): res holds it. */
static bool bc_rep_rescued(const struct bc_rep_state *st, int fd, struct bc_run_result *res)
{
	char why[256];

	if (lseek(fd, 0, SEEK_END) <= 0)
		return false;
	if (bc_transcript_read(fd, st->cfg, st->bench, res, why, sizeof(why)))
		goto lost;
	if (res->cleanup_failed && res->exit_status != BC_EXIT_OK)
		return true;
lost:
	bc_run_result_free(res);
	return false;
}

/* Runs one repetition into st->rep.runs[run_cnt]; a run that gave no
 * result leaves st->lost saying why. 0, or a negative errno when this
 * process could not start one. */
static int bc_rep_one(struct bc_rep_state *st)
{
	struct bc_repeats *r = &st->rep;
	struct bc_run_result *res;
	char why[256];
	double t0;
	int fd, wstatus, err;
	pid_t pid;

	/* Signals before this run were for the one before it. */
	sig_atomic_t passed = bc_rep_sig_cnt;

	err = bc_rep_grow(st);
	if (err)
		return err;
	st->parent = getpid();
	fd = memfd_create("benchcore-run", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* Nothing buffered may be written twice, by the child and by us. */
	fflush(NULL);
	t0 = bc_rep_now();
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	if (pid == 0)
		bc_rep_child(st, fd);
	/* Both sides set the group, so a signal right after fork finds it. */
	setpgid(pid, pid);
	wstatus = bc_rep_wait(pid, passed);
	res = &r->runs[r->run_cnt];
	r->run_sec[r->run_cnt] = bc_rep_now() - t0;
	st->lost[0] = '\0';
	if (wstatus == -1) {
		snprintf(st->lost, sizeof(st->lost), "lost its process: %s", strerror(errno));
	} else if (WIFSIGNALED(wstatus)) {
		snprintf(st->lost, sizeof(st->lost), "killed by signal %d (%s)", WTERMSIG(wstatus),
			 strsignal(WTERMSIG(wstatus)));
	} else if (WEXITSTATUS(wstatus) != BC_EXIT_OK && !bc_rep_rescued(st, fd, res)) {
		/* The exit() guard or a second interrupt said why on stderr. */
		snprintf(st->lost, sizeof(st->lost), "ended with exit status %d before reporting",
			 WEXITSTATUS(wstatus));
		st->lost_status = WEXITSTATUS(wstatus);
	} else if (WEXITSTATUS(wstatus) != BC_EXIT_OK) {
		r->run_cnt++;
	} else if (bc_transcript_read(fd, st->cfg, st->bench, res, why, sizeof(why))) {
		bc_run_result_free(res);
		snprintf(st->lost, sizeof(st->lost), "%s", why);
	} else {
		r->run_cnt++;
	}
	if (st->lost[0] && !st->lost_status)
		st->lost_status = BC_EXIT_FAILED;
	close(fd);
	return 0;
}

/* ------------------------------------------------------------ the loop */

/* The watched metric over the complete runs so far. */
static void bc_rep_watched_stats(const struct bc_repeats *r, struct bc_rep_stats *out)
{
	double *xs = calloc(r->run_cnt ? r->run_cnt : 1, sizeof(*xs));
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	if (!xs || r->watched < 0) {
		free(xs);
		return;
	}
	for (size_t k = 0; k < r->run_cnt; k++)
		if (r->runs[k].exit_status == BC_EXIT_OK && r->runs[k].summary)
			xs[n++] = r->runs[k].summary[r->watched].mean;
	bc_rep_stats_compute(xs, n, out);
	free(xs);
}

static const char *bc_rep_metric_name(const struct bc_rep_state *st)
{
	return st->rep.watched >= 0 ? st->bench->metrics[st->rep.watched].name : "the mean";
}

/* "Run 2 of 3", or under --precision how far the interval is. */
static void bc_rep_header(const struct bc_rep_state *st, const struct bc_rep_stats *w)
{
	const struct bc_rep_rule *rule = &st->rep.rule;
	size_t k = st->rep.run_cnt + 1;

	if (st->quiet)
		return;
	if (!(rule->precision_pct > 0))
		fprintf(st->progress, "Run %zu of %u\n", k, rule->repeat);
	else if (w && w->n >= 2 && isfinite(w->ci_pct))
		fprintf(st->progress,
			"Run %zu (--precision %g: %s " BC_REP_PM "%.2f%% after %u runs; at most %u runs)\n",
			k, rule->precision_pct, bc_rep_metric_name(st), w->ci_pct, w->n,
			rule->max_repeat);
	else
		fprintf(st->progress, "Run %zu (--precision %g: at least %u runs, at most %u)\n", k,
			rule->precision_pct,
			rule->repeat > BC_REP_MIN_RUNS ? rule->repeat : BC_REP_MIN_RUNS,
			rule->max_repeat);
	fflush(st->progress);
}

/* After a run: whether to stop, and why. */
static enum bc_rep_end bc_rep_after(struct bc_rep_state *st, double started,
				    struct bc_rep_stats *w)
{
	struct bc_repeats *r = &st->rep;
	const struct bc_run_result *last;
	double sum = 0;

	if (st->lost[0])
		return bc_rep_stop ? BC_REP_END_INTERRUPTED : BC_REP_END_FAILED;
	last = &r->runs[r->run_cnt - 1];
	if (last->exit_status == BC_EXIT_INTERRUPTED || last->interrupted)
		return BC_REP_END_INTERRUPTED;
	if (last->exit_status != BC_EXIT_OK)
		return BC_REP_END_FAILED;
	r->complete_cnt++;
	if (r->run_cnt == 1)
		r->watched = bc_repeat_watched(last);
	if (bc_rep_stop)
		return BC_REP_END_INTERRUPTED;
	bc_rep_watched_stats(r, w);
	for (size_t k = 0; k < r->run_cnt; k++)
		sum += r->run_sec[k];
	return bc_rep_rule_next(&r->rule, r->complete_cnt, w, bc_rep_now() - started,
				sum / (double)r->run_cnt);
}

static void bc_rep_loop(struct bc_rep_state *st)
{
	struct bc_repeats *r = &st->rep;
	struct sigaction sa = { .sa_handler = bc_rep_on_signal }, old_int, old_term, old_hup;
	struct bc_rep_stats w = { 0 };
	double started = bc_rep_now();
	int err;

	/* No SA_RESTART: waitpid() returns to pass a signal on. A closed
	 * terminal (SIGHUP) stops the runs as SIGTERM does. */
	sigemptyset(&sa.sa_mask);
	bc_rep_stop = 0;
	bc_rep_sig_cnt = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	while (r->end == BC_REP_RUNNING) {
		if (bc_rep_stop) {
			r->end = BC_REP_END_INTERRUPTED;
			break;
		}
		bc_rep_header(st, &w);
		err = bc_rep_one(st);
		if (err) {
			snprintf(st->lost, sizeof(st->lost), "cannot start a process for it: %s",
				 strerror(-err));
			st->lost_status = BC_EXIT_FAILED;
		}
		r->end = bc_rep_after(st, started, &w);
	}
	r->elapsed_sec = bc_rep_now() - started;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
}

/* ------------------------------------------------------------ pooling */

static int bc_rep_copy_iter(struct bc_iteration *dst, const struct bc_iteration *src,
			    unsigned int metric_cnt)
{
	size_t per = metric_cnt ? metric_cnt : 1;

	*dst = *src;
	dst->values = calloc(per, sizeof(double));
	dst->rates = calloc(per, sizeof(double));
	dst->hists = NULL;
	if (!dst->values || !dst->rates)
		return -ENOMEM;
	memcpy(dst->values, src->values, metric_cnt * sizeof(double));
	memcpy(dst->rates, src->rates, metric_cnt * sizeof(double));
	if (!src->hists)
		return 0;
	dst->hists = calloc(per, sizeof(*dst->hists));
	if (!dst->hists)
		return -ENOMEM;
	for (unsigned int m = 0; m < metric_cnt; m++) {
		const struct bc_hist_interval *s = &src->hists[m];
		struct bc_hist_interval *d = &dst->hists[m];

		d->max_seen = s->max_seen;
		if (!s->n)
			continue;
		d->idx = malloc(s->n * sizeof(*d->idx));
		d->cnt = malloc(s->n * sizeof(*d->cnt));
		if (!d->idx || !d->cnt)
			return -ENOMEM;
		memcpy(d->idx, s->idx, s->n * sizeof(*d->idx));
		memcpy(d->cnt, s->cnt, s->n * sizeof(*d->cnt));
		d->n = s->n;
	}
	return 0;
}

static int bc_rep_add_warning(struct bc_run_result *res, const char *text)
{
	char **w;

	for (size_t i = 0; i < res->warning_cnt; i++)
		if (!strcmp(res->warnings[i], text))
			return 0;
	w = realloc(res->warnings, (res->warning_cnt + 1) * sizeof(*w));
	if (!w)
		return -ENOMEM;
	res->warnings = w;
	w[res->warning_cnt] = strdup(text);
	if (!w[res->warning_cnt])
		return -ENOMEM;
	res->warning_cnt++;
	return 0;
}

/*
 * The runs' warnings, each said once. A run's late-tick count (its own
 * runner.c line) becomes one line over every run; any other warning that
 * not every run gave names the runs that did.
 */
static int bc_rep_warnings(const struct bc_repeats *r, struct bc_run_result *pooled)
{
	unsigned int late = 0;
	double worst = 0;
	char line[BC_REP_WARN_LEN];
	int err = 0;

	for (size_t i = 0; i < pooled->iter_cnt; i++) {
		const struct bc_iteration *it = &pooled->iters[i];

		if (it->drift_us > 1000.0) {
			late++;
			if (it->drift_us > worst)
				worst = it->drift_us;
		}
	}
	for (size_t k = 0; k < r->run_cnt && !err; k++) {
		for (size_t i = 0; i < r->runs[k].warning_cnt && !err; i++) {
			const char *w = r->runs[k].warnings[i];
			size_t in = 0;

			if (r->runs[k].ticks_late && strstr(w, "ticks woke more than 1 ms late"))
				continue;
			for (size_t j = 0; j < r->run_cnt; j++)
				for (size_t x = 0; x < r->runs[j].warning_cnt; x++)
					in += !strcmp(r->runs[j].warnings[x], w);
			if (in >= r->run_cnt) {
				err = bc_rep_add_warning(pooled, w);
				continue;
			}
			snprintf(line, sizeof(line), "run %zu: %.960s", k + 1, w);
			err = bc_rep_add_warning(pooled, line);
		}
	}
	if (!err && late) {
		snprintf(line, sizeof(line),
			 "%u of %zu ticks over %zu runs woke more than 1 ms late (worst %.3f ms): "
			 "the machine was busy; each interval is normalised by its measured "
			 "length, but the numbers are noisier",
			 late, pooled->iter_cnt, r->run_cnt, worst / 1000.0);
		err = bc_rep_add_warning(pooled, line);
	}
	return err;
}

/* The pooled result's context: the first run's attach point and programs. */
static int bc_rep_pool_ctx(const struct bc_rep_state *st, struct bc_run_result *pooled)
{
	const struct bc_ctx *first = st->rep.run_cnt ? st->rep.runs[0].ctx : NULL;
	struct bc_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return -ENOMEM;
	pooled->owned_ctx = ctx;
	pooled->ctx = ctx;
	bc_ctx_init(ctx, st->cfg, st->bench);
	pooled->producer_cnt = ctx->producer_cnt;
	pooled->consumer_cnt = ctx->consumer_cnt;
	if (!first)
		return 0;
	pooled->producer_cnt = ctx->producer_cnt = first->producer_cnt;
	pooled->consumer_cnt = ctx->consumer_cnt = first->consumer_cnt;
	bc_ctx_set_attach_point(ctx, bc_ctx_attach_point(first));
	if (!first->prog_cnt)
		return 0;
	ctx->progs = calloc(first->prog_cnt, sizeof(*ctx->progs));
	if (!ctx->progs)
		return -ENOMEM;
	for (size_t i = 0; i < first->prog_cnt; i++) {
		ctx->progs[i] = first->progs[i];
		ctx->progs[i].fd = -1;
		ctx->progs[i].role = strdup(first->progs[i].role);
		if (!ctx->progs[i].role)
			return -ENOMEM;
		ctx->prog_cnt++;
	}
	return 0;
}

/* --bpf-stats: every run's per-interval deltas, in the pooled iterations'
 * order, and the figures made again over all of them. */
static int bc_rep_pool_bpf(const struct bc_repeats *r, struct bc_run_result *pooled)
{
	const struct bc_bpf_stats *first = NULL;
	struct bc_bpf_stats *s;
	size_t at = 0;

	for (size_t k = 0; k < r->run_cnt && !first; k++)
		first = r->runs[k].bpf;
	if (!first)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	pooled->bpf = s;
	s->fd = -1;
	s->prog_cnt = first->prog_cnt;
	s->iter_cap = pooled->iter_cnt;
	s->ticks = calloc((s->iter_cap ? s->iter_cap : 1) * (s->prog_cnt ? s->prog_cnt : 1),
			  sizeof(*s->ticks));
	if (!s->ticks)
		return -ENOMEM;
	for (size_t k = 0; k < r->run_cnt; k++) {
		const struct bc_run_result *run = &r->runs[k];
		const struct bc_bpf_stats *b = run->bpf;
		/* Every run declares the same programs; one that did not
		 * (a failed setup) has no ticks here. */
		bool same = b && b->ticks && b->prog_cnt == s->prog_cnt;

		if (b) {
			s->already |= b->already;
			s->read_errors += b->read_errors;
		}
		for (size_t i = 0; i < run->iter_cnt; i++, at++)
			for (size_t p = 0; same && i < b->iter_cap && p < s->prog_cnt; p++)
				s->ticks[at * s->prog_cnt + p] = b->ticks[i * b->prog_cnt + p];
	}
	return bc_bpf_stats_compute(s, pooled->iters, pooled->iter_cnt, pooled->producer_cnt);
}

static int bc_rep_pool(struct bc_rep_state *st, struct bc_run_result *pooled)
{
	unsigned int metric_cnt = st->bench->desc.metric_cnt;
	struct bc_repeats *r = &st->rep;
	size_t total = 0;
	int err;

	memset(pooled, 0, sizeof(*pooled));
	pooled->bench = st->bench;
	err = bc_rep_pool_ctx(st, pooled);
	for (size_t k = 0; k < r->run_cnt; k++)
		total += r->runs[k].iter_cnt;
	pooled->iters = calloc(total ? total : 1, sizeof(*pooled->iters));
	r->iter_run = calloc(total ? total : 1, sizeof(*r->iter_run));
	if (err || !pooled->iters || !r->iter_run)
		return -ENOMEM;
	pooled->iter_cap = total;
	for (size_t k = 0; k < r->run_cnt; k++) {
		const struct bc_run_result *run = &r->runs[k];

		pooled->ticks_late += run->ticks_late;
		for (size_t i = 0; i < run->iter_cnt; i++) {
			err = bc_rep_copy_iter(&pooled->iters[pooled->iter_cnt], &run->iters[i],
					       metric_cnt);
			if (err)
				return err;
			r->iter_run[pooled->iter_cnt++] = (unsigned int)k;
		}
	}
	bc_stats_summarise(pooled);
	err = bc_figures_summarise(pooled);
	if (!err)
		err = bc_rep_pool_bpf(r, pooled);
	if (!err)
		err = bc_rep_warnings(r, pooled);
	return err;
}

/* The runs' statistics, over the complete runs' means. */
static int bc_rep_aggregate(struct bc_repeats *r, const struct bc_run_result *pooled)
{
	unsigned int metric_cnt = pooled->bench->desc.metric_cnt;
	double *xs = calloc(r->run_cnt ? r->run_cnt : 1, sizeof(*xs));
	size_t n;

	r->fig_cnt = pooled->figs ? pooled->figs->fig_cnt : 0;
	r->metrics = calloc(metric_cnt ? metric_cnt : 1, sizeof(*r->metrics));
	r->figs = calloc(r->fig_cnt ? r->fig_cnt : 1, sizeof(*r->figs));
	if (!xs || !r->metrics || !r->figs) {
		free(xs);
		return -ENOMEM;
	}
	for (unsigned int m = 0; m < metric_cnt; m++) {
		n = 0;
		for (size_t k = 0; k < r->run_cnt; k++)
			if (r->runs[k].exit_status == BC_EXIT_OK && r->runs[k].summary &&
			    pooled->bench->metrics[m].kind != BC_METRIC_HISTOGRAM)
				xs[n++] = r->runs[k].summary[m].mean;
		bc_rep_stats_compute(xs, n, &r->metrics[m]);
	}
	for (size_t f = 0; f < r->fig_cnt; f++) {
		const struct bc_figure *pf = &pooled->figs->figs[f];

		n = 0;
		for (size_t k = 0; k < r->run_cnt; k++) {
			const struct bc_run_result *run = &r->runs[k];
			const struct bc_figure *rf = run->figs && f < run->figs->fig_cnt
							     ? &run->figs->figs[f] : NULL;

			if (run->exit_status == BC_EXIT_OK && rf && !strcmp(rf->name, pf->name))
				xs[n++] = rf->value;
		}
		bc_rep_stats_compute(xs, n, &r->figs[f]);
	}
	free(xs);
	if (r->watched < 0)
		r->watched = bc_repeat_watched(pooled);
	if (r->watched >= 0 && r->metrics[r->watched].n >= 2)
		r->runs_needed = bc_rep_runs_needed(r->metrics[r->watched].cv_pct,
						    BC_REP_DETECT_CHANGE_PCT, BC_REP_DETECT_ALPHA,
						    BC_REP_DETECT_POWER);
	/* Beyond counting: unknown, as for a zero mean. */
	if (r->runs_needed == UINT_MAX)
		r->runs_needed = 0;
	return 0;
}

/* One line when the watched metric moved more between runs than a
 * comparison can afford, with what this machine shows as the likely cause. */
static int bc_rep_noise(const struct bc_rep_state *st, struct bc_run_result *pooled,
			const struct bc_noise_snap *before, const struct bc_noise_snap *after,
			const struct bc_noise_usage *use)
{
	const struct bc_repeats *r = &st->rep;
	const struct bc_rep_stats *w = r->watched >= 0 ? &r->metrics[r->watched] : NULL;
	char causes[768], line[BC_REP_WARN_LEN];

	if (!w || w->n < BC_REP_MIN_RUNS || !(w->cv_pct > BC_REP_NOISY_CV_PCT))
		return 0;
	if (bc_noise_causes("", before, after, use, causes, sizeof(causes)))
		snprintf(line, sizeof(line), "run-to-run CV of %s is %.1f%% over %u runs (above "
			 "%.0f%%); likely cause%s: %s", bc_rep_metric_name(st), w->cv_pct, w->n,
			 BC_REP_NOISY_CV_PCT, strchr(causes, ';') ? "s" : "", causes);
	else
		snprintf(line, sizeof(line), "run-to-run CV of %s is %.1f%% over %u runs (above "
			 "%.0f%%); no likely cause visible here (cpufreq governor, other "
			 "processes, hypervisor, thermal throttling and SMT checked)",
			 bc_rep_metric_name(st), w->cv_pct, w->n, BC_REP_NOISY_CV_PCT);
	return bc_rep_add_warning(pooled, line);
}

/* ------------------------------------------------------------ report */

static void bc_rep_status(const struct bc_rep_state *st, struct bc_run_result *pooled)
{
	const struct bc_repeats *r = &st->rep;
	const struct bc_run_result *last = r->run_cnt ? &r->runs[r->run_cnt - 1] : NULL;
	size_t k = r->run_cnt + (st->lost[0] ? 1 : 0);

	pooled->exit_status = BC_EXIT_OK;
	if (r->end == BC_REP_END_INTERRUPTED) {
		pooled->interrupted = true;
		pooled->exit_status = BC_EXIT_INTERRUPTED;
		snprintf(pooled->reason, sizeof(pooled->reason),
			 "interrupted by %s after %u complete run%s",
			 bc_rep_stop == SIGTERM ? "SIGTERM" :
			 bc_rep_stop == SIGHUP ? "SIGHUP" : "SIGINT", r->complete_cnt,
			 r->complete_cnt == 1 ? "" : "s");
	} else if (r->end == BC_REP_END_FAILED && st->lost[0]) {
		pooled->exit_status = st->lost_status;
		snprintf(pooled->reason, sizeof(pooled->reason), "run %zu %.960s", k, st->lost);
	} else if (r->end == BC_REP_END_FAILED && last) {
		pooled->exit_status = last->exit_status;
		/* Measured to the end, then teardown failed: reported as such. */
		pooled->cleanup_failed = last->cleanup_failed;
		/* The first run's refusal reads as a single run's would. */
		if (r->run_cnt == 1)
			snprintf(pooled->reason, sizeof(pooled->reason), "%s", last->reason);
		else
			snprintf(pooled->reason, sizeof(pooled->reason), "run %zu: %.960s",
				 r->run_cnt, last->reason);
	}
}

static bool bc_rep_pinned(const struct bc_config *cfg)
{
	return cfg->affinity || cfg->prod_cpus_set || cfg->cons_cpus_set;
}

static double bc_rep_children_cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru))
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static bool bc_rep_measured(const struct bc_run_result *res)
{
	for (size_t i = 0; i < res->iter_cnt; i++)
		if (!res->iters[i].warmup)
			return true;
	return false;
}

static void bc_rep_free(struct bc_repeats *r)
{
	for (size_t k = 0; k < r->run_cnt; k++)
		bc_run_result_free(&r->runs[k]);
	free(r->runs);
	free(r->run_sec);
	free(r->iter_run);
	free(r->metrics);
	free(r->figs);
	memset(r, 0, sizeof(*r));
}

int bc_repeat_run(const struct bc_run_request *req, const struct bc_bench *bench)
{
	const struct bc_config *cfg = &req->cfg;
	struct bc_rep_state st = { .cfg = cfg, .bench = bench };
	struct bc_noise_usage use = { .hz = sysconf(_SC_CLK_TCK) };
	struct bc_run_result pooled;
	struct bc_noise_snap before, after;
	struct bc_out out;
	double cpu0;
	int status, err;

	status = bc_out_open(&out, "--output", cfg->output_path);
	if (status)
		return status;
	/* As a single run: text progress beside the report, JSON alone. */
	st.progress = cfg->format == BC_FORMAT_JSON ? stderr : out.f;
	st.quiet = cfg->verbosity < 0;
	st.rep.watched = -1;
	st.rep.rule.repeat = req->repeat ? req->repeat : 1;
	st.rep.rule.precision_pct = req->precision_pct;
	st.rep.rule.max_time_sec = req->max_time_sec;
	st.rep.rule.max_repeat = req->max_repeat ? req->max_repeat : BC_REP_DEFAULT_MAX_REPEAT;
	if (st.rep.rule.max_repeat < st.rep.rule.repeat)
		st.rep.rule.max_repeat = st.rep.rule.repeat;

	bc_noise_snap("", &before);
	cpu0 = bc_rep_children_cpu();
	bc_rep_loop(&st);
	/* The runs' window only: what pooling costs is not the runs'. */
	bc_noise_snap("", &after);
	use.wall_sec = st.rep.elapsed_sec;
	use.own_cpu_sec = bc_rep_children_cpu() - cpu0;
	use.cpus = bc_sysinfo_online_cpus();
	use.pinned = bc_rep_pinned(cfg);

	err = bc_rep_pool(&st, &pooled);
	if (!err)
		err = bc_rep_aggregate(&st.rep, &pooled);
	if (!err)
		err = bc_rep_noise(&st, &pooled, &before, &after, &use);
	pooled.repeats = &st.rep;
	bc_rep_status(&st, &pooled);
	if (err) {
		bc_warn("out of memory for the runs' results");
		pooled.exit_status = BC_EXIT_FAILED;
	}
	status = bc_report_finish(&out, cfg, bench, &pooled, bc_rep_measured(&pooled));
	status = bc_baseline_after_run(req, &pooled, status);
	pooled.repeats = NULL;
	bc_run_result_free(&pooled);
	bc_rep_free(&st.rep);
	return status;
}
