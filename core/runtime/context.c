// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The run context a plugin sees, the reasons it reports, and the small
 * helpers every plugin may call. Plugins only reach struct bc_ctx through
 * these accessors, so its layout can change without an ABI bump.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <benchcore/attach.h>

#include "context.h"
#include "config.h"
#include "loader.h"
#include "exit_status.h"
#include "hist.h"
#include "plugin_opts.h"
#include "log.h"

#ifndef BENCHCORE_VERSION
#define BENCHCORE_VERSION "0.0.0"
#endif

/* Producer and consumer threads may fail at the same moment; the lock keeps
 * one reason whole instead of interleaving two. Only error paths take it. */
static pthread_mutex_t bc_reason_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned int bc_pick_threads(unsigned int asked, bool set, const struct bc_thread_range *r)
{
	if (set || asked)
		return asked;
	return r->def;
}

void bc_ctx_init(struct bc_ctx *ctx, const struct bc_config *cfg, const struct bc_bench *bench)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->cfg = cfg;
	ctx->bench = bench;
	if (cfg && bench) {
		ctx->producer_cnt = bc_pick_threads(cfg->producers, cfg->producers_set,
						    &bench->desc.producers);
		ctx->consumer_cnt = bc_pick_threads(cfg->consumers, cfg->consumers_set,
						    &bench->desc.consumers);
	} else if (bench) {
		ctx->producer_cnt = bench->desc.producers.def;
		ctx->consumer_cnt = bench->desc.consumers.def;
	}
}

int bc_ctx_exit_status(const struct bc_ctx *ctx, int err)
{
	if (!err)
		return BC_EXIT_OK;
	/* The flag says what kind of failure the plugin meant; the errno alone
	 * cannot (EINVAL may be a bad option or a kernel refusal). */
	if (ctx && ctx->usage_error)
		return BC_EXIT_USAGE;
	if (ctx && ctx->unavailable)
		return BC_EXIT_UNAVAILABLE;
	return BC_EXIT_FAILED;
}

unsigned int bc_ctx_producer_cnt(const struct bc_ctx *ctx)
{
	return ctx->producer_cnt;
}

unsigned int bc_ctx_consumer_cnt(const struct bc_ctx *ctx)
{
	return ctx->consumer_cnt;
}

double bc_ctx_duration_sec(const struct bc_ctx *ctx)
{
	return ctx->cfg ? ctx->cfg->duration_sec : 0;
}

double bc_ctx_warmup_sec(const struct bc_ctx *ctx)
{
	return ctx->cfg ? ctx->cfg->warmup_sec : 0;
}

bool bc_ctx_verbose(const struct bc_ctx *ctx)
{
	return ctx->cfg && ctx->cfg->verbosity > 0;
}

const char *bc_ctx_bench_name(const struct bc_ctx *ctx)
{
	return ctx->bench ? ctx->bench->desc.name : NULL;
}

void bc_ctx_set_data(struct bc_ctx *ctx, void *data)
{
	ctx->data = data;
}

void *bc_ctx_data(const struct bc_ctx *ctx)
{
	return ctx->data;
}

int bc_ctx_set_bpf_object(struct bc_ctx *ctx, struct bpf_object *obj)
{
	if (!ctx)
		return -EINVAL;
	/* Said as the plugin's mistake: a bare EINVAL from an attach
	 * callback would read as the kernel refusing the attach point. */
	if (!obj)
		return bc_error(ctx, -EINVAL,
				"%s: bc_ctx_set_bpf_object() was given no BPF object; hand over the loaded skeleton's object (skel->obj)",
				bc_ctx_bench_name(ctx) ? bc_ctx_bench_name(ctx) : "benchmark");
	/* Read once setup() and the attach ladder are done (bpf_source.c):
	 * a candidate that fails destroys the object it handed over. */
	ctx->bpf_obj = obj;
	return 0;
}

void *bc_ctx_skel(const struct bc_ctx *ctx)
{
	return ctx ? ctx->skel : NULL;
}

const char *bc_strerror(int err)
{
	static __thread char buf[128];

	if (err < 0)
		err = -err;
	if (err == BC_ENOTSUPP)
		return "Operation not supported (ENOTSUPP)";
	/* libbpf's own codes (LIBBPF_ERRNO__*), which strerror() does not know. */
	if (err >= 4000 && err < 4100 && !libbpf_strerror(-err, buf, sizeof(buf)))
		return buf;
	return strerror(err);
}

void bc_ctx_set_attach_point(struct bc_ctx *ctx, const char *name)
{
	if (!name) {
		ctx->attach_point[0] = '\0';
		return;
	}
	snprintf(ctx->attach_point, sizeof(ctx->attach_point), "%s", name);
}

const char *bc_ctx_attach_point(const struct bc_ctx *ctx)
{
	return ctx->attach_point[0] ? ctx->attach_point : NULL;
}

int bc_ctx_final_line(struct bc_ctx *ctx, const char *fmt, ...)
{
	char **lines;
	char *line;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	line = malloc((size_t)n + 1);
	if (!line)
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(line, (size_t)n + 1, fmt, ap);
	va_end(ap);
	line[strcspn(line, "\n")] = '\0';
	lines = realloc(ctx->final_lines, (ctx->final_cnt + 1) * sizeof(*lines));
	if (!lines) {
		free(line);
		return -ENOMEM;
	}
	lines[ctx->final_cnt++] = line;
	ctx->final_lines = lines;
	return 0;
}

static void bc_set_reason(struct bc_ctx *ctx, const char *fmt, va_list ap)
{
	char buf[BC_REASON_LEN];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	/* A trailing newline would break the one-line messages built from it. */
	buf[strcspn(buf, "\n")] = '\0';
	pthread_mutex_lock(&bc_reason_lock);
	memcpy(ctx->reason, buf, sizeof(ctx->reason));
	pthread_mutex_unlock(&bc_reason_lock);
}

void bc_ctx_reason_copy(const struct bc_ctx *ctx, char *buf, size_t len)
{
	if (!len)
		return;
	pthread_mutex_lock(&bc_reason_lock);
	snprintf(buf, len, "%s", ctx->reason);
	pthread_mutex_unlock(&bc_reason_lock);
}

int bc_error(struct bc_ctx *ctx, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bc_set_reason(ctx, fmt, ap);
	va_end(ap);
	/* A positive or zero err would read as success to the caller's caller. */
	if (err > 0)
		err = -err;
	return err ? err : -EINVAL;
}

int bc_unavailable(struct bc_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bc_set_reason(ctx, fmt, ap);
	va_end(ap);
	ctx->unavailable = true;
	return -EOPNOTSUPP;
}

int bc_usage_error(struct bc_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bc_set_reason(ctx, fmt, ap);
	va_end(ap);
	ctx->usage_error = true;
	return -EINVAL;
}

void bc_ctx_log(const struct bc_ctx *ctx, enum bc_log_level level, const char *fmt, ...)
{
	const struct bc_bench *b = ctx ? ctx->bench : NULL;
	char prefix[192];
	va_list ap;

	if (b && b->plugin)
		snprintf(prefix, sizeof(prefix), "benchcore: %s:%s: ", b->plugin->desc.name,
			 b->desc.name);
	else if (b)
		snprintf(prefix, sizeof(prefix), "benchcore: %s: ", b->desc.name);
	else
		snprintf(prefix, sizeof(prefix), "benchcore: ");
	va_start(ap, fmt);
	bc_vlog_prefixed(level, prefix, fmt, ap);
	va_end(ap);
}

const char *bc_version(void)
{
	return BENCHCORE_VERSION;
}

struct bc_line_counter *bc_line_counters_alloc(size_t cnt)
{
	struct bc_line_counter *c;
	size_t bytes;

	if (!cnt)
		cnt = 1;
	if (cnt > SIZE_MAX / sizeof(*c)) {
		errno = ENOMEM;
		return NULL;
	}
	/* sizeof(*c) is a multiple of the alignment, as aligned_alloc wants. */
	bytes = cnt * sizeof(*c);
	c = aligned_alloc(BC_CACHELINE, bytes);
	if (!c)
		return NULL;
	memset(c, 0, bytes);
	return c;
}

uint64_t bc_line_counters_sum(const struct bc_line_counter *c, size_t cnt)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < cnt; i++)
		sum += __atomic_load_n(&c[i].value, __ATOMIC_RELAXED);
	return sum;
}

/* ABI 2.0 entry points; filled in by the options, metrics and programs work. */

/* The values live with the run's configuration (one per run, freed with
 * it), never in a global: two runs in one process see their own. */
const void *bc_ctx_opts(const struct bc_ctx *ctx)
{
	return ctx && ctx->cfg ? bc_opts_data(ctx->cfg->opts, ctx->bench) : NULL;
}

const void *bc_ctx_bench_priv(const struct bc_ctx *ctx)
{
	return ctx && ctx->bench ? ctx->bench->desc.priv : NULL;
}

/*
 * The kernel keeps BPF_OBJ_NAME_LEN - 1 (15) bytes of a program's name, so
 * reports said "maplat_percpu_t". The program's BTF still has the whole
 * name of its function, as bpftool shows it: read it when the kernel's copy
 * may be cut, and keep the kernel's copy when there is no BTF.
 */
static void bc_prog_full_name(int fd, const struct bpf_prog_info *info, char *buf, size_t len)
{
	struct bpf_func_info fi;
	struct bpf_prog_info fin;
	__u32 fin_len = sizeof(fin);
	const struct btf_type *t;
	struct btf *btf;
	const char *name;

	if (strnlen(info->name, sizeof(info->name)) < sizeof(info->name) - 1 || !info->btf_id ||
	    !info->nr_func_info)
		return;
	memset(&fin, 0, sizeof(fin));
	memset(&fi, 0, sizeof(fi));
	fin.nr_func_info = 1;
	fin.func_info_rec_size = sizeof(fi);
	fin.func_info = (__u64)(unsigned long)&fi;
	if (bpf_obj_get_info_by_fd(fd, &fin, &fin_len))
		return;
	btf = btf__load_from_kernel_by_id(info->btf_id);
	if (!btf)
		return;
	t = btf__type_by_id(btf, fi.type_id);
	name = t ? btf__name_by_offset(btf, t->name_off) : NULL;
	/* Only a longer name that the kernel's copy begins: anything else is
	 * not the same program's name. */
	if (name && strlen(name) > strlen(info->name) &&
	    !strncmp(name, info->name, strlen(info->name)))
		snprintf(buf, len, "%s", name);
	btf__free(btf);
}

/* The core asks the kernel about the program now, so that a report can
 * name it even after the plugin closed the fd, and keeps the counters it
 * had as the baseline of later readings. */
int bc_ctx_add_prog(struct bc_ctx *ctx, int prog_fd, const char *role)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	struct bc_prog *progs, *p;
	const char *type;
	int err;

	if (!ctx || prog_fd < 0)
		return -EINVAL;
	memset(&info, 0, sizeof(info));
	/* bpf_prog_get_info_by_fd() is libbpf 1.2's name for this call; the
	 * older one works with every libbpf we build against. */
	err = bpf_obj_get_info_by_fd(prog_fd, &info, &len);
	if (err)
		return err < 0 ? err : -EINVAL;
	progs = realloc(ctx->progs, (ctx->prog_cnt + 1) * sizeof(*progs));
	if (!progs)
		return -ENOMEM;
	ctx->progs = progs;
	p = &progs[ctx->prog_cnt];
	memset(p, 0, sizeof(*p));
	p->role = strdup(role && *role ? role : "program");
	if (!p->role)
		return -ENOMEM;
	p->fd = prog_fd;
	p->id = info.id;
	p->run_cnt0 = info.run_cnt;
	p->run_time_ns0 = info.run_time_ns;
	snprintf(p->name, sizeof(p->name), "%.*s", (int)sizeof(info.name), info.name);
	bc_prog_full_name(prog_fd, &info, p->name, sizeof(p->name));
	type = libbpf_bpf_prog_type_str((enum bpf_prog_type)info.type);
	snprintf(p->type, sizeof(p->type), "%s", type ? type : "unknown");
	ctx->prog_cnt++;
	return 0;
}

void bc_ctx_progs_closed(struct bc_ctx *ctx)
{
	size_t i;

	for (i = 0; ctx && i < ctx->prog_cnt; i++)
		ctx->progs[i].fd = -1;
}

struct bc_hist *bc_ctx_hist(struct bc_ctx *ctx, const char *metric_name)
{
	unsigned int i;

	if (!ctx || !ctx->bench || !ctx->hists || !metric_name)
		return NULL;
	for (i = 0; i < ctx->hist_cnt && i < ctx->bench->desc.metric_cnt; i++) {
		const char *name = ctx->bench->metrics[i].name;

		if (ctx->hists[i] && name && !strcmp(name, metric_name))
			return ctx->hists[i];
	}
	return NULL;
}

void bc_ctx_release(struct bc_ctx *ctx)
{
	size_t i;

	if (!ctx)
		return;
	for (i = 0; ctx->hists && i < ctx->hist_cnt; i++)
		bc_hist_free(ctx->hists[i]);
	free(ctx->hists);
	ctx->hists = NULL;
	ctx->hist_cnt = 0;
	for (i = 0; i < ctx->prog_cnt; i++)
		free(ctx->progs[i].role);
	free(ctx->progs);
	ctx->progs = NULL;
	ctx->prog_cnt = 0;
	for (i = 0; i < ctx->final_cnt; i++)
		free(ctx->final_lines[i]);
	free(ctx->final_lines);
	ctx->final_lines = NULL;
	ctx->final_cnt = 0;
}
