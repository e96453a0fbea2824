// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The driver of the raw_tp candidate (see bc_trigger_tp_driver.bpf.h): it
 * fires the tracepoint bpf_test_run:bpf_trigger_tp, where ps_rawtp sits.
 * An object of its own, apart from private_stack.bpf.c, for the reason
 * that header gives: the fentry candidate (ps_fentry and ps_driver) calls
 * no kfunc and must not fail with it.
 */
#include "benchcore.bpf.h"
#include "bc_trigger_tp_driver.bpf.h"

BC_TRIGGER_TP_DRIVER(ps_driver_kfunc)
