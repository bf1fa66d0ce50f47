// SPDX-License-Identifier: Apache-2.0
/*
 * vsctl: the administration tool, "vsctl GROUP COMMAND [OPTIONS]" in the way
 * of "ip link show". Every command is one entry of the table below. The
 * object commands talk to a running vschedd (--socket PATH, or
 * $VSCHED_SOCKET); "scenario run" works in-process. This file owns the
 * table and the dispatch, nothing else.
 */
#include <stdio.h>
#include <string.h>

#include "core/compiler.h"
#include "vsched/vsched.h"
#include "vsctl/vsctl.h"

struct vsctl_cmd {
	const char *group;
	const char *name;		/* NULL: the group is the command ("vsctl watch") */
	int (*fn)(int argc, char **argv);
	const char *args;
	const char *help;
};

/* The list, show and del commands of one kind of object (objects_cmd.c). */
#define OBJ_CMDS(_group, _key, _filters)						\
	{ .group = _group, .name = "list", .fn = vsctl_obj_list,			\
	  .args = "[-o table|wide|json]" _filters,					\
	  .help = "list the " _group "s of the daemon" },				\
	{ .group = _group, .name = "show", .fn = vsctl_obj_show,			\
	  .args = _key, .help = "one " _group " as JSON" },				\
	{ .group = _group, .name = "del", .fn = vsctl_obj_del,				\
	  .args = _key, .help = "delete a " _group }

static const struct vsctl_cmd commands[] = {
	OBJ_CMDS("node", "NAME", ""),
	OBJ_CMDS("queue", "NAME", ""),
	OBJ_CMDS("podgroup", "[NS/]NAME", " [-n NS|-A] [--queue Q]"),
	OBJ_CMDS("task", "[NS/]NAME", " [-n NS|-A] [--podgroup PG] [--node N] [--status S,...]"),
	OBJ_CMDS("prioclass", "NAME", ""),
	{ .group = "conf", .name = "show", .fn = vsctl_conf_show, .args = "[-o json]",
	  .help = "the configuration in force, as its YAML" },
	{ .group = "conf", .name = "set", .fn = vsctl_conf_set, .args = "[--check] FILE",
	  .help = "install a volcano-scheduler.conf (--check: only check it)" },
	{ .group = "cycle", .name = "run", .fn = vsctl_cycle_run, .args = "[-o json]",
	  .help = "run one scheduling cycle now" },
	{ .group = "stats", .name = "show", .fn = vsctl_stats_show, .args = "[-o json]",
	  .help = "counters, the last cycle and the object pools" },
	{ .group = "watch", .fn = vsctl_watch,
	  .args = "[--count N] [decisions] [events] [cycles]",
	  .help = "print notifications as JSON lines until interrupted" },
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

		if (group && strcmp(group, c->group))
			continue;
		if (c->name)
			fprintf(out, "  %s %s %s\n        %s\n", c->group, c->name, c->args, c->help);
		else
			fprintf(out, "  %s %s\n        %s\n", c->group, c->args, c->help);
	}
	fprintf(out, "\nThe commands that talk to vschedd take --socket PATH (default $%s, else %s).\n"
		"\"vsctl GROUP COMMAND --help\" describes a command's options.\n",
		VSCHED_SOCKET_ENV, VSCHED_SOCKET_DEFAULT);
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help") || !strcmp(arg, "help");
}

/* The command that is its group's only one ("vsctl watch"), or NULL. */
static const struct vsctl_cmd *group_cmd(const char *group)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!commands[i].name && !strcmp(commands[i].group, group))
			return &commands[i];
	return NULL;
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
	if (group_cmd(group)) {
		static char progname[64];

		snprintf(progname, sizeof(progname), "vsctl %s", group);
		argv[1] = progname;
		return group_cmd(group)->fn(argc - 1, argv + 1);
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

		if (!c->name || strcmp(group, c->group) || strcmp(argv[2], c->name))
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
