// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "trig_kfunc.h"

#include <errno.h>
#include <stdio.h>

#include <bpf/libbpf.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

#include "trig_load.h"
/* After <benchcore/benchcore.h>, as every skeleton of the plugin. */
#include "trig_kfunc.skel.h"

int trig_kfunc_lookup(const char *kfunc, char *why, size_t len)
{
	/* The core's vmlinux BTF lookup: parsed once per process, and the
	 * same answer trig_resolve() chose the driver by. */
	const struct bc_need need = BC_NEED(BC_NEED_BTF_FUNC, .name = kfunc);
	int has = bc_need_probe(&need);

	if (has > 0)
		return 0;
	if (has == 0) {
		snprintf(why, len, "this kernel has no kfunc %s() (vmlinux BTF)", kfunc);
		return -ENOENT;
	}
	snprintf(why, len, "cannot look for kfunc %s() in this kernel's vmlinux BTF: %s", kfunc,
		 bc_strerror(has));
	return has;
}

struct trig_kfunc_request {
	unsigned int batch_iters;
	struct trig_kfunc **out;
};

static int trig_kfunc_open_load(void *arg, bool stats)
{
	struct trig_kfunc_request *req = arg;
	struct trig_kfunc *obj;
	int err;

	obj = trig_kfunc__open();
	if (!obj)
		return errno ? -errno : -ENOMEM;
	obj->rodata->batch_iters = req->batch_iters;
	bpf_program__set_autoload(obj->progs.trig_driver_kfunc, true);
	if (stats)
		trig_ask_verifier_stats(obj->obj);
	err = trig_kfunc__load(obj);
	if (err) {
		trig_kfunc__destroy(obj);
		return err;
	}
	*req->out = obj;
	return 0;
}

int trig_kfunc_load(unsigned int batch_iters, struct trig_kfunc **out)
{
	struct trig_kfunc_request req = { .batch_iters = batch_iters, .out = out };

	*out = NULL;
	return trig_load_stats_first(trig_kfunc_open_load, &req);
}

int trig_kfunc_driver_fd(const struct trig_kfunc *obj)
{
	return bpf_program__fd(obj->progs.trig_driver_kfunc);
}

void trig_kfunc_free(struct trig_kfunc *obj)
{
	trig_kfunc__destroy(obj);
}
