// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The options engine: a plugin's option tables turned into one run's typed
 * values (plugin_opts.h says the rules). One parser per type serves the
 * command line, the defaults and sweeps, so a value means the same thing on
 * every path and every refusal reads the same.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc_keys.h"
#include "json.h"
#include "plugin_opts.h"
#include "cpuset.h"
#include "loader.h"
#include "core_opts.h"
#include "log.h"
#include "exit_status.h"

/* argp keys of table options: above the core's (< 0x200) and every
 * printable character, so no option gets a short form. */
#define BC_OPTS_KEY_BASE 0x10000

struct bc_opts {
	const struct bc_bench *bench;
	unsigned char *mem;		/* the plugin's options struct */
	size_t size;
	const struct bc_option **opts;	/* the plugin's, then the benchmark's */
	size_t cnt;
	size_t plugin_cnt;		/* opts[0..plugin_cnt) are plugin-wide */
	bool *set;			/* given by the user */
	char **text;			/* the last text given (debug output) */
	char **strs;			/* STRING storage, per option */
	struct bc_cpus **cpus;		/* CPUSET storage, per option */
	/* the argp child, built on first use */
	struct argp argp;
	struct argp_option *argp_opts;
	char **docs;
	char *bench_header;
	char *header;
	/* --help's view: one child per option, in table order (argp sorts
	 * the options of one group by name). */
	struct argp_option *leaf_opts;
	struct argp *leaf_argps;
	struct argp_child *leaf_children;
};

/* A parsed value before it is stored. */
union bc_opt_val {
	bool flag;
	int64_t i;
	uint64_t u;
	int e;
	const char *s;
	struct bc_cpuset *cpus;		/* heap: struct bc_cpuset is 16 KiB */
};

/* ------------------------------------------------------------ values */

int bc_opts_flag_word(const char *text)
{
	static const char *const on[] = { "on", "true", "yes", "1" };
	static const char *const off[] = { "off", "false", "no", "0" };

	for (size_t i = 0; text && i < 4; i++) {
		if (!strcmp(text, on[i]))
			return 1;
		if (!strcmp(text, off[i]))
			return 0;
	}
	return -1;
}

static bool bc_opt_ranged(const struct bc_option *opt)
{
	return opt->min || opt->max;
}

/* 1G, 2M or the plain number (4096): how a user would write the bound;
 * K is left out because page-sized numbers read better in bytes. */
static void bc_size_str(uint64_t v, char *buf, size_t len)
{
	static const char suffix[] = "GM";

	for (int i = 0; i < 2; i++) {
		uint64_t unit = 1ULL << (10 * (3 - i));

		if (v && v % unit == 0) {
			snprintf(buf, len, "%" PRIu64 "%c", v / unit, suffix[i]);
			return;
		}
	}
	snprintf(buf, len, "%" PRIu64, v);
}

/* 1M, 64Ki or the plain number: a count's bound as a user would write it,
 * decimal suffixes first since counts are mostly written in them. */
static void bc_count_str(uint64_t v, char *buf, size_t len)
{
	static const char *const dec[] = { "G", "M", "K" }, *const bin[] = { "Gi", "Mi", "Ki" };
	static const uint64_t dmul[] = { 1000000000ULL, 1000000ULL, 1000ULL };

	for (int i = 0; v && i < 3; i++) {
		if (v % dmul[i] == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", v / dmul[i], dec[i]);
			return;
		}
	}
	for (int i = 0; v && i < 3; i++) {
		uint64_t unit = 1ULL << (10 * (3 - i));

		if (v % unit == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", v / unit, bin[i]);
			return;
		}
	}
	snprintf(buf, len, "%" PRIu64, v);
}

/* What a value of opt must look like, after "expected ". */
static void bc_opt_expected(const struct bc_option *opt, char *buf, size_t len)
{
	char lo[32], hi[32];
	size_t off;

	switch (opt->type) {
	case BC_OPT_FLAG:
		snprintf(buf, len, "on or off (also true/false, yes/no, 1/0)");
		return;
	case BC_OPT_INT:
		if (bc_opt_ranged(opt))
			snprintf(buf, len, "an integer from %" PRId64 " to %" PRId64, opt->min,
				 opt->max);
		else
			snprintf(buf, len, "an integer");
		return;
	case BC_OPT_SIZE:
		if (bc_opt_ranged(opt)) {
			bc_size_str((uint64_t)opt->min, lo, sizeof(lo));
			bc_size_str((uint64_t)opt->max, hi, sizeof(hi));
			snprintf(buf, len, "a size in bytes (K, M, G suffixes) from %s to %s", lo, hi);
		} else {
			snprintf(buf, len, "a size in bytes (K, M, G suffixes)");
		}
		return;
	case BC_OPT_COUNT:
		if (bc_opt_ranged(opt)) {
			bc_count_str((uint64_t)opt->min, lo, sizeof(lo));
			bc_count_str((uint64_t)opt->max, hi, sizeof(hi));
			snprintf(buf, len, "a count (K, M, G suffixes x1000; Ki, Mi, Gi x1024) from %s to %s",
				 lo, hi);
		} else {
			snprintf(buf, len, "a count (K, M, G suffixes x1000; Ki, Mi, Gi x1024)");
		}
		return;
	case BC_OPT_ENUM:
		off = (size_t)snprintf(buf, len, "one of:");
		for (size_t i = 0; opt->words && opt->words[i] && off < len; i++)
			off += (size_t)snprintf(buf + off, len - off, "%s %s", i ? "," : "",
						opt->words[i]);
		return;
	case BC_OPT_STRING:
		snprintf(buf, len, "any text");
		return;
	case BC_OPT_CPUSET:
		snprintf(buf, len, "a CPU list like 0,2-3");
		return;
	}
	snprintf(buf, len, "nothing (unknown option type %d)", (int)opt->type);
}

static int bc_opt_bad(const struct bc_option *opt, const char *text, char *err, size_t err_len)
{
	char what[512];

	bc_opt_expected(opt, what, sizeof(what));
	bc_set_err(err, err_len, "--%s '%s': expected %s", opt->name, text, what);
	return -EINVAL;
}

/* Digits only, no sign, no blanks: strtoull() takes " 1", "+1" and wraps
 * "-1". *end is left at the first character that is not a digit. */
static int bc_parse_digits(const char *text, const char **end, uint64_t *out)
{
	uint64_t v = 0;
	const char *p;

	for (p = text; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (p == text)
		return -EINVAL;
	*end = p;
	*out = v;
	return 0;
}

static int bc_parse_int(const struct bc_option *opt, const char *text, int64_t *out)
{
	bool neg = text[0] == '-';
	const char *end;
	uint64_t mag;
	int64_t v;

	if (bc_parse_digits(text + neg, &end, &mag) || *end)
		return -EINVAL;
	if (neg ? mag > (uint64_t)INT64_MAX + 1 : mag > (uint64_t)INT64_MAX)
		return -ERANGE;
	v = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	if (bc_opt_ranged(opt) && (v < opt->min || v > opt->max))
		return -ERANGE;
	*out = v;
	return 0;
}

static int bc_parse_size(const struct bc_option *opt, const char *text, uint64_t *out)
{
	const char *end;
	unsigned int shift = 0;
	uint64_t v;

	if (bc_parse_digits(text, &end, &v))
		return -EINVAL;
	switch (*end) {
	case 'K': case 'k':
		shift = 10;
		break;
	case 'M': case 'm':
		shift = 20;
		break;
	case 'G': case 'g':
		shift = 30;
		break;
	case '\0':
		break;
	default:
		return -EINVAL;
	}
	if (shift && end[1])
		return -EINVAL;
	if (v > (UINT64_MAX >> shift))
		return -ERANGE;
	v <<= shift;
	if (bc_opt_ranged(opt) && (v < (uint64_t)opt->min || v > (uint64_t)opt->max))
		return -ERANGE;
	*out = v;
	return 0;
}

/* A count: K (or SI's k), M, G are powers of 1000 (what "1M entries"
 * means to people), Ki, Mi, Gi powers of 1024 (what a power-of-two table
 * wants). */
static int bc_parse_count(const struct bc_option *opt, const char *text, uint64_t *out)
{
	static const struct {
		const char *sfx;
		uint64_t mul;
	} sfx[] = {
		{ "K", 1000ULL }, { "k", 1000ULL }, { "M", 1000000ULL }, { "G", 1000000000ULL },
		{ "Ki", 1ULL << 10 }, { "Mi", 1ULL << 20 }, { "Gi", 1ULL << 30 },
	};
	const char *end;
	uint64_t v, mul = 1;
	size_t i;

	if (bc_parse_digits(text, &end, &v))
		return -EINVAL;
	if (*end) {
		for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++)
			if (!strcmp(end, sfx[i].sfx))
				break;
		if (i == sizeof(sfx) / sizeof(sfx[0]))
			return -EINVAL;
		mul = sfx[i].mul;
	}
	if (v > UINT64_MAX / mul)
		return -ERANGE;
	v *= mul;
	if (bc_opt_ranged(opt) && (v < (uint64_t)opt->min || v > (uint64_t)opt->max))
		return -ERANGE;
	*out = v;
	return 0;
}

/* One parser for every path. CPUSET: *v->cpus is allocated here and
 * becomes the caller's. */
static int bc_opt_parse(const struct bc_option *opt, const char *text, union bc_opt_val *v,
			char *err, size_t err_len)
{
	char why[256];
	int r;

	memset(v, 0, sizeof(*v));
	switch (opt->type) {
	case BC_OPT_FLAG:
		r = bc_opts_flag_word(text);
		if (r < 0)
			return bc_opt_bad(opt, text, err, err_len);
		v->flag = r;
		return 0;
	case BC_OPT_INT:
		return bc_parse_int(opt, text, &v->i) ? bc_opt_bad(opt, text, err, err_len) : 0;
	case BC_OPT_SIZE:
		return bc_parse_size(opt, text, &v->u) ? bc_opt_bad(opt, text, err, err_len) : 0;
	case BC_OPT_COUNT:
		return bc_parse_count(opt, text, &v->u) ? bc_opt_bad(opt, text, err, err_len) : 0;
	case BC_OPT_ENUM:
		for (int i = 0; opt->words && opt->words[i]; i++) {
			if (!strcmp(opt->words[i], text)) {
				v->e = i;
				return 0;
			}
		}
		return bc_opt_bad(opt, text, err, err_len);
	case BC_OPT_STRING:
		v->s = text;
		return 0;
	case BC_OPT_CPUSET:
		v->cpus = malloc(sizeof(*v->cpus));
		if (!v->cpus)
			return -ENOMEM;
		if (bc_cpuset_parse(text, v->cpus, why, sizeof(why))) {
			free(v->cpus);
			v->cpus = NULL;
			return bc_opt_bad(opt, text, err, err_len);
		}
		return 0;
	}
	return bc_opt_bad(opt, text, err, err_len);
}

int bc_opts_check_value(const struct bc_option *opt, const char *text, char *err, size_t err_len)
{
	union bc_opt_val v;
	int ret = bc_opt_parse(opt, text, &v, err, err_len);

	if (!ret && opt->type == BC_OPT_CPUSET)
		free(v.cpus);
	return ret;
}

int bc_opts_value_json(const struct bc_option *opt, const char *text, char *buf, size_t len)
{
	union bc_opt_val v;
	char err[8];

	switch (opt->type) {
	case BC_OPT_FLAG:
	case BC_OPT_INT:
	case BC_OPT_SIZE:
	case BC_OPT_COUNT:
		break;
	default:
		return -ENOENT;		/* a string, as the run document has it */
	}
	if (bc_opt_parse(opt, text, &v, err, sizeof(err)))
		return -EINVAL;
	if (opt->type == BC_OPT_FLAG)
		snprintf(buf, len, "%s", v.flag ? "true" : "false");
	else if (opt->type == BC_OPT_INT)
		snprintf(buf, len, "%" PRId64, v.i);
	else
		snprintf(buf, len, "%" PRIu64, v.u);
	return 0;
}

/* ------------------------------------------------------------ tables */

static size_t bc_opt_field_size(enum bc_opt_type type)
{
	switch (type) {
	case BC_OPT_FLAG:
		return sizeof(bool);
	case BC_OPT_INT:
		return sizeof(int64_t);
	case BC_OPT_SIZE:
	case BC_OPT_COUNT:
		return sizeof(uint64_t);
	case BC_OPT_ENUM:
		return sizeof(int);
	case BC_OPT_STRING:
		return sizeof(const char *);
	case BC_OPT_CPUSET:
		return sizeof(const struct bc_cpus *);
	}
	return 0;
}

static bool bc_opt_name_ok(const char *name)
{
	/* "--NAME=V" on the command line, "NAME,NAME=V,V" in sweeps. */
	if (!name || !*name || *name == '-')
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
			return false;
	return true;
}

static int bc_opt_check_one(const struct bc_plugin *p, const struct bc_option *opt, char *err,
			    size_t err_len)
{
	const char *pn = p->desc.name, *n = opt->name ? opt->name : "";
	size_t fsz = bc_opt_field_size(opt->type);
	unsigned int since;
	char why[600];

	if (!bc_opt_name_ok(opt->name)) {
		bc_set_err(err, err_len,
			   "plugin '%s': option '%s': a name is letters, digits, '-' and '_', not starting with '-'",
			   pn, n);
		return -EINVAL;
	}
	if (bc_core_opt_refuses(n, p->desc.abi_minor, &since)) {
		if (since)
			bc_set_err(err, err_len,
				   "plugin '%s': option '%s': the name is a core option's (since ABI 2.%u; this plugin was built against 2.%u)",
				   pn, n, since, p->desc.abi_minor);
		else
			bc_set_err(err, err_len, "plugin '%s': option '%s': the name is a core option's",
				   pn, n);
		return -EINVAL;
	}
	if (!fsz) {
		bc_set_err(err, err_len, "plugin '%s': option '%s': unknown type %d", pn, n,
			   (int)opt->type);
		return -EINVAL;
	}
	if (opt->offset > p->desc.opts_size || fsz > p->desc.opts_size - opt->offset) {
		bc_set_err(err, err_len,
			   "plugin '%s': option '%s': field at offset %zu (%zu bytes) is outside opts_size %zu",
			   pn, n, opt->offset, fsz, p->desc.opts_size);
		return -EINVAL;
	}
	if (opt->type == BC_OPT_ENUM && (!opt->words || !opt->words[0])) {
		bc_set_err(err, err_len, "plugin '%s': option '%s': an enum without words", pn, n);
		return -EINVAL;
	}
	for (size_t i = 0; opt->type == BC_OPT_ENUM && opt->words[i]; i++) {
		if (!*opt->words[i]) {
			bc_set_err(err, err_len, "plugin '%s': option '%s': an empty enum word", pn, n);
			return -EINVAL;
		}
	}
	if ((opt->type == BC_OPT_INT || opt->type == BC_OPT_SIZE || opt->type == BC_OPT_COUNT) &&
	    opt->min > opt->max) {
		bc_set_err(err, err_len, "plugin '%s': option '%s': min %" PRId64 " is above max %" PRId64,
			   pn, n, opt->min, opt->max);
		return -EINVAL;
	}
	if ((opt->type == BC_OPT_SIZE || opt->type == BC_OPT_COUNT) && opt->min < 0) {
		bc_set_err(err, err_len, "plugin '%s': option '%s': a %s range below 0", pn, n,
			   opt->type == BC_OPT_SIZE ? "size" : "count");
		return -EINVAL;
	}
	if (opt->def && bc_opts_check_value(opt, opt->def, why, sizeof(why))) {
		bc_set_err(err, err_len, "plugin '%s': option '%s': bad default: %s", pn, n, why);
		return -EINVAL;
	}
	if (opt->type == BC_OPT_FLAG && opt->def && bc_opts_flag_word(opt->def) == 1) {
		bc_set_err(err, err_len,
			   "plugin '%s': option '%s': a flag cannot default to on (it could not be turned off); declare the opposite flag",
			   pn, n);
		return -EINVAL;
	}
	return 0;
}

/* The options of a run of bench, plugin-wide first; *opts is malloc()ed. */
static int bc_opts_collect(const struct bc_bench *bench, const struct bc_option ***opts,
			   size_t *cnt, size_t *plugin_cnt)
{
	const struct bc_plugin *p = bench->plugin;
	size_t n = p->option_cnt + bench->option_cnt, k = 0;

	*opts = calloc(n ? n : 1, sizeof(**opts));
	if (!*opts)
		return -ENOMEM;
	for (size_t i = 0; i < p->option_cnt; i++)
		(*opts)[k++] = &p->options[i];
	for (size_t i = 0; i < bench->option_cnt; i++)
		(*opts)[k++] = &bench->options[i];
	*cnt = n;
	*plugin_cnt = p->option_cnt;
	return 0;
}

int bc_opts_check_plugin(const struct bc_plugin *p, char *err, size_t err_len)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < p->bench_cnt; i++)
		ret = bc_opts_check(&p->benches[i], err, err_len);
	return ret;
}

int bc_opts_check(const struct bc_bench *bench, char *err, size_t err_len)
{
	const struct bc_option **opts;
	size_t cnt, pcnt;
	int ret = 0;

	/* Allocated for every run: a size no options struct needs is a
	 * garbage field, found when the plugin loads, not at its run. */
	if (bench->plugin->desc.opts_size > BC_OPTS_MAX_SIZE) {
		bc_set_err(err, err_len,
			   "plugin '%s': opts_size %zu is above the %u bytes an options struct may have",
			   bench->plugin->desc.name, bench->plugin->desc.opts_size, BC_OPTS_MAX_SIZE);
		return -EINVAL;
	}
	if (bc_opts_collect(bench, &opts, &cnt, &pcnt))
		return -ENOMEM;
	for (size_t i = 0; !ret && i < cnt; i++) {
		ret = bc_opt_check_one(bench->plugin, opts[i], err, err_len);
		for (size_t j = 0; !ret && j < i; j++) {
			if (!strcmp(opts[i]->name, opts[j]->name)) {
				bc_set_err(err, err_len, "plugin '%s': option '%s' is declared twice%s",
					   bench->plugin->desc.name, opts[i]->name,
					   j < pcnt && i >= pcnt ? " (plugin-wide and by its benchmark)"
								 : "");
				ret = -EINVAL;
			}
		}
	}
	free(opts);
	return ret;
}

const struct bc_option *bc_opts_find(const struct bc_bench *bench, const char *name)
{
	const struct bc_plugin *p = bench->plugin;

	for (size_t i = 0; i < p->option_cnt; i++)
		if (p->options[i].name && !strcmp(p->options[i].name, name))
			return &p->options[i];
	for (size_t i = 0; i < bench->option_cnt; i++)
		if (bench->options[i].name && !strcmp(bench->options[i].name, name))
			return &bench->options[i];
	return NULL;
}

/* ------------------------------------------------------- a run's values */

static size_t bc_opts_index(const struct bc_opts *o, const struct bc_option *opt)
{
	for (size_t i = 0; i < o->cnt; i++)
		if (o->opts[i] == opt)
			return i;
	return SIZE_MAX;
}

/* Stores v into the options struct; the run takes over v's storage. */
static int bc_opts_store(struct bc_opts *o, size_t i, union bc_opt_val *v)
{
	const struct bc_option *opt = o->opts[i];
	void *field = o->mem + opt->offset;
	char *s;

	switch (opt->type) {
	case BC_OPT_FLAG:
		memcpy(field, &v->flag, sizeof(v->flag));
		break;
	case BC_OPT_INT:
		memcpy(field, &v->i, sizeof(v->i));
		break;
	case BC_OPT_SIZE:
	case BC_OPT_COUNT:
		memcpy(field, &v->u, sizeof(v->u));
		break;
	case BC_OPT_ENUM:
		memcpy(field, &v->e, sizeof(v->e));
		break;
	case BC_OPT_STRING:
		/* The run's copy: argv and the plugin's table may not outlive it. */
		s = strdup(v->s);
		if (!s)
			return -ENOMEM;
		free(o->strs[i]);
		o->strs[i] = s;
		memcpy(field, &o->strs[i], sizeof(o->strs[i]));
		break;
	case BC_OPT_CPUSET: {
		/* One allocation: the header, then the CPU numbers. */
		struct bc_cpus *c = malloc(sizeof(*c) + v->cpus->cnt * sizeof(unsigned int));
		unsigned int *nums;

		if (!c) {
			free(v->cpus);
			return -ENOMEM;
		}
		nums = (unsigned int *)(c + 1);
		memcpy(nums, v->cpus->cpus, v->cpus->cnt * sizeof(unsigned int));
		c->sz = sizeof(*c);
		c->cnt = v->cpus->cnt;
		c->cpus = nums;
		free(v->cpus);
		free(o->cpus[i]);
		o->cpus[i] = c;
		memcpy(field, &o->cpus[i], sizeof(o->cpus[i]));
		break;
	}
	}
	return 0;
}

void bc_opts_free(struct bc_opts *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->cnt; i++) {
		free(o->strs[i]);
		free(o->cpus[i]);
		free(o->text[i]);
		free(o->docs ? o->docs[i] : NULL);
	}
	free(o->mem);
	free(o->opts);
	free(o->set);
	free(o->text);
	free(o->strs);
	free(o->cpus);
	free(o->argp_opts);
	free(o->docs);
	free(o->bench_header);
	free(o->header);
	free(o->leaf_opts);
	free(o->leaf_argps);
	free(o->leaf_children);
	free(o);
}

struct bc_opts *bc_opts_new(const struct bc_bench *bench, char *err, size_t err_len)
{
	struct bc_opts *o;
	int ret;

	ret = bc_opts_check(bench, err, err_len);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	o = calloc(1, sizeof(*o));
	if (!o)
		goto nomem;
	o->bench = bench;
	o->size = bench->plugin->desc.opts_size;
	if (bc_opts_collect(bench, &o->opts, &o->cnt, &o->plugin_cnt))
		goto nomem;
	o->mem = calloc(1, o->size ? o->size : 1);
	o->set = calloc(o->cnt + 1, sizeof(*o->set));
	o->text = calloc(o->cnt + 1, sizeof(*o->text));
	o->strs = calloc(o->cnt + 1, sizeof(*o->strs));
	o->cpus = calloc(o->cnt + 1, sizeof(*o->cpus));
	if (!o->mem || !o->set || !o->text || !o->strs || !o->cpus)
		goto nomem;
	/* The defaults, by the same rules as the user's values (checked
	 * above); a missing default is the zeroed field. */
	for (size_t i = 0; i < o->cnt; i++) {
		union bc_opt_val v;

		if (!o->opts[i]->def)
			continue;
		if (bc_opt_parse(o->opts[i], o->opts[i]->def, &v, err, err_len) ||
		    bc_opts_store(o, i, &v))
			goto nomem;
	}
	return o;
nomem:
	bc_opts_free(o);
	bc_set_err(err, err_len, "out of memory");
	errno = ENOMEM;
	return NULL;
}

const void *bc_opts_data(const struct bc_opts *o, const struct bc_bench *bench)
{
	if (!o || !bench || o->bench->plugin != bench->plugin || !o->size)
		return NULL;
	return o->mem;
}

int bc_opts_set(struct bc_opts *o, const struct bc_option *opt, const char *text, char *err,
		size_t err_len)
{
	size_t i = bc_opts_index(o, opt);
	union bc_opt_val v;
	char *copy;
	int ret;

	if (i == SIZE_MAX)
		return -ENOENT;
	ret = bc_opt_parse(opt, text, &v, err, err_len);
	if (!ret)
		ret = bc_opts_store(o, i, &v);
	if (ret)
		return ret;
	copy = strdup(text);
	if (!copy)
		return -ENOMEM;
	free(o->text[i]);
	o->text[i] = copy;
	o->set[i] = true;
	return 0;
}

void bc_opts_each_set(const struct bc_opts *o,
		      void (*fn)(const struct bc_option *opt, const char *text, void *cookie),
		      void *cookie)
{
	for (size_t i = 0; o && i < o->cnt; i++)
		if (o->set[i])
			fn(o->opts[i], o->opts[i]->type == BC_OPT_FLAG ? NULL : o->text[i], cookie);
}

/* Whether `list` ("a,b,c") names map. */
static bool bc_opt_names_map(const char *list, const char *map)
{
	size_t len = strlen(map);

	for (const char *p = list; p && *p; p += strcspn(p, ",")) {
		p += *p == ',';
		if (!strncmp(p, map, len) && (p[len] == ',' || !p[len]))
			return true;
	}
	return false;
}

/* Whether option i holds its default value (a value typed the user's way,
 * "1000" for a default of "1000", is the default). */
static bool bc_opts_is_default(const struct bc_opts *o, size_t i)
{
	const struct bc_option *opt = o->opts[i];
	const void *field = o->mem + opt->offset;
	union bc_opt_val v;
	char err[8];
	bool same;

	if (opt->type == BC_OPT_STRING)
		return !strcmp(opt->def ? opt->def : "", o->strs[i] ? o->strs[i] : "");
	if (opt->type == BC_OPT_CPUSET)
		return false;
	memset(&v, 0, sizeof(v));
	if (opt->def && bc_opt_parse(opt, opt->def, &v, err, sizeof(err)))
		return false;
	switch (opt->type) {
	case BC_OPT_FLAG:
		same = !memcmp(field, &v.flag, sizeof(v.flag));
		break;
	case BC_OPT_INT:
		same = !memcmp(field, &v.i, sizeof(v.i));
		break;
	case BC_OPT_SIZE:
	case BC_OPT_COUNT:
		same = !memcmp(field, &v.u, sizeof(v.u));
		break;
	case BC_OPT_ENUM:
		same = !memcmp(field, &v.e, sizeof(v.e));
		break;
	default:
		same = false;
	}
	return same;
}

size_t bc_opts_map_culprits(const struct bc_opts *o, const char *map, char *buf, size_t len)
{
	size_t n = 0, used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; o && map && i < o->cnt; i++) {
		const struct bc_option *opt = o->opts[i];

		if (!o->set[i] || !opt->maps || !bc_opt_names_map(opt->maps, map) ||
		    bc_opts_is_default(o, i))
			continue;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s--%s%s%s", n ? ", " : "",
						 opt->name, opt->type == BC_OPT_FLAG ? "" : " ",
						 opt->type == BC_OPT_FLAG ? "" : o->text[i]);
		n++;
	}
	return n;
}

/* --------------------------------------------------------------- argp */

static const char *bc_opt_placeholder(const struct bc_option *opt)
{
	if (opt->arg)
		return opt->arg;
	switch (opt->type) {
	case BC_OPT_INT:
		return "N";
	case BC_OPT_SIZE:
		return "SIZE";
	case BC_OPT_COUNT:
		return "N";
	case BC_OPT_ENUM:
		return "WORD";
	case BC_OPT_STRING:
		return "TEXT";
	case BC_OPT_CPUSET:
		return "CPUS";
	case BC_OPT_FLAG:
		break;
	}
	return NULL;
}

/* "records per syscall (1 to 4000; default 500)": the help line with what
 * --help readers ask next, taken from the table so it cannot go stale. */
static char *bc_opt_doc(const struct bc_option *opt)
{
	char range[512] = "", lo[32], hi[32];
	char *doc = NULL;
	size_t off;
	int n;

	switch (opt->type) {
	case BC_OPT_INT:
		if (bc_opt_ranged(opt))
			snprintf(range, sizeof(range), "%" PRId64 " to %" PRId64, opt->min, opt->max);
		break;
	case BC_OPT_SIZE:
		if (bc_opt_ranged(opt)) {
			bc_size_str((uint64_t)opt->min, lo, sizeof(lo));
			bc_size_str((uint64_t)opt->max, hi, sizeof(hi));
			snprintf(range, sizeof(range), "%s to %s bytes", lo, hi);
		} else {
			snprintf(range, sizeof(range), "bytes; K, M, G suffixes");
		}
		break;
	case BC_OPT_COUNT:
		if (bc_opt_ranged(opt)) {
			bc_count_str((uint64_t)opt->min, lo, sizeof(lo));
			bc_count_str((uint64_t)opt->max, hi, sizeof(hi));
			snprintf(range, sizeof(range), "%s to %s", lo, hi);
		} else {
			snprintf(range, sizeof(range), "K, M, G suffixes x1000; Ki, Mi, Gi x1024");
		}
		break;
	case BC_OPT_ENUM:
		off = (size_t)snprintf(range, sizeof(range), "one of:");
		for (size_t i = 0; opt->words[i] && off < sizeof(range); i++)
			off += (size_t)snprintf(range + off, sizeof(range) - off, "%s %s",
						i ? "," : "", opt->words[i]);
		break;
	case BC_OPT_CPUSET:
		snprintf(range, sizeof(range), "a CPU list like 0,2-3");
		break;
	default:
		break;
	}
	n = asprintf(&doc, "%s%s%s%s%s%s%s", opt->help ? opt->help : "",
		     range[0] || opt->def ? " (" : "", range, range[0] && opt->def ? "; " : "",
		     opt->def ? "default " : "", opt->def ? opt->def : "",
		     range[0] || opt->def ? ")" : "");
	return n < 0 ? NULL : doc;
}

static error_t bc_opts_parse_opt(int key, char *arg, struct argp_state *state)
{
	struct bc_opts *o = state->input;
	char err[BC_REASON_LEN];
	size_t i;
	int ret;

	if (key < BC_OPTS_KEY_BASE || (size_t)(key - BC_OPTS_KEY_BASE) >= o->cnt)
		return ARGP_ERR_UNKNOWN;
	i = (size_t)(key - BC_OPTS_KEY_BASE);
	ret = bc_opts_set(o, o->opts[i], o->opts[i]->type == BC_OPT_FLAG ? "on" : arg, err,
			  sizeof(err));
	if (!ret)
		return 0;
	if (ret == -ENOMEM)
		return ENOMEM;
	bc_warn("%s", err);
	/* Stop at the first bad value: one line, not a cascade. */
	state->next = state->argc;
	return EINVAL;
}

/* The help-only children parse nothing: the hidden table before them
 * takes every option (getopt takes the first of two equal names). */
static error_t bc_opts_leaf_parse(int key, char *arg, struct argp_state *state)
{
	(void)key;
	(void)arg;
	(void)state;
	return ARGP_ERR_UNKNOWN;
}

/*
 * argp prints the options of one group sorted by name, which scattered a
 * table written in a reading order. So the table argp parses is hidden,
 * and --help shows one child per option, each its own group, numbered in
 * the table's order; a child without a header adds no blank line.
 */
static int bc_opts_argp_leaves(struct bc_opts *o, const char *header)
{
	if (!o->leaf_opts)
		o->leaf_opts = calloc(2 * o->cnt + 1, sizeof(*o->leaf_opts));
	if (!o->leaf_argps)
		o->leaf_argps = calloc(o->cnt + 1, sizeof(*o->leaf_argps));
	if (!o->leaf_children)
		o->leaf_children = calloc(o->cnt + 1, sizeof(*o->leaf_children));
	if (!o->header && header)
		o->header = strdup(header);
	if (!o->leaf_opts || !o->leaf_argps || !o->leaf_children || (header && !o->header))
		return -ENOMEM;
	for (size_t i = 0; i < o->cnt; i++) {
		struct argp_option *a = &o->leaf_opts[2 * i];

		*a = o->argp_opts[i];
		a->flags &= ~OPTION_HIDDEN;
		o->leaf_argps[i].options = a;
		o->leaf_argps[i].parser = bc_opts_leaf_parse;
		o->leaf_children[i].argp = &o->leaf_argps[i];
		o->leaf_children[i].group = (int)i + 1;
		if (i == 0)
			o->leaf_children[i].header = o->header;
		else if (i == o->plugin_cnt)
			o->leaf_children[i].header = o->bench_header;
	}
	return 0;
}

const struct argp *bc_opts_argp(struct bc_opts *o, const char *header)
{
	const struct bc_plugin *p = o->bench->plugin;

	if (o->argp.options)
		return &o->argp;
	if (!o->argp_opts)
		o->argp_opts = calloc(o->cnt + 1, sizeof(*o->argp_opts));
	if (!o->docs)
		o->docs = calloc(o->cnt + 1, sizeof(*o->docs));
	if (!o->argp_opts || !o->docs)
		return NULL;
	if (o->plugin_cnt && o->plugin_cnt < o->cnt && !o->bench_header &&
	    asprintf(&o->bench_header, "Options of %s:%s only:", p->desc.name,
		     o->bench->desc.name) < 0) {
		o->bench_header = NULL;
		return NULL;
	}
	for (size_t i = 0; i < o->cnt; i++) {
		struct argp_option *a;

		/* A retry after ENOMEM must not leak the docs made before. */
		if (!o->docs[i])
			o->docs[i] = bc_opt_doc(o->opts[i]);
		if (!o->docs[i])
			return NULL;
		a = &o->argp_opts[i];
		a->name = o->opts[i]->name;
		a->key = BC_OPTS_KEY_BASE + (int)i;
		a->arg = o->opts[i]->type == BC_OPT_FLAG ? NULL : bc_opt_placeholder(o->opts[i]);
		a->doc = o->docs[i];
		a->flags = OPTION_HIDDEN;
	}
	if (bc_opts_argp_leaves(o, header))
		return NULL;
	o->argp.options = o->argp_opts;
	o->argp.parser = bc_opts_parse_opt;
	o->argp.children = o->leaf_children;
	return &o->argp;
}

/* --------------------------------------------------------------- JSON */

void bc_opts_json(struct bc_json_writer *w, const struct bc_opts *o)
{
	char buf[1024];

	bc_jw_obj_begin(w, BC_DOC_CFG_PLUGIN_OPTIONS);
	for (size_t i = 0; o && i < o->cnt; i++) {
		const struct bc_option *opt = o->opts[i];
		const void *field = o->mem + opt->offset;
		bool b;
		int64_t v;
		uint64_t u;
		int e;

		switch (opt->type) {
		case BC_OPT_FLAG:
			memcpy(&b, field, sizeof(b));
			bc_jw_bool(w, opt->name, b);
			break;
		case BC_OPT_INT:
			memcpy(&v, field, sizeof(v));
			bc_jw_int(w, opt->name, (long long)v);
			break;
		case BC_OPT_SIZE:
		case BC_OPT_COUNT:
			memcpy(&u, field, sizeof(u));
			bc_jw_uint(w, opt->name, (unsigned long long)u);
			break;
		case BC_OPT_ENUM:
			/* The word, not its index: a reader needs no table. */
			memcpy(&e, field, sizeof(e));
			bc_jw_str(w, opt->name, opt->words[e]);
			break;
		case BC_OPT_STRING:
			bc_jw_str(w, opt->name, o->strs[i]);
			break;
		case BC_OPT_CPUSET:
			if (o->cpus[i]) {
				struct bc_cpuset *set = malloc(sizeof(*set));

				if (!set) {
					bc_jw_null(w, opt->name);
					break;
				}
				set->cnt = o->cpus[i]->cnt;
				memcpy(set->cpus, o->cpus[i]->cpus, set->cnt * sizeof(unsigned int));
				bc_cpuset_format(set, buf, sizeof(buf));
				free(set);
				bc_jw_str(w, opt->name, buf);
			} else {
				bc_jw_null(w, opt->name);
			}
			break;
		}
	}
	bc_jw_obj_end(w);
	bc_jw_arr_begin(w, BC_DOC_CFG_PLUGIN_OPTIONS_SET);
	for (size_t i = 0; o && i < o->cnt; i++)
		if (o->set[i])
			bc_jw_str(w, NULL, o->opts[i]->name);
	bc_jw_arr_end(w);
}

/* ------------------------------------------------------------- sweeps */

int bc_opts_sweep_arg(const struct bc_option *opt, const char *value, char **arg, char *err,
		      size_t err_len)
{
	int ret;

	*arg = NULL;
	ret = bc_opts_check_value(opt, value, err, err_len);
	if (ret)
		return ret;
	if (opt->type == BC_OPT_FLAG) {
		/* Flags default to off (bc_opts_check): off is no word at all. */
		if (!bc_opts_flag_word(value))
			return 0;
		return asprintf(arg, "--%s", opt->name) < 0 ? -ENOMEM : 0;
	}
	return asprintf(arg, "--%s=%s", opt->name, value) < 0 ? -ENOMEM : 0;
}
