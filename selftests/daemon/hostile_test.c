// SPDX-License-Identifier: Apache-2.0
/*
 * Clients that misbehave, against a real daemon on its socket: one that
 * goes away in the middle of a batch, one that floods the daemon with
 * requests. What they do must leave no trace in the core and must not
 * keep the scheduler from its period; one that subscribes and never reads,
 * which must cost the others nothing and be told, once it reads, that it
 * lost notifications (client_test.c tests the connection's queue alone);
 * clients that come when the daemon has no descriptor left for them.
 */
#include <dirent.h>
#include <sys/resource.h>
#include <valgrind/valgrind.h>

#include "dreq.h"
#include "dtest.h"
#include "lib/codec_gen.h"

static struct dtest t;

static void fini(void)
{
	dt_cleanup(&t);
}

TestSuite(vschedd_hostile, .fini = fini, .timeout = 120);

/* The cycles run so far, from the line SIGUSR1 logs. */
static unsigned long long cycles_now(void)
{
	unsigned long long cycles = 0;
	char *log, *line, *p;
	size_t before;

	log = dt_log(&t);
	before = strlen(log);
	free(log);
	kill(t.pid, SIGUSR1);
	for (int i = 0; i < DT_TIMEOUT_MS / 10; i++) {
		log = dt_log(&t);
		line = strlen(log) > before ? strstr(log + before, "SIGUSR1:") : NULL;
		p = line ? strstr(line, "clients; ") : NULL;
		if (p && strchr(p, '\n')) {
			cr_assert_eq(sscanf(p, "clients; %llu cycles", &cycles), 1, "%s", line);
			free(log);
			return cycles;
		}
		free(log);
		usleep(10000);
	}
	cr_assert_fail("no SIGUSR1 line in the log");
	return 0;
}

/* Ask with SIGUSR1 until the line it logs says @what. */
static bool state_wait(const char *what)
{
	for (int i = 0; i < DT_TIMEOUT_MS / 50; i++) {
		char *log;
		bool found;

		kill(t.pid, SIGUSR1);
		usleep(50000);
		log = dt_log(&t);
		found = strstr(log, what);
		free(log);
		if (found)
			return true;
	}
	return false;
}

/* The datagram @g holds a batch of @n nodes from "@prefix-0", with @end or without its END. */
static void put_batch(struct dt_dgram *g, const char *prefix, unsigned int n, bool end)
{
	struct nlmsghdr *nlh;
	char name[32];

	nlh = dt_msg(g, VS_CMD_BATCH_BEGIN, 0, 1);
	dt_msg_end(g, nlh);
	for (unsigned int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s-%u", prefix, i);
		nlh = dt_msg(g, VS_CMD_NODE_NEW, 0, i + 2);
		dt_put_node(nlh, name);
		dt_msg_end(g, nlh);
	}
	if (end) {
		nlh = dt_msg(g, VS_CMD_BATCH_END, NLM_F_ACK, n + 2);
		dt_msg_end(g, nlh);
	}
}

Test(vschedd_hostile, a_client_gone_in_the_middle_of_a_batch_leaves_no_trace)
{
	struct vschedd_opts o = { .period_ms = 0 };
	static char rx[VSCHEDD_REPLY_MAX];
	struct dt_dgram g;
	const char *msg;
	int gone, fd;
	ssize_t n;

	dt_start(&t, &o);
	fd = dt_connect(t.path);
	gone = dt_connect(t.path);
	dt_dgram_init(&g, 128 << 10);
	put_batch(&g, "gone", 100, false);
	dt_send(gone, &g);
	close(gone);

	/* Once the daemon has seen it go, its 100 nodes are nowhere. */
	cr_assert(state_wait("SIGUSR1: 0 nodes, 0 queues, 0 PodGroups, 0 tasks, "
			     "0 VolcanoJobs, 0 priority classes; 1 clients;"));

	/* Another client's batch is its own: applied whole. */
	put_batch(&g, "kept", 3, true);
	dt_send(fd, &g);
	n = dt_recv(fd, rx, sizeof(rx), DT_TIMEOUT_MS);
	cr_assert_gt(n, 0);
	cr_assert_eq(((struct nlmsghdr *)rx)->nlmsg_type, NLMSG_ERROR);
	cr_assert_eq(dt_error((struct nlmsghdr *)rx, &msg), 0, "%s", msg);
	free(g.buf);
	kill(t.pid, SIGUSR2);
	cr_assert(dt_log_wait(&t, "SIGUSR2: the core is whole (3 nodes, 0 tasks checked)"));
	close(fd);
}

Test(vschedd_hostile, a_flood_of_requests_does_not_starve_the_period)
{
	struct vschedd_opts o = { .period_ms = 50 };
	static char rx[VSCHEDD_REPLY_MAX];
	unsigned long long before, after;
	struct timespec start, now;
	unsigned long sent = 0, answered = 0;
	struct dt_dgram g;
	int fd;

	dt_start(&t, &o);
	fd = dt_connect(t.path);
	dt_make_nodes(fd, 50);
	before = cycles_now();

	/*
	 * For a second and a half, the daemon's socket never goes quiet: a
	 * datagram of 32 requests whenever the socket takes one, the answers
	 * read as they come (never blocking on either, or the client would
	 * wait for the daemon while the daemon waits for it to read).
	 */
	cr_assert_eq(fcntl(fd, F_SETFL, O_NONBLOCK), 0);
	dt_dgram_init(&g, 64 << 10);
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLOUT };
		struct nlmsghdr *nlh;
		ssize_t n;

		cr_assert_geq(poll(&pfd, 1, 100), 0);
		if (pfd.revents & POLLOUT) {
			g.len = 0;
			for (int i = 0; i < 32; i++) {
				nlh = dt_msg(&g, VS_CMD_CONF_GET, 0, (u32)sent + (u32)i + 1);
				dt_msg_end(&g, nlh);
			}
			if (send(fd, g.buf, g.len, MSG_NOSIGNAL) == (ssize_t)g.len)
				sent += 32;
		}
		while ((n = recv(fd, rx, sizeof(rx), 0)) > 0) {
			int left = (int)n;

			for (nlh = (struct nlmsghdr *)rx; mnl_nlmsg_ok(nlh, left);
			     nlh = mnl_nlmsg_next(nlh, &left))
				answered++;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 <
		 1500);
	free(g.buf);
	after = cycles_now();

	cr_log_info("%llu cycles in 1.5 s under %lu requests (%lu answers)", after - before, sent,
		    answered);
	cr_assert_gt(answered, 0, "the flood was answered");
	/*
	 * 30 periods went by; the cycles must have run in them, not waited
	 * for the flood to end. A loose bound: sanitizer builds are slow.
	 */
	cr_assert_geq(after - before, 5, "%llu cycles in 1.5 s of 50 ms periods under a flood "
		      "of %lu requests", after - before, sent);
	close(fd);
}

/* A batch of @n tasks of 100m in PodGroup ns/@pg of queue q, each its own gang of one. */
static void load_tasks(struct vsnl *c, const char *pg, u32 n)
{
	struct vsnl_err err = { 0 };
	char name[32];

	cr_assert_eq(vsnl_batch_begin(c, &err), 0, "%s", err.msg);
	cr_assert_eq(vsnl_batch_add(c, dr_pg_new("ns", pg, "q", 1), NULL, &err), 0, "%s",
		     err.msg);
	for (u32 i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s-%04u", pg, i);
		cr_assert_eq(vsnl_batch_add(c, dr_task_new("ns", name, pg, 100), NULL, &err), 0,
			     "%s", err.msg);
	}
	cr_assert_eq(vsnl_batch_end(c, &err), 0, "%s", err.msg);
}

/* And delete them, in a batch: more events for the subscriber. */
static void unload_tasks(struct vsnl *c, const char *pg, u32 n)
{
	struct vsnl_err err = { 0 };
	char name[32];

	cr_assert_eq(vsnl_batch_begin(c, &err), 0, "%s", err.msg);
	for (u32 i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s-%04u", pg, i);
		cr_assert_eq(vsnl_batch_add(c, dr_task_key(VS_CMD_TASK_DEL, "ns", name), NULL,
					    &err), 0, "%s", err.msg);
	}
	cr_assert_eq(vsnl_batch_end(c, &err), 0, "%s", err.msg);
}

static int count_decisions(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	const struct genlmsghdr *g = nlmsg_data(nlh);

	if (g->cmd == VS_CMD_DECISIONS)
		++*(unsigned int *)arg;
	return 0;
}

static int count_tasks(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	if (tb[VS_A_TASK])
		++*(unsigned int *)arg;
	return 0;
}

/* Wait for the tasks of ns/@pg to be bound: the cycles ran while the subscriber slept. */
static void wait_bound(struct vsnl *c, const char *pg, u32 n)
{
	struct vsnl_err err = { 0 };

	for (int i = 0; i < DT_TIMEOUT_MS / 20; i++) {
		struct nl_msg *m = vsnl_msg_new(VS_CMD_TASK_GET, NLM_F_DUMP);
		unsigned int running = 0;

		nla_put_string(m, VS_A_FILTER_PODGROUP, pg);
		nla_put_u32(m, VS_A_FILTER_STATUS, 1u << VS_TASK_STATUS_RUNNING);
		cr_assert_eq(vsnl_request(c, m, count_tasks, &running, &err), 0, "%s", err.msg);
		if (running == n)
			return;
		usleep(20000);
	}
	cr_assert_fail("the tasks of %s were not all bound", pg);
}

Test(vschedd_hostile, a_subscriber_that_never_reads_costs_the_others_nothing_and_is_told)
{
	struct vschedd_opts o = { .period_ms = 20, .binder = VSCHEDD_BINDER_AUTO };
	struct vsnl_err err = { 0 };
	unsigned long long before, after;
	unsigned int seen = 0;
	struct vsnl *c, *deaf;
	char pg[16];
	int ret;

	dt_start(&t, &o);
	c = vsnl_open(t.path, &err);
	cr_assert_not_null(c, "%s", err.msg);
	deaf = vsnl_open(t.path, &err);
	cr_assert_not_null(deaf, "%s", err.msg);
	/* The smallest queue a connection may have, and every group: it fills fast. */
	cr_assert_eq(vsnl_set_rcvbuf(deaf, VS_CONN_RCVBUF_MIN, &err), 0, "%s", err.msg);
	for (int g = VS_MCGRP_DECISIONS; g <= VS_MCGRP_MAX; g++)
		cr_assert_eq(vsnl_subscribe(deaf, g, &err), 0, "%s", err.msg);

	cr_assert_eq(vsnl_request(c, dr_queue_new("q"), NULL, NULL, &err), 0, "%s", err.msg);
	for (int i = 0; i < 20; i++) {
		char name[16];

		struct nl_msg *m = vsnl_msg_new(VS_CMD_NODE_NEW, 0);
		struct nlattr *n = nla_nest_start(m, VS_A_NODE);

		snprintf(name, sizeof(name), "n%02d", i);
		nla_put_string(m, VS_NODE_A_NAME, name);
		dr_put_res(m, VS_NODE_A_ALLOCATABLE, 64000, 1ULL << 40, 200);
		nla_nest_end(m, n);
		cr_assert_eq(vsnl_request(c, m, NULL, NULL, &err), 0, "%s", err.msg);
	}
	/*
	 * Ten rounds of 1000 tasks made, bound and deleted, each some 100 kB
	 * of decisions, events and status for a connection that holds 64 kB
	 * and reads nothing: the binds go on at the period, and the other
	 * client is answered.
	 */
	before = cycles_now();
	for (int r = 0; r < 10; r++) {
		snprintf(pg, sizeof(pg), "pg%d", r);
		load_tasks(c, pg, 1000);
		wait_bound(c, pg, 1000);
		unload_tasks(c, pg, 1000);
	}
	after = cycles_now();
	cr_assert_geq(after - before, 10, "%llu cycles", after - before);

	/* The first thing it reads past what was queued: ENOBUFS, then it hears again. */
	do
		ret = vsnl_recv_notifications(deaf, DT_TIMEOUT_MS, NULL, NULL, &err);
	while (ret > 0);
	cr_assert_eq(ret, -ENOBUFS, "%d: %s", ret, err.msg);
	cr_assert(strstr(err.msg, "notifications were dropped"), "%s", err.msg);
	load_tasks(c, "after", 10);
	wait_bound(c, "after", 10);
	for (int i = 0; i < 100 && !seen; i++) {
		ret = vsnl_recv_notifications(deaf, DT_TIMEOUT_MS, count_decisions, &seen, &err);
		cr_assert_geq(ret, 0, "%s", err.msg);
	}
	cr_assert_gt(seen, 0, "no decision reached the subscriber after ENOBUFS");
	kill(t.pid, SIGUSR2);
	cr_assert(dt_log_wait(&t, "SIGUSR2: the core is whole (20 nodes, 10 tasks checked)"));
	vsnl_close(deaf);
	vsnl_close(c);
	cr_assert_eq(dt_stop(&t), 0);
}

/* The daemon's CPU time so far (user and system), in clock ticks. */
static unsigned long long daemon_cpu(void)
{
	unsigned long long user = 0, sys = 0;
	char path[64], buf[1024], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)t.pid);
	f = fopen(path, "re");
	cr_assert_not_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	cr_assert_not_null(p);
	cr_assert_eq(sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			    &user, &sys), 2, "%s", buf);
	return user + sys;
}

/* The highest descriptor the daemon holds. */
static int daemon_max_fd(void)
{
	char path[64];
	struct dirent *e;
	int max = -1;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)t.pid);
	dir = opendir(path);
	cr_assert_not_null(dir);
	while ((e = readdir(dir)))
		if (e->d_name[0] != '.' && atoi(e->d_name) > max)
			max = atoi(e->d_name);
	closedir(dir);
	return max;
}

static int read_refused(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct vsnl_stats_tb a;

	cr_assert_not_null(tb[VS_A_STATS]);
	cr_assert_eq(vsnl_stats_parse(tb[VS_A_STATS], &a, VSNL_CODEC_REPLY, NULL), 0);
	cr_assert(vsnl_stats_get_conn_refused(&a, arg));
	return 0;
}

/* Lines of the daemon's log that say @what. */
static unsigned int log_count(const char *what)
{
	char *log = dt_log(&t), *p = log;
	unsigned int n = 0;

	while ((p = strstr(p, what))) {
		n++;
		p += strlen(what);
	}
	free(log);
	return n;
}

Test(vschedd_hostile, out_of_descriptors_connections_are_refused_without_a_spin)
{
	struct vschedd_opts o = { .period_ms = 0 };
	static char rx[VSCHEDD_REPLY_MAX];
	unsigned int answered = 0, closed = 0;
	unsigned long long cpu;
	struct rlimit low, old;
	struct vsnl_err err = { 0 };
	int fds[40];
	struct vsnl *c;
	u64 refused = ~0ull;

	/*
	 * Valgrind keeps descriptors of its own above the daemon's and checks
	 * the daemon's against the limit it read at start: a limit set from
	 * outside does not reach what the daemon may open.
	 */
	if (RUNNING_ON_VALGRIND)
		cr_skip_test("under valgrind, a descriptor limit set from outside does not hold");
	dt_start(&t, &o);
	c = vsnl_open(t.path, &err);
	cr_assert_not_null(c, "%s", err.msg);
	/* Not one descriptor more for the daemon: every new connection finds none. */
	low.rlim_cur = (rlim_t)daemon_max_fd() + 1;
	low.rlim_max = RLIM_INFINITY;
	cr_assert_eq(prlimit(t.pid, RLIMIT_NOFILE, NULL, &old), 0, "%s", strerror(errno));
	low.rlim_max = old.rlim_max;
	cr_assert_eq(prlimit(t.pid, RLIMIT_NOFILE, &low, NULL), 0, "%s", strerror(errno));

	for (unsigned int i = 0; i < ARRAY_SIZE(fds); i++) {
		struct dt_dgram g;

		fds[i] = dt_connect(t.path);
		dt_dgram_init(&g, 4096);
		dt_msg_end(&g, dt_msg(&g, VS_CMD_STATS_GET, 0, 1));
		/* A client refused may be gone before its request goes. */
		send(fds[i], g.buf, g.len, MSG_NOSIGNAL);
		free(g.buf);
	}
	/* Each is answered (a descriptor was free) or closed at once; none is left waiting. */
	for (unsigned int i = 0; i < ARRAY_SIZE(fds); i++) {
		struct pollfd pfd = { .fd = fds[i], .events = POLLIN };
		ssize_t n;

		/* Answers come at once: two seconds for the first, a moment for the others. */
		if (poll(&pfd, 1, i ? 50 : 2000) != 1)
			continue;
		n = recv(fds[i], rx, sizeof(rx), MSG_DONTWAIT);
		if (n > 0)
			answered++;
		else if (!n || errno == ECONNRESET)
			closed++;
	}
	cr_assert_eq(answered + closed, ARRAY_SIZE(fds), "%u answered, %u closed, %zu waiting",
		     answered, closed, ARRAY_SIZE(fds) - answered - closed);
	cr_assert_gt(closed, 0, "no connection was refused: the limit did not hold");

	/* The loop rests: a second of no work costs no CPU, and the log stays short. */
	cpu = daemon_cpu();
	usleep(1000000);
	cpu = daemon_cpu() - cpu;
	cr_assert_leq(cpu, (unsigned long long)sysconf(_SC_CLK_TCK) / 5,
		      "%llu ticks of CPU in a second of refusals", cpu);
	cr_assert_leq(log_count("accept: "), 1, "the refusals flood the log");

	/* The connected client is served, and the statistics count the refused. */
	cr_assert_eq(vsnl_request(c, vsnl_msg_new(VS_CMD_STATS_GET, 0), read_refused, &refused,
				  &err), 0, "%s", err.msg);
	cr_assert_eq(refused, closed);
	cr_assert_eq(log_count("accept: Too many open files: 1 connection(s) refused"), 1);

	/* With descriptors again, new clients are served. */
	cr_assert_eq(prlimit(t.pid, RLIMIT_NOFILE, &old, NULL), 0, "%s", strerror(errno));
	for (unsigned int i = 0; i < ARRAY_SIZE(fds); i++)
		close(fds[i]);
	vsnl_close(c);
	c = vsnl_open(t.path, &err);
	cr_assert_not_null(c, "%s", err.msg);
	cr_assert_eq(vsnl_request(c, vsnl_msg_new(VS_CMD_STATS_GET, 0), read_refused, &refused,
				  &err), 0, "%s", err.msg);
	vsnl_close(c);
	cr_assert_eq(dt_stop(&t), 0);
}
