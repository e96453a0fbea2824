// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The plugin loader: dlopen()s plugin files, checks the ABI version and the
 * size of every struct a plugin hands over, and copies each into the core's
 * own layout, so the rest of the core never has to think about which minor
 * version a plugin was built against. The versioning rule is the one stated
 * at the top of include/benchcore/benchcore.h: the major must match; sizes,
 * not the minor, decide the rest (libbpf opts style).
 *
 * A plugin that cannot be used costs one line naming the file and the
 * reason; the other plugins still load. docs/plugin-abi.md lists the lines.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loader.h"
#include "log.h"
#include "exit_status.h"

#define BC_OFFSETOFEND(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/*
 * What this core knows of each struct a plugin hands over: the end of its
 * last field, padding excluded (libbpf's offsetofend(__last_field)), so that
 * a field a newer minor puts into today's trailing padding is still seen as
 * unknown. The static asserts below catch a field appended to the header
 * without the matching line here.
 */
#define BC_PLUGIN_DESC_KNOWN BC_OFFSETOFEND(struct bc_plugin_desc, option_prefix)
#define BC_BENCH_DESC_KNOWN BC_OFFSETOFEND(struct bc_bench_desc, loaded)
#define BC_METRIC_DESC_KNOWN BC_OFFSETOFEND(struct bc_metric_desc, threads)
#define BC_OPTION_KNOWN BC_OFFSETOFEND(struct bc_option, maps)
#define BC_RANGE_KNOWN BC_OFFSETOFEND(struct bc_thread_range, def)
#define BC_NEED_KNOWN BC_OFFSETOFEND(struct bc_need, why)
#define BC_POINT_KNOWN BC_OFFSETOFEND(struct bc_attach_point, also_prog)
#define BC_SKEL_KNOWN BC_OFFSETOFEND(struct bc_skel, object)

#define BC_ASSERT_KNOWN(type, known)                                               \
	_Static_assert(sizeof(type) - (known) < _Alignof(type),                    \
		       #type " grew: update what core/loader.c knows of it")
BC_ASSERT_KNOWN(struct bc_plugin_desc, BC_PLUGIN_DESC_KNOWN);
BC_ASSERT_KNOWN(struct bc_bench_desc, BC_BENCH_DESC_KNOWN);
BC_ASSERT_KNOWN(struct bc_metric_desc, BC_METRIC_DESC_KNOWN);
BC_ASSERT_KNOWN(struct bc_option, BC_OPTION_KNOWN);
BC_ASSERT_KNOWN(struct bc_thread_range, BC_RANGE_KNOWN);
BC_ASSERT_KNOWN(struct bc_need, BC_NEED_KNOWN);
BC_ASSERT_KNOWN(struct bc_attach_point, BC_POINT_KNOWN);
BC_ASSERT_KNOWN(struct bc_skel, BC_SKEL_KNOWN);

/*
 * The smallest structs this core accepts: the fields it cannot do without.
 * Anything past them is optional and reads as zero when a plugin built
 * against an older minor does not have it.
 */
#define BC_PLUGIN_DESC_MIN_SZ BC_OFFSETOFEND(struct bc_plugin_desc, benches)
#define BC_BENCH_DESC_MIN_SZ BC_OFFSETOFEND(struct bc_bench_desc, measure)
#define BC_METRIC_DESC_MIN_SZ BC_OFFSETOFEND(struct bc_metric_desc, kind)
#define BC_OPTION_MIN_SZ BC_OFFSETOFEND(struct bc_option, offset)
#define BC_RANGE_MIN_SZ BC_OFFSETOFEND(struct bc_thread_range, def)
/* Both came with ABI 2.1, whole: a smaller one is not a plugin's. */
#define BC_NEED_MIN_SZ BC_OFFSETOFEND(struct bc_need, name)
#define BC_POINT_MIN_SZ BC_OFFSETOFEND(struct bc_attach_point, kind)
/* Came with ABI 2.3, whole. */
#define BC_SKEL_MIN_SZ BC_OFFSETOFEND(struct bc_skel, object)
/* sz and abi_major sit at the same place in every major version. */
#define BC_PLUGIN_DESC_MAJOR_SZ BC_OFFSETOFEND(struct bc_plugin_desc, abi_major)
/* Larger than any descriptor will ever grow: a garbage `sz`, not a newer
 * plugin. Keeps the zero-tail check from walking off into other memory. */
#define BC_DESC_MAX_SZ 4096

/* The tail of every refusal for another major (docs/plugin-abi.md). */
#define BC_MAJOR_HINT "this benchcore loads ABI %d.x plugins: rebuild it against this benchcore's headers"

#define BC_UNSAFE_HINT "(use --allow-unsafe-plugins to load anyway)"

struct bc_load_err {
	char msg[BC_REASON_LEN];
};

static int bc_fail(struct bc_load_err *e, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bc_fail(struct bc_load_err *e, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return err;
}

/* ------------------------------------------------------------ security */

/*
 * Benchmarks run as root: whoever can write a plugin file, or the directory
 * it is in, can run code as root. Refuse both unless the user says so.
 */
static int bc_check_owner_mode(const struct stat *st, bool is_dir, struct bc_load_err *e)
{
	const char *what = is_dir ? "directory" : "file";
	uid_t me = getuid();

	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return bc_fail(e, -EPERM,
			       "%s is writable by group or others; a writable plugin %s gives root to anyone who can write there " BC_UNSAFE_HINT,
			       what, what);
	if (st->st_uid != 0 && st->st_uid != me)
		return bc_fail(e, -EPERM,
			       "%s is owned by uid %u, neither root nor the invoking user (uid %u); a plugin %s someone else controls gives them root " BC_UNSAFE_HINT,
			       what, (unsigned int)st->st_uid, (unsigned int)me, what);
	return 0;
}

/*
 * Every directory above a plugin directory, up to /, as sudo and ssh check
 * the paths of their configuration: whoever can write to one of them can
 * rename the plugin directory away and put their own in its place. A sticky
 * directory (/tmp) lets others add entries, not rename ours.
 */
static int bc_check_parents(const char *real, struct bc_load_err *e)
{
	char path[PATH_MAX], *slash;
	uid_t me = getuid();
	struct stat st;

	if (snprintf(path, sizeof(path), "%s", real) >= (int)sizeof(path))
		return bc_fail(e, -ENAMETOOLONG, "%s", strerror(ENAMETOOLONG));
	for (;;) {
		slash = strrchr(path, '/');
		if (!slash || (slash == path && !path[1]))
			return 0;
		if (slash == path)
			path[1] = '\0';
		else
			*slash = '\0';
		if (stat(path, &st))
			return bc_fail(e, -errno, "parent directory %s: %s", path, strerror(errno));
		if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
			return bc_fail(e, -EPERM,
				       "parent directory %s is writable by group or others and not sticky; whoever can write there can replace the plugin directory " BC_UNSAFE_HINT,
				       path);
		if (st.st_uid != 0 && st.st_uid != me)
			return bc_fail(e, -EPERM,
				       "parent directory %s is owned by uid %u, neither root nor the invoking user (uid %u); its owner can replace the plugin directory " BC_UNSAFE_HINT,
				       path, (unsigned int)st.st_uid, (unsigned int)me);
	}
}

/* The directory itself, then every directory above it. */
static int bc_check_dir_chain(const char *dir, const struct stat *st, struct bc_load_err *e)
{
	char real[PATH_MAX];
	int err;

	err = bc_check_owner_mode(st, true, e);
	if (err)
		return err;
	if (!realpath(dir, real))
		return bc_fail(e, -errno, "%s", strerror(errno));
	return bc_check_parents(real, e);
}

static int bc_check_dir_safe(const char *dir, bool allow_unsafe, struct bc_load_err *e)
{
	struct stat st;

	if (stat(dir, &st))
		return bc_fail(e, -errno, "%s", strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return bc_fail(e, -ENOTDIR, "not a directory");
	if (allow_unsafe)
		return 0;
	return bc_check_dir_chain(dir, &st, e);
}

/* A symlink into another directory: that directory, and those above it,
 * decide what the link will name next time. */
static int bc_check_link_target(const char *path, struct bc_load_err *e)
{
	char real[PATH_MAX], inner[BC_REASON_LEN], *slash;
	struct stat st;
	int err;

	if (lstat(path, &st))
		return bc_fail(e, -errno, "%s", strerror(errno));
	if (!S_ISLNK(st.st_mode))
		return 0;
	if (!realpath(path, real))
		return bc_fail(e, -errno, "%s", strerror(errno));
	slash = strrchr(real, '/');
	if (!slash || slash == real)
		return 0;
	*slash = '\0';
	if (stat(real, &st))
		return bc_fail(e, -errno, "%s: %s", real, strerror(errno));
	err = bc_check_dir_chain(real, &st, e);
	if (err) {
		snprintf(inner, sizeof(inner), "%s", e->msg);
		return bc_fail(e, err, "links into %s, whose %s", real, inner);
	}
	return 0;
}

/*
 * Opens the file the loader will load and checks that very file (fstat on
 * the descriptor), so that nothing can swap it between the check and
 * dlopen(), which is given /proc/self/fd/N. O_NONBLOCK: a FIFO named x.so
 * must not block the command. Returns the fd, or a negative errno.
 */
static int bc_open_checked(const char *path, bool allow_unsafe, struct stat *st,
			   struct bc_load_err *e)
{
	unsigned char magic[4];
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return bc_fail(e, -errno, "%s", strerror(errno));
	err = fstat(fd, st) ? bc_fail(e, -errno, "%s", strerror(errno)) : 0;
	if (!err && !S_ISREG(st->st_mode))
		err = bc_fail(e, -EINVAL, "not a regular file");
	if (!err && !allow_unsafe)
		err = bc_check_owner_mode(st, false, e);
	if (!err && !allow_unsafe)
		err = bc_check_link_target(path, e);
	/* Said here, not by the dynamic loader in a child process. */
	if (!err && st->st_size == 0)
		err = bc_fail(e, -ENOEXEC, "not a loadable shared object: empty file (0 bytes)");
	if (!err && (pread(fd, magic, sizeof(magic), 0) != (ssize_t)sizeof(magic) ||
		     memcmp(magic, "\177ELF", sizeof(magic))))
		err = bc_fail(e, -ENOEXEC, "not a loadable shared object: not an ELF file");
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/* ---------------------------------------------------- descriptor copies */

/* How to read one struct a plugin hands over. */
struct bc_sized {
	const char *what;	/* names it in messages: "benchmark 'x' descriptor" */
	size_t dst_sz;		/* sizeof the core's struct */
	size_t known;		/* the end of the last field the core knows */
	size_t min_sz;		/* fields the core cannot do without */
	size_t max_sz;		/* more is a garbage sz (or no room, embedded) */
	bool unnamed;		/* array elements have no name after sz */
};

/* " (this benchcore's is N)" when a bound is not the size itself: every
 * size message gives the size this core was built with. */
static const char *bc_own_size(size_t bound, size_t own)
{
	static __thread char buf[64];

	if (bound == own)
		return "";
	snprintf(buf, sizeof(buf), " (this benchcore's is %zu)", own);
	return buf;
}

/*
 * The one size rule (include/benchcore/benchcore.h): reads the plugin's
 * `src_sz` bytes into the core's layout. A smaller struct leaves the fields
 * it lacks zero; a larger one is accepted only when every byte past what the
 * core knows is zero, else refused naming the first non-zero one.
 */
static int bc_copy_sized(void *dst, const void *src, size_t src_sz, const struct bc_sized *s,
			 struct bc_load_err *e)
{
	const unsigned char *bytes = src;
	size_t i;

	if (src_sz < s->min_sz)
		return bc_fail(e, -EINVAL, "%s has sz %zu; at least %zu expected%s", s->what, src_sz,
			       s->min_sz, bc_own_size(s->min_sz, s->dst_sz));
	if (src_sz > s->max_sz)
		return bc_fail(e, -EINVAL, "%s has sz %zu; at most %zu expected%s", s->what, src_sz,
			       s->max_sz, bc_own_size(s->max_sz, s->dst_sz));
	for (i = s->known; i < src_sz; i++) {
		if (bytes[i])
			return bc_fail(e, -EOPNOTSUPP,
				       "%s has sz %zu but this benchcore knows only %zu bytes of it, and the unknown byte at offset %zu is not zero (a field of a newer ABI %d minor is set: update benchcore)",
				       s->what, src_sz, s->known, i, BC_ABI_MAJOR);
	}
	memset(dst, 0, s->dst_sz);
	memcpy(dst, src, src_sz < s->known ? src_sz : s->known);
	*(size_t *)dst = s->dst_sz;	/* every such struct starts with sz */
	return 0;
}

/*
 * An embedded struct bc_thread_range has a fixed place in the benchmark
 * descriptor: it may grow into its own padding, never past it, since the
 * fields after it would move.
 */
static int bc_copy_range(struct bc_thread_range *r, const char *bench, const char *who,
			 const struct bc_thread_range *def, struct bc_load_err *e)
{
	static const struct bc_thread_range none;
	struct bc_thread_range raw = *r;
	char what[160];
	struct bc_sized s = {
		.what = what, .dst_sz = sizeof(*r), .known = BC_RANGE_KNOWN,
		.min_sz = BC_RANGE_MIN_SZ, .max_sz = sizeof(*r),
	};

	snprintf(what, sizeof(what), "benchmark '%s': %s range", bench, who);
	/* 2.3: left out entirely (BC_BENCH() without it), the default. */
	if (!memcmp(&raw, &none, sizeof(raw))) {
		*r = *def;
		return 0;
	}
	if (raw.sz == 0)
		return bc_fail(e, -EINVAL,
			       "%s has sz 0; %zu expected (fill it with BC_THREADS(min, max, def))",
			       what, sizeof(*r));
	return bc_copy_sized(r, &raw, raw.sz, &s, e);
}

static const struct bc_thread_range bc_default_producers = BC_THREADS(1, 0, 1);
static const struct bc_thread_range bc_default_consumers = BC_THREADS(0, 0, 0);

static int bc_check_range(const char *bench, const char *who, const struct bc_thread_range *r,
			  struct bc_load_err *e)
{
	if (r->max && r->min > r->max)
		return bc_fail(e, -EINVAL, "benchmark '%s': %s range min %u is above max %u", bench,
			       who, r->min, r->max);
	if (r->def < r->min || (r->max && r->def > r->max)) {
		char max[16] = "no limit";

		if (r->max)
			snprintf(max, sizeof(max), "%u", r->max);
		return bc_fail(e, -EINVAL,
			       "benchmark '%s': default of %u %s is outside its range %u..%s", bench,
			       r->def, who, r->min, max);
	}
	return 0;
}

/* What every element of a metric or option array starts with. */
struct bc_named_head {
	size_t sz;
	const char *name;
};
_Static_assert(offsetof(struct bc_metric_desc, name) == offsetof(struct bc_named_head, name),
	       "metric name moved");
_Static_assert(offsetof(struct bc_option, name) == offsetof(struct bc_named_head, name),
	       "option name moved");
_Static_assert(offsetof(struct bc_attach_point, name) == offsetof(struct bc_named_head, name),
	       "attach point name moved");

/*
 * Copies a plugin's array of sized structs (stride = the first element's sz)
 * into a calloc'ed array of the core's layout, each element by the size rule.
 * `s->what` names the array ("benchmark 'x': metric"); each element is named
 * by its index and, when it has one, its name.
 */
static int bc_copy_array(void **out, const void *src, unsigned int cnt, const struct bc_sized *s,
			 struct bc_load_err *e)
{
	const unsigned char *base = src;
	struct bc_sized elem = *s;
	char what[192];
	unsigned char *dst;
	size_t stride, i;
	int err;

	*out = NULL;
	if (cnt == 0)
		return 0;
	if (!src)
		return bc_fail(e, -EINVAL, "%s: %u declared but the array is NULL", s->what, cnt);
	stride = *(const size_t *)src;
	dst = calloc(cnt, s->dst_sz);
	if (!dst)
		return bc_fail(e, -ENOMEM, "out of memory");
	*out = dst;
	elem.what = what;
	for (i = 0; i < cnt; i++) {
		const struct bc_named_head *h = (const void *)(base + i * stride);

		if (!s->unnamed && h->sz >= BC_OFFSETOFEND(struct bc_named_head, name) && h->name &&
		    h->name[0])
			snprintf(what, sizeof(what), "%s #%zu '%s'", s->what, i, h->name);
		else
			snprintf(what, sizeof(what), "%s #%zu", s->what, i);
		if (h->sz != stride)
			return bc_fail(e, -EINVAL, "%s has sz %zu; %zu expected, as #0 has", what,
				       h->sz, stride);
		err = bc_copy_sized(dst + i * s->dst_sz, h, h->sz, &elem, e);
		if (err)
			return err;
	}
	return 0;
}

static const struct bc_metric_desc *bc_find_metric(const struct bc_bench *b, size_t cnt,
						   const char *name)
{
	size_t i;

	for (i = 0; i < cnt; i++)
		if (!strcmp(b->metrics[i].name, name))
			return &b->metrics[i];
	return NULL;
}

bool bc_bench_measured_by_core(const struct bc_bench *b)
{
	unsigned int i;

	for (i = 0; i < b->desc.metric_cnt; i++)
		if (b->metrics[i].kind != BC_METRIC_HISTOGRAM && !b->metrics[i].bpf &&
		    !b->metrics[i].threads)
			return false;
	return true;
}

static bool bc_unit_is_time(const char *u)
{
	return u && (!strcmp(u, "ns") || !strcmp(u, "us") || !strcmp(u, "ms") || !strcmp(u, "s"));
}

/*
 * A time per operation (ABI 2.3) is read from two BPF sources, and is a
 * time: its divisor is in no metric the plugin declares, so the loader is
 * the only place that can tell its author what is missing.
 */
static int bc_check_time_per_op(const char *bench, const struct bc_metric_desc *m,
				struct bc_load_err *e)
{
	if (m->kind != BC_METRIC_TIME_PER_OP) {
		if (m->bpf_per)
			return bc_fail(e, -EINVAL,
				       "benchmark '%s': metric '%s' sets bpf_per, which only a BC_METRIC_TIME_PER_OP has",
				       bench, m->name);
		return 0;
	}
	if (!m->bpf)
		return bc_fail(e, -EINVAL,
			       "benchmark '%s': time-per-op metric '%s' has no bpf: name the BPF time counter (\"batches.ns\" of BC_BATCH_TIMINGS(batches))",
			       bench, m->name);
	if (!m->bpf_per)
		return bc_fail(e, -EINVAL,
			       "benchmark '%s': time-per-op metric '%s' has no bpf_per: name the BPF operation counter it is divided by (\"batches.ops\" of BC_BATCH_TIMINGS(batches))",
			       bench, m->name);
	if (!bc_unit_is_time(m->unit))
		return bc_fail(e, -EINVAL,
			       "benchmark '%s': time-per-op metric '%s' has unit '%s'; expected the time counter's unit: ns, us, ms or s",
			       bench, m->name, m->unit ? m->unit : "");
	if (m->role != BC_ROLE_AUX && m->role != BC_ROLE_LATENCY)
		return bc_fail(e, -EINVAL,
			       "benchmark '%s': time-per-op metric '%s' has role %d; a time per operation is BC_ROLE_LATENCY or BC_ROLE_AUX",
			       bench, m->name, (int)m->role);
	return 0;
}

/* Roles and kinds the core can render (enum bc_metric_role's comment). */
static int bc_check_metric(const struct bc_bench *b, const struct bc_metric_desc *m,
			   struct bc_load_err *e)
{
	const char *bench = b->desc.name;
	const struct bc_metric_desc *per;
	int err;

	if (m->kind < BC_METRIC_COUNTER || m->kind > BC_METRIC_TIME_PER_OP)
		return bc_fail(e, -EINVAL, "benchmark '%s': metric '%s' has unknown kind %d (%d to %d expected)",
			       bench, m->name, (int)m->kind, BC_METRIC_COUNTER, BC_METRIC_TIME_PER_OP);
	if (m->role < BC_ROLE_AUX || m->role > BC_ROLE_LATENCY)
		return bc_fail(e, -EINVAL, "benchmark '%s': metric '%s' has unknown role %d (%d to %d expected)",
			       bench, m->name, (int)m->role, BC_ROLE_AUX, BC_ROLE_LATENCY);
	if (m->kind == BC_METRIC_HISTOGRAM && m->role != BC_ROLE_AUX && m->role != BC_ROLE_LATENCY)
		return bc_fail(e, -EINVAL,
			       "benchmark '%s': histogram metric '%s' has role %d; a histogram is BC_ROLE_LATENCY or BC_ROLE_AUX",
			       bench, m->name, (int)m->role);
	err = bc_check_time_per_op(bench, m, e);
	if (err)
		return err;
	/* 2.3: a total the threads count, which only a counter or a ratio is. */
	if (m->threads && m->kind != BC_METRIC_COUNTER && m->kind != BC_METRIC_RATIO)
		return bc_fail(e, -EINVAL,
			       "benchmark '%s': metric '%s' sets threads, but is kind %d; the threads count a BC_METRIC_COUNTER or the total of a BC_METRIC_RATIO",
			       bench, m->name, (int)m->kind);
	if (m->threads && m->bpf)
		return bc_fail(e, -EINVAL,
			       "benchmark '%s': metric '%s' sets both threads and bpf; the core reads it from one place: drop one",
			       bench, m->name);
	if (m->kind != BC_METRIC_RATIO) {
		if (m->per)
			return bc_fail(e, -EINVAL,
				       "benchmark '%s': metric '%s' sets per, which only a BC_METRIC_RATIO has",
				       bench, m->name);
		return 0;
	}
	if (!m->per || !m->per[0])
		return bc_fail(e, -EINVAL,
			       "benchmark '%s': ratio metric '%s' has no per: name the counter it is divided by",
			       bench, m->name);
	per = bc_find_metric(b, b->desc.metric_cnt, m->per);
	if (!per || per == m || per->kind != BC_METRIC_COUNTER)
		return bc_fail(e, -EINVAL,
			       "benchmark '%s': ratio metric '%s' is per '%s', which is not another counter metric of the benchmark",
			       bench, m->name, m->per);
	return 0;
}

/*
 * Names the core writes into the same JSON object as the metrics' own
 * (the run document's "summary" holds each metric and these): a metric of
 * that name would make a duplicate key that readers drop.
 */
static const char *const bc_reserved_metric_names[] = { "figures", "bpf_stats", NULL };

static bool bc_metric_name_reserved(const char *name)
{
	for (size_t i = 0; bc_reserved_metric_names[i]; i++)
		if (!strcmp(bc_reserved_metric_names[i], name))
			return true;
	return false;
}

/* The first character a metric name must not have: it is one word in the
 * text report, a JSON key, and a column in CSV-like tables. */
static int bc_metric_name_bad_char(const char *name)
{
	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		if (*c <= ' ' || *c >= 0x7f || strchr("\"'%\\,:", *c))
			return *c;
	return -1;
}

/* A label or unit is printed inside one report line. */
static int bc_text_bad_char(const char *text)
{
	for (const unsigned char *c = (const unsigned char *)text; c && *c; c++)
		if (*c < ' ' || *c == 0x7f)
			return *c;
	return -1;
}

static int bc_copy_metrics(struct bc_bench *b, struct bc_load_err *e)
{
	const struct bc_bench_desc *d = &b->desc;
	const char *name = d->name;
	char what[128];
	struct bc_sized s = {
		.what = what, .dst_sz = sizeof(*b->metrics), .known = BC_METRIC_DESC_KNOWN,
		.min_sz = BC_METRIC_DESC_MIN_SZ, .max_sz = BC_DESC_MAX_SZ,
	};
	size_t i;
	int err, bad;

	if (d->metric_cnt == 0)
		return bc_fail(e, -EINVAL, "benchmark '%s' declares no metrics; at least one expected",
			       name);
	snprintf(what, sizeof(what), "benchmark '%s': metric", name);
	err = bc_copy_array((void **)&b->metrics, d->metrics, d->metric_cnt, &s, e);
	if (err)
		return err;
	for (i = 0; i < d->metric_cnt; i++) {
		struct bc_metric_desc *m = &b->metrics[i];

		if (!m->name || !m->name[0])
			return bc_fail(e, -EINVAL, "benchmark '%s': metric #%zu has an empty name",
				       name, i);
		if (bc_find_metric(b, i, m->name))
			return bc_fail(e, -EINVAL, "benchmark '%s': duplicate metric name '%s'",
				       name, m->name);
		bad = bc_metric_name_bad_char(m->name);
		if (bad >= 0)
			return bc_fail(e, -EINVAL,
				       "benchmark '%s': metric #%zu's name has byte 0x%02x; a metric name is printable ASCII without blanks, quotes, '%%', '\\', ',' or ':'",
				       name, i, bad);
		if (bc_metric_name_reserved(m->name))
			return bc_fail(e, -EINVAL,
				       "benchmark '%s': metric name '%s' is reserved (the report's summary has a member of that name; reserved: figures, bpf_stats)",
				       name, m->name);
		bad = bc_text_bad_char(m->label);
		if (bad < 0)
			bad = bc_text_bad_char(m->unit);
		if (bad >= 0)
			return bc_fail(e, -EINVAL,
				       "benchmark '%s': metric '%s' has control character 0x%02x in its label or unit; each is printed inside one report line",
				       name, m->name, bad);
		if (!m->unit)
			m->unit = "";
		/* A BPF source is one symbol or map name (ABI 2.2). */
		if (m->bpf && (!m->bpf[0] || bc_metric_name_bad_char(m->bpf) >= 0))
			return bc_fail(e, -EINVAL,
				       "benchmark '%s': metric '%s' has bpf '%s'; expected the name of a BPF global or map, optionally with '.field'",
				       name, m->name, m->bpf);
		if (m->bpf_per && (!m->bpf_per[0] || bc_metric_name_bad_char(m->bpf_per) >= 0))
			return bc_fail(e, -EINVAL,
				       "benchmark '%s': metric '%s' has bpf_per '%s'; expected the name of a BPF global, optionally with '.field'",
				       name, m->name, m->bpf_per);
	}
	/* Names first: a ratio's per may name a later metric. */
	for (i = 0; i < d->metric_cnt; i++) {
		err = bc_check_metric(b, &b->metrics[i], e);
		if (err)
			return err;
	}
	/* The rest of the core indexes the normalised copy. */
	b->desc.metrics = b->metrics;
	return 0;
}

/*
 * The Summary line's figures (ABI 2.2): every name a metric's. Under the
 * kernel runner's name the runner's line stays; the one place it has for
 * another figure is an ops line's latency, which a LATENCY or RATIO metric
 * in a time unit may take.
 */
static int bc_check_summary(const struct bc_bench *b, struct bc_load_err *e)
{
	const char *p = b->desc.summary, *bench = b->desc.name;
	char name[128];
	bool ops = false;

	if (!p)
		return 0;
	for (size_t i = 0; i < b->desc.metric_cnt; i++)
		ops |= b->metrics[i].role == BC_ROLE_OPS;
	if (!*p)
		return bc_fail(e, -EINVAL, "benchmark '%s': summary is empty; NULL gives the roles' figures",
			       bench);
	while (*p) {
		size_t len = strcspn(p, ",");
		const struct bc_metric_desc *m;

		snprintf(name, sizeof(name), "%.*s", (int)(len < sizeof(name) ? len : sizeof(name) - 1),
			 p);
		m = bc_find_metric(b, b->desc.metric_cnt, name);
		if (!m)
			return bc_fail(e, -EINVAL,
				       "benchmark '%s': summary names '%s', which is not one of its metrics",
				       bench, name);
		if (b->desc.runner_name && m->role != BC_ROLE_OPS &&
		    !(ops && m->kind != BC_METRIC_HISTOGRAM &&
		      (m->role == BC_ROLE_LATENCY || m->kind == BC_METRIC_RATIO) &&
		      bc_unit_is_time(m->unit)))
			return bc_fail(e, -EINVAL,
				       "benchmark '%s': summary names '%s', but under the kernel runner's name the Summary keeps the runner's line: only an OPS headline's latency may be given, by a LATENCY or RATIO metric in ns, us, ms or s",
				       bench, name);
		p += len + (p[len] == ',');
	}
	return 0;
}

int bc_bench_role_headline(const struct bc_bench *b)
{
	static const enum bc_metric_role order[] = { BC_ROLE_HITS, BC_ROLE_OPS };

	for (size_t r = 0; b && b->metrics && r < sizeof(order) / sizeof(order[0]); r++)
		for (unsigned int i = 0; i < b->desc.metric_cnt; i++)
			if (b->metrics[i].role == order[r] &&
			    b->metrics[i].kind != BC_METRIC_HISTOGRAM)
				return (int)i;
	return -1;
}

/*
 * The declared headline (ABI 2.3): the figure every reader judges, so it
 * must be one a run has a mean of. Under the kernel runner's name the
 * runner's lines stay and show the runner's figure: a headline that is not
 * that one would be judged without being printed.
 */
static int bc_check_headline(const struct bc_bench *b, struct bc_load_err *e)
{
	const char *h = b->desc.headline, *bench = b->desc.name;
	const struct bc_metric_desc *m, *runner;
	char names[256];
	size_t off = 0;
	int r;

	if (!h)
		return 0;
	if (!*h)
		return bc_fail(e, -EINVAL,
			       "benchmark '%s': headline is empty; name one of its metrics, or leave it NULL for the first HITS, else OPS metric",
			       bench);
	m = bc_find_metric(b, b->desc.metric_cnt, h);
	if (!m) {
		names[0] = '\0';
		for (size_t i = 0; i < b->desc.metric_cnt && off < sizeof(names); i++)
			off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s",
						i ? ", " : "", b->metrics[i].name);
		return bc_fail(e, -EINVAL,
			       "benchmark '%s': headline names '%s', which is not one of its metrics (%s); name one of them",
			       bench, h, names);
	}
	if (m->kind == BC_METRIC_HISTOGRAM)
		return bc_fail(e, -EINVAL,
			       "benchmark '%s': headline names '%s', a histogram, which has no mean to judge; name a counter, gauge, ratio or time-per-op metric",
			       bench, h);
	r = bc_bench_role_headline(b);
	runner = r >= 0 ? &b->metrics[r] : NULL;
	if (!b->desc.runner_name || m == runner)
		return 0;
	if (runner)
		return bc_fail(e, -EINVAL,
			       "benchmark '%s': headline names '%s', but under the kernel runner's name the result is the runner's figure, '%s': name that one or leave headline NULL",
			       bench, h, runner->name);
	return bc_fail(e, -EINVAL,
		       "benchmark '%s': headline names '%s', but under the kernel runner's name the result is the runner's figure, and no HITS or OPS metric gives one: leave headline NULL",
		       bench, h);
}

/* Option tables, plugin-wide or per benchmark: normalised copies the options
 * engine reads (core/plugin_opts.c checks names, types and defaults). */
static int bc_copy_options(struct bc_option **out, size_t *cnt_out, const struct bc_option *src,
			   unsigned int cnt, const char *what, struct bc_load_err *e)
{
	struct bc_sized s = {
		.what = what, .dst_sz = sizeof(**out), .known = BC_OPTION_KNOWN,
		.min_sz = BC_OPTION_MIN_SZ, .max_sz = BC_DESC_MAX_SZ,
	};
	int err;

	err = bc_copy_array((void **)out, src, cnt, &s, e);
	*cnt_out = err ? 0 : cnt;
	return err;
}

/* The kernel needs and attach points `list` checks (ABI 2.1): normalised
 * copies the feature checks read, each kind a known one. */
static int bc_copy_needs(struct bc_bench *b, struct bc_load_err *e)
{
	struct bc_bench_desc *d = &b->desc;
	char what[160];
	struct bc_sized s = {
		.what = what, .dst_sz = sizeof(*b->needs), .known = BC_NEED_KNOWN,
		.min_sz = BC_NEED_MIN_SZ, .max_sz = BC_DESC_MAX_SZ, .unnamed = true,
	};
	size_t i;
	int err;

	snprintf(what, sizeof(what), "benchmark '%s': need", d->name);
	err = bc_copy_array((void **)&b->needs, d->needs, d->need_cnt, &s, e);
	if (err)
		return err;
	for (i = 0; i < d->need_cnt; i++) {
		const struct bc_need *n = &b->needs[i];

		if (n->kind < BC_NEED_PROG_TYPE || n->kind > BC_NEED_FILE)
			return bc_fail(e, -EINVAL, "benchmark '%s': need #%zu has unknown kind %d (%d to %d expected)",
				       d->name, i, (int)n->kind, BC_NEED_PROG_TYPE, BC_NEED_FILE);
		if (n->kind >= BC_NEED_BTF_FUNC && (!n->name || !n->name[0]))
			return bc_fail(e, -EINVAL, "benchmark '%s': need #%zu (kind %d) has no name",
				       d->name, i, (int)n->kind);
	}
	d->needs = b->needs;

	snprintf(what, sizeof(what), "benchmark '%s': attach point", d->name);
	s.dst_sz = sizeof(*b->points);
	s.known = BC_POINT_KNOWN;
	s.min_sz = BC_POINT_MIN_SZ;
	s.unnamed = false;
	err = bc_copy_array((void **)&b->points, d->attach_points, d->attach_point_cnt, &s, e);
	if (err)
		return err;
	for (i = 0; i < d->attach_point_cnt; i++) {
		const struct bc_attach_point *pt = &b->points[i];

		if (pt->kind < BC_ATTACH_FENTRY || pt->kind > BC_ATTACH_OTHER)
			return bc_fail(e, -EINVAL, "benchmark '%s': attach point #%zu has unknown kind %d (%d to %d expected)",
				       d->name, i, (int)pt->kind, BC_ATTACH_FENTRY, BC_ATTACH_OTHER);
	}
	d->attach_points = b->points;
	return 0;
}

/*
 * Stands in the normalised descriptor's `attach` of a benchmark with a
 * skeleton (2.3), so that every reader of the descriptor sees one that
 * attaches (`list --probe` probes it); the ladder (attach.c) runs the
 * core's skeleton path for it and never calls this.
 */
int bc_bench_core_attach(struct bc_ctx *ctx, const struct bc_attach_point *pt)
{
	(void)ctx;
	(void)pt;
	return -ENOSYS;
}

/*
 * The attach ladder a descriptor asks for must be one that can run: an
 * attach callback or a skeleton (2.3) has candidates, and the skeleton's
 * struct is whole. Said at load, where `list` shows it, not at every run.
 */
static int bc_check_attach(struct bc_bench *b, struct bc_load_err *e)
{
	struct bc_bench_desc *d = &b->desc;
	const char *how = d->skel ? "a skeleton (skel)" : "an attach callback";
	char what[160];
	struct bc_sized s = {
		.what = what, .dst_sz = sizeof(b->skel), .known = BC_SKEL_KNOWN,
		.min_sz = BC_SKEL_MIN_SZ, .max_sz = BC_DESC_MAX_SZ,
	};
	int err;

	if (!d->skel && (d->configure || d->loaded))
		return bc_fail(e, -EINVAL,
			       "benchmark '%s' sets %s without a skeleton; they are called on the core's skeleton: set skel (&NAME_skel, BC_SKEL(NAME))",
			       d->name, d->configure ? "configure" : "loaded");
	if (d->skel && d->attach)
		return bc_fail(e, -EINVAL,
			       "benchmark '%s' sets both skel and attach; with a skeleton the core attaches: drop the attach callback",
			       d->name);
	if ((d->skel || d->attach) && !d->attach_point_cnt)
		return bc_fail(e, -EINVAL,
			       "benchmark '%s' has %s but no attach points; list its candidates in attach_points (BC_POINTS())",
			       d->name, how);
	if (!d->skel)
		return 0;
	snprintf(what, sizeof(what), "benchmark '%s': skeleton", d->name);
	err = bc_copy_sized(&b->skel, d->skel, d->skel->sz, &s, e);
	if (err)
		return err;
	if (!b->skel.name || !b->skel.open || !b->skel.load || !b->skel.attach ||
	    !b->skel.detach || !b->skel.destroy || !b->skel.object)
		return bc_fail(e, -EINVAL,
			       "benchmark '%s': skeleton has a NULL name or function; define it with BC_SKEL(NAME)",
			       d->name);
	for (size_t i = 0; i < d->attach_point_cnt; i++)
		if (!b->points[i].prog_name)
			return bc_fail(e, -EINVAL,
				       "benchmark '%s': attach point #%zu '%s' has no prog_name; with a skeleton every candidate names its program",
				       d->name, i, b->points[i].name ? b->points[i].name : "");
	d->skel = &b->skel;
	d->attach = bc_bench_core_attach;
	return 0;
}

/* The first character a name must not have, or NUL: names are one word, and
 * ':' separates PLUGIN from BENCH. */
static char bc_name_bad_char(const char *name, const char *also)
{
	const unsigned char *c;

	for (c = (const unsigned char *)name; *c; c++)
		if (*c == ':' || isspace(*c) || iscntrl(*c) || strchr(also, *c))
			return (char)*c;
	return '\0';
}

static int bc_copy_bench(struct bc_bench *b, const struct bc_bench_desc *src, size_t idx,
			 struct bc_load_err *e)
{
	struct bc_bench_desc *d = &b->desc;
	char what[160];
	struct bc_sized s = {
		.what = what, .dst_sz = sizeof(*d), .known = BC_BENCH_DESC_KNOWN,
		.min_sz = BC_BENCH_DESC_MIN_SZ, .max_sz = BC_DESC_MAX_SZ,
	};
	int err;

	/* Named by its name when the plugin's struct is large enough to say. */
	if (src->sz >= BC_OFFSETOFEND(struct bc_bench_desc, name) && src->name && src->name[0])
		snprintf(what, sizeof(what), "benchmark '%s' descriptor", src->name);
	else
		snprintf(what, sizeof(what), "benchmark #%zu descriptor", idx);
	err = bc_copy_sized(d, src, src->sz, &s, e);
	if (err)
		return err;
	if (!d->name || !d->name[0])
		return bc_fail(e, -EINVAL, "benchmark #%zu has an empty name", idx);
	if (bc_name_bad_char(d->name, ""))
		return bc_fail(e, -EINVAL, "benchmark name '%s' contains ':' or a blank", d->name);
	if (!d->description)
		d->description = "";
	if (!d->producer)
		return bc_fail(e, -EINVAL, "benchmark '%s' has no producer callback", d->name);
	err = bc_copy_range(&d->producers, d->name, "producers", &bc_default_producers, e);
	if (!err)
		err = bc_copy_range(&d->consumers, d->name, "consumers", &bc_default_consumers, e);
	if (!err)
		err = bc_check_range(d->name, "producers", &d->producers, e);
	if (!err)
		err = bc_check_range(d->name, "consumers", &d->consumers, e);
	if (err)
		return err;
	if (!d->consumer && (d->consumers.min > 0 || d->consumers.def > 0))
		return bc_fail(e, -EINVAL, "benchmark '%s' needs consumers but has no consumer callback",
			       d->name);
	/* A custom progress line without its summary (or the reverse) would
	 * mix two line shapes in one report. */
	if (!d->format_iter != !d->format_summary)
		return bc_fail(e, -EINVAL,
			       "benchmark '%s' sets one of format_iter and format_summary; custom lines need both",
			       d->name);
	err = bc_copy_metrics(b, e);
	if (err)
		return err;
	if (!d->measure && !bc_bench_measured_by_core(b))
		return bc_fail(e, -EINVAL,
			       "benchmark '%s' has no measure callback, and not every metric names its BPF source",
			       d->name);
	err = bc_check_summary(b, e);
	if (!err)
		err = bc_check_headline(b, e);
	if (err)
		return err;
	snprintf(what, sizeof(what), "benchmark '%s': option", d->name);
	err = bc_copy_options(&b->options, &b->option_cnt, d->options, d->option_cnt, what, e);
	if (err)
		return err;
	b->desc.options = b->options;
	err = bc_copy_needs(b, e);
	return err ? err : bc_check_attach(b, e);
}

/* The name dlopen() is given for a checked file. */
static void bc_dl_name(char *buf, size_t len, int fd)
{
	snprintf(buf, len, "/proc/self/fd/%d", fd);
}

/*
 * The dynamic loader knows a library by the name it was opened with: while
 * one opened as /proc/self/fd/N is loaded, that N must not name another
 * file, or dlopen() would hand back the old library. So the fd is closed
 * only once the library is really gone (not so for RTLD_NODELETE ones).
 */
static void bc_dl_fd_close(int fd)
{
	char name[64];
	void *still;

	bc_dl_name(name, sizeof(name), fd);
	still = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
	if (still) {
		dlclose(still);
		return;
	}
	close(fd);
}

static void bc_plugin_release(struct bc_plugin *p)
{
	size_t i;

	for (i = 0; i < p->bench_cnt; i++) {
		free(p->benches[i].metrics);
		free(p->benches[i].options);
		free(p->benches[i].needs);
		free(p->benches[i].points);
	}
	free(p->benches);
	free(p->options);
	free(p->prefixed);
	free(p->path);
	if (p->handle)
		dlclose(p->handle);
	if (p->fd_open)
		bc_dl_fd_close(p->fd);
	memset(p, 0, sizeof(*p));
}

/* Gives each of cnt options the prefix, its new name written into buf;
 * returns the bytes used, or only counts them (buf NULL). */
static size_t bc_prefix_table(struct bc_option *opts, size_t cnt, const char *prefix, char *buf)
{
	size_t used = 0, len;

	for (size_t i = 0; i < cnt; i++) {
		len = strlen(prefix) + strlen(opts[i].name ? opts[i].name : "") + 1;
		if (buf && opts[i].name) {
			snprintf(buf + used, len, "%s%s", prefix, opts[i].name);
			opts[i].name = buf + used;
		}
		used += len;
	}
	return used;
}

/*
 * 2.3: the plugin's option_prefix before every option name, the
 * benchmarks' included, once at load: everything after the loader (the
 * command line, --help, JSON, sweeps) sees the full names only.
 */
static int bc_prefix_options(struct bc_plugin *p, struct bc_load_err *e)
{
	const char *prefix = p->desc.option_prefix;
	size_t need, used;

	if (!prefix)
		return 0;
	for (const char *c = prefix; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_')
			return bc_fail(e, -EINVAL,
				       "plugin '%s': option_prefix '%s' has byte 0x%02x; an option name is letters, digits, '-' and '_'",
				       p->desc.name, prefix, (unsigned char)*c);
	need = bc_prefix_table(p->options, p->option_cnt, prefix, NULL);
	for (size_t i = 0; i < p->bench_cnt; i++)
		need += bc_prefix_table(p->benches[i].options, p->benches[i].option_cnt, prefix,
					NULL);
	if (!need)
		return 0;
	p->prefixed = malloc(need);
	if (!p->prefixed)
		return bc_fail(e, -ENOMEM, "out of memory");
	used = bc_prefix_table(p->options, p->option_cnt, prefix, p->prefixed);
	for (size_t i = 0; i < p->bench_cnt; i++)
		used += bc_prefix_table(p->benches[i].options, p->benches[i].option_cnt, prefix,
					p->prefixed + used);
	return 0;
}

static int bc_copy_plugin(struct bc_plugin *p, const struct bc_plugin_desc *src,
			  struct bc_load_err *e)
{
	struct bc_plugin_desc *d = &p->desc;
	struct bc_sized s = {
		.what = "plugin descriptor", .dst_sz = sizeof(*d), .known = BC_PLUGIN_DESC_KNOWN,
		.min_sz = BC_PLUGIN_DESC_MIN_SZ, .max_sz = BC_DESC_MAX_SZ,
	};
	size_t cnt, i, j;
	int err;

	if (src->sz < BC_PLUGIN_DESC_MAJOR_SZ)
		return bc_fail(e, -EINVAL, "plugin descriptor has sz %zu; at least %zu expected%s",
			       src->sz, BC_PLUGIN_DESC_MAJOR_SZ,
			       bc_own_size(BC_PLUGIN_DESC_MAJOR_SZ, sizeof(struct bc_plugin_desc)));
	/* Only sz and abi_major are where they are in every major: the minor
	 * of another major is not ours to read. */
	if (src->abi_major != BC_ABI_MAJOR)
		return bc_fail(e, -EPROTO, "built for plugin ABI %u.x; " BC_MAJOR_HINT,
			       src->abi_major, BC_ABI_MAJOR);
	/* No refusal by minor: the sizes decide (bc_copy_sized). */
	err = bc_copy_sized(d, src, src->sz, &s, e);
	if (err)
		return err;
	if (!d->name || !d->name[0])
		return bc_fail(e, -EINVAL, "plugin has an empty name");
	if (bc_name_bad_char(d->name, "/"))
		return bc_fail(e, -EINVAL, "plugin name '%s' contains ':', '/' or a blank", d->name);
	if (!d->version)
		d->version = "";
	if (!d->description)
		d->description = "";
	if (!d->benches || !d->benches[0])
		return bc_fail(e, -EINVAL, "plugin '%s' declares no benchmarks", d->name);
	err = bc_copy_options(&p->options, &p->option_cnt, d->options, d->option_cnt,
			      "plugin option", e);
	if (err)
		return err;
	d->options = p->options;

	for (cnt = 0; d->benches[cnt]; cnt++)
		;
	p->benches = calloc(cnt, sizeof(*p->benches));
	if (!p->benches)
		return bc_fail(e, -ENOMEM, "out of memory");
	for (i = 0; i < cnt; i++) {
		err = bc_copy_bench(&p->benches[i], d->benches[i], i, e);
		p->bench_cnt = i + 1;	/* so that release frees its metrics */
		if (err)
			return err;
		for (j = 0; j < i; j++) {
			if (!strcmp(p->benches[j].desc.name, p->benches[i].desc.name))
				return bc_fail(e, -EINVAL, "duplicate benchmark name '%s'",
					       p->benches[i].desc.name);
		}
	}
	return bc_prefix_options(p, e);
}

/* ---------------------------------------------------------------- names */

/* Plugin names as PLUGIN:BENCH reads them: '-' and '_' are the same. */
static bool bc_plugin_name_like(const char *a, size_t a_len, const char *b)
{
	size_t i;

	for (i = 0; i < a_len; i++, b++) {
		char x = a[i] == '-' ? '_' : a[i], y = *b == '-' ? '_' : *b;

		if (!*b || x != y)
			return false;
	}
	return !*b;
}

/*
 * The plugin's name is its file's stem: what `list` prints, what PLUGIN:BENCH
 * names and what is on disk are one word.
 */
static int bc_check_stem(const struct bc_plugin *p, struct bc_load_err *e)
{
	const char *base = strrchr(p->path, '/'), *name = p->desc.name;
	size_t len;

	base = base ? base + 1 : p->path;
	len = strlen(base);
	if (len > 3 && !strcmp(base + len - 3, ".so"))
		len -= 3;
	if (strlen(name) == len && !strncmp(name, base, len))
		return 0;
	return bc_fail(e, -EINVAL,
		       "plugin name '%s' does not match the file name: '%.*s' expected (the file name without .so)",
		       name, (int)len, base);
}

/* ---------------------------------------------------------------- files */

/* dlerror() repeats the name dlopen() was given; the caller prints the
 * file's own. */
static const char *bc_dlerror_short(const char *name)
{
	const char *msg = dlerror();
	size_t len = strlen(name);

	if (!msg)
		return "unknown error";
	if (!strncmp(msg, name, len) && !strncmp(msg + len, ": ", 2))
		return msg + len + 2;
	return msg;
}

/*
 * A plugin of another major usually links the library of its own major,
 * which is libbenchcore.so.<major> (the soname follows the ABI): when that
 * is what dlopen() could not find, say so as the descriptor check would.
 */
static int bc_dlopen_fail(const char *path, struct bc_load_err *e)
{
	static const char lib[] = "libbenchcore.so.";
	const char *msg = bc_dlerror_short(path), *at = strstr(msg, lib);
	unsigned long major;
	char *end;

	if (at) {
		errno = 0;
		major = strtoul(at + sizeof(lib) - 1, &end, 10);
		if (!errno && end != at + sizeof(lib) - 1 && *end == ':' && major != BC_ABI_MAJOR &&
		    major < 1000)
			return bc_fail(e, -EPROTO,
				       "built for plugin ABI %lu.x (it needs %.*s, which is not installed); " BC_MAJOR_HINT,
				       major, (int)(end - at), at, BC_ABI_MAJOR);
	}
	return bc_fail(e, -ENOEXEC, "not a loadable shared object: %s", msg);
}

/* Loads the checked file `fd` (its path names it in messages). `bind_now`:
 * resolve every symbol before returning. */
static int bc_open_plugin(struct bc_plugin *p, const char *path, int fd, bool bind_now,
			  struct bc_load_err *e)
{
	const struct bc_plugin_desc *src;
	char name[64];
	int err;

	memset(p, 0, sizeof(*p));
	p->path = strdup(path);
	if (!p->path)
		return bc_fail(e, -ENOMEM, "out of memory");
	bc_dl_name(name, sizeof(name), fd);
	/* RTLD_NOW in the inspecting child: a missing symbol is this file's
	 * refusal now, not a crash in the middle of a run. The command itself
	 * loads only what the child loaded that way, from the same libraries:
	 * it binds lazily, which saves resolving every symbol twice.
	 * RTLD_LOCAL: two plugins may both define static-looking helpers with
	 * the same name. */
	p->handle = dlopen(name, (bind_now ? RTLD_NOW : RTLD_LAZY) | RTLD_LOCAL);
	if (!p->handle)
		return bc_dlopen_fail(name, e);
	p->fd = fd;
	p->fd_open = true;
	dlerror();
	src = dlsym(p->handle, BC_PLUGIN_SYMBOL);
	if (!src)
		return bc_fail(e, -ENOENT, "does not export the '%s' symbol (not a benchcore plugin?)",
			       BC_PLUGIN_SYMBOL);
	err = bc_copy_plugin(p, src, e);
	return err ? err : bc_check_stem(p, e);
}

/* ----------------------------------------------------------- inspection */

/*
 * dlopen() runs the plugin's constructors, and reading its descriptor
 * follows its pointers: either can crash, hang or exit. So the files of a
 * directory are first loaded and read in a child process, which reports
 * each file's verdict through a pipe as it goes; the command dlopen()s only
 * the files that passed. One child per directory, not per file: a fork per
 * file was most of what `list` cost (every fork makes the parent fault its
 * pages back in, copy-on-write). When the child dies, exits or stops
 * reporting, the file it was loading is the one to blame, with one line
 * saying how; a new child takes the files after it. A file that passed
 * before in this process is not inspected again.
 */
#define BC_INSPECT_TIMEOUT_MS (30 * 1000)

/* One file of a directory, from its checks to its verdict. */
struct bc_cand {
	char *path;
	int fd;			/* the checked file; -1 once refused */
	struct stat st;
	bool pending;		/* waits for the inspecting child's verdict */
	int err;		/* 0, or why the file is refused */
	struct bc_load_err e;
};

struct bc_inspect_msg {
	unsigned int idx;	/* the candidate this verdict is for */
	int err;
	char msg[BC_REASON_LEN];
};

/* Files that passed, by identity: the same bytes need no second child. */
struct bc_inspected {
	dev_t dev;
	ino_t ino;
	struct timespec mtime;
	off_t size;
};
static struct bc_inspected *bc_passed;
static size_t bc_passed_cnt;

static bool bc_inspected_match(const struct bc_inspected *i, const struct stat *st)
{
	return i->dev == st->st_dev && i->ino == st->st_ino && i->size == st->st_size &&
	       i->mtime.tv_sec == st->st_mtim.tv_sec && i->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

static bool bc_inspect_cached(const struct stat *st)
{
	for (size_t i = 0; i < bc_passed_cnt; i++)
		if (bc_inspected_match(&bc_passed[i], st))
			return true;
	return false;
}

static void bc_inspect_remember(const struct stat *st)
{
	struct bc_inspected *grown = realloc(bc_passed, (bc_passed_cnt + 1) * sizeof(*grown));

	if (!grown)
		return;	/* only costs an inspection next time */
	bc_passed = grown;
	bc_passed[bc_passed_cnt++] = (struct bc_inspected){
		.dev = st->st_dev, .ino = st->st_ino, .mtime = st->st_mtim, .size = st->st_size,
	};
}

static void bc_cand_verdict(struct bc_cand *c, int err, const char *msg)
{
	c->pending = false;
	c->err = err;
	if (err)
		snprintf(c->e.msg, sizeof(c->e.msg), "%s", msg && msg[0] ? msg : strerror(-err));
	else
		bc_inspect_remember(&c->st);
}

/* Loads c[from..cnt-1]'s pending files in turn, as the command will, each
 * beside the ones before it, and reports every verdict at once. */
static __attribute__((noreturn)) void bc_inspect_child(const struct bc_cand *c, size_t cnt,
						       size_t from, int out)
{
	struct bc_inspect_msg m;
	struct bc_load_err e;
	struct bc_plugin p;
	int null;

	/* Gone with the command, whatever the plugin does. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* A constructor's chatter is heard once, from the real load. */
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
	}
	bc_log_set_verbosity(-1);
	for (size_t i = from; i < cnt; i++) {
		if (!c[i].pending)
			continue;
		memset(&m, 0, sizeof(m));
		memset(&e, 0, sizeof(e));
		m.idx = (unsigned int)i;
		m.err = bc_open_plugin(&p, c[i].path, c[i].fd, true, &e);
		/* A refused file is unloaded, as the command unloads it; a
		 * passed one stays, as it will in the command. */
		if (m.err)
			bc_plugin_release(&p);
		snprintf(m.msg, sizeof(m.msg), "%s", e.msg);
		if (write(out, &m, sizeof(m)) != (ssize_t)sizeof(m))
			_exit(2);
	}
	/* No exit(): no atexit handler, no stdio buffer of the parent's. */
	_exit(0);
}

/* Reads the child's next report; false when it sent none in time. */
static bool bc_inspect_read(int in, struct bc_inspect_msg *m, bool *timed_out)
{
	struct pollfd pfd = { .fd = in, .events = POLLIN };
	size_t got = 0;
	ssize_t n;
	int r;

	*timed_out = false;
	while (got < sizeof(*m)) {
		r = poll(&pfd, 1, BC_INSPECT_TIMEOUT_MS);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0) {
			*timed_out = true;
			return false;
		}
		if (r < 0)
			return false;
		n = read(in, (char *)m + got, sizeof(*m) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		got += (size_t)n;
	}
	return true;
}

static size_t bc_next_pending(const struct bc_cand *c, size_t cnt, size_t i)
{
	while (i < cnt && !c[i].pending)
		i++;
	return i;
}

/*
 * One child for the pending files from c[from] on. Returns the index to go
 * on from: past the last file it gave a verdict on, and past the file it
 * died on, which is blamed for it.
 */
static size_t bc_inspect_from(struct bc_cand *c, size_t cnt, size_t from)
{
	struct bc_inspect_msg m;
	bool timed_out = false, garbled = false;
	int pipefd[2], status = 0, err;
	size_t at = from;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		goto no_child;
	pid = fork();
	if (pid < 0) {
		err = errno;
		close(pipefd[0]);
		close(pipefd[1]);
		errno = err;
		goto no_child;
	}
	if (pid == 0) {
		close(pipefd[0]);
		bc_inspect_child(c, cnt, from, pipefd[1]);
	}
	close(pipefd[1]);
	while (bc_inspect_read(pipefd[0], &m, &timed_out)) {
		/* Verdicts come in order: anything else is not our child's
		 * report, and the file it was on gets the blame below. */
		if (m.idx != at) {
			garbled = true;
			break;
		}
		m.msg[sizeof(m.msg) - 1] = '\0';
		bc_cand_verdict(&c[at], m.err, m.msg);
		at = bc_next_pending(c, cnt, at + 1);
		if (at == cnt)
			break;
	}
	close(pipefd[0]);
	/* Dead already, or hung, or it closed our pipe and lives on. */
	if (at < cnt)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (at == cnt)
		return cnt;
	if (timed_out)
		err = bc_fail(&c[at].e, -ETIMEDOUT,
			      "did not finish loading in %d s (a constructor that blocks?); killed",
			      BC_INSPECT_TIMEOUT_MS / 1000);
	else if (garbled)
		err = bc_fail(&c[at].e, -EPROTO, "garbled the loader's report while loading; killed");
	else if (WIFSIGNALED(status))
		err = bc_fail(&c[at].e, -ECHILD, "crashed while loading: killed by signal %d (%s)",
			      WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		err = bc_fail(&c[at].e, -ECHILD,
			      "exited with status %d while loading (a constructor called exit())",
			      WEXITSTATUS(status));
	else
		err = bc_fail(&c[at].e, -ECHILD, "stopped while loading");
	c[at].pending = false;
	c[at].err = err;
	return at + 1;

no_child:
	err = errno;
	for (at = from; at < cnt; at++) {
		if (!c[at].pending)
			continue;
		c[at].pending = false;
		c[at].err = bc_fail(&c[at].e, -err, "cannot inspect the file: %s", strerror(err));
	}
	return cnt;
}

static void bc_inspect_all(struct bc_cand *c, size_t cnt)
{
	size_t i = bc_next_pending(c, cnt, 0);

	while (i < cnt)
		i = bc_next_pending(c, cnt, bc_inspect_from(c, cnt, i));
}

/* ------------------------------------------------------------- the set */

/* bench->plugin points into set->plugins, which moves when it grows. */
static void bc_plugin_set_fixup(struct bc_plugin_set *set)
{
	size_t i, j;

	for (i = 0; i < set->cnt; i++)
		for (j = 0; j < set->plugins[i].bench_cnt; j++)
			set->plugins[i].benches[j].plugin = &set->plugins[i];
}

/* `exact`: byte for byte; else as PLUGIN:BENCH reads it ('-' == '_'). */
static const struct bc_plugin *bc_plugin_set_find(const struct bc_plugin_set *set, const char *name,
						  size_t len, bool exact)
{
	size_t i;

	for (i = 0; i < set->cnt; i++) {
		const char *pn = set->plugins[i].desc.name;

		if (exact ? strlen(pn) == len && !strncmp(pn, name, len)
			  : bc_plugin_name_like(name, len, pn))
			return &set->plugins[i];
	}
	return NULL;
}

/* "dir/name.so" -> "name": the plugin name a file stands for. */
static void bc_path_stem(const char *path, char *buf, size_t len)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 3 && !strcmp(base + n - 3, ".so"))
		n -= 3;
	snprintf(buf, len, "%.*s", (int)n, base);
}

/*
 * A refused file keeps its name: a file of the same name in a later
 * search directory (an installed copy) must not stand in for it, or an
 * author iterating on the refused one would measure the other.
 */
static void bc_refused_note(struct bc_plugin_set *set, const char *path, const char *why)
{
	struct bc_refused_plugin *grown, *r;
	char stem[256];

	bc_path_stem(path, stem, sizeof(stem));
	grown = realloc(set->refused, (set->refused_cnt + 1) * sizeof(*grown));
	if (!grown)
		return;	/* only costs the later copy's skip */
	set->refused = grown;
	r = &set->refused[set->refused_cnt];
	r->name = strdup(stem);
	r->path = strdup(path);
	r->why = strdup(why);
	r->dir = set->dir_idx;
	if (!r->name || !r->path || !r->why) {
		free(r->name);
		free(r->path);
		free(r->why);
		return;
	}
	set->refused_cnt++;
}

/* The refusal of a file named like `name` in an earlier directory. */
static const struct bc_refused_plugin *bc_refused_find(const struct bc_plugin_set *set,
						       const char *name, size_t len, bool earlier)
{
	for (size_t i = 0; i < set->refused_cnt; i++)
		if ((!earlier || set->refused[i].dir < set->dir_idx) &&
		    bc_plugin_name_like(name, len, set->refused[i].name))
			return &set->refused[i];
	return NULL;
}

/*
 * Loads one inspected file, or says in one line why it is refused.
 * `first_in_dir` is the index of the first plugin loaded from the current
 * directory: a name clash with an earlier directory is shadowing (the
 * search order at work), one within the directory is an error worth a line.
 */
static void bc_load_file(struct bc_plugin_set *set, struct bc_cand *c, size_t first_in_dir)
{
	const struct bc_refused_plugin *refused;
	const char *path = c->path;
	const struct bc_plugin *prev;
	struct bc_plugin p, *grown;
	int err;

	if (c->fd < 0 || c->err) {
		/* Said once for the whole search (bc_plugins_load). */
		if (c->err == -EMFILE || c->err == -ENFILE)
			set->no_fds++;
		else
			bc_warn("%s: %s", path, c->e.msg);
		if (c->fd >= 0)
			close(c->fd);
		set->failed_cnt++;
		bc_refused_note(set, path, c->e.msg);
		return;
	}
	err = bc_open_plugin(&p, path, c->fd, false, &c->e);
	if (err) {
		bc_warn("%s: %s", path, c->e.msg);
		if (!p.fd_open)
			close(c->fd);
		bc_plugin_release(&p);
		set->failed_cnt++;
		bc_refused_note(set, path, c->e.msg);
		return;
	}
	if (set->check) {
		/* The check sees benchmarks that know their plugin. */
		for (size_t j = 0; j < p.bench_cnt; j++)
			p.benches[j].plugin = &p;
		err = set->check(&p, c->e.msg, sizeof(c->e.msg));
		if (err) {
			bc_warn("%s: %s", path, c->e.msg);
			bc_plugin_release(&p);
			set->failed_cnt++;
			bc_refused_note(set, path, c->e.msg);
			return;
		}
	}
	refused = bc_refused_find(set, p.desc.name, strlen(p.desc.name), true);
	if (refused) {
		bc_warn("%s: plugin '%s' not loaded: %s, earlier in the search path, was refused (above); fix or remove that file rather than run this copy instead",
			path, p.desc.name, refused->path);
		bc_plugin_release(&p);
		set->failed_cnt++;
		return;
	}
	/* "a-b" and "a_b" are one name to PLUGIN:BENCH, so one plugin here. */
	prev = bc_plugin_set_find(set, p.desc.name, strlen(p.desc.name), false);
	if (prev) {
		if ((size_t)(prev - set->plugins) >= first_in_dir) {
			bc_warn("%s: plugin name '%s' is already used by %s ('%s') in the same directory; skipped",
				path, p.desc.name, prev->path, prev->desc.name);
			set->failed_cnt++;
		} else {
			bc_debug("%s: plugin '%s' is shadowed by %s (found earlier in the search path); skipped",
				 path, p.desc.name, prev->path);
		}
		bc_plugin_release(&p);
		return;
	}
	grown = realloc(set->plugins, (set->cnt + 1) * sizeof(*grown));
	if (!grown) {
		bc_warn("%s: out of memory", path);
		bc_plugin_release(&p);
		set->failed_cnt++;
		return;
	}
	set->plugins = grown;
	set->plugins[set->cnt++] = p;
	bc_plugin_set_fixup(set);
	bc_debug("%s: loaded plugin '%s' %s (%zu benchmarks)", path, p.desc.name, p.desc.version,
		 p.bench_cnt);
}

static int bc_so_filter(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return d->d_name[0] != '.' && len > 3 && !strcmp(d->d_name + len - 3, ".so");
}

/* Byte order, not the locale's: the load order must not depend on LANG. */
static int bc_name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int bc_load_dir(struct bc_plugin_set *set, const char *dir, bool allow_unsafe)
{
	struct bc_load_err e = { { 0 } };
	struct bc_cand *cands;
	struct dirent **names;
	size_t first = set->cnt, cnt = 0, j;
	char path[PATH_MAX];
	int n, i, err;

	err = bc_check_dir_safe(dir, allow_unsafe, &e);
	if (err) {
		bc_warn("%s: %s", dir, e.msg);
		set->failed_cnt++;
		return err;
	}
	n = scandir(dir, &names, bc_so_filter, bc_name_cmp);
	if (n < 0) {
		err = -errno;
		bc_warn("%s: cannot list the directory: %s", dir, strerror(errno));
		set->failed_cnt++;
		return err;
	}
	cands = calloc(n ? (size_t)n : 1, sizeof(*cands));
	if (!cands) {
		bc_warn("%s: out of memory", dir);
		set->failed_cnt++;
	}
	/* Every file is checked and opened first, inspected together, then
	 * loaded in order: the lines come out in the directory's order. */
	for (i = 0; i < n; i++) {
		struct bc_cand *c = cands ? &cands[cnt] : NULL;

		if (snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name) >= (int)sizeof(path))
			bc_warn("%s/%s: path too long", dir, names[i]->d_name);
		else if (c && !(c->path = strdup(path)))
			bc_warn("%s: out of memory", path);
		else if (c)
			cnt++;
		free(names[i]);
		if (!c || !c->path)
			continue;
		c->fd = bc_open_checked(c->path, allow_unsafe, &c->st, &c->e);
		c->err = c->fd < 0 ? c->fd : 0;
		c->pending = c->fd >= 0 && !bc_inspect_cached(&c->st);
	}
	free(names);
	bc_inspect_all(cands, cnt);
	for (j = 0; j < cnt; j++) {
		bc_load_file(set, &cands[j], first);
		free(cands[j].path);
	}
	free(cands);
	return 0;
}

int bc_plugins_load_dir(struct bc_plugin_set *set, const char *dir, bool allow_unsafe)
{
	return bc_load_dir(set, dir, allow_unsafe);
}

int bc_plugins_load(struct bc_plugin_set *set, const struct bc_loader_opts *opts)
{
	struct bc_search_dir *dirs = NULL;
	char **seen = NULL;
	size_t cnt = 0, seen_cnt = 0, i, j;
	struct stat st;
	int err;

	set->check = opts->check;
	err = bc_plugin_search_dirs(opts, &dirs, &cnt);
	if (err)
		return err;
	/* A --plugin-dir that is not there is the user's typo: say so before
	 * anything is loaded, rather than silently finding nothing. */
	for (i = 0; i < cnt; i++) {
		if (!dirs[i].explicit_dir)
			continue;
		if (stat(dirs[i].path, &st)) {
			err = -errno;
			bc_warn("--plugin-dir '%s': %s; expected a directory of plugin .so files",
				dirs[i].path, strerror(errno));
		} else if (!S_ISDIR(st.st_mode)) {
			err = -ENOTDIR;
			bc_warn("--plugin-dir '%s': not a directory; expected a directory of plugin .so files",
				dirs[i].path);
		}
		if (err)
			goto out;
	}
	seen = calloc(cnt ? cnt : 1, sizeof(*seen));
	if (!seen) {
		err = -ENOMEM;
		goto out;
	}
	set->no_fds = 0;
	for (i = 0; i < cnt; i++) {
		char *real = realpath(dirs[i].path, NULL);
		bool dup = false;

		if (!real) {
			bc_debug("plugin directory %s: %s; skipped", dirs[i].path, strerror(errno));
			continue;
		}
		for (j = 0; j < seen_cnt && !dup; j++)
			dup = !strcmp(seen[j], real);
		if (dup) {
			bc_debug("plugin directory %s: already searched (it is %s); skipped", dirs[i].path,
				 real);
			free(real);
			continue;
		}
		seen[seen_cnt++] = real;
		bc_debug("searching plugin directory %s", dirs[i].path);
		set->dir_idx = seen_cnt;
		bc_load_dir(set, dirs[i].path, opts->allow_unsafe);
	}
	/* Each loaded plugin keeps its file open (struct bc_plugin.fd): a low
	 * `ulimit -n` refuses every file alike, so one line says it, and the
	 * command fails rather than list or run a partial set. */
	if (set->no_fds) {
		struct rlimit rl = { 0 };

		getrlimit(RLIMIT_NOFILE, &rl);
		bc_warn("cannot open %d plugin files: too many open files (this process may have %llu; each loaded plugin keeps one open); raise the limit with `ulimit -n`",
			set->no_fds, (unsigned long long)rl.rlim_cur);
		err = -EMFILE;
	}
out:
	for (i = 0; i < seen_cnt; i++)
		free(seen[i]);
	free(seen);
	bc_plugin_search_dirs_free(dirs, cnt);
	return err;
}

void bc_plugins_unload(struct bc_plugin_set *set)
{
	size_t i;

	for (i = 0; i < set->cnt; i++)
		bc_plugin_release(&set->plugins[i]);
	free(set->plugins);
	for (i = 0; i < set->refused_cnt; i++) {
		free(set->refused[i].name);
		free(set->refused[i].path);
		free(set->refused[i].why);
	}
	free(set->refused);
	memset(set, 0, sizeof(*set));
}

/* ------------------------------------------------------ name resolution */

static void bc_list_benches(const struct bc_plugin *p, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < p->bench_cnt && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
					p->benches[i].desc.name);
}

int bc_bench_resolve(const struct bc_plugin_set *set, const char *name,
		     const struct bc_bench **bench, char *err, size_t err_len)
{
	const char *colon = strchr(name, ':');
	const struct bc_bench *found = NULL;
	char cands[BC_REASON_LEN] = "";
	size_t i, j, off = 0, hits = 0;

	*bench = NULL;
	if (colon) {
		size_t len = (size_t)(colon - name);
		const struct bc_plugin *p = bc_plugin_set_find(set, name, len, true);

		/* Both spellings users have seen: local_storage, local-storage. */
		if (!p)
			p = bc_plugin_set_find(set, name, len, false);

		if (!p) {
			const struct bc_refused_plugin *r = bc_refused_find(set, name, len, false);

			if (r)
				snprintf(err, err_len, "plugin '%.*s' of '%s' is not loaded: %s was refused: %s",
					 (int)len, name, name, r->path, r->why);
			else
				snprintf(err, err_len, "unknown plugin '%.*s' in '%s'; `benchcore list` shows what is available",
					 (int)(colon - name), name, name);
			return -ENOENT;
		}
		for (j = 0; j < p->bench_cnt; j++) {
			if (!strcmp(p->benches[j].desc.name, colon + 1)) {
				*bench = &p->benches[j];
				return 0;
			}
		}
		bc_list_benches(p, cands, sizeof(cands));
		snprintf(err, err_len, "unknown benchmark '%s'; plugin %s has: %s", name, p->desc.name,
			 cands);
		return -ENOENT;
	}
	for (i = 0; i < set->cnt; i++) {
		const struct bc_plugin *p = &set->plugins[i];

		for (j = 0; j < p->bench_cnt; j++) {
			if (strcmp(p->benches[j].desc.name, name))
				continue;
			found = &p->benches[j];
			if (off < sizeof(cands))
				off += (size_t)snprintf(cands + off, sizeof(cands) - off, "%s%s:%s",
							hits ? ", " : "", p->desc.name, name);
			hits++;
		}
	}
	if (hits == 1) {
		*bench = found;
		return 0;
	}
	if (hits > 1) {
		snprintf(err, err_len, "benchmark '%s' is ambiguous: %s; name one as PLUGIN:BENCH", name,
			 cands);
		/* ENOTUNIQ: "name not unique", exactly this case. */
		return -ENOTUNIQ;
	}
	snprintf(err, err_len, "unknown benchmark '%s'; `benchcore list` shows what is available", name);
	return -ENOENT;
}
