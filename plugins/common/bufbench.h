/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the ring-buffer (ringbuf) and perf-buffer (perfbuf) plugins share:
 * the options, which the kernel runner's scripts pass with the same names to
 * rb- and pb- benchmarks so that their numbers compare; the validation of
 * those options; and the getpgid-triggered producer's attach candidates.
 * One static library linked into both plugins, so the two cannot drift.
 *
 * Each plugin .so gets its own copy (hidden symbols), and one process runs
 * one benchmark, so plugin-global option storage is fine.
 */
#ifndef BENCHCORE_BUFBENCH_H
#define BENCHCORE_BUFBENCH_H

#include <argp.h>
#include <stdbool.h>
#include <stddef.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

#define BC_BUF_BATCH_DEF 500
/* The BPF loop is verified iteration by iteration: 5000 records with
 * --rb-use-output --rb-sampled exceed the verifier's budget on 6.18. */
#define BC_BUF_BATCH_MAX 4000
#define BC_BUF_RATE_DEF 500
#define BC_BUF_RATE_MAX 1000000
#define BC_BUF_RB_SIZE_DEF (512u * 1024)
#define BC_BUF_RB_SIZE_MAX (1ull << 30)
#define BC_BUF_PB_PAGES_DEF 128
#define BC_BUF_PB_PAGES_MAX (1u << 16)
/* A record's 8 bytes of data plus the ring buffer's 8-byte header: the
 * kernel runner's unit for --rb-sampled (wake up once rate*16 bytes wait). */
#define BC_BUF_RB_RECORD_BYTES 16

enum bc_buf_opt_key {
	BC_BUF_OPT_B2B = 0x4200,
	BC_BUF_OPT_USE_OUTPUT,
	BC_BUF_OPT_BATCH_CNT,
	BC_BUF_OPT_SAMPLED,
	BC_BUF_OPT_SAMPLE_RATE,
	BC_BUF_OPT_RB_SIZE,
	BC_BUF_OPT_PB_SIZE,
};

struct bc_buf_opts {
	bool b2b;			/* --rb-b2b */
	bool use_output;		/* --rb-use-output (ringbuf only) */
	bool sampled;			/* --rb-sampled */
	unsigned int batch_cnt;		/* --rb-batch-cnt: records per syscall */
	unsigned int sample_rate;	/* --rb-sample-rate */
	unsigned long long rb_size;	/* --rb-size: bytes */
	unsigned int pb_pages;		/* --pb-size: pages per CPU */
	bool rb_size_set, pb_size_set;
	/* The first bad value, as a one-line message: argp parsers must not
	 * exit, so validate() reports it (exit status 2). */
	char error[256];
};

enum bc_buf_kind {
	BC_BUF_RINGBUF,
	BC_BUF_PERFBUF,
};

/* The options of the current run, filled by bc_buf_argp. */
extern struct bc_buf_opts bc_buf_opts;
extern const struct argp bc_buf_argp;

void bc_buf_opts_defaults(struct bc_buf_opts *o);
/* Parses one option into o: 0, or -EINVAL with o->error set (the first
 * error is kept), or -ENOENT for a key that is not ours. */
int bc_buf_opts_set(struct bc_buf_opts *o, int key, const char *arg);
/* Checks o against the run (thread counts) for a ringbuf or perfbuf bench;
 * reports with bc_usage_error(). */
int bc_buf_validate(struct bc_ctx *ctx, const struct bc_buf_opts *o, enum bc_buf_kind kind);

/*
 * The producer's attach candidates, in order, for BPF objects that name
 * their programs bench_fentry, bench_tp and bench_raw_tp (see
 * plugins/ringbuf/ringbuf.bpf.c). bench_fentry needs
 * bpf_program__set_attach_target(prog, 0, bc_buf_fentry_target()).
 */
#define BC_BUF_ATTACH_CNT 3
extern const struct bc_attach_point bc_buf_attach_points[BC_BUF_ATTACH_CNT];
/* "__x64_sys_getpgid" on x86-64: the syscall's entry symbol on this arch. */
const char *bc_buf_fentry_target(void);
/* The getpgid syscall number, for the raw_tp/sys_enter filter. */
long bc_buf_getpgid_nr(void);

/* One producer batch: the syscall the BPF program hangs off. */
void bc_buf_trigger_batch(void);

#endif /* BENCHCORE_BUFBENCH_H */
