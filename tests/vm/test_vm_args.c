// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `benchcore vm` without booting anything: what --kernel is, told from
 * its bytes and layout (a bzImage's x86 boot header and the release it
 * names, a .deb's ar header, a build tree with and without its image, an
 * unpacked package with its modules and config), the refusals of what is
 * not a kernel, and vm's own command line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cmd_vm.h"
#include "runtime/exit_status.h"
#include "vm_image.h"

static char root[PATH_MAX];

static void mkdirs(const char *path)
{
	char dir[PATH_MAX * 2];

	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			fail_msg("mkdir %s: %s", dir, strerror(errno));
		*p = '/';
	}
}

/* root/rel with len bytes of data */
static const char *put(const char *rel, const void *data, size_t len)
{
	static char path[PATH_MAX * 2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	mkdirs(path);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	return path;
}

/* A bzImage as x86's boot protocol lays it out: 0xAA55 at 0x1fe, "HdrS"
 * at 0x202, kernel_version pointing (from 0x200) at the version string. */
static const char *put_bzimage(const char *rel, const char *version)
{
	static unsigned char img[0x1000];
	uint16_t ptr = 0x400 - 0x200;

	memset(img, 0, sizeof(img));
	img[0x1fe] = 0x55;
	img[0x1ff] = 0xaa;
	memcpy(img + 0x202, "HdrS", 4);
	img[0x20e] = (uint8_t)ptr;
	img[0x20f] = (uint8_t)(ptr >> 8);
	if (version)
		memcpy(img + 0x400, version, strlen(version));
	return put(rel, img, sizeof(img));
}

/* root/rel; four at a time, for calls that take two */
static const char *at(const char *rel)
{
	static char paths[4][PATH_MAX * 2];
	static unsigned int next;
	char *path = paths[next++ % 4];

	snprintf(path, sizeof(paths[0]), "%s/%s", root, rel);
	return path;
}

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(root, sizeof(root), "%s/bc-vmargs-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) ? -1 : 0;
}

static void test_bzimage(void **state)
{
	struct bc_vm_image img;
	char err[1024], rel[128];

	(void)state;
	put_bzimage("a/bzImage",
		    "6.13.0-rc1-patched (me@box) #3 SMP PREEMPT_DYNAMIC Mon Dec  1 10:00:00 UTC 2026");
	assert_int_equal(bc_vm_bzimage_release(at("a/bzImage"), rel, sizeof(rel), err, sizeof(err)), 0);
	assert_string_equal(rel, "6.13.0-rc1-patched");
	assert_int_equal(bc_vm_image_detect(at("a/bzImage"), NULL, &img, err, sizeof(err)), 0);
	assert_int_equal(img.kind, BC_VM_BZIMAGE);
	assert_string_equal(img.release, "6.13.0-rc1-patched");
	assert_string_equal(img.modules, "");
	/* a header that names no version still boots; its release is unknown */
	put_bzimage("b/bzImage", NULL);
	assert_int_equal(bc_vm_image_detect(at("b/bzImage"), NULL, &img, err, sizeof(err)), 0);
	assert_string_equal(img.release, "");
}

/* A vmlinuz unpacked from a package: its config beside it, its modules
 * in ../lib/modules/RELEASE; --modules wins. */
static void test_vmlinuz_neighbours(void **state)
{
	struct bc_vm_image img;
	char err[1024];

	(void)state;
	put_bzimage("pkg/boot/vmlinuz-6.1.0-57-amd64", "6.1.0-57-amd64 (debian-kernel@lists.debian.org) #1 SMP");
	put("pkg/boot/config-6.1.0-57-amd64", "CONFIG_BPF_SYSCALL=y\n", 21);
	put("pkg/lib/modules/6.1.0-57-amd64/modules.order", "", 0);
	put("other/lib/modules/x/modules.order", "", 0);
	assert_int_equal(bc_vm_image_detect(at("pkg/boot/vmlinuz-6.1.0-57-amd64"), NULL, &img, err,
					    sizeof(err)), 0);
	assert_int_equal(img.kind, BC_VM_BZIMAGE);
	assert_string_equal(img.release, "6.1.0-57-amd64");
	assert_non_null(strstr(img.config, "pkg/boot/config-6.1.0-57-amd64"));
	assert_non_null(strstr(img.modules, "pkg/lib/modules/6.1.0-57-amd64"));
	assert_int_equal(bc_vm_image_detect(at("pkg/boot/vmlinuz-6.1.0-57-amd64"),
					    at("other/lib/modules/x"), &img, err, sizeof(err)), 0);
	assert_non_null(strstr(img.modules, "other/lib/modules/x"));
	/* the unpacked package's root names the same kernel */
	if (bc_vm_image_detect(at("pkg"), NULL, &img, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(img.kind, BC_VM_PACKAGE_TREE);
	assert_string_equal(img.release, "6.1.0-57-amd64");
	assert_non_null(strstr(img.modules, "pkg/lib/modules/6.1.0-57-amd64"));
	/* two kernels in one boot/: name one */
	put_bzimage("pkg/boot/vmlinuz-6.1.0-58-amd64", "6.1.0-58-amd64 #1");
	assert_int_equal(bc_vm_image_detect(at("pkg"), NULL, &img, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "2 kernels in its boot/"));
	/* --modules that is no directory */
	assert_int_equal(bc_vm_image_detect(at("pkg/boot/vmlinuz-6.1.0-57-amd64"), at("nope"), &img,
					    err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--modules '"));
}

static void test_build_tree(void **state)
{
	struct bc_vm_image img;
	char err[1024];

	(void)state;
	/* configured, not built */
	put("linux/Kbuild", "obj-y += init/\n", 15);
	put("linux/.config", "CONFIG_BPF_SYSCALL=y\n", 21);
	assert_int_equal(bc_vm_image_detect(at("linux"), NULL, &img, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "a kernel build tree without an image (no arch/x86/boot/bzImage)"));
	/* built */
	put_bzimage("linux/arch/x86/boot/bzImage", "6.13.0 (me@box) #1");
	put("linux/include/config/kernel.release", "6.13.0-dirty\n", 13);
	assert_int_equal(bc_vm_image_detect(at("linux"), NULL, &img, err, sizeof(err)), 0);
	assert_int_equal(img.kind, BC_VM_BUILD_TREE);
	/* the tree's own word over the header's */
	assert_string_equal(img.release, "6.13.0-dirty");
	assert_non_null(strstr(img.config, "linux/.config"));
	assert_non_null(strstr(img.image, "arch/x86/boot/bzImage"));
	/* a build tree brings its own modules */
	assert_int_equal(bc_vm_image_detect(at("linux"), at("linux"), &img, err, sizeof(err)), -EINVAL);
}

static void test_deb(void **state)
{
	static const char ar[] = "!<arch>\ndebian-binary   1700000000  0     0     100644  4         `\n2.0\n";
	struct bc_vm_image img;
	char err[1024];

	(void)state;
	put("k.deb", ar, sizeof(ar) - 1);
	assert_int_equal(bc_vm_image_detect(at("k.deb"), NULL, &img, err, sizeof(err)), 0);
	assert_int_equal(img.kind, BC_VM_DEB);
	/* whether it holds a kernel is the unpacking's to say (vm/boot.sh);
	 * an ar archive of another kind is no .deb */
	put("lib.a", "!<arch>\nfoo.o/          0           0     0     644     0         `\n", 68);
	assert_int_equal(bc_vm_image_detect(at("lib.a"), NULL, &img, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a kernel image"));
}

/* Each refusal names the path and the cause. */
static void test_not_a_kernel(void **state)
{
	static const char elf[64] = "\177ELF\2\1\1";
	unsigned char arm64[0x80] = { 0 };
	struct bc_vm_image img;
	char err[1024];

	(void)state;
	put("notes.txt", "hello\n", 6);
	assert_int_equal(bc_vm_image_detect(at("notes.txt"), NULL, &img, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "notes.txt': not a kernel image (no x86 boot header"));
	put("empty", "", 0);
	assert_int_equal(bc_vm_image_detect(at("empty"), NULL, &img, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a kernel image"));
	put("vmlinux", elf, sizeof(elf));
	assert_int_equal(bc_vm_image_detect(at("vmlinux"), NULL, &img, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "an ELF file (an uncompressed vmlinux?)"));
	memcpy(arm64 + 0x38, "ARM\x64", 4);
	put("Image", arm64, sizeof(arm64));
	assert_int_equal(bc_vm_image_detect(at("Image"), NULL, &img, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "an arm64 kernel Image"));
	assert_int_equal(bc_vm_image_detect(at("nowhere"), NULL, &img, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "No such file or directory"));
	mkdir(at("plain"), 0755);
	assert_int_equal(bc_vm_image_detect(at("plain"), NULL, &img, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "neither a kernel build tree"));
}

static int parse(struct bc_vm_opts *o, ...)
{
	char *argv[32];
	int argc = 0;
	bool help;
	va_list ap;

	argv[argc++] = (char *)"vm";
	va_start(ap, o);
	for (char *a; (a = va_arg(ap, char *));)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	return bc_vm_parse(argc, argv, o, &help);
}

static void test_args(void **state)
{
	struct bc_vm_opts o;
	char img[PATH_MAX * 2];

	(void)state;
	snprintf(img, sizeof(img), "%s", put_bzimage("args/bzImage", "6.1.0 #1"));
	assert_int_equal(parse(&o, "--kernel", img, "--", "run", "count:count-local", "-d3", NULL), 0);
	assert_int_equal(o.kernel_cnt, 1);
	assert_int_equal(o.rounds, 1);
	assert_int_equal(o.cmd_argc, 3);
	assert_string_equal(o.cmd_argv[0], "run");
	/* no -- needed; two kernels: three rounds unless told */
	assert_int_equal(parse(&o, "--kernel", img, "--kernel", img, "--save", "--label", "p1",
			       "suite", "trigger", NULL), 0);
	assert_int_equal(o.kernel_cnt, 2);
	assert_int_equal(o.rounds, 3);
	assert_true(o.save);
	assert_int_equal(parse(&o, "--kernel", img, "--kernel", img, "--rounds", "2", "--format",
			       "markdown", "run", "x", NULL), 0);
	assert_int_equal(o.rounds, 2);

	/* refusals, each a usage error */
	assert_int_equal(parse(&o, "run", "x", NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--kernel", img, NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--kernel", img, "--kernel", img, "--kernel", img, "run", "x", NULL),
			 BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--modules", "/tmp", "--kernel", img, "run", "x", NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--kernel", img, "list", NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--kernel", img, "run", NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--kernel", img, "run", "x", "--save", NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--kernel", img, "run", "x", "--store=/tmp/s.db", NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--kernel", img, "run", "x", "--against", "b", NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--kernel", img, "run", "x", "--output", "f", NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--kernel", img, "--rounds", "0", "run", "x", NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--kernel", img, "--rounds", "3x", "run", "x", NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--kernel", img, "--accel", "hvf", "run", "x", NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--kernel", img, "--memory", "lots", "run", "x", NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--kernel", img, "--memory", "1536M", "run", "x", NULL), 0);
	assert_int_equal(parse(&o, "--kernel", img, "--cpus", "0", "run", "x", NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--kernel", img, "--label", "x", "run", "x", NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--kernel", img, "--format", "csv", "run", "x", NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--kernel", img, "--bogus", "run", "x", NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--kernel", at("nope"), "run", "x", NULL), BC_EXIT_USAGE);
	/* --collect: the host half alone */
	assert_int_equal(parse(&o, "--collect", "/tmp", "--save", NULL), 0);
	assert_int_equal(parse(&o, "--collect", "/tmp", "--kernel", img, NULL), BC_EXIT_USAGE);
	assert_int_equal(parse(&o, "--collect", "/tmp", "run", "x", NULL), BC_EXIT_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bzimage),
		cmocka_unit_test(test_vmlinuz_neighbours),
		cmocka_unit_test(test_build_tree),
		cmocka_unit_test(test_deb),
		cmocka_unit_test(test_not_a_kernel),
		cmocka_unit_test(test_args),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
