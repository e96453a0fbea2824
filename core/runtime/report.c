// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A run's report as the command line drives it, the same for a single run
 * (cmd_run.c) and for --repeat (repeat.c): the progress lines while it
 * measures, and at the end the document or the summary,
 * the line that says why a run did not end well, and the output file,
 * replaced only by a run that measured something.
 */
#include <stdbool.h>
#include <stdio.h>

#include "config.h"
#include "exit_status.h"
#include "loader.h"
#include "output.h"
#include "report.h"
#include "result.h"

void bc_report_progress(const struct bc_run_result *res, size_t iter_idx, void *cookie)
{
	const struct bc_progress *pr = cookie;

	/* -q keeps the attach point in the text report: it says what was
	 * measured. (Progress on stderr is JSON mode's, whose document
	 * names it.) */
	if (pr->quiet) {
		if (iter_idx == 0 && pr->f != stderr)
			bc_report_text_attach_line(pr->f, res);
		fflush(pr->f);
		return;
	}
	bc_report_text_iter(pr->f, res, iter_idx);
	fflush(pr->f);
}

int bc_report_finish(struct bc_out *out, const struct bc_config *cfg, const struct bc_bench *bench,
		     const struct bc_run_result *res, size_t measured)
{
	int status = res->exit_status;
	bool produced;

	if (cfg->format == BC_FORMAT_JSON) {
		/* Always a document, failures included: scripts (and sweeps)
		 * read the status and reason from it. */
		bc_report_warnings(stderr, res);
		bc_report_json(out->f, cfg, res);
	} else if (status == BC_EXIT_OK || (status == BC_EXIT_INTERRUPTED && res->iter_cnt) ||
		   (res->cleanup_failed && measured)) {
		bc_report_text_summary(out->f, res);
	}
	bc_report_reason_line(bench, res);
	/* --output FILE is replaced only by a run that measured something: a
	 * refused, unavailable or failed run keeps the previous results. */
	produced = status == BC_EXIT_OK ||
		   ((status == BC_EXIT_INTERRUPTED || res->cleanup_failed) && measured);
	return bc_out_close(out, produced, status);
}
