/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers of the daemon's tests: a vschedd served in a child process on a
 * socket of the test's own (its log in a file beside it), and a raw client
 * that sends datagrams built with libmnl and reads the answers one datagram
 * at a time, for what libvsnl hides (parts, the order of answers,
 * notifications between replies).
 */
#ifndef VS_SELFTESTS_DTEST_H
#define VS_SELFTESTS_DTEST_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <criterion/criterion.h>

#include "../netlink/nltest.h"
#include "core/log.h"
#include "daemon/vschedd.h"

/* Under valgrind everything is slower: waits are generous. */
#define DT_TIMEOUT_MS	30000

struct dtest {
	char dir[64];
	char path[96];			/* the socket */
	char log[96];			/* the daemon's log */
	pid_t pid;
	char error[256];		/* why the daemon did not start, if it did not */
};

static inline void dt_paths(struct dtest *t)
{
	/*
	 * A directory of its own: pids wrap (pid_max is 32768 here), and a
	 * test that died left its directory, socket and all, for the next
	 * process of its pid to trip over.
	 */
	snprintf(t->dir, sizeof(t->dir), "/tmp/vschedd-test-%d-XXXXXX", (int)getpid());
	cr_assert_not_null(mkdtemp(t->dir), "mkdtemp %s: %s", t->dir, strerror(errno));
	chmod(t->dir, 0755);
	snprintf(t->path, sizeof(t->path), "%s/vs.sock", t->dir);
	snprintf(t->log, sizeof(t->log), "%s/log", t->dir);
}

/*
 * Serve @o in a child process; 0 once it listens, or the negative errno
 * of vschedd_init() with t->error saying why.
 */
static inline int dt_try_start(struct dtest *t, struct vschedd_opts *o)
{
	struct { int ret; char msg[256]; } said = { 0 };
	int p[2];

	if (!t->dir[0])
		dt_paths(t);
	if (!o->socket_path)
		o->socket_path = t->path;
	/* Every test's daemon checks its accounting after each request and cycle. */
	o->self_check = true;
	cr_assert_eq(pipe(p), 0);
	fflush(NULL);
	t->pid = fork();
	cr_assert_geq(t->pid, 0);
	if (!t->pid) {
		struct vs_err err = { { 0 } };
		struct vschedd d;
		int ret;

		close(p[0]);
		vs_log_file = fopen(t->log, "ae");
		vs_log_verbosity = o->verbosity;
		if (vs_log_file)
			setvbuf(vs_log_file, NULL, _IOLBF, 0);
		said.ret = vschedd_init(&d, o, &err);
		snprintf(said.msg, sizeof(said.msg), "%s", err.msg);
		if (write(p[1], &said, sizeof(said)) != sizeof(said) || said.ret)
			_exit(3);
		close(p[1]);
		ret = vschedd_run(&d);
		vschedd_destroy(&d);
		_exit(ret ? 1 : 0);
	}
	close(p[1]);
	cr_assert_eq(read(p[0], &said, sizeof(said)), (ssize_t)sizeof(said));
	close(p[0]);
	snprintf(t->error, sizeof(t->error), "%s", said.msg);
	if (said.ret) {
		waitpid(t->pid, NULL, 0);
		t->pid = 0;
	}
	return said.ret;
}

static inline void dt_start(struct dtest *t, struct vschedd_opts *o)
{
	cr_assert_eq(dt_try_start(t, o), 0, "vschedd did not start: %s", t->error);
}

/* SIGTERM, and the daemon's exit status (-1 if it did not exit normally). */
static inline int dt_stop(struct dtest *t)
{
	int status;

	if (!t->pid)
		return -1;
	kill(t->pid, SIGTERM);
	cr_assert_eq(waitpid(t->pid, &status, 0), t->pid);
	t->pid = 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Whatever a test left: the daemon stopped, the files gone. */
static inline void dt_cleanup(struct dtest *t)
{
	char cmd[160];

	if (t->pid)
		dt_stop(t);
	if (t->dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
		if (system(cmd))
			fprintf(stderr, "cannot remove %s\n", t->dir);
	}
}

/* The daemon's log as a string (free it). */
static inline char *dt_log(const struct dtest *t)
{
	FILE *f = fopen(t->log, "re");
	char *buf = calloc(1, 1 << 16);
	size_t n = 0;

	cr_assert_not_null(buf);
	if (f) {
		n = fread(buf, 1, (1 << 16) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* Wait until the log says @what. */
static inline bool dt_log_wait(const struct dtest *t, const char *what)
{
	for (int i = 0; i < DT_TIMEOUT_MS / 10; i++) {
		char *log = dt_log(t);
		bool found = strstr(log, what);

		free(log);
		if (found)
			return true;
		usleep(10000);
	}
	return false;
}

/* Milliseconds since some fixed moment (CLOCK_MONOTONIC). */
static inline long long dt_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * In @ms, a writer opens the FIFO @path and closes it again: a daemon
 * that waits in open() for one (which a test checks it never does) is let
 * go, so that the test fails instead of hanging. Kill and reap the
 * returned process when done.
 */
static inline pid_t dt_fifo_writer_after(const char *path, unsigned int ms)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (!pid) {
		int fd;

		usleep(ms * 1000);
		/* Opens only if a reader waits; then the reader sees the end of the file. */
		fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
		_exit(0);
	}
	return pid;
}

static inline void dt_reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* ---- a raw client ---- */

static inline int dt_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	cr_assert_geq(fd, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	cr_assert_eq(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0, "connect %s: %s", path,
		     strerror(errno));
	return fd;
}

/* A datagram being built: messages back to back. */
struct dt_dgram {
	char *buf;
	size_t len, cap;
};

static inline void dt_dgram_init(struct dt_dgram *g, size_t cap)
{
	g->buf = calloc(1, cap);
	cr_assert_not_null(g->buf);
	g->len = 0;
	g->cap = cap;
}

/* Open the next message: a request of @cmd with @flags and @seq. */
static inline struct nlmsghdr *dt_msg(struct dt_dgram *g, u8 cmd, u16 flags, u32 seq)
{
	struct nlmsghdr *nlh;

	cr_assert_leq(g->len + 4096, g->cap);
	nlh = nlt_request(g->buf + g->len, cmd, flags);
	nlh->nlmsg_seq = seq;
	return nlh;
}

static inline void dt_msg_end(struct dt_dgram *g, struct nlmsghdr *nlh)
{
	g->len += NLMSG_ALIGN(nlh->nlmsg_len);
}

static inline void dt_send(int fd, struct dt_dgram *g)
{
	cr_assert_eq(send(fd, g->buf, g->len, MSG_NOSIGNAL), (ssize_t)g->len, "send: %s",
		     strerror(errno));
	g->len = 0;
}

/* A node with 4 cpus, 8 GiB and 110 pods. */
static inline void dt_put_node(struct nlmsghdr *nlh, const char *name)
{
	struct nlattr *node = mnl_attr_nest_start(nlh, VS_A_NODE), *res;

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, name);
	res = mnl_attr_nest_start(nlh, VS_NODE_A_ALLOCATABLE);
	mnl_attr_put_u64(nlh, VS_RES_A_CPU, 4000);
	mnl_attr_put_u64(nlh, VS_RES_A_MEMORY, 8ULL << 30);
	mnl_attr_put_u64(nlh, VS_RES_A_PODS, 110);
	mnl_attr_nest_end(nlh, res);
	mnl_attr_nest_end(nlh, node);
}

/*
 * Send what @g holds with one acked request after it, and wait for that
 * ack: everything sent before on @fd has been handled. The requests sent
 * must not be answered (no NLM_F_ACK, no errors); @g is freed.
 */
static inline void dt_send_synced(int fd, struct dt_dgram *g)
{
	struct nlmsghdr *nlh;
	ssize_t len;

	nlh = dt_msg(g, VS_CMD_STATS_GET, NLM_F_ACK, 0xfffffff0u);
	dt_msg_end(g, nlh);
	dt_send(fd, g);
	free(g->buf);
	/* Nothing but the statistics and their ack come back: NEW without NLM_F_ACK is silent. */
	for (;;) {
		static char rx[VSCHEDD_REPLY_MAX];
		int left;

		len = recv(fd, rx, sizeof(rx), 0);
		cr_assert_gt(len, 0);
		left = (int)len;
		for (nlh = (struct nlmsghdr *)rx; mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left)) {
			cr_assert_eq(nlh->nlmsg_seq, 0xfffffff0u, "an answer to seq %u",
				     nlh->nlmsg_seq);
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

				cr_assert_eq(e->error, 0, "the ack is an error: %d", e->error);
				return;
			}
		}
	}
}

/*
 * Add NEWs of @n nodes "@prefix-NNNNN" to @g, without acks and sequence
 * numbers from @seq, sending each datagram that fills up to @fd: the last
 * is left in @g.
 */
static inline void dt_put_nodes(int fd, struct dt_dgram *g, const char *prefix, unsigned int n,
				u32 seq)
{
	struct nlmsghdr *nlh;
	char name[32];

	for (unsigned int i = 0; i < n; i++) {
		if (g->len + 4096 > g->cap)
			dt_send(fd, g);
		snprintf(name, sizeof(name), "%s-%05u", prefix, i);
		nlh = dt_msg(g, VS_CMD_NODE_NEW, 0, seq + i);
		dt_put_node(nlh, name);
		dt_msg_end(g, nlh);
	}
}

/* Make @n nodes "node-NNNNN" in as few datagrams as they take, without acks. */
static inline void dt_make_nodes(int fd, unsigned int n)
{
	struct dt_dgram g;

	/* A Unix socket's datagram must fit its send buffer (208 KiB by default). */
	dt_dgram_init(&g, 128 << 10);
	dt_put_nodes(fd, &g, "node", n, 1);
	dt_send_synced(fd, &g);
}

/* Wait up to @ms for a datagram; its length, 0 on timeout. */
static inline ssize_t dt_recv(int fd, void *buf, size_t cap, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;

	if (poll(&pfd, 1, ms) <= 0)
		return 0;
	n = recv(fd, buf, cap, 0);
	cr_assert_geq(n, 0, "recv: %s", strerror(errno));
	return n;
}

/* The error of an NLMSG_ERROR and its NLMSGERR_ATTR_MSG (or ""). */
static inline int dt_error(const struct nlmsghdr *nlh, const char **msg)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	size_t off = sizeof(*e);
	const struct nlattr *a;

	*msg = "";
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
		mnl_attr_for_each(a, nlh, NLMSG_ALIGN(off))
			if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG)
				*msg = mnl_attr_get_str(a);
	return e->error;
}

#endif /* VS_SELFTESTS_DTEST_H */
