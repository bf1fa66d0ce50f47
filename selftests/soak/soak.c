// SPDX-License-Identifier: Apache-2.0
/*
 * vssoak: a bounded soak of a real vschedd on a loopback socket
 * (Documentation/fuzzing.md, "The soak").
 *
 * The daemon runs standalone (it confirms its own binds) with a short
 * period, a checkpoint and --self-check, which aborts it on the first
 * fault in its accounting. Around it, each in its own process:
 *
 *   workers     each makes PodGroups of one to six tasks in its own
 *               namespace, waits until they run, records where, reports
 *               them Succeeded (or not) and deletes them, over and over;
 *   a watcher   subscribed to the decisions group, writing every bind it
 *               hears to a file;
 *   a reader    dumping tasks and reading statistics all along, and now
 *               and then leaving in the middle of a batch;
 *   a deaf one  (the coordinator's own connection) subscribed to every
 *               group with the smallest queue, reading nothing.
 *
 * Half way, the workers pause with tasks running, the daemon is stopped
 * (SIGTERM: it writes its checkpoint) and started again on the
 * checkpoint: every task must be back as it was, and the workers go on.
 * At the end every task a worker saw run was bound exactly once, on the
 * node where it ran, by a decision the watcher heard; no decision names
 * anything else; nothing of the abandoned batches exists; the object
 * pools are back to what they held before the first task and the heap
 * is too, give or take; the deaf connection was told ENOBUFS; and the
 * daemon stops cleanly each time.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <netlink/genl/genl.h>

#include "../daemon/dreq.h"
#include "../daemon/dspawn.h"
#include "core/compiler.h"
#include "lib/codec_gen.h"
#include "lib/vsnl.h"

#define SOAK_QUEUES		4
#define SOAK_NODES		16
#define SOAK_MAX_TASKS		6	/* per PodGroup */
#define SOAK_WAIT_MS		20000	/* for tasks to run, the daemon to listen */
#define SOAK_WORKERS_MAX	64

static struct {
	const char *vschedd;
	unsigned int seconds;
	unsigned int workers;
	bool keep;
	bool verbose;
} opt = { .seconds = 10, .workers = 8 };

static char dir[PATH_MAX], sock_path[PATH_MAX + 16], ckpt_path[PATH_MAX + 16];
static char log_path[PATH_MAX + 16];
static pid_t coordinator, daemon_pid;
static volatile sig_atomic_t stopping;

/* Every process the coordinator started, for die() to stop. */
static pid_t children[SOAK_WORKERS_MAX + 2];
static unsigned int nr_children;

/* The coordinator's connections: a child lets go of its copies. */
static struct vsnl *admin, *deaf;

/* ---- helpers ---- */

static void __attribute__((format(printf, 1, 2), noreturn)) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vssoak[%d]: ", (int)getpid());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (getpid() == coordinator) {
		for (unsigned int i = 0; i < nr_children; i++)
			kill(children[i], SIGKILL);
		if (daemon_pid)
			kill(daemon_pid, SIGKILL);
		while (wait(NULL) > 0)
			;
		fprintf(stderr, "vssoak: kept %s (the daemon's log, checkpoint, decisions)\n",
			dir);
	}
	exit(1);
}

static u64 now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000 + (u64)ts.tv_nsec / 1000000;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Connect, trying for SOAK_WAIT_MS while the daemon (re)starts. */
static struct vsnl *connect_retry(void)
{
	struct vsnl_err err = { 0 };
	u64 end = now_ms() + SOAK_WAIT_MS;
	struct vsnl *c;

	while (!(c = vsnl_open(sock_path, &err))) {
		if (now_ms() > end)
			die("cannot connect to %s: %s", sock_path, err.msg);
		sleep_ms(20);
	}
	return c;
}

static void request(struct vsnl *c, struct nl_msg *m, vsnl_cb cb, void *arg, const char *what)
{
	struct vsnl_err err = { 0 };

	if (vsnl_request(c, m, cb, arg, &err))
		die("%s: %s", what, err.msg);
}

static struct nl_msg *task_status(const char *ns, const char *name, u32 event)
{
	struct nl_msg *m = vsnl_msg_new(VS_CMD_TASK_STATUS, 0);
	struct nlattr *n = nla_nest_start(m, VS_A_TASK);

	nla_put_string(m, VS_TASK_A_NAMESPACE, ns);
	nla_put_string(m, VS_TASK_A_NAME, name);
	nla_put_u32(m, VS_TASK_A_EVENT, event);
	nla_nest_end(m, n);
	return m;
}

static void batch_add(struct vsnl *c, struct nl_msg *m)
{
	struct vsnl_err err = { 0 };

	if (vsnl_batch_add(c, m, NULL, &err))
		die("batch: %s", err.msg);
}

static void batch_end(struct vsnl *c, const char *what)
{
	struct vsnl_err err = { 0 };

	if (vsnl_batch_end(c, &err))
		die("%s: %s", what, err.msg);
}

static void batch_begin(struct vsnl *c)
{
	struct vsnl_err err = { 0 };

	if (vsnl_batch_begin(c, &err))
		die("batch: %s", err.msg);
}

/* ---- what the daemon holds ---- */

/* One task as a dump shows it: "ns/name status node". */
struct seen_tasks {
	char *text;
	size_t len;
	FILE *f;
	unsigned int nr, running;
};

static int read_task(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct seen_tasks *s = arg;
	struct vsnl_task_tb a;
	u32 status = 0;

	if (!tb[VS_A_TASK])
		return 0;
	if (vsnl_task_parse(tb[VS_A_TASK], &a, VSNL_CODEC_REPLY, NULL) ||
	    !vsnl_task_get_status(&a, &status))
		die("a task without its status");
	fprintf(s->f, "%s/%s %u %s\n", vsnl_task_get_namespace(&a), vsnl_task_get_name(&a),
		status, vsnl_task_get_node(&a) ?: "-");
	s->nr++;
	s->running += status == VS_TASK_STATUS_RUNNING;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of @s->text in order, so that two dumps compare whatever their order. */
static void sort_lines(struct seen_tasks *s)
{
	char **lines = calloc(s->nr + 1, sizeof(*lines)), *sorted, *p = s->text;
	size_t off = 0;

	sorted = malloc(s->len + 1);
	if (!lines || !sorted)
		die("out of memory");
	for (unsigned int i = 0; i < s->nr; i++) {
		lines[i] = p;
		p = strchr(p, '\n') + 1;
	}
	qsort(lines, s->nr, sizeof(*lines), cmp_str);
	for (unsigned int i = 0; i < s->nr; i++) {
		size_t l = (size_t)(strchr(lines[i], '\n') + 1 - lines[i]);

		memcpy(sorted + off, lines[i], l);
		off += l;
	}
	sorted[off] = '\0';
	free(lines);
	free(s->text);
	s->text = sorted;
}

/* The tasks of @ns (NULL: all), of PodGroup @pg if not NULL, one line each, sorted. */
static void dump_tasks(struct vsnl *c, const char *ns, const char *pg, struct seen_tasks *s)
{
	struct nl_msg *m = vsnl_msg_new(VS_CMD_TASK_GET, NLM_F_DUMP);

	memset(s, 0, sizeof(*s));
	s->f = open_memstream(&s->text, &s->len);
	if (!s->f)
		die("open_memstream: %s", strerror(errno));
	if (ns)
		nla_put_string(m, VS_A_FILTER_NAMESPACE, ns);
	if (pg)
		nla_put_string(m, VS_A_FILTER_PODGROUP, pg);
	request(c, m, read_task, s, "dump of the tasks");
	fclose(s->f);
	s->f = NULL;
	sort_lines(s);
}

struct stats {
	u64 heap;
	u32 tasks, podgroups, nodes, queues;
	u64 cycles;
	struct { char name[32]; u64 active; } pools[16];
	unsigned int nr_pools;
};

static int read_stats(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	const struct nlattr *attr;
	struct vsnl_stats_tb a;
	struct vsnl_pool_tb p;
	struct stats *st = arg;

	if (!tb[VS_A_STATS] || vsnl_stats_parse(tb[VS_A_STATS], &a, VSNL_CODEC_REPLY, NULL) ||
	    !vsnl_stats_get_nr_tasks(&a, &st->tasks) ||
	    !vsnl_stats_get_nr_podgroups(&a, &st->podgroups) ||
	    !vsnl_stats_get_nr_nodes(&a, &st->nodes) ||
	    !vsnl_stats_get_nr_queues(&a, &st->queues))
		die("stats without their counts");
	st->heap = 0;
	vsnl_stats_get_heap_bytes(&a, &st->heap);
	st->cycles = 0;
	vsnl_stats_get_cycles(&a, &st->cycles);
	st->nr_pools = 0;
	mnl_attr_for_each_nested(attr, tb[VS_A_STATS]) {
		const char *name;

		if (mnl_attr_get_type(attr) != VS_STATS_A_POOL ||
		    st->nr_pools == ARRAY_SIZE(st->pools))
			continue;
		if (vsnl_pool_parse(attr, &p, VSNL_CODEC_REPLY, NULL) ||
		    !(name = vsnl_pool_get_name(&p)) ||
		    !vsnl_pool_get_active(&p, &st->pools[st->nr_pools].active))
			die("a pool without its name or count");
		snprintf(st->pools[st->nr_pools++].name, sizeof(st->pools[0].name), "%s", name);
	}
	return 0;
}

static struct stats get_stats(struct vsnl *c)
{
	struct stats st = { 0 };

	request(c, vsnl_msg_new(VS_CMD_STATS_GET, 0), read_stats, &st, "statistics");
	return st;
}

/* ---- the daemon ---- */

static void daemon_start(void)
{
	const char *const argv[] = { opt.vschedd, "--socket", sock_path, "--period", "20ms",
			 "--binder", "auto", "--checkpoint", ckpt_path, "--checkpoint-interval",
			 "500ms", "--self-check", "-v", "1", NULL };
	struct vsnl *c;

	daemon_pid = dspawn_logged(log_path, argv);
	if (daemon_pid < 0)
		die("fork: %s", strerror(errno));
	c = connect_retry();
	vsnl_close(c);
}

/* SIGTERM, and the daemon must stop cleanly: its checkpoint written, exit 0. */
static void daemon_stop(void)
{
	int status;

	kill(daemon_pid, SIGTERM);
	if (waitpid(daemon_pid, &status, 0) != daemon_pid)
		die("waitpid: %s", strerror(errno));
	daemon_pid = 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		die("vschedd did not stop cleanly (%s %d); its log: %s",
		    WIFEXITED(status) ? "exit status" : "signal",
		    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), log_path);
}

/* ---- a worker ---- */

struct worker {
	unsigned int id;
	pid_t pid;
	int ctl;		/* the coordinator writes: 'p' pause, 'r' resume, 'q' quit */
	int ack;		/* the worker writes: 'P' paused, then its counts at the end */
};

struct worker_counts {
	u64 podgroups, tasks, succeeded;
};

/* A byte from @fd: 0 when none waits (@wait false) or the pipe closed. */
static char ctl_byte(int fd, bool wait)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char b;

	if (poll(&pfd, 1, wait ? -1 : 0) <= 0 || read(fd, &b, 1) != 1)
		return 0;
	return b;
}

/* Wait until the @m tasks of ns/pg run; their lines ("ns/name 4 node") in s. */
static void wait_running(struct vsnl *c, const char *ns, const char *pg, u32 m,
			 struct seen_tasks *s)
{
	u64 end = now_ms() + SOAK_WAIT_MS;

	for (;;) {
		dump_tasks(c, ns, pg, s);
		if (s->nr == m && s->running == m)
			return;
		if (now_ms() > end)
			die("%s/%s: %u of its %u tasks run after %u ms:\n%s", ns, pg, s->running, m,
			    SOAK_WAIT_MS, s->text);
		free(s->text);
		sleep_ms(10);
	}
}

static void __attribute__((noreturn)) worker_run(struct worker *w, int created_fd)
{
	struct worker_counts n = { 0 };
	unsigned int seed = w->id * 7919u + 17;
	char ns[16], pg[24], name[40], queue[8];
	struct seen_tasks s;
	struct vsnl *c;
	bool quit = false;

	snprintf(ns, sizeof(ns), "w%02u", w->id);
	snprintf(queue, sizeof(queue), "q%u", w->id % SOAK_QUEUES);
	c = connect_retry();
	for (u64 i = 0; !quit; i++) {
		u32 m = 1 + (u32)(rand_r(&seed) % SOAK_MAX_TASKS);
		u64 mcpu = 250 * (1 + (u64)(rand_r(&seed) % 4));
		bool succeed = rand_r(&seed) % 4 != 0;
		char b;

		snprintf(pg, sizeof(pg), "g%06llu", (unsigned long long)i);
		batch_begin(c);
		batch_add(c, dr_pg_new(ns, pg, queue, m));
		for (u32 j = 0; j < m; j++) {
			snprintf(name, sizeof(name), "t%06llu-%u", (unsigned long long)i, j);
			batch_add(c, dr_task_new(ns, name, pg, mcpu));
		}
		batch_end(c, "a PodGroup and its tasks");
		wait_running(c, ns, pg, m, &s);
		/* Where they run: what the watcher's decisions must say. */
		if (write(created_fd, s.text, s.len) != (ssize_t)s.len)
			die("write: %s", strerror(errno));

		/* Paused here, with tasks running: the daemon restarts under them. */
		b = ctl_byte(w->ctl, false);
		if (b == 'p') {
			struct seen_tasks after;

			vsnl_close(c);
			if (write(w->ack, "P", 1) != 1)
				die("write: %s", strerror(errno));
			b = ctl_byte(w->ctl, true);
			c = connect_retry();
			dump_tasks(c, ns, pg, &after);
			if (after.len != s.len || memcmp(after.text, s.text, s.len))
				die("%s/%s across the restart: before\n%sand after\n%s", ns, pg,
				    s.text, after.text);
			free(after.text);
		}
		quit = b == 'q';
		free(s.text);

		/* Done, or deleted while they run; then gone. */
		batch_begin(c);
		for (u32 j = 0; j < m; j++) {
			snprintf(name, sizeof(name), "t%06llu-%u", (unsigned long long)i, j);
			if (succeed)
				batch_add(c, task_status(ns, name, VS_TASK_EVENT_SUCCEEDED));
			batch_add(c, dr_task_key(VS_CMD_TASK_DEL, ns, name));
		}
		batch_add(c, dr_pg_key(VS_CMD_PODGROUP_DEL, ns, pg));
		batch_end(c, "the end of a PodGroup");
		n.podgroups++;
		n.tasks += m;
		n.succeeded += succeed ? m : 0;
	}
	vsnl_close(c);
	if (write(w->ack, &n, sizeof(n)) != sizeof(n))
		die("write: %s", strerror(errno));
	exit(0);
}

/* ---- the watcher and the reader ---- */

struct watch {
	int fd;			/* the decisions file */
	u64 binds, evicts;
};

static int on_decisions(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	const struct genlmsghdr *g = nlmsg_data(nlh);
	const struct nlattr *a;
	struct vsnl_decision_tb d;
	struct watch *w = arg;
	char line[600];
	int len;

	if (g->cmd != VS_CMD_DECISIONS)
		return 0;
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		u32 kind = 0;

		if (mnl_attr_get_type(a) != VS_A_DECISION)
			continue;
		if (vsnl_decision_parse(a, &d, VSNL_CODEC_REPLY, NULL) ||
		    !vsnl_decision_get_kind(&d, &kind))
			die("a decision without its kind");
		len = snprintf(line, sizeof(line), "%s %s/%s %s\n",
			       kind == VS_DECISION_BIND ? "bind" : "other",
			       vsnl_decision_get_namespace(&d), vsnl_decision_get_name(&d),
			       vsnl_decision_get_node(&d) ?: "-");
		if (write(w->fd, line, (size_t)len) != len)
			die("write: %s", strerror(errno));
	}
	return 0;
}

static void on_term(int sig)
{
	stopping = 1;
}

/* Hear every decision, across restarts; say 'S' on @ready each time it is subscribed. */
static void __attribute__((noreturn)) watcher_run(int ready, int out_fd)
{
	struct watch w = { .fd = out_fd };
	struct vsnl_err err = { 0 };
	struct vsnl *c = NULL;
	u64 give_up = 0;
	int ret;

	signal(SIGTERM, on_term);
	while (!stopping) {
		if (!c) {
			c = connect_retry();
			/*
			 * Enough room for every decision of a cycle: none may be
			 * lost. A daemon that is stopping may take the connection
			 * and close it: try again, for a while.
			 */
			if (vsnl_set_rcvbuf(c, 64ull << 20, &err) ||
			    vsnl_subscribe(c, VS_MCGRP_DECISIONS, &err)) {
				if (!give_up)
					give_up = now_ms() + SOAK_WAIT_MS;
				if (now_ms() > give_up)
					die("watcher: %s", err.msg);
				vsnl_close(c);
				c = NULL;
				sleep_ms(20);
				continue;
			}
			give_up = 0;
			if (write(ready, "S", 1) != 1)
				die("write: %s", strerror(errno));
		}
		ret = vsnl_recv_notifications(c, 100, on_decisions, &w, &err);
		if (ret == -ENOBUFS)
			die("watcher: decisions were dropped: %s", err.msg);
		if (ret < 0) {
			/* The daemon went (a restart): hear the next one. */
			vsnl_close(c);
			c = NULL;
		}
	}
	if (c) {
		/* What was sent before the stop. */
		while (vsnl_recv_notifications(c, 200, on_decisions, &w, &err) > 0)
			;
		vsnl_close(c);
	}
	exit(0);
}

/* BEGIN, a PodGroup and 50 tasks, and away without END: none may ever exist. */
static void abandon_batch(unsigned int i)
{
	struct vsnl_err err = { 0 };
	struct vsnl *gone = vsnl_open(sock_path, &err);
	char name[32];

	if (!gone)
		return;		/* the daemon restarting */
	if (!vsnl_batch_begin(gone, &err)) {
		vsnl_batch_add(gone, dr_pg_new("ghost", "g", "q0", 1), NULL, &err);
		for (int j = 0; j < 50; j++) {
			snprintf(name, sizeof(name), "t%u-%d", i, j);
			vsnl_batch_add(gone, dr_task_new("ghost", name, "g", 100), NULL, &err);
		}
	}
	vsnl_close(gone);
}

/* Dumps and statistics all along; now and then a batch left half way. */
static void __attribute__((noreturn)) reader_run(void)
{
	struct vsnl_err err = { 0 };
	struct seen_tasks s;
	struct vsnl *c = NULL;

	signal(SIGTERM, on_term);
	for (unsigned int i = 0; !stopping; i++) {
		if (!c)
			c = connect_retry();
		s.f = open_memstream(&s.text, &s.len);
		s.nr = 0;
		if (!s.f)
			die("open_memstream: %s", strerror(errno));
		if (vsnl_request(c, vsnl_msg_new(VS_CMD_TASK_GET, NLM_F_DUMP), read_task, &s,
				 &err) ||
		    vsnl_request(c, vsnl_msg_new(VS_CMD_STATS_GET, 0), NULL, NULL, &err)) {
			/* A restart: connect again. */
			vsnl_close(c);
			c = NULL;
		}
		fclose(s.f);
		free(s.text);
		if (i % 8 == 0)
			abandon_batch(i);
		sleep_ms(20);
	}
	if (c)
		vsnl_close(c);
	exit(0);
}

/* ---- the coordinator ---- */

static pid_t spawn(void (*run)(void *), void *arg)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		vsnl_close(admin);
		vsnl_close(deaf);
		admin = deaf = NULL;
		run(arg);
	}
	children[nr_children++] = pid;
	return pid;
}

struct spawn_worker {
	struct worker *w;
	int created_fd;
};

static void run_worker(void *arg)
{
	struct spawn_worker *sw = arg;

	worker_run(sw->w, sw->created_fd);
}

struct spawn_watcher {
	int ready, out;
};

static void run_watcher(void *arg)
{
	struct spawn_watcher *sw = arg;

	watcher_run(sw->ready, sw->out);
}

static void run_reader(void *arg)
{
	reader_run();
}

/* Fail as soon as any child failed; the daemon must be alive throughout. */
static void check_children(void)
{
	int status;
	pid_t pid = waitpid(-1, &status, WNOHANG);

	if (pid <= 0)
		return;
	if (pid == daemon_pid)
		die("vschedd died (%s %d); its log: %s", WIFEXITED(status) ? "exit status" :
		    "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), log_path);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		die("process %d failed (above)", (int)pid);
}

static void run_for(u64 until)
{
	while (now_ms() < until) {
		check_children();
		sleep_ms(50);
	}
}

/* A byte from @fd within SOAK_WAIT_MS, children checked meanwhile. */
static char await_byte(int fd, const char *what)
{
	u64 end = now_ms() + SOAK_WAIT_MS;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char b;

	while (now_ms() < end) {
		check_children();
		if (poll(&pfd, 1, 50) > 0 && read(fd, &b, 1) == 1)
			return b;
	}
	die("no word from %s in %u ms", what, SOAK_WAIT_MS);
}

/* The deaf connection: every group, the smallest queue, never read until the end. */
static struct vsnl *deaf_open(void)
{
	struct vsnl_err err = { 0 };
	struct vsnl *c = connect_retry();

	if (vsnl_set_rcvbuf(c, VS_CONN_RCVBUF_MIN, &err))
		die("deaf: %s", err.msg);
	for (int g = VS_MCGRP_DECISIONS; g <= VS_MCGRP_MAX; g++)
		if (vsnl_subscribe(c, g, &err))
			die("deaf: %s", err.msg);
	return c;
}

/* Lines of a file, sorted, as one buffer with NULs; their number in *@n. */
static char **read_lines(const char *path, size_t *n, char **buf)
{
	size_t cap = 0, len = 0;
	char **lines = NULL;
	FILE *f = fopen(path, "re");
	struct stat st;

	*n = 0;
	if (!f || fstat(fileno(f), &st))
		die("%s: %s", path, strerror(errno));
	*buf = malloc((size_t)st.st_size + 1);
	if (!*buf || fread(*buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size)
		die("%s: cannot read it", path);
	fclose(f);
	(*buf)[st.st_size] = '\0';
	for (char *p = *buf, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			die("%s: a line without its end", path);
		*nl = '\0';
		if (len == cap) {
			cap = cap ? 2 * cap : 1024;
			lines = realloc(lines, cap * sizeof(*lines));
			if (!lines)
				die("out of memory");
		}
		lines[len++] = p;
	}
	*n = len;
	return lines;
}

/*
 * Every task a worker saw run ("ns/name 4 node", in created.txt) bound
 * exactly once on that node ("bind ns/name node", in decisions.txt), and
 * no other decision.
 */
static u64 check_decisions(const char *created_path, const char *decisions_path)
{
	size_t nc, nd, i, j;
	char *cbuf, *dbuf;
	char **cl = read_lines(created_path, &nc, &cbuf);
	char **dl = read_lines(decisions_path, &nd, &dbuf);

	/* "ns/name 4 node" becomes "bind ns/name node", as the watcher writes. */
	for (i = 0; i < nc; i++) {
		char *sp = strchr(cl[i], ' '), *node = sp ? strchr(sp + 1, ' ') : NULL;
		char *line;

		if (!node || asprintf(&line, "bind %.*s %s", (int)(sp - cl[i]), cl[i],
				      node + 1) < 0)
			die("created: bad line \"%s\"", cl[i]);
		cl[i] = line;
	}
	qsort(cl, nc, sizeof(*cl), cmp_str);
	qsort(dl, nd, sizeof(*dl), cmp_str);
	for (i = j = 0; i < nc || j < nd;) {
		int c = i == nc ? 1 : j == nd ? -1 : strcmp(cl[i], dl[j]);

		if (c < 0)
			die("%s ran, but no such decision was heard (lost, or made for another "
			    "node)", cl[i]);
		if (c > 0)
			die("decision \"%s\" for no task a worker saw run there", dl[j]);
		if (j + 1 < nd && !strcmp(dl[j], dl[j + 1]))
			die("decision \"%s\" heard twice", dl[j]);
		i++;
		j++;
	}
	for (i = 0; i < nc; i++)
		free(cl[i]);
	free(cl);
	free(dl);
	free(cbuf);
	free(dbuf);
	return nc;
}

static u64 pool_active(const struct stats *st, const char *name)
{
	for (unsigned int i = 0; i < st->nr_pools; i++)
		if (!strcmp(st->pools[i].name, name))
			return st->pools[i].active;
	die("no pool \"%s\" in the statistics", name);
}

/*
 * Two rounds of 3,000 tasks made, run and deleted at once, among the
 * workers' (written down in @created_fd as theirs): more than the deaf
 * connection's queue and the socket's buffer hold, however slowly the
 * rest goes (under valgrind), and the peak the daemon's tables grow to.
 */
static void burst(struct vsnl *c, int created_fd)
{
	struct seen_tasks s;
	char name[32];

	for (int r = 0; r < 2; r++) {
		batch_begin(c);
		batch_add(c, dr_pg_new("burst", "g", "q0", 1));
		for (int i = 0; i < 3000; i++) {
			snprintf(name, sizeof(name), "t%d-%04d", r, i);
			batch_add(c, dr_task_new("burst", name, "g", 100));
		}
		batch_end(c, "the burst");
		wait_running(c, "burst", "g", 3000, &s);
		if (write(created_fd, s.text, s.len) != (ssize_t)s.len)
			die("write: %s", strerror(errno));
		free(s.text);
		batch_begin(c);
		for (int i = 0; i < 3000; i++) {
			snprintf(name, sizeof(name), "t%d-%04d", r, i);
			batch_add(c, dr_task_key(VS_CMD_TASK_DEL, "burst", name));
		}
		batch_add(c, dr_pg_key(VS_CMD_PODGROUP_DEL, "burst", "g"));
		batch_end(c, "the end of the burst");
	}
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vssoak --vschedd PATH [--seconds N] [--workers N] [--keep] [-v]\n"
		"A bounded soak of a vschedd on a loopback socket: many clients making and\n"
		"deleting work, subscribers, cycles, and a restart from a checkpoint half way;\n"
		"then no decision lost or duplicated, pools back to where they started.\n"
		"  --vschedd PATH   the daemon to run\n"
		"  --seconds N      how long the workload runs (default 10)\n"
		"  --workers N      clients making and deleting PodGroups (default 8, at most %d)\n"
		"  --keep           keep the directory (socket, log, checkpoint, decisions)\n"
		"  -v, --verbose    say what happens\n", SOAK_WORKERS_MAX);
}

static void parse_opts(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "vschedd", required_argument, NULL, 'd' },
		{ "seconds", required_argument, NULL, 's' },
		{ "workers", required_argument, NULL, 'w' },
		{ "keep", no_argument, NULL, 'k' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			opt.vschedd = optarg;
			break;
		case 's':
		case 'w':
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || !*optarg || *end || *optarg == '-' || !v ||
			    v > (c == 's' ? 86400ul : SOAK_WORKERS_MAX)) {
				fprintf(stderr, "vssoak: --%s: \"%s\" is not a number from 1 to "
					"%lu\n", c == 's' ? "seconds" : "workers", optarg,
					c == 's' ? 86400ul : (unsigned long)SOAK_WORKERS_MAX);
				exit(2);
			}
			if (c == 's')
				opt.seconds = (unsigned int)v;
			else
				opt.workers = (unsigned int)v;
			break;
		case 'k':
			opt.keep = true;
			break;
		case 'v':
			opt.verbose = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (!opt.vschedd || optind != argc) {
		usage(stderr);
		exit(2);
	}
}

#define say(...)	do { if (opt.verbose) printf("vssoak: " __VA_ARGS__); } while (0)

int main(int argc, char **argv)
{
	struct worker workers[SOAK_WORKERS_MAX];
	char created_path[PATH_MAX + 16], decisions_path[PATH_MAX + 16];
	struct worker_counts total = { 0 };
	struct vsnl_err err = { 0 };
	struct seen_tasks before, after;
	struct stats base, restarted, warm, end_st;
	pid_t watcher, reader;
	int ready[2], created_fd, decisions_fd, ret;
	char name[32];
	u64 start, bound, heap_slack;

	parse_opts(argc, argv);
	coordinator = getpid();
	snprintf(dir, sizeof(dir), "%s/vssoak-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") :
		 "/tmp");
	if (!mkdtemp(dir))
		die("mkdtemp %s: %s", dir, strerror(errno));
	snprintf(sock_path, sizeof(sock_path), "%s/vs.sock", dir);
	snprintf(ckpt_path, sizeof(ckpt_path), "%s/state.ckpt", dir);
	snprintf(log_path, sizeof(log_path), "%s/vschedd.log", dir);
	snprintf(created_path, sizeof(created_path), "%s/created.txt", dir);
	snprintf(decisions_path, sizeof(decisions_path), "%s/decisions.txt", dir);
	created_fd = open(created_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	decisions_fd = open(decisions_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (created_fd < 0 || decisions_fd < 0 || pipe(ready))
		die("%s: %s", dir, strerror(errno));
	signal(SIGPIPE, SIG_IGN);

	/* The daemon and the cluster the work runs on: room for every worker's work at once. */
	daemon_start();
	admin = connect_retry();
	for (int q = 0; q < SOAK_QUEUES; q++) {
		snprintf(name, sizeof(name), "q%d", q);
		request(admin, dr_queue_new(name), NULL, NULL, "a queue");
	}
	for (int i = 0; i < SOAK_NODES; i++) {
		struct nl_msg *m = vsnl_msg_new(VS_CMD_NODE_NEW, 0);
		struct nlattr *n = nla_nest_start(m, VS_A_NODE);

		snprintf(name, sizeof(name), "n%02d", i);
		nla_put_string(m, VS_NODE_A_NAME, name);
		dr_put_res(m, VS_NODE_A_ALLOCATABLE, 64000, 256ULL << 30, 256);
		nla_nest_end(m, n);
		request(admin, m, NULL, NULL, "a node");
	}
	base = get_stats(admin);
	say("%u queues, %u nodes; heap %llu KiB\n", base.queues, base.nodes,
	    (unsigned long long)(base.heap >> 10));

	{
		struct spawn_watcher sw = { .ready = ready[1], .out = decisions_fd };

		watcher = spawn(run_watcher, &sw);
	}
	await_byte(ready[0], "the watcher");
	deaf = deaf_open();
	reader = spawn(run_reader, NULL);
	for (unsigned int k = 0; k < opt.workers; k++) {
		int ctl[2], ack[2];
		struct spawn_worker sw = { .w = &workers[k], .created_fd = created_fd };

		if (pipe(ctl) || pipe(ack))
			die("pipe: %s", strerror(errno));
		workers[k] = (struct worker){ .id = k, .ctl = ctl[0], .ack = ack[1] };
		workers[k].pid = spawn(run_worker, &sw);
		close(ctl[0]);
		close(ack[1]);
		workers[k].ctl = ctl[1];
		workers[k].ack = ack[0];
	}
	start = now_ms();
	run_for(start + opt.seconds * 500ull);

	/* Half way: the workers pause with tasks running, and the daemon restarts under them. */
	for (unsigned int k = 0; k < opt.workers; k++)
		if (write(workers[k].ctl, "p", 1) != 1)
			die("write: %s", strerror(errno));
	for (unsigned int k = 0; k < opt.workers; k++)
		if (await_byte(workers[k].ack, "a worker pausing") != 'P')
			die("worker %u did not pause", k);
	dump_tasks(admin, NULL, NULL, &before);
	vsnl_close(admin);
	vsnl_close(deaf);
	daemon_stop();
	say("stopped with %u tasks running; restarting from %s\n", before.running, ckpt_path);
	daemon_start();
	admin = connect_retry();
	restarted = get_stats(admin);
	dump_tasks(admin, NULL, NULL, &after);
	if (after.len != before.len || memcmp(after.text, before.text, before.len))
		die("the tasks before the restart:\n%sand after it:\n%s", before.text, after.text);
	free(after.text);
	if (await_byte(ready[0], "the watcher, subscribing again") != 'S')
		die("the watcher said something else");
	deaf = deaf_open();
	for (unsigned int k = 0; k < opt.workers; k++)
		if (write(workers[k].ctl, "r", 1) != 1)
			die("write: %s", strerror(errno));
	/*
	 * The heap once the restarted daemon has served a while, a burst
	 * included: what it needs to work.
	 */
	burst(admin, created_fd);
	run_for(start + opt.seconds * 600ull);
	warm = get_stats(admin);
	run_for(start + opt.seconds * 1000ull);

	/* The end: every worker finishes what it holds and deletes it. */
	for (unsigned int k = 0; k < opt.workers; k++)
		if (write(workers[k].ctl, "q", 1) != 1)
			die("write: %s", strerror(errno));
	for (unsigned int k = 0; k < opt.workers; k++) {
		struct worker_counts n;
		int status;

		ret = (int)read(workers[k].ack, &n, sizeof(n));
		if (ret != (int)sizeof(n) || waitpid(workers[k].pid, &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			die("worker %u failed (above)", k);
		total.podgroups += n.podgroups;
		total.tasks += n.tasks;
		total.succeeded += n.succeeded;
	}
	kill(reader, SIGTERM);
	kill(watcher, SIGTERM);
	if (waitpid(reader, &ret, 0) < 0 || !WIFEXITED(ret) || WEXITSTATUS(ret) ||
	    waitpid(watcher, &ret, 0) < 0 || !WIFEXITED(ret) || WEXITSTATUS(ret))
		die("the reader or the watcher failed (above)");

	/* Nothing left of the work, nor of the batches left half way. */
	dump_tasks(admin, NULL, NULL, &after);
	if (after.nr)
		die("%u tasks left after the work:\n%s", after.nr, after.text);
	end_st = get_stats(admin);
	if (end_st.tasks || end_st.podgroups || end_st.nodes != base.nodes ||
	    end_st.queues != base.queues)
		die("left: %u tasks, %u PodGroups, %u nodes, %u queues", end_st.tasks,
		    end_st.podgroups, end_st.nodes, end_st.queues);
	for (unsigned int i = 0; i < base.nr_pools; i++)
		if (pool_active(&end_st, base.pools[i].name) != base.pools[i].active)
			die("pool %s holds %llu objects, %llu before the work", base.pools[i].name,
			    (unsigned long long)pool_active(&end_st, base.pools[i].name),
			    (unsigned long long)base.pools[i].active);
	/*
	 * The heap: what the restarted daemon held once it had served a while
	 * (its cycles' scratch, its queues, tables grown to the peak), with
	 * 1 MiB of room and 16 bytes per task made: a leak of anything per
	 * task or per request shows, the more the longer the soak.
	 */
	heap_slack = (1ull << 20) + 16 * total.tasks;
	if (warm.heap && end_st.heap > warm.heap + heap_slack)
		die("the heap holds %llu KiB after the work, %llu KiB while it went on",
		    (unsigned long long)(end_st.heap >> 10), (unsigned long long)(warm.heap >> 10));

	/* The deaf connection: told that it lost notifications. */
	do
		ret = vsnl_recv_notifications(deaf, 1000, NULL, NULL, &err);
	while (ret > 0);
	if (ret != -ENOBUFS)
		die("the subscriber that never read was not told ENOBUFS (%d: %s)", ret, err.msg);
	vsnl_close(deaf);
	vsnl_close(admin);
	daemon_stop();

	bound = check_decisions(created_path, decisions_path);
	if (bound != total.tasks + 6000)
		die("the workers made %llu tasks and the burst 6000, %llu were seen running",
		    (unsigned long long)total.tasks, (unsigned long long)bound);
	printf("vssoak: %u s, %u workers, 2 daemon lives: %llu PodGroups, %llu tasks (%llu "
	       "succeeded, the rest deleted running) and the burst's 6000, each bound once where "
	       "it ran; %u tasks carried across the restart; pools back to their start; ",
	       opt.seconds, opt.workers, (unsigned long long)total.podgroups,
	       (unsigned long long)total.tasks, (unsigned long long)total.succeeded, before.nr);
	if (base.heap)
		printf("heap %llu KiB empty, %llu KiB restarted, %llu KiB working, %llu KiB at the "
		       "end\n", (unsigned long long)(base.heap >> 10),
		       (unsigned long long)(restarted.heap >> 10),
		       (unsigned long long)(warm.heap >> 10),
		       (unsigned long long)(end_st.heap >> 10));
	else
		printf("the heap not counted here (valgrind)\n");
	free(before.text);
	free(after.text);
	if (!opt.keep) {
		unlink(created_path);
		unlink(decisions_path);
		unlink(ckpt_path);
		unlink(log_path);
		rmdir(dir);
	} else {
		printf("vssoak: kept %s\n", dir);
	}
	return 0;
}
