// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The crypto plugin: the kernel runner's crypto-encrypt and crypto-decrypt.
 * A tc program, run by BPF_PROG_TEST_RUN 64 times per call on a random
 * --crypto-len byte buffer, encrypts or decrypts it with the BPF crypto
 * kfuncs and a --crypto-cipher skcipher context made once in setup. Hits
 * are kfunc calls, as in the runner; the calls the kfunc refused are
 * counted apart, and setup checks that the first one succeeds.
 *
 * The kfuncs came with Linux 6.10 (and need the kernel's skcipher API): on
 * a kernel without them both benchmarks are unavailable, saying so.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <benchcore/benchcore.h>

#include "crypto_bench.skel.h"

#define CR_MAX_LEN 256		/* the program's output buffer */
#define CR_MAX_CIPHER 32	/* the runner's limit on the cipher name */
#define CR_REPEAT 64		/* program runs per BPF_PROG_TEST_RUN, as the runner */

/* The runner's key: 16 bytes, AES-128. */
static const char cr_key[] = "12345678testtest";

struct cr_opts {
	int64_t len;
	const char *cipher;
};

static const struct bc_option cr_options[] = {
	BC_OPT_INT(struct cr_opts, len, "crypto-len", .def = "16", .min = 1, .max = CR_MAX_LEN,
		   .arg = "BYTES", .help = "bytes encrypted or decrypted per call"),
	BC_OPT_STRING(struct cr_opts, cipher, "crypto-cipher", .def = "ecb(aes)", .arg = "NAME",
		      .help = "the kernel skcipher to use, at most 32 characters"),
};

/* What tells the two benchmarks apart. */
struct cr_variant {
	bool decrypt;
};

struct cr_state {
	struct crypto_bench *skel;
	int prog_fd;
	char *input;
	uint32_t len;
};

static void cr_state_free(struct cr_state *st)
{
	if (!st)
		return;
	crypto_bench__destroy(st->skel);
	free(st->input);
	free(st);
}

static bool cr_kernel_has_kfuncs(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool has;

	if (!btf)
		return false;
	has = btf__find_by_name_kind(btf, "bpf_crypto_ctx_create", BTF_KIND_FUNC) > 0 &&
	      btf__find_by_name_kind(btf, "bpf_dynptr_from_skb", BTF_KIND_FUNC) > 0;
	btf__free(btf);
	return has;
}

/*
 * The kernel takes cr_ctx_slot.ctx for a kptr only when its pointer type
 * carries the BTF type tag "kptr". clang 15+ writes it from the source's
 * attribute; clang 14 drops the attribute, so the tag is added here, in the
 * object's BTF, before libbpf loads it: a new "kptr" tag on struct
 * bpf_crypto_ctx, a new pointer to it, and the member pointed at that.
 */
static int cr_tag_kptr(struct bpf_object *obj)
{
	struct btf *btf = bpf_object__btf(obj);
	const struct btf_type *slot, *ptr, *pointee;
	struct btf_member *m;
	int slot_id, tag_id, ptr_id;
	__u32 target;

	if (!btf)
		return -ENOENT;
	slot_id = btf__find_by_name_kind(btf, "cr_ctx_slot", BTF_KIND_STRUCT);
	if (slot_id < 0)
		return slot_id;
	slot = btf__type_by_id(btf, slot_id);
	ptr = btf__type_by_id(btf, btf_members(slot)[0].type);
	if (!ptr || !btf_is_ptr(ptr))
		return -EINVAL;
	pointee = btf__type_by_id(btf, ptr->type);
	if (pointee && btf_is_type_tag(pointee))
		return 0;	/* the compiler wrote it */
	target = ptr->type;
	tag_id = btf__add_type_tag(btf, "kptr", target);
	if (tag_id < 0)
		return tag_id;
	ptr_id = btf__add_ptr(btf, tag_id);
	if (ptr_id < 0)
		return ptr_id;
	/* btf__add_*() made the type data writable; look the struct up again,
	 * as adding types may have moved it. */
	m = btf_members(btf__type_by_id(btf, slot_id));
	m[0].type = ptr_id;
	return 0;
}

/* Opens, tags and loads the object; on failure nothing stays loaded. */
static int cr_load(struct bc_ctx *ctx, struct cr_state *st, const char *cipher)
{
	int err;

	if (!cr_kernel_has_kfuncs())
		return bc_unavailable(ctx, "this kernel has no BPF crypto kfuncs "
				      "(bpf_crypto_ctx_create and bpf_dynptr_from_skb are not in "
				      "its BTF: they came with Linux 6.10, CONFIG_CRYPTO_SKCIPHER)");
	st->skel = crypto_bench__open();
	if (!st->skel)
		return bc_error(ctx, errno ? -errno : -ENOMEM, "opening the BPF object failed");
	err = cr_tag_kptr(st->skel->obj);
	if (err)
		return bc_error(ctx, err, "tagging the crypto context as a kptr in the object's "
				"BTF failed: %s", bc_strerror(err));
	st->skel->rodata->len = st->len;
	snprintf(st->skel->bss->cipher, sizeof(st->skel->bss->cipher), "%s", cipher);
	memcpy(st->skel->bss->key, cr_key, sizeof(cr_key) - 1);
	st->skel->bss->key_len = sizeof(cr_key) - 1;
	err = crypto_bench__load(st->skel);
	if (err == -EPERM && geteuid() != 0)
		return bc_unavailable(ctx, "needs root (CAP_BPF, CAP_NET_ADMIN) to load BPF "
				      "programs: %s", bc_strerror(err));
	if (err)
		return bc_unavailable(ctx, "the kernel refused the crypto programs: %s",
				      bc_strerror(err));
	return 0;
}

/* Runs the sleepable setup program: it makes the cipher context. */
static int cr_make_context(struct bc_ctx *ctx, struct cr_state *st, const char *cipher)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	int err;

	err = bpf_prog_test_run_opts(bpf_program__fd(st->skel->progs.cr_setup), &opts);
	if (err)
		return bc_unavailable(ctx, "BPF_PROG_TEST_RUN of the syscall program refused: %s",
				      bc_strerror(err));
	/* The kfunc's answer for an algorithm the kernel does not have. */
	if (st->skel->bss->status == -ENOENT || st->skel->bss->status == -EOPNOTSUPP)
		return bc_unavailable(ctx, "this kernel has no skcipher '%s' (%s)", cipher,
				      bc_strerror(st->skel->bss->status));
	if (st->skel->bss->status)
		return bc_error(ctx, st->skel->bss->status, "making a '%s' context failed: %s",
				cipher, bc_strerror(st->skel->bss->status));
	return 0;
}

static int cr_run(struct cr_state *st, int repeat)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = st->input, .data_size_in = st->len,
		    .repeat = repeat);

	return bpf_prog_test_run_opts(st->prog_fd, &opts);
}

static int cr_validate(struct bc_ctx *ctx)
{
	const struct cr_opts *o = bc_ctx_opts(ctx);

	if (!o)
		return 0;
	if (!o->cipher || !o->cipher[0] || strlen(o->cipher) > CR_MAX_CIPHER)
		return bc_usage_error(ctx, "--crypto-cipher '%s': expected a cipher name of 1 to "
				      "%d characters", o->cipher ? o->cipher : "", CR_MAX_CIPHER);
	return 0;
}

/* Whether it loads and makes a context: the default cipher, one block. */
static int cr_probe(struct bc_ctx *ctx)
{
	struct cr_state *st = calloc(1, sizeof(*st));
	libbpf_print_fn_t old = NULL;
	bool quiet = !bc_ctx_verbose(ctx);
	int err;

	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	st->len = 16;
	if (quiet)
		old = libbpf_set_print(NULL);
	err = cr_load(ctx, st, "ecb(aes)");
	if (quiet)
		libbpf_set_print(old);
	if (!err)
		err = cr_make_context(ctx, st, "ecb(aes)");
	cr_state_free(st);
	return err;
}

/* Is the skcipher `name` instantiated (listed in /proc/crypto)? A kernel
 * may have one that nothing has asked for yet: then only making a context
 * tells. */
static bool cr_proc_crypto_lists(const char *name)
{
	char line[256], key[32], val[128], cur[128] = "";
	bool found = false;
	FILE *f;

	f = fopen("/proc/crypto", "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%31s : %127s", key, val) != 2)
			continue;
		if (!strcmp(key, "name"))
			snprintf(cur, sizeof(cur), "%s", val);
		/* lskcipher: how 6.7+ lists a linear one, which the
		 * skcipher API (and so the kfuncs) takes as well. */
		else if (!strcmp(key, "type"))
			found = (!strcmp(val, "skcipher") || !strcmp(val, "lskcipher")) &&
				!strcmp(cur, name);
	}
	fclose(f);
	return found;
}

static const struct bc_need cr_needs[] = {
	BC_NEED(BC_NEED_BTF_FUNC, .name = "bpf_crypto_ctx_create",
		.why = "the BPF crypto kfuncs (Linux 6.10, CONFIG_CRYPTO_SKCIPHER)"),
	BC_NEED(BC_NEED_BTF_FUNC, .name = "bpf_dynptr_from_skb",
		.why = "bpf_dynptr_from_skb() (Linux 6.10)"),
	BC_NEED(BC_NEED_PROG_TYPE, .type = BPF_PROG_TYPE_SCHED_CLS),
	BC_NEED(BC_NEED_PROG_TYPE, .type = BPF_PROG_TYPE_SYSCALL),
};

/* `list`, after the needs: the cipher probe() makes a context of. */
static int cr_quick_probe(struct bc_ctx *ctx)
{
	if (cr_proc_crypto_lists("ecb(aes)"))
		return 0;
	return cr_probe(ctx);
}

static int cr_setup(struct bc_ctx *ctx)
{
	const struct cr_variant *v = bc_ctx_bench_priv(ctx);
	const struct cr_opts *o = bc_ctx_opts(ctx);
	struct cr_state *st;
	uint32_t x = 2463534242u;
	int err;

	st = calloc(1, sizeof(*st));
	if (!st)
		return bc_error(ctx, -ENOMEM, "out of memory");
	bc_ctx_set_data(ctx, st);
	st->len = (uint32_t)o->len;
	st->input = malloc(st->len);
	if (!st->input)
		return bc_error(ctx, -ENOMEM, "out of memory");
	/* Digits, NUL-terminated, as the runner's input; a fixed seed. */
	for (uint32_t i = 0; i + 1 < st->len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		st->input[i] = (char)('1' + x % 9);
	}
	st->input[st->len - 1] = '\0';

	err = cr_load(ctx, st, o->cipher);
	if (!err)
		err = cr_make_context(ctx, st, o->cipher);
	if (err)
		return err;
	st->prog_fd = bpf_program__fd(v->decrypt ? st->skel->progs.cr_decrypt :
						   st->skel->progs.cr_encrypt);
	/* One call first: a length the cipher cannot take is the user's to fix. */
	err = cr_run(st, 1);
	if (err)
		return bc_error(ctx, err, "BPF_PROG_TEST_RUN failed: %s", bc_strerror(err));
	if (st->skel->bss->status)
		return bc_usage_error(ctx, "--crypto-len '%u': %s with '%s' refused it (%s); a "
				      "block cipher mode takes whole blocks", st->len,
				      v->decrypt ? "bpf_crypto_decrypt" : "bpf_crypto_encrypt",
				      o->cipher, bc_strerror(st->skel->bss->status));
	bc_ctx_set_attach_point(ctx, "none: tc program run by BPF_PROG_TEST_RUN");
	/* hits and failures are the core's to read (the metrics' `bpf`): the
	 * call above only moves their baseline. */
	err = bc_ctx_set_bpf_object(ctx, st->skel->obj);
	if (!err)
		err = bc_ctx_add_prog(ctx, st->prog_fd, "measured");
	return err ? bc_error(ctx, err, "declaring the program: %s", bc_strerror(err)) : 0;
}

static void cr_teardown(struct bc_ctx *ctx)
{
	cr_state_free(bc_ctx_data(ctx));
	bc_ctx_set_data(ctx, NULL);
}

static int cr_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct cr_state *st = bc_ctx_data(ctx);
	struct bc_line_counter *runs = bc_thread_counter(ctx, t, "runs");
	int err;

	while (!bc_thread_should_stop(t)) {
		err = cr_run(st, CR_REPEAT);
		if (err)
			return bc_error(ctx, err, "BPF_PROG_TEST_RUN failed: %s", bc_strerror(err));
		bc_counter_add(runs, 1);
	}
	return 0;
}

/* hits: kfunc calls (64 per test run, which the tests check); failures:
 * those the kfunc refused (0 when setup's check passed); drops: none (the
 * runner's line), so no thread counts one. All read by the core. */
static const struct bc_metric_desc cr_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .bpf = "hits"),
	BC_METRIC("drops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_DROPS, .threads = true),
	BC_METRIC("failures", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_AUX,
		  .label = "calls the kfunc refused", .bpf = "failures"),
	BC_METRIC("runs", "runs", BC_METRIC_COUNTER, .role = BC_ROLE_AUX,
		  .label = "BPF_PROG_TEST_RUN calls (64 program runs each)", .threads = true),
};

static const struct cr_variant cr_enc = { .decrypt = false };
static const struct cr_variant cr_dec = { .decrypt = true };

#define CR_BENCH(var_, name_, desc_, priv_)                                      \
	static const struct bc_bench_desc var_ = BC_BENCH(name_, desc_, cr_metrics,    \
		.runner_name = true, .priv = (priv_), .probe = cr_probe,               \
		BC_NEEDS(cr_needs), .quick_probe = cr_quick_probe,                     \
		.validate = cr_validate, .setup = cr_setup, .producer = cr_producer,   \
		.teardown = cr_teardown)

CR_BENCH(b_enc, "crypto-encrypt", "bpf_crypto_encrypt() of --crypto-len bytes from a tc program",
	 &cr_enc);
CR_BENCH(b_dec, "crypto-decrypt", "bpf_crypto_decrypt() of --crypto-len bytes from a tc program",
	 &cr_dec);

BENCHCORE_PLUGIN(.name = "crypto", .version = "1.0",
		 .description = "BPF crypto kfuncs: skcipher encrypt and decrypt from a tc program",
		 BC_OPTIONS(cr_options), .opts_size = sizeof(struct cr_opts),
		 BC_BENCHES(&b_enc, &b_dec));
