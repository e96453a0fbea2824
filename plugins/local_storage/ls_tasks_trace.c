// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * local-storage-tasks-trace: RCU Tasks Trace grace periods while task
 * local storage churns among many tasks.
 *
 * --nr_procs sleeper processes wake at random and call getpgid(); so does
 * the producer, in a loop. Each call creates and deletes a task-storage
 * element, and each deletion queues an RCU Tasks Trace callback, whose
 * grace periods must then scan every task. Measured: the grace-period
 * latency (BPF timestamps at the kthread's pre-GP and post-GP steps) and
 * the rcu_tasks_trace kthread's system time per grace period.
 *
 * The two timestamps need fentry on rcu_tasks_trace_pregp_step and
 * rcu_tasks_trace_postgp: no tracepoint marks RCU Tasks Trace grace periods
 * (rcu:rcu_grace_period covers the tree RCU flavours, and only with
 * CONFIG_RCU_TRACE). Where fentry is refused the benchmark is unavailable.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <bpf/libbpf.h>

#include <benchcore/attach.h>

#include "ls_internal.h"
#include "ls_tasks_trace.skel.h"

struct ls_tt_state {
	struct ls_tasks_trace *skel;
	struct bpf_link *links[3];	/* churn, GP start, GP end */
	int last_err;			/* the kernel's answer to the last try */
	bool gp_only;			/* probing: load the GP programs alone */
	pid_t *children;
	unsigned long child_cnt;
	unsigned long kthread_pid;	/* 0: not found, stime reported as 0 */
	unsigned long long stime0;
};

static const struct bc_attach_point ls_tt_gp_point = BC_ATTACH_POINT(BC_ATTACH_FENTRY,
	"fentry/rcu_tasks_trace_pregp_step+rcu_tasks_trace_postgp", NULL);

static const struct bc_attach_point ls_tt_churn_points[] = {
	BC_GETPGID_ATTACH_POINTS("ls_churn_fentry", "ls_churn_tp", "ls_churn_raw_tp"),
};

static void ls_tt_detach(struct ls_tt_state *st)
{
	size_t i;

	for (i = 0; i < BC_ARRAY_SIZE(st->links); i++) {
		bpf_link__destroy(st->links[i]);
		st->links[i] = NULL;
	}
	ls_tasks_trace__destroy(st->skel);
	st->skel = NULL;
}

/* Loads the GP programs and, unless probing, the churn program `pt` names;
 * attaches them all, or leaves nothing behind. */
static int ls_tt_try(struct bc_ctx *ctx, const struct bc_attach_point *pt, void *cookie)
{
	struct ls_tt_state *st = cookie;
	struct bpf_program *prog, *churn = NULL;
	int err;

	(void)ctx;
	st->skel = ls_tasks_trace__open();
	if (!st->skel)
		return st->last_err = -errno;
	bpf_object__for_each_program(prog, st->skel->obj) {
		bool on = !st->gp_only && pt->prog_name &&
			  !strcmp(bpf_program__name(prog), pt->prog_name);

		if (on)
			churn = prog;
		bpf_program__set_autoload(prog, on || prog == st->skel->progs.ls_gp_start ||
						prog == st->skel->progs.ls_gp_end);
	}
	st->skel->rodata->bc_tgid = getpid();
	st->skel->rodata->getpgid_nr = SYS_getpgid;
	err = ls_tasks_trace__load(st->skel);
	if (err)
		goto err_out;
	st->links[1] = bpf_program__attach(st->skel->progs.ls_gp_start);
	if (!st->links[1])
		goto err_errno;
	st->links[2] = bpf_program__attach(st->skel->progs.ls_gp_end);
	if (!st->links[2])
		goto err_errno;
	if (churn) {
		st->links[0] = bpf_program__attach(churn);
		if (!st->links[0])
			goto err_errno;
	}
	return 0;

err_errno:
	err = -errno;
err_out:
	ls_tt_detach(st);
	return st->last_err = err;
}

static int ls_tt_unavailable(struct bc_ctx *ctx, int err)
{
	return bc_unavailable(ctx, "RCU Tasks Trace grace periods are timed with fentry on rcu_tasks_trace_pregp_step and rcu_tasks_trace_postgp, which this kernel refused (%s%s); no tracepoint marks those grace periods, so there is no equivalent attach point",
			      bc_strerror(err),
			      err == -EPERM ? ": BPF trampolines unavailable" : "");
}

static int ls_tt_probe(struct bc_ctx *ctx)
{
	struct ls_tt_state st = { .gp_only = true };
	int idx;

	idx = bc_attach_first(ctx, &ls_tt_gp_point, 1, ls_tt_try, &st);
	if (idx == -EOPNOTSUPP)
		return ls_tt_unavailable(ctx, st.last_err);
	if (idx < 0)
		return idx;
	ls_tt_detach(&st);
	return 0;
}

/* The kthread is named after the flavour ("rcu_tasks_trace_kthread", or
 * "rcu_tasks_trace" on older kernels); comm keeps 15 characters of it. */
static unsigned long ls_tt_find_kthread(void)
{
	unsigned long pid = 0;
	struct dirent *de;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return 0;
	while (!pid && (de = readdir(d))) {
		char path[300], comm[32] = "";
		FILE *f;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "rcu_tasks_trace", 15))
			pid = strtoul(de->d_name, NULL, 10);
		fclose(f);
	}
	closedir(d);
	return pid;
}

/* System time, in clock ticks, from /proc/<pid>/stat (field 15). */
static int ls_tt_stime(unsigned long pid, unsigned long long *out)
{
	char path[64], buf[1024], *p;
	size_t n;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%lu/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* comm may hold spaces and parentheses: count from the last ')', which
	 * field 3 follows after one space; the 13th space precedes field 15. */
	p = strrchr(buf, ')');
	if (!p)
		return -EINVAL;
	for (i = 0; i < 13 && p; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", out) != 1)
		return -EINVAL;
	return 0;
}

/* Runs in a child forked from a threaded process: async-signal-safe calls
 * only, and _exit() rather than returning into the parent's code. */
static void __attribute__((noreturn)) ls_tt_sleeper(pid_t parent)
{
	unsigned int seed = (unsigned int)getpid();

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(0);
	for (;;) {
		struct timespec ts = { 0, 0 };

		seed = seed * 1103515245u + 12345u;
		ts.tv_sec = (seed >> 16) % 4;
		nanosleep(&ts, NULL);
		bc_getpgid_trigger();
	}
}

static void ls_tt_reap(struct ls_tt_state *st)
{
	unsigned long i;

	for (i = 0; i < st->child_cnt; i++)
		kill(st->children[i], SIGKILL);
	for (i = 0; i < st->child_cnt; i++)
		while (waitpid(st->children[i], NULL, 0) < 0 && errno == EINTR)
			;
	st->child_cnt = 0;
}

static int ls_tt_spawn(struct bc_ctx *ctx, struct ls_tt_state *st, unsigned long cnt)
{
	pid_t parent = getpid(), pid;

	st->children = calloc(cnt, sizeof(*st->children));
	if (!st->children)
		return bc_error(ctx, -ENOMEM, "allocating %lu child pids", cnt);
	while (st->child_cnt < cnt) {
		pid = fork();
		if (pid < 0)
			return bc_error(ctx, -errno, "forking sleeper %lu of %lu: %s (see --nr_procs)",
					st->child_cnt + 1, cnt, strerror(errno));
		if (pid == 0)
			ls_tt_sleeper(parent);
		st->children[st->child_cnt++] = pid;
	}
	bc_ctx_log(ctx, BC_LOG_INFO, "%lu sleeper processes running", cnt);
	return 0;
}

static int ls_tt_setup(struct bc_ctx *ctx)
{
	char point[256];
	const struct ls_opts *o = LS_OPTS(ctx);
	struct ls_tt_state *st;
	int idx, err;

	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "allocating the benchmark state");
	bc_ctx_set_data(ctx, st);
	st->kthread_pid = (unsigned long)o->kthread_pid;
	if (!st->kthread_pid)
		st->kthread_pid = ls_tt_find_kthread();
	if (!st->kthread_pid)
		bc_ctx_log(ctx, BC_LOG_WARN,
			   "no rcu_tasks_trace kthread found; ticks per grace period will read 0 (pass --kthread_pid)");
	else if (ls_tt_stime(st->kthread_pid, &st->stime0))
		return bc_error(ctx, -ENOENT, "--kthread_pid %lu: cannot read /proc/%lu/stat",
				st->kthread_pid, st->kthread_pid);

	idx = bc_attach_first(ctx, ls_tt_churn_points, BC_ARRAY_SIZE(ls_tt_churn_points),
			      ls_tt_try, st);
	if (idx == -EOPNOTSUPP && st->last_err)
		return ls_tt_unavailable(ctx, st->last_err);
	if (idx < 0)
		return idx;
	snprintf(point, sizeof(point), "%s, %s", ls_tt_churn_points[idx].name, ls_tt_gp_point.name);
	bc_ctx_set_attach_point(ctx, point);
	err = bc_ctx_add_prog(ctx, bpf_program__fd(bpf_object__find_program_by_name(
					   st->skel->obj, ls_tt_churn_points[idx].prog_name)),
			      "churn");
	if (!err)
		err = bc_ctx_add_prog(ctx, bpf_program__fd(st->skel->progs.ls_gp_start), "gp start");
	if (!err)
		err = bc_ctx_add_prog(ctx, bpf_program__fd(st->skel->progs.ls_gp_end), "gp end");
	/* gp_ns and gp_ct are the core's to read (`bpf`). */
	if (!err)
		err = bc_ctx_set_bpf_object(ctx, st->skel->obj);
	if (err)
		return bc_error(ctx, err, "declaring the programs under test: %s", bc_strerror(err));
	return ls_tt_spawn(ctx, st, (unsigned long)o->nr_procs);
}

static int ls_tt_measure(struct bc_ctx *ctx, double *values)
{
	struct ls_tt_state *st = bc_ctx_data(ctx);
	unsigned long long stime = st->stime0;

	if (__atomic_load_n(&st->skel->bss->unexpected, __ATOMIC_RELAXED))
		return bc_error(ctx, -EPROTO, "a post-grace-period step ran without its pre-grace-period step: the timings cannot be trusted");
	if (st->kthread_pid && ls_tt_stime(st->kthread_pid, &stime))
		return bc_error(ctx, -ESRCH, "the rcu_tasks_trace kthread (pid %lu) went away",
				st->kthread_pid);
	return bc_metric_set(ctx, values, "stime", (double)(stime - st->stime0));
}

static void ls_tt_teardown(struct bc_ctx *ctx)
{
	struct ls_tt_state *st = bc_ctx_data(ctx);

	if (!st)
		return;
	ls_tt_reap(st);
	free(st->children);
	ls_tt_detach(st);
	free(st);
	bc_ctx_set_data(ctx, NULL);
}

/* The runner's grace-period lines: nanoseconds and kthread ticks, each per
 * grace period counted. */
static const struct bc_metric_desc ls_tt_metrics[] = {
	BC_METRIC("gp_ns", "ns", BC_METRIC_RATIO, .role = BC_ROLE_LATENCY, .per = "gp_ct",
		  .label = "tasks_trace grace period latency", .bpf = "gp_ns"),
	BC_METRIC("gp_ct", "grace periods", BC_METRIC_COUNTER, .bpf = "gp_ct"),
	BC_METRIC("stime", "ticks", BC_METRIC_RATIO, .per = "gp_ct",
		  .label = "ticks per tasks_trace grace period"),
};

static const struct bc_option ls_tt_options[] = {
	BC_OPT_INT(struct ls_opts, nr_procs, "nr_procs", .def = "1000", .min = 1,
		   .max = LS_MAX_NR_PROCS, .help = "sleeper processes to fork"),
	BC_OPT_INT(struct ls_opts, kthread_pid, "kthread_pid", .arg = "PID", .def = "0", .min = 0,
		   .max = LS_PID_LIMIT,
		   .help = "pid of the rcu_tasks_trace kthread (0: looked up)"),
};

/* What `list` checks instead of loading the programs: the grace-period
 * pair's first function by its attach point, the second by its BTF. */
static const struct bc_need ls_tt_needs[] = {
	BC_NEED(BC_NEED_MAP_TYPE, .type = BPF_MAP_TYPE_TASK_STORAGE,
		.why = "task storage maps (Linux 5.11)"),
	BC_NEED(BC_NEED_BTF_FUNC, .name = "rcu_tasks_trace_postgp",
		.why = "RCU Tasks Trace's rcu_tasks_trace_postgp()"),
};

const struct bc_bench_desc ls_bench_tasks_trace = BC_BENCH("local-storage-tasks-trace",
	"RCU Tasks Trace grace-period latency and kthread ticks under task-storage churn by --nr_procs processes",
	ls_tt_metrics, .runner_name = true, .producers = BC_THREADS(1, 1, 1),
	BC_OPTIONS(ls_tt_options), .probe = ls_tt_probe, BC_NEEDS(ls_tt_needs),
	.attach_points = &ls_tt_gp_point, .attach_point_cnt = 1, .setup = ls_tt_setup,
	.producer = bc_getpgid_producer, .measure = ls_tt_measure, .teardown = ls_tt_teardown);
