// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Integration tests of the local_storage plugin through the real benchcore
 * binary: short runs (-w0 -d1 --format json) with small map and key counts,
 * the relation between hits and important_hits each variant must show, the
 * unavailable reports this kernel must give, usage errors, and that no BPF
 * program or map of the plugin outlives a run. What this kernel must give
 * is asked in main() with hand-written programs that load and attach
 * (tests/support/bc_test_kernel.c), apart from the plugin: a variant the
 * kernel allows must run (exit 0), one it refuses must exit 3 saying why.
 *
 * No timing is asserted: the machine is a shared 2-CPU VM. Ratios of two
 * counters of the same run are exact by construction and safe to assert.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bc_test_kernel.h"
#include "bc_test_util.h"
#include "json.h"
#include "json_read.h"

#define PLUGIN "local_storage:"
#define RUN_TIMEOUT_SEC 120

/* The plugin names every program and map it creates "ls_...". */
#define OUR_PREFIX "ls_"

/* The kernel's answers, asked once in main(). */
static struct {
	bool lsm_socket;	/* lsm.s/socket_post_create loads and attaches */
	bool cgroup_sockopt;	/* cgroup/getsockopt attaches to the cgroup v2 root */
	bool iter_tcp;		/* iter/tcp loads and attaches */
	bool tasks_trace;	/* fentry on both RCU Tasks Trace functions */
} kernel;

/* When non-zero, the child runs with this RLIMIT_NOFILE (soft and hard). */
static rlim_t child_nofile;
/* How long a child may take; a whole suite takes longer than one run. */
static time_t child_timeout = RUN_TIMEOUT_SEC;

struct run_out {
	int status;	/* exit status, or -1 when it did not exit */
	char *out;
	char *err;
};

static char *slurp(const char *path)
{
	struct stat sb;
	char *buf;
	size_t n = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return strdup("");
	if (fstat(fileno(f), &sb) == 0) {
		buf = calloc(1, (size_t)sb.st_size + 1);
		if (buf)
			n = fread(buf, 1, (size_t)sb.st_size, f);
		if (buf)
			buf[n] = '\0';
	} else {
		buf = strdup("");
	}
	fclose(f);
	return buf;
}

/* Runs benchcore with the plugin directory and the given arguments
 * (NULL-terminated), capturing stdout and stderr. */
static void run_bc(struct run_out *r, ...)
{
	char out_path[] = "/tmp/bc-ls-out-XXXXXX", err_path[] = "/tmp/bc-ls-err-XXXXXX";
	const char *argv[64];
	int argc = 0, out_fd, err_fd, wstatus = 0;
	const char *a;
	time_t deadline;
	va_list ap;
	pid_t pid;

	argv[argc++] = BC_TEST_BENCHCORE;
	argv[argc++] = "--plugin-dir";
	argv[argc++] = BC_TEST_PLUGIN_DIR;
	va_start(ap, r);
	while ((a = va_arg(ap, const char *)) && argc < 63)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;

	out_fd = mkstemp(out_path);
	err_fd = mkstemp(err_path);
	assert_true(out_fd >= 0 && err_fd >= 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { child_nofile, child_nofile };

		if (child_nofile && setrlimit(RLIMIT_NOFILE, &rl))
			_exit(126);
		dup2(out_fd, 1);
		dup2(err_fd, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(out_fd);
	close(err_fd);
	deadline = time(NULL) + child_timeout;
	while (waitpid(pid, &wstatus, WNOHANG) == 0) {
		if (time(NULL) > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &wstatus, 0);
			break;
		}
		usleep(20000);
	}
	r->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
	r->out = slurp(out_path);
	r->err = slurp(err_path);
	unlink(out_path);
	unlink(err_path);

	fprintf(stderr, "$");
	for (argc = 0; argv[argc]; argc++)
		fprintf(stderr, " %s", argv[argc]);
	fprintf(stderr, "\n  -> exit %d\n  stderr: %s\n", r->status, r->err);
}

static void run_free(struct run_out *r)
{
	free(r->out);
	free(r->err);
}

/* Depth-first search for the first member named `key`. */
static const struct bc_json *find_key(const struct bc_json *v, const char *key)
{
	const struct bc_json *hit;
	size_t i;

	if (!v)
		return NULL;
	if (v->type == BC_JSON_OBJECT) {
		hit = bc_json_get(v, key);
		if (hit)
			return hit;
	}
	if (v->type != BC_JSON_OBJECT && v->type != BC_JSON_ARRAY)
		return NULL;
	for (i = 0; i < v->cnt; i++) {
		hit = find_key(v->items[i], key);
		if (hit)
			return hit;
	}
	return NULL;
}

static struct bc_json *parse_doc(const struct run_out *r)
{
	char err[256] = "";
	struct bc_json *doc;

	doc = bc_json_parse(r->out, strlen(r->out), err, sizeof(err));
	if (!doc)
		fprintf(stderr, "stdout is not JSON (%s):\n%s\n", err, r->out);
	assert_non_null(doc);
	return doc;
}

/* The summary mean of a metric (events per second for counters). */
static double summary_mean(const struct bc_json *doc, const char *metric)
{
	const struct bc_json *summary = bc_json_get(doc, "summary");
	const struct bc_json *m;

	assert_non_null(summary);
	m = find_key(summary, metric);
	if (!m)
		fprintf(stderr, "summary has no metric '%s'\n", metric);
	assert_non_null(m);
	return bc_json_num(bc_json_get(m, "mean"), -1.0);
}

static void assert_attach_point_named(const struct bc_json *doc)
{
	const char *pt = bc_json_str(find_key(doc, "attach_point"));

	if (!pt || !pt[0])
		fprintf(stderr, "the report names no attach point\n");
	assert_true(pt && pt[0]);
}

/* --------------------------------------------- nothing left loaded */

static bool prog_is_ours(int fd, const struct bpf_prog_info *info, const void *arg)
{
	(void)fd;
	(void)arg;
	return !strncmp(info->name, OUR_PREFIX, strlen(OUR_PREFIX));
}

static bool map_is_ours(int fd, const struct bpf_map_info *info, const void *arg)
{
	(void)fd;
	(void)arg;
	return !strncmp(info->name, OUR_PREFIX, strlen(OUR_PREFIX));
}

static void count_loaded(unsigned int *progs, unsigned int *maps)
{
	*progs = bc_test_count_progs(prog_is_ours, NULL, NULL);
	*maps = bc_test_count_maps(map_is_ours, NULL, NULL);
}

static unsigned int base_progs, base_maps;

/*
 * Other test suites load BPF on this machine at the same time, so only the
 * plugin's own objects (all named "ls_...") are counted, and main() holds a
 * lock so that two copies of this test (other build trees) do not count
 * each other's. Maps are freed from a workqueue after their last reference
 * goes, one RCU grace period each for task storage: 1000 of them take
 * seconds on a busy machine. So wait for the count to come back as long as
 * it keeps going down, and call it a leak only when it stops. Another
 * build tree's copy of this test may have left its own maps to that
 * workqueue before this one took the lock: they are in the count before,
 * and may be gone after, so a count below the one before is clean too.
 * The wait without progress is 30 s: the last program and the storage
 * maps go after an RCU Tasks Trace grace period, and on a 2-CPU machine
 * running other tests one was seen to stall the count for more than 5 s
 * (806 maps, then 6 by the next test); a leak never comes back.
 */
static int check_nothing_left(void **state)
{
	unsigned int progs = 0, maps = 0, last = UINT_MAX;
	int still = 0;

	(void)state;
	while (still < 600) {
		count_loaded(&progs, &maps);
		if (progs <= base_progs && maps <= base_maps)
			return 0;
		if (progs + maps < last) {
			last = progs + maps;
			still = 0;
		} else {
			still++;
		}
		usleep(50000);
	}
	fprintf(stderr, "left loaded after the run, unchanged for 30 s: %u ls_ programs (before: %u), "
		"%u ls_ maps (before: %u)\n", progs, base_progs, maps, base_maps);
	return -1;
}

static int count_before(void **state)
{
	(void)state;
	count_loaded(&base_progs, &base_maps);
	return 0;
}

/* ------------------------------------------------------------ runs */

static void test_seq_get(void **state)
{
	struct run_out r;
	struct bc_json *doc;
	double hits, imp, nr_maps = 4;

	(void)state;
	run_bc(&r, "run", PLUGIN "local-storage-cache-seq-get", "-w0", "-d1", "--format", "json",
	       "--nr_maps", "4", NULL);
	assert_int_equal(r.status, 0);
	doc = parse_doc(&r);
	hits = summary_mean(doc, "hits");
	imp = summary_mean(doc, "important_hits");
	fprintf(stderr, "seq-get nr_maps 4: hits %.0f/s important %.0f/s\n", hits, imp);
	assert_true(hits > 0);
	/* Map 0 is one get in nr_maps. */
	assert_true(imp >= hits * 0.5 / nr_maps && imp <= hits * 2.0 / nr_maps);
	assert_attach_point_named(doc);
	bc_json_free(doc);
	run_free(&r);
}

/* 1000 maps must not need 1000 file descriptors: each map's fd is closed
 * once the array-of-maps holds it. */
static void test_many_maps_few_fds(void **state)
{
	struct run_out r;
	struct bc_json *doc;

	(void)state;
	child_nofile = 64;
	run_bc(&r, "run", PLUGIN "local-storage-cache-seq-get", "-w0", "-d1", "--format", "json",
	       "--nr_maps", "1000", NULL);
	child_nofile = 0;
	assert_int_equal(r.status, 0);
	doc = parse_doc(&r);
	assert_true(summary_mean(doc, "hits") > 0);
	bc_json_free(doc);
	run_free(&r);
}

static void test_int_get(void **state)
{
	struct run_out r;
	struct bc_json *doc;
	double hits, imp, nr_maps = 20;

	(void)state;
	run_bc(&r, "run", PLUGIN "local-storage-cache-int-get", "-w0", "-d1", "--format", "json",
	       "--nr_maps", "20", NULL);
	assert_int_equal(r.status, 0);
	doc = parse_doc(&r);
	hits = summary_mean(doc, "hits");
	imp = summary_mean(doc, "important_hits");
	fprintf(stderr, "int-get nr_maps 20: hits %.0f/s important %.0f/s\n", hits, imp);
	assert_true(hits > 0);
	/* 8 of every 27 gets go to map 0 with 20 maps, against 1 in 20 for
	 * seq-get: require well over three times seq-get's share. */
	assert_true(imp > hits * 3.0 / nr_maps);
	assert_true(imp <= hits * 1.01);
	assert_attach_point_named(doc);
	bc_json_free(doc);
	run_free(&r);
}

static void test_hashmap_control(void **state)
{
	struct run_out r;
	struct bc_json *doc;
	double hits, imp;

	(void)state;
	run_bc(&r, "run", PLUGIN "local-storage-cache-hashmap-control", "-w0", "-d1", "--format",
	       "json", "--hashmap_nr_keys_used", "100", NULL);
	assert_int_equal(r.status, 0);
	doc = parse_doc(&r);
	hits = summary_mean(doc, "hits");
	imp = summary_mean(doc, "important_hits");
	fprintf(stderr, "hashmap-control 100 keys: hits %.0f/s important %.0f/s\n", hits, imp);
	assert_true(hits > 0);
	/* One hash map: every lookup is a lookup of the "important" map. */
	assert_true(imp >= hits * 0.9 && imp <= hits * 1.1);
	assert_attach_point_named(doc);
	bc_json_free(doc);
	run_free(&r);
}

/* The runner's script's largest rows: every key of the 4194304-entry map,
 * and several maps (each one is full), whatever pid_max is. */
static void test_hashmap_control_runner_sizes(void **state)
{
	struct run_out r;
	struct bc_json *doc;
	double hits, imp;

	(void)state;
	/* Filling 4M keys is minutes under emulation and tests no kernel path
	 * test_hashmap_control does not. */
	if (bc_test_short_skip("the runner's 4194304-key and 2-map rows"))
		skip();
	run_bc(&r, "run", PLUGIN "local-storage-cache-hashmap-control", "-w0", "-d1", "--format",
	       "json", "--hashmap_nr_keys_used", "4194304", NULL);
	assert_int_equal(r.status, 0);
	doc = parse_doc(&r);
	assert_true(summary_mean(doc, "hits") > 0);
	bc_json_free(doc);
	run_free(&r);

	run_bc(&r, "run", PLUGIN "local-storage-cache-hashmap-control", "-w0", "-d1", "--format",
	       "json", "--nr_maps", "2", "--hashmap_nr_keys_used", "100000", NULL);
	assert_int_equal(r.status, 0);
	doc = parse_doc(&r);
	hits = summary_mean(doc, "hits");
	imp = summary_mean(doc, "important_hits");
	assert_true(hits > 0);
	/* Map 0 is every other lookup. */
	assert_true(imp >= hits * 0.25 && imp <= hits * 1.0);
	bc_json_free(doc);
	run_free(&r);
}

/* Every row of the shipped local-storage suite (the runner's script) is
 * accepted and runs on this machine, with its default pid_max. */
static void test_suite_rows_run(void **state)
{
	const struct bc_json *runs, *run;
	struct run_out r;
	struct bc_json *doc;
	unsigned long pid_max = 0;
	bool seen_4m = false;
	size_t i;
	FILE *f;

	(void)state;
	if (bc_test_short_skip("every row of the local-storage suite"))
		skip();
	f = fopen("/proc/sys/kernel/pid_max", "r");
	if (f) {
		if (fscanf(f, "%lu", &pid_max) != 1)
			pid_max = 0;
		fclose(f);
	}
	fprintf(stderr, "pid_max here: %lu\n", pid_max);
	child_timeout = 1200;
	run_bc(&r, "suite", "--suite-file", BC_TEST_SOURCE_DIR "/suites/local-storage.suite",
	       "-w0", "-d1", "--run-timeout", "300", "--format", "json", NULL);
	child_timeout = RUN_TIMEOUT_SEC;
	assert_int_equal(r.status, 0);
	doc = parse_doc(&r);
	runs = bc_json_get(doc, "runs");
	assert_non_null(runs);
	/* 5 hash map rows, 8 sequential, 8 interleaved. */
	assert_int_equal(runs->cnt, 21);
	for (i = 0; i < runs->cnt; i++) {
		const char *status, *label;

		run = runs->items[i];
		status = bc_json_str(bc_json_get(run, "status"));
		label = bc_json_str(bc_json_get(run, "label"));
		if (!status || strcmp(status, "ok"))
			fprintf(stderr, "row '%s': %s (%s)\n", label ? label : "?",
				status ? status : "?", bc_json_str(bc_json_get(run, "reason")));
		assert_string_equal(status, "ok");
		if (label && strstr(label, "keys 4194304"))
			seen_4m = true;
	}
	assert_true(seen_4m);
	bc_json_free(doc);
	run_free(&r);
}

static void test_create_task(void **state)
{
	struct run_out r;
	struct bc_json *doc;
	double creates;

	(void)state;
	run_bc(&r, "run", PLUGIN "local-storage-create", "-w0", "-d1", "--format", "json",
	       "--storage-type", "task", "--batch-size", "8", NULL);
	assert_int_equal(r.status, 0);
	doc = parse_doc(&r);
	creates = summary_mean(doc, "creates");
	fprintf(stderr, "create task: %.0f creates/s, %.2f kmallocs/create\n", creates,
		creates > 0 ? summary_mean(doc, "kmallocs") / creates : 0.0);
	assert_true(creates > 0);
	/* The machine's kmallocs include the creations' own. */
	assert_true(summary_mean(doc, "kmallocs") >= summary_mean(doc, "create_kmallocs"));
	assert_attach_point_named(doc);
	bc_json_free(doc);
	run_free(&r);
}

/* Socket storage, the runner's default, is created from an LSM hook: where
 * the kernel refuses lsm programs (no BPF trampolines) the report must say
 * so, status 3. No --storage-type: the default must be socket. */
static void test_create_socket(void **state)
{
	struct run_out r;
	struct bc_json *doc;
	const char *type;

	(void)state;
	run_bc(&r, "run", PLUGIN "local-storage-create", "-w0", "-d1", "--format", "json", NULL);
	if (kernel.lsm_socket) {
		assert_int_equal(r.status, 0);
		doc = parse_doc(&r);
		assert_true(summary_mean(doc, "creates") > 0);
		type = bc_json_str(bc_json_get(find_key(doc, "plugin_options"), "storage-type"));
		assert_non_null(type);
		assert_string_equal(type, "socket");
		bc_json_free(doc);
	} else {
		assert_int_equal(r.status, 3);
		assert_non_null(strstr(r.err, "socket_post_create"));
	}
	run_free(&r);
}

/* sk-storage-get needs a cgroup program, not a trampoline: it runs here.
 * Every call makes 100 gets, so hits come in hundreds. */
static void test_sk_storage_get(void **state)
{
	struct run_out r;
	struct bc_json *doc;
	double hits;

	(void)state;
	run_bc(&r, "run", PLUGIN "sk-storage-get", "-w0", "-d1", "--format", "json", NULL);
	if (!kernel.cgroup_sockopt) {
		/* No cgroup v2 mount, or cgroup programs refused: say why. */
		assert_int_equal(r.status, 3);
		assert_non_null(strstr(r.err, "cgroup"));
		run_free(&r);
		return;
	}
	assert_int_equal(r.status, 0);
	doc = parse_doc(&r);
	hits = summary_mean(doc, "hits");
	fprintf(stderr, "sk-storage-get: %.0f gets/s\n", hits);
	assert_true(hits > 0);
	assert_attach_point_named(doc);
	bc_json_free(doc);
	run_free(&r);

	/* Its text lines are the runner's ops lines. */
	run_bc(&r, "run", PLUGIN "sk-storage-get", "-w0", "-d1", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "Summary: throughput "));
	assert_non_null(strstr(r.out, " M ops/s ("));
	assert_non_null(strstr(r.out, "ns/op\n"));
	run_free(&r);
}

/* The later revision's cold sockets: one iter/tcp pass gets every
 * listener's storage once, so a second holds whole passes of at least
 * --nr-socks gets (the machine's own TCP sockets are visited too). */
static void test_sk_storage_get_cold(void **state)
{
	struct run_out r;
	struct bc_json *doc;
	const char *ap;
	double hits;

	(void)state;
	run_bc(&r, "run", PLUGIN "sk-storage-get", "--sk-mode", "iter-tcp", "--nr-socks", "2000",
	       "-w0", "-d1", "--format", "json", NULL);
	if (!kernel.iter_tcp) {
		assert_int_equal(r.status, 3);
		assert_non_null(strstr(r.err, "iter"));
		run_free(&r);
		return;
	}
	assert_int_equal(r.status, 0);
	doc = parse_doc(&r);
	hits = summary_mean(doc, "hits");
	ap = bc_json_str(find_key(doc, "attach_point"));
	fprintf(stderr, "sk-storage-get --sk-mode iter-tcp --nr-socks 2000: %.0f gets/s at %s\n",
		hits, ap ? ap : "?");
	assert_true(hits >= 2000);
	assert_non_null(ap);
	assert_non_null(strstr(ap, "iter/tcp over 2000 listening sockets"));
	bc_json_free(doc);
	run_free(&r);

	/* The runner's ops lines here too. */
	run_bc(&r, "run", PLUGIN "sk-storage-get", "--sk-mode", "iter-tcp", "--nr-socks", "100",
	       "-w0", "-d1", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "Summary: throughput "));
	assert_non_null(strstr(r.out, "ns/op\n"));
	run_free(&r);
}

/* Grace periods are timed with fentry on rcu_tasks_trace_pregp_step and
 * _postgp, and no tracepoint gives the same timestamps: unavailable where
 * fentry is refused, with the reason. */
static void test_tasks_trace(void **state)
{
	struct run_out r;
	struct bc_json *doc;

	(void)state;
	run_bc(&r, "run", PLUGIN "local-storage-tasks-trace", "-w0", "-d1", "--format", "json",
	       "--nr_procs", "10", NULL);
	if (kernel.tasks_trace) {
		assert_int_equal(r.status, 0);
		doc = parse_doc(&r);
		assert_true(summary_mean(doc, "gp_ct") >= 0);
		bc_json_free(doc);
	} else {
		assert_int_equal(r.status, 3);
		assert_non_null(strstr(r.err, "rcu_tasks_trace_pregp_step"));
		assert_non_null(strstr(r.err, "fentry"));
	}
	run_free(&r);
}

static void test_list_marks_tasks_trace(void **state)
{
	struct run_out r;
	char line[2048] = "";
	const char *p;

	(void)state;
	run_bc(&r, "list", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "local_storage:local-storage-cache-seq-get"));
	assert_non_null(strstr(r.out, "local_storage:local-storage-create"));
	p = strstr(r.out, "local_storage:local-storage-tasks-trace");
	assert_non_null(p);
	sscanf(p, "%2047[^\n]", line);
	/* Unavailable exactly where the kernel refuses the fentry programs,
	 * and then its line gives the reason. */
	if (kernel.tasks_trace) {
		assert_null(strstr(line, "unavailable"));
	} else {
		assert_non_null(strstr(line, "unavailable"));
		assert_non_null(strstr(line, "rcu_tasks_trace_pregp_step"));
	}
	run_free(&r);
}

/* ------------------------------------------------------ bad input */

static void expect_usage_error(const char *bench, const char *opt, const char *val,
			       const char *quoted)
{
	struct run_out r;

	run_bc(&r, "run", bench, "-w0", "-d1", opt, val, NULL);
	assert_int_equal(r.status, 2);
	/* The message names the option and (when it parsed one) the value. */
	assert_non_null(strstr(r.err, opt));
	if (quoted)
		assert_non_null(strstr(r.err, quoted));
	run_free(&r);
}

static void test_bad_options(void **state)
{
	(void)state;
	expect_usage_error(PLUGIN "local-storage-cache-seq-get", "--nr_maps", "0", "'0'");
	expect_usage_error(PLUGIN "local-storage-cache-seq-get", "--nr_maps", "1001", "'1001'");
	expect_usage_error(PLUGIN "local-storage-cache-int-get", "--nr_maps", "ten", "'ten'");
	expect_usage_error(PLUGIN "local-storage-cache-int-get", "--nr_maps", "-1", "'-1'");
	expect_usage_error(PLUGIN "local-storage-cache-seq-get", "--hashmap_nr_keys_used", "10",
			   NULL);
	expect_usage_error(PLUGIN "local-storage-cache-hashmap-control", "--nr_maps", "1001",
			   "'1001'");
	expect_usage_error(PLUGIN "local-storage-cache-hashmap-control", "--hashmap_nr_keys_used",
			   "0", "'0'");
	/* The runner's hash maps hold 4194304 keys, whatever pid_max is. */
	expect_usage_error(PLUGIN "local-storage-cache-hashmap-control", "--hashmap_nr_keys_used",
			   "4194305", "'4194305'");

	expect_usage_error(PLUGIN "local-storage-create", "--storage-type", "disk", "'disk'");
	expect_usage_error(PLUGIN "local-storage-create", "--batch-size", "0", "'0'");
	/* Each benchmark declares its own options: another's is refused. */
	expect_usage_error(PLUGIN "local-storage-create", "--nr_maps", "5", NULL);
	expect_usage_error(PLUGIN "local-storage-cache-seq-get", "--batch-size", "5", NULL);
	expect_usage_error(PLUGIN "local-storage-tasks-trace", "--nr_procs", "0", "'0'");
	expect_usage_error(PLUGIN "sk-storage-get", "--sk-mode", "cold", "'cold'");
	expect_usage_error(PLUGIN "sk-storage-get", "--nr-socks", "0", "'0'");
	expect_usage_error(PLUGIN "sk-storage-get", "--nr-socks", "500001", "'500001'");
}

/* The plugin is the folder and the file: local_storage. The spelling
 * users typed before, local-storage, still finds it. */
static void test_both_spellings(void **state)
{
	struct run_out r;
	struct bc_json *doc;

	(void)state;
	run_bc(&r, "run", "local-storage:local-storage-cache-seq-get", "-w0", "-d1", "--format",
	       "json", "--nr_maps", "2", NULL);
	assert_int_equal(r.status, 0);
	doc = parse_doc(&r);
	assert_true(summary_mean(doc, "hits") > 0);
	bc_json_free(doc);
	run_free(&r);
}

/* The options are typed values in the run's JSON config, defaults too. */
static void test_typed_config(void **state)
{
	const struct bc_json *opts;
	struct run_out r;
	struct bc_json *doc;

	(void)state;
	run_bc(&r, "run", PLUGIN "local-storage-cache-int-get", "-w0", "-d1", "--format", "json",
	       NULL);
	assert_int_equal(r.status, 0);
	doc = parse_doc(&r);
	opts = find_key(doc, "plugin_options");
	assert_non_null(opts);
	assert_true(bc_json_num(bc_json_get(opts, "nr_maps"), -1) == 1000);
	bc_json_free(doc);
	run_free(&r);
}

#define LS_TEST(fn) cmocka_unit_test_setup_teardown(fn, count_before, check_nothing_left)

#define LOCK_PATH "/tmp/benchcore-local-storage-test.lock"


int main(void)
{
	const struct CMUnitTest tests[] = {
		LS_TEST(test_seq_get),
		LS_TEST(test_many_maps_few_fds),
		LS_TEST(test_int_get),
		LS_TEST(test_hashmap_control),
		LS_TEST(test_hashmap_control_runner_sizes),
		LS_TEST(test_suite_rows_run),
		LS_TEST(test_create_task),
		LS_TEST(test_create_socket),
		LS_TEST(test_sk_storage_get),
		LS_TEST(test_sk_storage_get_cold),
		LS_TEST(test_tasks_trace),
		LS_TEST(test_list_marks_tasks_trace),
		LS_TEST(test_bad_options),
		LS_TEST(test_both_spellings),
		LS_TEST(test_typed_config),
	};
	/* Task storage and the skeletons need kernel BTF. */
	int lock_fd, rc = bc_test_bpf_skip("the local-storage benchmarks");

	if (rc)
		return rc;
	libbpf_set_print(NULL);
	kernel.lsm_socket = bc_test_kernel_lsm("socket_post_create", true) == 0;
	kernel.cgroup_sockopt = bc_test_kernel_cgroup_sockopt() == 0;
	kernel.iter_tcp = bc_test_kernel_iter("tcp") == 0;
	kernel.tasks_trace =
		bc_test_kernel_trampoline(BPF_TRACE_FENTRY, "rcu_tasks_trace_pregp_step") == 0 &&
		bc_test_kernel_trampoline(BPF_TRACE_FENTRY, "rcu_tasks_trace_postgp") == 0;
	lock_fd = open(LOCK_PATH, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lock_fd < 0 || flock(lock_fd, LOCK_EX)) {
		fprintf(stderr, "cannot lock %s: %s\n", LOCK_PATH, strerror(errno));
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
