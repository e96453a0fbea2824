// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The thresholds file of `check` (thresholds.h has its shape): a tiny INI
 * subset read line by line, so that every mistake is one line naming the
 * file and line and what belongs there. A team edits it by hand in review;
 * it is never written by benchcore.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "thresholds.h"

/* A thresholds file is a screenful; more is another file given by mistake. */
#define BC_TH_MAX_BYTES (1u << 20)
#define BC_TH_MAX_LINE 1024
#define BC_TH_MAX_PCT 1000.0
#define BC_TH_MAX_SAMPLES 1000000u

enum bc_th_key {
	BC_TH_MAX_REGRESSION,
	BC_TH_ALPHA,
	BC_TH_MIN_SAMPLES,
	BC_TH_KEY_CNT,
};

static const char *const bc_th_keys[BC_TH_KEY_CNT] = {
	[BC_TH_MAX_REGRESSION] = "max-regression",
	[BC_TH_ALPHA] = "alpha",
	[BC_TH_MIN_SAMPLES] = "min-samples",
};

struct bc_th_section {
	char *glob;			/* NULL: [default] */
	char *metric;			/* NULL: any figure */
	unsigned int line;
	unsigned int set_on[BC_TH_KEY_CNT];	/* the line that set each key; 0: not set */
	double value[BC_TH_KEY_CNT];
};

struct bc_thresholds {
	char *path;
	struct bc_th_section *s;
	size_t cnt;
};

void bc_thresholds_free(struct bc_thresholds *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->cnt; i++) {
		free(t->s[i].glob);
		free(t->s[i].metric);
	}
	free(t->s);
	free(t->path);
	free(t);
}

static char *bc_trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
		*--end = '\0';
	return s;
}

/* "[GLOB]", "[GLOB METRIC]" or "[default]" into a new section. */
static int bc_th_section_line(struct bc_thresholds *t, char *line, unsigned int ln, char *err,
			      size_t err_len)
{
	char orig[BC_TH_MAX_LINE + 1], *in, *metric, *rest;
	struct bc_th_section *s, *grown;

	snprintf(orig, sizeof(orig), "%s", line);
	in = bc_trim(line + 1);
	in[strlen(in) - 1] = '\0';
	in = bc_trim(in);
	metric = in + strcspn(in, " \t");
	if (*metric)
		*metric++ = '\0';
	metric = bc_trim(metric);
	rest = metric + strcspn(metric, " \t");
	if (!*in || *rest || (!strcmp(in, "default") && *metric)) {
		snprintf(err, err_len, "%s:%u: '%s': expected [default], [GLOB] or [GLOB METRIC] (GLOB a PLUGIN:BENCH pattern)",
			 t->path, ln, orig);
		return -EINVAL;
	}
	for (size_t i = 0; !strcmp(in, "default") && i < t->cnt; i++)
		if (!t->s[i].glob) {
			snprintf(err, err_len, "%s:%u: [default] again (first on line %u); expected one [default] section",
				 t->path, ln, t->s[i].line);
			return -EINVAL;
		}
	grown = realloc(t->s, (t->cnt + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	t->s = grown;
	s = &t->s[t->cnt];
	memset(s, 0, sizeof(*s));
	s->line = ln;
	if (strcmp(in, "default") && !(s->glob = strdup(in)))
		return -ENOMEM;
	if (*metric && !(s->metric = strdup(metric))) {
		free(s->glob);
		return -ENOMEM;
	}
	t->cnt++;
	return 0;
}

/* One value, checked against what its key allows. */
static int bc_th_value(const struct bc_thresholds *t, enum bc_th_key k, const char *v,
		       unsigned int ln, double *out, char *err, size_t err_len)
{
	char *end = NULL;
	double d;

	errno = 0;
	if (k == BC_TH_MIN_SAMPLES) {
		unsigned long n = isdigit((unsigned char)*v) ? strtoul(v, &end, 10) : 0;

		if (!end || *end || errno || n < 2 || n > BC_TH_MAX_SAMPLES) {
			snprintf(err, err_len, "%s:%u: min-samples '%s': expected a whole number from 2 to %u",
				 t->path, ln, v, BC_TH_MAX_SAMPLES);
			return -EINVAL;
		}
		*out = (double)n;
		return 0;
	}
	d = *v ? strtod(v, &end) : NAN;
	if (k == BC_TH_MAX_REGRESSION && end && *end == '%')
		end++;
	if (!end || *end || errno || !isfinite(d) ||
	    (k == BC_TH_MAX_REGRESSION && (d < 0 || d > BC_TH_MAX_PCT)) ||
	    (k == BC_TH_ALPHA && !(d > 0 && d < 1))) {
		if (k == BC_TH_MAX_REGRESSION)
			snprintf(err, err_len, "%s:%u: max-regression '%s': expected a percentage from 0 to %g (5 or 5%%)",
				 t->path, ln, v, BC_TH_MAX_PCT);
		else
			snprintf(err, err_len, "%s:%u: alpha '%s': expected a significance level between 0 and 1 (0.05)",
				 t->path, ln, v);
		return -EINVAL;
	}
	*out = d;
	return 0;
}

/* "KEY = VALUE" into the current section. */
static int bc_th_key_line(struct bc_thresholds *t, char *line, unsigned int ln, char *err,
			  size_t err_len)
{
	char *eq = strchr(line, '='), *key, *val;
	struct bc_th_section *s;
	size_t k;

	if (!eq) {
		snprintf(err, err_len, "%s:%u: '%s': expected [SECTION], KEY = VALUE, a comment or a blank line",
			 t->path, ln, line);
		return -EINVAL;
	}
	*eq = '\0';
	key = bc_trim(line);
	val = bc_trim(eq + 1);
	for (k = 0; k < BC_TH_KEY_CNT && strcmp(key, bc_th_keys[k]); k++)
		;
	if (k == BC_TH_KEY_CNT) {
		snprintf(err, err_len, "%s:%u: unknown key '%s'; expected max-regression, alpha or min-samples",
			 t->path, ln, key);
		return -EINVAL;
	}
	if (!t->cnt) {
		snprintf(err, err_len, "%s:%u: '%s' before any section; expected a [default] or [GLOB] line first",
			 t->path, ln, key);
		return -EINVAL;
	}
	s = &t->s[t->cnt - 1];
	if (s->set_on[k]) {
		snprintf(err, err_len, "%s:%u: '%s' is set twice in the section of line %u (first on line %u)",
			 t->path, ln, key, s->line, s->set_on[k]);
		return -EINVAL;
	}
	if (bc_th_value(t, (enum bc_th_key)k, val, ln, &s->value[k], err, err_len))
		return -EINVAL;
	s->set_on[k] = ln;
	return 0;
}

static int bc_th_parse(struct bc_thresholds *t, FILE *f, char *err, size_t err_len)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned int ln = 0;
	ssize_t len;
	int ret = 0;

	while (!ret && (len = getline(&line, &cap, f)) >= 0) {
		char *s;

		ln++;
		if ((size_t)len != strlen(line) || len > BC_TH_MAX_LINE) {
			snprintf(err, err_len, "%s:%u: %s; expected a text file of short lines",
				 t->path, ln, (size_t)len != strlen(line) ? "a NUL byte" : "a line longer than 1024 bytes");
			ret = -EINVAL;
			break;
		}
		s = bc_trim(line);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[' && s[strlen(s) - 1] == ']')
			ret = bc_th_section_line(t, s, ln, err, err_len);
		else
			ret = bc_th_key_line(t, s, ln, err, err_len);
	}
	if (!ret && ferror(f)) {
		snprintf(err, err_len, "%s: %s", t->path, strerror(errno ? errno : EIO));
		ret = -EIO;
	}
	if (ret == -ENOMEM)
		snprintf(err, err_len, "%s: out of memory", t->path);
	free(line);
	return ret;
}

struct bc_thresholds *bc_thresholds_load(const char *path, char *err, size_t err_len)
{
	struct bc_thresholds *t = calloc(1, sizeof(*t));
	struct stat st;
	FILE *f = NULL;
	int ret;

	if (!t || !(t->path = strdup(path))) {
		snprintf(err, err_len, "%s: out of memory", path);
		ret = -ENOMEM;
		goto fail;
	}
	f = fopen(path, "re");
	if (!f || fstat(fileno(f), &st)) {
		ret = -errno;
		snprintf(err, err_len, "thresholds '%s': %s; expected a thresholds file (docs/ci.md)", path,
			 strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > BC_TH_MAX_BYTES) {
		ret = S_ISREG(st.st_mode) ? -EFBIG : -EISDIR;
		snprintf(err, err_len, "thresholds '%s': %s; expected a thresholds file (docs/ci.md)", path,
			 S_ISREG(st.st_mode) ? "larger than 1 MiB" : "not a regular file");
		goto fail;
	}
	ret = bc_th_parse(t, f, err, err_len);
	if (ret)
		goto fail;
	fclose(f);
	return t;
fail:
	if (f)
		fclose(f);
	bc_thresholds_free(t);
	errno = -ret;
	return NULL;
}

static void bc_th_apply(const struct bc_thresholds *t, const struct bc_th_section *s,
			struct bc_threshold *out)
{
	if (s->set_on[BC_TH_MAX_REGRESSION]) {
		out->max_regression_pct = s->value[BC_TH_MAX_REGRESSION];
		snprintf(out->from, sizeof(out->from), "%.255s:%u", t->path, s->line);
	}
	if (s->set_on[BC_TH_ALPHA])
		out->alpha = s->value[BC_TH_ALPHA];
	if (s->set_on[BC_TH_MIN_SAMPLES])
		out->min_samples = (unsigned int)s->value[BC_TH_MIN_SAMPLES];
}

void bc_thresholds_for(const struct bc_thresholds *t, const char *bench, const char *metric,
		       struct bc_threshold *out)
{
	*out = (struct bc_threshold){ .max_regression_pct = BC_THRESHOLD_MAX_REGRESSION_PCT,
				      .alpha = BC_THRESHOLD_ALPHA,
				      .min_samples = BC_THRESHOLD_MIN_SAMPLES,
				      .from = "built-in" };
	if (!t)
		return;
	for (size_t i = 0; i < t->cnt; i++)
		if (!t->s[i].glob)
			bc_th_apply(t, &t->s[i], out);
	for (size_t i = 0; i < t->cnt; i++) {
		const struct bc_th_section *s = &t->s[i];

		if (!s->glob || fnmatch(s->glob, bench ? bench : "", 0) ||
		    (s->metric && fnmatch(s->metric, metric ? metric : "", 0)))
			continue;
		bc_th_apply(t, s, out);
	}
}
