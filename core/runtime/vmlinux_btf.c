// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Names in vmlinux BTF, read the cheapest way the kernel allows. libbpf's
 * btf__load_vmlinux_btf() copies the 5-6 MB file twice and indexes every
 * type before the first lookup: on our 2-CPU VM, where page faults are
 * dear, that one call was half of what `list` cost (about 60 ms of CPU,
 * 300 ms of wall time on a loaded machine), for a dozen lookups. Linux 6.16
 * and later let the file be mapped read-only: the data is then the
 * kernel's own pages, with nothing copied. Older kernels are read once
 * into memory. A lookup walks the type section and compares the names of
 * the kind asked for only. A BTF this walker cannot read (the other byte
 * order, a kind newer than it knows) goes to libbpf's parser instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/btf.h>

#include "vmlinux_btf.h"
#include "log.h"

#define BC_VMLINUX_BTF_PATH "/sys/kernel/btf/vmlinux"
/* Lookups remembered, by kind and name: a `list` asks about a dozen. */
#define BC_BTF_MEMO_MAX 64

static pthread_mutex_t bc_kbtf_lock = PTHREAD_MUTEX_INITIALIZER;
static const unsigned char *bc_kbtf_data;	/* the file's bytes */
static size_t bc_kbtf_size;
static bool bc_kbtf_mapped;			/* else malloc'ed */
static struct btf *bc_kbtf_libbpf;		/* when the walker cannot read it */
static int bc_kbtf_err;				/* 0: not read yet */

static struct {
	int kind;
	int id;
	char name[96];
} bc_kbtf_memo[BC_BTF_MEMO_MAX];
static size_t bc_kbtf_memo_cnt;

void bc_vmlinux_btf_release(void)
{
	pthread_mutex_lock(&bc_kbtf_lock);
	if (bc_kbtf_mapped)
		munmap((void *)bc_kbtf_data, bc_kbtf_size);
	else
		free((void *)bc_kbtf_data);
	btf__free(bc_kbtf_libbpf);
	bc_kbtf_data = NULL;
	bc_kbtf_size = 0;
	bc_kbtf_mapped = false;
	bc_kbtf_libbpf = NULL;
	bc_kbtf_err = 0;
	bc_kbtf_memo_cnt = 0;
	pthread_mutex_unlock(&bc_kbtf_lock);
}

__attribute__((destructor)) static void bc_vmlinux_btf_fini(void)
{
	bc_vmlinux_btf_release();
}

/* sysfs hands a binary file out a page per read(). */
static unsigned char *bc_kbtf_read_all(int fd, size_t size)
{
	unsigned char *buf = malloc(size);
	size_t got = 0;
	ssize_t n;

	if (!buf)
		return NULL;
	while (got < size) {
		n = read(fd, buf + got, size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			free(buf);
			return NULL;
		}
		got += (size_t)n;
	}
	return buf;
}

/* Can the walker read it: our byte order, version 1, sections inside the
 * file, 4-byte aligned types, a string section that ends in NUL? */
static bool bc_kbtf_walkable(const unsigned char *data, size_t size)
{
	const struct btf_header *h = (const void *)data;
	uint64_t body;

	if (size < sizeof(*h) || h->magic != BTF_MAGIC || h->version != BTF_VERSION ||
	    h->hdr_len < sizeof(*h) || h->hdr_len > size || h->hdr_len % 4)
		return false;
	body = size - h->hdr_len;
	return (uint64_t)h->type_off + h->type_len <= body && h->type_off % 4 == 0 &&
	       (uint64_t)h->str_off + h->str_len <= body && h->str_len > 0 &&
	       data[h->hdr_len + h->str_off + h->str_len - 1] == '\0';
}

/* libbpf's warnings are its business here: debug (-v). */
static int bc_kbtf_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[512];
	size_t len;

	(void)level;
	vsnprintf(line, sizeof(line), fmt, ap);
	len = strlen(line);
	if (len && line[len - 1] == '\n')
		line[len - 1] = '\0';
	bc_debug("%s", line);
	return 0;
}

static int bc_kbtf_use_libbpf(void)
{
	libbpf_print_fn_t old = libbpf_set_print(bc_kbtf_libbpf_print);

	bc_kbtf_libbpf = btf__load_vmlinux_btf();
	libbpf_set_print(old);
	if (!bc_kbtf_libbpf)
		return bc_kbtf_err = errno ? -errno : -EINVAL;
	return 0;
}

/* With the lock held: 0 once the BTF is there to look in. */
static int bc_kbtf_load_locked(void)
{
	struct stat st;
	void *map;
	int fd, err;

	if (bc_kbtf_data || bc_kbtf_libbpf)
		return 0;
	if (bc_kbtf_err)
		return bc_kbtf_err;
	fd = open(BC_VMLINUX_BTF_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bc_kbtf_err = errno == ENOENT ? -ENODATA : -errno;
	if (fstat(fd, &st) || st.st_size <= 0) {
		err = errno ? -errno : -ENODATA;
		close(fd);
		return bc_kbtf_err = err;
	}
	bc_kbtf_size = (size_t)st.st_size;
	map = mmap(NULL, bc_kbtf_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map != MAP_FAILED) {
		bc_kbtf_data = map;
		bc_kbtf_mapped = true;
	} else {
		bc_kbtf_data = bc_kbtf_read_all(fd, bc_kbtf_size);
	}
	err = errno;
	close(fd);
	if (!bc_kbtf_data)
		return bc_kbtf_err = err ? -err : -ENOMEM;
	if (bc_kbtf_walkable(bc_kbtf_data, bc_kbtf_size))
		return 0;
	/* Not for the walker: libbpf's parser reads what it can. */
	if (bc_kbtf_mapped)
		munmap(map, bc_kbtf_size);
	else
		free((void *)bc_kbtf_data);
	bc_kbtf_data = NULL;
	bc_kbtf_mapped = false;
	return bc_kbtf_use_libbpf();
}

/* Kind 0: a named type, not a function, variable or section. */
static bool bc_kbtf_kind_matches(unsigned int have, int want)
{
	if (want)
		return have == (unsigned int)want;
	return have != BTF_KIND_FUNC && have != BTF_KIND_VAR && have != BTF_KIND_DATASEC &&
	       have != BTF_KIND_DECL_TAG && have != BTF_KIND_FUNC_PROTO;
}

/* What follows a struct btf_type of this kind, or -1 for a kind newer than
 * this walker. */
static long bc_kbtf_extra(unsigned int kind, unsigned int vlen)
{
	switch (kind) {
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return (long)sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return (long)(vlen * sizeof(struct btf_member));
	case BTF_KIND_ENUM:
		return (long)(vlen * sizeof(struct btf_enum));
	case BTF_KIND_ENUM64:
		return (long)(vlen * sizeof(struct btf_enum64));
	case BTF_KIND_FUNC_PROTO:
		return (long)(vlen * sizeof(struct btf_param));
	case BTF_KIND_DATASEC:
		return (long)(vlen * sizeof(struct btf_var_secinfo));
	}
	return -1;
}

int bc_btf_walk(const void *data, size_t size, const char *name, int kind)
{
	const struct btf_header *h = data;
	const unsigned char *p, *end;
	const char *strs;
	int id = 1;

	if (!bc_kbtf_walkable(data, size))
		return -EPROTO;
	p = (const unsigned char *)data + h->hdr_len + h->type_off;
	end = p + h->type_len;
	strs = (const char *)data + h->hdr_len + h->str_off;

	while ((size_t)(end - p) >= sizeof(struct btf_type)) {
		const struct btf_type *t = (const void *)p;
		unsigned int k = BTF_INFO_KIND(t->info);
		long extra = bc_kbtf_extra(k, BTF_INFO_VLEN(t->info));

		if (extra < 0 || (size_t)(end - p) < sizeof(*t) + (size_t)extra)
			return -EPROTO;
		if (t->name_off && t->name_off < h->str_len && bc_kbtf_kind_matches(k, kind) &&
		    !strcmp(strs + t->name_off, name))
			return id;
		p += sizeof(*t) + (size_t)extra;
		id++;
	}
	return -ENOENT;
}

static int bc_kbtf_find_locked(const char *name, int kind)
{
	int id, err;

	err = bc_kbtf_load_locked();
	if (err)
		return err;
	if (bc_kbtf_data) {
		id = bc_btf_walk(bc_kbtf_data, bc_kbtf_size, name, kind);
		if (id != -EPROTO)
			return id;
		/* A kind this walker does not know: from now on, libbpf's. */
		if (bc_kbtf_mapped)
			munmap((void *)bc_kbtf_data, bc_kbtf_size);
		else
			free((void *)bc_kbtf_data);
		bc_kbtf_data = NULL;
		bc_kbtf_mapped = false;
		err = bc_kbtf_use_libbpf();
		if (err)
			return err;
	}
	id = kind ? btf__find_by_name_kind(bc_kbtf_libbpf, name, kind) :
		    btf__find_by_name(bc_kbtf_libbpf, name);
	return id > 0 ? id : -ENOENT;
}

int bc_vmlinux_btf_id(const char *name, int kind)
{
	size_t i;
	int id;

	if (!name || !name[0])
		return -EINVAL;
	pthread_mutex_lock(&bc_kbtf_lock);
	for (i = 0; i < bc_kbtf_memo_cnt; i++) {
		if (bc_kbtf_memo[i].kind == kind && !strcmp(bc_kbtf_memo[i].name, name)) {
			id = bc_kbtf_memo[i].id;
			pthread_mutex_unlock(&bc_kbtf_lock);
			return id;
		}
	}
	id = bc_kbtf_find_locked(name, kind);
	if (bc_kbtf_memo_cnt < BC_BTF_MEMO_MAX && strlen(name) < sizeof(bc_kbtf_memo[0].name)) {
		bc_kbtf_memo[bc_kbtf_memo_cnt].kind = kind;
		bc_kbtf_memo[bc_kbtf_memo_cnt].id = id;
		snprintf(bc_kbtf_memo[bc_kbtf_memo_cnt].name, sizeof(bc_kbtf_memo[0].name), "%s",
			 name);
		bc_kbtf_memo_cnt++;
	}
	pthread_mutex_unlock(&bc_kbtf_lock);
	return id;
}
