/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Helpers shared by the integration tests that run the real benchcore
 * binary and load real BPF: run the binary and capture what it said, skip
 * (77) where BPF cannot run, and count the kernel's loaded programs that
 * belong to the area under test. Failures are cmocka failures.
 */
#ifndef BENCHCORE_TEST_UTIL_H
#define BENCHCORE_TEST_UTIL_H

#include <stdbool.h>
#include <sys/types.h>

#include <bpf/bpf.h>

/* ctest's SKIP_RETURN_CODE (tests/CMakeLists.txt). */
#define BC_TEST_SKIP 77

struct bc_test_run {
	pid_t pid;	/* the child's pid (gone by the time we return) */
	int status;	/* exit status, or 128 + signal */
	char *out;	/* stdout, NUL-terminated */
	char *err;	/* stderr, NUL-terminated */
};

/*
 * Runs `benchcore --plugin-dir <build>/plugins ARGS...` (args NULL-terminated)
 * and waits for it. Output goes to unlinked temporary files, not pipes, so a
 * chatty child never blocks on a full pipe.
 */
void bc_test_run_benchcore(struct bc_test_run *r, const char *const *args);
void bc_test_run_free(struct bc_test_run *r);

/* Everything in fd from offset 0, NUL-terminated; the caller frees it. */
char *bc_test_slurp_fd(int fd);
/* A whole file, NUL-terminated (the caller frees it); NULL with errno set
 * when it cannot be opened. */
char *bc_test_read_file(const char *path);
/* Creates or replaces path with text; any error fails the test. */
void bc_test_write_file(const char *path, const char *text);
/* Copies src to dst with mode 0755 (a plugin the loader will accept into
 * a scratch directory); any error fails the test. */
void bc_test_copy_executable(const char *src, const char *dst);
/*
 * A scratch tree for tests that run the binary on copied plugins:
 * PREFIX-XXXXXX (mode 0755, written to root) holding plugins/ (each of the
 * NULL-terminated plugin files copied in under its own name) and work/,
 * which becomes the current directory. Each buffer holds PATH_MAX bytes.
 * 0, or -1 when a directory cannot be made.
 */
int bc_test_scratch_make(const char *prefix, char *root, char *plugins, char *work,
			 const char *const *plugin_files);
/* A fresh directory BUILD_DIR/tests/NAME-XXXXXX for a test's files (root,
 * of len bytes, gets its path), readable by all (children that drop
 * privileges read it), and BENCHCORE_STORE pointed where nothing can be
 * written, so that nothing the test runs touches the user's own store.
 * 0, or -1 after one line saying what failed (a read-only build tree). */
int bc_test_store_scratch(char *root, size_t len, const char *build_dir, const char *name);
/* Leaves and removes a scratch tree; 0 or -1. */
int bc_test_scratch_remove(const char *root);

/*
 * 0 when this process can load BPF programs against kernel BTF (root, BTF,
 * and a trivial program loads); otherwise prints the reason (why names the
 * test's need) and returns BC_TEST_SKIP for main() to return.
 */
int bc_test_bpf_skip(const char *why);

/*
 * True when BENCHCORE_TEST_SHORT is set (the kernel matrix's emulated
 * guests set it): a case that only re-measures sizes, not kernel paths,
 * prints why it is left out there (the native suite runs it) and the
 * caller skips it. `what` names the case.
 */
bool bc_test_short_skip(const char *what);

/* Is this loaded program one of the area's? (info has no map ids filled) */
typedef bool (*bc_test_prog_filter)(int prog_fd, const struct bpf_prog_info *info,
				    const void *arg);
/* Is this map one that marks a program as the area's? */
typedef bool (*bc_test_map_filter)(int map_fd, const struct bpf_map_info *info,
				   const void *arg);

/*
 * Walks every loaded program (bpf_prog_get_next_id) and returns how many
 * the filter accepts; *total (may be NULL) gets how many could be opened.
 */
unsigned int bc_test_count_progs(bc_test_prog_filter filter, const void *arg,
				 unsigned int *total);

/* The same walk over every map (bpf_map_get_next_id). */
unsigned int bc_test_count_maps(bc_test_map_filter filter, const void *arg,
				unsigned int *total);

/* Does the program use a map the filter accepts? For census filters. */
bool bc_test_prog_has_map(int prog_fd, bc_test_map_filter filter, const void *arg);

/*
 * A dead process's programs are released from deferred kernel work, so one
 * can stay visible for a while after its process exited, longer on a busy
 * machine: takes the ids of the programs the filter accepts now and polls
 * until at most max of those ids are still loaded, for up to
 * BC_TEST_WAIT_PROGS_SEC (backing off from 20 ms to 0.5 s), and returns how
 * many are. Programs loaded after the call (another process's run of the
 * same plugin) are not counted: only a program that was there and never
 * goes away, a real leak, fails the census. *total (may be NULL) gets how
 * many programs the first walk could open.
 */
#define BC_TEST_WAIT_PROGS_SEC 60
unsigned int bc_test_wait_progs(bc_test_prog_filter filter, const void *arg, unsigned int max,
				unsigned int *total);

#endif
