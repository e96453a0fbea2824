// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The one leveled logger of the core and the plugins. Everything goes to
 * stderr so that stdout stays clean for machine output (JSON documents).
 * libbpf's own messages are routed through it, so that -v widens both.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "log.h"
#include "prog_facts.h"

/* -1 quiet (warnings only), 0 normal (warnings + info), 1+ verbose (debug). */
static int bc_log_verbosity;
static FILE *bc_log_file;

static bool bc_log_enabled(enum bc_log_level level)
{
	switch (level) {
	case BC_LOG_WARN:
		return true;
	case BC_LOG_INFO:
		return bc_log_verbosity >= 0;
	case BC_LOG_DEBUG:
	default:
		return bc_log_verbosity >= 1;
	}
}

/*
 * Formats the whole line first and writes it with one call, so that lines
 * from producer/consumer threads and libbpf do not interleave mid-line.
 */
static void bc_log_write(const char *prefix, const char *fmt, va_list ap)
{
	char line[2048];
	size_t len;
	int n;

	n = snprintf(line, sizeof(line), "%s", prefix);
	if (n < 0)
		return;
	len = (size_t)n;
	n = vsnprintf(line + len, sizeof(line) - len, fmt, ap);
	if (n < 0)
		return;
	len = strlen(line);
	if (len == 0 || line[len - 1] != '\n') {
		if (len + 1 >= sizeof(line))
			len = sizeof(line) - 2;
		line[len++] = '\n';
		line[len] = '\0';
	}
	fputs(line, bc_log_file ? bc_log_file : stderr);
}

void bc_log(enum bc_log_level level, const char *fmt, ...)
{
	va_list ap;

	if (!bc_log_enabled(level))
		return;
	va_start(ap, fmt);
	/* Info lines are progress for people; warnings and debug lines say
	 * who is speaking, as they may interleave with other tools' output. */
	bc_log_write(level == BC_LOG_INFO ? "" : "benchcore: ", fmt, ap);
	va_end(ap);
}

void bc_vlog_prefixed(enum bc_log_level level, const char *prefix, const char *fmt, va_list ap)
{
	if (bc_log_enabled(level))
		bc_log_write(prefix, fmt, ap);
}

static int bc_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	enum bc_log_level ours;

	/* A plugin's own load at log level 4: its statistics are facts of
	 * the run whether or not the line is shown. */
	if (strstr(fmt, "BEGIN PROG LOAD LOG")) {
		char text[8192];
		va_list cp;

		va_copy(cp, ap);
		vsnprintf(text, sizeof(text), fmt, cp);
		va_end(cp);
		bc_prog_facts_libbpf_msg(text);
	}
	switch (level) {
	case LIBBPF_WARN:
		ours = BC_LOG_WARN;
		break;
	case LIBBPF_INFO:
		ours = BC_LOG_INFO;
		break;
	case LIBBPF_DEBUG:
	default:
		ours = BC_LOG_DEBUG;
		break;
	}
	/* -2: a caller that reports the failure in its own words (`list`'s
	 * probes) wants none of libbpf's lines, warnings included. */
	if (!bc_log_enabled(ours) || bc_log_verbosity < -1)
		return 0;
	/* libbpf prefixes its own lines with "libbpf: ". */
	bc_log_write("", fmt, ap);
	return 0;
}

void bc_log_set_verbosity(int verbosity)
{
	bc_log_verbosity = verbosity;
	libbpf_set_print(bc_libbpf_print);
}

int bc_log_verbosity_get(void)
{
	return bc_log_verbosity;
}

void bc_log_set_file(FILE *f)
{
	bc_log_file = f;
}

void bc_set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}
