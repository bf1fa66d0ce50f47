// SPDX-License-Identifier: Apache-2.0
/*
 * Clients that misbehave, against a real daemon on its socket: one that
 * goes away in the middle of a batch, one that floods the daemon with
 * requests. What they do must leave no trace in the core and must not
 * keep the scheduler from its period. (A subscriber that never reads is
 * cut off with ENOBUFS: client_test.c, at the connection's queue.)
 */
#include "dtest.h"

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
