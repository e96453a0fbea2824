
#include "cli.h"
// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The executable is a thin shell: everything lives in libbenchcore so that
 * plugins and the CLI share one copy of the core. */
int bc_cli_main(int argc, char **argv);

int main(int argc, char **argv)
{
	return bc_cli_main(argc, argv);
}
