// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The batched driver of trig-tp, trig-rawtp and trig-fmodret (see
 * bc_trigger_tp_driver.bpf.h): it fires the tracepoint
 * bpf_test_run:bpf_trigger_tp, where trig_tp and trig_rawtp sit, and its
 * kfunc is trig_fmodret's target. An object of its own, apart from
 * trigger.bpf.c, for the reason that header gives: an extern there would
 * keep every trigger program from loading without CAP_SYS_ADMIN on
 * kernels before 6.10, the getpgid()-driven ones that need no kfunc
 * included.
 */
#include "benchcore.bpf.h"
#include "bc_trigger_tp_driver.bpf.h"

BC_TRIGGER_TP_DRIVER(trig_driver_kfunc)
