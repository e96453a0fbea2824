// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A stand-in for libbenchcore.so.1 to link the abi1_lib fixture against: it
 * gives the fixture its DT_NEEDED entry and is never loaded (see
 * tests/sdk/CMakeLists.txt).
 */
#include <benchcore/benchcore.h>

void bc_log(enum bc_log_level level, const char *fmt, ...)
{
	(void)level;
	(void)fmt;
}
