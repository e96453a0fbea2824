// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A loaded program's facts: bpf_prog_info's sizes, the verifier's
 * statistics parsed from a log_level 4 log, and the program's maps. All of
 * it is read at load (bc_ctx_add_prog()), outside the measured intervals.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "prog_facts.h"

void bc_prog_facts_note(struct bc_prog_facts *pf, const char *fmt, ...)
{
	size_t off = strlen(pf->note);
	va_list ap;

	if (off && off + 2 < sizeof(pf->note)) {
		memcpy(pf->note + off, "; ", 3);
		off += 2;
	}
	if (off >= sizeof(pf->note) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(pf->note + off, sizeof(pf->note) - off, fmt, ap);
	va_end(ap);
}

/* The number after `key` in line [s, e), or false. */
static bool bc_log_num(const char *s, const char *e, const char *key, uint64_t *v)
{
	size_t kl = strlen(key);
	const char *p;

	for (p = s; p + kl < e; p++) {
		uint64_t n = 0;
		const char *d;

		if (memcmp(p, key, kl) || (p > s && p[-1] != ' ' && p[-1] != '('))
			continue;
		d = p + kl;
		if (d >= e || *d != ' ')
			continue;
		d++;
		if (d >= e || *d < '0' || *d > '9')
			continue;
		for (; d < e && *d >= '0' && *d <= '9'; d++) {
			if (n > (UINT64_MAX - 9) / 10)
				return false;
			n = n * 10 + (uint64_t)(*d - '0');
		}
		*v = n;
		return true;
	}
	return false;
}

static bool bc_starts(const char *s, const char *e, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(e - s) >= n && !memcmp(s, prefix, n);
}

/* "stack depth 8+0+16": every number, or none when one is not. */
static void bc_log_stack(const char *s, const char *e, struct bc_verifier_stats *vs)
{
	struct bc_verifier_stats t = { 0 };
	const char *p = s + strlen("stack depth ");

	while (p < e && t.stack_cnt < BC_STACK_DEPTHS_MAX) {
		uint64_t n = 0;

		if (*p < '0' || *p > '9')
			return;
		for (; p < e && *p >= '0' && *p <= '9'; p++) {
			n = n * 10 + (uint64_t)(*p - '0');
			if (n > UINT32_MAX)
				return;
		}
		t.stack[t.stack_cnt++] = (uint32_t)n;
		t.stack_total += n;
		if (p < e && *p == '+')
			p++;
		else
			break;
	}
	while (p < e && (*p == ' ' || *p == '\r'))
		p++;
	if (p != e || !t.stack_cnt)
		return;
	memcpy(vs->stack, t.stack, sizeof(t.stack));
	vs->stack_cnt = t.stack_cnt;
	vs->stack_total = t.stack_total;
}

int bc_verifier_log_parse(const char *log, size_t len, struct bc_verifier_stats *vs)
{
	const char *s = log, *end;

	memset(vs, 0, sizeof(*vs));
	if (!log)
		return -ENODATA;
	end = memchr(log, '\0', len);
	if (!end)
		end = log + len;
	while (s < end) {
		const char *e = memchr(s, '\n', (size_t)(end - s));
		uint64_t a, b, c, d;

		if (!e)
			break;		/* a line cut by the buffer's end: not trusted */
		if (bc_starts(s, e, "processed ") && bc_log_num(s, e, "processed", &a) &&
		    bc_log_num(s, e, "limit", &b)) {
			vs->has_processed = true;
			vs->processed_insns = a;
			vs->insn_limit = b;
			if (bc_log_num(s, e, "max_states_per_insn", &a) &&
			    bc_log_num(s, e, "total_states", &b) && bc_log_num(s, e, "peak_states", &c)) {
				vs->has_states = true;
				vs->max_states_per_insn = a;
				vs->total_states = b;
				vs->peak_states = c;
			}
			if (bc_log_num(s, e, "mark_read", &d)) {
				vs->has_mark_read = true;
				vs->mark_read = d;
			}
		} else if (bc_starts(s, e, "verification time ") &&
			   bc_log_num(s, e, "time", &a)) {
			vs->has_time = true;
			vs->time_usec = a;
		} else if (bc_starts(s, e, "stack depth ")) {
			bc_log_stack(s, e, vs);
		}
		s = e + 1;
	}
	return vs->has_processed ? 0 : -ENODATA;
}

/* "memlock:\t4096" in /proc/self/fdinfo/FD, or -1. */
static int64_t bc_fd_memlock(int fd)
{
	char path[64], line[128];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "memlock: %lld", &v) == 1)
			break;
	fclose(f);
	return v >= 0 ? (int64_t)v : -1;
}

static void bc_map_read(uint32_t id, struct bc_map_facts *m, struct bc_prog_facts *pf)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	const char *type;
	int fd;

	memset(m, 0, sizeof(*m));
	m->id = id;
	m->memlock = -1;
	fd = bpf_map_get_fd_by_id(id);
	if (fd < 0) {
		bc_prog_facts_note(pf, "map %u: not opened: %s", id, strerror(errno));
		return;
	}
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		bc_prog_facts_note(pf, "map %u: info not read: %s", id, strerror(errno));
		close(fd);
		return;
	}
	snprintf(m->name, sizeof(m->name), "%.*s", (int)sizeof(info.name), info.name);
	type = libbpf_bpf_map_type_str((enum bpf_map_type)info.type);
	snprintf(m->type, sizeof(m->type), "%s", type ? type : "unknown");
	m->key_size = info.key_size;
	m->value_size = info.value_size;
	m->max_entries = info.max_entries;
	m->memlock = bc_fd_memlock(fd);
	close(fd);
}

/* The program's maps: a second info call with map_ids pointed at them. */
static void bc_maps_read(int prog_fd, uint32_t cnt, struct bc_prog_facts *pf)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info), i;
	__u32 *ids;

	if (!cnt)
		return;
	ids = calloc(cnt, sizeof(*ids));
	pf->maps = calloc(cnt, sizeof(*pf->maps));
	if (!ids || !pf->maps) {
		free(ids);
		free(pf->maps);
		pf->maps = NULL;
		bc_prog_facts_note(pf, "maps not read: out of memory");
		return;
	}
	memset(&info, 0, sizeof(info));
	info.nr_map_ids = cnt;
	info.map_ids = (__u64)(unsigned long)ids;
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len)) {
		bc_prog_facts_note(pf, "maps not read: %s", strerror(errno));
	} else {
		/* A map added between the two calls is not in ids. */
		if (info.nr_map_ids < cnt)
			cnt = info.nr_map_ids;
		for (i = 0; i < cnt; i++)
			bc_map_read(ids[i], &pf->maps[i], pf);
		pf->map_cnt = cnt;
	}
	free(ids);
}

int bc_prog_facts_read(int prog_fd, struct bc_prog_facts *pf)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	int err;

	memset(pf, 0, sizeof(*pf));
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len)) {
		err = -errno;
		bc_prog_facts_note(pf, "program info not read: %s", strerror(errno));
		return err ? err : -EINVAL;
	}
	pf->has_info = true;
	pf->xlated_insns = info.xlated_prog_len / 8;
	pf->jited_bytes = info.jited_prog_len;
	pf->verified_insns = info.verified_insns;
	if (!pf->verified_insns)
		bc_prog_facts_note(pf, "verified_insns not reported by this kernel");
	bc_maps_read(prog_fd, info.nr_map_ids, pf);
	return 0;
}

/* The newest load logs libbpf printed, by program name; a ring. */
#define BC_LOAD_LOGS 32

static struct bc_load_log {
	char name[64];
	struct bc_verifier_stats vs;
	unsigned long seq;		/* 0: empty */
} bc_load_logs[BC_LOAD_LOGS];
static unsigned long bc_load_log_seq;
static pthread_mutex_t bc_load_log_lock = PTHREAD_MUTEX_INITIALIZER;

void bc_prog_facts_libbpf_msg(const char *text)
{
	static const char begin[] = "': -- BEGIN PROG LOAD LOG --\n";
	const char *name = text ? strstr(text, "prog '") : NULL, *end;
	struct bc_verifier_stats vs;
	struct bc_load_log *l;

	if (!name)
		return;
	name += strlen("prog '");
	end = strstr(name, begin);
	if (!end || end == name || (size_t)(end - name) >= sizeof(l->name) ||
	    memchr(name, '\'', (size_t)(end - name)))
		return;
	if (bc_verifier_log_parse(end + strlen(begin), strlen(end + strlen(begin)), &vs))
		return;
	pthread_mutex_lock(&bc_load_log_lock);
	l = &bc_load_logs[bc_load_log_seq % BC_LOAD_LOGS];
	snprintf(l->name, sizeof(l->name), "%.*s", (int)(end - name), name);
	l->vs = vs;
	l->seq = ++bc_load_log_seq;
	pthread_mutex_unlock(&bc_load_log_lock);
}

bool bc_prog_facts_take_log(const char *name, struct bc_verifier_stats *vs)
{
	struct bc_load_log *best = NULL;

	pthread_mutex_lock(&bc_load_log_lock);
	for (size_t i = 0; i < BC_LOAD_LOGS; i++) {
		struct bc_load_log *l = &bc_load_logs[i];

		if (l->seq && !strcmp(l->name, name) && (!best || l->seq > best->seq))
			best = l;
	}
	if (best) {
		*vs = best->vs;
		/* An older load of the name (a refused candidate's) is no
		 * later program's. */
		for (size_t i = 0; i < BC_LOAD_LOGS; i++)
			if (!strcmp(bc_load_logs[i].name, name))
				bc_load_logs[i].seq = 0;
	}
	pthread_mutex_unlock(&bc_load_log_lock);
	return best != NULL;
}

void bc_prog_facts_free(struct bc_prog_facts *pf)
{
	free(pf->maps);
	pf->maps = NULL;
	pf->map_cnt = 0;
}
