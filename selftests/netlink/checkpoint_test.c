// SPDX-License-Identifier: Apache-2.0
/*
 * Checkpoints (netlink/checkpoint.h): a cluster written and read back into
 * a fresh core is the same cluster, the job controller's state with it; a
 * damaged, truncated or foreign file is refused before anything is made; a
 * refused message is named; a write that fails leaves the checkpoint there
 * was; and no client can give what only a checkpoint gives.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/log.h"
#include "ctltest.h"
#include "netlink/checkpoint.h"
#include "vsched/checkpoint.h"

static char dir[64], path[128];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/vs-ckpt-test-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/state", dir);
	ct_setup_sched();
	vs_log_file = tmpfile();
}

static void teardown(void)
{
	char cmd[128];
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_check(&ct.cl, &e), 0, "%s", e.msg);
	if (vs_log_file)
		fclose(vs_log_file);
	vs_log_file = NULL;
	ct_teardown();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

TestSuite(checkpoint, .init = setup, .fini = teardown);

/* ---- a cluster ---- */


/* Every Binding task of the cluster is bound, then runs. */
static void bind_and_run(void)
{
	char names[32][64];
	unsigned int n = 0;
	struct vs_job *job;
	struct vs_task *t;

	list_for_each_entry(job, &ct.cl.jobs, list)
		list_for_each_entry(t, &job->by_status[VS_TASK_BINDING], status_node)
			if (n < ARRAY_SIZE(names))
				snprintf(names[n++], sizeof(names[0]), "%s", t->name);
	for (unsigned int i = 0; i < n; i++) {
		CT_SEND_OK(VS_CMD_BIND_RESULT, ct_put_bind(__n, names[i], NULL, 0, NULL));
		cr_assert_eq(ct_report(names[i], VS_TASK_EVENT_RUNNING, 0), 0, "%s",
			     ct.ext.err.msg);
	}
}

/* A VolcanoJob ns/@name of a group "ps" of one and "worker" of two, 1000m each. */
static void vjob(const char *name, const char *event, const char *action)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_VJOB_NEW, 0);
	struct nlattr *v = mnl_attr_nest_start(nlh, VS_A_VJOB), *t, *p;
	static const char *const groups[] = { "ps", "worker" };

	mnl_attr_put_strz(nlh, VS_VJOB_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_VJOB_A_NAME, name);
	for (unsigned int i = 0; i < ARRAY_SIZE(groups); i++) {
		t = mnl_attr_nest_start(nlh, VS_VJOB_A_TASK);
		mnl_attr_put_strz(nlh, VS_VTASK_A_NAME, groups[i]);
		mnl_attr_put_u32(nlh, VS_VTASK_A_REPLICAS, i ? 2 : 1);
		ct_put_res(nlh, VS_VTASK_A_REQUEST, 1000, 1024 * CT_MI, -1);
		mnl_attr_nest_end(nlh, t);
	}
	if (event) {
		p = mnl_attr_nest_start(nlh, VS_VJOB_A_POLICY);
		mnl_attr_put_strz(nlh, VS_POLICY_A_EVENT, event);
		mnl_attr_put_strz(nlh, VS_POLICY_A_ACTION, action);
		mnl_attr_nest_end(nlh, p);
	}
	mnl_attr_nest_end(nlh, v);
	CT_OK(nlh);
}

static void job_command(const char *name, enum vs_action_uapi action)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_VJOB_COMMAND, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_COMMAND);

	mnl_attr_put_strz(nlh, VS_COMMAND_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_COMMAND_A_NAME, name);
	mnl_attr_put_u32(nlh, VS_COMMAND_A_ACTION, action);
	mnl_attr_nest_end(nlh, n);
	CT_OK(nlh);
}

static u32 phase_of(const char *name)
{
	const struct vs_vjob *v = vs_vjob_find(&ct.cl, "ns", name);

	cr_assert_not_null(v, "job %s", name);
	return v->phase;
}

/*
 * Every kind of object, and VolcanoJobs in states only the job controller
 * knows: "again" restarted once (a retry, a new version), "done" completing
 * with a finished replica it took out with its PodGroup (kept).
 */
/* A PodGroup and its task given creation times (2026-11-23T10:00:00Z and a second later). */
static void timed(void)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_PODGROUP_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_PODGROUP);

	mnl_attr_put_strz(nlh, VS_PG_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_PG_A_NAME, "timed");
	mnl_attr_put_u64(nlh, VS_PG_A_CREATED, 1795428000);
	mnl_attr_nest_end(nlh, n);
	CT_OK(nlh);
	nlh = ct_req(VS_CMD_TASK_NEW, 0);
	n = mnl_attr_nest_start(nlh, VS_A_TASK);
	mnl_attr_put_strz(nlh, VS_TASK_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_TASK_A_NAME, "timed-0");
	mnl_attr_put_strz(nlh, VS_TASK_A_PODGROUP, "timed");
	mnl_attr_put_u64(nlh, VS_TASK_A_CREATED, 1795428001);
	mnl_attr_nest_end(nlh, n);
	CT_OK(nlh);
}

static void build_cluster(void)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_PRIOCLASS_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_PRIOCLASS);

	mnl_attr_put_strz(nlh, VS_PC_A_NAME, "high");
	mnl_attr_put_u32(nlh, VS_PC_A_VALUE, 1000);
	mnl_attr_nest_end(nlh, n);
	CT_OK(nlh);
	CT_SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 16000));
	CT_SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n2", 4000));
	CT_SEND_OK(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "default", 0));
	CT_SEND_OK(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "q2", 3));
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "pg", "q2", 1));
	CT_SEND_OK(VS_CMD_TASK_NEW, ct_put_task(__n, "pg-0", "pg", 500, "n2",
		   VS_TASK_STATUS_RUNNING));
	CT_SEND_OK(VS_CMD_TASK_NEW, ct_put_task(__n, "pg-1", "pg", 500, NULL, 0));
	timed();

	vjob("again", "PodFailed", "RestartJob");
	vjob("done", NULL, NULL);
	ct_cycle();		/* their PodGroups admitted, their tasks made */
	ct_cycle();		/* and placed */
	bind_and_run();
	cr_assert_eq(phase_of("again"), VS_VJOB_PHASE_RUNNING);
	cr_assert_eq(ct_report("again-worker-1", VS_TASK_EVENT_FAILED, 1), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(phase_of("again"), VS_VJOB_PHASE_RESTARTING);
	ct_cycle();
	ct_cycle();
	ct_cycle();
	bind_and_run();
	cr_assert_eq(phase_of("again"), VS_VJOB_PHASE_RUNNING);
	cr_assert_eq(vs_vjob_find(&ct.cl, "ns", "again")->retry_count, 1);

	cr_assert_eq(ct_report("done-ps-0", VS_TASK_EVENT_SUCCEEDED, 0), 0, "%s", ct.ext.err.msg);
	job_command("done", VS_ACTION_COMPLETE_JOB);
	cr_assert_eq(phase_of("done"), VS_VJOB_PHASE_COMPLETING);
	cr_assert_not_null(vs_vjob_find(&ct.cl, "ns", "done")->tasks[0].kept);
}

/* ---- reading what the core holds ---- */

/* The whole file @p into a buffer of *@len bytes. */
static unsigned char *slurp(const char *p, size_t *len)
{
	FILE *f = fopen(p, "rb");
	unsigned char *buf;
	long n;

	cr_assert_not_null(f, "%s", p);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void spit(const char *p, const void *buf, size_t len)
{
	FILE *f = fopen(p, "wb");

	cr_assert_not_null(f);
	cr_assert_eq(fwrite(buf, 1, len, f), len);
	fclose(f);
}

/* Every reply of a dump of @cmd, as bytes after the netlink headers, into @out. */
static size_t dump_bytes(u8 cmd, char *out, size_t cap)
{
	const struct nlmsghdr *r;
	size_t n = 0;

	CT_OK(ct_req(cmd, NLM_F_DUMP));
	for (unsigned int i = 0; (r = ct_reply_msg(i)); i++) {
		size_t len = r->nlmsg_len - NLMSG_HDRLEN;

		if (r->nlmsg_type != VSCHED_GENL_ID)
			continue;
		cr_assert_leq(n + len, cap);
		memcpy(out + n, mnl_nlmsg_get_payload(r), len);
		n += len;
	}
	return n;
}

/* What GET shows of nodes (their accounting), queues and VolcanoJobs (phase, retries). */
struct seen {
	char buf[3][16384];
	size_t len[3];
};

static void look(struct seen *s)
{
	static const u8 cmds[] = { VS_CMD_NODE_GET, VS_CMD_QUEUE_GET, VS_CMD_VJOB_GET };

	for (unsigned int i = 0; i < ARRAY_SIZE(cmds); i++)
		s->len[i] = dump_bytes(cmds[i], s->buf[i], sizeof(s->buf[i]));
}

static int load(unsigned int flags, struct vs_err *e)
{
	struct vs_ckpt_info info;

	return vs_nl_checkpoint_load(&ct.ctx, path, flags, &info, e);
}

/* A fresh core, as a restarted daemon has. */
static void restart(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_check(&ct.cl, &e), 0, "%s", e.msg);
	ct_teardown();
	ct_setup_sched();
}

static void save(void)
{
	struct vs_ckpt_info info;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_nl_checkpoint_save(&ct.core, path, &info, &e), 0, "%s", e.msg);
	cr_assert_geq(info.nr_msgs, 1);
}

/* ---- tests ---- */

/*
 * Written, read into a fresh core and written again: the same bytes. And
 * the next cycle of either core does the same: what GET shows of nodes
 * (their accounting), queues (shares, allocations) and VolcanoJobs after
 * it is the same, byte for byte.
 */
Test(checkpoint, a_restored_cluster_is_the_cluster_that_was_written)
{
	static struct seen before, after;
	unsigned char *first, *second;
	size_t n1, n2, hdr = sizeof(struct vs_ckpt_header);
	struct vs_err e = { { 0 } };
	const struct vs_vjob *v;

	build_cluster();
	save();
	first = slurp(path, &n1);
	ct_cycle();
	look(&before);

	restart();
	cr_assert_eq(ct.cl.nr_tasks, 0);
	cr_assert_eq(load(0, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_cluster_check(&ct.cl, &e), 0, "%s", e.msg);
	/* creation times, given and taken: the latest for objects made after without one */
	cr_assert_eq(vs_job_find(&ct.cl, "ns", "timed")->created, 1795428000);
	cr_assert_eq(vs_task_find(&ct.cl, "ns", "timed-0")->created, 1795428001);
	cr_assert_eq(vs_job_find(&ct.cl, "ns", "pg")->created, 0);
	cr_assert_eq(vs_vjob_find(&ct.cl, "ns", "again")->podgroup->created, 1795428001);
	/* the job controller's own state */
	v = vs_vjob_find(&ct.cl, "ns", "again");
	cr_assert_eq(v->retry_count, 1);
	cr_assert_eq(v->status.version, 1);
	cr_assert_eq(v->status.running, 3);
	cr_assert_not_null(v->podgroup);
	cr_assert_eq(v->podgroup->vjob, v, "its PodGroup is its own again");
	v = vs_vjob_find(&ct.cl, "ns", "done");
	cr_assert_eq(v->phase, VS_VJOB_COMPLETING);
	cr_assert_not_null(v->tasks[0].kept);
	cr_assert_eq(v->tasks[0].kept[0], VS_VJOB_KEPT_SUCCEEDED);
	cr_assert_null(v->tasks[1].kept);

	/*
	 * Written again: the same messages. A cycle's own PodGroup condition
	 * comes back as a given one (as from a bridge after a restart), with
	 * an empty transitionID: from then on, the same bytes.
	 */
	save();
	second = slurp(path, &n2);
	cr_assert_eq(((struct vs_ckpt_header *)first)->nr_msgs,
		     ((struct vs_ckpt_header *)second)->nr_msgs);
	free(first);
	restart();
	cr_assert_eq(load(0, &e), 0, "%s", e.msg);
	save();
	first = slurp(path, &n1);
	cr_assert_eq(n1, n2);
	cr_assert_eq(memcmp(first + hdr, second + hdr, n1 - hdr), 0,
		     "a restored core writes the checkpoint it was restored from");
	free(first);
	free(second);

	ct_cycle();
	look(&after);
	for (unsigned int i = 0; i < 3; i++) {
		cr_assert_eq(before.len[i], after.len[i], "dump %u: %zu bytes, then %zu", i,
			     before.len[i], after.len[i]);
		cr_assert_eq(memcmp(before.buf[i], after.buf[i], before.len[i]), 0,
			     "dump %u shows the same objects after the same cycle", i);
	}
	/* the restored jobs went on: "done" settled as it would have */
	cr_assert_eq(phase_of("done"), VS_VJOB_PHASE_COMPLETED);
	cr_assert_eq(phase_of("again"), VS_VJOB_PHASE_RUNNING);
}

Test(checkpoint, a_bind_in_flight_comes_back_pending)
{
	struct vs_err e = { { 0 } };
	struct vs_task *t;

	CT_SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 4000));
	CT_SEND_OK(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "default", 0));
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "pg", NULL, 1));
	CT_SEND_OK(VS_CMD_TASK_NEW, ct_put_task(__n, "pg-0", "pg", 500, NULL, 0));
	ct_cycle();
	ct_cycle();
	cr_assert_eq(ct_task("pg-0")->status, VS_TASK_BINDING);
	save();
	restart();
	cr_assert_eq(load(0, &e), 0, "%s", e.msg);
	t = ct_task("pg-0");
	cr_assert_eq(t->status, VS_TASK_PENDING, "an unconfirmed bind is made again");
	cr_assert_null(t->node);
	cr_assert_eq(vs_res_get(&vs_node_find(&ct.cl, "n1")->used, VS_RES_CPU), 0);
	ct_cycle();
	cr_assert_eq(ct_task("pg-0")->status, VS_TASK_BINDING);
}

Test(checkpoint, the_configuration_comes_back_unless_kept)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_CONF_SET, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_CONF);
	static const char text[] = "# set at run time\nactions: \"enqueue, allocate\"\n"
				   "tiers:\n- plugins:\n  - name: gang\n";
	struct vs_err e = { { 0 } };

	mnl_attr_put_strz(nlh, VS_CONF_A_TEXT, text);
	mnl_attr_put_u32(nlh, VS_CONF_A_PERIOD_MS, 250);
	mnl_attr_nest_end(nlh, n);
	CT_OK(nlh);
	save();
	restart();
	cr_assert_eq(load(VS_CKPT_KEEP_CONF, &e), 0, "%s", e.msg);
	cr_assert_str_neq(ct.sched.conf->text ? ct.sched.conf->text : "", text);
	restart();
	cr_assert_eq(load(0, &e), 0, "%s", e.msg);
	cr_assert_str_eq(ct.sched.conf->text, text);
	cr_assert_eq(vs_nl_period_ms(&ct.core), 250);
}

/* Damage the saved file with @fn, and expect the load refused with @words, the core untouched. */
static void refused(void (*fn)(unsigned char *buf, size_t *len), const char *words)
{
	struct vs_err e = { { 0 } };
	unsigned char *buf;
	size_t len;

	buf = slurp(path, &len);
	buf = realloc(buf, len + 16);
	fn(buf, &len);
	spit(path, buf, len);
	free(buf);
	restart();
	cr_assert_lt(load(0, &e), 0, "refused: %s", words);
	cr_assert(strstr(e.msg, words), "\"%s\" says %s", e.msg, words);
	cr_assert(strstr(e.msg, path), "\"%s\" names the file", e.msg);
	cr_assert_eq(ct.cl.nr_nodes, 0, "nothing was made");
}

static void cut_one(unsigned char *buf, size_t *len)
{
	(void)buf;
	*len -= 1;
}

static void cut_half(unsigned char *buf, size_t *len)
{
	(void)buf;
	*len /= 2;
}

static void cut_header(unsigned char *buf, size_t *len)
{
	(void)buf;
	*len = 20;
}

static void add_one(unsigned char *buf, size_t *len)
{
	buf[(*len)++] = 0;
}

static void flip_body(unsigned char *buf, size_t *len)
{
	buf[*len - 5] ^= 0x10;
}

static void flip_header(unsigned char *buf, size_t *len)
{
	(void)len;
	buf[offsetof(struct vs_ckpt_header, nr_msgs)] ^= 1;
}

static void bad_magic(unsigned char *buf, size_t *len)
{
	(void)len;
	memcpy(buf, "{\"nodes\"", 8);
}

static void empty(unsigned char *buf, size_t *len)
{
	(void)buf;
	*len = 0;
}

Test(checkpoint, a_damaged_or_truncated_checkpoint_is_refused_whole)
{
	static const struct {
		void (*fn)(unsigned char *buf, size_t *len);
		const char *words;
	} cases[] = {
		{ cut_one, "truncated" },
		{ cut_half, "truncated" },
		{ cut_header, "shorter than a checkpoint's header" },
		{ add_one, "trailing bytes" },
		{ flip_body, "the messages are damaged" },
		{ flip_header, "the header is damaged" },
		{ bad_magic, "not a vsched checkpoint" },
		{ empty, "shorter than a checkpoint's header" },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		restart();
		build_cluster();
		save();
		refused(cases[i].fn, cases[i].words);
	}
}



/* A checkpoint of hand-made messages: a node, then @bad. */
static void write_with(struct nlmsghdr *bad)
{
	struct vs_ckpt_writer w;
	struct vs_err e = { { 0 } };
	struct nlmsghdr *nlh;

	cr_assert_eq(vs_ckpt_writer_open(&w, path, &e), 0, "%s", e.msg);
	nlh = vs_ckpt_writer_msg(&w, VS_CMD_NODE_NEW, &e);
	ct_put_node(nlh, "n1", 4000);
	vs_ckpt_writer_end(&w, nlh);
	cr_assert_eq(vs_ckpt_writer_add(&w, bad, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_ckpt_writer_commit(&w, NULL, &e), 0, "%s", e.msg);
}

/*
 * No file is a first start, told apart from every failure: a restore that
 * fails with ENOENT (a task whose PodGroup is not there) is an error.
 */
Test(checkpoint, a_missing_checkpoint_is_none_and_a_failing_one_an_error)
{
	struct vs_err e = { { 0 } };
	struct nlmsghdr *nlh;

	cr_assert_eq(load(0, &e), VS_CKPT_NONE);
	cr_assert_str_empty(e.msg);
	nlh = ct_req(VS_CMD_TASK_NEW, 0);
	ct_put_task(nlh, "t", "nowhere", 100, NULL, 0);
	write_with(nlh);
	cr_assert_eq(load(0, &e), -ENOENT, "the handler's own errno");
	cr_assert(strstr(e.msg, path), "%s", e.msg);
	cr_assert(strstr(e.msg, "message 1 (VS_CMD_TASK_NEW) at byte"), "%s", e.msg);
}

/* Set aside twice (in the same second, as often as not): two files, neither over the other. */
Test(checkpoint, a_checkpoint_set_aside_is_never_renamed_over_another)
{
	char first[192], second[192];
	struct vs_err e = { { 0 } };
	unsigned char *buf;
	size_t len;

	spit(path, "one", 3);
	cr_assert_eq(vs_ckpt_set_aside(path, first, sizeof(first), &e), 0, "%s", e.msg);
	spit(path, "two", 3);
	cr_assert_eq(vs_ckpt_set_aside(path, second, sizeof(second), &e), 0, "%s", e.msg);
	cr_assert_str_neq(first, second);
	cr_assert(!strncmp(first, path, strlen(path)) && strstr(first, ".bad-"), "%s", first);
	cr_assert_neq(access(path, F_OK), 0, "the checkpoint's name is free");
	buf = slurp(first, &len);
	cr_assert(len == 3 && !memcmp(buf, "one", 3));
	free(buf);
	buf = slurp(second, &len);
	cr_assert(len == 3 && !memcmp(buf, "two", 3));
	free(buf);
}

Test(checkpoint, a_message_that_cannot_be_restored_is_named)
{
	struct vs_err e = { { 0 } };
	struct nlmsghdr *nlh = ct_req(VS_CMD_TASK_NEW, 0);

	ct_put_task(nlh, "t", "nowhere", 100, NULL, 0);
	write_with(nlh);
	cr_assert_lt(load(0, &e), 0);
	cr_assert(strstr(e.msg, "message 1 (VS_CMD_TASK_NEW) at byte"), "%s", e.msg);
	cr_assert(strstr(e.msg, "nowhere"), "%s", e.msg);

	/* a valid message that is no part of a checkpoint */
	restart();
	write_with(ct_req(VS_CMD_RESET, 0));
	vs_err_clear(&e);
	cr_assert_lt(load(0, &e), 0);
	cr_assert(strstr(e.msg, "not a request a checkpoint holds"), "%s", e.msg);
}

Test(checkpoint, a_failed_write_leaves_the_checkpoint_there_was)
{
	struct vs_ckpt_writer w;
	struct vs_err e = { { 0 } };
	char tmp[160];
	unsigned char *before, *after;
	size_t n1, n2;

	CT_SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 4000));
	save();
	before = slurp(path, &n1);
	/* a writer given up half way: the old file stands, its temporary is gone */
	CT_SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n2", 4000));
	cr_assert_eq(vs_ckpt_writer_open(&w, path, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_nl_checkpoint_fill(&ct.core, &w, &e), 0, "%s", e.msg);
	vs_ckpt_writer_abort(&w);
	after = slurp(path, &n2);
	cr_assert_eq(n1, n2);
	cr_assert_eq(memcmp(before, after, n1), 0);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	cr_assert_neq(access(tmp, F_OK), 0, "no temporary file is left");
	free(before);
	free(after);

	/* nowhere to write: said, and nothing changes */
	snprintf(tmp, sizeof(tmp), "%s/no/such/dir/state", dir);
	cr_assert_lt(vs_nl_checkpoint_save(&ct.core, tmp, NULL, &e), 0);
	cr_assert(strstr(e.msg, "No such file or directory"), "%s", e.msg);
}

Test(checkpoint, only_a_restore_gives_a_jobs_state)
{
	struct nlmsghdr *nlh;
	struct nlattr *v, *t, *s;

	CT_SEND_OK(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "default", 0));
	nlh = ct_req(VS_CMD_VJOB_NEW, 0);
	v = mnl_attr_nest_start(nlh, VS_A_VJOB);
	mnl_attr_put_strz(nlh, VS_VJOB_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_VJOB_A_NAME, "j");
	t = mnl_attr_nest_start(nlh, VS_VJOB_A_TASK);
	mnl_attr_put_strz(nlh, VS_VTASK_A_NAME, "w");
	mnl_attr_put_u32(nlh, VS_VTASK_A_REPLICAS, 2);
	mnl_attr_nest_end(nlh, t);
	s = mnl_attr_nest_start(nlh, VS_VJOB_A_STATE);
	mnl_attr_put_u32(nlh, VS_VJSTATE_A_PHASE, VS_VJOB_PHASE_RUNNING);
	mnl_attr_put(nlh, VS_VJSTATE_A_PODGROUP, 0, NULL);
	mnl_attr_nest_end(nlh, s);
	mnl_attr_nest_end(nlh, v);
	cr_assert_eq(ct_send(nlh), -EINVAL);
	cr_assert(strstr(ct.ext.err.msg, "only a checkpoint being restored gives it"), "%s",
		  ct.ext.err.msg);
	cr_assert_null(vs_vjob_find(&ct.cl, "ns", "j"));

	/* restored, the state must fit the job: here its PodGroup is not there */
	write_with(nlh);
	{
		struct vs_err e = { { 0 } };

		restart();
		cr_assert_lt(load(0, &e), 0);
		cr_assert(strstr(e.msg, "its podgroup ns/j is not there"), "%s", e.msg);
		cr_assert_null(vs_vjob_find(&ct.cl, "ns", "j"), "a refused job is not left");
	}
}

/*
 * A task's owner UID comes back with it, so that a restarted daemon
 * collects the PodGroup named after the owner with the owner's last pod.
 */
Test(checkpoint, an_owners_podgroup_is_collected_after_a_restore)
{
	struct nlmsghdr *nlh;
	struct nlattr *n;
	struct vs_err e = { { 0 } };

	CT_SEND_OK(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "default", 1));
	nlh = ct_req(VS_CMD_TASK_NEW, 0);
	n = mnl_attr_nest_start(nlh, VS_A_TASK);
	mnl_attr_put_strz(nlh, VS_TASK_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_TASK_A_NAME, "web-1");
	mnl_attr_put_strz(nlh, VS_TASK_A_OWNER_UID, "5a7e-0001");
	mnl_attr_nest_end(nlh, n);
	CT_OK(nlh);
	save();
	restart();
	cr_assert_eq(load(0, &e), 0, "%s", e.msg);
	cr_assert_str_eq(vs_task_find(&ct.cl, "ns", "web-1")->owner_uid, "5a7e-0001");
	CT_SEND_OK(VS_CMD_TASK_DEL, ct_put_key(__n, VS_A_TASK, "ns", "web-1"));
	cr_assert_null(vs_job_find(&ct.cl, "ns", "podgroup-5a7e-0001"));
}
