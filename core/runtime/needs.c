// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Cheap feature checks: does this kernel have what a benchmark needs? Each
 * question is the smallest one that answers it (libbpf's probe API, a
 * two-instruction program of the attach type, a vmlinux BTF lookup, a
 * tracefs file), asked once per process and remembered, so that `list`
 * answers for every benchmark in milliseconds where loading and attaching
 * each one's programs (probe()) took a second. vmlinux BTF is read on the
 * first question that needs it, and only then (vmlinux_btf.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include <benchcore/attach.h>
#include "loader.h"
#include "context.h"
#include "tracefs.h"
#include "exit_status.h"
#include "needs.h"
#include "vmlinux_btf.h"
#include "log.h"

/* enum bpf_attach_type's BPF_TRACE_UPROBE_MULTI (Linux 6.6 uapi; the
 * installed headers may predate it). */
#define BC_TRACE_UPROBE_MULTI 48

#define BC_WHY_LEN 512

/* ---------------------------------------------------------------- memo */

/* Answers by question ("prog 17", "fentry __x64_sys_getpgid"): 0 yes,
 * else the negative errno that said no. Small: a few dozen questions. */
#define BC_MEMO_MAX 128

struct bc_memo {
	char key[192];
	int err;
};

static pthread_mutex_t bc_feat_lock = PTHREAD_MUTEX_INITIALIZER;
static struct bc_memo bc_memo[BC_MEMO_MAX];
static size_t bc_memo_cnt;

/* Asked before? Then *err is the answer. */
static bool bc_memo_find(const char *key, int *err)
{
	bool hit = false;

	pthread_mutex_lock(&bc_feat_lock);
	for (size_t i = 0; i < bc_memo_cnt && !hit; i++) {
		hit = !strcmp(bc_memo[i].key, key);
		if (hit)
			*err = bc_memo[i].err;
	}
	pthread_mutex_unlock(&bc_feat_lock);
	return hit;
}

/* Remembers the answer and returns it; a full table or a key too long
 * only costs asking again. */
static int bc_memo_keep(const char *key, int err)
{
	pthread_mutex_lock(&bc_feat_lock);
	if (bc_memo_cnt < BC_MEMO_MAX && strlen(key) < sizeof(bc_memo[0].key)) {
		snprintf(bc_memo[bc_memo_cnt].key, sizeof(bc_memo[0].key), "%s", key);
		bc_memo[bc_memo_cnt++].err = err;
	}
	pthread_mutex_unlock(&bc_feat_lock);
	return err;
}

void bc_needs_reset(void)
{
	pthread_mutex_lock(&bc_feat_lock);
	bc_memo_cnt = 0;
	pthread_mutex_unlock(&bc_feat_lock);
	bc_vmlinux_btf_release();
}

/* Why `name` could not be looked up: bc_vmlinux_btf_id()'s error. */
static void bc_btf_missing(int err, const char *name, char *buf, size_t len)
{
	if (err == -ENODATA)
		snprintf(buf, len, "this kernel has no BTF (/sys/kernel/btf/vmlinux) to look %s up in",
			 name);
	else
		snprintf(buf, len, "cannot read this kernel's BTF to look %s up in: %s", name,
			 strerror(-err));
}

/* ----------------------------------------------------- small questions */

/* Loads `r0 = 0; exit` as the given program: 0, or the kernel's errno. */
static int bc_feat_load(enum bpf_prog_type type, enum bpf_attach_type eat, int btf_id,
			unsigned int flags)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = eat,
		    .attach_btf_id = btf_id > 0 ? (unsigned int)btf_id : 0, .prog_flags = flags);
	int fd;

	fd = bpf_prog_load(type, "bc_feature", "GPL", insns, 2, &opts);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* May this process load BPF programs at all? Tracepoint programs need what
 * every benchmark's programs need (CAP_BPF and CAP_PERFMON). */
static int bc_feat_privileged(char *why, size_t len)
{
	int err;

	if (!bc_memo_find("privileges", &err))
		err = bc_memo_keep("privileges", bc_feat_load(BPF_PROG_TYPE_TRACEPOINT, 0, 0, 0));
	/* Only a refusal of the caller is this check's to say; a kernel
	 * without tracepoint programs is the checks' own business. */
	if (err != -EPERM && err != -EACCES)
		return 0;
	if (geteuid() != 0)
		snprintf(why, len, "needs root (CAP_BPF and CAP_PERFMON) to load BPF programs: %s",
			 strerror(-err));
	else
		snprintf(why, len, "the kernel refuses BPF programs to this process: %s",
			 strerror(-err));
	return err;
}

static int bc_probe_prog_type(unsigned int type)
{
	int r = libbpf_probe_bpf_prog_type((enum bpf_prog_type)type, NULL);

	return r > 0 ? 0 : r == 0 ? -EOPNOTSUPP : r;
}

static int bc_feat_prog_type(unsigned int type)
{
	char key[32];

	int err;

	snprintf(key, sizeof(key), "prog %u", type);
	if (!bc_memo_find(key, &err))
		err = bc_memo_keep(key, bc_probe_prog_type(type));
	return err;
}

static int bc_probe_map_type(unsigned int type)
{
	int r = libbpf_probe_bpf_map_type((enum bpf_map_type)type, NULL);

	return r > 0 ? 0 : r == 0 ? -EOPNOTSUPP : r;
}

static int bc_probe_helper(unsigned int type, unsigned int id)
{
	int r = libbpf_probe_bpf_helper((enum bpf_prog_type)type, (enum bpf_func_id)id, NULL);

	return r > 0 ? 0 : r == 0 ? -EOPNOTSUPP : r;
}

static const char *bc_prog_type_name(unsigned int type)
{
	const char *name = libbpf_bpf_prog_type_str((enum bpf_prog_type)type);

	return name ? name : "unknown";
}

/* ---------------------------------------------------------------- needs */

/* What a need is, in words, when the plugin gave none. */
static void bc_need_words(const struct bc_need *n, char *buf, size_t len)
{
	const char *map;

	if (n->why) {
		snprintf(buf, len, "%s", n->why);
		return;
	}
	switch (n->kind) {
	case BC_NEED_PROG_TYPE:
		snprintf(buf, len, "%s programs", bc_prog_type_name(n->type));
		break;
	case BC_NEED_MAP_TYPE:
		map = libbpf_bpf_map_type_str((enum bpf_map_type)n->type);
		snprintf(buf, len, "%s maps", map ? map : "unknown");
		break;
	case BC_NEED_HELPER:
		snprintf(buf, len, "BPF helper #%u in %s programs", n->id,
			 bc_prog_type_name(n->type));
		break;
	case BC_NEED_BTF_FUNC:
		snprintf(buf, len, "kernel function %s", n->name ? n->name : "?");
		break;
	case BC_NEED_BTF_TYPE:
		snprintf(buf, len, "kernel type %s", n->name ? n->name : "?");
		break;
	case BC_NEED_FILE:
		snprintf(buf, len, "%s", n->name ? n->name : "?");
		break;
	default:
		snprintf(buf, len, "kernel need of kind %d", (int)n->kind);
		break;
	}
}

/* 0: has it; else a negative errno, with how the kernel said no in `how`. */
static int bc_need_ask(const struct bc_need *n, char *how, size_t len)
{
	char key[96];
	int err;

	how[0] = '\0';
	switch (n->kind) {
	case BC_NEED_PROG_TYPE:
		err = bc_feat_prog_type(n->type);
		if (err)
			snprintf(how, len, "this kernel does not load %s programs",
				 bc_prog_type_name(n->type));
		return err;
	case BC_NEED_MAP_TYPE:
		snprintf(key, sizeof(key), "map %u", n->type);
		if (!bc_memo_find(key, &err))
			err = bc_memo_keep(key, bc_probe_map_type(n->type));
		if (err)
			snprintf(how, len, "this kernel does not create such maps");
		return err;
	case BC_NEED_HELPER:
		snprintf(key, sizeof(key), "helper %u %u", n->type, n->id);
		if (!bc_memo_find(key, &err))
			err = bc_memo_keep(key, bc_probe_helper(n->type, n->id));
		if (err)
			snprintf(how, len, "this kernel's %s programs cannot call helper #%u",
				 bc_prog_type_name(n->type), n->id);
		return err;
	case BC_NEED_BTF_FUNC:
	case BC_NEED_BTF_TYPE:
		if (!n->name)
			return -EINVAL;
		err = bc_vmlinux_btf_id(n->name, n->kind == BC_NEED_BTF_FUNC ? BTF_KIND_FUNC : 0);
		if (err > 0)
			return 0;
		if (err == -ENOENT)
			snprintf(how, len, "%s is not in this kernel's BTF", n->name);
		else
			bc_btf_missing(err, n->name, how, len);
		return err;
	case BC_NEED_FILE:
		if (!n->name)
			return -EINVAL;
		if (access(n->name, F_OK) == 0)
			return 0;
		err = -errno;
		snprintf(how, len, "%s: %s", n->name, strerror(-err));
		return err;
	}
	snprintf(how, len, "unknown need kind %d", (int)n->kind);
	return -EINVAL;
}

static bool bc_need_is_bpf(const struct bc_need *n)
{
	return n->kind == BC_NEED_PROG_TYPE || n->kind == BC_NEED_MAP_TYPE ||
	       n->kind == BC_NEED_HELPER;
}

/* A caller built against an older header hands a shorter struct: read
 * only what its sz covers. */
static void bc_need_get(const struct bc_need *needs, size_t i, struct bc_need *out)
{
	size_t stride = needs[0].sz ? needs[0].sz : sizeof(*out);

	memset(out, 0, sizeof(*out));
	memcpy(out, (const char *)needs + i * stride, stride < sizeof(*out) ? stride : sizeof(*out));
}

static bool bc_need_valid(const struct bc_need *n)
{
	switch (n->kind) {
	case BC_NEED_PROG_TYPE:
	case BC_NEED_MAP_TYPE:
	case BC_NEED_HELPER:
		return true;
	case BC_NEED_BTF_FUNC:
	case BC_NEED_BTF_TYPE:
	case BC_NEED_FILE:
		return n->name && n->name[0];
	}
	return false;
}

int bc_need_probe(const struct bc_need *need)
{
	char how[BC_WHY_LEN];
	struct bc_need n;
	int err;

	if (!need)
		return -EINVAL;
	bc_need_get(need, 0, &n);
	if (!bc_need_valid(&n))
		return -EINVAL;
	if (bc_need_is_bpf(&n) && bc_feat_privileged(how, sizeof(how)))
		return -EPERM;
	err = bc_need_ask(&n, how, sizeof(how));
	if (!err)
		return 1;
	/* No BTF to look in is no answer. */
	if ((n.kind == BC_NEED_BTF_FUNC || n.kind == BC_NEED_BTF_TYPE) && err != -ENOENT)
		return err;
	return 0;
}

int bc_need_check(struct bc_ctx *ctx, const struct bc_need *needs, size_t cnt)
{
	char what[BC_WHY_LEN], how[BC_WHY_LEN];
	bool privileged = false;
	struct bc_need n;

	for (size_t i = 0; needs && i < cnt; i++) {
		bc_need_get(needs, i, &n);
		if (bc_need_is_bpf(&n) && !privileged) {
			if (bc_feat_privileged(how, sizeof(how)))
				return bc_unavailable(ctx, "%s", how);
			privileged = true;
		}
		if (!bc_need_ask(&n, how, sizeof(how)))
			continue;
		bc_need_words(&n, what, sizeof(what));
		return bc_unavailable(ctx, "needs %s: %s", what, how);
	}
	return 0;
}

/* -------------------------------------------------------- attach points */

static void bc_point_get(const struct bc_attach_point *pts, size_t i, struct bc_attach_point *out)
{
	size_t stride = pts[0].sz ? pts[0].sz : sizeof(*out);

	memset(out, 0, sizeof(*out));
	memcpy(out, (const char *)pts + i * stride, stride < sizeof(*out) ? stride : sizeof(*out));
}

/* needs.h says what. */
void bc_attach_point_target(const char *name, char *buf, size_t len, bool *sleepable)
{
	const char *slash = name ? strchr(name, '/') : NULL;
	size_t n;

	buf[0] = '\0';
	*sleepable = false;
	if (!slash)
		return;
	*sleepable = slash - name >= 2 && !strncmp(slash - 2, ".s", 2);
	n = strcspn(slash + 1, " \t+");
	if (n >= len)
		n = len - 1;
	memcpy(buf, slash + 1, n);
	buf[n] = '\0';
}

struct bc_btf_prog_q {
	enum bpf_prog_type type;
	enum bpf_attach_type eat;
	const char *prefix;	/* of the BTF name: "bpf_lsm_", "btf_trace_" */
	int btf_kind;
	const char *what;	/* for the reason: "fentry" */
	bool trampoline;	/* runs through a BPF trampoline */
};

/* A program that the kernel checks against a BTF id at load: fentry,
 * fexit, fmod_ret, lsm, tp_btf. */
static int bc_check_btf_prog(const struct bc_btf_prog_q *q, const char *target, bool sleepable,
			     char *why, size_t len)
{
	char name[160], key[192];
	int id, err;

	/* First with BTF id 1, which is no function: EINVAL says the kernel
	 * takes the attach type and looked at the id; EPERM (no trampolines)
	 * says no to every target, and no BTF needs reading. */
	snprintf(key, sizeof(key), "%s%s at all", q->what, sleepable ? ".s" : "");
	if (!bc_memo_find(key, &err))
		err = bc_memo_keep(key, bc_feat_load(q->type, q->eat, 1,
						     sleepable ? BPF_F_SLEEPABLE : 0));
	if (err == -EPERM || err == -BC_ENOTSUPP || err == -EOPNOTSUPP) {
		snprintf(why, len, "the kernel refuses %s%s programs: %s%s", q->what,
			 sleepable ? ".s" : "", bc_strerror(err),
			 q->trampoline ? " (BPF trampolines unavailable)" : "");
		return err;
	}
	if (!target[0])
		return 0;	/* nothing more to ask: probe() will tell */
	snprintf(name, sizeof(name), "%s%s", q->prefix, target);
	id = bc_vmlinux_btf_id(name, q->btf_kind);
	if (id == -ENOENT) {
		snprintf(why, len, "%s is not in this kernel's BTF", name);
		return id;
	}
	if (id < 0) {
		bc_btf_missing(id, name, why, len);
		return id;
	}
	snprintf(key, sizeof(key), "%s%s %s", q->what, sleepable ? ".s" : "", name);
	if (!bc_memo_find(key, &err))
		err = bc_memo_keep(key, bc_feat_load(q->type, q->eat, id,
						     sleepable ? BPF_F_SLEEPABLE : 0));
	if (!err)
		return 0;
	snprintf(why, len, "the kernel refused a minimal %s%s program on %s: %s%s", q->what,
		 sleepable ? ".s" : "", target, bc_strerror(err),
		 q->trampoline && (err == -EPERM || err == -BC_ENOTSUPP || err == -EOPNOTSUPP) ?
			 " (BPF trampolines unavailable)" : "");
	return err;
}

/*
 * The part of union bpf_attr that BPF_LINK_CREATE reads for a uprobe.multi
 * link (Linux 6.6 uapi), which also covers an all-zero kprobe.multi one.
 */
struct bc_link_create_multi {
	uint32_t prog_fd, target_fd, attach_type, flags;
	uint64_t path, offsets, ref_ctr_offsets, cookies;	/* the union, 8-aligned */
	uint32_t cnt, multi_flags, pid;
};
_Static_assert(offsetof(struct bc_link_create_multi, path) ==
	       offsetof(union bpf_attr, link_create.target_btf_id), "link_create's union");

/* A multi link the kernel may not know: asked by creating an invalid one,
 * whose refusal says which. `expect` is the errno of "known, but these
 * arguments are wrong". */
static int bc_probe_multi_link(unsigned int attach_type, int expect)
{
	struct bc_link_create_multi attr;
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = attach_type);
	unsigned long offset = 0;
	int prog_fd, link_fd, err;

	prog_fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "bc_feature", "GPL", insns, 2, &opts);
	if (prog_fd < 0)
		return -errno;
	/* kprobe.multi: no symbols at all (EINVAL when known); uprobe.multi:
	 * one offset in "/", which is no file (EBADF when known). */
	memset(&attr, 0, sizeof(attr));
	attr.prog_fd = (uint32_t)prog_fd;
	attr.attach_type = attach_type;
	if (attach_type == BC_TRACE_UPROBE_MULTI) {
		attr.path = (uint64_t)(uintptr_t)"/";
		attr.offsets = (uint64_t)(uintptr_t)&offset;
		attr.cnt = 1;
	}
	link_fd = (int)syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	err = link_fd < 0 ? -errno : 0;
	if (link_fd >= 0)
		close(link_fd);
	close(prog_fd);
	return err == -expect || !err ? 0 : err;
}

static bool bc_path_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* The kernel's kprobes: its PMU, or tracefs's kprobe_events. */
static bool bc_have_kprobes(void)
{
	char path[160];

	if (bc_path_exists("/sys/bus/event_source/devices/kprobe/type"))
		return true;
	snprintf(path, sizeof(path), "%s/kprobe_events", bc_tracefs_dir());
	return bc_path_exists(path);
}

static int bc_check_func_in_btf(const char *target, char *why, size_t len)
{
	int id;

	if (!target[0])
		return 0;
	id = bc_vmlinux_btf_id(target, BTF_KIND_FUNC);
	if (id == -ENOENT) {
		snprintf(why, len, "%s is not a function in this kernel's BTF", target);
		return id;
	}
	return 0;	/* there, or no BTF to ask: probe() will tell */
}

/* 0: the point passes its cheap check; else the negative errno of the
 * question that said no, and why in words. */
static int bc_point_check(const struct bc_attach_point *pt, char *why, size_t len)
{
	static const struct bc_btf_prog_q fentry = {
		BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, "", BTF_KIND_FUNC, "fentry", true };
	static const struct bc_btf_prog_q fexit = {
		BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT, "", BTF_KIND_FUNC, "fexit", true };
	static const struct bc_btf_prog_q fmod_ret = {
		BPF_PROG_TYPE_TRACING, BPF_MODIFY_RETURN, "", BTF_KIND_FUNC, "fmod_ret", true };
	static const struct bc_btf_prog_q lsm = {
		BPF_PROG_TYPE_LSM, BPF_LSM_MAC, "bpf_lsm_", BTF_KIND_FUNC, "lsm", true };
	static const struct bc_btf_prog_q tp_btf = {
		BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP, "btf_trace_", BTF_KIND_TYPEDEF, "tp_btf",
		false };
	char target[128], path[256], hint[256];
	bool sleepable;
	int err;

	bc_attach_point_target(pt->name, target, sizeof(target), &sleepable);
	switch (pt->kind) {
	case BC_ATTACH_FENTRY:
		return bc_check_btf_prog(&fentry, target, sleepable, why, len);
	case BC_ATTACH_FEXIT:
		return bc_check_btf_prog(&fexit, target, sleepable, why, len);
	case BC_ATTACH_FMOD_RET:
		return bc_check_btf_prog(&fmod_ret, target, sleepable, why, len);
	case BC_ATTACH_LSM:
		return bc_check_btf_prog(&lsm, target, sleepable, why, len);
	case BC_ATTACH_TP_BTF:
		return bc_check_btf_prog(&tp_btf, target, sleepable, why, len);
	case BC_ATTACH_KPROBE:
	case BC_ATTACH_KRETPROBE:
		if (!bc_have_kprobes()) {
			snprintf(why, len, "kprobes not supported by this kernel (no CONFIG_KPROBES: "
				 "no kprobe PMU and no kprobe_events in tracefs)");
			return -EOPNOTSUPP;
		}
		err = bc_feat_prog_type(BPF_PROG_TYPE_KPROBE);
		if (err) {
			snprintf(why, len, "this kernel does not load kprobe programs");
			return err;
		}
		return bc_check_func_in_btf(target, why, len);
	case BC_ATTACH_KPROBE_MULTI:
	case BC_ATTACH_KRETPROBE_MULTI:
		if (!bc_memo_find("kprobe.multi link", &err))
			err = bc_memo_keep("kprobe.multi link",
					   bc_probe_multi_link(BPF_TRACE_KPROBE_MULTI, EINVAL));
		if (err == -EOPNOTSUPP)
			snprintf(why, len, "kprobe.multi links not supported by this kernel (no "
				 "CONFIG_FPROBE)");
		else if (err)
			snprintf(why, len, "kprobe.multi links refused by this kernel: %s",
				 bc_strerror(err));
		return err ? err : bc_check_func_in_btf(target, why, len);
	case BC_ATTACH_UPROBE:
	case BC_ATTACH_URETPROBE:
		if (!bc_path_exists("/sys/bus/event_source/devices/uprobe/type")) {
			snprintf(why, len, "uprobes not supported by this kernel (no "
				 "CONFIG_UPROBE_EVENTS: no uprobe PMU)");
			return -EOPNOTSUPP;
		}
		err = bc_feat_prog_type(BPF_PROG_TYPE_KPROBE);
		if (err)
			snprintf(why, len, "this kernel does not load uprobe (kprobe) programs");
		return err;
	case BC_ATTACH_UPROBE_MULTI:
	case BC_ATTACH_URETPROBE_MULTI:
		if (!bc_memo_find("uprobe.multi link", &err))
			err = bc_memo_keep("uprobe.multi link",
					   bc_probe_multi_link(BC_TRACE_UPROBE_MULTI, EBADF));
		if (err)
			snprintf(why, len, "uprobe.multi links not supported by this kernel (Linux "
				 "6.6+ with CONFIG_UPROBES): %s",
				 bc_strerror(err));
		return err;
	case BC_ATTACH_TP:
		err = bc_tracefs_ensure(hint, sizeof(hint));
		if (err) {
			snprintf(why, len, "%s", hint);
			return err;
		}
		err = bc_feat_prog_type(BPF_PROG_TYPE_TRACEPOINT);
		if (err) {
			snprintf(why, len, "this kernel does not load tracepoint programs");
			return err;
		}
		if (!target[0])
			return 0;
		snprintf(path, sizeof(path), "%s/events/%s/id", bc_tracefs_dir(), target);
		if (access(path, R_OK) == 0)
			return 0;
		err = -errno;
		snprintf(why, len, "%s: %s", path, strerror(-err));
		return err;
	case BC_ATTACH_RAW_TP:
		err = bc_feat_prog_type(BPF_PROG_TYPE_RAW_TRACEPOINT);
		if (err) {
			snprintf(why, len, "this kernel does not load raw_tp programs");
			return err;
		}
		if (!target[0])
			return 0;
		snprintf(path, sizeof(path), "btf_trace_%s", target);
		err = bc_vmlinux_btf_id(path, BTF_KIND_TYPEDEF);
		if (err == -ENOENT) {
			snprintf(why, len, "no raw tracepoint %s in this kernel (%s is not in its BTF)",
				 target, path);
			return err;
		}
		return 0;	/* there, or no BTF to ask: probe() will tell */
	case BC_ATTACH_OTHER:
		return 0;
	}
	snprintf(why, len, "unknown attach kind %d", (int)pt->kind);
	return -EINVAL;
}

int bc_attach_check(struct bc_ctx *ctx, const struct bc_attach_point *pts, size_t cnt)
{
	char reasons[BC_REASON_LEN] = "", why[BC_WHY_LEN], one[BC_WHY_LEN + 160];
	const char *bench = bc_ctx_bench_name(ctx);
	struct bc_attach_point pt;
	size_t used;

	if (!pts || !cnt)
		return 0;
	if (bc_feat_privileged(why, sizeof(why)))
		return bc_unavailable(ctx, "%s", why);
	for (size_t i = 0; i < cnt; i++) {
		bc_point_get(pts, i, &pt);
		why[0] = '\0';
		if (!bc_point_check(&pt, why, sizeof(why))) {
			bc_debug("%s: %s passes the cheap checks", bench ? bench : "benchmark",
				 pt.name ? pt.name : "?");
			return 0;
		}
		snprintf(one, sizeof(one), "%s: %s", pt.name ? pt.name : "?", why);
		used = strlen(reasons);
		if (used + 1 < sizeof(reasons))
			snprintf(reasons + used, sizeof(reasons) - used, "%s%s", used ? "; " : "", one);
	}
	if (cnt == 1)
		return bc_unavailable(ctx, "%s", reasons);
	return bc_unavailable(ctx, "no attach point passes the kernel's checks: %s", reasons);
}

/* ------------------------------------------------------------ benchmarks */

bool bc_bench_has_quick(const struct bc_bench *b)
{
	return b->desc.need_cnt || b->desc.attach_point_cnt || b->desc.quick_probe;
}

int bc_bench_quick_probe(struct bc_ctx *ctx, const struct bc_bench *b)
{
	int err = 0;

	if (b->desc.need_cnt)
		err = bc_need_check(ctx, b->desc.needs, b->desc.need_cnt);
	if (!err && b->desc.attach_point_cnt)
		err = bc_attach_check(ctx, b->desc.attach_points, b->desc.attach_point_cnt);
	if (!err && b->desc.quick_probe)
		err = b->desc.quick_probe(ctx);
	return err;
}
