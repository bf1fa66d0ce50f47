// SPDX-License-Identifier: Apache-2.0
/*
 * vsctl: the administration tool, "vsctl GROUP COMMAND [OPTIONS]" in the way
 * of "ip link show". Every command is one entry of the table below; the
 * socket commands (nodes, queues, jobs of a running vschedd) join it as
 * they are written. This file owns the table and the dispatch, nothing else.
 */
#include <stdio.h>
#include <string.h>

#include "core/compiler.h"
#include "vsctl/vsctl.h"

struct vsctl_cmd {
	const char *group;
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *args;
	const char *help;
};

static const struct vsctl_cmd commands[] = {
	{
		.group = "scenario",
		.name = "run",
		.fn = vsctl_scenario_run,
		.args = "[-o json] FILE...",
		.help = "run scenario files in-process and check their expectations",
	},
};

static void usage(FILE *out, const char *group)
{
	fprintf(out, "usage: vsctl %s COMMAND [OPTIONS]\n\ncommands:\n", group ? group : "GROUP");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		const struct vsctl_cmd *c = &commands[i];
		char head[64];

		if (group && strcmp(group, c->group))
			continue;
		snprintf(head, sizeof(head), "%s %s %s", c->group, c->name, c->args);
		fprintf(out, "  %-32s %s\n", head, c->help);
	}
	fprintf(out, "\n\"vsctl GROUP COMMAND --help\" describes a command's options.\n");
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help") || !strcmp(arg, "help");
}

static bool group_known(const char *group)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].group, group))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	const char *group;

	if (argc < 2) {
		usage(stderr, NULL);
		return 2;
	}
	if (is_help(argv[1])) {
		usage(stdout, NULL);
		return 0;
	}
	group = argv[1];
	if (!group_known(group)) {
		fprintf(stderr, "vsctl: unknown group \"%s\"\n", group);
		usage(stderr, NULL);
		return 2;
	}
	if (argc < 3) {
		fprintf(stderr, "vsctl %s: no command given\n", group);
		usage(stderr, group);
		return 2;
	}
	if (is_help(argv[2])) {
		usage(stdout, group);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		const struct vsctl_cmd *c = &commands[i];
		static char progname[64];

		if (strcmp(group, c->group) || strcmp(argv[2], c->name))
			continue;
		/* getopt names the program in its messages: "vsctl scenario run: ..." */
		snprintf(progname, sizeof(progname), "vsctl %s %s", c->group, c->name);
		argv[2] = progname;
		return c->fn(argc - 2, argv + 2);
	}
	fprintf(stderr, "vsctl %s: unknown command \"%s\"\n", group, argv[2]);
	usage(stderr, group);
	return 2;
}
