// SPDX-License-Identifier: Apache-2.0
/*
 * vsctl: the administration tool, "vsctl GROUP COMMAND [OPTIONS]" in the way
 * of "ip link show". Every command is one entry of the table below. The
 * object commands talk to a running vschedd (--socket PATH, or
 * $VSCHED_SOCKET); "scenario run" works in-process, or against a daemon
 * with --socket. This file owns the
 * table and the dispatch, nothing else.
 */
#include <stdio.h>
#include <string.h>

#include "lib/compiler.h"
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
	  .args = "[-o table|wide|json | -j]" _filters,					\
	  .help = "list the " _group "s of the daemon" },				\
	{ .group = _group, .name = "show", .fn = vsctl_obj_show,			\
	  .args = _key, .help = "one " _group " as JSON" },				\
	{ .group = _group, .name = "del", .fn = vsctl_obj_del,				\
	  .args = _key, .help = "delete a " _group }

/* add and set (edit_cmd.c): "vsctl GROUP add --help" lists the options. */
#define ADD_CMD(_group, _args)								\
	{ .group = _group, .name = "add", .fn = vsctl_obj_add, .args = _args,		\
	  .help = "create a " _group }
#define SET_CMD(_group, _key)								\
	{ .group = _group, .name = "set", .fn = vsctl_obj_set,				\
	  .args = _key " [OPTIONS of add]",						\
	  .help = "change what the options name, keep the rest" }

static const struct vsctl_cmd commands[] = {
	OBJ_CMDS("node", "NAME", ""),
	ADD_CMD("node", "NAME [--cpu Q] [--memory Q] [--pods N] [--gpu Q] [--res NAME=Q]... "
		"[--label K=V]... [--taint K[=V]:EFFECT]... [--image NAME[,NAME...][=SIZE]]... "
		"[--unschedulable] [--not-ready]"),
	SET_CMD("node", "NAME"),
	{ .group = "node", .name = "cordon", .fn = vsctl_node_cordon, .args = "NAME",
	  .help = "mark a node unschedulable" },
	{ .group = "node", .name = "uncordon", .fn = vsctl_node_uncordon, .args = "NAME",
	  .help = "mark a node schedulable again" },
	OBJ_CMDS("queue", "NAME", ""),
	ADD_CMD("queue", "NAME [--weight N] [--capability RES] [--guarantee RES] "
		"[--deserved RES] [--reclaimable true|false] [--priority N] [--parent Q]"),
	SET_CMD("queue", "NAME"),
	{ .group = "queue", .name = "open", .fn = vsctl_queue_open, .args = "NAME",
	  .help = "open a queue (and the children its closing closed)" },
	{ .group = "queue", .name = "close", .fn = vsctl_queue_close, .args = "NAME",
	  .help = "close a queue: it admits no new PodGroup" },
	OBJ_CMDS("podgroup", "[NS/]NAME", " [-n NS|-A] [--queue Q]"),
	ADD_CMD("podgroup", "[NS/]NAME [--queue Q] [--min-member N] [--min-resources RES] "
		"[--priority-class PC] [--preemptable true|false] "
		"[--network-topology MODE[:TIER]]"),
	SET_CMD("podgroup", "[NS/]NAME"),
	OBJ_CMDS("task", "[NS/]NAME", " [-n NS|-A] [--podgroup PG] [--node N] [--status S,...]"),
	ADD_CMD("task", "[NS/]NAME [--podgroup PG | --queue Q] [--cpu Q] [--memory Q] ... "
		"[--priority N] [--node-selector K=V]... [--toleration K[=V][:EFFECT]]... "
		"[--host-port PORT[/PROTO][@IP]]... [--image IMAGE]... [--gated] "
		"[--nominated-node NODE] [--role R]"),
	{ .group = "task", .name = "status", .fn = vsctl_task_status,
	  .args = "[NS/]NAME running|succeeded|failed|deleting|deleted|ungated|nominated "
		  "[--exit-code N] [--node NODE]",
	  .help = "report what became of a task's pod" },
	OBJ_CMDS("job", "[NS/]NAME", " [-n NS|-A]"),
	ADD_CMD("job", "[NS/]NAME --task NAME:REPLICAS[:RES]... [--queue Q] "
		"[--min-available N] [--max-retry N] [--priority-class PC] "
		"[--policy EVENT=ACTION]... [--network-topology MODE[:TIER]]"),
	{ .group = "job", .name = "create", .fn = vsctl_obj_add, .args = "[NS/]NAME [OPTIONS of add]",
	  .help = "the same as job add (vcctl job run's counterpart)" },
	{ .group = "job", .name = "abort", .fn = vsctl_job_abort, .args = "[NS/]NAME",
	  .help = "abort a job: its live tasks are killed, it is Aborting, then Aborted" },
	{ .group = "job", .name = "resume", .fn = vsctl_job_resume, .args = "[NS/]NAME",
	  .help = "resume an aborted job: Restarting, one retry counted, then Pending" },
	{ .group = "job", .name = "restart", .fn = vsctl_job_restart, .args = "[NS/]NAME",
	  .help = "restart a job: every task killed, one retry counted, Restarting" },
	{ .group = "job", .name = "terminate", .fn = vsctl_job_terminate, .args = "[NS/]NAME",
	  .help = "terminate a job: its live tasks are killed, Terminating, then Terminated" },
	{ .group = "job", .name = "complete", .fn = vsctl_job_complete, .args = "[NS/]NAME",
	  .help = "complete a job: its live tasks are killed, Completing, then Completed" },
	OBJ_CMDS("prioclass", "NAME", ""),
	ADD_CMD("prioclass", "NAME --value N [--preemption-policy Never|PreemptLowerPriority] "
		"[--global-default]"),
	SET_CMD("prioclass", "NAME"),
	OBJ_CMDS("hypernode", "NAME", ""),
	ADD_CMD("hypernode", "NAME --tier N [--tier-name NAME] --member TYPE:SEL=VALUE..."),
	SET_CMD("hypernode", "NAME"),
	{ .group = "conf", .name = "get", .fn = vsctl_conf_show, .args = "[-o json | -j]",
	  .help = "the configuration in force, as its YAML (also: conf show)" },
	{ .group = "conf", .name = "show", .fn = vsctl_conf_show, .args = "[-o json | -j]",
	  .help = "the same as conf get" },
	{ .group = "conf", .name = "set", .fn = vsctl_conf_set, .args = "[--check] FILE",
	  .help = "install a volcano-scheduler.conf (--check: only check it)" },
	{ .group = "conf", .name = "check", .fn = vsctl_conf_check, .args = "FILE",
	  .help = "check a volcano-scheduler.conf here, as vschedd would, without a daemon" },
	{ .group = "cycle", .name = "run", .fn = vsctl_cycle_run, .args = "[-o json | -j]",
	  .help = "run one scheduling cycle now" },
	{ .group = "stats", .name = "show", .fn = vsctl_stats_show,
	  .args = "[-o json | -j | --prometheus]",
	  .help = "counters, Volcano's scheduler metrics and the last cycle (--prometheus: "
		  "Prometheus' text format)" },
	{ .group = "stats", .name = "pools", .fn = vsctl_stats_pools, .args = "[-o json | -j]",
	  .help = "the object pools, as /proc/slabinfo shows caches" },
	{ .group = "dump", .fn = vsctl_dump_cmd, .args = "[--socket PATH] FILE",
	  .help = "the daemon's state as a checkpoint in FILE (vschedd --checkpoint FILE restores "
		  "it)" },
	{ .group = "top", .fn = vsctl_top,
	  .args = "[--delay SECONDS] [--iterations N] [--batch]",
	  .help = "a live view of queues, utilisation and the last cycles, refreshed each second" },
	{ .group = "watch", .fn = vsctl_watch,
	  .args = "[--count N] [decisions] [events] [cycles] [status]",
	  .help = "print notifications as JSON lines until interrupted" },
	{ .group = "monitor", .fn = vsctl_monitor,
	  .args = "[-j] [--count N] [decisions] [events] [cycles] [status]",
	  .help = "print notifications as they come, a line each (-j: as watch does)" },
	{ .group = "explain", .fn = vsctl_explain,
	  .args = "[-o json | -j] [--scores[=N]] job|podgroup|task NS/NAME | node NAME",
	  .help = "why a PodGroup, task or node is where it is, from the last cycle" },
	{ .group = "apply", .fn = vsctl_apply,
	  .args = "[--dry-run [-o json]] [--scheduler-name NAME] -f FILE|- [-f FILE]...",
	  .help = "create or update the objects of Kubernetes manifests, in one batch" },
	{ .group = "delete", .fn = vsctl_delete,
	  .args = "[--dry-run [-o json]] [--ignore-not-found] -f FILE|- [-f FILE]...",
	  .help = "delete the objects of Kubernetes manifests, in one batch" },
	{
		.group = "scenario",
		.name = "run",
		.fn = vsctl_scenario_run,
		.args = "[-o json] [-v] [--socket PATH] FILE...",
		.help = "run scenario files in-process (or against the vschedd at PATH, which it "
			"resets) and check their expectations",
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

/* What a group does without a command: its "list", else its "show" ("vsctl stats"). */
static const struct vsctl_cmd *default_cmd(const char *group)
{
	static const char *const reads[] = { "list", "show" };

	for (size_t r = 0; r < ARRAY_SIZE(reads); r++)
		for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
			if (commands[i].name && !strcmp(commands[i].group, group) &&
			    !strcmp(commands[i].name, reads[r]))
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
	/* As "ip link" is "ip link show": a group alone, or with options, reads. */
	if ((argc < 3 || (argv[2][0] == '-' && !is_help(argv[2]))) && default_cmd(group)) {
		static char progname[64];
		const struct vsctl_cmd *c = default_cmd(group);

		snprintf(progname, sizeof(progname), "vsctl %s %s", c->group, c->name);
		argv[1] = progname;
		return c->fn(argc - 1, argv + 1);
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
