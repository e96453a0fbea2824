// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "usdt_note.h"

#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#define BC_NT_STAPSDT 3

struct usdt_elf {
	const unsigned char *p;
	size_t len;
	const Elf64_Ehdr *eh;
};

/* Whether [off, off + n) lies inside the image. */
static int usdt_elf_has(const struct usdt_elf *e, uint64_t off, uint64_t n)
{
	return off <= e->len && n <= e->len - off;
}

static const Elf64_Shdr *usdt_elf_shdr(const struct usdt_elf *e, unsigned int i)
{
	return (const Elf64_Shdr *)(e->p + e->eh->e_shoff + (uint64_t)i * sizeof(Elf64_Shdr));
}

/* The section called `name`, or NULL. */
static const Elf64_Shdr *usdt_elf_section(const struct usdt_elf *e, const char *name)
{
	const Elf64_Shdr *strs;
	size_t nlen = strlen(name);

	if (e->eh->e_shstrndx >= e->eh->e_shnum)
		return NULL;
	strs = usdt_elf_shdr(e, e->eh->e_shstrndx);
	if (!usdt_elf_has(e, strs->sh_offset, strs->sh_size))
		return NULL;
	for (unsigned int i = 0; i < e->eh->e_shnum; i++) {
		const Elf64_Shdr *sh = usdt_elf_shdr(e, i);

		if (sh->sh_name >= strs->sh_size || strs->sh_size - sh->sh_name <= nlen)
			continue;
		if (!memcmp(e->p + strs->sh_offset + sh->sh_name, name, nlen + 1))
			return sh;
	}
	return NULL;
}

/* The file offset a loadable segment maps `addr` from; 0 when none does. */
static unsigned long usdt_elf_addr_to_off(const struct usdt_elf *e, uint64_t addr)
{
	for (unsigned int i = 0; i < e->eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(e->p + e->eh->e_phoff +
							    (uint64_t)i * sizeof(Elf64_Phdr));

		if (ph->p_type == PT_LOAD && addr >= ph->p_vaddr &&
		    addr - ph->p_vaddr < ph->p_filesz)
			return (unsigned long)(addr - ph->p_vaddr + ph->p_offset);
	}
	return 0;
}

/* The NUL-terminated string at *pos within desc[0..end), moving past it. */
static const char *usdt_note_str(const unsigned char *desc, size_t end, size_t *pos)
{
	const char *s = (const char *)desc + *pos;
	const void *nul;

	if (*pos >= end)
		return NULL;
	nul = memchr(s, '\0', end - *pos);
	if (!nul)
		return NULL;
	*pos += (size_t)((const char *)nul - s) + 1;
	return s;
}

int usdt_find(const void *elf, size_t len, const char *provider, const char *name,
		 struct usdt_probe *out)
{
	struct usdt_elf e = { .p = elf, .len = len, .eh = elf };
	const Elf64_Shdr *notes, *base_sh;
	size_t off, end;

	if (!elf || len < sizeof(Elf64_Ehdr) || memcmp(e.p, ELFMAG, SELFMAG) ||
	    e.p[EI_CLASS] != ELFCLASS64 || e.eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    e.eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    !usdt_elf_has(&e, e.eh->e_shoff, (uint64_t)e.eh->e_shnum * sizeof(Elf64_Shdr)) ||
	    !usdt_elf_has(&e, e.eh->e_phoff, (uint64_t)e.eh->e_phnum * sizeof(Elf64_Phdr)))
		return -EINVAL;
	notes = usdt_elf_section(&e, ".note.stapsdt");
	if (!notes)
		return -ENOENT;
	if (notes->sh_type != SHT_NOTE || !usdt_elf_has(&e, notes->sh_offset, notes->sh_size))
		return -EINVAL;
	base_sh = usdt_elf_section(&e, ".stapsdt.base");

	off = notes->sh_offset;
	end = notes->sh_offset + notes->sh_size;
	while (end - off >= sizeof(Elf64_Nhdr)) {
		const Elf64_Nhdr *nh = (const Elf64_Nhdr *)(e.p + off);
		size_t name_at = off + sizeof(*nh);
		size_t desc_at = name_at + ((nh->n_namesz + 3u) & ~3u);
		size_t next = desc_at + ((nh->n_descsz + 3u) & ~3u);
		const unsigned char *desc = e.p + desc_at;
		uint64_t site, base, sema;
		const char *prov, *pname;
		size_t pos = 24;

		if (next > end || next <= off)
			return -EINVAL;
		off = next;
		if (nh->n_type != BC_NT_STAPSDT || nh->n_namesz != sizeof("stapsdt") ||
		    memcmp(e.p + name_at, "stapsdt", sizeof("stapsdt")) || nh->n_descsz < 24)
			continue;
		memcpy(&site, desc, 8);
		memcpy(&base, desc + 8, 8);
		memcpy(&sema, desc + 16, 8);
		prov = usdt_note_str(desc, nh->n_descsz, &pos);
		pname = prov ? usdt_note_str(desc, nh->n_descsz, &pos) : NULL;
		if (!pname)
			return -EINVAL;
		if (strcmp(prov, provider) || strcmp(pname, name))
			continue;
		/* Prelinking moved the object: the base section says by how
		 * much, relative to where the note was written. */
		if (base_sh && base) {
			site += base_sh->sh_addr - base;
			if (sema)
				sema += base_sh->sh_addr - base;
		}
		out->site_off = usdt_elf_addr_to_off(&e, site);
		out->sema_off = sema ? usdt_elf_addr_to_off(&e, sema) : 0;
		if (!out->site_off || (sema && !out->sema_off))
			return -EINVAL;
		return 0;
	}
	return -ENOENT;
}
