// SPDX-License-Identifier: Apache-2.0
/*
 * vschedd --checkpoint: what a clean stop wrote comes back at start; a
 * damaged checkpoint stops the daemon with the reason; and a kill -9 at
 * any moment, in the middle of a checkpoint too, leaves the last whole
 * checkpoint, which holds everything it was written with.
 */
#include <sys/mman.h>

#include "dtest.h"
#include "netlink/checkpoint.h"

static struct dtest t;
static char state[128];

static void setup(void)
{
	memset(&t, 0, sizeof(t));
	dt_paths(&t);
	snprintf(state, sizeof(state), "%s/state", t.dir);
}

static void teardown(void)
{
	dt_cleanup(&t);
}

TestSuite(checkpoint_daemon, .init = setup, .fini = teardown, .timeout = 120);

static void opts(struct vschedd_opts *o, u32 interval_ms)
{
	memset(o, 0, sizeof(*o));
	o->period_ms = 0;
	o->checkpoint_path = state;
	o->checkpoint_interval_ms = interval_ms;
	o->verbosity = 1;
}

/* The nodes the daemon holds, by a dump. */
static unsigned int count_nodes(void)
{
	static char rx[VSCHEDD_REPLY_MAX];
	struct dt_dgram g;
	struct nlmsghdr *nlh;
	unsigned int n = 0;
	int fd = dt_connect(t.path);

	dt_dgram_init(&g, 4096);
	nlh = dt_msg(&g, VS_CMD_NODE_GET, NLM_F_DUMP, 9);
	dt_msg_end(&g, nlh);
	dt_send(fd, &g);
	free(g.buf);
	for (;;) {
		ssize_t len = dt_recv(fd, rx, sizeof(rx), DT_TIMEOUT_MS);
		int left = (int)len;

		cr_assert_gt(len, 0, "the dump goes on");
		for (nlh = (struct nlmsghdr *)rx; mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left)) {
			if (nlh->nlmsg_type == NLMSG_DONE) {
				close(fd);
				return n;
			}
			cr_assert_eq(nlh->nlmsg_type, VSCHED_GENL_ID);
			n++;
		}
	}
}

/* Nodes "node-FFFFF" from @first on, @n of them. */
static void make_nodes_from(unsigned int first, unsigned int n)
{
	struct dt_dgram g;
	struct nlmsghdr *nlh;
	char name[32];
	int fd = dt_connect(t.path);

	dt_dgram_init(&g, 128 << 10);
	for (unsigned int i = first; i < first + n; i++) {
		if (g.len + 4096 > g.cap)
			dt_send(fd, &g);
		snprintf(name, sizeof(name), "node-%05u", i);
		nlh = dt_msg(&g, VS_CMD_NODE_NEW, 0, i + 1);
		dt_put_node(nlh, name);
		dt_msg_end(&g, nlh);
	}
	dt_send_synced(fd, &g);
	close(fd);
}

Test(checkpoint_daemon, what_a_clean_stop_wrote_comes_back)
{
	struct vschedd_opts o;

	opts(&o, 0);
	dt_start(&t, &o);
	cr_assert(dt_log_wait(&t, "none yet, starting empty"));
	make_nodes_from(0, 300);
	cr_assert_eq(dt_stop(&t), 0);
	cr_assert(dt_log_wait(&t, "checkpoint (stop)"));
	cr_assert_eq(access(state, F_OK), 0, "the checkpoint is there");

	opts(&o, 0);
	dt_start(&t, &o);
	cr_assert(dt_log_wait(&t, "300 nodes"), "the log says what came back");
	cr_assert_eq(count_nodes(), 300);
	/* and it goes on from there */
	make_nodes_from(300, 5);
	cr_assert_eq(dt_stop(&t), 0);
	opts(&o, 0);
	dt_start(&t, &o);
	cr_assert_eq(count_nodes(), 305);
}

Test(checkpoint_daemon, a_damaged_checkpoint_stops_the_daemon_with_the_reason)
{
	struct vschedd_opts o;
	FILE *f;

	f = fopen(state, "w");
	cr_assert_not_null(f);
	fputs("{\"nodes\": [{\"name\": \"n1\", \"allocatable\": {\"cpu\": \"8\"}}]}\n", f);
	fclose(f);
	opts(&o, 0);
	cr_assert_neq(dt_try_start(&t, &o), 0, "the daemon does not start");
	cr_assert(strstr(t.error, "checkpoint not restored"), "%s", t.error);
	cr_assert(strstr(t.error, state), "%s names the file", t.error);
	cr_assert(strstr(t.error, "not a vsched checkpoint"), "%s", t.error);
}

/* The requests of the checkpoint at @state, which must be whole; 0 when there is none. */
static u64 whole(void)
{
	struct vs_ckpt_info info;
	struct vs_err e = { { 0 } };
	struct stat st;
	void *buf;
	int fd = open(state, O_RDONLY);

	if (fd < 0)
		return 0;
	cr_assert_eq(fstat(fd, &st), 0);
	buf = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	cr_assert_neq(buf, MAP_FAILED);
	cr_assert_eq(vs_ckpt_check(buf, (size_t)st.st_size, &info, &e), 0, "%s", e.msg);
	munmap(buf, (size_t)st.st_size);
	close(fd);
	return info.nr_msgs;
}

/*
 * The daemon writes checkpoints back to back (every millisecond); each
 * round makes nodes, waits until a checkpoint holds them, and kills the
 * daemon with SIGKILL a moment later, in the middle of the next checkpoint
 * as often as not. The file left is always whole and holds every node.
 */
Test(checkpoint_daemon, a_kill_9_at_any_moment_leaves_a_whole_checkpoint)
{
	struct vschedd_opts o;
	unsigned int nodes = 0;

	srand((unsigned int)getpid());
	for (unsigned int round = 0; round < 8; round++) {
		opts(&o, 1);
		o.verbosity = 0;	/* a line per checkpoint would be a thousand a second */
		dt_start(&t, &o);
		cr_assert_eq(count_nodes(), nodes, "round %u: every node came back", round);
		make_nodes_from(nodes, 500);
		nodes += 500;
		/* a checkpoint holds them: the configuration's request and one per node */
		for (int i = 0; whole() != nodes + 1; i++) {
			cr_assert_lt(i, DT_TIMEOUT_MS, "no checkpoint holds the %u nodes", nodes);
			usleep(1000);
		}
		usleep((useconds_t)(rand() % 20000));
		kill(t.pid, SIGKILL);
		cr_assert_eq(waitpid(t.pid, NULL, 0), t.pid);
		t.pid = 0;
		cr_assert_eq(whole(), nodes + 1, "round %u: the checkpoint left is whole", round);
	}
}

/* Ask for VS_CMD_DUMP on @fd. */
static void ask_dump(int fd, u32 seq)
{
	struct dt_dgram g;
	struct nlmsghdr *nlh;

	dt_dgram_init(&g, 4096);
	nlh = dt_msg(&g, VS_CMD_DUMP, NLM_F_DUMP, seq);
	dt_msg_end(&g, nlh);
	dt_send(fd, &g);
	free(g.buf);
}

/* Read the dump on @fd to its end: its messages, each a checkpoint's request. */
static unsigned int read_dump(int fd, u8 *first_cmd)
{
	static char rx[VSCHEDD_REPLY_MAX];
	unsigned int n = 0;

	for (;;) {
		ssize_t len = dt_recv(fd, rx, sizeof(rx), DT_TIMEOUT_MS);
		struct nlmsghdr *nlh;
		int left = (int)len;

		cr_assert_gt(len, 0, "the dump goes on");
		for (nlh = (struct nlmsghdr *)rx; mnl_nlmsg_ok(nlh, left);
		     nlh = mnl_nlmsg_next(nlh, &left)) {
			const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);

			const char *msg = "";

			if (nlh->nlmsg_type == NLMSG_DONE)
				return n;
			if (nlh->nlmsg_type == NLMSG_ERROR)
				cr_assert_fail("an error: %d %s", dt_error(nlh, &msg), msg);
			cr_assert_eq(nlh->nlmsg_type, VSCHED_GENL_ID);
			cr_assert(nlh->nlmsg_flags & NLM_F_MULTI);
			if (!n++)
				*first_cmd = g->cmd;
		}
	}
}

/*
 * VS_CMD_DUMP holds an image of the whole state while its client reads it:
 * one at a time, and let go when the client goes half way.
 */
Test(checkpoint_daemon, a_dump_holds_its_image_until_its_client_reads_it_or_goes)
{
	static char rx[VSCHEDD_REPLY_MAX];
	struct vschedd_opts o;
	const struct nlmsghdr *nlh;
	const char *msg;
	int a, b;
	u8 cmd = 0;

	opts(&o, 0);
	o.checkpoint_path = NULL;
	dt_start(&t, &o);
	make_nodes_from(0, 10000);	/* more than the socket buffers: parts are left to read */
	a = dt_connect(t.path);
	b = dt_connect(t.path);
	ask_dump(a, 1);
	cr_assert_gt(dt_recv(a, rx, sizeof(rx), DT_TIMEOUT_MS), 0, "the first part");
	ask_dump(b, 2);
	cr_assert_gt(dt_recv(b, rx, sizeof(rx), DT_TIMEOUT_MS), 0);
	nlh = (const struct nlmsghdr *)rx;
	cr_assert_eq(nlh->nlmsg_type, NLMSG_ERROR);
	cr_assert_eq(dt_error(nlh, &msg), -EBUSY);
	cr_assert(strstr(msg, "one at a time"), "%s", msg);
	/* a goes half way: its image is let go, and b may dump */
	close(a);
	for (int i = 0;; i++) {
		ask_dump(b, 3);
		cr_assert_gt(dt_recv(b, rx, sizeof(rx), DT_TIMEOUT_MS), 0);
		nlh = (const struct nlmsghdr *)rx;
		if (nlh->nlmsg_type != NLMSG_ERROR)
			break;
		cr_assert_lt(i, 100, "the abandoned dump's image was never let go");
		usleep(10000);
	}
	close(b);
	b = dt_connect(t.path);
	ask_dump(b, 4);
	cr_assert_eq(read_dump(b, &cmd), 10001, "the configuration and every node");
	cr_assert_eq(cmd, VS_CMD_CONF_SET);
	close(b);
}
