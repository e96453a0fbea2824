/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What `benchcore vm --kernel X` was given (vm_image.c): a bzImage or a
 * vmlinuz, a kernel build tree, an unpacked kernel package, or a .deb;
 * and, for each, the image to boot, its release, modules and config. A
 * path that is none of these is one line naming it and the cause, before
 * anything boots. vm/boot.sh's prepare does the rest with what this finds.
 */
#ifndef BENCHCORE_VM_IMAGE_H
#define BENCHCORE_VM_IMAGE_H

#include <limits.h>
#include <stddef.h>

enum bc_vm_kind {
	BC_VM_BZIMAGE,		/* a bzImage or vmlinuz file */
	BC_VM_BUILD_TREE,	/* a tree `make` built: arch/x86/boot/bzImage */
	BC_VM_PACKAGE_TREE,	/* an unpacked package: boot/vmlinuz-RELEASE */
	BC_VM_DEB,		/* a kernel package file */
};

struct bc_vm_image {
	enum bc_vm_kind kind;
	char path[PATH_MAX];		/* as given */
	char image[PATH_MAX];		/* the bzImage to boot; "" for a .deb */
	char release[128];		/* "" unknown (a .deb: its package says) */
	char modules[PATH_MAX];		/* lib/modules/RELEASE to load from; "" none */
	char config[PATH_MAX];		/* the kernel's config; "" unknown */
};

/* "bzImage", "build tree", "package tree", ".deb" */
const char *bc_vm_kind_name(enum bc_vm_kind kind);

/*
 * Finds what path is. modules: --modules DIR for this kernel (NULL: the
 * image's own, where its layout has them: DIR/../lib/modules/RELEASE for
 * DIR/vmlinuz-RELEASE, then /lib/modules/RELEASE). 0, or -EINVAL with one
 * line in err ("--kernel 'x': not a kernel image (...); expected ...").
 */
int bc_vm_image_detect(const char *path, const char *modules, struct bc_vm_image *img,
		       char *err, size_t err_len);

/*
 * The release a bzImage's x86 boot header names (its kernel_version
 * string, "6.1.0-57-amd64 (debian-kernel@...) #1 SMP ..."'s first word).
 * 0; -ENOEXEC with why in err when the file is no bzImage (its cause: an
 * ELF vmlinux, an arm64 Image, no boot header); -errno when unreadable.
 */
int bc_vm_bzimage_release(const char *file, char *release, size_t len, char *err,
			  size_t err_len);

#endif /* BENCHCORE_VM_IMAGE_H */
