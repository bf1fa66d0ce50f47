// SPDX-License-Identifier: Apache-2.0
/*
 * vsbench: measure vsched on synthetic clusters.
 *
 * One program, several commands, as git and ip have: "vsbench cluster"
 * builds a cluster in-process through the core's object model and reports
 * what it cost; "vsbench cycle" schedules it; "vsbench load" sends it to a
 * running vschedd over the socket; "vsbench run" benchmarks a named
 * preset and "vsbench sweep" runs several and plots them; "vsbench sim"
 * lets a cluster live in virtual time.
 */
#include <stdio.h>
#include <string.h>

#include "vsbench/vsbench.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "cluster", vsbench_cluster,
	  "build a synthetic cluster in the core and report time and memory" },
	{ "cycle", vsbench_cycle,
	  "schedule a synthetic cluster in-process, cycle by cycle" },
	{ "load", vsbench_load,
	  "send a synthetic cluster to a running vschedd over its socket" },
	{ "run", vsbench_run, "benchmark a named preset cluster and report (--json)" },
	{ "sweep", vsbench_sweep,
	  "run several presets and plot throughput and cycle time against nodes" },
	{ "sim", vsbench_sim,
	  "simulate a living cluster in virtual time and report (--json)" },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: vsbench COMMAND [OPTIONS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(out, "\n\"vsbench COMMAND --help\" describes a command's options.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		static char progname[64];

		if (strcmp(argv[1], commands[i].name))
			continue;
		/* getopt names the program in its messages: "vsbench cycle: ..." */
		snprintf(progname, sizeof(progname), "vsbench %s", commands[i].name);
		argv[1] = progname;
		return commands[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "vsbench: unknown command \"%s\"\n", argv[1]);
	usage(stderr);
	return 2;
}
