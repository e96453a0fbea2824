// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The likely causes of noisy runs (noise.h). Every reader tolerates a
 * missing file: what this machine does not expose is not a cause here.
 */
#define _GNU_SOURCE
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "noise.h"

#define BC_NOISE_CPU_DIR "/sys/devices/system/cpu"

static FILE *bc_noise_open(const char *root, const char *path)
{
	char full[4096];

	if (snprintf(full, sizeof(full), "%s%s", root, path) >= (int)sizeof(full))
		return NULL;
	return fopen(full, "re");
}

/* The first line of a file, without its newline; false when unreadable. */
static bool bc_noise_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

static bool bc_noise_glob(const char *root, const char *pattern, glob_t *g)
{
	char full[4096];

	if (snprintf(full, sizeof(full), "%s%s", root, pattern) >= (int)sizeof(full))
		return false;
	return glob(full, 0, NULL, g) == 0;
}

void bc_noise_snap(const char *root, struct bc_noise_snap *s)
{
	unsigned long long v[8] = { 0 };
	char line[512];
	FILE *f;
	glob_t g;

	memset(s, 0, sizeof(*s));
	f = bc_noise_open(root, "/proc/stat");
	if (f) {
		/* cpu user nice system idle iowait irq softirq steal (guest
		 * time is already in user) */
		if (fgets(line, sizeof(line), f) &&
		    sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
			   &v[3], &v[4], &v[5], &v[6], &v[7]) >= 7) {
			s->stat_ok = true;
			s->busy = v[0] + v[1] + v[2] + v[5] + v[6];
			s->steal = v[7];
			s->total = s->busy + v[3] + v[4] + v[7];
		}
		fclose(f);
	}
	if (bc_noise_glob(root, BC_NOISE_CPU_DIR "/cpu[0-9]*/thermal_throttle/*_count", &g)) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			if (!bc_noise_line(g.gl_pathv[i], line, sizeof(line)))
				continue;
			s->throttle += strtoull(line, NULL, 10);
			s->throttle_ok = true;
		}
		globfree(&g);
	}
}

struct bc_noise_out {
	char *buf;
	size_t len, off;
	unsigned int cnt;
};

static void bc_noise_add(struct bc_noise_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void bc_noise_add(struct bc_noise_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	o->cnt++;
	if (o->off >= o->len)
		return;
	if (o->off) {
		n = snprintf(o->buf + o->off, o->len - o->off, "; ");
		o->off += n > 0 ? (size_t)n : 0;
		if (o->off >= o->len)
			return;
	}
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->off, o->len - o->off, fmt, ap);
	va_end(ap);
	o->off += n > 0 ? (size_t)n : 0;
}

static void bc_noise_governor(const char *root, struct bc_noise_out *o)
{
	char gov[64], first[64] = "";
	unsigned int other = 0;
	glob_t g;

	if (!bc_noise_glob(root, BC_NOISE_CPU_DIR "/cpu[0-9]*/cpufreq/scaling_governor", &g))
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		if (!bc_noise_line(g.gl_pathv[i], gov, sizeof(gov)) || !strcmp(gov, "performance"))
			continue;
		if (!other++)
			snprintf(first, sizeof(first), "%s", gov);
	}
	if (other)
		bc_noise_add(o, "cpufreq governor '%s' on %u of %zu CPUs, not 'performance' "
			     "(scaling_governor): the clock moves with the load", first, other,
			     g.gl_pathc);
	globfree(&g);
}

static bool bc_noise_cpuinfo_hypervisor(const char *root)
{
	char line[8192];
	bool found = false;
	FILE *f = bc_noise_open(root, "/proc/cpuinfo");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		line[strcspn(line, "\n")] = ' ';
		found = strstr(line, " hypervisor ") != NULL;
		break;
	}
	fclose(f);
	return found;
}

/* How many CPUs other processes kept busy, from /proc/stat; false when it
 * could not be read. */
static bool bc_noise_other_cpus(const struct bc_noise_snap *b, const struct bc_noise_snap *a,
				const struct bc_noise_usage *use, double *other)
{
	double busy_sec;

	*other = 0;
	if (!b->stat_ok || !a->stat_ok || a->busy < b->busy || !(use->wall_sec > 0) ||
	    use->hz <= 0)
		return false;
	busy_sec = (double)(a->busy - b->busy) / (double)use->hz;
	*other = (busy_sec - use->own_cpu_sec) / use->wall_sec;
	return true;
}

static void bc_noise_load(const char *root, const struct bc_noise_usage *use,
			  struct bc_noise_out *o)
{
	char line[256];
	double load;
	FILE *f = bc_noise_open(root, "/proc/loadavg");

	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && sscanf(line, "%lf", &load) == 1 && use->cpus &&
	    load > (double)use->cpus)
		bc_noise_add(o, "load average %.2f on %u CPUs (/proc/loadavg): other processes "
			     "wanted the CPUs", load, use->cpus);
	fclose(f);
}

/* Unpinned threads land on one core in some runs and on two in others. */
static void bc_noise_smt(const char *root, const struct bc_noise_usage *use, double other,
			 struct bc_noise_out *o)
{
	char path[4096], smt[16];

	snprintf(path, sizeof(path), "%s%s/smt/active", root, BC_NOISE_CPU_DIR);
	if (!bc_noise_line(path, smt, sizeof(smt)) || strcmp(smt, "1"))
		return;
	if (!use->pinned)
		bc_noise_add(o, "SMT is on and the threads are not pinned (-a): a run whose "
			     "threads share a core runs slower (smt/active)");
	else if (other >= BC_NOISE_BUSY_CPUS)
		bc_noise_add(o, "SMT is on: busy processes may share the benchmark's cores "
			     "(smt/active)");
}

unsigned int bc_noise_causes(const char *root, const struct bc_noise_snap *before,
			     const struct bc_noise_snap *after, const struct bc_noise_usage *use,
			     char *buf, size_t len)
{
	struct bc_noise_out o = { .buf = buf, .len = len };
	double other, steal_pct = 0;
	bool stat_ok = bc_noise_other_cpus(before, after, use, &other);

	if (len)
		buf[0] = '\0';
	bc_noise_governor(root, &o);
	if (stat_ok && other >= BC_NOISE_BUSY_CPUS)
		bc_noise_add(&o, "other processes kept %.2f of %u CPUs busy during the "
			     "runs (/proc/stat, less the runs' own CPU time)", other, use->cpus);
	else if (!stat_ok)
		bc_noise_load(root, use, &o);
	if (before->stat_ok && after->stat_ok && after->total > before->total &&
	    after->steal >= before->steal)
		steal_pct = (double)(after->steal - before->steal) /
			    (double)(after->total - before->total) * 100.0;
	if (steal_pct >= BC_NOISE_STEAL_PCT)
		bc_noise_add(&o, "the hypervisor gave %.1f%% of the CPU time to others (steal, "
			     "/proc/stat)", steal_pct);
	else if (bc_noise_cpuinfo_hypervisor(root))
		bc_noise_add(&o, "a hypervisor (/proc/cpuinfo): the host and other guests share "
			     "these CPUs");
	if (before->throttle_ok && after->throttle_ok && after->throttle > before->throttle)
		bc_noise_add(&o, "thermal throttling: %llu events during the runs "
			     "(thermal_throttle)", after->throttle - before->throttle);
	bc_noise_smt(root, use, other, &o);
	return o.cnt;
}
