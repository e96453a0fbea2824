// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * sigfix: a fixture plugin whose benchmarks misbehave with signals and
 * processes, for tests/cli/test_reliability_signals.c. Each one says on
 * stderr when its producer runs ("sigfix: BENCH running in PID"), so that
 * the test knows when to signal it; and to the file $SIGFIX_LOG names, as
 * a sweep keeps its rows' stderr to itself.
 *
 *   plain     behaves; its line names the process measuring (--repeat's
 *             and sweep's run child)
 *   ignore    setup ignores and blocks SIGINT, SIGTERM and SIGHUP
 *   handler   setup installs handlers of its own; the producer unblocks
 *             the signals in its thread (so a signal may be delivered
 *             there, to whatever handler is installed then)
 *   deaf      the producer never checks the stop flag
 *   segv      the producer dereferences NULL
 *   abort     setup calls abort()
 *   fork      setup forks a process that forks another one in a session
 *             of its own; both sleep forever; their pids are printed
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <benchcore/benchcore.h>

struct sf_opts {
	int64_t n;
};

static uint64_t sf_hits;

/* To stderr, and to $SIGFIX_LOG when set: a sweep keeps its rows' stderr. */
static void sf_say(const char *line, size_t len)
{
	const char *log = getenv("SIGFIX_LOG");
	int fd;

	(void)!write(STDERR_FILENO, line, len);
	if (!log)
		return;
	fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	(void)!write(fd, line, len);
	close(fd);
}

static void sf_say_running(struct bc_ctx *ctx)
{
	char line[128];
	int n;

	n = snprintf(line, sizeof(line), "sigfix: %s running in %d\n", bc_ctx_bench_name(ctx),
		     (int)getpid());
	if (n > 0)
		sf_say(line, (size_t)n);
}

static int sf_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	sf_say_running(ctx);
	while (!bc_thread_should_stop(t))
		__atomic_add_fetch(&sf_hits, 1, __ATOMIC_RELAXED);
	return 0;
}

static int sf_measure(struct bc_ctx *ctx, double *values)
{
	(void)ctx;
	values[0] = (double)__atomic_load_n(&sf_hits, __ATOMIC_RELAXED);
	return 0;
}

static void sf_nothing(int sig)
{
	(void)sig;
}

static void sf_stop_sigs(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

static int sf_setup_ignore(struct bc_ctx *ctx)
{
	sigset_t set;

	(void)ctx;
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	sf_stop_sigs(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	return 0;
}

static int sf_setup_handler(struct bc_ctx *ctx)
{
	struct sigaction sa = { .sa_handler = sf_nothing };

	(void)ctx;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	return 0;
}

static int sf_producer_unblock(struct bc_ctx *ctx, struct bc_thread *t)
{
	sigset_t set;

	sf_stop_sigs(&set);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	return sf_producer(ctx, t);
}

static int sf_producer_deaf(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct timespec nap = { .tv_nsec = 10 * 1000 * 1000 };

	(void)t;
	sf_say_running(ctx);
	for (;;)
		nanosleep(&nap, NULL);
	return 0;
}

static int sf_producer_segv(struct bc_ctx *ctx, struct bc_thread *t)
{
	(void)t;
	sf_say_running(ctx);
	*(volatile int *)(uintptr_t)0 = 1;
	return 0;
}

static int sf_setup_abort(struct bc_ctx *ctx)
{
	(void)ctx;
	abort();
}

static int sf_setup_fork(struct bc_ctx *ctx)
{
	pid_t child;

	(void)ctx;
	child = fork();
	if (child < 0)
		return bc_error(ctx, -errno, "fork: %s", strerror(errno));
	if (child == 0) {
		pid_t grand = fork();

		char line[64];
		int n;

		if (grand == 0)
			setsid();
		n = snprintf(line, sizeof(line), "sigfix: forked %d\n", (int)getpid());
		if (n > 0)
			sf_say(line, (size_t)n);
		for (;;)
			pause();
	}
	return 0;
}

static const struct bc_metric_desc sf_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS),
};

static const struct bc_option sf_options[] = {
	BC_OPT_INT(struct sf_opts, n, "n", .def = "1", .min = 1, .max = 100, .arg = "N",
		   .help = "a value to sweep"),
};

#define SF_BENCH(name_, ...)                                                           \
	{                                                                              \
		.sz = sizeof(struct bc_bench_desc), .name = (name_),                   \
		.description = "sigfix " name_, .producers = BC_THREADS(1, 0, 1),     \
		.consumers = BC_THREADS(0, 0, 0), .metrics = sf_metrics,              \
		.metric_cnt = 1, .producer = sf_producer, .measure = sf_measure,      \
		__VA_ARGS__                                                            \
	}

#pragma GCC diagnostic ignored "-Woverride-init"
static const struct bc_bench_desc sf_plain = SF_BENCH("plain");
static const struct bc_bench_desc sf_ignore = SF_BENCH("ignore", .setup = sf_setup_ignore);
static const struct bc_bench_desc sf_handler = SF_BENCH("handler", .setup = sf_setup_handler,
							 .producer = sf_producer_unblock);
static const struct bc_bench_desc sf_deaf = SF_BENCH("deaf", .producer = sf_producer_deaf);
static const struct bc_bench_desc sf_segv = SF_BENCH("segv", .producer = sf_producer_segv);
static const struct bc_bench_desc sf_abort = SF_BENCH("abort", .setup = sf_setup_abort);
static const struct bc_bench_desc sf_fork = SF_BENCH("fork", .setup = sf_setup_fork);

static const struct bc_bench_desc *const sf_benches[] = {
	&sf_plain, &sf_ignore, &sf_handler, &sf_deaf, &sf_segv, &sf_abort, &sf_fork, NULL
};

BC_API extern const struct bc_plugin_desc benchcore_plugin;
BC_API const struct bc_plugin_desc benchcore_plugin = {
	.sz = sizeof(struct bc_plugin_desc), .abi_major = BC_ABI_MAJOR,
	.abi_minor = BC_ABI_MINOR, .name = "sigfix", .version = "1",
	.description = "signal and process fixture", .benches = sf_benches,
	.options = sf_options, .option_cnt = 1, .opts_size = sizeof(struct sf_opts),
};
