// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `benchcore vm --kernel IMAGE [--kernel IMAGE] [options] -- run|sweep|suite ...`
 *
 * The host's half of a guest run. This file finds what each --kernel is
 * (vm_image.c), asks vm/boot.sh (installed under libexec, the code the
 * kernel matrix sources) to prepare it, choose the accelerator and boot
 * it, and reads back what the guest's half (vm/guest.sh) left in the
 * writable share: the command's output, its exit status, and a store of
 * the documents of every run that ended well. Those are saved here
 * (--save) and, with two kernels, pooled per kernel over the rounds and
 * compared (results/rounds.c, results/compare.c).
 *
 * Every failure is one line naming the kernel and the cause: a path that
 * is no kernel, a kernel that cannot run BPF, or lacks BTF (status 2); a
 * guest that does not boot, panics, hangs, cannot mount the host root or
 * does not finish (status 1). Nothing is saved unless every guest
 * finished its run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli_args.h"
#include "cli_env.h"
#include "cmd_store.h"
#include "cmd_vm.h"
#include "results/accel.h"
#include "results/compare.h"
#include "results/rounds.h"
#include "results/store_doc.h"
#include "results/store_name.h"
#include "runtime/core_opts.h"
#include "runtime/exit_status.h"
#include "runtime/kernel_facts.h"
#include "runtime/log.h"
#include "runtime/output.h"

#ifndef BENCHCORE_BINDIR
#define BENCHCORE_BINDIR "bin"
#endif
#ifndef BENCHCORE_LIBEXECDIR
#define BENCHCORE_LIBEXECDIR "libexec"
#endif

/* The default guest: what the matrix boots (docs/kernels.md). */
#define BC_VM_DEFAULT_MEMORY "2G"
#define BC_VM_DEFAULT_CPUS 2
#define BC_VM_DEFAULT_TIMEOUT 1800
#define BC_VM_DEFAULT_ROUNDS_AB 3

static void bc_vm_help(FILE *f)
{
	fputs("Usage: benchcore vm --kernel IMAGE [--kernel IMAGE] [OPTIONS] [--] run|sweep|suite ARGS...\n"
	      "       benchcore vm --collect DIR [--save [--store PATH] [--label TEXT]]\n"
	      "Runs a benchmark, sweep or suite command line inside a guest booted from\n"
	      "IMAGE under QEMU, with this machine's benchcore and plugins (its root shared\n"
	      "read-only), and brings the documents back. IMAGE is a bzImage or vmlinuz, a\n"
	      "kernel build tree, an unpacked kernel package or a .deb. With two --kernel\n"
	      "the kernels alternate round by round and compare's table says how the\n"
	      "second moved against the first.\n\n"
	      "  --kernel IMAGE     the kernel to boot (twice: before and after)\n"
	      "  --modules DIR      the modules (lib/modules/RELEASE) of the --kernel before it\n"
	      "  --rounds N         boots per kernel, order flipped each round (default 1;\n"
	      "                     3 with two kernels; at least 3 for an interval)\n"
	      "  --save             keep every run's document in the store (kernel release,\n"
	      "                     config hash, accelerator, guest CPUs and memory in it)\n"
	      "  --store PATH       the store --save writes (default: run --save's)\n"
	      "  --label TEXT       the saved entries' name\n"
	      "  --accel auto|kvm|tcg   auto: KVM when a probe boot reaches init, else TCG\n"
	      "  --memory SIZE      guest memory, QEMU's -m (default 2G)\n"
	      "  --cpus N           vCPUs (default 2)\n"
	      "  --timeout SEC      a guest still running after SEC is hung (default 1800)\n"
	      "  --keep DIR         keep the work directory (console, documents) in DIR\n"
	      "  --format text|json|csv|markdown   the comparison's table (two kernels)\n"
	      "  --collect DIR      only the host half: read a guest's DIR/out (the matrix)\n"
	      "Under TCG (no working KVM) every figure is emulation, and says so.\n"
	      "docs/kernels.md (\"A kernel of your own\") and docs/cli.md say more.\n",
	      f);
}

/* snprintf, cut where a long path makes it long: paths are checked where
 * they are used, and messages may be cut. */
static void bc_vm_fmt(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void bc_vm_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------- options */

static int bc_vm_uint(const char *opt, const char *v, unsigned int lo, unsigned int hi,
		      const char *what, unsigned int *out)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (!*v || *end || errno || n < lo || n > hi || v[0] == '-' || v[0] == '+')
		return bc_cli_usage_error("%s '%s': expected %s from %u to %u", opt, v, what, lo, hi);
	*out = (unsigned int)n;
	return 0;
}

/* QEMU's -m: a whole number with an optional M or G. */
static int bc_vm_memory(const char *v)
{
	size_t digits = strspn(v, "0123456789");

	if (!digits || digits > 7 || (v[digits] && (strchr("MG", v[digits]) == NULL ||
						    v[digits + 1])) || atoi(v) == 0)
		return bc_cli_usage_error("--memory '%s': expected a size such as 2G or 1536M", v);
	return 0;
}

/* What the guest's command line must not carry: what only the host can do. */
static int bc_vm_check_cmd(int argc, char **argv)
{
	static const char *const refused[][2] = {
		{ "--save", "give --save to vm: the guest's documents are saved on this machine" },
		{ "--store", "give --store to vm: the guest's documents are saved on this machine" },
		{ "--against", "compare on this machine: save with vm --save, then run --against or history" },
		{ "--output", "the guest sees this machine's files read-only; its output comes back on standard output" },
		{ "-o", "the guest sees this machine's files read-only; its output comes back on standard output" },
	};

	if (strcmp(argv[0], "run") && strcmp(argv[0], "sweep") && strcmp(argv[0], "suite"))
		return bc_cli_usage_error("vm: '%s': expected a benchmark, sweep or suite command line (run, sweep or suite) after vm's options",
					  argv[0]);
	if (argc < 2)
		return bc_cli_usage_error("vm: '%s' without its arguments: expected e.g. `benchcore vm --kernel IMAGE -- run count:count-local`",
					  argv[0]);
	for (int i = 1; i < argc; i++)
		for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); k++) {
			size_t len = strlen(refused[k][0]);

			if (!strncmp(argv[i], refused[k][0], len) &&
			    (argv[i][len] == '\0' || argv[i][len] == '='))
				return bc_cli_usage_error("vm: %s in the guest's command line: %s",
							  refused[k][0], refused[k][1]);
		}
	return 0;
}

int bc_vm_parse(int argc, char **argv, struct bc_vm_opts *o, bool *help)
{
	const char *modules[BC_VM_MAX_KERNELS] = { NULL };
	const char *paths[BC_VM_MAX_KERNELS] = { NULL };
	bool rounds_given = false;
	char err[1024];
	const char *v;
	int i;

	memset(o, 0, sizeof(*o));
	*help = false;
	o->accel = "auto";
	o->memory = BC_VM_DEFAULT_MEMORY;
	o->cpus = BC_VM_DEFAULT_CPUS;
	o->timeout_sec = BC_VM_DEFAULT_TIMEOUT;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "-?")) {
			*help = true;
			return BC_EXIT_OK;
		}
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if ((v = bc_cli_opt_value(argc, argv, &i, "--kernel"))) {
			if (o->kernel_cnt == BC_VM_MAX_KERNELS)
				return bc_cli_usage_error("--kernel '%s': at most two kernels (before and after)", v);
			paths[o->kernel_cnt++] = v;
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--modules"))) {
			if (!o->kernel_cnt)
				return bc_cli_usage_error("--modules '%s': give it after the --kernel it belongs to", v);
			modules[o->kernel_cnt - 1] = v;
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--rounds"))) {
			if (bc_vm_uint("--rounds", v, 1, BC_VM_MAX_ROUNDS, "a whole number of rounds",
				       &o->rounds))
				return BC_EXIT_USAGE;
			rounds_given = true;
		} else if (!strcmp(a, "--save")) {
			o->save = true;
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--store"))) {
			if (!*v)
				return bc_cli_usage_error("--store '': expected the path of a store file");
			o->store = v;
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--label"))) {
			if (!*v || strpbrk(v, "\n\r"))
				return bc_cli_usage_error("--label '%s': expected a name on one line", v);
			o->label = v;
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--accel"))) {
			if (strcmp(v, "auto") && strcmp(v, "kvm") && strcmp(v, "tcg"))
				return bc_cli_usage_error("--accel '%s': expected auto, kvm or tcg", v);
			o->accel = v;
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--memory"))) {
			if (bc_vm_memory(v))
				return BC_EXIT_USAGE;
			o->memory = v;
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--cpus"))) {
			if (bc_vm_uint("--cpus", v, 1, 64, "a whole number of vCPUs", &o->cpus))
				return BC_EXIT_USAGE;
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--timeout"))) {
			if (bc_vm_uint("--timeout", v, 10, 86400, "a whole number of seconds",
				       &o->timeout_sec))
				return BC_EXIT_USAGE;
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--keep"))) {
			if (!*v)
				return bc_cli_usage_error("--keep '': expected a directory");
			o->keep = v;
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--format"))) {
			if (bc_parse_format("--format", v, BC_FORMATS_TABLE, &o->format))
				return BC_EXIT_USAGE;
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--collect"))) {
			if (!*v)
				return bc_cli_usage_error("--collect '': expected the directory a guest's run wrote");
			o->collect = v;
		} else {
			return bc_cli_usage_error("vm: '%s' is not an option of vm (`benchcore vm --help`); the guest's command line comes after vm's options",
						  a);
		}
	}
	if ((o->label || o->store) && !o->save)
		return bc_cli_usage_error("vm: %s without --save: nothing would be saved",
					  o->label ? "--label" : "--store");
	if (o->collect) {
		if (o->kernel_cnt || i < argc)
			return bc_cli_usage_error("vm: --collect reads what a guest left; it takes no --kernel and no command line");
		return 0;
	}
	if (!o->kernel_cnt)
		return bc_cli_usage_error("vm: missing --kernel IMAGE (a bzImage or vmlinuz, a kernel build tree, an unpacked kernel package or a .deb)");
	if (i >= argc)
		return bc_cli_usage_error("vm: missing the guest's command line: expected e.g. `benchcore vm --kernel IMAGE -- run count:count-local`");
	o->cmd_argc = argc - i;
	o->cmd_argv = argv + i;
	if (bc_vm_check_cmd(o->cmd_argc, o->cmd_argv))
		return BC_EXIT_USAGE;
	if (!rounds_given)
		o->rounds = o->kernel_cnt == 2 ? BC_VM_DEFAULT_ROUNDS_AB : 1;
	if (o->format != BC_FORMAT_TEXT && o->kernel_cnt < 2)
		return bc_cli_usage_error("vm: --format sets the comparison's table, which two --kernel make; the guest's own output takes the command's --format");
	for (unsigned int k = 0; k < o->kernel_cnt; k++)
		if (bc_vm_image_detect(paths[k], modules[k], &o->kernels[k], err, sizeof(err)))
			return bc_cli_usage_error("%s", err);
	return 0;
}

/* ------------------------------------------------------------- helpers */

static bool bc_vm_quiet;

static void bc_vm_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void bc_vm_say(const char *fmt, ...)
{
	va_list ap;

	if (bc_vm_quiet)
		return;
	va_start(ap, fmt);
	fputs("benchcore: vm: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static bool bc_vm_is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* The first line of a small file; false when there is none. */
static bool bc_vm_read_line(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX * 2];
	FILE *f;
	bool ok;

	bc_vm_fmt(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* vm/boot.sh and vm/guest.sh: <prefix>/<libexecdir>/benchcore when
 * installed, the source tree's vm/ when run from the build tree. */
static int bc_vm_libexec(char *buf, size_t len)
{
	char prefix[PATH_MAX], path[PATH_MAX * 2];

	if (bc_exe_prefix(prefix, sizeof(prefix))) {
		bc_vm_fmt(buf, len, "%s/%s/benchcore", prefix, BENCHCORE_LIBEXECDIR);
		bc_vm_fmt(path, sizeof(path), "%s/boot.sh", buf);
		if (bc_vm_is_file(path))
			return 0;
	}
#ifdef BENCHCORE_SOURCE_DIR
	bc_vm_fmt(buf, len, "%s/vm", BENCHCORE_SOURCE_DIR);
	bc_vm_fmt(path, sizeof(path), "%s/boot.sh", buf);
	if (bc_vm_is_file(path))
		return 0;
#endif
	bc_warn("vm: cannot find vm/boot.sh (installed in <prefix>/%s/benchcore with benchcore); reinstall benchcore",
		BENCHCORE_LIBEXECDIR);
	return -ENOENT;
}

/* Copies what was appended to dir/name since *off to f; a file that
 * shrank (the guest was booted again) starts over. */
static void bc_vm_tail(const char *dir, const char *name, off_t *off, FILE *f)
{
	char path[PATH_MAX * 2], buf[8192];
	struct stat st;
	ssize_t n;
	int fd;

	bc_vm_fmt(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!fstat(fd, &st) && st.st_size < *off)
		*off = 0;
	while ((n = pread(fd, buf, sizeof(buf), *off)) > 0) {
		fwrite(buf, 1, (size_t)n, f);
		*off += n;
	}
	fflush(f);
	close(fd);
}

static volatile sig_atomic_t bc_vm_interrupted;

static void bc_vm_on_signal(int sig)
{
	(void)sig;
	bc_vm_interrupted = 1;
}

/*
 * Runs argv with its standard output into out (NUL-terminated, cut at
 * len) and its standard error into err (likewise), or both to stderr
 * when out is NULL. With stream set, the guest's stdout and stderr files
 * in stream/out are copied to ours as they grow. Returns the exit status
 * (128 + N for a signal), or -errno when it could not start.
 */
static int bc_vm_exec(char *const argv[], char *out, size_t out_len, char *err, size_t err_len,
		      const char *stream)
{
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, status = 0;
	size_t got_out = 0, got_err = 0;
	struct sigaction sa = { .sa_handler = bc_vm_on_signal }, old_int, old_term;
	off_t off_out = 0, off_err = 0;
	char guest_out[PATH_MAX + 8];
	bool open_fd[2] = { true, true };
	pid_t pid;

	if (out && (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC)))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		if (out) {
			dup2(po[1], 1);
			dup2(pe[1], 2);
		} else {
			dup2(2, 1);
		}
		execv(argv[0], argv);
		fprintf(stderr, "benchcore: vm: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	/* Ctrl-C reaches QEMU and the scripts (one process group); this
	 * process waits for them to end, then says so. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	if (out) {
		close(po[1]);
		close(pe[1]);
	}
	if (stream)
		bc_vm_fmt(guest_out, sizeof(guest_out), "%s/out", stream);
	for (;;) {
		struct pollfd fds[2] = { { .fd = open_fd[0] ? po[0] : -1, .events = POLLIN },
					 { .fd = open_fd[1] ? pe[0] : -1, .events = POLLIN } };
		int r = out ? poll(fds, 2, 200) : 0;

		if (out && r > 0) {
			for (int k = 0; k < 2; k++) {
				char *buf = k ? err : out;
				size_t *got = k ? &got_err : &got_out, cap = k ? err_len : out_len;
				char tmp[4096];
				ssize_t n;

				if (!(fds[k].revents & (POLLIN | POLLHUP)))
					continue;
				n = read(fds[k].fd, tmp, sizeof(tmp));
				if (n <= 0) {
					open_fd[k] = false;
					continue;
				}
				if (*got + 1 < cap) {
					size_t c = (size_t)n < cap - 1 - *got ? (size_t)n : cap - 1 - *got;

					memcpy(buf + *got, tmp, c);
					*got += c;
				}
			}
		}
		if (stream) {
			bc_vm_tail(guest_out, "stdout", &off_out, bc_stdout());
			bc_vm_tail(guest_out, "stderr", &off_err, stderr);
		}
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		if (!out || (!open_fd[0] && !open_fd[1]))
			usleep(200 * 1000);
	}
	if (out) {
		char tmp[4096];
		ssize_t n;

		/* what is left in the pipes */
		while (got_out + 1 < out_len && (n = read(po[0], tmp, sizeof(tmp))) > 0) {
			size_t c = (size_t)n < out_len - 1 - got_out ? (size_t)n : out_len - 1 - got_out;

			memcpy(out + got_out, tmp, c);
			got_out += c;
		}
		while (got_err + 1 < err_len && (n = read(pe[0], tmp, sizeof(tmp))) > 0) {
			size_t c = (size_t)n < err_len - 1 - got_err ? (size_t)n : err_len - 1 - got_err;

			memcpy(err + got_err, tmp, c);
			got_err += c;
		}
		out[got_out] = '\0';
		err[got_err] = '\0';
		close(po[0]);
		close(pe[0]);
	}
	if (stream) {
		bc_vm_tail(guest_out, "stdout", &off_out, bc_stdout());
		bc_vm_tail(guest_out, "stderr", &off_err, stderr);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* The last line of a text, without its newline. */
static const char *bc_vm_last_line(char *text)
{
	char *end = text + strlen(text), *p;

	while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
		*--end = '\0';
	p = strrchr(text, '\n');
	return p ? p + 1 : text;
}

/* ------------------------------------------------------------- a run */

struct bc_vm {
	const struct bc_vm_opts *o;
	struct bc_cli_env *env;
	char libexec[PATH_MAX];
	char work[PATH_MAX];
	bool work_made;			/* a temporary one, removed when all went well */
	char accel[8];			/* "KVM" or "TCG" */
	char accel_why[512];
	char release[BC_VM_MAX_KERNELS][128];
	char name[BC_VM_MAX_KERNELS][PATH_MAX + 160];	/* for messages */
	/* the documents each kernel's guests brought back */
	struct bc_import docs[BC_VM_MAX_KERNELS];
	bool failed;
};

static void bc_vm_kdir(const struct bc_vm *vm, unsigned int k, char *buf, size_t len)
{
	bc_vm_fmt(buf, len, "%s/kernel-%u", vm->work, k + 1);
}

/* Where a .deb is unpacked, once: the user's cache, keyed by the file. */
static void bc_vm_unpack_dir(const struct bc_vm *vm, const char *deb, char *buf, size_t len)
{
	const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	const char *base = strrchr(deb, '/') ? strrchr(deb, '/') + 1 : deb;
	struct stat st = { 0 };

	stat(deb, &st);
	if (cache && cache[0] == '/')
		bc_vm_fmt(buf, len, "%s/benchcore/vm/%s-%lld-%lld", cache, base, (long long)st.st_size,
			 (long long)st.st_mtime);
	else if (home && home[0] == '/')
		bc_vm_fmt(buf, len, "%s/.cache/benchcore/vm/%s-%lld-%lld", home, base,
			 (long long)st.st_size, (long long)st.st_mtime);
	else
		bc_vm_fmt(buf, len, "%s/unpacked-%.200s", vm->work, base);
}

/* A kernel's image, modules and config checked for what every run needs
 * before a boot is spent on it: the BPF syscall and BTF. */
static int bc_vm_check_config(struct bc_vm *vm, unsigned int k, const char *kdir)
{
	static const char *const need[][2] = {
		{ "CONFIG_BPF_SYSCALL", "no BPF syscall" },
		{ "CONFIG_DEBUG_INFO_BTF", "no BTF" },
	};
	char path[PATH_MAX * 2], val[32];

	bc_vm_fmt(path, sizeof(path), "%s/config", kdir);
	if (!bc_vm_is_file(path))
		return 0;
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		int ret = bc_kconfig_lookup(path, need[i][0], val, sizeof(val));

		if (ret < 0 || (ret == 1 && !strcmp(val, "y")))
			continue;
		bc_warn("vm: %s: %s (%s is %s in its config); expected a kernel built with CONFIG_BPF_SYSCALL=y and CONFIG_DEBUG_INFO_BTF=y",
			vm->name[k], need[i][1], need[i][0], ret ? val : "not set");
		return BC_EXIT_USAGE;
	}
	return 0;
}

static int bc_vm_prepare(struct bc_vm *vm, unsigned int k)
{
	const struct bc_vm_image *img = &vm->o->kernels[k];
	char kdir[PATH_MAX + 16], boot[PATH_MAX + 16], unpack[PATH_MAX * 2], abs[PATH_MAX];
	char out[512], err[4096];
	char *argv[16];
	int n = 0, ret;

	bc_vm_kdir(vm, k, kdir, sizeof(kdir));
	bc_vm_fmt(boot, sizeof(boot), "%s/boot.sh", vm->libexec);
	argv[n++] = boot;
	argv[n++] = (char *)"prepare";
	argv[n++] = kdir;
	if (!realpath(img->path, abs))
		bc_vm_fmt(abs, sizeof(abs), "%s", img->path);
	switch (img->kind) {
	case BC_VM_DEB:
		bc_vm_unpack_dir(vm, abs, unpack, sizeof(unpack));
		argv[n++] = (char *)"--deb";
		argv[n++] = abs;
		argv[n++] = (char *)"--unpack";
		argv[n++] = unpack;
		break;
	case BC_VM_BUILD_TREE:
		argv[n++] = (char *)"--tree";
		argv[n++] = abs;
		if (img->release[0]) {
			argv[n++] = (char *)"--release";
			argv[n++] = (char *)img->release;
		}
		break;
	default:
		argv[n++] = (char *)"--image";
		argv[n++] = (char *)img->image;
		if (img->release[0]) {
			argv[n++] = (char *)"--release";
			argv[n++] = (char *)img->release;
		}
		if (img->modules[0]) {
			argv[n++] = (char *)"--modules";
			argv[n++] = (char *)img->modules;
		}
		if (img->config[0]) {
			argv[n++] = (char *)"--config";
			argv[n++] = (char *)img->config;
		}
		break;
	}
	argv[n] = NULL;
	bc_vm_say("%s: preparing (%s)", img->path, bc_vm_kind_name(img->kind));
	ret = bc_vm_exec(argv, out, sizeof(out), err, sizeof(err), NULL);
	if (ret) {
		/* boot.sh's own line names the image and the cause */
		bc_warn("vm: --kernel '%s': %s", img->path,
			*err ? bc_vm_last_line(err) : "preparing it failed");
		return ret == 2 ? BC_EXIT_USAGE : BC_EXIT_FAILED;
	}
	if (!bc_vm_read_line(kdir, "release", vm->release[k], sizeof(vm->release[k])))
		bc_vm_fmt(vm->release[k], sizeof(vm->release[k]), "unknown");
	bc_vm_fmt(vm->name[k], sizeof(vm->name[k]), "--kernel '%s' (%s)", img->path, vm->release[k]);
	return bc_vm_check_config(vm, k, kdir);
}

static int bc_vm_choose_accel(struct bc_vm *vm)
{
	char kdir[PATH_MAX + 16], boot[PATH_MAX + 16], out[1024], err[4096], *tab;
	char *argv[] = { boot, (char *)"accel", kdir, (char *)vm->o->accel, NULL };
	int ret;

	bc_vm_kdir(vm, 0, kdir, sizeof(kdir));
	bc_vm_fmt(boot, sizeof(boot), "%s/boot.sh", vm->libexec);
	ret = bc_vm_exec(argv, out, sizeof(out), err, sizeof(err), NULL);
	out[strcspn(out, "\n")] = '\0';
	tab = strchr(out, '\t');
	if (!tab) {
		bc_warn("vm: choosing the accelerator failed: %s", *err ? bc_vm_last_line(err) : "no answer");
		return BC_EXIT_FAILED;
	}
	*tab = '\0';
	bc_vm_fmt(vm->accel, sizeof(vm->accel), "%.7s", out);
	bc_vm_fmt(vm->accel_why, sizeof(vm->accel_why), "%s", tab + 1);
	if (ret) {
		bc_warn("vm: --accel kvm: %s", vm->accel_why);
		return BC_EXIT_FAILED;
	}
	bc_vm_say("accelerator: %s (%s)%s", vm->accel, vm->accel_why,
		  strcmp(vm->accel, "TCG") ? "" : "; every figure will be emulation");
	return 0;
}

/* The guest's command line, its directory and environment, and what its
 * init must keep visible above the tmpfs it puts on /tmp. */
static int bc_vm_write_run(struct bc_vm *vm, const char *run)
{
	static const char *const envs[] = { "BENCHCORE_PLUGIN_PATH", "BENCHCORE_SUITE_PATH" };
	char path[PATH_MAX * 2], exe[PATH_MAX], cwd[PATH_MAX], dir[PATH_MAX];
	const struct bc_cli_env *env = vm->env;
	FILE *argv_f, *cmd_f, *f;
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -errno;
	exe[n] = '\0';
	if (!getcwd(cwd, sizeof(cwd)))
		bc_vm_fmt(cwd, sizeof(cwd), "/");
	bc_vm_fmt(path, sizeof(path), "%s/argv", run);
	argv_f = fopen(path, "we");
	bc_vm_fmt(path, sizeof(path), "%s/guest.cmd", run);
	cmd_f = fopen(path, "we");
	if (!argv_f || !cmd_f) {
		if (argv_f)
			fclose(argv_f);
		if (cmd_f)
			fclose(cmd_f);
		return -errno;
	}
	fprintf(argv_f, "%s%c", exe, 0);
	/* the executable's prefix: its library, plugins and suites are there
	 * (installed, or a build tree beside its sources) */
	bc_vm_fmt(dir, sizeof(dir), "%s", exe);
	*strrchr(dir, '/') = '\0';
	if (strrchr(dir, '/') && strrchr(dir, '/') != dir)
		*strrchr(dir, '/') = '\0';
	fprintf(cmd_f, "hold %s\nhold %s\nhold %s\n", dir, cwd, vm->libexec);
	for (size_t i = 0; i < env->plugin_dir_cnt; i++) {
		if (!realpath(env->plugin_dirs[i], dir))
			bc_vm_fmt(dir, sizeof(dir), "%s", env->plugin_dirs[i]);
		fprintf(argv_f, "--plugin-dir%c%s%c", 0, dir, 0);
		fprintf(cmd_f, "hold %s\n", dir);
	}
	if (env->allow_unsafe)
		fprintf(argv_f, "--allow-unsafe-plugins%c", 0);
	for (int v = 0; v < env->verbosity; v++)
		fprintf(argv_f, "-v%c", 0);
	if (env->verbosity < 0)
		fprintf(argv_f, "-q%c", 0);
	for (int i = 0; i < vm->o->cmd_argc; i++)
		fprintf(argv_f, "%s%c", vm->o->cmd_argv[i], 0);
	fprintf(cmd_f, "arg %s/guest.sh\narg %s\n", vm->libexec, run);
	if (fclose(argv_f) | fclose(cmd_f))
		return -EIO;
	bc_vm_fmt(path, sizeof(path), "%s/cwd", run);
	f = fopen(path, "we");
	if (!f)
		return -errno;
	fprintf(f, "%s\n", cwd);
	fclose(f);
	bc_vm_fmt(path, sizeof(path), "%s/env", run);
	f = fopen(path, "we");
	if (!f)
		return -errno;
	for (size_t i = 0; i < sizeof(envs) / sizeof(envs[0]); i++) {
		const char *v = getenv(envs[i]);

		if (v && *v && !strpbrk(v, "\n"))
			fprintf(f, "%s=%s\n", envs[i], v);
	}
	fclose(f);
	return 0;
}

/*
 * What happened to a guest, from RUNDIR/boot, its console and what its
 * half wrote: 0 when its run finished (the command's own status aside),
 * else the exit status, having said why in one line.
 */
static int bc_vm_judge_boot(struct bc_vm *vm, unsigned int k, const char *run, int qemu_rc)
{
	char line[2048], console[PATH_MAX * 2], text[PATH_MAX * 2], *f[4] = { NULL };
	char out[PATH_MAX + 64];
	FILE *c;
	bool mount_failed = false, rw_failed = false;

	bc_vm_fmt(out, sizeof(out), "%s/out", run);
	if (!bc_vm_read_line(run, "boot", line, sizeof(line))) {
		bc_warn("vm: %s: the boot script ended (status %d) without saying how the guest went (%s)",
			vm->name[k], qemu_rc, run);
		return BC_EXIT_FAILED;
	}
	f[0] = line;
	for (int i = 1; i < 4 && f[i - 1]; i++) {
		f[i] = strchr(f[i - 1], '\t');
		if (f[i])
			*f[i]++ = '\0';
	}
	if (f[2] && !strncmp(f[2], "could not boot: ", 16)) {
		bc_warn("vm: %s: the guest did not boot under %s: %s (console: %s/console.log)",
			vm->name[k], f[0], f[2] + 16, run);
		return BC_EXIT_FAILED;
	}
	if (f[2] && !strncmp(f[2], "panicked: ", 10)) {
		bc_warn("vm: %s: the guest kernel panicked %s (console: %s/console.log)", vm->name[k],
			f[2] + 10, run);
		return BC_EXIT_FAILED;
	}
	if (f[3] && *f[3])
		bc_warn("vm: %s: %s", vm->name[k], f[3]);
	bc_vm_fmt(console, sizeof(console), "%s/console.log", run);
	c = fopen(console, "re");
	while (c && fgets(text, sizeof(text), c)) {
		mount_failed = mount_failed || strstr(text, "benchcore-init: mounting the host root over 9p failed");
		rw_failed = rw_failed || strstr(text, "benchcore-init: mounting the writable share");
	}
	if (c)
		fclose(c);
	if (mount_failed) {
		bc_warn("vm: %s: the guest cannot mount the host root over 9p (the kernel needs virtio-pci, 9pnet_virtio and 9p, built in or as modules it has) (console: %s)",
			vm->name[k], console);
		return BC_EXIT_FAILED;
	}
	if (rw_failed) {
		bc_warn("vm: %s: the guest cannot mount its writable share %s over 9p (console: %s)",
			vm->name[k], run, console);
		return BC_EXIT_FAILED;
	}
	if (qemu_rc == 124 || qemu_rc == 137) {
		bc_warn("vm: %s: the guest was still running after %u s: hung, killed (--timeout; console: %s)",
			vm->name[k], vm->o->timeout_sec, console);
		return BC_EXIT_FAILED;
	}
	if (bc_vm_read_line(out, "refused", text, sizeof(text))) {
		bc_warn("vm: %s: %s; expected a kernel built with CONFIG_BPF_SYSCALL=y and CONFIG_DEBUG_INFO_BTF=y",
			vm->name[k], text);
		return BC_EXIT_USAGE;
	}
	bc_vm_fmt(text, sizeof(text), "%s/done", out);
	if (!bc_vm_is_file(text)) {
		bc_warn("vm: %s: the run in the guest did not finish (console: %s)", vm->name[k], console);
		return BC_EXIT_FAILED;
	}
	return 0;
}

/*
 * The host half of one guest's run: its exit status, and its documents
 * added to im. The output was shown as it came (print false), or is shown
 * now (print true: --collect).
 */
static int bc_vm_collect_out(const char *out, bool print, struct bc_import *im, int *cmd_rc)
{
	char path[PATH_MAX * 2], line[64], err[1024];
	off_t off = 0;

	if (print) {
		bc_vm_tail(out, "stdout", &off, bc_stdout());
		off = 0;
		bc_vm_tail(out, "stderr", &off, stderr);
	}
	if (!bc_vm_read_line(out, "rc", line, sizeof(line))) {
		bc_warn("vm: %s: the guest's command left no exit status (rc)", out);
		return BC_EXIT_FAILED;
	}
	*cmd_rc = atoi(line);
	bc_vm_fmt(path, sizeof(path), "%s/results.db", out);
	if (bc_vm_is_file(path) && bc_import_file(im, path, err, sizeof(err))) {
		bc_warn("vm: the guest's documents (%s): %s", path, err);
		return BC_EXIT_FAILED;
	}
	return 0;
}

/* One boot of kernel k in round r: the guest's output shown as it comes. */
static int bc_vm_boot(struct bc_vm *vm, unsigned int k, unsigned int r, int *cmd_rc)
{
	char run[PATH_MAX + 32], kdir[PATH_MAX + 16], boot[PATH_MAX + 16], timeout[16], out[PATH_MAX + 64];
	char *argv[] = { boot, (char *)"run", kdir, run, vm->accel, vm->accel_why, timeout, NULL };
	bool stream = vm->o->kernel_cnt == 1;
	time_t t0 = time(NULL);
	int ret, qemu_rc;
	size_t before = vm->docs[k].cnt;

	bc_vm_kdir(vm, k, kdir, sizeof(kdir));
	bc_vm_fmt(run, sizeof(run), "%s/run-%u-%u", vm->work, r + 1, k + 1);
	bc_vm_fmt(out, sizeof(out), "%s/out", run);
	bc_vm_fmt(boot, sizeof(boot), "%s/boot.sh", vm->libexec);
	bc_vm_fmt(timeout, sizeof(timeout), "%u", vm->o->timeout_sec);
	if (mkdir(run, 0700) && errno != EEXIST) {
		bc_warn("vm: %s: %s", run, strerror(errno));
		return BC_EXIT_FAILED;
	}
	ret = bc_vm_write_run(vm, run);
	if (ret) {
		bc_warn("vm: %s: cannot write the guest's command: %s", run, strerror(-ret));
		return BC_EXIT_FAILED;
	}
	if (vm->o->kernel_cnt == 1)
		bc_vm_say("%s: booting under %s, %u vCPUs, %s", vm->name[k], vm->accel, vm->o->cpus,
			  vm->o->memory);
	qemu_rc = bc_vm_exec(argv, NULL, 0, NULL, 0, stream ? run : NULL);
	if (bc_vm_interrupted) {
		bc_warn("vm: interrupted; the guest was stopped (%s)", run);
		return BC_EXIT_INTERRUPTED;
	}
	ret = bc_vm_judge_boot(vm, k, run, qemu_rc);
	if (ret)
		return ret;
	ret = bc_vm_collect_out(out, false, &vm->docs[k], cmd_rc);
	if (ret)
		return ret;
	if (vm->o->kernel_cnt == 2)
		bc_vm_say("round %u of %u: %s: exit status %d, %zu document%s, %lld s", r + 1,
			  vm->o->rounds, vm->name[k], *cmd_rc, vm->docs[k].cnt - before,
			  vm->docs[k].cnt - before == 1 ? "" : "s", (long long)(time(NULL) - t0));
	else
		bc_vm_say("%s: the guest's run ended with exit status %d in %lld s (%zu document%s)",
			  vm->name[k], *cmd_rc, (long long)(time(NULL) - t0), vm->docs[k].cnt - before,
			  vm->docs[k].cnt - before == 1 ? "" : "s");
	return 0;
}

/* --save: every document of every guest in one transaction, or none. */
static int bc_vm_save(const struct bc_vm_opts *o, struct bc_import *ims, unsigned int cnt)
{
	struct bc_store_item *items;
	char path[PATH_MAX], err[1024], shown[BC_STORE_SHOWN_MAX];
	size_t total = 0, n = 0, added = 0, dups = 0;
	int ret;

	for (unsigned int k = 0; k < cnt; k++)
		total += ims[k].cnt;
	if (!total) {
		bc_warn("vm: --save: no run in the guest ended well; nothing was saved");
		return BC_EXIT_FAILED;
	}
	items = calloc(total, sizeof(*items));
	if (!items) {
		bc_warn("vm: --save: out of memory; nothing was saved");
		return BC_EXIT_FAILED;
	}
	for (unsigned int k = 0; k < cnt; k++)
		for (size_t i = 0; i < ims[k].cnt; i++) {
			items[n] = ims[k].items[i];
			if (o->label)
				items[n].label = o->label;
			n++;
		}
	ret = bc_store_path(o->store, path, sizeof(path), err, sizeof(err));
	if (!ret)
		ret = bc_store_save_items(path, items, n, &added, &dups, err, sizeof(err));
	free(items);
	if (ret) {
		bc_warn("vm: --save: %s", err);
		return BC_EXIT_FAILED;
	}
	bc_vm_say("saved %zu entr%s in %s%s", added, added == 1 ? "y" : "ies",
		  bc_store_shown(path, shown, sizeof(shown)),
		  dups ? " (the others were there already)" : "");
	return 0;
}

/* Two kernels: each side's documents pooled over the rounds, compared. */
static int bc_vm_compare(struct bc_vm *vm)
{
	struct bc_cmp_opts co = { .test = BC_CMP_WELCH, .alpha = 0.05, .format = vm->o->format,
				  .kernels_differ = true };
	struct bc_rounds rs[BC_VM_MAX_KERNELS] = { 0 };
	struct bc_cmp_side sides[BC_VM_MAX_KERNELS];
	char names[BC_VM_MAX_KERNELS][PATH_MAX + 200], err[512];
	int ret = 0;

	for (unsigned int k = 0; k < 2 && !ret; k++) {
		for (size_t i = 0; i < vm->docs[k].cnt && !ret; i++)
			if (bc_rounds_add(&rs[k], vm->docs[k].items[i].text, vm->docs[k].items[i].len,
					  err, sizeof(err))) {
				bc_warn("vm: a document of %s: %s", vm->name[k], err);
				ret = BC_EXIT_FAILED;
			}
		if (!ret && bc_rounds_pool(&rs[k])) {
			bc_warn("vm: out of memory");
			ret = BC_EXIT_FAILED;
		}
		bc_vm_fmt(names[k], sizeof(names[k]), "%s %s", k ? "B" : "A", vm->name[k]);
		bc_rounds_side(&rs[k], names[k], &sides[k]);
	}
	if (!ret) {
		if (vm->o->format == BC_FORMAT_TEXT)
			fprintf(bc_stdout(), "A: %s\nB: %s\n%u round%s, each kernel booted once a round%s\n\n",
				vm->name[0], vm->name[1], vm->o->rounds, vm->o->rounds == 1 ? "" : "s",
				strcmp(vm->accel, "TCG") ? "" : ", under TCG: every figure is emulation");
		ret = bc_compare_sides(&co, &sides[0], &sides[1]);
	}
	bc_rounds_free(&rs[0]);
	bc_rounds_free(&rs[1]);
	return ret;
}

static void bc_vm_cleanup(struct bc_vm *vm)
{
	char *argv[] = { (char *)"/bin/rm", (char *)"-rf", vm->work, NULL };

	for (unsigned int k = 0; k < BC_VM_MAX_KERNELS; k++)
		bc_import_free(&vm->docs[k]);
	if (!vm->work_made)
		return;
	if (vm->failed) {
		bc_warn("vm: the guests' consoles and files are kept in %s", vm->work);
		return;
	}
	bc_vm_exec(argv, NULL, 0, NULL, 0, NULL);
}

static int bc_vm_workdir(struct bc_vm *vm)
{
	const char *tmp = getenv("TMPDIR");
	char cmd[PATH_MAX + 16];

	if (vm->o->keep) {
		bc_vm_fmt(cmd, sizeof(cmd), "%s", vm->o->keep);
		/* mkdir -p */
		for (char *p = cmd + 1; *p; p++) {
			if (*p != '/')
				continue;
			*p = '\0';
			mkdir(cmd, 0755);
			*p = '/';
		}
		if (mkdir(cmd, 0755) && errno != EEXIST) {
			bc_warn("vm: --keep '%s': %s; expected a directory that can be made", vm->o->keep,
				strerror(errno));
			return BC_EXIT_USAGE;
		}
		if (!realpath(vm->o->keep, vm->work)) {
			bc_warn("vm: --keep '%s': %s", vm->o->keep, strerror(errno));
			return BC_EXIT_USAGE;
		}
		return 0;
	}
	bc_vm_fmt(vm->work, sizeof(vm->work), "%s/benchcore-vm.XXXXXX",
		 tmp && tmp[0] == '/' ? tmp : "/tmp");
	if (!mkdtemp(vm->work)) {
		bc_warn("vm: cannot make a work directory in %s: %s", tmp ? tmp : "/tmp", strerror(errno));
		return BC_EXIT_FAILED;
	}
	vm->work_made = true;
	return 0;
}

static int bc_vm_collect_main(const struct bc_vm_opts *o)
{
	struct bc_import im = { 0 };
	char line[PATH_MAX + 16];
	int rc = 0, ret;

	struct stat st;

	if (stat(o->collect, &st) || !S_ISDIR(st.st_mode)) {
		bc_warn("vm: --collect '%s': %s; expected the directory a guest's run wrote (RUNDIR/out)",
			o->collect, errno ? strerror(errno) : "not a directory");
		return BC_EXIT_USAGE;
	}
	if (bc_vm_read_line(o->collect, "refused", line, sizeof(line))) {
		bc_warn("vm: %s: the kernel cannot run benchmarks: %s", o->collect, line);
		return BC_EXIT_USAGE;
	}
	bc_vm_fmt(line, sizeof(line), "%.4000s/done", o->collect);
	if (!bc_vm_is_file(line)) {
		bc_warn("vm: --collect '%s': the guest's run did not finish (no done file); nothing is saved",
			o->collect);
		return BC_EXIT_FAILED;
	}
	ret = bc_vm_collect_out(o->collect, true, &im, &rc);
	if (!ret && o->save && (im.cnt || !rc))
		ret = bc_vm_save(o, &im, 1);
	bc_import_free(&im);
	return ret ? ret : rc;
}

int bc_vm_main(struct bc_cli_env *env, int argc, char **argv)
{
	struct bc_vm_opts o;
	struct bc_vm *vm;
	bool help;
	int ret, cmd_rc = 0;
	char mem[32], cpus[16];

	ret = bc_vm_parse(argc, argv, &o, &help);
	if (help) {
		bc_vm_help(bc_stdout());
		return BC_EXIT_OK;
	}
	if (ret)
		return ret;
	bc_vm_quiet = env->verbosity < 0;
	if (o.collect)
		return bc_vm_collect_main(&o);
	vm = calloc(1, sizeof(*vm));
	if (!vm) {
		bc_warn("vm: out of memory");
		return BC_EXIT_FAILED;
	}
	vm->o = &o;
	vm->env = env;
	if (bc_vm_libexec(vm->libexec, sizeof(vm->libexec))) {
		free(vm);
		return BC_EXIT_FAILED;
	}
	ret = bc_vm_workdir(vm);
	if (ret) {
		free(vm);
		return ret;
	}
	/* boot.sh's guest: the size asked for */
	bc_vm_fmt(mem, sizeof(mem), "%s", o.memory);
	bc_vm_fmt(cpus, sizeof(cpus), "%u", o.cpus);
	setenv("BENCHCORE_VM_MEM", mem, 1);
	setenv("BENCHCORE_VM_CPUS", cpus, 1);
	for (unsigned int k = 0; k < o.kernel_cnt && !ret; k++)
		ret = bc_vm_prepare(vm, k);
	if (!ret)
		ret = bc_vm_choose_accel(vm);
	/* Round by round, the order flipped each round (as parity does), so
	 * that a drift of the machine lands on both kernels alike. */
	for (unsigned int r = 0; !ret && r < o.rounds; r++) {
		for (unsigned int j = 0; !ret && j < o.kernel_cnt; j++) {
			unsigned int k = o.kernel_cnt == 2 && (r & 1) ? 1 - j : j;

			ret = bc_vm_boot(vm, k, r, &cmd_rc);
			if (!ret && cmd_rc && o.kernel_cnt == 2) {
				bc_warn("vm: %s: the guest's command ended with exit status %d in round %u; nothing is compared or saved (its output: %s/run-%u-%u/out)",
					vm->name[k], cmd_rc, r + 1, vm->work, r + 1, k + 1);
				vm->failed = true;
				ret = cmd_rc;
			}
		}
	}
	if (ret) {
		vm->failed = true;
		bc_vm_cleanup(vm);
		free(vm);
		return ret;
	}
	if (o.kernel_cnt == 1 && strcmp(vm->accel, "TCG") == 0)
		bc_vm_say("%s: %s", vm->name[0], BC_ACCEL_EMULATION_NOTE);
	if (o.kernel_cnt == 2)
		ret = bc_vm_compare(vm);
	/* The guests finished: what ended well is saved, as `suite --save`
	 * saves the rows that ended well whatever the others did. */
	if (o.save && (vm->docs[0].cnt || !cmd_rc)) {
		int s = bc_vm_save(&o, vm->docs, o.kernel_cnt);

		if (s && !ret)
			ret = s;
	}
	if (!ret && o.kernel_cnt == 1)
		ret = cmd_rc;
	bc_vm_cleanup(vm);
	free(vm);
	return ret;
}
