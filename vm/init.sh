#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The /init of every guest benchcore boots (vm/boot.sh puts it into the
# initramfs with busybox, the kernel's virtio/9p modules and, when known,
# the kernel's config): load the modules, mount the host's root read-only
# and one writable share (both 9p over virtio), chroot into the host root,
# run one command there and power off. `benchcore vm` and the kernel matrix
# (scripts/vmtest.sh) differ only in the command.
#
# The kernel's command line carries: bc_rw=DIR (the writable share,
# mounted at the same path as on the host), bc_cmd=FILE (on the host root:
# "hold DIR" lines, then "arg WORD" lines, the command), benchcore.host=NAME
# (the host's name, the guest's hostname), and bc_probe=1 for the
# accelerator probe, which only has to reach this script, and bc_panic=1
# crashes the kernel on purpose (tests).
#
# Lines the host reads on the console, each once: "benchcore-init: started"
# (the guest ran its init), "benchcore-init: mounting the host root over 9p
# failed", "benchcore-init: mounting the writable share (DIR) failed",
# "benchcore-init: exit status N" (the command ran and ended).
export PATH=/bin
/bin/busybox --install -s /bin
mount -t proc proc /proc
echo "benchcore-init: started"
poweroff() {
	sync
	echo o >/proc/sysrq-trigger
	sleep 30
}
if grep -qw bc_probe=1 /proc/cmdline; then
	poweroff
fi
# A fault on purpose (BENCHCORE_VM_APPEND=bc_panic=1): how the host half
# takes a guest kernel that panics is tested with it.
if grep -qw bc_panic=1 /proc/cmdline; then
	echo c >/proc/sysrq-trigger
fi
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in $(cat /modules/order); do
	insmod "/modules/$m" || echo "benchcore-init: insmod $m failed"
done
# No network manager brings up loopback here: sockmap connects over it.
ip link set lo up || echo "benchcore-init: loopback stays down"
arg() { tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p" | head -n 1; }
rw=$(arg bc_rw)
cmd=$(arg bc_cmd)
name=$(arg benchcore.host)
[ -n "$name" ] && hostname "$name"
r=/newroot
# 6.1's 9p defaults to 8 KiB messages; larger ones make the share usable.
opts=trans=virtio,version=9p2000.L,msize=262144
if ! mount -t 9p -o "$opts,ro" host $r; then
	echo "benchcore-init: mounting the host root over 9p failed"
	poweroff
fi
mount -t proc proc $r/proc
mount -t sysfs sysfs $r/sys
mount -t devtmpfs devtmpfs $r/dev
# What udev and systemd would add: bash's <(...) needs /dev/fd.
ln -s /proc/self/fd $r/dev/fd
mkdir -p $r/dev/shm $r/dev/pts
mount -t tmpfs tmpfs $r/dev/shm
mount -t devpts devpts $r/dev/pts
mount -t tracefs nodev $r/sys/kernel/tracing
mount -t debugfs nodev $r/sys/kernel/debug
mount -t bpf bpffs $r/sys/fs/bpf
# htab-mem reads its map's memory from a memory cgroup of its own.
mount -t cgroup2 none $r/sys/fs/cgroup
# The command, read before /tmp is covered: the file may lie there.
holds=""
set --
if [ -f "$r$cmd" ]; then
	while read -r key val; do
		case $key in
		hold) holds="$holds $val" ;;
		arg) set -- "$@" "$val" ;;
		esac
	done <"$r$cmd"
fi
# The host root is read-only; the tests write lock files in /tmp. A tree
# under /tmp (or /run) would vanish under the tmpfs, so each directory the
# command names is held aside first and bound back on top.
i=0
for d in $holds; do
	case $d in
	/tmp/* | /run/*)
		mkdir -p "/held/$i" && mount -o bind "$r$d" "/held/$i" && echo "$d" >"/held/$i.path"
		i=$((i + 1))
		;;
	esac
done
mount -t tmpfs tmpfs $r/tmp
mount -t tmpfs tmpfs $r/run
for p in /held/*.path; do
	[ -f "$p" ] || continue
	d=$(cat "$p")
	mkdir -p "$r$d" && mount -o bind "${p%.path}" "$r$d"
done
# The kernel's own config where the runtime looks (/boot/config-RELEASE):
# the host's /boot has its own kernels' configs, not this one's.
if [ -f /kconfig ]; then
	mount -t tmpfs tmpfs $r/boot && cp /kconfig "$r/boot/config-$(uname -r)"
fi
mkdir -p "$r$rw" 2>/dev/null
if [ -n "$rw" ] && ! mount -t 9p -o "$opts" rw "$r$rw"; then
	echo "benchcore-init: mounting the writable share ($rw) failed"
	poweroff
fi
if [ "$#" -eq 0 ]; then
	echo "benchcore-init: no command in '$cmd'"
	poweroff
fi
echo "benchcore-init: $(uname -r): shares mounted, running $1"
chroot $r /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp LANG=C.UTF-8 \
	/bin/bash "$@"
echo "benchcore-init: exit status $?"
poweroff
