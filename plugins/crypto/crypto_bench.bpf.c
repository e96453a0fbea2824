// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * crypto-encrypt and crypto-decrypt: a tc program, run by BPF_PROG_TEST_RUN
 * on a buffer of `len` bytes, encrypts (or decrypts) the packet into a
 * global buffer with the BPF crypto kfuncs (Linux 6.10+). The cipher
 * context is made once, by a sleepable syscall program (creating one may
 * sleep), and kept in a map as a kptr for the tc programs to use.
 */
#include "benchcore.bpf.h"

char LICENSE[] SEC("license") = "GPL";	/* the crypto kfuncs are GPL-only */

/* errno values, which vmlinux.h does not carry. */
#define CR_ENOENT 2
#define CR_EINVAL 22

struct bpf_crypto_ctx *bpf_crypto_ctx_create(const struct bpf_crypto_params *params,
					     u32 params__sz, int *err) __ksym __weak;
void bpf_crypto_ctx_release(struct bpf_crypto_ctx *ctx) __ksym __weak;
int bpf_crypto_encrypt(struct bpf_crypto_ctx *ctx, const struct bpf_dynptr *src,
		       const struct bpf_dynptr *dst, const struct bpf_dynptr *siv) __ksym __weak;
int bpf_crypto_decrypt(struct bpf_crypto_ctx *ctx, const struct bpf_dynptr *src,
		       const struct bpf_dynptr *dst, const struct bpf_dynptr *siv) __ksym __weak;
int bpf_dynptr_from_skb(struct __sk_buff *skb, u64 flags, struct bpf_dynptr *ptr) __ksym __weak;

/*
 * The kernel must see ctx as a kptr: BTF type tag "kptr" on the pointer.
 * clang 15+ emits it from this attribute; older clang drops it, and user
 * space adds the tag to the object's BTF before loading (crypto.c).
 */
struct cr_ctx_slot {
	struct bpf_crypto_ctx __attribute__((btf_type_tag("kptr"))) *ctx;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct cr_ctx_slot);
	__uint(max_entries, 1);
} cr_ctx_map SEC(".maps");

/* Set before load. */
const volatile __u32 len = 16;
/* Set before the setup program runs. */
char cipher[128] __attribute__((aligned(8)));
__u8 key[256] __attribute__((aligned(8)));
__u32 key_len;

char dst[256];
int status;			/* the last kfunc's answer */
BC_CPU_SLOTS(hits);		/* encrypt/decrypt calls */
BC_CPU_SLOTS(failures);		/* of which the kfunc refused */

/* Too large for the 512-byte stack, so global. */
static struct bpf_crypto_params params;

SEC("syscall")
int cr_setup(void *args)
{
	struct bpf_crypto_ctx *cctx, *old;
	struct cr_ctx_slot *slot;
	int zero = 0, err = 0;

	status = 0;
	if (!cipher[0] || !key_len || key_len > sizeof(key)) {
		status = -CR_EINVAL;
		return 0;
	}
	__builtin_memcpy(params.type, "skcipher", sizeof("skcipher"));
	__builtin_memcpy(params.algo, cipher, sizeof(cipher));
	__builtin_memcpy(params.key, key, sizeof(key));
	params.key_len = key_len;
	params.authsize = 0;
	cctx = bpf_crypto_ctx_create(&params, sizeof(params), &err);
	if (!cctx) {
		status = err;
		return 0;
	}
	slot = bpf_map_lookup_elem(&cr_ctx_map, &zero);
	if (!slot) {
		bpf_crypto_ctx_release(cctx);
		status = -CR_ENOENT;
		return 0;
	}
	old = bpf_kptr_xchg(&slot->ctx, cctx);
	if (old)
		bpf_crypto_ctx_release(old);
	return 0;
}

static __always_inline int cr_run(struct __sk_buff *skb, bool encrypt)
{
	struct bpf_dynptr psrc, pdst;
	struct bpf_crypto_ctx *cctx;
	struct cr_ctx_slot *slot;
	int zero = 0, ret;

	slot = bpf_map_lookup_elem(&cr_ctx_map, &zero);
	/* Read once: the verifier checks this copy against NULL. */
	cctx = slot ? slot->ctx : NULL;
	if (!cctx) {
		status = -CR_ENOENT;
		return 0;
	}
	bpf_dynptr_from_skb(skb, 0, &psrc);
	bpf_dynptr_from_mem(dst, len, 0, &pdst);
	if (encrypt)
		ret = bpf_crypto_encrypt(cctx, &psrc, &pdst, NULL);
	else
		ret = bpf_crypto_decrypt(cctx, &psrc, &pdst, NULL);
	status = ret;
	bc_slot_add(hits, 1);
	if (ret)
		bc_slot_add(failures, 1);
	return 0;
}

SEC("tc")
int cr_encrypt(struct __sk_buff *skb)
{
	return cr_run(skb, true);
}

SEC("tc")
int cr_decrypt(struct __sk_buff *skb)
{
	return cr_run(skb, false);
}
