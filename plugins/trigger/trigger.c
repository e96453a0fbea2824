// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The trigger plugin: what it costs to run a BPF program through each
 * attach type. Kernel attach types are driven in batches from inside the
 * kernel (a driver program, run with BPF_PROG_TEST_RUN, calls the probed
 * function --trig-batch-iters times), so the syscall stays out of the
 * per-trigger cost; uprobes are driven by calling the probed function; the
 * cross-CPU benchmarks compare an IPI (BPF_F_TEST_RUN_ON_CPU) with
 * migrating the thread. Hits are counted in BPF, one slot per CPU.
 *
 * No attach point is ever substituted here: the attach type is what is
 * measured, so a kernel that refuses it makes the benchmark unavailable.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>
#include <benchcore/work.h>

#include "trig_ipc.h"
#include "trig_kfunc.h"
#include "trig_load.h"
#include "trigger_opts.h"
#include "trigger_spec.h"

/* Each batched iteration fires the program under test once. */
BC_WORK_STATIC_ASSERT(BC_TRIG_BATCH_MAX, 256, "trigger --trig-batch-iters");
#include "uprobe_multi.h"
#include "uprobe_targets.h"
#include "usdt_note.h"

/* The skeleton's slots are struct bc_line_counter (bpf/benchcore.bpf.h),
 * which <benchcore/benchcore.h> defines for user space: include it first. */
#include "trigger.skel.h"

#define BC_TRIG_MAX_CPUS 4096
/* Room for a reason the plugin words itself. */
#define TRIG_WHY_LEN 256

/* ------------------------------------------------------------- options */

/* One struct for the plugin (trigger_opts.h): the batched benchmarks
 * declare the batch size; the core parses, checks and documents it
 * (bc_ctx_opts()). */

/*
 * The runner's programs count every hit, whoever fired it; so do these,
 * unless --trig-own-process: the filter (a helper call and a compare per
 * hit) cost the batched rows 7-15%. Off, the verifier drops it (bc_tgid is
 * read-only data it knows to be 0). The getpgid()-driven rows keep it on
 * always: every process's getpgid() would fire them.
 */
static const struct bc_option trig_plugin_options[] = {
	BC_OPT_FLAG(struct trig_opts, own_process, "trig-own-process",
		    .help = "count only hits of benchcore's own process (the runner counts all; "
			    "costs a helper call per hit)"),
};

#define TRIG_OPT_BATCH                                                              \
	BC_OPT_INT(struct trig_opts, batch_iters, "trig-batch-iters",               \
		   .def = BC_TRIG_STR(BC_TRIG_BATCH_DEFAULT), .min = 1,             \
		   .max = BC_TRIG_BATCH_MAX, .arg = "N",                            \
		   .help = "triggers per driver run (BPF_PROG_TEST_RUN)")
#define BC_TRIG_STR_(x) #x
#define BC_TRIG_STR(x) BC_TRIG_STR_(x)

static const struct bc_option trig_batch_options[] = {
	TRIG_OPT_BATCH,
};

/* tp, raw_tp and fmod_ret: batched through a kfunc that only 6.10+ kernels
 * have, or driven by getpgid() as the 6.1-era runner did. */
static const struct bc_option trig_kfunc_options[] = {
	TRIG_OPT_BATCH,
	BC_OPT_ENUM(struct trig_opts, driver, "trig-driver", .def = "auto",
		    .words = trig_drive_words,
		    .help = "what fires the program: batched (a BPF_PROG_TEST_RUN loop calling "
			    "kfunc " BC_TRIG_KFUNC "), syscall (one getpgid() per trigger, as "
			    "the 6.1-era runner), or auto (batched where the kernel has the "
			    "kfunc)"),
};

/* ------------------------------------------------------------ run state */

struct trig_state {
	const struct trig_spec *spec;	/* &eff */
	struct trig_spec eff;		/* the benchmark's spec, as driven here */
	struct trigger *skel;
	struct trig_kfunc *kfunc_obj;	/* the kfunc driver's own object */
	struct bpf_link *link;
	struct bpf_link *link_all;	/* kprobe-multi-all's empty program */
	int link_fd;			/* a link libbpf does not know (uprobe.multi) */
	int driver_fd;
	unsigned int batch;		/* hits per driver run */
	struct bc_line_counter *runs;	/* per producer: driver runs, calls, syscalls */
	unsigned int prod_cnt;
	unsigned int *cpus;		/* online CPUs, for the cross-CPU benchmarks */
	unsigned int cpu_cnt;
	char attach_point[PATH_MAX + 128];
	bool filter;			/* own-process filter in the program */
	bool filter_asked;		/* ... because --trig-own-process said so */
};

static void trig_state_free(struct trig_state *st)
{
	if (!st)
		return;
	bpf_link__destroy(st->link);
	bpf_link__destroy(st->link_all);
	if (st->link_fd >= 0)
		close(st->link_fd);
	trigger__destroy(st->skel);
	trig_kfunc_free(st->kfunc_obj);
	free(st->runs);
	free(st->cpus);
	free(st);
}

static const struct trig_spec *trig_spec_of(struct bc_ctx *ctx)
{
	return bc_ctx_bench_priv(ctx);
}

/*
 * Whether this kernel has the kfunc the batched tp/raw_tp/fmod_ret driver
 * calls: 1 when vmlinux BTF lists it, 0 when it does not, a negative errno
 * when there is no BTF to ask (trig_kfunc_lookup(), as trig_prepare()
 * asks again before loading the driver).
 */
static int trig_kernel_has_kfunc(void)
{
	char why[TRIG_WHY_LEN];
	int err = trig_kfunc_lookup(BC_TRIG_KFUNC, why, sizeof(why));

	return !err ? 1 : err == -ENOENT ? 0 : err;
}

/* Whether the spec's driver is a program of trigger.bpf.c: all are but
 * the kfunc driver, which has its own object (trig_kfunc.bpf.c). */
static bool trig_driver_in_main_object(const struct trig_spec *spec)
{
	return spec->driver_prog && spec->driver != BC_TRIG_DRV_KFUNC;
}

/* The spec as it runs here: the driver the option and the kernel choose. */
static int trig_resolve(struct bc_ctx *ctx, const struct trig_spec *spec,
			struct trig_spec *out)
{
	const struct trig_opts *o = bc_ctx_opts(ctx);
	enum trig_drive want = o ? (enum trig_drive)o->driver : BC_TRIG_DRIVE_AUTO;
	int kfunc = spec->syscall_alt ? trig_kernel_has_kfunc() : 1;

	if (trig_choose(spec, want, kfunc, out))
		return bc_unavailable(ctx, "%s with --trig-driver batched: the batched driver calls "
				      "kfunc " BC_TRIG_KFUNC "(), which this kernel lacks (not in "
				      "its BTF); --trig-driver syscall or auto drives it with "
				      "getpgid()", trig_kind_name(spec->kind));
	if (spec->syscall_alt)
		bc_ctx_log(ctx, BC_LOG_DEBUG, "kfunc %s %s; driving it with the %s driver",
			   BC_TRIG_KFUNC, kfunc > 0 ? "present" : kfunc == 0 ? "absent" : "unknown",
			   out->driver == BC_TRIG_DRV_SYSCALL ? "syscall" : "batched");
	return 0;
}

/* The run's batch size: what the option says for a batched benchmark. */
static unsigned int trig_batch(struct bc_ctx *ctx, const struct trig_spec *spec)
{
	const struct trig_opts *o = bc_ctx_opts(ctx);

	if (!spec->batched || !o || o->batch_iters < 1)
		return 1;
	return (unsigned int)o->batch_iters;
}

/* Reads a whole /proc or /sys file; NULL with errno set on failure. */
static char *trig_read_file(const char *path)
{
	size_t cap = 4096, len = 0;
	char *buf = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap || !buf) {
			char *nbuf = realloc(buf, cap *= 2);

			if (!nbuf)
				goto fail;
			buf = nbuf;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	close(fd);
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

/* Can this process read the file? errno says why not. */
static bool trig_readable(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	bool ok;
	char c;

	if (fd < 0)
		return false;
	ok = read(fd, &c, 1) >= 0;
	err = errno;
	close(fd);
	errno = err;
	return ok;
}

static int trig_online_cpus(struct trig_state *st)
{
	char *text = trig_read_file("/sys/devices/system/cpu/online");
	int n = -EINVAL;

	st->cpus = calloc(BC_TRIG_MAX_CPUS, sizeof(*st->cpus));
	if (!st->cpus) {
		free(text);
		return -ENOMEM;
	}
	if (text)
		n = trig_parse_cpulist(text, st->cpus, BC_TRIG_MAX_CPUS);
	free(text);
	if (n <= 0) {
		/* No sysfs: assume CPUs 0..n-1, as sysconf counts them. */
		long cnt = sysconf(_SC_NPROCESSORS_ONLN);

		n = cnt > 0 && cnt <= BC_TRIG_MAX_CPUS ? (int)cnt : 1;
		for (int i = 0; i < n; i++)
			st->cpus[i] = (unsigned int)i;
	}
	st->cpu_cnt = (unsigned int)n;
	return 0;
}

/* ------------------------------------------------- loading and attaching */

static bool trig_path_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* The driver (or the program run directly) could not load: nothing about
 * the attach type yet, it is the kernel or our privileges. */
static int trig_driver_failed(struct bc_ctx *ctx, const struct trig_spec *spec, int err)
{
	if (err == -EPERM && geteuid() != 0)
		return bc_unavailable(ctx, "needs root (CAP_BPF and CAP_PERFMON) to load BPF "
				      "programs: %s", bc_strerror(err));
	/* Reached only after vmlinux BTF listed the kfunc (trig_prepare()):
	 * the kernel has it and said no to the program calling it. */
	if (spec->driver == BC_TRIG_DRV_KFUNC && bc_attach_is_refusal(err))
		return bc_unavailable(ctx, "raw_tp driver %s, calling kfunc " BC_TRIG_KFUNC "(), "
				      "which this kernel's vmlinux BTF lists, refused by the "
				      "kernel: %s", spec->driver_prog, bc_strerror(err));
	if (bc_attach_is_refusal(err))
		return bc_unavailable(ctx, "raw_tp program %s refused by the kernel: %s",
				      spec->driver_prog, bc_strerror(err));
	return bc_error(ctx, err, "loading BPF program %s failed: %s", spec->driver_prog,
			bc_strerror(err));
}

static int trig_prog_failed(struct bc_ctx *ctx, const struct trig_spec *spec, int err)
{
	const char *kind = trig_kind_name(spec->kind);

	switch (spec->kind) {
	case BC_ATTACH_FENTRY:
	case BC_ATTACH_FEXIT:
	case BC_ATTACH_FMOD_RET:
		/* The driver loaded, so we are privileged: EPERM here is the
		 * kernel refusing to build a trampoline. */
		if (err == -EPERM || err == -BC_ENOTSUPP || err == -EOPNOTSUPP)
			return bc_unavailable(ctx, "%s programs refused by the kernel: %s "
					      "(BPF trampolines unavailable)", kind,
					      bc_strerror(err));
		break;
	default:
		break;
	}
	if (bc_attach_is_refusal(err))
		return bc_unavailable(ctx, "%s programs refused by the kernel: %s", kind,
				      bc_strerror(err));
	return bc_error(ctx, err, "loading %s program %s failed: %s", kind, spec->prog,
			bc_strerror(err));
}

static int trig_attach_failed(struct bc_ctx *ctx, const struct trig_spec *spec, int err)
{
	const char *kind = trig_kind_name(spec->kind);

	switch (spec->kind) {
	case BC_ATTACH_KPROBE:
	case BC_ATTACH_KRETPROBE:
		/* libbpf tries the kprobe PMU, then tracefs kprobe_events:
		 * with neither, the kernel has no kprobes at all. */
		if (!trig_path_exists("/sys/bus/event_source/devices/kprobe") &&
		    !trig_path_exists("/sys/kernel/tracing/kprobe_events") &&
		    !trig_path_exists("/sys/kernel/debug/tracing/kprobe_events"))
			return bc_unavailable(ctx, "kprobes not supported by this kernel (no "
					      "CONFIG_KPROBES): attaching %s failed: %s",
					      spec->attach_point, bc_strerror(err));
		break;
	case BC_ATTACH_KPROBE_MULTI:
	case BC_ATTACH_KRETPROBE_MULTI:
		/* What the kernel answers when built without fprobe. */
		if (err == -EOPNOTSUPP)
			return bc_unavailable(ctx, "%s links not supported by this kernel (no "
					      "CONFIG_FPROBE): attaching %s failed: %s", kind,
					      spec->attach_point, bc_strerror(err));
		break;
	case BC_ATTACH_UPROBE_MULTI:
	case BC_ATTACH_URETPROBE_MULTI:
		/* Before 6.6 the kernel does not know the link's attach type;
		 * without CONFIG_UPROBES it answers EOPNOTSUPP. */
		if (err == -EINVAL || err == -EOPNOTSUPP)
			return bc_unavailable(ctx, "%s links not supported by this kernel (Linux "
					      "6.6+ with CONFIG_UPROBES): attaching %s failed: %s",
					      kind, spec->attach_point, bc_strerror(err));
		break;
	case BC_ATTACH_UPROBE:
	case BC_ATTACH_URETPROBE:
		if (!trig_path_exists("/sys/bus/event_source/devices/uprobe"))
			return bc_unavailable(ctx, "uprobes not supported by this kernel (no "
					      "CONFIG_UPROBE_EVENTS): attaching %s failed: %s",
					      spec->attach_point, bc_strerror(err));
		break;
	default:
		break;
	}
	if (bc_attach_is_refusal(err))
		return bc_unavailable(ctx, "%s attach refused by the kernel: attaching %s "
				      "failed: %s", kind, spec->attach_point, bc_strerror(err));
	return bc_error(ctx, err, "attaching %s failed: %s", spec->attach_point,
			bc_strerror(err));
}

static bool trig_is_multi_uprobe(const struct trig_spec *spec)
{
	return spec->kind == BC_ATTACH_UPROBE_MULTI || spec->kind == BC_ATTACH_URETPROBE_MULTI;
}

static bool trig_is_retprobe(const struct trig_spec *spec)
{
	return spec->kind == BC_ATTACH_URETPROBE || spec->kind == BC_ATTACH_URETPROBE_MULTI;
}

/* Opens the skeleton and loads only what the benchmark needs of it: the
 * driver (if it is one of trigger.bpf.c's) and, with with_prog, the
 * program under test; with stats, asking for their verifier statistics
 * (trig_load.h). */
static int trig_open_load_at(struct trig_state *st, bool with_prog, bool stats)
{
	const struct trig_spec *spec = st->spec;
	struct bpf_program *p;
	int err;

	st->skel = trigger__open();
	if (!st->skel)
		return errno ? -errno : -ENOMEM;
	st->skel->rodata->batch_iters = spec->batched ? st->batch : 1;
	st->skel->rodata->bc_tgid = st->filter ? (__u32)getpid() : 0;
	st->skel->rodata->getpgid_nr = SYS_getpgid;
	if (with_prog && spec->prog) {
		p = bpf_object__find_program_by_name(st->skel->obj, spec->prog);
		if (!p) {
			err = -ENOENT;
			goto fail;
		}
		bpf_program__set_autoload(p, true);
		if (spec->attach_target) {
			err = bpf_program__set_attach_target(p, 0, spec->attach_target);
			if (err)
				goto fail;
		}
		/* The kernel checks at link time that the program was
		 * loaded for uprobe.multi. */
		if (trig_is_multi_uprobe(spec))
			bpf_program__set_expected_attach_type(
				p, (enum bpf_attach_type)BC_TRIG_ATTACH_UPROBE_MULTI);
	}
	if (with_prog && spec->attach_all_prog) {
		p = bpf_object__find_program_by_name(st->skel->obj, spec->attach_all_prog);
		if (!p) {
			err = -ENOENT;
			goto fail;
		}
		bpf_program__set_autoload(p, true);
	}
	if (trig_driver_in_main_object(spec)) {
		p = bpf_object__find_program_by_name(st->skel->obj, spec->driver_prog);
		if (!p) {
			err = -ENOENT;
			goto fail;
		}
		bpf_program__set_autoload(p, true);
	}
	if (stats)
		trig_ask_verifier_stats(st->skel->obj);
	err = trigger__load(st->skel);
	if (err)
		goto fail;
	return 0;
fail:
	trigger__destroy(st->skel);
	st->skel = NULL;
	return err;
}

struct trig_open_load_request {
	struct trig_state *st;
	bool with_prog;
};

static int trig_open_load_req(void *arg, bool stats)
{
	struct trig_open_load_request *req = arg;

	return trig_open_load_at(req->st, req->with_prog, stats);
}

/* With the statistics log first, then without (trig_load.h). */
static int trig_open_load(struct trig_state *st, bool with_prog)
{
	struct trig_open_load_request req = { .st = st, .with_prog = with_prog };

	return trig_load_stats_first(trig_open_load_req, &req);
}

/*
 * The kfunc driver, from its own object: first whether vmlinux BTF lists
 * the kfunc, so that a kernel without it is told apart from one refusing
 * the program (libbpf cannot tell them apart without CAP_SYS_ADMIN, see
 * trig_kfunc.bpf.c); a kernel without it makes the batched driver
 * unavailable, naming the kfunc. The object is st's to free.
 */
static int trig_load_kfunc_driver(struct bc_ctx *ctx, struct trig_state *st)
{
	char why[TRIG_WHY_LEN];
	int err;

	err = trig_kfunc_lookup(BC_TRIG_KFUNC, why, sizeof(why));
	if (err)
		return bc_unavailable(ctx, "%s with the batched driver: %s",
				      trig_kind_name(st->spec->kind), why);
	err = trig_kfunc_load(st->batch, &st->kfunc_obj);
	if (err)
		return trig_driver_failed(ctx, st->spec, err);
	st->driver_fd = trig_kfunc_driver_fd(st->kfunc_obj);
	return 0;
}

static void (*const trig_targets[])(void) = {
	[BC_TRIG_TARGET_NOP] = trig_target_nop,
	[BC_TRIG_TARGET_PUSH] = trig_target_push,
	[BC_TRIG_TARGET_RET] = trig_target_ret,
	[BC_TRIG_TARGET_NOP5] = trig_target_nop5,
	[BC_TRIG_TARGET_USDT_NOP] = trig_usdt_nop,
	[BC_TRIG_TARGET_USDT_NOP5] = trig_usdt_nop5,
};

static const char *const trig_target_names[] = {
	[BC_TRIG_TARGET_NOP] = "trig_target_nop",
	[BC_TRIG_TARGET_PUSH] = "trig_target_push",
	[BC_TRIG_TARGET_RET] = "trig_target_ret",
	[BC_TRIG_TARGET_NOP5] = "trig_target_nop5",
	[BC_TRIG_TARGET_USDT_NOP] = BC_TRIG_USDT_PROVIDER ":" BC_TRIG_USDT_NAME_NOP,
	[BC_TRIG_TARGET_USDT_NOP5] = BC_TRIG_USDT_PROVIDER ":" BC_TRIG_USDT_NAME_NOP5,
};

static bool trig_is_usdt(const struct trig_spec *spec)
{
	return spec->target == BC_TRIG_TARGET_USDT_NOP || spec->target == BC_TRIG_TARGET_USDT_NOP5;
}

/* Reads a whole regular file (an ELF object); NULL with errno set. */
static void *trig_read_binary(const char *path, size_t *len)
{
	struct stat sb;
	void *buf = NULL;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) || sb.st_size <= 0)
		goto fail;
	buf = malloc((size_t)sb.st_size);
	if (!buf)
		goto fail;
	while (got < (size_t)sb.st_size) {
		ssize_t n = read(fd, (char *)buf + got, (size_t)sb.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			goto fail;
		}
		got += (size_t)n;
	}
	close(fd);
	*len = got;
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

/*
 * A USDT probe of our own: its note in the mapped file gives the site and
 * the semaphore; the uprobe sits on the site with the semaphore as its
 * reference counter, so the kernel raises it while attached, which is all
 * USDT attachment is beyond a uprobe (the probe has no arguments).
 */
static int trig_attach_usdt(struct bc_ctx *ctx, struct trig_state *st, struct bpf_program *prog,
			    const char *path)
{
	const char *name = st->spec->target == BC_TRIG_TARGET_USDT_NOP ? BC_TRIG_USDT_NAME_NOP :
									 BC_TRIG_USDT_NAME_NOP5;
	const unsigned short *sema = st->spec->target == BC_TRIG_TARGET_USDT_NOP ?
				     &trig_usdt_sema_nop : &trig_usdt_sema_nop5;
	LIBBPF_OPTS(bpf_uprobe_opts, opts);
	struct usdt_probe probe;
	size_t len = 0;
	void *elf;
	int err;

	elf = trig_read_binary(path, &len);
	if (!elf)
		return bc_error(ctx, -errno, "reading %s: %s", path, strerror(errno));
	err = usdt_find(elf, len, BC_TRIG_USDT_PROVIDER, name, &probe);
	free(elf);
	if (err)
		return bc_error(ctx, err, "USDT probe %s:%s: %s in the notes of %s",
				BC_TRIG_USDT_PROVIDER, name,
				err == -ENOENT ? "not found" : "malformed", path);
	opts.ref_ctr_offset = probe.sema_off;
	st->link = bpf_program__attach_uprobe_opts(prog, -1, path, probe.site_off, &opts);
	if (!st->link)
		return trig_attach_failed(ctx, st->spec, errno ? -errno : -EINVAL);
	/* The kernel counts the attachment in every process that maps the
	 * file, ours included: if not, this is not a USDT attach. */
	if (__atomic_load_n(sema, __ATOMIC_RELAXED) == 0)
		return bc_error(ctx, -EPROTO, "USDT %s:%s attached, but its semaphore stayed 0",
				BC_TRIG_USDT_PROVIDER, name);
	snprintf(st->attach_point, sizeof(st->attach_point),
		 "usdt:%s+0x%lx (%s:%s, semaphore at +0x%lx)", path, probe.site_off,
		 BC_TRIG_USDT_PROVIDER, name, probe.sema_off);
	return 0;
}

/* Probes one of our own functions: the file and offset come from where
 * the dynamic loader mapped this plugin. */
static int trig_attach_uprobe(struct bc_ctx *ctx, struct trig_state *st, struct bpf_program *prog)
{
	const struct trig_spec *spec = st->spec;
	const char *fn = trig_target_names[spec->target];
	bool ret = trig_is_retprobe(spec);
	char path[PATH_MAX];
	unsigned long off;
	char *maps;
	int err;

	maps = trig_read_file("/proc/self/maps");
	if (!maps)
		return bc_error(ctx, -errno, "reading /proc/self/maps: %s", strerror(errno));
	err = trig_file_offset(maps, (unsigned long)trig_targets[spec->target], path,
				  sizeof(path), &off);
	free(maps);
	if (err)
		return bc_error(ctx, err, "uprobe target %s is not in a file-backed mapping", fn);
	if (trig_is_usdt(spec))
		return trig_attach_usdt(ctx, st, prog, path);

	if (trig_is_multi_uprobe(spec)) {
		unsigned long offs[1] = { off };

		/* Every process (pid 0), as below. */
		st->link_fd = trig_uprobe_multi_link(bpf_program__fd(prog), path, offs, NULL, 1,
							ret);
		if (st->link_fd < 0)
			return trig_attach_failed(ctx, spec, st->link_fd);
	} else {
		/* All processes (-1): a per-pid uprobe would follow only the
		 * main thread; the BPF side filters by our tgid instead. */
		st->link = bpf_program__attach_uprobe(prog, ret, -1, path, (size_t)off);
		if (!st->link)
			return trig_attach_failed(ctx, spec, errno ? -errno : -EINVAL);
	}
	snprintf(st->attach_point, sizeof(st->attach_point), "%s:%s+0x%lx (%s)",
		 trig_kind_name(spec->kind), path, off, fn);
	return 0;
}

/* A one-off run, so that a kernel without BPF_F_TEST_RUN_ON_CPU (before
 * 5.10) is found out by probe() and not halfway through a run. */
static int trig_check_on_cpu(struct bc_ctx *ctx, struct trig_state *st)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .flags = BPF_F_TEST_RUN_ON_CPU,
		    .cpu = st->cpus[st->cpu_cnt - 1]);
	int err = bpf_prog_test_run_opts(st->driver_fd, &opts);

	if (!err)
		return 0;
	if (bc_attach_is_refusal(err))
		return bc_unavailable(ctx, "BPF_PROG_TEST_RUN with BPF_F_TEST_RUN_ON_CPU (CPU %u) "
				      "refused by the kernel: %s", opts.cpu, bc_strerror(err));
	return bc_error(ctx, err, "BPF_PROG_TEST_RUN on CPU %u failed: %s", opts.cpu,
			bc_strerror(err));
}

/* kprobe-multi-all: the empty program on every other traceable function. */
static int trig_attach_all(struct bc_ctx *ctx, struct trig_state *st)
{
	const struct trig_spec *spec = st->spec;
	static const char *const lists[] = {
		"/sys/kernel/tracing/available_filter_functions",
		"/sys/kernel/debug/tracing/available_filter_functions",
	};
	LIBBPF_OPTS(bpf_kprobe_multi_opts, opts);
	struct trig_syms syms;
	struct bpf_program *p;
	char *text = NULL;
	int err;

	for (size_t i = 0; !text && i < BC_ARRAY_SIZE(lists); i++)
		text = trig_read_file(lists[i]);
	if (!text)
		return bc_unavailable(ctx, "%s: cannot read available_filter_functions from "
				      "tracefs: %s", trig_kind_name(spec->kind), strerror(errno));
	err = trig_syms_all(text, &syms);
	free(text);
	if (err)
		return bc_error(ctx, err, "out of memory");
	p = bpf_object__find_program_by_name(st->skel->obj, spec->attach_all_prog);
	opts.syms = syms.names;
	opts.cnt = syms.cnt;
	opts.retprobe = spec->kind == BC_ATTACH_KRETPROBE_MULTI;
	bc_ctx_log(ctx, BC_LOG_INFO, "attaching %s to %zu kernel functions", spec->attach_all_prog,
		   syms.cnt);
	st->link_all = syms.cnt ? bpf_program__attach_kprobe_multi_opts(p, NULL, &opts) : NULL;
	err = st->link_all ? 0 : (errno ? -errno : -ENOENT);
	trig_syms_free(&syms);
	if (err)
		return trig_attach_failed(ctx, spec, err);
	return 0;
}

/* Tells the core which programs run, so that it can read their kernel
 * statistics: the program under test, and the driver that fires it (a
 * driver that counts itself, as in the baselines, is what is under test). */
static int trig_declare_progs(struct bc_ctx *ctx, struct trig_state *st)
{
	const struct trig_spec *spec = st->spec;
	struct bpf_program *p;
	int err;

	if (spec->prog) {
		p = bpf_object__find_program_by_name(st->skel->obj, spec->prog);
		err = bc_ctx_add_prog(ctx, bpf_program__fd(p), "under test");
		if (err)
			return bc_error(ctx, err, "declaring program %s: %s", spec->prog,
					bc_strerror(err));
	}
	if (spec->attach_all_prog) {
		p = bpf_object__find_program_by_name(st->skel->obj, spec->attach_all_prog);
		err = bc_ctx_add_prog(ctx, bpf_program__fd(p), "on every other function");
		if (err)
			return bc_error(ctx, err, "declaring program %s: %s", spec->attach_all_prog,
					bc_strerror(err));
	}
	if (spec->driver_prog) {
		err = bc_ctx_add_prog(ctx, st->driver_fd, spec->prog ? "driver" : "under test");
		if (err)
			return bc_error(ctx, err, "declaring program %s: %s", spec->driver_prog,
					bc_strerror(err));
	}
	return 0;
}

/* Everything a BPF benchmark needs, loaded and attached; on failure the
 * reason is recorded in ctx and nothing stays loaded past st's free. */
static int trig_prepare(struct bc_ctx *ctx, struct trig_state *st, bool probing)
{
	const struct trig_spec *spec = st->spec;
	struct bpf_program *prog;
	int err;

	if (trig_target_x86_only(spec->target) && !BC_TRIG_HAVE_X86_SITES)
		return bc_unavailable(ctx, "%s: the probed site (%s) exists on x86-64 only, as in "
				      "the kernel runner", trig_kind_name(spec->kind),
				      trig_target_names[spec->target]);
	if (spec->needs_tracefs || spec->attach_all_prog) {
		char hint[256] = "";

		err = bc_tracefs_ensure(hint, sizeof(hint));
		if (err)
			return bc_unavailable(ctx, "%s needs tracefs at /sys/kernel/tracing: %s",
					      spec->attach_point, hint[0] ? hint : bc_strerror(err));
	}
	if (spec->driver == BC_TRIG_DRV_TESTRUN_ON_CPU || spec->driver == BC_TRIG_DRV_SYSCALL_ON_CPU) {
		err = trig_online_cpus(st);
		if (err)
			return bc_error(ctx, err, "listing the online CPUs: %s", bc_strerror(err));
	}

	if (spec->driver == BC_TRIG_DRV_KFUNC) {
		err = trig_load_kfunc_driver(ctx, st);
		if (err)
			return err;
	}
	err = trig_open_load(st, true);
	if (err) {
		/* The kfunc driver, loaded first from its own object, goes
		 * too: a failed load leaves nothing loaded. */
		if (st->kfunc_obj) {
			trig_kfunc_free(st->kfunc_obj);
			st->kfunc_obj = NULL;
			st->driver_fd = -1;
		}
		/* One object holds both: find out which program the kernel
		 * refused by loading the driver on its own. */
		if (spec->prog && trig_driver_in_main_object(spec)) {
			int derr = trig_open_load(st, false);

			trigger__destroy(st->skel);
			st->skel = NULL;
			if (derr)
				return trig_driver_failed(ctx, spec, derr);
			return trig_prog_failed(ctx, spec, err);
		}
		if (spec->prog)
			return trig_prog_failed(ctx, spec, err);
		return trig_driver_failed(ctx, spec, err);
	}

	if (trig_driver_in_main_object(spec))
		st->driver_fd = bpf_program__fd(
			bpf_object__find_program_by_name(st->skel->obj, spec->driver_prog));
	if (spec->prog) {
		prog = bpf_object__find_program_by_name(st->skel->obj, spec->prog);
		if (spec->target != BC_TRIG_TARGET_NONE) {
			err = trig_attach_uprobe(ctx, st, prog);
			if (err)
				return err;
		} else {
			st->link = bpf_program__attach(prog);
			if (!st->link)
				return trig_attach_failed(ctx, spec, errno ? -errno : -EINVAL);
		}
	}
	/* Probing stops at the program under test: that answers whether the
	 * kernel has the attach type, without putting an fprobe on every
	 * kernel function for each `list`. */
	if (spec->attach_all_prog && !probing) {
		err = trig_attach_all(ctx, st);
		if (err)
			return err;
	}
	if (probing)
		return spec->driver == BC_TRIG_DRV_TESTRUN_ON_CPU ? trig_check_on_cpu(ctx, st) : 0;
	return trig_declare_progs(ctx, st);
}

static struct trig_state *trig_state_new(struct bc_ctx *ctx, const struct trig_spec *spec,
					 unsigned int prod_cnt)
{
	struct trig_state *st = calloc(1, sizeof(*st));
	const struct trig_opts *o;

	if (!st)
		return NULL;
	st->eff = *spec;
	st->spec = &st->eff;
	st->driver_fd = -1;
	st->link_fd = -1;
	st->prod_cnt = prod_cnt;
	st->batch = trig_batch(ctx, spec);
	o = bc_ctx_opts(ctx);
	st->filter_asked = o && o->own_process;
	st->filter = st->filter_asked || spec->driver == BC_TRIG_DRV_SYSCALL ||
		     spec->driver == BC_TRIG_DRV_SYSCALL_ON_CPU;
	if (prod_cnt) {
		st->runs = bc_line_counters_alloc(prod_cnt);
		if (!st->runs) {
			free(st);
			return NULL;
		}
	}
	return st;
}

/* ------------------------------------------------------------ callbacks */

static int trig_no_spec(struct bc_ctx *ctx)
{
	return bc_error(ctx, -ENOENT, "benchmark %s carries no trigger spec (.priv)",
			bc_ctx_bench_name(ctx));
}

static int trig_probe(struct bc_ctx *ctx)
{
	const struct trig_spec *spec = trig_spec_of(ctx);
	libbpf_print_fn_t old_print = NULL;
	bool quiet = !bc_ctx_verbose(ctx);
	struct trig_spec eff;
	struct trig_state *st;
	int err;

	if (!spec)
		return trig_no_spec(ctx);
	if (!spec->needs_bpf)
		return 0;
	err = trig_resolve(ctx, spec, &eff);
	if (err)
		return err;
	st = trig_state_new(ctx, &eff, 0);
	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	/* A refusal is reported once, as the reason; libbpf's own lines
	 * about it would only repeat it (-v shows them). */
	if (quiet)
		old_print = libbpf_set_print(NULL);
	err = trig_prepare(ctx, st, true);
	if (quiet)
		libbpf_set_print(old_print);
	trig_state_free(st);
	return err;
}

/* BPF_F_TEST_RUN_ON_CPU (Linux 5.10), asked with a two-instruction raw_tp
 * program run once on the last online CPU. */
static int trig_quick_on_cpu(struct bc_ctx *ctx)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct trig_state st = { .driver_fd = -1 };
	int err;

	err = trig_online_cpus(&st);
	if (err) {
		free(st.cpus);
		return bc_error(ctx, err, "out of memory");
	}
	st.driver_fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "trig_on_cpu", "GPL", insns, 2,
				     NULL);
	if (st.driver_fd < 0)
		err = trig_driver_failed(ctx, st.spec = trig_spec_of(ctx), -errno);
	else
		err = trig_check_on_cpu(ctx, &st);
	if (st.driver_fd >= 0)
		close(st.driver_fd);
	free(st.cpus);
	return err;
}

/*
 * `list`: the same choice of driver as probe() (the kfunc from the core's
 * BTF lookup), then the cheap checks of what that driver and the attach
 * point need, loading nothing of the skeleton's.
 */
static int trig_quick_probe(struct bc_ctx *ctx)
{
	static const struct bc_need raw_tp = BC_NEED(BC_NEED_PROG_TYPE,
						     .type = BPF_PROG_TYPE_RAW_TRACEPOINT);
	const struct trig_spec *spec = trig_spec_of(ctx);
	struct bc_attach_point pt;
	struct trig_spec eff;
	int err;

	if (!spec)
		return trig_no_spec(ctx);
	if (!spec->needs_bpf)
		return 0;
	err = trig_resolve(ctx, spec, &eff);
	if (!err && eff.driver_prog)
		err = bc_need_check(ctx, &raw_tp, 1);
	if (!err && eff.kind) {
		/* The uprobe benchmarks' point is only a word ("uprobe"): the
		 * kind's name says more in a reason. */
		pt = (struct bc_attach_point){ .sz = sizeof(pt),
					       .name = strchr(eff.attach_point, '/') ?
							       eff.attach_point :
							       trig_kind_name(eff.kind),
					       .kind = eff.kind, .prog_name = eff.prog };
		err = bc_attach_check(ctx, &pt, 1);
	}
	if (err)
		return err;
	/* -all reads the list of traceable functions: its first byte will do. */
	if (eff.attach_all_prog &&
	    !trig_readable("/sys/kernel/tracing/available_filter_functions") &&
	    !trig_readable("/sys/kernel/debug/tracing/available_filter_functions"))
		return bc_unavailable(ctx, "%s: cannot read available_filter_functions from "
				      "tracefs: %s", trig_kind_name(eff.kind), strerror(errno));
	if (eff.driver == BC_TRIG_DRV_TESTRUN_ON_CPU)
		return trig_quick_on_cpu(ctx);
	return 0;
}

static int trig_validate(struct bc_ctx *ctx)
{
	if (!trig_spec_of(ctx))
		return trig_no_spec(ctx);
	if (bc_ctx_consumer_cnt(ctx) != 0)
		return bc_usage_error(ctx, "-c/--consumers %u: trigger benchmarks have no "
				      "consumers, expected 0", bc_ctx_consumer_cnt(ctx));
	return 0;
}

static int trig_setup(struct bc_ctx *ctx)
{
	const struct trig_spec *spec = trig_spec_of(ctx);
	struct trig_spec eff;
	struct trig_state *st;
	int err;

	if (!spec)
		return trig_no_spec(ctx);
	err = trig_resolve(ctx, spec, &eff);
	if (err)
		return err;
	st = trig_state_new(ctx, &eff, bc_ctx_producer_cnt(ctx));
	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	/* Set first: teardown() frees whatever a failed setup left. */
	bc_ctx_set_data(ctx, st);
	if (spec->needs_bpf) {
		err = trig_prepare(ctx, st, false);
		if (err)
			return err;
	}
	if (st->filter_asked && spec->needs_bpf) {
		/* The report says the filter is on. */
		char ap[sizeof(st->attach_point)];

		snprintf(ap, sizeof(ap), "%s", st->attach_point[0] ? st->attach_point : st->spec->attach_point);
		snprintf(st->attach_point, sizeof(st->attach_point), "%.*s (own-process filter on)",
			 (int)(sizeof(st->attach_point) - 32), ap);
	}
	bc_ctx_set_attach_point(ctx, st->attach_point[0] ? st->attach_point : st->spec->attach_point);
	return 0;
}

static void trig_teardown(struct bc_ctx *ctx)
{
	trig_state_free(bc_ctx_data(ctx));
	bc_ctx_set_data(ctx, NULL);
}

static int trig_test_run_loop(struct bc_ctx *ctx, struct trig_state *st, struct bc_thread *t,
			      struct bc_line_counter *runs)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	bool on_cpu = st->spec->driver == BC_TRIG_DRV_TESTRUN_ON_CPU;
	unsigned int k = st->cpu_cnt ? t->idx % st->cpu_cnt : 0;
	int err;

	if (on_cpu)
		opts.flags = BPF_F_TEST_RUN_ON_CPU;
	while (!bc_thread_should_stop(t)) {
		if (on_cpu) {
			k = k + 1 == st->cpu_cnt ? 0 : k + 1;
			opts.cpu = st->cpus[k];
		}
		err = bpf_prog_test_run_opts(st->driver_fd, &opts);
		if (err)
			return bc_error(ctx, err, "BPF_PROG_TEST_RUN of %s failed: %s",
					st->spec->driver_prog, bc_strerror(err));
		bc_counter_add(runs, 1);
	}
	return 0;
}

static int trig_syscall_on_cpu_loop(struct bc_ctx *ctx, struct trig_state *st,
				    struct bc_thread *t, struct bc_line_counter *runs)
{
	size_t setsz = CPU_ALLOC_SIZE(BC_TRIG_MAX_CPUS);
	cpu_set_t *orig = CPU_ALLOC(BC_TRIG_MAX_CPUS);
	cpu_set_t *set = CPU_ALLOC(BC_TRIG_MAX_CPUS);
	unsigned int k = t->idx % st->cpu_cnt;
	bool restore = false;
	int err = 0;

	if (!orig || !set) {
		err = bc_error(ctx, -ENOMEM, "out of memory");
		goto out;
	}
	restore = sched_getaffinity(0, setsz, orig) == 0;
	while (!bc_thread_should_stop(t)) {
		k = k + 1 == st->cpu_cnt ? 0 : k + 1;
		CPU_ZERO_S(setsz, set);
		CPU_SET_S(st->cpus[k], setsz, set);
		/* The migration is the point: the next getpgid() fires the
		 * tracepoint program on another CPU. */
		if (sched_setaffinity(0, setsz, set)) {
			err = bc_error(ctx, -errno, "sched_setaffinity to CPU %u failed: %s",
				       st->cpus[k], strerror(errno));
			break;
		}
		(void)syscall(SYS_getpgid, 0);
		bc_counter_add(runs, 1);
	}
	if (restore)
		(void)sched_setaffinity(0, setsz, orig);
out:
	if (orig)
		CPU_FREE(orig);
	if (set)
		CPU_FREE(set);
	return err;
}

static int trig_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct trig_state *st = bc_ctx_data(ctx);
	struct bc_line_counter *runs = &st->runs[t->idx];
	void (*target)(void) = trig_targets[st->spec->target ? st->spec->target : BC_TRIG_TARGET_NOP];

	switch (st->spec->driver) {
	case BC_TRIG_DRV_SYSCALL_COUNT:
	case BC_TRIG_DRV_SYSCALL: {
		/*
		 * The pid the runner's loops pass (<benchcore/attach.h>):
		 * trig-syscall-count's is its own thread id, so getpgid()
		 * finds the task and calls the LSM hook; the syscall-driven
		 * programs' a missing pid, except fmod_ret on the LSM hook,
		 * which only a found pid reaches. Read once: the loop must
		 * hold only the syscall measured.
		 */
		long pid = st->spec->driver == BC_TRIG_DRV_SYSCALL_COUNT ? (long)syscall(SYS_gettid) :
			   st->spec->getpgid_self ? (long)getpid() : BC_GETPGID_MISSING;

		while (!bc_thread_should_stop(t)) {
			(void)syscall(SYS_getpgid, pid);
			bc_counter_add(runs, 1);
		}
		return 0;
	}
	case BC_TRIG_DRV_USER_COUNT:
		/*
		 * The baseline's counting is what it measures: the runner
		 * counts each call with a locked add (atomic_inc()), and a
		 * plain add read 1.18 times its figure under its name.
		 */
		while (!bc_thread_should_stop(t)) {
			target();
			(void)__atomic_fetch_add(&runs->value, 1, __ATOMIC_RELAXED);
		}
		return 0;
	case BC_TRIG_DRV_UPROBED_CALL:
		while (!bc_thread_should_stop(t)) {
			target();
			bc_counter_add(runs, 1);
		}
		return 0;
	case BC_TRIG_DRV_KERNEL_COUNT:
	case BC_TRIG_DRV_HELPER:
	case BC_TRIG_DRV_KFUNC:
	case BC_TRIG_DRV_TESTRUN:
	case BC_TRIG_DRV_TESTRUN_ON_CPU:
		return trig_test_run_loop(ctx, st, t, runs);
	case BC_TRIG_DRV_SYSCALL_ON_CPU:
		return trig_syscall_on_cpu_loop(ctx, st, t, runs);
	}
	return bc_error(ctx, -EINVAL, "%s: unknown driver %d", st->spec->name, st->spec->driver);
}

static int trig_measure(struct bc_ctx *ctx, double *values)
{
	struct trig_state *st = bc_ctx_data(ctx);
	uint64_t runs = bc_line_counters_sum(st->runs, st->prod_cnt);
	uint64_t hits = 0;
	int err;

	if (st->skel) {
		hits = bc_line_counters_sum(st->skel->bss->hits, BC_ARRAY_SIZE(st->skel->bss->hits));
	} else {
		/* The user-space baselines: every run is one hit. */
		hits = runs;
	}
	err = bc_metric_set(ctx, values, "hits", (double)hits);
	return err ? err : bc_metric_set(ctx, values, "runs", (double)runs);
}

/* ---------------------------------------------------------- descriptors */

/*
 * hits: the program under test ran (counted in BPF): the headline, printed
 * in the kernel runner's hits/drops shape, which its trigger scripts parse.
 * runs: what the producers did from user space, one test run, call or
 * syscall each; for batched benchmarks hits = runs x --trig-batch-iters,
 * which the tests use to check that the counting is right.
 */
static const struct bc_metric_desc trig_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS),
	BC_METRIC("runs", "runs", BC_METRIC_COUNTER, .role = BC_ROLE_AUX),
};

#define TRIG_BENCH_OPTS(var_, id_, name_, desc_, ...)                              \
	static const struct bc_bench_desc var_ = BC_BENCH(name_, desc_, trig_metrics,  \
		.runner_name = true, .priv = &trig_specs[id_], .probe = trig_probe,     \
		.quick_probe = trig_quick_probe, .validate = trig_validate,            \
		.setup = trig_setup, .producer = trig_producer, .measure = trig_measure, \
		.teardown = trig_teardown, __VA_ARGS__)

#define TRIG_BENCH(var_, id_, name_, desc_) TRIG_BENCH_OPTS(var_, id_, name_, desc_)
/* Batched through the kfunc, or getpgid()-driven (--trig-driver). */
#define TRIG_BENCH_KFUNC(var_, id_, name_, desc_)                                  \
	TRIG_BENCH_OPTS(var_, id_, name_, desc_, BC_OPTIONS(trig_kfunc_options))
/* One run is --trig-batch-iters triggers. */
#define TRIG_BENCH_BATCHED(var_, id_, name_, desc_)                                \
	TRIG_BENCH_OPTS(var_, id_, name_, desc_, BC_OPTIONS(trig_batch_options))

TRIG_BENCH_BATCHED(b_kernel_count, BC_TRIG_KERNEL_COUNT, "trig-kernel-count",
		   "baseline: batched raw_tp driver counting its own loop, nothing attached");
TRIG_BENCH(b_syscall_count, BC_TRIG_SYSCALL_COUNT, "trig-syscall-count",
	   "baseline: getpgid() loop counted in user space, no BPF");
TRIG_BENCH(b_usermode_count, BC_TRIG_USERMODE_COUNT, "trig-usermode-count",
	   "baseline: plain function call counted in user space, no BPF");
TRIG_BENCH_KFUNC(b_tp, BC_TRIG_TP, "trig-tp",
		 "tracepoint: bpf_trigger_tp from a batched kfunc driver, or "
		 "sys_enter_getpgid from getpgid() where the kernel lacks the kfunc");
TRIG_BENCH_KFUNC(b_rawtp, BC_TRIG_RAWTP, "trig-rawtp",
		 "raw_tp: bpf_trigger_tp from a batched kfunc driver, or sys_enter "
		 "from getpgid() where the kernel lacks the kfunc");
TRIG_BENCH_BATCHED(b_fentry, BC_TRIG_FENTRY, "trig-fentry",
		   "fentry on bpf_get_numa_node_id, batched driver");
TRIG_BENCH_BATCHED(b_fexit, BC_TRIG_FEXIT, "trig-fexit",
		   "fexit on bpf_get_numa_node_id, batched driver");
TRIG_BENCH_KFUNC(b_fmodret, BC_TRIG_FMODRET, "trig-fmodret",
		 "fmod_ret: on the kfunc, batched, or on getpgid()'s function, from "
		 "getpgid(), where the kernel lacks the kfunc");
TRIG_BENCH_BATCHED(b_kprobe, BC_TRIG_KPROBE, "trig-kprobe",
		   "kprobe on bpf_get_numa_node_id, batched driver");
TRIG_BENCH_BATCHED(b_kretprobe, BC_TRIG_KRETPROBE, "trig-kretprobe",
		   "kretprobe on bpf_get_numa_node_id, batched driver");
TRIG_BENCH_BATCHED(b_kprobe_multi, BC_TRIG_KPROBE_MULTI, "trig-kprobe-multi",
		   "kprobe.multi on bpf_get_numa_node_id, batched driver");
TRIG_BENCH_BATCHED(b_kretprobe_multi, BC_TRIG_KRETPROBE_MULTI, "trig-kretprobe-multi",
		   "kretprobe.multi on bpf_get_numa_node_id, batched driver");
TRIG_BENCH_BATCHED(b_kprobe_multi_all, BC_TRIG_KPROBE_MULTI_ALL, "trig-kprobe-multi-all",
		   "kprobe.multi on bpf_get_numa_node_id with an empty kprobe.multi on every "
		   "other traceable kernel function, batched driver");
TRIG_BENCH_BATCHED(b_kretprobe_multi_all, BC_TRIG_KRETPROBE_MULTI_ALL,
		   "trig-kretprobe-multi-all",
		   "kretprobe.multi on bpf_get_numa_node_id with an empty kretprobe.multi on "
		   "every other traceable kernel function, batched driver");
TRIG_BENCH(b_uprobe_nop, BC_TRIG_UPROBE_NOP, "trig-uprobe-nop",
	   "uprobe on a function starting with nop");
TRIG_BENCH(b_uretprobe_nop, BC_TRIG_URETPROBE_NOP, "trig-uretprobe-nop",
	   "uretprobe on a function starting with nop");
TRIG_BENCH(b_uprobe_push, BC_TRIG_UPROBE_PUSH, "trig-uprobe-push",
	   "uprobe on a function starting with push");
TRIG_BENCH(b_uretprobe_push, BC_TRIG_URETPROBE_PUSH, "trig-uretprobe-push",
	   "uretprobe on a function starting with push");
TRIG_BENCH(b_uprobe_ret, BC_TRIG_UPROBE_RET, "trig-uprobe-ret",
	   "uprobe on a function that is just ret");
TRIG_BENCH(b_uretprobe_ret, BC_TRIG_URETPROBE_RET, "trig-uretprobe-ret",
	   "uretprobe on a function that is just ret");
TRIG_BENCH(b_uprobe_nop5, BC_TRIG_UPROBE_NOP5, "trig-uprobe-nop5",
	   "uprobe on a function starting with the 5-byte nop (x86-64)");
TRIG_BENCH(b_uretprobe_nop5, BC_TRIG_URETPROBE_NOP5, "trig-uretprobe-nop5",
	   "uretprobe on a function starting with the 5-byte nop (x86-64)");
TRIG_BENCH(b_uprobe_multi_nop, BC_TRIG_UPROBE_MULTI_NOP, "trig-uprobe-multi-nop",
	   "uprobe.multi, nop target");
TRIG_BENCH(b_uretprobe_multi_nop, BC_TRIG_URETPROBE_MULTI_NOP, "trig-uretprobe-multi-nop",
	   "uretprobe.multi, nop target");
TRIG_BENCH(b_uprobe_multi_push, BC_TRIG_UPROBE_MULTI_PUSH, "trig-uprobe-multi-push",
	   "uprobe.multi, push target");
TRIG_BENCH(b_uretprobe_multi_push, BC_TRIG_URETPROBE_MULTI_PUSH, "trig-uretprobe-multi-push",
	   "uretprobe.multi, push target");
TRIG_BENCH(b_uprobe_multi_ret, BC_TRIG_UPROBE_MULTI_RET, "trig-uprobe-multi-ret",
	   "uprobe.multi, ret target");
TRIG_BENCH(b_uretprobe_multi_ret, BC_TRIG_URETPROBE_MULTI_RET, "trig-uretprobe-multi-ret",
	   "uretprobe.multi, ret target");
TRIG_BENCH(b_uprobe_multi_nop5, BC_TRIG_UPROBE_MULTI_NOP5, "trig-uprobe-multi-nop5",
	   "uprobe.multi, 5-byte nop target (x86-64)");
TRIG_BENCH(b_uretprobe_multi_nop5, BC_TRIG_URETPROBE_MULTI_NOP5, "trig-uretprobe-multi-nop5",
	   "uretprobe.multi, 5-byte nop target (x86-64)");
TRIG_BENCH(b_usdt_nop, BC_TRIG_USDT_NOP, "trig-usdt-nop",
	   "USDT probe whose site is a nop (x86-64; our own .note.stapsdt, semaphore counted)");
TRIG_BENCH(b_usdt_nop5, BC_TRIG_USDT_NOP5, "trig-usdt-nop5",
	   "USDT probe whose site is the 5-byte nop (x86-64; semaphore counted)");
TRIG_BENCH(b_testrun, BC_TRIG_TESTRUN, "trig-testrun",
	   "cross-CPU reference: BPF_PROG_TEST_RUN of a raw_tp on the producer's CPU");
TRIG_BENCH(b_testrun_on_cpu, BC_TRIG_TESTRUN_ON_CPU, "trig-testrun-on-cpu",
	   "cross-CPU: BPF_PROG_TEST_RUN with BPF_F_TEST_RUN_ON_CPU rotating over CPUs (IPI)");
TRIG_BENCH(b_syscall_on_cpu, BC_TRIG_SYSCALL_ON_CPU, "trig-syscall-on-cpu",
	   "cross-CPU: migrate to the next CPU, then getpgid() fires a tp program");

/* Same order as trig_specs[]: the unit tests hold the two together. */
static const struct bc_bench_desc *const trig_benches[] = {
	&b_kernel_count, &b_syscall_count, &b_usermode_count,
	&b_tp, &b_rawtp, &b_fentry, &b_fexit, &b_fmodret,
	&b_kprobe, &b_kretprobe, &b_kprobe_multi, &b_kretprobe_multi,
	&b_kprobe_multi_all, &b_kretprobe_multi_all,
	&b_uprobe_nop, &b_uretprobe_nop, &b_uprobe_push, &b_uretprobe_push,
	&b_uprobe_ret, &b_uretprobe_ret, &b_uprobe_nop5, &b_uretprobe_nop5,
	&b_uprobe_multi_nop, &b_uretprobe_multi_nop, &b_uprobe_multi_push,
	&b_uretprobe_multi_push, &b_uprobe_multi_ret, &b_uretprobe_multi_ret,
	&b_uprobe_multi_nop5, &b_uretprobe_multi_nop5, &b_usdt_nop, &b_usdt_nop5,
	&b_testrun, &b_testrun_on_cpu, &b_syscall_on_cpu,
	/* Not in the table above: their own callbacks (trig_ipc.c). */
	&trig_b_user_ringbuf_timer, &trig_b_user_ringbuf_syscall, &trig_b_unix_socket,
	&trig_b_shared_memory, &trig_b_shared_memory_eventfd,
	NULL,
};

BENCHCORE_PLUGIN(.name = "trigger", .version = "2.0",
		 .description = "cost of triggering a BPF program, per attach type",
		 BC_OPTIONS(trig_plugin_options), .opts_size = sizeof(struct trig_opts),
		 .benches = trig_benches);
