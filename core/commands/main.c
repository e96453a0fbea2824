// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The benchcore executable: the command line (cli.c and the rest of the cli
 * layer) is linked in here; the runtime it drives, and that plugins call,
 * is libbenchcore.so. */
#include "cli.h"

int main(int argc, char **argv)
{
	return bc_cli_main(argc, argv);
}
