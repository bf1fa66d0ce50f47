// SPDX-License-Identifier: Apache-2.0
/*
 * vsctl top: a live view of the daemon, as top(1) shows processes.
 *
 *	vsctl top [-d SECONDS] [-n ITERATIONS] [-b] [--socket PATH]
 *
 * Each refresh asks for the statistics (VS_CMD_STATS_GET) and the queues
 * (a VS_CMD_QUEUE_GET dump) and draws: the cluster's counts, utilisation
 * per resource (the nodes' used over their allocatable), the queues (what
 * the last cycle's proportion or capacity plugin found each deserves, what
 * it holds, its share, its PodGroups by phase) and the last cycles with
 * their actions' timings.
 *
 * On a terminal the screen is redrawn in place with plain ANSI sequences
 * (cursor home, erase to the end of each line and of the screen; no
 * terminfo), lines are cut at its width and the queues at its height, and
 * "q" quits; anything else runs top -b's way: one block per refresh,
 * appended, which is what a pipe or a log wants. Works over ssh as any
 * ANSI terminal program does.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "lib/compiler.h"
#include "lib/render.h"
#include "vsctl/objects.h"
#include "vsctl/request.h"
#include "vsctl/vsctl.h"

enum { OPT_SOCKET = 0x100 };

struct top {
	const char *socket;
	double delay;			/* seconds between refreshes */
	long iterations;		/* 0: until stopped */
	bool batch;			/* no terminal control */
	bool tty;
	unsigned int rows, cols;	/* the terminal's, or 0 without one */
	/* The frame being drawn: lines written, and the current line's length. */
	unsigned int line, col;
};

static volatile sig_atomic_t stop, resized;

static void on_stop(int sig)
{
	stop = 1;
}

static void on_winch(int sig)
{
	resized = 1;
}

/* Print to the frame, cut at the terminal's width and height. */
static void out(struct top *t, const char *f, ...) __printf(2, 3);

static void out(struct top *t, const char *f, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, f);
	vsnprintf(buf, sizeof(buf), f, ap);
	va_end(ap);
	for (const char *p = buf; *p; p++) {
		if (*p == '\n') {
			if (t->tty)
				fputs("\033[K", stdout);	/* what the last frame left */
			t->line++;
			t->col = 0;
			if (!t->rows || t->line < t->rows)
				putchar('\n');
			continue;
		}
		if ((t->rows && t->line >= t->rows) || (t->cols && t->col >= t->cols))
			continue;
		putchar(*p);
		t->col++;
	}
}

static const char *qty(const json_t *res, const char *dim)
{
	const char *q = json_string_value(json_object_get(res, dim));

	return q ? q : "-";
}

static void draw_usage(struct top *t, const json_t *st)
{
	const json_t *alloc = json_object_get(st, "allocatable"), *used = json_object_get(st, "used");
	const json_t *v;
	const char *dim;

	out(t, "%-22s %14s %14s %7s\n", "RESOURCE", "ALLOCATABLE", "USED", "USE%");
	json_object_foreach((json_t *)alloc, dim, v) {
		double a = vsnl_quantity(alloc, dim), u = vsnl_quantity(used, dim);

		out(t, "%-22s %14s %14s %6.1f%%\n", dim, qty(alloc, dim), qty(used, dim),
		    a > 0 ? 100 * u / a : 0);
	}
}

static void draw_queues(struct top *t, const json_t *queues, unsigned int room)
{
	const json_t *q;
	size_t i;

	out(t, "\n%-16s %6s %-8s %18s %18s %7s %4s %7s %7s %7s\n", "QUEUE", "WEIGHT", "STATE",
	    "DESERVED cpu/mem", "ALLOCATED cpu/mem", "SHARE", "OVER", "PENDING", "INQUEUE",
	    "RUNNING");
	json_array_foreach(queues, i, q) {
		const json_t *des = json_object_get(q, "cycleDeserved");
		const json_t *all = json_object_get(q, "allocated");
		const json_t *pg = json_object_get(q, "nrPodGroups");
		char d[40], a[40], share[16];

		if (room && i >= room) {
			out(t, "... %zu more queues\n", json_array_size(queues) - i);
			break;
		}
		snprintf(d, sizeof(d), "%s/%s", qty(des, "cpu"), qty(des, "memory"));
		snprintf(a, sizeof(a), "%s/%s", qty(all, "cpu"), qty(all, "memory"));
		if (json_object_get(q, "sharePpm"))
			snprintf(share, sizeof(share), "%.3f", (double)vsnl_u64(q, "sharePpm") / 1e6);
		else
			snprintf(share, sizeof(share), "-");
		out(t, "%-16s %6llu %-8s %18s %18s %7s %4s %7llu %7llu %7llu\n",
		    json_string_value(json_object_get(q, "name")),
		    (unsigned long long)vsnl_u64(q, "weight"),
		    json_string_value(json_object_get(q, "state")), d, a, share,
		    !json_object_get(q, "overused") ? "-" :
		    json_is_true(json_object_get(q, "overused")) ? "yes" : "no",
		    (unsigned long long)vsnl_u64(pg, "Pending"), (unsigned long long)vsnl_u64(pg, "Inqueue"),
		    (unsigned long long)vsnl_u64(pg, "Running"));
	}
}

static void draw_cycles(struct top *t, const json_t *st)
{
	const json_t *cycles = json_object_get(st, "recentCycles"), *cy, *a;
	size_t i, k;

	out(t, "\n%-8s %10s %6s %6s %8s  %s\n", "CYCLE", "TIME ms", "BINDS", "EVICTS", "PENDING",
	    "ACTIONS ms");
	/* Newest first, as top sorts. */
	for (i = json_array_size(cycles); i-- > 0;) {
		cy = json_array_get(cycles, i);
		out(t, "%-8llu %10.3f %6llu %6llu %8llu ", (unsigned long long)vsnl_u64(cy, "id"),
		    (double)vsnl_u64(cy, "durationNs") / 1e6, (unsigned long long)vsnl_u64(cy, "binds"),
		    (unsigned long long)vsnl_u64(cy, "evicts"), (unsigned long long)vsnl_u64(cy, "pending"));
		json_array_foreach(json_object_get(cy, "actions"), k, a)
			out(t, " %s %.3f", json_string_value(json_object_get(a, "name")),
			    (double)vsnl_u64(a, "durationNs") / 1e6);
		out(t, "\n");
	}
	if (!json_array_size(cycles))
		out(t, "(no cycle yet)\n");
}

static void draw(struct top *t, const json_t *st, const json_t *queues)
{
	unsigned int room = 0;

	t->line = t->col = 0;
	if (t->tty)
		fputs("\033[H", stdout);
	out(t, "vsched top: %llu cycles, %llu nodes, %llu queues, %llu podgroups, %llu tasks, "
	    "rss %.1f MiB\n", (unsigned long long)vsnl_u64(st, "cycles"),
	    (unsigned long long)vsnl_u64(st, "nrNodes"), (unsigned long long)vsnl_u64(st, "nrQueues"),
	    (unsigned long long)vsnl_u64(st, "nrPodGroups"), (unsigned long long)vsnl_u64(st, "nrTasks"),
	    (double)vsnl_u64(st, "rssBytes") / (1 << 20));
	out(t, "binds %llu, evicts %llu, bind failures %llu; attempts %llu scheduled, %llu "
	    "unschedulable; unschedulable now: %llu jobs, %llu tasks\n\n",
	    (unsigned long long)vsnl_u64(st, "binds"), (unsigned long long)vsnl_u64(st, "evicts"),
	    (unsigned long long)vsnl_u64(st, "bindFailures"),
	    (unsigned long long)vsnl_u64(st, "attemptsScheduled"),
	    (unsigned long long)vsnl_u64(st, "attemptsUnschedulable"),
	    (unsigned long long)vsnl_u64(st, "unschedulableJobs"),
	    (unsigned long long)vsnl_u64(st, "unschedulableTasks"));
	draw_usage(t, st);
	/* The queues get what the cycles (a header and ten lines) leave of the screen. */
	if (t->rows) {
		unsigned int used = t->line + 2 + 2 + (unsigned int)json_array_size(
					json_object_get(st, "recentCycles"));

		room = t->rows > used + 1 ? t->rows - used - 1 : 1;
	}
	draw_queues(t, queues, room);
	draw_cycles(t, st);
	if (t->tty)
		fputs("\033[J", stdout);		/* the rest of the last frame */
	else
		putchar('\n');
	fflush(stdout);
}

static void winsize(struct top *t)
{
	struct winsize ws;

	if (t->tty && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		t->rows = ws.ws_row;
		t->cols = ws.ws_col;
	}
}

/* One refresh: 0, or 1 once the failure is said. */
static int refresh(struct top *t, const char *prog)
{
	json_t *reply = NULL, *queues = json_array(), *st;
	int ret;

	if (!queues)
		return vsctl_fail(-ENOMEM, NULL);
	ret = vsctl_request(t->socket, vsnl_msg_new(VS_CMD_STATS_GET, 0), vsnl_render_keep,
			    &reply) ?:
	      vsctl_dump(t->socket, vsnl_msg_new(VS_CMD_QUEUE_GET, NLM_F_DUMP), "queue", queues);
	if (!ret) {
		st = json_object_get(reply, "stats");
		if (st) {
			draw(t, st, queues);
		} else {
			fprintf(stderr, "%s: the reply carries no statistics\n", prog);
			ret = 1;
		}
	}
	json_decref(reply);
	json_decref(queues);
	return ret;
}

/* Wait up to @ms for "q" on a terminal; true when it came. */
static bool wait_quit(const struct top *t, int ms)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	char c;

	if (!t->tty || !isatty(STDIN_FILENO)) {
		poll(NULL, 0, ms);
		return false;
	}
	if (poll(&p, 1, ms) <= 0)
		return false;
	return read(STDIN_FILENO, &c, 1) == 1 && (c == 'q' || c == 'Q');
}

static int usage(const char *prog, bool help)
{
	FILE *f = help ? stdout : stderr;

	fprintf(f, "usage: %s [--socket PATH] [-d SECONDS] [-n ITERATIONS] [-b]\n\n"
		"A live view of the daemon: utilisation, queues and the last cycles. "
		"\"q\" quits.\n\noptions:\n", prog);
	vsctl_print_option(f, "--socket PATH", "the daemon's socket (default $"
			   VSCHED_SOCKET_ENV ", else " VSCHED_SOCKET_DEFAULT ")");
	vsctl_print_option(f, "-d, --delay SECONDS", "between refreshes (default 1, at least "
			   "0.1)");
	vsctl_print_option(f, "-n, --iterations N", "stop after N refreshes (default: never)");
	vsctl_print_option(f, "-b, --batch", "no screen control: a block per refresh, as "
			   "top -b");
	return help ? 0 : 2;
}

int vsctl_top(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, OPT_SOCKET },
		{ "delay", required_argument, NULL, 'd' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "batch", no_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct top t = { .delay = 1 };
	struct termios saved, raw;
	bool raw_set = false;
	char *end;
	int c, ret = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:n:bh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_SOCKET:
			t.socket = optarg;
			break;
		case 'd':
			errno = 0;
			t.delay = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(t.delay >= 0.1 && t.delay <= 3600)) {
				fprintf(stderr, "%s: -d: \"%s\" is not a delay in seconds from 0.1 "
					"to 3600\n", argv[0], optarg);
				return 2;
			}
			break;
		case 'n':
			errno = 0;
			t.iterations = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || t.iterations < 1) {
				fprintf(stderr, "%s: -n: \"%s\" is not a number of refreshes (1 or "
					"more)\n", argv[0], optarg);
				return 2;
			}
			break;
		case 'b':
			t.batch = true;
			break;
		case 'h':
			return usage(argv[0], true);
		default:
			return usage(argv[0], false);
		}
	}
	if (optind != argc) {
		fprintf(stderr, "%s: unexpected argument \"%s\"\n", argv[0], argv[optind]);
		return usage(argv[0], false);
	}
	t.tty = !t.batch && isatty(STDOUT_FILENO);
	/*
	 * A closed terminal (SIGHUP) ends top as q does: the connection of a
	 * refresh under way is closed, not dropped by a default-action death.
	 */
	signal(SIGINT, on_stop);
	signal(SIGTERM, on_stop);
	signal(SIGHUP, on_stop);
	if (t.tty) {
		signal(SIGWINCH, on_winch);
		winsize(&t);
		if (isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &saved)) {
			raw = saved;
			raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
			raw_set = !tcsetattr(STDIN_FILENO, TCSANOW, &raw);
		}
		fputs("\033[?25l\033[H\033[2J", stdout);	/* no cursor, a clean screen */
	}
	for (long i = 0; !stop && (!t.iterations || i < t.iterations); i++) {
		if (resized) {
			resized = 0;
			winsize(&t);
		}
		ret = refresh(&t, argv[0]);
		if (ret || (t.iterations && i + 1 == t.iterations))
			break;
		if (wait_quit(&t, (int)(t.delay * 1000)))
			break;
	}
	if (t.tty) {
		fputs("\033[?25h\n", stdout);
		fflush(stdout);
	}
	if (raw_set)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	return ret;
}
