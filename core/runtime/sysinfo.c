// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The machine a result was measured on. A number without its context (a VM,
 * two CPUs, another kernel) cannot be compared, so reports carry it.
 */
#include <bpf/libbpf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "sysinfo.h"

/* Copies the value of the first "key<spaces>: value" line of /proc/cpuinfo. */
static bool bc_cpuinfo_field(const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);
	char line[4096];
	bool found = false;
	FILE *f;

	f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *colon, *v;

		if (strncmp(line, key, klen) || (line[klen] != ' ' && line[klen] != '\t' &&
						 line[klen] != ':'))
			continue;
		colon = strchr(line, ':');
		if (!colon)
			continue;
		v = colon + 1;
		v += strspn(v, " \t");
		v[strcspn(v, "\n")] = '\0';
		snprintf(out, len, "%s", v);
		found = true;
		break;
	}
	fclose(f);
	return found;
}

bool bc_sysinfo_hypervisor(void)
{
	char flags[4096];
	const char *p;

	/* x86 lists it in "flags"; other architectures have no such flag and
	 * are reported as bare metal rather than guessed. */
	if (!bc_cpuinfo_field("flags", flags, sizeof(flags)))
		return false;
	for (p = flags; (p = strstr(p, "hypervisor")); p++) {
		bool starts = p == flags || p[-1] == ' ';
		bool ends = p[10] == '\0' || p[10] == ' ';

		if (starts && ends)
			return true;
	}
	return false;
}

/* Made once per process: the crash document written before a run and the
 * report after it name the same run. */
static void bc_sysinfo_run_id(char *buf, size_t len)
{
	static char id[33];
	uint8_t b[16];
	struct timespec ts;

	if (!id[0]) {
		if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
			/* No entropy yet (early boot): time and pid are
			 * unique enough on one machine. */
			clock_gettime(CLOCK_REALTIME, &ts);
			memset(b, 0, sizeof(b));
			memcpy(b, &ts, sizeof(ts) < 12 ? sizeof(ts) : 12);
			b[12] = (uint8_t)getpid();
			b[13] = (uint8_t)(getpid() >> 8);
			b[14] = (uint8_t)(getpid() >> 16);
		}
		for (size_t i = 0; i < sizeof(b); i++)
			snprintf(id + 2 * i, 3, "%02x", b[i]);
	}
	snprintf(buf, len, "%s", id);
}

unsigned int bc_sysinfo_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned int)n : 1;
}

void bc_sysinfo_get(struct bc_sysinfo *si)
{
	struct utsname u;
	struct tm tm;
	time_t now;

	memset(si, 0, sizeof(*si));

	now = time(NULL);
	if (gmtime_r(&now, &tm))
		strftime(si->date, sizeof(si->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (gethostname(si->host, sizeof(si->host) - 1))
		snprintf(si->host, sizeof(si->host), "unknown");
	if (!uname(&u)) {
		snprintf(si->kernel, sizeof(si->kernel), "%s", u.release);
		snprintf(si->kernel_version, sizeof(si->kernel_version), "%s", u.version);
	}
	/* x86 says "model name"; arm64 has no model string, only parts. */
	if (!bc_cpuinfo_field("model name", si->cpu_model, sizeof(si->cpu_model)) &&
	    !bc_cpuinfo_field("Model", si->cpu_model, sizeof(si->cpu_model)) &&
	    !bc_cpuinfo_field("CPU part", si->cpu_model, sizeof(si->cpu_model)))
		snprintf(si->cpu_model, sizeof(si->cpu_model), "unknown");
	si->cpu_count = bc_sysinfo_online_cpus();
	si->hypervisor = bc_sysinfo_hypervisor();
	snprintf(si->libbpf_version, sizeof(si->libbpf_version), "%u.%u",
		 libbpf_major_version(), libbpf_minor_version());
	bc_sysinfo_run_id(si->run_id, sizeof(si->run_id));
}
