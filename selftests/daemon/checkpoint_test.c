// SPDX-License-Identifier: Apache-2.0
/*
 * vschedd --checkpoint: what a clean stop wrote comes back at start; a
 * damaged checkpoint, or one whose restore fails part way, stops the
 * daemon with the reason and is never written over, unless the operator
 * has it set aside; and a kill -9 at any moment, in the middle of a
 * checkpoint too, leaves the last whole checkpoint, which holds everything
 * it was written with.
 */
#include <glob.h>
#include <sys/mman.h>

#include "dreq.h"
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

/* The whole file @p, in a buffer of *@len bytes (free it). */
static unsigned char *slurp(const char *p, size_t *len)
{
	struct stat st;
	unsigned char *buf;
	int fd = open(p, O_RDONLY | O_CLOEXEC);

	cr_assert_geq(fd, 0, "%s: %s", p, strerror(errno));
	cr_assert_eq(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(read(fd, buf, (size_t)st.st_size), st.st_size);
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

/* What copy_but_one() takes: a writer, and the command of the message to leave out. */
struct strip {
	struct vs_ckpt_writer w;
	u8 cmd;
	bool left_out;
	u32 tasks;
};

static int copy_but_one(const struct nlmsghdr *nlh, u64 index, u64 offset, void *arg)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	struct strip *s = arg;
	struct vs_err e = { { 0 } };

	(void)index;
	(void)offset;
	if (!s->left_out && g->cmd == s->cmd) {
		s->left_out = true;
		return 0;
	}
	s->tasks += g->cmd == VS_CMD_TASK_NEW;
	return vs_ckpt_writer_add(&s->w, nlh, &e);
}

/*
 * A checkpoint at @state of 3 nodes, 4 PodGroups of 3 tasks each, whose
 * first PodGroup's message is left out: every checksum holds, and the
 * restore fails part way, at the first of that PodGroup's tasks (ENOENT),
 * with nodes and PodGroups made already.
 */
static void checkpoint_without_a_podgroup(void)
{
	struct vsnl_err err = { 0 };
	struct vs_err e = { { 0 } };
	struct strip s = { .cmd = VS_CMD_PODGROUP_NEW };
	struct vschedd_opts o;
	unsigned char *buf;
	struct vsnl *c;
	char name[32];
	size_t len;

	opts(&o, 0);
	dt_start(&t, &o);
	c = vsnl_open(t.path, &err);
	cr_assert_not_null(c, "%s", err.msg);
	cr_assert_eq(vsnl_request(c, dr_queue_new("q"), NULL, NULL, &err), 0, "%s", err.msg);
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		cr_assert_eq(vsnl_request(c, dr_node_new(name, 8000), NULL, NULL, &err), 0, "%s",
			     err.msg);
	}
	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "pg%d", i);
		cr_assert_eq(vsnl_request(c, dr_pg_new("ns", name, "q", 3), NULL, NULL, &err), 0,
			     "%s", err.msg);
		for (int j = 0; j < 3; j++) {
			char task[40];

			snprintf(task, sizeof(task), "pg%d-%d", i, j);
			cr_assert_eq(vsnl_request(c, dr_task_new("ns", task, name, 500), NULL, NULL,
						  &err), 0, "%s", err.msg);
		}
	}
	vsnl_close(c);
	cr_assert_eq(dt_stop(&t), 0);

	buf = slurp(state, &len);
	cr_assert_eq(vs_ckpt_check(buf, len, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_ckpt_writer_open(&s.w, state, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_ckpt_for_each(buf, len, copy_but_one, &s), 0);
	cr_assert_eq(vs_ckpt_writer_commit(&s.w, NULL, &e), 0, "%s", e.msg);
	free(buf);
	cr_assert(s.left_out);
	cr_assert_eq(s.tasks, 12, "the tasks are in the file");
}

/* The names "@state.bad-*", into @g (globfree() it). */
static size_t set_aside(glob_t *g)
{
	char pattern[160];

	snprintf(pattern, sizeof(pattern), "%s.bad-*", state);
	memset(g, 0, sizeof(*g));
	if (glob(pattern, 0, NULL, g))
		return 0;
	return g->gl_pathc;
}

/*
 * The tasks of a PodGroup whose message is gone fail with ENOENT: that is
 * no missing file. The daemon does not start, says which message failed
 * and where, and leaves the file as it was, byte for byte, even with a
 * checkpoint due every millisecond.
 */
Test(checkpoint_daemon, a_restore_that_fails_part_way_stops_the_daemon_and_keeps_the_file)
{
	unsigned char *before, *after;
	struct vschedd_opts o;
	size_t n1, n2;
	char tmp[160];
	glob_t g;
	char *log;

	checkpoint_without_a_podgroup();
	before = slurp(state, &n1);
	cr_assert_eq(truncate(t.log, 0), 0);
	opts(&o, 1);
	cr_assert_neq(dt_try_start(&t, &o), 0, "the daemon does not start");
	cr_assert(strstr(t.error, "checkpoint not restored"), "%s", t.error);
	cr_assert(strstr(t.error, state), "%s names the file", t.error);
	cr_assert(strstr(t.error, "(VS_CMD_TASK_NEW) at byte"), "%s names the message", t.error);
	cr_assert(strstr(t.error, "pg0"), "%s names the PodGroup", t.error);
	log = dt_log(&t);
	cr_assert(strstr(log, "--set-aside-bad-checkpoint"), "the log says the way on: %s", log);
	cr_assert_null(strstr(log, "starting empty"), "%s", log);
	free(log);

	after = slurp(state, &n2);
	cr_assert_eq(n1, n2, "%zu bytes, then %zu", n1, n2);
	cr_assert_eq(memcmp(before, after, n1), 0, "the file is as it was, byte for byte");
	snprintf(tmp, sizeof(tmp), "%s.tmp", state);
	cr_assert_neq(access(tmp, F_OK), 0, "no checkpoint was begun");
	cr_assert_eq(set_aside(&g), 0, "nothing was set aside");
	globfree(&g);
	free(before);
	free(after);
}

/*
 * The operator's way on: --set-aside-bad-checkpoint renames the file that
 * cannot be restored to FILE.bad-TIME, whole, and the daemon starts empty
 * (nothing of the part restored stays), logs it loudly, and from then on
 * keeps its checkpoint in FILE again.
 */
Test(checkpoint_daemon, set_aside_bad_checkpoint_moves_the_file_and_starts_empty)
{
	unsigned char *before, *aside;
	struct vschedd_opts o;
	size_t n1, n2;
	glob_t g;

	checkpoint_without_a_podgroup();
	before = slurp(state, &n1);
	opts(&o, 0);
	o.set_aside_bad_checkpoint = true;
	dt_start(&t, &o);
	cr_assert(dt_log_wait(&t, "NOT RESTORED: set aside as"));
	cr_assert(dt_log_wait(&t, "(VS_CMD_TASK_NEW) at byte"), "the log says why");
	cr_assert_eq(count_nodes(), 0, "the part restored was thrown away");
	cr_assert_neq(access(state, F_OK), 0, "FILE was moved");
	cr_assert_eq(set_aside(&g), 1);
	aside = slurp(g.gl_pathv[0], &n2);
	cr_assert_eq(n1, n2);
	cr_assert_eq(memcmp(before, aside, n1), 0, "%s is the file, whole", g.gl_pathv[0]);
	globfree(&g);
	free(before);
	free(aside);

	make_nodes_from(0, 2);
	cr_assert_eq(dt_stop(&t), 0);
	opts(&o, 0);
	dt_start(&t, &o);
	cr_assert_eq(count_nodes(), 2, "the new checkpoint is FILE's");
	cr_assert_eq(set_aside(&g), 1, "the one set aside is left alone");
	globfree(&g);
}

/*
 * Only a name that is not there is a first start: one that leads nowhere
 * (a symbolic link to a missing file) is refused, as is anything at FILE
 * but a regular file, at once (a FIFO nobody writes is never waited on).
 */
Test(checkpoint_daemon, only_a_missing_file_is_a_first_start)
{
	struct vschedd_opts o;
	char nowhere[160];
	long long t0;
	pid_t writer;

	snprintf(nowhere, sizeof(nowhere), "%s/nowhere", t.dir);
	cr_assert_eq(symlink(nowhere, state), 0);
	opts(&o, 0);
	cr_assert_neq(dt_try_start(&t, &o), 0, "a link to nothing is no first start");
	cr_assert(strstr(t.error, "leads to no file"), "%s", t.error);
	cr_assert_neq(access(nowhere, F_OK), 0, "nothing was written through it");

	cr_assert_eq(unlink(state), 0);
	cr_assert_eq(mkfifo(state, 0600), 0);
	writer = dt_fifo_writer_after(state, 10000);
	t0 = dt_now_ms();
	opts(&o, 0);
	cr_assert_neq(dt_try_start(&t, &o), 0);
	cr_assert_lt(dt_now_ms() - t0, 5000, "refused at once, not when a writer came");
	dt_reap(writer);
	cr_assert(strstr(t.error, "a FIFO, not a regular file"), "%s", t.error);

	cr_assert_eq(unlink(state), 0);
	opts(&o, 0);
	dt_start(&t, &o);
	cr_assert(dt_log_wait(&t, "none yet, starting empty"));
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
