/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * ABI 1 transition only: delete this file (and its .c) together with
 * bc_bench_desc.layout, once every in-tree plugin declares metric roles.
 */
#ifndef BENCHCORE_LEGACY_ROLES_H
#define BENCHCORE_LEGACY_ROLES_H

#include "figures.h"

/* For a benchmark none of whose metrics has a role: the roles (and, for
 * the grace-period layout, the ratios and labels) its ABI 1 layout stood
 * for, by metric position, so its lines stay as they were until it is
 * migrated. Returns true when it filled v. */
bool bc_legacy_views(const struct bc_bench *b, struct bc_metric_view *v);

#endif /* BENCHCORE_LEGACY_ROLES_H */
