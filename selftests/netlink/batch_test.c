// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for batches (netlink/batch.h): messages between BEGIN and END are
 * held and applied at END, all of them or none; a batch that fails half way
 * leaves the cluster exactly as it was, byte for byte as GET shows every
 * object and in the order of every list; a refused message dooms its batch;
 * what may not be in a batch is refused; a client that goes drops its
 * batch.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/log.h"
#include "ctltest.h"
#include "netlink/fill.h"

/* The failed binds of these batches are logged: not in the test's output. */
static void setup(void)
{
	ct_setup_objects();
	vs_log_file = tmpfile();
}

static void teardown(void)
{
	if (vs_log_file)
		fclose(vs_log_file);
	vs_log_file = NULL;
	ct_teardown();
}

TestSuite(batch, .init = setup, .fini = teardown);

/* ---- the whole state, to compare ---- */

static char obj_buf[65536] __attribute__((aligned(4)));

#define PUT_OBJ(_f, _fill, _obj)						\
	do {									\
		struct nlmsghdr *__h;						\
										\
		/* libmnl leaves the padding of an attribute as it was */	\
		memset(obj_buf, 0, sizeof(obj_buf));				\
		__h = mnl_nlmsg_put_header(obj_buf);				\
		cr_assert(_fill(__h, sizeof(obj_buf), (_obj)));		\
		fprintf(_f, "\n%llu ", (unsigned long long)(_obj)->seq);	\
		fwrite(obj_buf, 1, __h->nlmsg_len, _f);				\
	} while (0)

/*
 * The cluster as bytes: every object as a GET shows it (status, node,
 * accounting, conditions), with its creation sequence number, in the order
 * of every list it is on, the cluster's counters and its resource names.
 */
static char *state(size_t *len)
{
	struct vs_cluster *cl = &ct.cl;
	struct vs_prioclass *pc;
	struct vs_queue *queue;
	struct vs_node *node;
	struct vs_vjob *vjob;
	struct vs_task *task;
	struct vs_job *job;
	struct nlmsghdr *h;
	char *s = NULL;
	FILE *f = open_memstream(&s, len);

	cr_assert_not_null(f);
	list_for_each_entry(node, &cl->nodes, list) {
		PUT_OBJ(f, vs_nl_put_node, node);
		fprintf(f, " tasks:");
		list_for_each_entry(task, &node->tasks, node_node)
			fprintf(f, " %s", task->name);
	}
	list_for_each_entry(queue, &cl->queues, list) {
		PUT_OBJ(f, vs_nl_put_queue, queue);
		fprintf(f, " podgroups:");
		list_for_each_entry(job, &queue->jobs, queue_node)
			fprintf(f, " %s", job->name);
	}
	fprintf(f, "\norphans:");
	list_for_each_entry(job, &cl->orphan_jobs, queue_node)
		fprintf(f, " %s", job->name);
	list_for_each_entry(job, &cl->jobs, list) {
		PUT_OBJ(f, vs_nl_put_podgroup, job);
		fprintf(f, " owner %s", job->vjob ? job->vjob->name : "-");
		list_for_each_entry(task, &job->tasks, job_node)
			PUT_OBJ(f, vs_nl_put_task, task);
		for (unsigned int st = 0; st < VS_TASK_NR_STATUS; st++) {
			fprintf(f, "\n%s:", vs_task_status_name(st));
			list_for_each_entry(task, &job->by_status[st], status_node)
				fprintf(f, " %s", task->name);
		}
	}
	list_for_each_entry(vjob, &cl->vjobs, list) {
		PUT_OBJ(f, vs_nl_put_vjob, vjob);
		fprintf(f, " podgroup %s", vjob->podgroup ? vjob->podgroup->name : "-");
	}
	list_for_each_entry(pc, &cl->prioclasses, list)
		PUT_OBJ(f, vs_nl_put_prioclass, pc);
	memset(obj_buf, 0, sizeof(obj_buf));
	h = mnl_nlmsg_put_header(obj_buf);
	cr_assert(vs_nl_put_res(h, sizeof(obj_buf), &cl->dims, 1, &cl->total_allocatable));
	fwrite(obj_buf, 1, h->nlmsg_len, f);
	fprintf(f, "\nresources:");
	for (unsigned int d = 0; d < vs_res_ndims(&cl->dims); d++)
		fprintf(f, " %s", vs_res_dim_name(&cl->dims, d));
	fprintf(f, "\nseq %llu counts %u %u %u %u %u %u\n", (unsigned long long)cl->seq,
		cl->nr_nodes, cl->nr_queues, cl->nr_jobs, cl->nr_tasks, cl->nr_vjobs,
		cl->nr_prioclasses);
	fclose(f);
	return s;
}

static void assert_same_state(const char *before, size_t before_len)
{
	struct vs_err e = { { 0 } };
	size_t len;
	char *now = state(&len);

	cr_assert_eq(vs_cluster_check(&ct.cl, &e), 0, "%s", e.msg);
	cr_assert_eq(len, before_len, "the state changed size");
	for (size_t i = 0; i < len; i++)
		cr_assert_eq(now[i], before[i], "the state differs at byte %zu", i);
	free(now);
}

/* ---- a cluster with something of everything ---- */

#define NEW(_cmd, ...)								\
	do {									\
		struct nlmsghdr *__n = ct_req(_cmd, 0);				\
										\
		__VA_ARGS__;							\
		CT_OK(__n);							\
	} while (0)

static void rich_cluster(void)
{
	struct vs_prioclass_spec pc = { .name = "high", .value = 10, .global_default = true };
	struct vs_vjob_task_spec vt = { .name = "w", .replicas = 2 };
	struct vs_err e = { { 0 } };
	struct vs_vjob_spec vj;
	struct vs_vjob *v;
	struct vs_job *job;

	NEW(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 8000));
	NEW(VS_CMD_NODE_NEW, ct_put_node(__n, "nx", 500));
	NEW(VS_CMD_NODE_NEW, ct_put_node(__n, "n2", 4000));
	NEW(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "default", 1));
	NEW(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "qx", 1));
	NEW(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "q1", 2));
	NEW(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "a", NULL, 2));
	NEW(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "e", NULL, 1));
	NEW(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "f", NULL, 1));
	NEW(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "b", "q1", 1));
	/*
	 * Orphans waiting for q9, with one for q8 between them: PodGroup
	 * admission wants an Open queue, so they are made in one and moved.
	 */
	NEW(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "o1", NULL, 1));
	NEW(VS_CMD_PODGROUP_SET, ct_put_pg(__n, "o1", "q9", 0));
	NEW(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "o3", NULL, 1));
	NEW(VS_CMD_PODGROUP_SET, ct_put_pg(__n, "o3", "q8", 0));
	NEW(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "o2", NULL, 1));
	NEW(VS_CMD_PODGROUP_SET, ct_put_pg(__n, "o2", "q9", 0));
	NEW(VS_CMD_TASK_NEW, ct_put_task(__n, "a0", "a", 1000, "n1", VS_TASK_STATUS_RUNNING));
	NEW(VS_CMD_TASK_NEW, ct_put_task(__n, "a1", "a", 1000, "n2", VS_TASK_STATUS_BINDING));
	NEW(VS_CMD_TASK_NEW, ct_put_task(__n, "a2", "a", 1000, NULL, 0));
	NEW(VS_CMD_TASK_NEW, ct_put_task(__n, "a3", "a", 1000, "n1", VS_TASK_STATUS_BOUND));
	NEW(VS_CMD_TASK_NEW, ct_put_task(__n, "a4", "a", 1000, "n2", VS_TASK_STATUS_RUNNING));
	NEW(VS_CMD_TASK_NEW, ct_put_task(__n, "a5", "a", 1000, NULL, 0));
	NEW(VS_CMD_TASK_NEW, ct_put_task(__n, "a6", "a", 1000, "n1", VS_TASK_STATUS_RUNNING));
	NEW(VS_CMD_TASK_NEW, ct_put_task(__n, "b0", "b", 500, NULL, 0));
	/* qx had a PodGroup with a task once: its sums hold pods, at 0 */
	NEW(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "g", "qx", 1));
	NEW(VS_CMD_TASK_NEW, ct_put_task(__n, "g0", "g", 100, NULL, 0));
	NEW(VS_CMD_TASK_DEL, ct_put_key(__n, VS_A_TASK, "ns", "g0"));
	NEW(VS_CMD_PODGROUP_DEL, ct_put_key(__n, VS_A_PODGROUP, "ns", "g"));
	cr_assert_eq(vs_prioclass_add(&ct.cl, &pc, NULL, &e), 0, "%s", e.msg);
	pc.name = "low";
	pc.value = 1;
	pc.global_default = false;
	cr_assert_eq(vs_prioclass_add(&ct.cl, &pc, NULL, &e), 0, "%s", e.msg);
	vs_vjob_spec_init(&vj, "ns", "v1");
	vj.tasks = &vt;
	vj.nr_tasks = 1;
	cr_assert_eq(vs_vjob_add(&ct.cl, &vj, &v, &e), 0, "%s", e.msg);
	/* status the core writes: conditions, and a PodGroup its VolcanoJob made */
	job = vs_job_find(&ct.cl, "ns", "e");
	cr_assert_eq(vs_job_set_condition(job, VS_PG_COND_UNSCHEDULABLE, true, "NotEnoughResources",
					  "0/2 nodes are unavailable", 3), 0);
	job->vjob = v;
	v->podgroup = job;
	cr_assert_eq(vs_job_set_condition(vs_job_find(&ct.cl, "ns", "a"), VS_PG_COND_SCHEDULED,
					  true, "Scheduled", NULL, 2), 0);
}

/* ---- the batch of everything ---- */

/* BEGIN of the batches below, with VS_A_DRY_RUN when dry_run is set. */
static bool dry_run;

static struct nlmsghdr *begin_req(void)
{
	struct nlmsghdr *first = ct_req(VS_CMD_BATCH_BEGIN, 0);

	if (dry_run)
		mnl_attr_put(first, VS_A_DRY_RUN, 0, NULL);
	return first;
}

/*
 * A datagram of one batch, from BEGIN (seq 100) to END, changing every kind
 * of object every way, with a failing task at seq @bad_seq if not 0.
 */
static size_t big_batch(u32 bad_seq)
{
	struct nlmsghdr *first = begin_req(), *m = first;
	struct nlattr *n;
	u32 seq = 100;

	first->nlmsg_seq = seq++;
	m = ct_next(m, VS_CMD_NODE_SET, 0, seq++);		/* 101: replaced back */
	ct_put_node(m, "n1", 16000);
	m = ct_next(m, VS_CMD_NODE_NEW, 0, seq++);		/* 102: deleted back */
	ct_put_node(m, "n3", 1000);
	m = ct_next(m, VS_CMD_QUEUE_NEW, 0, seq++);		/* 103: adopts o1 and o2 */
	ct_put_queue(m, "q9", 3);
	m = ct_next(m, VS_CMD_PODGROUP_SET, 0, seq++);		/* 104: moves a to q1 */
	n = mnl_attr_nest_start(m, VS_A_PODGROUP);
	mnl_attr_put_strz(m, VS_PG_A_NAMESPACE, "ns");
	mnl_attr_put_strz(m, VS_PG_A_NAME, "a");
	mnl_attr_put_strz(m, VS_PG_A_QUEUE, "q1");
	mnl_attr_put_u32(m, VS_PG_A_PHASE, VS_PG_PHASE_RUNNING);
	/* given conditions: Unschedulable is taken, Scheduled (the cycle's own) is not */
	for (u32 t = 0; t < 2; t++) {
		struct nlattr *c = mnl_attr_nest_start(m, VS_PG_A_CONDITION);

		mnl_attr_put_u32(m, VS_COND_A_TYPE, t ? VS_PG_COND_TYPE_SCHEDULED :
						      VS_PG_COND_TYPE_UNSCHEDULABLE);
		mnl_attr_put_u8(m, VS_COND_A_STATUS, 1);
		mnl_attr_put_strz(m, VS_COND_A_REASON, "Given");
		mnl_attr_put_strz(m, VS_COND_A_MESSAGE, "from the API server");
		mnl_attr_put_strz(m, VS_COND_A_TRANSITION_ID, "uid-1");
		mnl_attr_put_u64(m, VS_COND_A_TIME, 1767225600);
		mnl_attr_nest_end(m, c);
	}
	mnl_attr_nest_end(m, n);
	m = ct_next(m, VS_CMD_TASK_DEL, 0, seq++);		/* 105: made again */
	ct_put_key(m, VS_A_TASK, "ns", "a2");
	m = ct_next(m, VS_CMD_TASK_STATUS, 0, seq++);		/* 106: a0 leaves n1 */
	ct_put_event(m, "a0", VS_TASK_EVENT_SUCCEEDED);
	m = ct_next(m, VS_CMD_BIND_RESULT, 0, seq++);		/* 107: a1 leaves n2 */
	ct_put_bind(m, "a1", "n2", -EIO, "kubelet said no");
	m = ct_next(m, VS_CMD_TASK_STATUS, 0, seq++);		/* 108: a3 gone */
	ct_put_event(m, "a3", VS_TASK_EVENT_DELETED);
	m = ct_next(m, VS_CMD_PRIOCLASS_DEL, 0, seq++);		/* 109 */
	ct_put_key(m, VS_A_PRIOCLASS, NULL, "high");
	m = ct_next(m, VS_CMD_PODGROUP_DEL, 0, seq++);		/* 110: with its conditions */
	ct_put_key(m, VS_A_PODGROUP, "ns", "e");
	m = ct_next(m, VS_CMD_TASK_NEW, 0, seq++);		/* 111 */
	ct_put_task(m, "a9", "a", 500, "n3", VS_TASK_STATUS_RUNNING);
	m = ct_next(m, VS_CMD_QUEUE_SET, 0, seq++);		/* 112 */
	ct_put_queue(m, "default", 5);
	m = ct_next(m, VS_CMD_TASK_STATUS, 0, seq++);		/* 113 */
	ct_put_event(m, "a4", VS_TASK_EVENT_DELETING);
	m = ct_next(m, VS_CMD_TASK_STATUS, 0, seq++);		/* 114: a6 was Running last */
	ct_put_event(m, "a6", VS_TASK_EVENT_FAILED);
	m = ct_next(m, VS_CMD_TASK_STATUS, 0, seq++);		/* 115: and comes back last */
	ct_put_event(m, "a5", VS_TASK_EVENT_FAILED);
	m = ct_next(m, VS_CMD_NODE_NEW, 0, seq++);		/* 116: made and deleted */
	ct_put_node(m, "n4", 1000);
	m = ct_next(m, VS_CMD_NODE_DEL, 0, seq++);		/* 117 */
	ct_put_key(m, VS_A_NODE, NULL, "n4");
	/* 118: the new default */
	m = ct_next(m, VS_CMD_PRIOCLASS_NEW, NLM_F_REPLACE, seq++);
	n = mnl_attr_nest_start(m, VS_A_PRIOCLASS);
	mnl_attr_put_strz(m, VS_PC_A_NAME, "low");
	mnl_attr_put_u32(m, VS_PC_A_VALUE, 7);
	mnl_attr_put_u8(m, VS_PC_A_GLOBAL_DEFAULT, 1);
	mnl_attr_nest_end(m, n);
	m = ct_next(m, VS_CMD_NODE_DEL, 0, seq++);		/* 119: made again in its place */
	ct_put_key(m, VS_A_NODE, NULL, "nx");
	m = ct_next(m, VS_CMD_QUEUE_DEL, 0, seq++);		/* 120 */
	ct_put_key(m, VS_A_QUEUE, NULL, "qx");
	m = ct_next(m, VS_CMD_PODGROUP_NEW, NLM_F_REPLACE, seq++);	/* 121: b to "default" */
	ct_put_pg(m, "b", NULL, 1);
	m = ct_next(m, VS_CMD_QUEUE_NEW, 0, seq++);		/* 122: qx again, and f in it */
	ct_put_queue(m, "qx", 9);
	m = ct_next(m, VS_CMD_PODGROUP_SET, 0, seq++);		/* 123 */
	ct_put_pg(m, "f", "qx", 0);
	m = ct_next(m, VS_CMD_VJOB_NEW, 0, seq++);		/* 124 */
	n = mnl_attr_nest_start(m, VS_A_VJOB);
	mnl_attr_put_strz(m, VS_VJOB_A_NAMESPACE, "ns");
	mnl_attr_put_strz(m, VS_VJOB_A_NAME, "v2");
	{
		struct nlattr *t = mnl_attr_nest_start(m, VS_VJOB_A_TASK);

		mnl_attr_put_strz(m, VS_VTASK_A_NAME, "w");
		mnl_attr_put_u32(m, VS_VTASK_A_REPLICAS, 1);
		mnl_attr_nest_end(m, t);
	}
	mnl_attr_nest_end(m, n);
	m = ct_next(m, VS_CMD_TASK_STATUS, 0, seq++);		/* 125: a5 nominated twice */
	ct_put_report(m, "a5", VS_TASK_EVENT_NOMINATED, "n2");
	m = ct_next(m, VS_CMD_TASK_STATUS, 0, seq++);		/* 126 */
	ct_put_report(m, "a5", VS_TASK_EVENT_NOMINATED, "n9");
	if (bad_seq) {
		m = ct_next(m, VS_CMD_TASK_NEW, 0, bad_seq);
		ct_put_task(m, "bad", "zz", 100, NULL, 0);
	}
	m = ct_next(m, VS_CMD_BATCH_END, NLM_F_ACK, 200);
	return ct_len(first, m);
}

Test(batch, a_failing_message_undoes_everything_before_it_exactly)
{
	size_t before_len, len;
	char *before;

	rich_cluster();
	before = state(&before_len);
	len = big_batch(150);
	cr_assert_eq(ct_send_dgram(ct.req, len), -ENOENT);
	cr_assert_str_eq(ct.ext.err.msg, "batch not applied: message seq 150 (VS_CMD_TASK_NEW "
			 "task ns/bad) failed: pod ns/bad: podgroup ns/zz does not exist");
	cr_assert_not(ct.ext.has_offs);
	/* nothing held was answered; END answers for the batch */
	cr_assert_eq(ct_reply_count(), 1);
	cr_assert_eq(ct_reply_seq(0), 200);
	cr_assert_eq(ct_reply_errno(0), -ENOENT);
	cr_assert_not(ct.batch.open);
	assert_same_state(before, before_len);
	free(before);
}

Test(batch, the_same_batch_without_the_failure_applies_it_all_in_order)
{
	struct vs_job *a;
	struct vs_node *n1;

	rich_cluster();
	cr_assert_eq(ct_send_dgram(ct.req, big_batch(0)), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_reply_count(), 1, "only END's ack");
	cr_assert_eq(ct_reply_errno(0), 0);
	cr_assert_eq(ct_reply_seq(0), 200);
	n1 = vs_node_find(&ct.cl, "n1");
	cr_assert_eq(vs_res_get(&n1->allocatable, VS_RES_CPU), 16000);
	cr_assert_not_null(vs_node_find(&ct.cl, "n3"));
	cr_assert_null(vs_node_find(&ct.cl, "n4"));
	cr_assert_eq(vs_queue_find(&ct.cl, "q9")->nr_jobs, 2, "q9 adopted its PodGroups");
	a = vs_job_find(&ct.cl, "ns", "a");
	cr_assert_str_eq(a->queue->name, "q1");
	cr_assert(a->cond[VS_PG_COND_UNSCHEDULABLE].given, "a given condition is taken");
	cr_assert_str_eq(vs_pg_cond_transition_id(&a->cond[VS_PG_COND_UNSCHEDULABLE]), "uid-1");
	cr_assert_eq(a->cond[VS_PG_COND_UNSCHEDULABLE].time, 1767225600);
	cr_assert(!a->cond[VS_PG_COND_SCHEDULED].given, "not over the cycle's own");
	cr_assert_str_eq(vs_pg_cond_reason(&a->cond[VS_PG_COND_SCHEDULED]), "Scheduled");
	cr_assert_null(ct_task("a2"));
	cr_assert_null(ct_task("a3"));
	cr_assert_eq(ct_task("a0")->status, VS_TASK_SUCCEEDED);
	cr_assert_eq(ct_task("a1")->status, VS_TASK_PENDING);
	cr_assert_eq(ct_task("a4")->status, VS_TASK_RELEASING);
	cr_assert_eq(ct_task("a9")->status, VS_TASK_RUNNING);
	cr_assert_str_eq(ct_task("a9")->node->name, "n3", "applied in order: n3 came first");
	cr_assert_null(vs_prioclass_find(&ct.cl, "high"));
	cr_assert(vs_prioclass_find(&ct.cl, "low")->global_default);
	cr_assert_null(vs_job_find(&ct.cl, "ns", "e"));
	cr_assert_eq(vs_queue_find(&ct.cl, "default")->weight, 5);
	cr_assert_not_null(vs_vjob_find(&ct.cl, "ns", "v2"));
	cr_assert_null(vs_node_find(&ct.cl, "nx"));
	cr_assert_eq(vs_queue_find(&ct.cl, "qx")->weight, 9);
	cr_assert_str_eq(vs_job_find(&ct.cl, "ns", "f")->queue->name, "qx");
	cr_assert_str_eq(vs_job_find(&ct.cl, "ns", "b")->queue->name, "default");
	cr_assert_eq(ct.core.ctl.bind_failures, 1);
	cr_assert_str_eq(vs_task_nominated(ct_task("a5")), "n9");
}

Test(batch, a_failure_at_any_point_leaves_the_state_as_it_was)
{
	static char full[1 << 14] __attribute__((aligned(4))), cut[1 << 14]
		__attribute__((aligned(4)));
	size_t before_len, full_len;
	char *before;

	rich_cluster();
	before = state(&before_len);
	full_len = big_batch(150);
	cr_assert_leq(full_len, sizeof(full));
	memcpy(full, ct.req, full_len);
	/* BEGIN, the messages up to @keep, the failing task and END */
	for (u32 keep = 100; keep <= 126; keep++) {
		const struct nlmsghdr *m;
		size_t len = 0;
		int left = (int)full_len;

		for (m = (const void *)full; mnl_nlmsg_ok(m, left); m = mnl_nlmsg_next(m, &left)) {
			if (m->nlmsg_seq > keep && m->nlmsg_seq < 150)
				continue;
			memcpy(cut + len, m, m->nlmsg_len);
			len += NLMSG_ALIGN(m->nlmsg_len);
		}
		cr_assert_eq(ct_send_dgram(cut, len), -ENOENT, "cut after %u: %s", keep,
			     ct.ext.err.msg);
		cr_assert_not_null(strstr(ct.ext.err.msg, "message seq 150 "), "%s",
				   ct.ext.err.msg);
		assert_same_state(before, before_len);
	}
	free(before);
}

/* ---- dry runs ---- */

Test(batch, a_dry_run_answers_as_the_batch_would_and_changes_nothing)
{
	size_t before_len;
	char *before;

	rich_cluster();
	ct.core.events.on = true;
	before = state(&before_len);
	dry_run = true;
	cr_assert_eq(ct_send_dgram(ct.req, big_batch(0)), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_reply_count(), 1, "only END's ack");
	cr_assert_eq(ct_reply_errno(0), 0);
	cr_assert_eq(ct_reply_seq(0), 200);
	cr_assert_not(ct.batch.open);
	assert_same_state(before, before_len);
	cr_assert_eq(ct.core.events.nr, 0, "a dry run tells the listeners nothing");
	cr_assert_eq(ct.core.events.len, 0);

	/* the same batch, not dry: applied, and told */
	dry_run = false;
	cr_assert_eq(ct_send_dgram(ct.req, big_batch(0)), 0, "%s", ct.ext.err.msg);
	cr_assert_not_null(vs_node_find(&ct.cl, "n3"));
	cr_assert_gt(ct.core.events.nr, 0);
	free(before);
}

Test(batch, a_dry_run_that_fails_fails_as_the_batch_would)
{
	size_t before_len;
	char *before;

	rich_cluster();
	before = state(&before_len);
	dry_run = true;
	cr_assert_eq(ct_send_dgram(ct.req, big_batch(150)), -ENOENT);
	cr_assert_str_eq(ct.ext.err.msg, "batch not applied: message seq 150 (VS_CMD_TASK_NEW "
			 "task ns/bad) failed: pod ns/bad: podgroup ns/zz does not exist");
	cr_assert_eq(ct_reply_count(), 1);
	cr_assert_eq(ct_reply_seq(0), 200);
	assert_same_state(before, before_len);
	free(before);
}

/* ---- what a batch holds, and what it refuses ---- */

Test(batch, messages_are_held_until_end_even_across_datagrams)
{
	struct nlmsghdr *first = ct_req(VS_CMD_BATCH_BEGIN, NLM_F_ACK), *m;

	m = ct_next(first, VS_CMD_NODE_NEW, NLM_F_ACK, 1);
	ct_put_node(m, "n1", 1000);
	m = ct_next(m, VS_CMD_QUEUE_NEW, 0, 2);
	ct_put_queue(m, "default", 1);
	cr_assert_eq(ct_send_dgram(first, ct_len(first, m)), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_reply_count(), 2, "BEGIN's ack and the node's: accepted, not applied");
	cr_assert_eq(ct_reply_errno(0), 0);
	cr_assert_eq(ct_reply_errno(1), 0);
	cr_assert(ct.batch.open);
	cr_assert_eq(ct.batch.nr, 2);
	cr_assert_eq(ct.cl.nr_nodes + ct.cl.nr_queues, 0);

	/* a second datagram: a PodGroup and its task, the task's before END */
	first = ct_req(VS_CMD_PODGROUP_NEW, 0);
	first->nlmsg_seq = 3;
	ct_put_pg(first, "pg", NULL, 1);
	m = ct_next(first, VS_CMD_TASK_NEW, 0, 4);
	ct_put_task(m, "p", "pg", 100, "n1", VS_TASK_STATUS_RUNNING);
	cr_assert_eq(ct_send_dgram(first, ct_len(first, m)), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_reply_count(), 0);
	cr_assert_eq(ct.cl.nr_jobs, 0);

	/* END applies them all, in order */
	m = ct_req(VS_CMD_BATCH_END, 0);
	m->nlmsg_seq = 5;
	CT_OK(m);
	cr_assert_eq(ct_reply_count(), 0, "END without NLM_F_ACK says nothing");
	cr_assert_eq(ct.cl.nr_nodes + ct.cl.nr_queues + ct.cl.nr_jobs + ct.cl.nr_tasks, 4);
	cr_assert_eq(ct_task("p")->status, VS_TASK_RUNNING);
	cr_assert_not(ct.batch.open);
	cr_assert_null(ct.batch.buf);
}

/*
 * A batch is held messages, not a datagram: several megabytes of them are
 * applied whole (END once walked them as a datagram, at most VS_MSG_MAX,
 * and acked a larger batch with nothing applied).
 */
Test(batch, a_batch_larger_than_a_datagram_is_applied_whole)
{
	const u32 n = 30000;
	struct nlmsghdr *first, *m;
	char name[16];
	u32 seq = 1;

	CT_OK(ct_req(VS_CMD_BATCH_BEGIN, 0));
	for (u32 i = 0; i < n;) {
		/* Datagrams of ct.req's size, each of as many nodes as fit. */
		first = ct_req(VS_CMD_NODE_NEW, 0);
		first->nlmsg_seq = ++seq;
		snprintf(name, sizeof(name), "n%05u", i++);
		ct_put_node(first, name, 1000);
		for (m = first; i < n && ct_len(first, m) < sizeof(ct.req) - 512; i++) {
			snprintf(name, sizeof(name), "n%05u", i);
			m = ct_next(m, VS_CMD_NODE_NEW, 0, ++seq);
			ct_put_node(m, name, 1000);
		}
		cr_assert_eq(ct_send_dgram(first, ct_len(first, m)), 0, "%s", ct.ext.err.msg);
	}
	cr_assert_gt(ct.batch.len, 2u * VS_MSG_MAX, "%zu bytes held", ct.batch.len);
	cr_assert_eq(ct.cl.nr_nodes, 0, "held, not applied");
	m = ct_req(VS_CMD_BATCH_END, NLM_F_ACK);
	CT_OK(m);
	cr_assert_eq(ct.cl.nr_nodes, n);
	cr_assert_not_null(vs_node_find(&ct.cl, "n29999"));
}

Test(batch, a_refused_message_dooms_its_batch)
{
	struct nlmsghdr *first = ct_req(VS_CMD_BATCH_BEGIN, 0), *m;
	struct nlattr *n;

	m = ct_next(first, VS_CMD_NODE_NEW, NLM_F_ACK, 1);
	ct_put_node(m, "n1", 1000);
	m = ct_next(m, VS_CMD_NODE_NEW, NLM_F_ACK, 2);	/* its name is not NUL-terminated */
	n = mnl_attr_nest_start(m, VS_A_NODE);
	mnl_attr_put_str(m, VS_NODE_A_NAME, "n2");
	mnl_attr_nest_end(m, n);
	m = ct_next(m, VS_CMD_NODE_NEW, NLM_F_ACK, 3);
	ct_put_node(m, "n3", 1000);
	m = ct_next(m, VS_CMD_BATCH_END, 0, 4);
	cr_assert_eq(ct_send_dgram(first, ct_len(first, m)), -EINVAL);
	/* answered at once, with its offset, as outside a batch */
	cr_assert_str_eq(ct.ext.err.msg, "node.name (VS_NODE_A_NAME): string not NUL-terminated");
	cr_assert(ct.ext.has_offs);
	cr_assert_eq(ct_reply_count(), 4, "n1's ack, the error, n3's ack, END's error");
	cr_assert_eq(ct_reply_errno(0), 0);
	cr_assert_eq(ct_reply_errno(1), -EINVAL);
	cr_assert_eq(ct_reply_seq(1), 2);
	cr_assert_eq(ct_reply_errno(2), 0);
	cr_assert_eq(ct_reply_errno(3), -EINVAL);
	cr_assert_eq(ct_reply_seq(3), 4);
	cr_assert_eq(ct.cl.nr_nodes, 0, "a doomed batch applied something");
	cr_assert_not(ct.batch.open);

	/* END's own error names the message */
	m = ct_req(VS_CMD_BATCH_BEGIN, 0);
	CT_OK(m);
	m = ct_req(VS_CMD_NODE_GET, 0);
	m->nlmsg_seq = 8;
	ct_put_key(m, VS_A_NODE, NULL, "n1");
	cr_assert_eq(ct_send(m), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "VS_CMD_NODE_GET cannot be in a batch: only NEW, SET and "
			 "DEL of objects, VS_CMD_TASK_STATUS and VS_CMD_BIND_RESULT may be");
	cr_assert_eq(ct_send(ct_req(VS_CMD_BATCH_END, 0)), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "batch not applied: message seq 8 was refused: "
			 "VS_CMD_NODE_GET cannot be in a batch: only NEW, SET and DEL of objects, "
			 "VS_CMD_TASK_STATUS and VS_CMD_BIND_RESULT may be");
}

Test(batch, what_cannot_be_in_a_batch_is_refused)
{
	static const u8 refused[] = {
		VS_CMD_CONF_GET, VS_CMD_STATS_GET, VS_CMD_CYCLE_RUN, VS_CMD_RESET,
		VS_CMD_BATCH_BEGIN,
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(refused); i++) {
		CT_OK(ct_req(VS_CMD_BATCH_BEGIN, 0));
		cr_assert_eq(ct_send(ct_req(refused[i], 0)), -EINVAL, "command %u", refused[i]);
		cr_assert_eq(ct_send(ct_req(VS_CMD_BATCH_END, 0)), -EINVAL);
	}
	CT_OK(ct_req(VS_CMD_BATCH_BEGIN, 0));
	cr_assert_eq(ct_send(ct_req(VS_CMD_BATCH_BEGIN, 0)), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "a batch is open already (begun by message seq 42)");
	vs_nl_batch_release(&ct.batch);

	/* dumps */
	CT_OK(ct_req(VS_CMD_BATCH_BEGIN, 0));
	cr_assert_eq(ct_send(ct_req(VS_CMD_NODE_GET, NLM_F_DUMP)), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "VS_CMD_NODE_GET: a dump (NLM_F_DUMP) cannot be in a "
			 "batch");
	vs_nl_batch_release(&ct.batch);

	/* END without BEGIN */
	cr_assert_eq(ct_send(ct_req(VS_CMD_BATCH_END, 0)), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "VS_CMD_BATCH_END without VS_CMD_BATCH_BEGIN: no batch "
			 "is open");

	/* a batch is the admin's */
	ct.ctx.admin = false;
	cr_assert_eq(ct_send(ct_req(VS_CMD_BATCH_BEGIN, 0)), -EPERM);
	cr_assert_not(ct.batch.open);
}

Test(batch, a_client_that_goes_drops_its_batch)
{
	struct nlmsghdr *m;

	CT_OK(ct_req(VS_CMD_BATCH_BEGIN, 0));
	m = ct_req(VS_CMD_NODE_NEW, 0);
	ct_put_node(m, "n1", 1000);
	CT_OK(m);
	cr_assert_not_null(ct.batch.buf);
	vs_nl_batch_release(&ct.batch);
	cr_assert_not(ct.batch.open);
	cr_assert_null(ct.batch.buf);
	cr_assert_eq(ct.cl.nr_nodes, 0);

	/* without a batch, messages go straight to their handlers */
	CT_OK(m);
	cr_assert_eq(ct.cl.nr_nodes, 1);
}

Test(batch, batches_need_a_connection)
{
	struct vs_genl_dump dump;

	vs_nl_reply_init(&ct.reply, ct.out, sizeof(ct.out), 7);
	vs_extack_clear(&ct.ext);
	cr_assert_eq(vs_genl_rcv_msg(&ct.ctx, ct_req(VS_CMD_BATCH_BEGIN, 0), &ct.reply, &dump,
				     &ct.ext), -EOPNOTSUPP);
	cr_assert_str_eq(ct.ext.err.msg, "VS_CMD_BATCH_BEGIN: batches are not available here");
}

Test(batch, an_empty_batch_is_acked)
{
	struct nlmsghdr *first = ct_req(VS_CMD_BATCH_BEGIN, 0), *m;

	m = ct_next(first, VS_CMD_BATCH_END, NLM_F_ACK, 9);
	cr_assert_eq(ct_send_dgram(first, ct_len(first, m)), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_reply_count(), 1);
	cr_assert_eq(ct_reply_errno(0), 0);
	cr_assert_not(ct.batch.open);
}

Test(batch, a_datagram_cut_short_dooms_the_open_batch)
{
	struct nlmsghdr *first = ct_req(VS_CMD_BATCH_BEGIN, 0), *m;

	m = ct_next(first, VS_CMD_NODE_NEW, 0, 1);
	ct_put_node(m, "n1", 1000);
	/* six bytes of a header whose message never came */
	cr_assert_eq(ct_send_dgram(first, ct_len(first, m) + 6), -EINVAL);
	cr_assert(ct.batch.open);
	cr_assert_eq(ct_send(ct_req(VS_CMD_BATCH_END, 0)), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "batch not applied: message seq 0 was refused: "
			 "truncated message header: 6 bytes, needs 16");
	cr_assert_eq(ct.cl.nr_nodes, 0);
}

/* ---- what the controllers do in a batch ---- */

/* A task of ns without a PodGroup: the podgroup controller makes one; on @node if set. */
static void put_bare_task(struct nlmsghdr *nlh, const char *name, const char *node)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_TASK);

	mnl_attr_put_strz(nlh, VS_TASK_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_TASK_A_NAME, name);
	ct_put_res(nlh, VS_TASK_A_REQUEST, 500, 64 * CT_MI, -1);
	if (node) {
		mnl_attr_put_strz(nlh, VS_TASK_A_NODE, node);
		mnl_attr_put_u32(nlh, VS_TASK_A_STATUS, VS_TASK_STATUS_RUNNING);
	}
	mnl_attr_nest_end(nlh, n);
}

/* A VolcanoJob ns/@name of one task group "w" of @replicas, in "default". */
static void put_vjob(struct nlmsghdr *nlh, const char *name, u32 replicas)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_VJOB), *t;

	mnl_attr_put_strz(nlh, VS_VJOB_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_VJOB_A_NAME, name);
	t = mnl_attr_nest_start(nlh, VS_VJOB_A_TASK);
	mnl_attr_put_strz(nlh, VS_VTASK_A_NAME, "w");
	mnl_attr_put_u32(nlh, VS_VTASK_A_REPLICAS, replicas);
	ct_put_res(nlh, VS_VTASK_A_REQUEST, 500, 64 * CT_MI, -1);
	mnl_attr_nest_end(nlh, t);
	mnl_attr_nest_end(nlh, n);
}

static void put_pg_phase(struct nlmsghdr *nlh, const char *name, u32 phase)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_PODGROUP);

	mnl_attr_put_strz(nlh, VS_PG_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_PG_A_NAME, name);
	mnl_attr_put_u32(nlh, VS_PG_A_PHASE, phase);
	mnl_attr_nest_end(nlh, n);
}

static void put_queue_parent(struct nlmsghdr *nlh, const char *name, const char *parent)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_QUEUE);

	mnl_attr_put_strz(nlh, VS_QUEUE_A_NAME, name);
	mnl_attr_put_strz(nlh, VS_QUEUE_A_PARENT, parent);
	mnl_attr_nest_end(nlh, n);
}

static struct nlmsghdr *queue_command(struct nlmsghdr *nlh, const char *name, u32 action)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_COMMAND);

	mnl_attr_put_strz(nlh, VS_COMMAND_A_NAME, name);
	mnl_attr_put_u32(nlh, VS_COMMAND_A_ACTION, action);
	mnl_attr_nest_end(nlh, n);
	return nlh;
}

/* BEGIN, what @fill puts after it, then (if @bad) a task of a PodGroup that is not, and END. */
static size_t batch_of(struct nlmsghdr *(*fill)(struct nlmsghdr *m), bool bad)
{
	struct nlmsghdr *first = begin_req(), *m;

	first->nlmsg_seq = 100;
	m = fill(first);
	if (bad) {
		m = ct_next(m, VS_CMD_TASK_NEW, 0, 150);
		ct_put_task(m, "bad", "zz", 100, NULL, 0);
	}
	m = ct_next(m, VS_CMD_BATCH_END, NLM_F_ACK, 200);
	return ct_len(first, m);
}

/* Apply @fill's batch with a failure at its end: nothing of it stays. */
static void assert_undone(struct nlmsghdr *(*fill)(struct nlmsghdr *m))
{
	size_t before_len;
	char *before = state(&before_len);

	cr_assert_eq(ct_send_dgram(ct.req, batch_of(fill, true)), -ENOENT, "%s", ct.ext.err.msg);
	cr_assert_not_null(strstr(ct.ext.err.msg, "message seq 150 "), "%s", ct.ext.err.msg);
	assert_same_state(before, before_len);
	free(before);
}

static struct nlmsghdr *made_by_controllers(struct nlmsghdr *m)
{
	m = ct_next(m, VS_CMD_VJOB_NEW, 0, 101);		/* its PodGroup made */
	put_vjob(m, "v", 2);
	m = ct_next(m, VS_CMD_TASK_NEW, 0, 102);		/* podgroup-b0 made */
	put_bare_task(m, "b0", "n1");
	m = ct_next(m, VS_CMD_TASK_NEW, 0, 103);		/* podgroup-b1 there already */
	put_bare_task(m, "b1", NULL);
	m = ct_next(m, VS_CMD_PODGROUP_NEW, 0, 104);
	ct_put_pg(m, "pg", NULL, 1);
	return m;
}

Test(batch, a_volcano_job_in_a_batch_that_fails_later_leaves_nothing)
{
	NEW(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 8000));
	NEW(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "default", 1));
	NEW(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "podgroup-b1", NULL, 1));
	assert_undone(made_by_controllers);
	cr_assert_eq(ct.cl.nr_vjobs, 0);
	cr_assert_eq(ct.cl.nr_jobs, 1, "only podgroup-b1, from before");

	/* a dry run of it without the failure leaves nothing either */
	dry_run = true;
	cr_assert_eq(ct_send_dgram(ct.req, batch_of(made_by_controllers, false)), 0, "%s",
		     ct.ext.err.msg);
	dry_run = false;
	cr_assert_eq(ct.cl.nr_vjobs, 0);
	cr_assert_eq(ct.cl.nr_jobs, 1, "a dry run leaves only podgroup-b1");
	cr_assert_null(ct_task("b0"));

	/* without the failure: the job and its PodGroup, the bare task's PodGroup */
	cr_assert_eq(ct_send_dgram(ct.req, batch_of(made_by_controllers, false)), 0, "%s",
		     ct.ext.err.msg);
	cr_assert_eq(vs_job_find(&ct.cl, "ns", "v")->vjob, vs_vjob_find(&ct.cl, "ns", "v"));
	cr_assert_eq(ct_task("b0")->job, vs_job_find(&ct.cl, "ns", "podgroup-b0"));
	cr_assert_eq(ct_task("b1")->job, vs_job_find(&ct.cl, "ns", "podgroup-b1"));
	cr_assert_eq(ct.cl.nr_jobs, 4);
}

static struct nlmsghdr *moving_queues(struct nlmsghdr *m)
{
	m = ct_next(m, VS_CMD_QUEUE_NEW, 0, 101);		/* closed with its parent */
	put_queue_parent(m, "c", "p");
	m = ct_next(m, VS_CMD_PODGROUP_DEL, 0, 102);		/* q closes with it */
	ct_put_key(m, VS_A_PODGROUP, "ns", "g");
	m = ct_next(m, VS_CMD_TASK_DEL, 0, 103);		/* podgroup-b0 goes with it */
	ct_put_key(m, VS_A_TASK, "ns", "b0");
	m = ct_next(m, VS_CMD_TASK_STATUS, 0, 104);		/* and podgroup-b1 */
	ct_put_event(m, "b1", VS_TASK_EVENT_DELETED);
	return m;
}

Test(batch, what_the_queue_and_podgroup_controllers_did_is_undone)
{
	NEW(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 8000));
	NEW(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "default", 1));
	NEW(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "p", 1));
	NEW(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "q", 1));
	NEW(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "g", "q", 1));
	NEW(VS_CMD_TASK_NEW, put_bare_task(__n, "b0", "n1"));
	NEW(VS_CMD_TASK_NEW, put_bare_task(__n, "b1", NULL));
	NEW(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "pg", NULL, 1));	/* after podgroup-b1 */
	CT_OK(queue_command(ct_req(VS_CMD_QUEUE_COMMAND, 0), "p", VS_ACTION_CLOSE_QUEUE));
	CT_OK(queue_command(ct_req(VS_CMD_QUEUE_COMMAND, 0), "q", VS_ACTION_CLOSE_QUEUE));
	cr_assert_eq(vs_queue_find(&ct.cl, "q")->state, VS_QUEUE_CLOSING);

	assert_undone(moving_queues);
	cr_assert_eq(vs_queue_find(&ct.cl, "q")->state, VS_QUEUE_CLOSING);
	cr_assert_eq(ct_task("b0")->job, vs_job_find(&ct.cl, "ns", "podgroup-b0"));
	cr_assert_eq(ct_task("b1")->job, vs_job_find(&ct.cl, "ns", "podgroup-b1"));

	cr_assert_eq(ct_send_dgram(ct.req, batch_of(moving_queues, false)), 0, "%s",
		     ct.ext.err.msg);
	cr_assert_eq(vs_queue_find(&ct.cl, "c")->state, VS_QUEUE_CLOSED);
	cr_assert(vs_queue_find(&ct.cl, "c")->closed_by_parent);
	cr_assert_eq(vs_queue_find(&ct.cl, "q")->state, VS_QUEUE_CLOSED);
	cr_assert_eq(ct.cl.nr_jobs, 1, "only pg");
}

/* A VolcanoJob v whose PodGroup a cycle admitted, with its task v-w-0 made by a sync. */
static void controlled_job(void)
{
	struct nlmsghdr *m;
	struct nlattr *n;

	NEW(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "default", 1));
	NEW(VS_CMD_VJOB_NEW, put_vjob(__n, "v", 1));
	NEW(VS_CMD_PODGROUP_SET, put_pg_phase(__n, "v", VS_PG_PHASE_INQUEUE));
	m = ct_req(VS_CMD_VJOB_COMMAND, 0);
	n = mnl_attr_nest_start(m, VS_A_COMMAND);
	mnl_attr_put_strz(m, VS_COMMAND_A_NAMESPACE, "ns");
	mnl_attr_put_strz(m, VS_COMMAND_A_NAME, "v");
	mnl_attr_put_u32(m, VS_COMMAND_A_ACTION, VS_ACTION_SYNC_JOB);
	mnl_attr_nest_end(m, n);
	CT_OK(m);
	cr_assert_not_null(ct_task("v-w-0"));
}

static struct nlmsghdr *job_task_fails(struct nlmsghdr *m)
{
	m = ct_next(m, VS_CMD_PODGROUP_NEW, 0, 101);
	ct_put_pg(m, "pg", NULL, 1);
	m = ct_next(m, VS_CMD_TASK_STATUS, 0, 102);	/* the job's policy reacts */
	ct_put_event(m, "v-w-0", VS_TASK_EVENT_FAILED);
	return m;
}

static struct nlmsghdr *job_task_goes(struct nlmsghdr *m)
{
	m = ct_next(m, VS_CMD_TASK_DEL, 0, 101);	/* the job's sync makes it again */
	ct_put_key(m, VS_A_TASK, "ns", "v-w-0");
	return m;
}

static struct nlmsghdr *job_takes_podgroup(struct nlmsghdr *m)
{
	m = ct_next(m, VS_CMD_PODGROUP_NEW, 0, 101);
	ct_put_pg(m, "w2", NULL, 1);
	m = ct_next(m, VS_CMD_VJOB_NEW, 0, 102);	/* takes over the PodGroup w2 */
	put_vjob(m, "w2", 1);
	return m;
}

static struct nlmsghdr *job_goes(struct nlmsghdr *m)
{
	m = ct_next(m, VS_CMD_VJOB_DEL, 0, 101);	/* its task and PodGroup with it */
	ct_put_key(m, VS_A_VJOB, "ns", "v");
	return m;
}

Test(batch, what_the_job_controller_does_in_a_batch_is_undone)
{
	controlled_job();
	assert_undone(job_task_fails);
	assert_undone(job_task_goes);
	assert_undone(job_takes_podgroup);
	assert_undone(job_goes);
	cr_assert_eq(vs_vjob_find(&ct.cl, "ns", "v")->podgroup, vs_job_find(&ct.cl, "ns", "v"));
	cr_assert_eq(ct_task("v-w-0")->job->vjob, vs_vjob_find(&ct.cl, "ns", "v"));
}

Test(batch, what_the_job_controller_does_in_a_batch_is_applied)
{
	struct vs_err e = { { 0 } };

	controlled_job();
	cr_assert_eq(ct_send_dgram(ct.req, batch_of(job_task_fails, false)), 0, "%s",
		     ct.ext.err.msg);
	cr_assert_eq(ct_send_dgram(ct.req, batch_of(job_takes_podgroup, false)), 0, "%s",
		     ct.ext.err.msg);
	cr_assert_eq(vs_job_find(&ct.cl, "ns", "w2")->vjob, vs_vjob_find(&ct.cl, "ns", "w2"));
	cr_assert_eq(ct_send_dgram(ct.req, batch_of(job_goes, false)), 0, "%s", ct.ext.err.msg);
	cr_assert_null(vs_vjob_find(&ct.cl, "ns", "v"));
	cr_assert_null(vs_job_find(&ct.cl, "ns", "v"));
	cr_assert_null(vs_task_find(&ct.cl, "ns", "v-w-0"));
	cr_assert_eq(vs_cluster_check(&ct.cl, &e), 0, "%s", e.msg);
}

/* A node named @name with one unit of the scalar resource @res. */
static void put_node_with(struct nlmsghdr *nlh, const char *name, const char *res, s64 cpu)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE), *r, *s;

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, name);
	r = mnl_attr_nest_start(nlh, VS_NODE_A_ALLOCATABLE);
	mnl_attr_put_u64(nlh, VS_RES_A_CPU, (u64)cpu);
	s = mnl_attr_nest_start(nlh, VS_RES_A_SCALAR);
	mnl_attr_put_strz(nlh, VS_SCALAR_A_NAME, res);
	mnl_attr_put_u64(nlh, VS_SCALAR_A_VALUE, 1000);
	mnl_attr_nest_end(nlh, s);
	mnl_attr_nest_end(nlh, r);
	mnl_attr_nest_end(nlh, n);
}

/*
 * The resource names are a table of VS_RES_MAX for the cluster: a refused
 * request, or a batch undone, must give back the names it brought, or a
 * client could fill the table with requests that change nothing.
 */
Test(batch, refused_requests_and_undone_batches_keep_no_resource_name)
{
	const struct vs_res_dims *dims = &ct.cl.dims;
	unsigned int before = vs_res_ndims(dims);
	struct nlmsghdr *first, *m;
	char res[32];

	/* far more refusals than the table holds: each one a new name */
	for (unsigned int i = 0; i < 3 * VS_RES_MAX; i++) {
		snprintf(res, sizeof(res), "example.com/r%u", i);
		m = ct_req(VS_CMD_NODE_NEW, 0);
		put_node_with(m, "", res, 1000);	/* no name: refused */
		cr_assert_lt(ct_send(m), 0);
	}
	cr_assert_eq(vs_res_ndims(dims), before);

	/* a batch whose second message fails: its first node, and its name, are undone */
	first = ct_req(VS_CMD_BATCH_BEGIN, 0);
	m = ct_next(first, VS_CMD_NODE_NEW, 0, 2);
	put_node_with(m, "nb", "example.com/batch", 1000);
	m = ct_next(m, VS_CMD_NODE_DEL, 0, 3);
	ct_put_key(m, VS_A_NODE, NULL, "no-such-node");
	m = ct_next(m, VS_CMD_BATCH_END, 0, 4);
	cr_assert_lt(ct_send_dgram(first, ct_len(first, m)), 0);
	cr_assert_null(vs_node_find(&ct.cl, "nb"));
	cr_assert_eq(vs_res_ndims(dims), before);

	/* what is made keeps its name */
	m = ct_req(VS_CMD_NODE_NEW, 0);
	put_node_with(m, "n-fpga", "example.com/fpga", 1000);
	CT_OK(m);
	cr_assert_eq(vs_res_ndims(dims), before + 1);
	cr_assert_geq(vs_res_dim_lookup(dims, "example.com/fpga", strlen("example.com/fpga")), 0);
}
