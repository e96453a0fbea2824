/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Finding a USDT probe in an ELF file: what a uprobe needs to sit on it.
 * Plain C over the file's bytes (no libelf, no libbpf), so that the unit
 * tests read it on their own.
 */
#ifndef BENCHCORE_TRIGGER_USDT_NOTE_H
#define BENCHCORE_TRIGGER_USDT_NOTE_H

#include <stddef.h>

struct usdt_probe {
	unsigned long site_off;		/* file offset of the probe site */
	unsigned long sema_off;		/* file offset of its semaphore; 0: none */
};

/*
 * Looks up provider:name in the .note.stapsdt notes of a 64-bit ELF image
 * (elf, len bytes: the file's contents) and turns the note's addresses into
 * file offsets through the program headers (as the kernel's uprobe and
 * reference-counter offsets are). Returns 0, -ENOENT when there is no such
 * probe, or -EINVAL when the image is not a well-formed 64-bit ELF file.
 */
int usdt_find(const void *elf, size_t len, const char *provider, const char *name,
		 struct usdt_probe *out);

#endif /* BENCHCORE_TRIGGER_USDT_NOTE_H */
