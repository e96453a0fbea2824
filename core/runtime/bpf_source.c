// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Metrics read from BPF. A counter's source is a global of the object's
 * .bss or .data: libbpf maps those sections into our memory, so a reading
 * is a few relaxed loads, no syscall, and the BPF side stays exactly what
 * the plugin wrote (no extra instruction in its programs). The object's
 * BTF says where the global sits and what it is: a __u64, an array of
 * them, or an array of structs (one per CPU slot) whose __u64 member is
 * summed. A time per operation reads two such globals, its time and its
 * operation count (bpf_per), the latter for the core alone. A histogram's
 * source is a BC_HIST_MAP() per-CPU map, read with one lookup per tick and
 * summed over CPUs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <benchcore/bpf_hist.h>

#include "bpf_source.h"
#include "hist.h"
#include "loader.h"
#include "names.h"

/* cnt __u64s `stride` apart from base, summed: one global's reading. */
struct bc_bpf_sum {
	const unsigned char *base;
	size_t cnt, stride;
};

struct bc_bpf_src {
	bool used;
	/* counter, gauge, ratio, time per op's time */
	struct bc_bpf_sum sum;
	/* time per op: its operation count (bpf_per) */
	struct bc_bpf_sum per;
	/* histogram */
	int map_fd;
	unsigned int ncpu;
	size_t value_sz;		/* per CPU, 8-byte aligned */
	unsigned char *buf;
	uint64_t *totals;
	uint64_t *prev;			/* the last reading's totals */
	bool has_prev;
};

/* "sym.field" into sym and field (field NULL when there is none). */
static int bc_bpf_split(const char *spec, char *sym, size_t len, const char **field)
{
	const char *dot = strchr(spec, '.');
	size_t n = dot ? (size_t)(dot - spec) : strlen(spec);

	if (!n || n >= len || (dot && !dot[1]))
		return -EINVAL;
	memcpy(sym, spec, n);
	sym[n] = '\0';
	*field = dot ? dot + 1 : NULL;
	return 0;
}

/* A section the programs write: .bss, .data, .data.NAME (not .rodata,
 * whose globals are constants the core would read at their load value). */
static bool bc_bpf_sec_writable(const char *sec)
{
	return !strcmp(sec, ".bss") || !strcmp(sec, ".data") || !strncmp(sec, ".data.", 6);
}

/* The global `sym` in one of the object's data sections: its section's
 * map, its offset there and its BTF type. -EROFS (with *sec) when it is in
 * a read-only section; -ENOENT, with the nearest writable global's name in
 * *near, when it is nowhere. */
static int bc_bpf_find_var(struct bpf_object *obj, const struct btf *btf, const char *sym,
			   struct bpf_map **map, __u32 *off, __u32 *type_id, const char **sec,
			   const char **near)
{
	__u32 id, n = btf__type_cnt(btf);
	struct bc_closest c;

	bc_closest_init(&c, sym);
	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_var_secinfo *vs;
		const char *sec_name;
		unsigned short i;

		if (!btf_is_datasec(t))
			continue;
		sec_name = btf__name_by_offset(btf, t->name_off);
		vs = btf_var_secinfos(t);
		for (i = 0; i < btf_vlen(t); i++, vs++) {
			const struct btf_type *v = btf__type_by_id(btf, vs->type);
			const char *name = v && btf_is_var(v) ? btf__name_by_offset(btf, v->name_off) : NULL;

			if (!name)
				continue;
			if (strcmp(name, sym)) {
				if (bc_bpf_sec_writable(sec_name))
					bc_closest_offer(&c, name);
				continue;
			}
			*sec = sec_name;
			if (!bc_bpf_sec_writable(sec_name))
				return -EROFS;
			*map = bpf_object__find_map_by_name(obj, sec_name);
			*off = vs->offset;
			*type_id = v->type;
			return *map ? 0 : -ENOENT;
		}
	}
	*near = c.best;
	return -ENOENT;
}

static bool bc_btf_is_u64(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, btf__resolve_type(btf, id));

	return t && btf_is_int(t) && t->size == 8;
}

/* `spec` is the metric's bpf or bpf_per: a global, or a member of an
 * array of structs. */
static int bc_bpf_resolve_sum(struct bc_ctx *ctx, const struct bc_metric_desc *md,
			      const char *spec, struct bc_bpf_sum *src)
{
	const char *bench = ctx->bench->desc.name, *field;
	const struct btf *btf = bpf_object__btf(ctx->bpf_obj);
	const struct btf_type *t, *elem;
	struct bpf_map *map;
	__u32 off, type_id, elem_id;
	size_t size = 0, field_off = 0;
	const char *sec = NULL, *near = NULL, *what = spec == md->bpf ? "bpf" : "bpf_per";
	const unsigned char *mem;
	char sym[128], hint[160] = "";
	int i, err;

	if (bc_bpf_split(spec, sym, sizeof(sym), &field))
		return bc_error(ctx, -EINVAL, "%s: metric '%s' has %s '%s'; expected SYMBOL or SYMBOL.FIELD",
				bench, md->name, what, spec);
	err = btf ? bc_bpf_find_var(ctx->bpf_obj, btf, sym, &map, &off, &type_id, &sec, &near) :
		    -ENOENT;
	/* A constant (const volatile: .rodata) keeps the value it was loaded
	 * with: the metric would read the same number every tick. */
	if (err == -EROFS)
		return bc_error(ctx, -EINVAL,
				"%s: metric '%s' has %s '%s', a global in %s, which is read-only data: the core would read the value it was loaded with forever; declare it without const so that it lands in .bss or .data",
				bench, md->name, what, sym, sec);
	if (near)
		snprintf(hint, sizeof(hint), " (did you mean '%s'?)", near);
	if (err)
		return bc_error(ctx, -ENOENT,
				"%s: metric '%s' has %s '%s', but the BPF object has no global of that name in .bss or .data%s; fix the metric's %s",
				bench, md->name, what, sym, hint, what);
	mem = bpf_map__initial_value(map, &size);
	if (!mem)
		return bc_error(ctx, -EINVAL,
				"%s: metric '%s' reads BPF global '%s', but its section '%s' is not mapped: hand the object over after it is loaded",
				bench, md->name, sym, bpf_map__name(map));
	t = btf__type_by_id(btf, btf__resolve_type(btf, type_id));
	src->cnt = 1;
	elem_id = btf__resolve_type(btf, type_id);
	if (t && btf_is_array(t)) {
		src->cnt = btf_array(t)->nelems;
		elem_id = btf__resolve_type(btf, btf_array(t)->type);
	}
	elem = btf__type_by_id(btf, elem_id);
	src->stride = elem ? (size_t)btf__resolve_size(btf, elem_id) : 0;
	if (elem && btf_is_struct(elem)) {
		const struct btf_member *m = btf_members(elem);
		int pick = -1;

		for (i = 0; i < btf_vlen(elem); i++, m++)
			if (field ? !strcmp(btf__name_by_offset(btf, m->name_off), field) : btf_vlen(elem) == 1)
				pick = i;
		if (pick < 0 || !bc_btf_is_u64(btf, btf_members(elem)[pick].type))
			return bc_error(ctx, -EINVAL,
					"%s: metric '%s' reads '%s': %s has no __u64 member %s%s",
					bench, md->name, spec, sym, field ? "named " : "",
					field ? field : "(name one: SYMBOL.FIELD)");
		field_off = btf_member_bit_offset(elem, pick) / 8;
	} else if (field || !bc_btf_is_u64(btf, elem_id)) {
		return bc_error(ctx, -EINVAL,
				"%s: metric '%s' reads '%s'; expected a __u64, an array of them or an array of structs with a __u64 member",
				bench, md->name, spec);
	}
	if (!src->stride || (size_t)off + src->cnt * src->stride > size)
		return bc_error(ctx, -EINVAL, "%s: metric '%s': BPF global '%s' does not fit its section",
				bench, md->name, sym);
	src->base = mem + off + field_off;
	return 0;
}

static int bc_bpf_resolve_hist(struct bc_ctx *ctx, const struct bc_metric_desc *md,
			       struct bc_bpf_src *src)
{
	const char *bench = ctx->bench->desc.name;
	struct bpf_map *map = bpf_object__find_map_by_name(ctx->bpf_obj, md->bpf);
	int ncpu;

	if (!map || bpf_map__fd(map) < 0) {
		struct bc_closest c;
		char hint[160] = "";

		bc_closest_init(&c, md->bpf);
		bpf_object__for_each_map(map, ctx->bpf_obj)
			bc_closest_offer(&c, bpf_map__name(map));
		if (c.best)
			snprintf(hint, sizeof(hint), " (did you mean '%s'?)", c.best);
		return bc_error(ctx, -ENOENT,
				"%s: histogram '%s' reads BPF map '%s', which the loaded BPF object does not have%s; fix the metric's bpf",
				bench, md->name, md->bpf, hint);
	}
	if (bpf_map__value_size(map) != sizeof(struct bc_bpf_hist) ||
	    (bpf_map__type(map) != BPF_MAP_TYPE_PERCPU_ARRAY &&
	     bpf_map__type(map) != BPF_MAP_TYPE_ARRAY))
		return bc_error(ctx, -EINVAL,
				"%s: histogram '%s' reads BPF map '%s', which is not a BC_HIST_MAP() (an array of struct bc_bpf_hist)",
				bench, md->name, md->bpf);
	ncpu = bpf_map__type(map) == BPF_MAP_TYPE_PERCPU_ARRAY ? libbpf_num_possible_cpus() : 1;
	if (ncpu <= 0)
		return bc_error(ctx, ncpu ? ncpu : -EINVAL, "%s: cannot count the possible CPUs",
				bench);
	src->map_fd = bpf_map__fd(map);
	src->ncpu = (unsigned int)ncpu;
	src->value_sz = (sizeof(struct bc_bpf_hist) + 7) & ~(size_t)7;
	src->buf = malloc(src->ncpu * src->value_sz);
	src->totals = malloc(BC_HIST_BUCKETS * sizeof(*src->totals));
	src->prev = malloc(BC_HIST_BUCKETS * sizeof(*src->prev));
	if (!src->buf || !src->totals || !src->prev)
		return bc_error(ctx, -ENOMEM, "%s: out of memory for histogram '%s'", bench, md->name);
	src->used = true;
	return 0;
}

int bc_bpf_src_resolve(struct bc_ctx *ctx)
{
	const struct bc_bench *b = ctx->bench;
	unsigned int m;
	int err;

	if (!b || ctx->bpf_srcs)
		return 0;
	for (m = 0; m < b->desc.metric_cnt && !b->metrics[m].bpf; m++)
		;
	if (m == b->desc.metric_cnt)
		return 0;
	if (!ctx->bpf_obj)
		return bc_error(ctx, -EINVAL,
				"%s: metric '%s' reads BPF source '%s', but the plugin handed over no BPF object (bc_ctx_set_bpf_object())",
				b->desc.name, b->metrics[m].name, b->metrics[m].bpf);
	ctx->bpf_srcs = calloc(b->desc.metric_cnt, sizeof(*ctx->bpf_srcs));
	if (!ctx->bpf_srcs)
		return bc_error(ctx, -ENOMEM, "out of memory");
	for (m = 0; m < b->desc.metric_cnt; m++) {
		const struct bc_metric_desc *md = &b->metrics[m];

		if (!md->bpf)
			continue;
		if (md->kind == BC_METRIC_HISTOGRAM) {
			err = bc_bpf_resolve_hist(ctx, md, &ctx->bpf_srcs[m]);
		} else {
			err = bc_bpf_resolve_sum(ctx, md, md->bpf, &ctx->bpf_srcs[m].sum);
			if (!err && md->kind == BC_METRIC_TIME_PER_OP)
				err = bc_bpf_resolve_sum(ctx, md, md->bpf_per,
							 &ctx->bpf_srcs[m].per);
			ctx->bpf_srcs[m].used = !err;
		}
		if (err)
			return err;
	}
	return 0;
}

/* Written by BPF on other CPUs meanwhile: relaxed loads, a value at most
 * one tick late, never torn. */
static double bc_bpf_sum_read(const struct bc_bpf_sum *s)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < s->cnt; i++)
		sum += __atomic_load_n((const uint64_t *)(s->base + i * s->stride),
				       __ATOMIC_RELAXED);
	return (double)sum;
}

void bc_bpf_src_read(const struct bc_ctx *ctx, double *values, double *ops)
{
	unsigned int m;

	for (m = 0; ctx->bpf_srcs && m < ctx->bench->desc.metric_cnt; m++) {
		const struct bc_bpf_src *src = &ctx->bpf_srcs[m];

		if (!src->used || !src->sum.base)
			continue;
		values[m] = bc_bpf_sum_read(&src->sum);
		if (ops && src->per.base)
			ops[m] = bc_bpf_sum_read(&src->per);
	}
}

int bc_bpf_src_read_hists(struct bc_ctx *ctx)
{
	unsigned int m, cpu, b;
	__u32 zero = 0;

	for (m = 0; ctx->bpf_srcs && m < ctx->bench->desc.metric_cnt; m++) {
		struct bc_bpf_src *src = &ctx->bpf_srcs[m];
		uint64_t max = 0;

		if (!src->used || !src->buf || !ctx->hists || !ctx->hists[m])
			continue;
		if (bpf_map_lookup_elem(src->map_fd, &zero, src->buf))
			return bc_error(ctx, -errno, "%s: reading histogram '%s' from BPF map '%s': %s",
					ctx->bench->desc.name, ctx->bench->metrics[m].name,
					ctx->bench->metrics[m].bpf, strerror(errno));
		memset(src->totals, 0, BC_HIST_BUCKETS * sizeof(*src->totals));
		for (cpu = 0; cpu < src->ncpu; cpu++) {
			const struct bc_bpf_hist *h = (const void *)(src->buf + cpu * src->value_sz);

			for (b = 0; b < BC_HIST_BUCKETS; b++)
				src->totals[b] += h->buckets[b];
			if (h->max > max)
				max = h->max;
		}
		/* A bucket is a count of events since the map was made: one
		 * that goes down means the map was reset or written by someone
		 * else, and the interval's count would wrap to ~2^64. The
		 * counters' rule: the run stops here, saying so. */
		for (b = 0; src->has_prev && b < BC_HIST_BUCKETS; b++)
			if (src->totals[b] < src->prev[b])
				return bc_error(ctx, -ERANGE,
						"histogram metric '%s' (BPF map '%s'): the count of bucket %u went down from %llu to %llu; a count never does (the run stops here)",
						ctx->bench->metrics[m].name, ctx->bench->metrics[m].bpf,
						b, (unsigned long long)src->prev[b],
						(unsigned long long)src->totals[b]);
		memcpy(src->prev, src->totals, BC_HIST_BUCKETS * sizeof(*src->prev));
		src->has_prev = true;
		if (bc_hist_set_bpf(ctx->hists[m], src->totals, max))
			return bc_error(ctx, -ENOMEM, "out of memory for histogram samples");
	}
	return 0;
}

void bc_bpf_src_free(struct bc_ctx *ctx)
{
	unsigned int m;

	for (m = 0; ctx->bpf_srcs && m < ctx->bench->desc.metric_cnt; m++) {
		free(ctx->bpf_srcs[m].buf);
		free(ctx->bpf_srcs[m].totals);
		free(ctx->bpf_srcs[m].prev);
	}
	free(ctx->bpf_srcs);
	ctx->bpf_srcs = NULL;
	ctx->bpf_obj = NULL;
}
