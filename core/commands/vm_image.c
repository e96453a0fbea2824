// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --kernel's argument, told apart by its bytes and its layout, never by
 * its name: a bzImage is what x86's boot protocol says it is (0xAA55 at
 * 0x1fe, "HdrS" at 0x202, and a version string the setup header points
 * at), a .deb is an ar archive whose first member is debian-binary, a
 * build tree has arch/x86/boot/bzImage, an unpacked package boot/vmlinuz-*.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm_image.h"

#define BC_BOOT_FLAG_OFF 0x1fe
#define BC_HDRS_OFF 0x202
#define BC_VERSION_PTR_OFF 0x20e
#define BC_ARM64_MAGIC_OFF 0x38

static const char bc_expected[] =
	"expected a bzImage or vmlinuz, a kernel build tree, an unpacked kernel package or a .deb";

/* snprintf for paths and messages that a long path may cut: cut, never
 * overrun (the callers check what they need to exist). */
static void bc_fmt(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void bc_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

const char *bc_vm_kind_name(enum bc_vm_kind kind)
{
	switch (kind) {
	case BC_VM_BZIMAGE:
		return "bzImage";
	case BC_VM_BUILD_TREE:
		return "build tree";
	case BC_VM_PACKAGE_TREE:
		return "package tree";
	default:
		return ".deb";
	}
}

static bool bc_is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static bool bc_is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* Reads len bytes at off; false when the file is shorter. */
static bool bc_pread_all(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	return n >= 0 && (size_t)n == len;
}

int bc_vm_bzimage_release(const char *file, char *release, size_t len, char *err,
			  size_t err_len)
{
	unsigned char head[0x240];
	char version[256];
	uint16_t ptr;
	int fd, ret = -ENOEXEC;
	ssize_t n;

	release[0] = '\0';
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		bc_fmt(err, err_len, "%s", strerror(errno));
		return ret;
	}
	n = pread(fd, head, sizeof(head), 0);
	if (n < 0) {
		ret = -errno;
		bc_fmt(err, err_len, "%s", strerror(errno));
		goto out;
	}
	if (n >= 4 && !memcmp(head, "\177ELF", 4)) {
		bc_fmt(err, err_len,
			 "an ELF file (an uncompressed vmlinux?), not a bootable image; expected the bzImage `make` leaves in arch/x86/boot, or a /boot/vmlinuz-*");
		goto out;
	}
	if (n >= BC_ARM64_MAGIC_OFF + 4 && !memcmp(head + BC_ARM64_MAGIC_OFF, "ARM\x64", 4)) {
		bc_fmt(err, err_len, "an arm64 kernel Image; benchcore vm boots x86-64 kernels");
		goto out;
	}
	if ((size_t)n < sizeof(head) || head[BC_BOOT_FLAG_OFF] != 0x55 ||
	    head[BC_BOOT_FLAG_OFF + 1] != 0xaa || memcmp(head + BC_HDRS_OFF, "HdrS", 4)) {
		bc_fmt(err, err_len, "not a kernel image (no x86 boot header: 'HdrS' at offset 0x202); %s",
			 bc_expected);
		goto out;
	}
	/* The setup header's kernel_version: an offset from 0x200. */
	ptr = (uint16_t)(head[BC_VERSION_PTR_OFF] | head[BC_VERSION_PTR_OFF + 1] << 8);
	memset(version, 0, sizeof(version));
	if (!ptr || !bc_pread_all(fd, version, sizeof(version) - 1, 0x200 + ptr) ||
	    !version[0]) {
		/* A valid image that names no version: bootable, release unknown */
		ret = 0;
		goto out;
	}
	version[strcspn(version, " \t\n")] = '\0';
	bc_fmt(release, len, "%s", version);
	ret = 0;
out:
	close(fd);
	return ret;
}

/* A .deb: an ar archive ("!<arch>\n") whose first member is debian-binary. */
static bool bc_is_deb(const char *file)
{
	char head[8 + 16];
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	bool yes;

	if (fd < 0)
		return false;
	yes = bc_pread_all(fd, head, sizeof(head), 0) && !memcmp(head, "!<arch>\n", 8) &&
	      !strncmp(head + 8, "debian-binary", 13);
	close(fd);
	return yes;
}

/* A bzImage's own modules and config, where its layout keeps them: an
 * unpacked package (or /boot) has DIR/vmlinuz-R beside DIR/config-R and
 * DIR/../lib/modules/R; else the host's /lib/modules/R (a kernel
 * installed here). */
static void bc_image_neighbours(struct bc_vm_image *img)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	const char *slash;

	if (!img->release[0])
		return;
	slash = strrchr(img->image, '/');
	if (slash)
		bc_fmt(dir, sizeof(dir), "%.*s", (int)(slash - img->image), img->image);
	else
		bc_fmt(dir, sizeof(dir), ".");
	bc_fmt(path, sizeof(path), "%s/config-%s", dir, img->release);
	if (!img->config[0] && bc_is_file(path))
		bc_fmt(img->config, sizeof(img->config), "%s", path);
	if (img->modules[0])
		return;
	bc_fmt(path, sizeof(path), "%s/../lib/modules/%s", dir, img->release);
	if (!bc_is_dir(path))
		bc_fmt(path, sizeof(path), "%s/../usr/lib/modules/%s", dir, img->release);
	if (!bc_is_dir(path))
		bc_fmt(path, sizeof(path), "/lib/modules/%s", img->release);
	if (bc_is_dir(path) && realpath(path, img->modules) == NULL)
		img->modules[0] = '\0';
}

/* DIR/boot/vmlinuz-*: exactly one, or a line saying why not. */
static int bc_package_tree(const char *dir, struct bc_vm_image *img, char *err, size_t err_len)
{
	char boot[PATH_MAX], first[256] = "";
	struct dirent *e;
	size_t cnt = 0;
	DIR *d;

	bc_fmt(boot, sizeof(boot), "%s/boot", dir);
	d = opendir(boot);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "vmlinuz-", 8))
			continue;
		if (!cnt++)
			bc_fmt(first, sizeof(first), "%s", e->d_name);
	}
	closedir(d);
	if (!cnt)
		return 0;
	if (cnt > 1) {
		bc_fmt(err, err_len,
			 "--kernel '%s': %zu kernels in its boot/ (%s, ...); name one: --kernel %s/boot/vmlinuz-RELEASE",
			 img->path, cnt, first, dir);
		return -EINVAL;
	}
	img->kind = BC_VM_PACKAGE_TREE;
	bc_fmt(img->image, sizeof(img->image), "%s/%s", boot, first);
	return 1;
}

static int bc_detect_dir(const char *dir, struct bc_vm_image *img, char *err, size_t err_len)
{
	char path[PATH_MAX + 64], why[256];
	FILE *f;
	int ret;

	bc_fmt(path, sizeof(path), "%s/arch/x86/boot/bzImage", dir);
	if (bc_is_file(path)) {
		img->kind = BC_VM_BUILD_TREE;
		bc_fmt(img->image, sizeof(img->image), "%s", path);
		bc_fmt(path, sizeof(path), "%s/include/config/kernel.release", dir);
		f = fopen(path, "re");
		if (f) {
			if (fgets(img->release, sizeof(img->release), f))
				img->release[strcspn(img->release, "\n")] = '\0';
			fclose(f);
		}
		if (!img->release[0] &&
		    bc_vm_bzimage_release(img->image, img->release, sizeof(img->release), why,
					  sizeof(why)))
			img->release[0] = '\0';
		bc_fmt(path, sizeof(path), "%s/.config", dir);
		if (bc_is_file(path))
			bc_fmt(img->config, sizeof(img->config), "%s", path);
		return 0;
	}
	/* A tree that was configured or cloned but not built. */
	bc_fmt(path, sizeof(path), "%s/Kbuild", dir);
	if (bc_is_file(path)) {
		bc_fmt(err, err_len,
			 "--kernel '%s': a kernel build tree without an image (no arch/x86/boot/bzImage); build it first (make -j\"$(nproc)\" bzImage modules)",
			 img->path);
		return -EINVAL;
	}
	ret = bc_package_tree(dir, img, err, err_len);
	if (ret < 0)
		return ret;
	if (ret > 0) {
		if (bc_vm_bzimage_release(img->image, img->release, sizeof(img->release), why,
					  sizeof(why))) {
			bc_fmt(err, err_len, "--kernel '%s': %s: %s", img->path, img->image, why);
			return -EINVAL;
		}
		/* the package's own name says the release */
		if (!img->release[0])
			bc_fmt(img->release, sizeof(img->release), "%s",
				 strrchr(img->image, '/') + 1 + 8);
		bc_image_neighbours(img);
		return 0;
	}
	bc_fmt(err, err_len,
		 "--kernel '%s': a directory that is neither a kernel build tree (no arch/x86/boot/bzImage) nor an unpacked kernel package (no boot/vmlinuz-*); %s",
		 img->path, bc_expected);
	return -EINVAL;
}

int bc_vm_image_detect(const char *path, const char *modules, struct bc_vm_image *img,
		       char *err, size_t err_len)
{
	char why[512];
	struct stat st;
	int ret;

	memset(img, 0, sizeof(*img));
	bc_fmt(img->path, sizeof(img->path), "%s", path);
	if (!*path) {
		bc_fmt(err, err_len, "--kernel '': %s", bc_expected);
		return -EINVAL;
	}
	if (stat(path, &st)) {
		bc_fmt(err, err_len, "--kernel '%s': %s; %s", path, strerror(errno), bc_expected);
		return -EINVAL;
	}
	if (modules) {
		if (!bc_is_dir(modules)) {
			bc_fmt(err, err_len,
				 "--modules '%s': not a directory; expected a kernel's lib/modules/RELEASE",
				 modules);
			return -EINVAL;
		}
		if (!realpath(modules, img->modules)) {
			bc_fmt(err, err_len, "--modules '%s': %s", modules, strerror(errno));
			return -EINVAL;
		}
	}
	if (S_ISDIR(st.st_mode)) {
		ret = bc_detect_dir(path, img, err, err_len);
		if (!ret && modules && img->kind == BC_VM_BUILD_TREE) {
			bc_fmt(err, err_len,
				 "--modules '%s': a build tree's modules are its own; give --modules with a bzImage",
				 modules);
			return -EINVAL;
		}
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		bc_fmt(err, err_len, "--kernel '%s': not a regular file or a directory; %s", path,
			 bc_expected);
		return -EINVAL;
	}
	if (bc_is_deb(path)) {
		if (modules) {
			bc_fmt(err, err_len,
				 "--modules '%s': a .deb brings its own modules; give --modules with a bzImage",
				 modules);
			return -EINVAL;
		}
		img->kind = BC_VM_DEB;
		return 0;
	}
	ret = bc_vm_bzimage_release(path, img->release, sizeof(img->release), why, sizeof(why));
	if (ret) {
		bc_fmt(err, err_len, "--kernel '%s': %s", path, why);
		return -EINVAL;
	}
	img->kind = BC_VM_BZIMAGE;
	bc_fmt(img->image, sizeof(img->image), "%s", path);
	bc_image_neighbours(img);
	return 0;
}
