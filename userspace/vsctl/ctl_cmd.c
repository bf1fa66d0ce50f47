// SPDX-License-Identifier: Apache-2.0
/*
 * The daemon's own commands:
 *
 *	vsctl conf get			the configuration in force, as its YAML (or "show")
 *	vsctl conf set FILE [--check]	a new volcano-scheduler.conf (or only check it)
 *	vsctl conf check FILE		check a file here, as the daemon would, without one
 *	vsctl cycle run			one scheduling cycle now
 *	vsctl watch [GROUP...]		notifications as JSON lines (decisions, events, cycles, status)
 *	vsctl monitor [GROUP...]	the same as "ip monitor" shows them: a line each
 *
 * "watch" and "monitor" are one loop with two printers: monitor's -j prints
 * exactly what watch prints.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <linux/genetlink.h>
#include <libmnl/libmnl.h>

#include "harness/harness.h"
#include "lib/codec_gen.h"
#include "lib/compiler.h"
#include "lib/file.h"
#include "lib/render.h"
#include "lib/vsnl.h"
#include "vsctl/objects.h"
#include "vsctl/request.h"
#include "vsctl/table.h"
#include "vsctl/vsctl.h"

struct common {
	const char *socket;
	bool json;
	bool check;			/* conf set --check */
	long count;			/* watch --count: stop after so many; 0 never */
	int optind;
};

enum { OPT_SOCKET = 0x100, OPT_CHECK, OPT_COUNT };

/*
 * Options every command here takes; @extra says which of the others it
 * does: 'o' -o json (and -j), 'j' -j alone, 'c' --check, 'n' --count.
 */
static int parse_common(int argc, char **argv, const char *extra, struct common *o)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, OPT_SOCKET },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "count", required_argument, NULL, OPT_COUNT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char *end;
	int c;

	memset(o, 0, sizeof(*o));
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:jh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_SOCKET:
			o->socket = optarg;
			break;
		case 'o':
			if (!strchr(extra, 'o')) {
				fprintf(stderr, "%s: -o: \"%s\" is not an output here\n",
					argv[0], optarg);
				return 2;
			}
			if (vsctl_json_output(argv[0], optarg))
				return 2;
			o->json = true;
			break;
		case 'j':
			if (!strchr(extra, 'o') && !strchr(extra, 'j')) {
				fprintf(stderr, "%s: -j: no JSON output here\n", argv[0]);
				return 2;
			}
			o->json = true;
			break;
		case OPT_CHECK:
			if (!strchr(extra, 'c')) {
				fprintf(stderr, "%s: --check is for conf set\n", argv[0]);
				return 2;
			}
			o->check = true;
			break;
		case OPT_COUNT:
			errno = 0;
			o->count = strtol(optarg, &end, 10);
			if (!strchr(extra, 'n') || errno || *end || end == optarg || o->count < 1) {
				fprintf(stderr, "%s: --count: \"%s\" is not a positive number\n",
					argv[0], optarg);
				return 2;
			}
			break;
		case 'h':
			return -1;
		default:
			return 2;
		}
	}
	o->optind = optind;
	return 0;
}

/* The options a usage line names, for --help. */
static const struct {
	const char *token, *opt, *help;
} options[] = {
	{ "--socket", "--socket PATH", "the daemon's socket (default $" VSCHED_SOCKET_ENV
	  ", else " VSCHED_SOCKET_DEFAULT ")" },
	{ "-o json", "-o, --output json", "JSON instead of text" },
	{ "| -j", "-j, --json", "the same as -o json" },
	{ "[-j]", "-j, --json", "JSON lines, as vsctl watch prints them" },
	{ "--check", "--check", "only check the file; change nothing" },
	{ "--count", "--count N", "stop after N notifications" },
	{ "[decisions]", "decisions, events, cycles", "the groups to follow (default: all)" },
};

/* The usage line; with --help (@ret < 0) on standard output, and its options. */
static int usage_or(int ret, const char *usage, const char *prog)
{
	FILE *out = ret < 0 ? stdout : stderr;

	fprintf(out, "usage: %s %s\n", prog, usage);
	if (ret >= 0)
		return 2;
	fprintf(out, "\noptions:\n");
	for (size_t i = 0; i < ARRAY_SIZE(options); i++)
		if (strstr(usage, options[i].token))
			vsctl_print_option(out, options[i].opt, options[i].help);
	return 0;
}

/* ---- conf ---- */

int vsctl_conf_show(int argc, char **argv)
{
	static const char usage[] = "[--socket PATH] [-o json | -j]";
	json_t *reply = NULL;
	struct common o;
	const char *text;
	int ret;

	ret = parse_common(argc, argv, "o", &o);
	if (ret || o.optind != argc)
		return usage_or(ret, usage, argv[0]);
	ret = vsctl_request(o.socket, vsnl_msg_new(VS_CMD_CONF_GET, 0), vsnl_render_keep, &reply);
	if (ret)
		goto out;
	if (o.json) {
		ret = vsctl_print_json(json_object_get(reply, "conf"));
		goto out;
	}
	text = json_string_value(json_object_get(json_object_get(reply, "conf"), "text"));
	if (!text) {
		fprintf(stderr, "%s: the reply carries no configuration text\n", argv[0]);
		ret = 1;
		goto out;
	}
	fputs(text, stdout);
	if (*text && text[strlen(text) - 1] != '\n')
		fputc('\n', stdout);
out:
	json_decref(reply);
	return ret;
}

int vsctl_conf_set(int argc, char **argv)
{
	static const char usage[] = "[--socket PATH] [--check] FILE";
	/* an attribute's length is 16 bits, header and NUL included */
	const size_t max = 0xffff - NLA_HDRLEN - 1;
	struct vsnl_err err = { 0 };
	struct common o;
	struct nl_msg *m;
	struct nlattr *nest;
	char *text;
	size_t len, cap;
	int ret;

	ret = parse_common(argc, argv, "c", &o);
	if (ret || o.optind != argc - 1)
		return usage_or(ret, usage, argv[0]);
	if (vsnl_read_file(argv[o.optind], max, VSNL_FILE_REGULAR, &text, &len, &err)) {
		fprintf(stderr, "%s: %s\n", argv[0], err.msg);
		return 1;
	}
	if (strlen(text) != len) {
		fprintf(stderr, "%s: %s: holds a NUL byte\n", argv[0], argv[o.optind]);
		free(text);
		return 1;
	}
	m = vsnl_msg_new(VS_CMD_CONF_SET, 0);
	if (m) {
		struct nlmsghdr *nlh = vsnl_msg_hdr(m, &cap);

		nest = vsnl_vsched_start_conf(nlh, cap, &err);
		if (!nest || vsnl_conf_put_text(nlh, cap, text, &err) ||
		    vsnl_conf_put_source(nlh, cap, argv[o.optind], &err) ||
		    (o.check && vsnl_conf_put_check_only(nlh, cap, &err))) {
			nlmsg_free(m);
			free(text);
			return vsctl_fail(err.err, &err);
		}
		mnl_attr_nest_end(nlh, nest);
	}
	free(text);
	ret = vsctl_request(o.socket, m, NULL, NULL);
	if (!ret && o.check)
		printf("%s: the configuration is valid\n", argv[o.optind]);
	return ret;
}

/*
 * The daemon's own checks, in-process (the harness): a file can be checked
 * where no daemon runs, as "vschedd --conf" would take it.
 */
int vsctl_conf_check(int argc, char **argv)
{
	static const char usage[] = "FILE";
	struct vsnl_err err = { 0 };
	struct common o;
	char *what = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	ret = parse_common(argc, argv, "", &o);
	if (!ret && o.socket) {
		fprintf(stderr, "%s: --socket: the file is checked here, by no daemon (\"conf set "
			"--check\" asks one)\n", argv[0]);
		return 2;
	}
	if (ret || o.optind != argc - 1)
		return usage_or(ret, usage, argv[0]);
	f = open_memstream(&what, &len);
	if (!f) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		return 1;
	}
	ret = harness_conf_check(argv[o.optind], f, &err);
	if (fclose(f) && !ret)
		ret = vsnl_err_set(&err, ENOMEM, "out of memory");
	if (ret)
		fprintf(stderr, "%s: %s\n", argv[0], err.msg);
	else
		printf("%s: the configuration is valid: %s\n", argv[o.optind], what);
	free(what);
	return ret ? 1 : 0;
}

/* ---- cycle, stats ---- */

static double ms(const json_t *ns)
{
	return (double)json_integer_value(ns) / 1e6;
}

/* "cycle 12: 40 binds, 0 evicts, 3 pending, 1.204 ms" */
static void print_cycle_line(const json_t *cy)
{
	printf("cycle %lld: %lld binds, %lld evicts, %lld pending, %.3f ms\n",
	       json_integer_value(json_object_get(cy, "id")),
	       json_integer_value(json_object_get(cy, "binds")),
	       json_integer_value(json_object_get(cy, "evicts")),
	       json_integer_value(json_object_get(cy, "pending")),
	       ms(json_object_get(cy, "durationNs")));
}

void vsctl_print_cycle(const json_t *cy)
{
	size_t i;
	json_t *a;

	print_cycle_line(cy);
	json_array_foreach(json_object_get(cy, "actions"), i, a)
		printf("  %-10s %.3f ms\n", json_string_value(json_object_get(a, "name")),
		       ms(json_object_get(a, "durationNs")));
}

int vsctl_cycle_run(int argc, char **argv)
{
	static const char usage[] = "[--socket PATH] [-o json | -j]";
	json_t *reply = NULL, *cy;
	struct common o;
	int ret;

	ret = parse_common(argc, argv, "o", &o);
	if (ret || o.optind != argc)
		return usage_or(ret, usage, argv[0]);
	ret = vsctl_request(o.socket, vsnl_msg_new(VS_CMD_CYCLE_RUN, 0), vsnl_render_keep, &reply);
	if (ret)
		goto out;
	cy = json_object_get(reply, "cycle");
	if (!cy) {
		fprintf(stderr, "%s: the reply carries no cycle\n", argv[0]);
		ret = 1;
	} else if (o.json) {
		ret = vsctl_print_json(cy);
	} else {
		vsctl_print_cycle(cy);
	}
out:
	json_decref(reply);
	return ret;
}

/* ---- watch and monitor ---- */

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

struct watch {
	long seen, count;
	bool human;			/* monitor's lines, else watch's JSON */
};

static const char *notification_name(u8 cmd)
{
	switch (cmd) {
	case VS_CMD_DECISIONS:
		return "decisions";
	case VS_CMD_EVENT:
		return "event";
	case VS_CMD_CYCLE:
		return "cycle";
	case VS_CMD_STATUS:
		return "status";
	}
	return "unknown";
}

static const char *str(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "?";
}

/*
 * "[decisions] cycle 12: bind ns/p1 -> n3", "... evict ns/p2 on n1 (preempt)",
 * "... pipeline ns/p3 -> n1"
 */
static void print_decisions(const json_t *obj)
{
	long long cycle = json_integer_value(json_object_get(obj, "cycleID"));
	const json_t *d;
	size_t i;

	json_array_foreach(json_object_get(obj, "decision"), i, d) {
		bool evict = !strcmp(str(d, "kind"), "evict");

		printf("[decisions] cycle %lld: %s %s/%s %s %s", cycle, str(d, "kind"),
		       str(d, "namespace"), str(d, "name"), evict ? "on" : "->", str(d, "node"));
		if (json_object_get(d, "reason"))
			printf(" (%s)", str(d, "reason"));
		putchar('\n');
	}
}

/*
 * "[events] new node n1", "[events] status task ns/p1 Running"; the status
 * group's "[status] status podgroup ns/pg1 Inqueue", "[status] unschedulable
 * task ns/p1: Unschedulable: 0/3 nodes are unavailable: ..."
 */
static void print_event(const char *group, const json_t *obj)
{
	static const char *const kinds[] = {
		"node", "queue", "podgroup", "task", "vjob", "priorityclass", "hypernode",
	};

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		const json_t *o = json_object_get(obj, kinds[i]);
		const json_t *state;

		if (!o)
			continue;
		printf("[%s] %s %s ", group, str(obj, "eventKind"), kinds[i]);
		if (json_object_get(o, "namespace"))
			printf("%s/", str(o, "namespace"));
		printf("%s", str(o, "name"));
		state = json_object_get(o, "status");
		if (!state)
			state = json_object_get(o, "phase");
		if (json_is_string(state))
			printf(" %s", json_string_value(state));
		if (json_object_get(o, "schedReason"))
			printf(": %s: %s", str(o, "schedReason"), str(o, "schedMessage"));
		putchar('\n');
		return;
	}
	printf("[%s] %s\n", group, str(obj, "eventKind"));
}

static void print_human(u8 cmd, const json_t *obj)
{
	switch (cmd) {
	case VS_CMD_DECISIONS:
		print_decisions(obj);
		break;
	case VS_CMD_EVENT:
		print_event("events", obj);
		break;
	case VS_CMD_STATUS:
		print_event("status", obj);
		break;
	case VS_CMD_CYCLE:
		printf("[cycles] ");
		print_cycle_line(json_object_get(obj, "cycle"));
		break;
	}
}

/*
 * One notification: watch's line, {"notification": "decisions", ...its
 * attributes}, or monitor's lines.
 */
static int print_notification(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	struct watch *w = arg;
	json_t *obj = vsnl_render_msg(nlh);

	if (!obj || json_object_set_new(obj, "notification",
					json_string(notification_name(g->cmd)))) {
		json_decref(obj);
		return -ENOMEM;
	}
	if (w->human) {
		print_human(g->cmd, obj);
	} else {
		json_dumpf(obj, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
	}
	fflush(stdout);
	json_decref(obj);
	if (w->count && ++w->seen >= w->count)
		stop = 1;
	return 0;
}

static int group_of(const char *name)
{
	static const char *const names[] = {
		[VS_MCGRP_DECISIONS] = "decisions",
		[VS_MCGRP_EVENTS] = "events",
		[VS_MCGRP_CYCLES] = "cycles",
		[VS_MCGRP_STATUS] = "status",
	};

	for (int g = 1; g <= VS_MCGRP_MAX; g++)
		if (!strcmp(names[g], name))
			return g;
	return -1;
}

static int watch(int argc, char **argv, bool human, const char *usage)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct vsnl_err err = { 0 };
	struct watch w = { 0 };
	struct common o;
	struct vsnl *c;
	int groups[VS_MCGRP_MAX + 1] = { 0 };
	int ret, i, nr = 0;

	ret = parse_common(argc, argv, "jn", &o);
	if (ret)
		return usage_or(ret, usage, argv[0]);
	for (i = o.optind; i < argc; i++) {
		int g = group_of(argv[i]);

		if (g < 0) {
			fprintf(stderr, "%s: \"%s\" is not a group (decisions, events, cycles, status)\n",
				argv[0], argv[i]);
			return 2;
		}
		groups[g] = 1;
		nr++;
	}
	if (!nr)
		for (i = 1; i <= VS_MCGRP_MAX; i++)
			groups[i] = 1;
	w.count = o.count;
	w.human = human && !o.json;
	c = vsctl_connect(o.socket);
	if (!c)
		return 1;
	for (i = 1; i <= VS_MCGRP_MAX; i++) {
		if (!groups[i])
			continue;
		ret = vsnl_subscribe(c, i, &err);
		if (ret)
			goto out;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!stop) {
		ret = vsnl_recv_notifications(c, 500, print_notification, &w, &err);
		if (ret == -EINTR) {
			ret = 0;
			continue;
		}
		if (ret == -ENOBUFS) {
			fprintf(stderr, "%s: notifications were lost (the daemon's queue for this "
				"client overflowed); go on\n", argv[0]);
			continue;
		}
		if (ret < 0)
			goto out;
	}
	ret = 0;
out:
	vsnl_close(c);
	return ret ? vsctl_fail(ret, &err) : 0;
}

int vsctl_watch(int argc, char **argv)
{
	return watch(argc, argv, false,
		     "[--socket PATH] [--count N] [decisions] [events] [cycles] [status]");
}

int vsctl_monitor(int argc, char **argv)
{
	return watch(argc, argv, true,
		     "[--socket PATH] [-j] [--count N] [decisions] [events] [cycles] [status]");
}

/* ---- dump ---- */

/* Each message of the dump, a checkpoint's request as it is, into the file. */
static int dump_msg(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct vsnl_err err = { 0 };
	int ret;

	(void)tb;
	ret = harness_ckpt_add_reply(arg, nlh, &err);
	if (ret)
		fprintf(stderr, "vsctl dump: %s\n", err.msg);
	return ret;
}

/*
 * The daemon's state as a checkpoint (VS_CMD_DUMP), written as vschedd
 * writes its own: under FILE.tmp, synced, renamed. "vschedd --checkpoint
 * FILE" restores it.
 */
int vsctl_dump_cmd(int argc, char **argv)
{
	static const char usage[] = "[--socket PATH] FILE";
	struct vsnl_err err = { 0 };
	struct harness_ckpt *c;
	uint64_t nr_msgs, bytes;
	struct common o;
	int ret;

	ret = parse_common(argc, argv, "", &o);
	if (ret || o.optind != argc - 1)
		return usage_or(ret, usage, argv[0]);
	c = harness_ckpt_open(argv[o.optind], &err);
	if (!c) {
		fprintf(stderr, "%s: %s\n", argv[0], err.msg);
		return 1;
	}
	ret = vsctl_request(o.socket, vsnl_msg_new(VS_CMD_DUMP, NLM_F_DUMP), dump_msg, c);
	if (ret) {
		harness_ckpt_abort(c);
		return ret;
	}
	if (harness_ckpt_commit(c, &nr_msgs, &bytes, &err)) {
		fprintf(stderr, "%s: %s\n", argv[0], err.msg);
		return 1;
	}
	printf("%s: %llu requests, %llu bytes\n", argv[o.optind], (unsigned long long)nr_msgs,
	       (unsigned long long)bytes);
	return 0;
}
