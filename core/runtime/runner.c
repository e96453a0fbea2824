// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The runner owns threads and ticks: it checks the thread counts and CPUs,
 * calls validate -> probe -> setup, starts the consumers and then the
 * producers, samples once per second on absolute CLOCK_MONOTONIC deadlines
 * from the calling thread, and always tears down what setup made.
 *
 * The kernel runner samples from a SIGALRM handler; here the sampler is a
 * normal thread, so measure() and the progress callback may take locks,
 * allocate and print. Signal handlers only set a flag.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"
#include "cpuset.h"
#include "config.h"
#include "loader.h"
#include "context.h"
#include "result.h"
#include "stats.h"
#include "sysinfo.h"
#include "kernel_facts.h"
#include "exit_status.h"
#include "attach.h"
#include "bpf_source.h"
#include "bpf_stats.h"
#include "counters.h"
#include "needs.h"
#include "figures.h"
#include "guard.h"
#include "hist.h"
#include "log.h"
#include "skel.h"

#define BC_NSEC_PER_SEC 1000000000LL
/* The sampler wakes at least this often to notice a failed thread. */
#define BC_POLL_NS (100 * 1000 * 1000LL)
/* A tick later than this makes the interval's numbers suspect. */
#define BC_LATE_TICK_NS (1000 * 1000LL)

struct bc_run_state;

struct bc_worker {
	struct bc_run_state *st;
	struct bc_thread t;
	bool producer;
	bool started;
	pthread_t thread;
	int tid;			/* published by the thread itself */
	char who[32];			/* "producer 0", for the exit() guard */
	int err;
	/* Last CPU time read from /proc, in clock ticks. */
	unsigned long long utime, stime;
	clockid_t clk;			/* the thread's CPU-time clock */
	bool has_clk;
	long long cpu_ns;		/* last reading of clk */
	long long cpu_delta_ns;		/* clk since the reading before, or -1 */
};

struct bc_run_state {
	const struct bc_config *cfg;
	const struct bc_bench *bench;
	struct bc_ctx *ctx;
	struct bc_run_result *res;
	int stop;			/* what bc_thread.stop points at */
	int failed;			/* first failure wins */
	int fail_err;
	unsigned int ready;		/* threads that published their tid */
	/* The start gate: workers wait here until all of them exist, so that
	 * hundreds of spinning threads do not starve the one creating them. */
	pthread_mutex_t gate_lock;
	pthread_cond_t gate;
	bool go;
	struct bc_worker *workers;	/* consumers first, then producers */
	unsigned int worker_cnt;
	long clk_tck;
};

/* The stop signal received (0: none): the guard's watcher thread reads
 * them, whatever the plugin did to the signals (guard.h). */
#define bc_signalled bc_guard_signals_taken()
/* A thread the main thread joins is reported late after this long. */
#define BC_JOIN_LATE_SEC 2

static long long bc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * BC_NSEC_PER_SEC + ts.tv_nsec;
}

static int bc_add_warning(struct bc_run_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bc_add_warning(struct bc_run_result *res, const char *fmt, ...)
{
	char buf[512], **w;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	w = realloc(res->warnings, (res->warning_cnt + 1) * sizeof(*w));
	if (!w)
		return -ENOMEM;
	res->warnings = w;
	w[res->warning_cnt] = strdup(buf);
	if (!w[res->warning_cnt])
		return -ENOMEM;
	res->warning_cnt++;
	return 0;
}

/* Records the first failure; later ones are usually its consequences. */
static void bc_fail(struct bc_run_state *st, int err, const char *who)
{
	char reason[BC_REASON_LEN];
	int expected = 0;

	if (!__atomic_compare_exchange_n(&st->failed, &expected, 1, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		goto stop;
	st->fail_err = err;
	bc_ctx_reason_copy(st->ctx, reason, sizeof(reason));
	if (reason[0])
		snprintf(st->res->reason, sizeof(st->res->reason), "%s: %.960s", who, reason);
	else
		snprintf(st->res->reason, sizeof(st->res->reason), "%s failed: %s", who,
			 strerror(err < 0 ? -err : err));
stop:
	__atomic_store_n(&st->stop, 1, __ATOMIC_RELEASE);
}

static void *bc_worker_main(void *arg)
{
	struct bc_worker *w = arg;
	struct bc_run_state *st = w->st;
	char who[48];
	int err;

	__atomic_store_n(&w->tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	__atomic_add_fetch(&st->ready, 1, __ATOMIC_ACQ_REL);
	pthread_mutex_lock(&st->gate_lock);
	while (!st->go)
		pthread_cond_wait(&st->gate, &st->gate_lock);
	pthread_mutex_unlock(&st->gate_lock);

	bc_guard_thread_begin();
	bc_guard_enter(w->who, false);
	if (w->producer)
		err = st->bench->desc.producer(st->ctx, &w->t);
	else
		err = st->bench->desc.consumer(st->ctx, &w->t);
	bc_guard_leave();
	bc_guard_thread_end();
	w->err = err;
	if (err) {
		snprintf(who, sizeof(who), "%s %u", w->producer ? "producer" : "consumer",
			 w->t.idx);
		bc_fail(st, err, who);
	}
	return NULL;
}

/* ---------------------------------------------------------- checks */

static int bc_check_range(struct bc_ctx *ctx, const char *opt, const char *what,
			  unsigned int cnt, const struct bc_thread_range *r, const char *bench)
{
	/* "exactly 1 consumer", "1 to 4 producers" */
	const char *s_max = r->max == 1 ? "" : "s", *s_min = r->min == 1 ? "" : "s";

	if (cnt >= r->min && (!r->max || cnt <= r->max))
		return 0;
	if (r->max == r->min)
		return bc_usage_error(ctx, "%s %u: benchmark '%s' runs with exactly %u %s%s",
				      opt, cnt, bench, r->min, what, s_min);
	if (!r->max)
		return bc_usage_error(ctx, "%s %u: benchmark '%s' needs at least %u %s%s", opt,
				      cnt, bench, r->min, what, s_min);
	return bc_usage_error(ctx, "%s %u: benchmark '%s' runs with %u to %u %s%s", opt, cnt,
			      bench, r->min, r->max, what, s_max);
}

static int bc_check_threads(struct bc_run_state *st)
{
	const struct bc_bench_desc *d = &st->bench->desc;
	struct bc_ctx *ctx = st->ctx;
	int err;

	err = bc_check_range(ctx, "--producers", "producer", ctx->producer_cnt, &d->producers,
			     d->name);
	if (!err)
		err = bc_check_range(ctx, "--consumers", "consumer", ctx->consumer_cnt,
				     &d->consumers, d->name);
	if (err)
		return err;
	/* A descriptor bug, not the user's: exit status 1. */
	if (ctx->producer_cnt && !d->producer)
		return bc_error(ctx, -EINVAL, "benchmark '%s' has no producer callback", d->name);
	/* The loader refuses a consumer-less descriptor that wants consumers,
	 * so here the count came from -c: the user's error (status 2). */
	if (ctx->consumer_cnt && !d->consumer)
		return bc_usage_error(ctx, "--consumers %u: benchmark '%s' runs producers only; expected 0",
				      ctx->consumer_cnt, d->name);
	if (d->metric_cnt && !d->measure && !bc_bench_measured_by_core(st->bench))
		return bc_error(ctx, -EINVAL, "benchmark '%s' has metrics but no measure callback",
				d->name);
	if (st->cfg->duration_sec <= 0)
		return bc_usage_error(ctx, "--duration %g: expected a positive number of seconds",
				      st->cfg->duration_sec);
	if (st->cfg->warmup_sec < 0)
		return bc_usage_error(ctx, "--warmup %g: expected 0 or more seconds",
				      st->cfg->warmup_sec);
	return 0;
}

/*
 * The kernel runner's scheme: with -a consumers take CPUs 0, 1, ... and
 * producers the ones after the last consumer; an explicit set is used in
 * order. More threads than a set has CPUs is refused rather than doubled up,
 * since two threads sharing a CPU measure something else.
 */
static int bc_assign_set(struct bc_ctx *ctx, struct bc_worker *w, unsigned int cnt,
			 const struct bc_cpuset *set, bool use_set, const char *opt,
			 const char *what, int *next)
{
	char list[256];
	unsigned int i;

	if (use_set && cnt > set->cnt) {
		bc_cpuset_format(set, list, sizeof(list));
		return bc_usage_error(ctx, "%s '%s': %u %s need %u CPUs, the set has %u", opt,
				      list, cnt, what, cnt, set->cnt);
	}
	for (i = 0; i < cnt; i++) {
		w[i].t.cpu = use_set ? (int)set->cpus[i] : (*next)++;
		if (use_set)
			*next = w[i].t.cpu + 1;
	}
	return 0;
}

static int bc_assign_cpus(struct bc_run_state *st)
{
	const struct bc_config *cfg = st->cfg;
	struct bc_ctx *ctx = st->ctx;
	struct bc_worker *cons = st->workers, *prod = st->workers + ctx->consumer_cnt;
	char allowed_list[256];
	struct bc_cpuset allowed;
	unsigned int i;
	int next = 0, err, c;

	for (i = 0; i < st->worker_cnt; i++)
		st->workers[i].t.cpu = -1;
	if (!cfg->affinity && !cfg->prod_cpus_set && !cfg->cons_cpus_set)
		return 0;

	err = bc_assign_set(ctx, cons, ctx->consumer_cnt, &cfg->cons_cpus, cfg->cons_cpus_set,
			    "--cons-affinity", "consumers", &next);
	if (!err)
		err = bc_assign_set(ctx, prod, ctx->producer_cnt, &cfg->prod_cpus,
				    cfg->prod_cpus_set, "--prod-affinity", "producers", &next);
	if (err)
		return err;

	err = bc_cpuset_usable(&allowed);
	if (err)
		return bc_error(ctx, err, "cannot read this process's CPU affinity: %s",
				strerror(-err));
	bc_cpuset_format(&allowed, allowed_list, sizeof(allowed_list));

	for (i = 0; i < st->worker_cnt; i++) {
		struct bc_worker *w = &st->workers[i];
		const char *opt;

		c = w->t.cpu;
		if (c >= 0 && bc_cpuset_has(&allowed, (unsigned int)c))
			continue;
		if (w->producer)
			opt = cfg->prod_cpus_set ? "--prod-affinity" : "--affinity";
		else
			opt = cfg->cons_cpus_set ? "--cons-affinity" : "--affinity";
		return bc_usage_error(ctx,
				      "%s: %s %u would run on CPU %d, which this process cannot use "
				      "(usable CPUs: %s); ask for fewer threads or other CPUs",
				      opt, w->producer ? "producer" : "consumer", w->t.idx, c,
				      allowed_list);
	}
	return 0;
}

/* ------------------------------------------------------------ CPU time */

/*
 * Per-thread CPU time: the total from the thread's CPU-time clock
 * (pthread_getcpuclockid, nanoseconds), split into user and system time by
 * the ratio /proc/self/task/<tid>/stat gives. The clock alone has no split,
 * and the split is the point (a consumer spinning in poll() is system
 * time); /proc alone counts in clock ticks, 10 ms in a 1 s interval, too
 * coarse for a consumer that mostly sleeps.
 */
static int bc_read_thread_times(int tid, unsigned long long *ut, unsigned long long *stt)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = (ssize_t)fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	/* The command name may hold spaces and ')': fields start after the last. */
	p = strrchr(buf, ')');
	if (!p)
		return -EIO;
	p++;
	/* Fields 3..13 precede utime (14) and stime (15). */
	for (i = 0; i < 11; i++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -EIO;
	}
	if (sscanf(p, " %llu %llu", ut, stt) != 2)
		return -EIO;
	return 0;
}

/*
 * Each worker's CPU time since the last reading, from its CPU-time clock:
 * fast (no /proc), so it fits between the sampler's two clock reads with
 * measure(), and the interval's counts and CPU time share one time span.
 */
static void bc_read_cpu_clocks(struct bc_run_state *st)
{
	unsigned int i;

	for (i = 0; i < st->worker_cnt; i++) {
		struct bc_worker *w = &st->workers[i];
		struct timespec ts;
		long long ns;

		w->cpu_delta_ns = -1;
		/* A thread that already returned keeps its last reading. */
		if (!w->started || !w->has_clk || clock_gettime(w->clk, &ts))
			continue;
		ns = (long long)ts.tv_sec * BC_NSEC_PER_SEC + ts.tv_nsec;
		w->cpu_delta_ns = ns >= w->cpu_ns ? ns - w->cpu_ns : 0;
		w->cpu_ns = ns;
	}
}

/*
 * Adds each worker's CPU time read by bc_read_cpu_clocks() to the
 * iteration, split into user and system time by /proc's ratio (read after
 * the bracket: only the ratio comes from there).
 */
static void bc_sample_cpu(struct bc_run_state *st, struct bc_iteration *it)
{
	double tck = (double)st->clk_tck;
	unsigned int i;

	for (i = 0; i < st->worker_cnt; i++) {
		struct bc_worker *w = &st->workers[i];
		unsigned long long ut = w->utime, stt = w->stime;
		double du, ds, total, user_frac;
		int tid;

		tid = w->started ? __atomic_load_n(&w->tid, __ATOMIC_ACQUIRE) : 0;
		if (!tid || bc_read_thread_times(tid, &ut, &stt)) {
			/* Gone from /proc: the clock's reading, all user time
			 * unless an earlier reading said otherwise. */
			if (it && w->cpu_delta_ns > 0) {
				total = (double)w->cpu_delta_ns / BC_NSEC_PER_SEC;
				user_frac = w->utime + w->stime
						    ? (double)w->utime / (double)(w->utime + w->stime)
						    : 1;
				goto add;
			}
			continue;
		}
		du = ut >= w->utime ? (double)(ut - w->utime) / tck : 0;
		ds = stt >= w->stime ? (double)(stt - w->stime) / tck : 0;
		w->utime = ut;
		w->stime = stt;

		total = w->cpu_delta_ns >= 0 ? (double)w->cpu_delta_ns / BC_NSEC_PER_SEC : du + ds;
		/* No tick in this interval: the thread's ratio so far. */
		if (du + ds > 0)
			user_frac = du / (du + ds);
		else if (ut + stt > 0)
			user_frac = (double)ut / (double)(ut + stt);
		else
			user_frac = 1;
add:
		if (!it)
			continue;
		if (w->producer) {
			it->prod_user_sec += total * user_frac;
			it->prod_sys_sec += total * (1 - user_frac);
		} else {
			it->cons_user_sec += total * user_frac;
			it->cons_sys_sec += total * (1 - user_frac);
		}
	}
}

/* ------------------------------------------------------------- threads */

/* Only before the threads start: nothing else writes the ctx then. */
static void bc_ctx_clear_reason(struct bc_ctx *ctx)
{
	ctx->reason[0] = '\0';
	ctx->unavailable = false;
	ctx->usage_error = false;
}

static int bc_start_threads(struct bc_run_state *st)
{
	sigset_t block, old;
	unsigned int i;
	int err = 0;

	/* Ctrl-C must reach the sampler (its sleep returns EINTR at once), not
	 * a producer in a tight loop: workers start with the signals blocked. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);

	for (i = 0; i < st->worker_cnt; i++) {
		struct bc_worker *w = &st->workers[i];
		pthread_attr_t attr;

		pthread_attr_init(&attr);
		/* Pinned from birth, so no instruction runs elsewhere. */
		if (w->t.cpu >= 0)
			err = bc_cpuset_pin_attr(&attr, (unsigned int)w->t.cpu);
		if (!err)
			err = pthread_create(&w->thread, &attr, bc_worker_main, w);
		pthread_attr_destroy(&attr);
		if (err) {
			if (w->t.cpu >= 0)
				bc_error(st->ctx, -err, "cannot start %s %u on CPU %d: %s",
					 w->producer ? "producer" : "consumer", w->t.idx, w->t.cpu,
					 strerror(err));
			else
				bc_error(st->ctx, -err, "cannot start %s %u: %s",
					 w->producer ? "producer" : "consumer", w->t.idx,
					 strerror(err));
			err = -err;
			break;
		}
		w->started = true;
		w->has_clk = !pthread_getcpuclockid(w->thread, &w->clk);
		if (w->t.cpu >= 0)
			bc_debug("%s %u pinned to CPU %d", w->producer ? "producer" : "consumer",
				 w->t.idx, w->t.cpu);
	}

	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

/* Lets the workers waiting at the start gate into their callbacks. */
static void bc_open_gate(struct bc_run_state *st)
{
	pthread_mutex_lock(&st->gate_lock);
	st->go = true;
	pthread_cond_broadcast(&st->gate);
	pthread_mutex_unlock(&st->gate_lock);
}

/* Joins thread within sec seconds; true if it is still running. */
static bool bc_join_late(pthread_t thread, int sec)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += sec;
	return pthread_timedjoin_np(thread, NULL, &ts) == ETIMEDOUT;
}

static void bc_join_threads(struct bc_run_state *st)
{
	unsigned int i;

	__atomic_store_n(&st->stop, 1, __ATOMIC_RELEASE);
	/* Threads still at the gate (a later one failed to start) see the
	 * stop flag at once. */
	bc_open_gate(st);
	for (i = 0; i < st->worker_cnt; i++) {
		if (!st->workers[i].started)
			continue;
		/* A thread that ignores the stop flag blocks the run here:
		 * after a while say which one, and wait on. */
		bc_guard_enter(st->workers[i].who, true);
		if (bc_join_late(st->workers[i].thread, BC_JOIN_LATE_SEC)) {
			bc_guard_late(st->workers[i].who, BC_JOIN_LATE_SEC);
			pthread_join(st->workers[i].thread, NULL);
		}
		bc_guard_leave();
		st->workers[i].started = false;
	}
}

/* Waits until every started thread has published its tid (for CPU time). */
static void bc_wait_ready(struct bc_run_state *st, unsigned int started)
{
	struct timespec ms = { .tv_nsec = 1000 * 1000 };

	while (__atomic_load_n(&st->ready, __ATOMIC_ACQUIRE) < started &&
	       !__atomic_load_n(&st->failed, __ATOMIC_ACQUIRE))
		nanosleep(&ms, NULL);
}

/* ------------------------------------------------------------ sampling */

static bool bc_should_stop(struct bc_run_state *st)
{
	return bc_signalled || __atomic_load_n(&st->failed, __ATOMIC_ACQUIRE);
}

/* Sleeps until the absolute deadline; false if the run must end first. */
static bool bc_sleep_until(struct bc_run_state *st, long long deadline)
{
	for (;;) {
		long long now = bc_now_ns(), wake;
		struct timespec ts;

		if (bc_should_stop(st))
			return false;
		if (now >= deadline)
			return true;
		wake = deadline - now > BC_POLL_NS ? now + BC_POLL_NS : deadline;
		ts.tv_sec = wake / BC_NSEC_PER_SEC;
		ts.tv_nsec = wake % BC_NSEC_PER_SEC;
		/* EINTR (a signal) loops back to the flag check. */
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

static bool bc_has_hists(const struct bc_bench *b)
{
	unsigned int m;

	for (m = 0; m < b->desc.metric_cnt; m++)
		if (b->metrics[m].kind == BC_METRIC_HISTOGRAM)
			return true;
	return false;
}

static int bc_alloc_iters(struct bc_run_result *res, size_t cnt, unsigned int metric_cnt)
{
	size_t i, per = metric_cnt ? metric_cnt : 1;
	bool hists = bc_has_hists(res->bench);

	res->iters = calloc(cnt ? cnt : 1, sizeof(*res->iters));
	if (!res->iters)
		return -ENOMEM;
	res->iter_cap = cnt;
	for (i = 0; i < cnt; i++) {
		res->iters[i].values = calloc(per, sizeof(double));
		res->iters[i].rates = calloc(per, sizeof(double));
		if (!res->iters[i].values || !res->iters[i].rates)
			return -ENOMEM;
		if (hists) {
			res->iters[i].hists = calloc(per, sizeof(*res->iters[i].hists));
			if (!res->iters[i].hists)
				return -ENOMEM;
		}
	}
	return bc_figures_init(res, cnt);
}

/* Before setup(), so that the plugin can look them up there. */
static int bc_alloc_hists(struct bc_run_state *st)
{
	const struct bc_bench *b = st->bench;
	struct bc_ctx *ctx = st->ctx;
	unsigned int m;

	if (!bc_has_hists(b))
		return 0;
	ctx->hists = calloc(b->desc.metric_cnt, sizeof(*ctx->hists));
	if (!ctx->hists)
		return bc_error(ctx, -ENOMEM, "out of memory for histograms");
	ctx->hist_cnt = b->desc.metric_cnt;
	for (m = 0; m < b->desc.metric_cnt; m++) {
		if (b->metrics[m].kind != BC_METRIC_HISTOGRAM)
			continue;
		ctx->hists[m] = bc_hist_new(ctx->producer_cnt, ctx->consumer_cnt);
		if (!ctx->hists[m])
			return bc_error(ctx, -ENOMEM, "out of memory for histogram '%s'",
					b->metrics[m].name);
	}
	return 0;
}

/* What each histogram recorded since the last call (NULL it: dropped). */
static int bc_collect_hists(struct bc_run_state *st, struct bc_iteration *it)
{
	struct bc_ctx *ctx = st->ctx;
	struct bc_hist_interval scratch;
	unsigned int m;
	int err;

	for (m = 0; ctx->hists && m < ctx->hist_cnt; m++) {
		if (!ctx->hists[m])
			continue;
		err = bc_hist_collect(ctx->hists[m], it ? &it->hists[m] : &scratch);
		if (err)
			return err;
		if (!it)
			bc_hist_interval_free(&scratch);
	}
	return 0;
}

/* measure()'s totals may be at most this large: a count, a sum of ns. */
#define BC_VALUE_MAX 18446744073709551616.0	/* 2^64 */

/* The word for a total's kind in the lines below. */
static const char *bc_total_word(enum bc_metric_kind kind)
{
	switch (kind) {
	case BC_METRIC_COUNTER:
		return "counter";
	case BC_METRIC_TIME_PER_OP:
		return "time-per-op";
	default:
		return "ratio";
	}
}

/*
 * What measure() returned must be something measured: finite, within a
 * 64-bit count, and for a counter or ratio total never below the last
 * reading. Anything else is a plugin bug that would print as "nan" or a
 * rate nobody measured, so the run stops there, keeping the intervals
 * before it, and says which metric and value.
 */
static int bc_check_values(struct bc_run_state *st, const double *values, const double *prev,
			   const double *ops, const double *prev_ops)
{
	const struct bc_bench *b = st->bench;
	unsigned int m;

	for (m = 0; m < b->desc.metric_cnt; m++) {
		const struct bc_metric_desc *md = &b->metrics[m];
		double v = values[m];

		/* A count of operations that went down would make a
		 * negative time per operation. */
		if (md->kind == BC_METRIC_TIME_PER_OP && prev_ops && ops[m] < prev_ops[m])
			return bc_error(st->ctx, -ERANGE,
					"time-per-op metric '%s': its operation count (bpf_per '%s') went down from %.17g to %.17g; a total never does (the run stops here)",
					md->name, md->bpf_per, prev_ops[m], ops[m]);

		if (md->kind == BC_METRIC_HISTOGRAM)
			continue;
		if (!isfinite(v) || fabs(v) >= BC_VALUE_MAX)
			return bc_error(st->ctx, -ERANGE,
					"metric '%s' read %g, which is not a measurement (a finite value below 2^64 expected); the run stops here",
					md->name, v);
		if (md->kind == BC_METRIC_GAUGE)
			continue;
		if (v < 0)
			return bc_error(st->ctx, -ERANGE,
					"%s metric '%s' read %.17g; a total is 0 or more",
					bc_total_word(md->kind), md->name, v);
		if (prev && v < prev[m])
			return bc_error(st->ctx, -ERANGE,
					"%s metric '%s' went down from %.17g to %.17g; a total never does (the run stops here)",
					bc_total_word(md->kind), md->name, prev[m], v);
	}
	return 0;
}

/*
 * One reading of everything an interval is made of, between two clock
 * reads: the counters (measure()), the programs' counters, the threads'
 * CPU clocks and the histograms. Every reading, the baseline included,
 * takes them in this order, so an interval's counts were all taken between
 * the previous reading's first clock read and this one's last: that span
 * is the interval's length. A sampler the scheduler starves mid-reading
 * then makes the interval longer, never its counts larger than its time.
 */
static int bc_read_all(struct bc_run_state *st, struct bc_iteration *it, double *values,
		       const double *prev, double *ops, const double *prev_ops, long long *t0,
		       long long *t1)
{
	const struct bc_bench_desc *d = &st->bench->desc;
	struct bc_run_result *res = st->res;
	int err;

	*t0 = bc_now_ns();
	err = 0;
	if (d->measure) {
		bc_guard_enter("measure", true);
		err = d->measure(st->ctx, values);
		bc_guard_leave();
	}
	if (!err && st->ctx->bpf_srcs) {
		bc_bpf_src_read(st->ctx, values, ops);
		err = bc_bpf_src_read_hists(st->ctx);
	}
	if (!err)
		bc_thread_counts_read(st->ctx, values);
	/* A thread asked for a counter no metric has (bc_thread_counter()):
	 * the run stops at the next reading, with the thread's words. */
	if (!err && __atomic_load_n(&st->ctx->thread_bug, __ATOMIC_ACQUIRE)) {
		bc_fail(st, st->ctx->thread_bug, "thread");
		return st->ctx->thread_bug;
	}
	if (!err && (d->measure || st->ctx->bpf_srcs || st->ctx->thread_counts))
		err = bc_check_values(st, values, prev, ops, prev_ops);
	if (err) {
		bc_fail(st, err, "measure");
		return err;
	}
	if (!it && res->bpf && res->bpf->refused[0] && st->ctx->prog_cnt) {
		err = bc_unavailable(st->ctx, "%s", res->bpf->refused);
		bc_fail(st, err, "setup");
		return err;
	}
	if (it) {
		bc_bpf_stats_sample(res->bpf, st->ctx, res->iter_cnt);
	} else if (res->bpf && bc_bpf_stats_start(res->bpf, st->ctx, res->iter_cap)) {
		err = bc_error(st->ctx, -ENOMEM, "out of memory for --bpf-stats");
		bc_fail(st, err, "sampler");
		return err;
	}
	bc_read_cpu_clocks(st);
	err = bc_collect_hists(st, it);
	*t1 = bc_now_ns();
	if (err) {
		err = bc_error(st->ctx, -ENOMEM, "out of memory for histogram samples");
		bc_fail(st, err, "sampler");
		return err;
	}
	/* Only the user/system split comes from /proc: after the bracket. */
	bc_sample_cpu(st, it);
	return 0;
}

static int bc_sample(struct bc_run_state *st, bc_iter_cb on_iter, void *cookie)
{
	const struct bc_bench_desc *d = &st->bench->desc;
	struct bc_run_result *res = st->res;
	unsigned int warm_ticks, total_ticks, m, k, slow_reads = 0;
	long long start, prev, t0, t1, worst_late = 0, worst_read = 0;
	double *prev_values, *ops, *prev_ops, *swap;
	int err = 0;

	warm_ticks = (unsigned int)ceil(st->cfg->warmup_sec - 1e-9);
	total_ticks = warm_ticks + (unsigned int)ceil(st->cfg->duration_sec - 1e-9);
	if (total_ticks == warm_ticks)
		total_ticks++;

	bc_debug("sampling %u ticks (%u warm-up), 1 s apart on CLOCK_MONOTONIC", total_ticks,
		 warm_ticks);
	err = bc_alloc_iters(res, total_ticks, d->metric_cnt);
	prev_values = calloc(d->metric_cnt ? d->metric_cnt : 1, sizeof(double));
	/* A time per operation's operation counts, this tick's and the last:
	 * the sampler's alone, since no metric shows them. */
	ops = calloc(d->metric_cnt ? d->metric_cnt : 1, sizeof(double));
	prev_ops = calloc(d->metric_cnt ? d->metric_cnt : 1, sizeof(double));
	if (err || !prev_values || !ops || !prev_ops) {
		free(prev_values);
		free(ops);
		free(prev_ops);
		return bc_error(st->ctx, -ENOMEM, "out of memory for %u iterations", total_ticks);
	}

	/* The baseline: counters are totals since setup, rates are deltas. */
	err = bc_read_all(st, NULL, prev_values, NULL, prev_ops, NULL, &t0, &t1);
	if (err)
		goto out;
	start = prev = t0;

	for (k = 1; k <= total_ticks; k++) {
		long long deadline = start + (long long)k * BC_NSEC_PER_SEC;
		struct bc_iteration *it = &res->iters[res->iter_cnt];

		if (!bc_sleep_until(st, deadline))
			break;
		err = bc_read_all(st, it, it->values, prev_values, ops, prev_ops, &t0, &t1);
		if (err)
			break;

		it->idx = (unsigned int)res->iter_cnt;
		it->warmup = k <= warm_ticks;
		it->length_sec = (double)(t1 - prev) / BC_NSEC_PER_SEC;
		it->drift_us = (double)(t0 - deadline) / 1000.0;
		if (t0 - deadline > BC_LATE_TICK_NS) {
			res->ticks_late++;
			if (t0 - deadline > worst_late)
				worst_late = t0 - deadline;
		}
		if (t1 - t0 > BC_LATE_TICK_NS) {
			slow_reads++;
			if (t1 - t0 > worst_read)
				worst_read = t1 - t0;
		}
		bc_figures_rates(res, it, prev_values, ops, prev_ops);
		for (m = 0; m < d->metric_cnt; m++)
			prev_values[m] = it->values[m];
		swap = prev_ops;
		prev_ops = ops;
		ops = swap;
		prev = t0;
		res->iter_cnt++;
		/* The progress line below prints this interval's figures. */
		bc_figures_iter(res, res->iter_cnt - 1);
		if (on_iter)
			on_iter(res, res->iter_cnt - 1, cookie);
	}

	if (res->ticks_late)
		bc_add_warning(res, "%u of %zu ticks woke more than 1 ms late (worst %.3f ms): "
			       "the machine was busy; each interval is normalised by its "
			       "measured length, but the numbers are noisier",
			       res->ticks_late, res->iter_cnt, (double)worst_late / 1e6);
	if (slow_reads)
		bc_add_warning(res, "%u of %zu readings of the counters took more than 1 ms "
			       "(worst %.3f ms): the sampler was starved; each interval spans "
			       "its readings, so its rates are lower bounds",
			       slow_reads, res->iter_cnt, (double)worst_read / 1e6);
out:
	free(prev_values);
	free(ops);
	free(prev_ops);
	return err;
}

/* ----------------------------------------------------------------- run */

/* Emulation, a debug kernel, no JIT (kernel_facts.h): read before the
 * run, never inside it. */
static void bc_kernel_warnings(struct bc_run_result *res)
{
	char lines[4][320];
	size_t n = bc_kernel_facts_warnings(bc_kernel_facts(), lines, 4);

	for (size_t i = 0; i < n; i++)
		bc_add_warning(res, "%s", lines[i]);
}

static void bc_environment_warnings(struct bc_run_state *st)
{
	unsigned int online = bc_sysinfo_online_cpus();
	unsigned int threads = st->worker_cnt;
	struct bc_cpuset usable;

	/* taskset or a cgroup may leave fewer CPUs than are online. */
	if (!bc_cpuset_usable(&usable) && usable.cnt > 0 && usable.cnt < online)
		online = usable.cnt;

	if (bc_sysinfo_hypervisor())
		bc_add_warning(st->res, "running under a hypervisor: other guests and the host "
			       "share these CPUs, so numbers move between runs");
	bc_kernel_warnings(st->res);
	/* The sampler sleeps; only the benchmark's own threads compete. */
	if (threads > online)
		bc_add_warning(st->res, "%u threads (%u producers, %u consumers) on %u usable "
			       "CPUs: threads share CPUs, so the rates measure the scheduler too",
			       threads, st->ctx->producer_cnt, st->ctx->consumer_cnt, online);
}

static void bc_init_workers(struct bc_run_state *st)
{
	unsigned int i;

	for (i = 0; i < st->worker_cnt; i++) {
		struct bc_worker *w = &st->workers[i];

		w->st = st;
		w->producer = i >= st->ctx->consumer_cnt;
		w->t.sz = sizeof(w->t);
		/* Which shard and counter is the thread's (hist.c, counters.c). */
		w->t.consumer = !w->producer;
		w->t.idx = w->producer ? i - st->ctx->consumer_cnt : i;
		w->t.cpu = -1;
		w->t.stop = &st->stop;
		snprintf(w->who, sizeof(w->who), "%s %u", w->producer ? "producer" : "consumer",
			 w->t.idx);
	}
}

/* Statistics over what was measured: before teardown, which cannot change
 * them, so that a teardown that calls exit() still leaves a report. */
static void bc_run_summarise(struct bc_run_result *res)
{
	bc_stats_summarise(res);
	if (bc_figures_summarise(res))
		bc_warn("out of memory for the derived figures: reports lack them");
	if (res->bpf && bc_bpf_stats_compute(res->bpf, res->iters, res->iter_cnt,
					     res->producer_cnt))
		bc_warn("out of memory for the --bpf-stats figures: reports lack them");
	if (res->bpf && res->bpf->read_errors)
		bc_add_warning(res, "--bpf-stats: %u readings of the programs' counters failed; "
			       "the intervals they end have no statistics", res->bpf->read_errors);
}

/* A callback the main thread waits on (guard.h). */
static int bc_call(struct bc_ctx *ctx, int (*fn)(struct bc_ctx *ctx), const char *name)
{
	int err;

	bc_guard_enter(name, true);
	err = fn(ctx);
	bc_guard_leave();
	return err;
}

static int bc_call_quick(struct bc_ctx *ctx, const struct bc_bench *bench)
{
	int err;

	bc_guard_enter("quick_probe", true);
	err = bc_bench_quick_probe(ctx, bench);
	bc_guard_leave();
	return err;
}

/*
 * The --bpf-stats refusal held back for a benchmark that might load no BPF
 * comes first once its probe or setup fails: without CAP_SYS_ADMIN its
 * programs may be refused too (Linux 6.1 refuses trig-rawtp's raw_tp), and
 * "unavailable on this kernel" alone would blame the kernel for the
 * privilege. Returns the error to go on with.
 */
static int bc_refusal_first(struct bc_run_state *st, struct bc_run_result *res, int err,
			    const char *what)
{
	char why[sizeof(res->bpf->refused)];

	if (!err || !res->bpf || !res->bpf->refused[0])
		return err;
	bc_ctx_reason_copy(st->ctx, why, sizeof(why));
	return bc_unavailable(st->ctx, "%s; %s then failed: %s", res->bpf->refused, what, why);
}

int bc_run(const struct bc_config *cfg, const struct bc_bench *bench, struct bc_run_result *res,
	   bc_iter_cb on_iter, void *cookie)
{
	struct bc_run_state st;
	unsigned int strays;
	bool set_up = false, summarised = false;
	int err;

	memset(res, 0, sizeof(*res));
	memset(&st, 0, sizeof(st));
	res->bench = bench;
	bc_guard_set_bench(bench->plugin ? bench->plugin->desc.name : "?", bench->desc.name);
	res->owned_ctx = calloc(1, sizeof(*res->owned_ctx));
	if (!res->owned_ctx) {
		res->exit_status = BC_EXIT_FAILED;
		snprintf(res->reason, sizeof(res->reason), "out of memory");
		return -ENOMEM;
	}
	res->ctx = res->owned_ctx;
	bc_ctx_init(res->ctx, cfg, bench);
	res->producer_cnt = res->ctx->producer_cnt;
	res->consumer_cnt = res->ctx->consumer_cnt;

	st.cfg = cfg;
	pthread_mutex_init(&st.gate_lock, NULL);
	pthread_cond_init(&st.gate, NULL);
	st.bench = bench;
	st.ctx = res->ctx;
	st.res = res;
	st.clk_tck = sysconf(_SC_CLK_TCK);
	if (st.clk_tck <= 0)
		st.clk_tck = 100;
	st.worker_cnt = res->producer_cnt + res->consumer_cnt;
	st.workers = calloc(st.worker_cnt ? st.worker_cnt : 1, sizeof(*st.workers));
	if (!st.workers) {
		err = bc_error(st.ctx, -ENOMEM, "out of memory");
		goto done;
	}
	bc_init_workers(&st);

	/* From here on the stop signals are the watcher's (guard.h): no
	 * callback can ignore, block or catch them. */
	err = bc_guard_signals_start();
	if (err) {
		err = bc_error(st.ctx, err, "cannot watch for SIGINT and SIGTERM: %s",
			       strerror(-err));
		goto done;
	}
	bc_guard_reap_begin();

	/* Everything the user can get wrong is refused before anything starts. */
	err = bc_check_threads(&st);
	if (!err)
		err = bc_assign_cpus(&st);
	/* Usage errors first: a bad option is exit 2 whatever this kernel
	 * supports, and is found without loading anything. */
	if (!err && bench->desc.validate)
		err = bc_call(st.ctx, bench->desc.validate, "validate");
	/* Before the probe: a refusal loads nothing, says so whatever else
	 * this process may lack (older kernels refuse some program types
	 * without CAP_SYS_ADMIN too), and the programs' counters run from
	 * their baseline on. */
	if (!err && cfg->bpf_stats)
		err = bc_bpf_stats_enable_opt(st.ctx, &res->bpf,
					      !bench->desc.attach_point_cnt && !bench->desc.need_cnt);
	if (!err && bench->desc.probe) {
		err = bc_call(st.ctx, bench->desc.probe, "probe");
		/* A probe leaves nothing loaded, the core's skeleton included. */
		bc_skel_destroy(st.ctx);
		err = bc_refusal_first(&st, res, err, "probe");
	}
	/* No probe(): what the benchmark declares it needs is all there is
	 * to check before setup(). */
	else if (!err && bc_bench_has_quick(bench))
		err = bc_call_quick(st.ctx, bench);
	if (err)
		goto restore;

	bc_environment_warnings(&st);

	err = bc_alloc_hists(&st);
	if (!err)
		err = bc_thread_counts_alloc(st.ctx);
	if (err)
		goto restore;

	set_up = true;
	if (bench->desc.setup)
		err = bc_call(st.ctx, bench->desc.setup, "setup");
	/* ABI 2.2: the descriptor's attach ladder, then what the metrics
	 * read from the BPF object it loaded. */
	if (!err)
		err = bc_attach_ladder(st.ctx, true);
	if (!err)
		err = bc_bpf_src_resolve(st.ctx);
	err = bc_refusal_first(&st, res, err, "setup");
	if (err || bc_signalled)
		goto teardown;
	/* A probe that fell back (its refused candidates said so in ctx) still
	 * succeeded: a later failure must not inherit that reason or flag. */
	bc_ctx_clear_reason(st.ctx);

	err = bc_start_threads(&st);
	if (!err) {
		bc_wait_ready(&st, st.worker_cnt);
		bc_open_gate(&st);
		err = bc_sample(&st, on_iter, cookie);
	}
	bc_join_threads(&st);
	/* A thread's mistake that no tick saw (a run shorter than one). */
	if (!err && !st.failed && st.ctx->thread_bug)
		bc_fail(&st, st.ctx->thread_bug, "thread");

teardown:
	/* Thread and measure failures are recorded by bc_fail(). */
	if (!err && st.failed)
		err = st.fail_err;
	/* teardown() destroys the object the sources point into. */
	bc_bpf_src_free(st.ctx);
	/* The core's skeleton: no program runs while teardown() frees what
	 * they write into, and teardown() may still read the object. */
	bc_skel_detach(st.ctx);
	if (set_up && bench->desc.teardown) {
		bc_run_summarise(res);
		summarised = true;
		bc_guard_enter("teardown", true);
		bench->desc.teardown(st.ctx);
		bc_guard_leave();
	}
	bc_skel_destroy(st.ctx);
	bc_thread_counts_free(st.ctx);
	bc_ctx_progs_closed(st.ctx);
restore:
	bc_bpf_stats_release(res->bpf);
	strays = bc_guard_reap_strays();
	if (strays)
		bc_add_warning(res, "%u processes the benchmark started were still running after "
			       "teardown; benchcore killed them", strays);
	bc_guard_signals_stop();
done:
	if (err && !st.failed) {
		char reason[BC_REASON_LEN];

		bc_ctx_reason_copy(st.ctx, reason, sizeof(reason));
		if (reason[0])
			snprintf(res->reason, sizeof(res->reason), "%s", reason);
		else
			snprintf(res->reason, sizeof(res->reason), "%s failed: %s",
				 set_up ? "setup" : "validation", strerror(err < 0 ? -err : err));
	}
	res->exit_status = bc_ctx_exit_status(st.ctx, err);
	if (!err && bc_signalled) {
		res->interrupted = true;
		res->exit_status = BC_EXIT_INTERRUPTED;
		snprintf(res->reason, sizeof(res->reason),
			 "interrupted by %s after %zu measured iterations",
			 bc_signalled == SIGTERM ? "SIGTERM" :
			 bc_signalled == SIGHUP ? "SIGHUP" : "SIGINT", bc_stats_measured_cnt(res));
	}
	if (!summarised)
		bc_run_summarise(res);
	free(st.workers);
	pthread_cond_destroy(&st.gate);
	pthread_mutex_destroy(&st.gate_lock);
	if (res->exit_status == BC_EXIT_OK || res->exit_status == BC_EXIT_INTERRUPTED)
		return 0;
	return err < 0 ? err : -EINVAL;
}

void bc_run_teardown_exited(struct bc_run_result *res, int code)
{
	res->exit_status = BC_EXIT_FAILED;
	res->cleanup_failed = true;
	snprintf(res->reason, sizeof(res->reason),
		 "teardown called exit(%d) after %zu measured iterations; they are reported, the run failed",
		 code, bc_stats_measured_cnt(res));
}

void bc_run_result_free(struct bc_run_result *res)
{
	unsigned int m, metric_cnt;
	size_t i, n;

	if (!res)
		return;
	metric_cnt = res->bench ? res->bench->desc.metric_cnt : 0;
	n = res->iter_cap > res->iter_cnt ? res->iter_cap : res->iter_cnt;
	for (i = 0; res->iters && i < n; i++) {
		free(res->iters[i].values);
		free(res->iters[i].rates);
		for (m = 0; res->iters[i].hists && m < metric_cnt; m++)
			bc_hist_interval_free(&res->iters[i].hists[m]);
		free(res->iters[i].hists);
	}
	bc_figures_free(res);
	bc_bpf_stats_free(res->bpf);
	bc_ctx_release(res->owned_ctx);
	free(res->iters);
	free(res->summary);
	for (i = 0; i < res->warning_cnt; i++)
		free(res->warnings[i]);
	free(res->warnings);
	free(res->owned_ctx);
	memset(res, 0, sizeof(*res));
}
