// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the status group (netlink/writeback.h): what a cycle tells a
 * bridge to write back (PodGroup status, pods' PodScheduled conditions,
 * queues' allocated), in Volcano's words, and only when it changed.
 * Cycles run in process with the session's job_status sink set as the
 * daemon sets it; the messages are read from core->status.
 */
#include <stdio.h>

#include "core/log.h"
#include "ctltest.h"
#include "netlink/writeback.h"

static void job_status(void *ctx, struct vs_job *job)
{
	vs_nl_writeback_job(ctx, job);
}

static void setup(void)
{
	ct_setup_sched();
	ct.sched.sink.job_status = job_status;
	ct.sched.sink.ctx = &ct.core;
	vs_log_file = tmpfile();
	ct.core.status.on = true;
}

static void teardown(void)
{
	vs_nl_events_release(&ct.core.status);
	if (vs_log_file)
		fclose(vs_log_file);
	vs_log_file = NULL;
	ct_teardown();
}

TestSuite(writeback, .init = setup, .fini = teardown);

static const char *const phases[] = { "Pending", "Running", "Unknown", "Inqueue", "Completed" };
static const char *const cond_types[] = { "Unschedulable", "Scheduled" };

static size_t put_res(const struct nlattr *nest, char *buf, size_t len)
{
	const struct nlattr *a;
	size_t n = 0;

	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case VS_RES_A_CPU:
			n += (size_t)snprintf(buf + n, len - n, " cpu=%llu",
					      (unsigned long long)mnl_attr_get_u64(a));
			break;
		case VS_RES_A_MEMORY:
			n += (size_t)snprintf(buf + n, len - n, " memory=%lluMi",
					      (unsigned long long)(mnl_attr_get_u64(a) / CT_MI));
			break;
		case VS_RES_A_PODS:
			n += (size_t)snprintf(buf + n, len - n, " pods=%llu",
					      (unsigned long long)mnl_attr_get_u64(a));
			break;
		}
	}
	return n;
}

/* One message, one line (two for a PodGroup's conditions and FitError). */
static size_t describe(const struct nlmsghdr *nlh, char *buf, size_t len)
{
	u32 kind = mnl_attr_get_u32(ct_attr(nlh, VS_A_EVENT_KIND));
	const struct nlattr *o, *a;
	size_t n = 0;

	if (kind == VS_EVENT_UNSCHEDULABLE) {
		o = ct_attr(nlh, VS_A_TASK);
		cr_assert_not_null(o);
		return (size_t)snprintf(buf, len, "pod %s/%s %s: %s\n",
					mnl_attr_get_str(ct_nested(o, VS_TASK_A_NAMESPACE)),
					mnl_attr_get_str(ct_nested(o, VS_TASK_A_NAME)),
					mnl_attr_get_str(ct_nested(o, VS_TASK_A_SCHED_REASON)),
					mnl_attr_get_str(ct_nested(o, VS_TASK_A_SCHED_MESSAGE)));
	}
	cr_assert_eq(kind, VS_EVENT_STATUS);
	if ((o = ct_attr(nlh, VS_A_QUEUE))) {
		n = (size_t)snprintf(buf, len, "queue %s allocated",
				     mnl_attr_get_str(ct_nested(o, VS_QUEUE_A_NAME)));
		n += put_res(ct_nested(o, VS_QUEUE_A_ALLOCATED), buf + n, len - n);
		return n + (size_t)snprintf(buf + n, len - n, "\n");
	}
	o = ct_attr(nlh, VS_A_PODGROUP);
	cr_assert_not_null(o);
	a = ct_nested(ct_nested(o, VS_PG_A_NR_TASKS), VS_TASK_STATUS_RUNNING + 1);
	n = (size_t)snprintf(buf, len, "podgroup %s/%s %s running=%u",
			     mnl_attr_get_str(ct_nested(o, VS_PG_A_NAMESPACE)),
			     mnl_attr_get_str(ct_nested(o, VS_PG_A_NAME)),
			     phases[mnl_attr_get_u32(ct_nested(o, VS_PG_A_PHASE))],
			     mnl_attr_get_u32(a));
	mnl_attr_for_each_nested(a, o) {
		if (mnl_attr_get_type(a) != VS_PG_A_CONDITION)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "; %s=%s %s",
				      cond_types[mnl_attr_get_u32(ct_nested(a, VS_COND_A_TYPE))],
				      mnl_attr_get_u8(ct_nested(a, VS_COND_A_STATUS)) ? "True" :
				      "False", mnl_attr_get_str(ct_nested(a, VS_COND_A_REASON)));
	}
	if ((a = ct_nested(o, VS_PG_A_FIT_ERROR)))
		n += (size_t)snprintf(buf + n, len - n, "\n  %s", mnl_attr_get_str(a));
	return n + (size_t)snprintf(buf + n, len - n, "\n");
}

/* Every message waiting; the buffer is then empty. */
static char *take(void)
{
	static char text[16384];

	return ct_take_notes(&ct.core.status, describe, text, sizeof(text));
}

#define EXPECT(...)	cr_assert_str_eq(take(), __VA_ARGS__)


/* A node of 2 cpus; "fits" (one task of 1 cpu) and "big" (four, minMember 4) in q1. */
static void two_gangs(void)
{
	CT_SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 2000));
	CT_SEND_OK(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "q1", 1));
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "fits", "q1", 1));
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "big", "q1", 4));
	CT_SEND_OK(VS_CMD_TASK_NEW, ct_put_task(__n, "a", "fits", 1000, NULL, 0));
	for (unsigned int i = 0; i < 4; i++) {
		char name[16];

		snprintf(name, sizeof(name), "b%u", i);
		CT_SEND_OK(VS_CMD_TASK_NEW, ct_put_task(__n, name, "big", 1000, NULL, 0));
	}
}

#define BIG_NOT_READY "pod group is not ready, 4 Pending, 4 minAvailable; Pending: 1 Schedulable, " \
	"3 Unschedulable"

Test(writeback, a_cycle_tells_what_volcano_writes_back_and_then_only_what_changed)
{
	two_gangs();
	EXPECT("");
	/*
	 * "fits" is bound, "big" cannot gang: b0 had a node until the gang
	 * was discarded, the others wait with the job's FitError (the
	 * queue's share stopped them before any node was tried).
	 */
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	EXPECT("podgroup ns/fits Inqueue running=0; Scheduled=True tasks in gang are ready to be "
	       "scheduled\n"
	       "  pod group is ready, 1 Binding, 1 minAvailable\n"
	       "podgroup ns/big Inqueue running=0; Unschedulable=True NotEnoughResources\n"
	       "  " BIG_NOT_READY "\n"
	       "pod ns/b1 Unschedulable: " BIG_NOT_READY "\n"
	       "pod ns/b2 Unschedulable: " BIG_NOT_READY "\n"
	       "pod ns/b3 Unschedulable: " BIG_NOT_READY "\n"
	       "pod ns/b0 Schedulable: Pod ns/b0 can possibly be assigned to n1, once "
	       "minAvailable is satisfied\n"
	       "queue q1 allocated cpu=1000 memory=1000Mi pods=1\n");
	/* The same again: nothing to write. */
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	EXPECT("");
	/* Bound: Running, and no FitError once the PodGroup is not waiting. */
	CT_SEND_OK(VS_CMD_BIND_RESULT, ct_put_bind(__n, "a", "n1", 0, NULL));
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	EXPECT("podgroup ns/fits Running running=0; Scheduled=True tasks in gang are ready to be "
	       "scheduled\n");
	CT_SEND_OK(VS_CMD_TASK_STATUS, ct_put_event(__n, "a", VS_TASK_EVENT_RUNNING));
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	EXPECT("podgroup ns/fits Running running=1; Scheduled=True tasks in gang are ready to be "
	       "scheduled\n");
	/* Room for b1: two of big's tasks have a node now, on n1 and n2. */
	CT_SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n2", 1000));
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	EXPECT("podgroup ns/big Inqueue running=0; Unschedulable=True NotEnoughResources\n"
	       "  pod group is not ready, 4 Pending, 4 minAvailable; Pending: 2 Schedulable, "
	       "2 Unschedulable\n"
	       "pod ns/b2 Unschedulable: pod group is not ready, 4 Pending, 4 minAvailable; "
	       "Pending: 2 Schedulable, 2 Unschedulable\n"
	       "pod ns/b3 Unschedulable: pod group is not ready, 4 Pending, 4 minAvailable; "
	       "Pending: 2 Schedulable, 2 Unschedulable\n"
	       "pod ns/b1 Schedulable: Pod ns/b1 can possibly be assigned to n2, once "
	       "minAvailable is satisfied\n");
}

Test(writeback, a_gang_short_of_a_task_while_others_run_is_unknown)
{
	CT_SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 2000));
	CT_SEND_OK(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "q1", 1));
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "g", "q1", 2));
	CT_SEND_OK(VS_CMD_TASK_NEW, ct_put_task(__n, "r1", "g", 1000, "n1",
		   VS_TASK_STATUS_RUNNING));
	CT_SEND_OK(VS_CMD_TASK_NEW, ct_put_task(__n, "r2", "g", 1500, NULL, 0));
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	/* As Volcano's getPodGroupPhase: running tasks and unschedulable this session. */
	EXPECT("podgroup ns/g Unknown running=1; Unschedulable=True NotEnoughResources\n"
	       "  pod group is not ready, 1 Pending, 1 Running, 2 minAvailable; Pending: 1 "
	       "Unschedulable\n"
	       "pod ns/r2 Unschedulable: pod group is not ready, 1 Pending, 1 Running, 2 "
	       "minAvailable; Pending: 1 Unschedulable\n"
	       "queue q1 allocated cpu=1000 memory=1000Mi pods=1\n");
	cr_assert_eq(vs_job_find(&ct.cl, "ns", "g")->phase, VS_PG_UNKNOWN);
}

/* A pod of the PodGroup "sel" that asks for nodes labelled disk=ssd. */
static void put_selective_task(struct nlmsghdr *nlh)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_TASK), *l, *e;

	mnl_attr_put_strz(nlh, VS_TASK_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_TASK_A_NAME, "s1");
	mnl_attr_put_strz(nlh, VS_TASK_A_PODGROUP, "sel");
	ct_put_res(nlh, VS_TASK_A_REQUEST, 100, 100 * CT_MI, -1);
	l = mnl_attr_nest_start(nlh, VS_TASK_A_NODE_SELECTOR);
	e = mnl_attr_nest_start(nlh, VS_LABELS_A_ITEM);
	mnl_attr_put_strz(nlh, VS_KV_A_KEY, "disk");
	mnl_attr_put_strz(nlh, VS_KV_A_VALUE, "ssd");
	mnl_attr_nest_end(nlh, e);
	mnl_attr_nest_end(nlh, l);
	mnl_attr_nest_end(nlh, n);
}

Test(writeback, a_pod_that_no_node_takes_has_kube_schedulers_fit_error)
{
	CT_SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 4000));
	CT_SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n2", 4000));
	CT_SEND_OK(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "q1", 1));
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "sel", "q1", 1));
	CT_SEND_OK(VS_CMD_TASK_NEW, put_selective_task(__n));
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	/* The pod's own message; the PodGroup's FitError names it as the origin. */
	EXPECT("podgroup ns/sel Inqueue running=0; Unschedulable=True NotEnoughResources\n"
	       "  pod group is not ready, 1 Pending, 1 minAvailable; Pending: 1 Unschedulable. "
	       "Origin reason is s1: 0/2 nodes are unavailable: 2 node(s) didn't match Pod's "
	       "node affinity/selector.\n"
	       "pod ns/s1 Unschedulable: 0/2 nodes are unavailable: 2 node(s) didn't match "
	       "Pod's node affinity/selector.\n"
	       "queue q1 allocated cpu=0 memory=0Mi\n");
}

static void put_child_queue(struct nlmsghdr *nlh, const char *name, const char *parent)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_QUEUE);

	mnl_attr_put_strz(nlh, VS_QUEUE_A_NAME, name);
	if (parent)
		mnl_attr_put_strz(nlh, VS_QUEUE_A_PARENT, parent);
	mnl_attr_nest_end(nlh, n);
}

Test(writeback, a_parent_counts_its_childrens_allocated_under_root)
{
	CT_SEND_OK(VS_CMD_NODE_NEW, ct_put_node(__n, "n1", 4000));
	CT_SEND_OK(VS_CMD_QUEUE_NEW, put_child_queue(__n, "root", NULL));
	CT_SEND_OK(VS_CMD_QUEUE_NEW, put_child_queue(__n, "p", "root"));
	CT_SEND_OK(VS_CMD_QUEUE_NEW, put_child_queue(__n, "c", "p"));
	CT_SEND_OK(VS_CMD_QUEUE_NEW, put_child_queue(__n, "s", NULL));
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "in-c", "c", 1));
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "in-s", "s", 1));
	CT_SEND_OK(VS_CMD_TASK_NEW, ct_put_task(__n, "t1", "in-c", 1000, "n1",
		   VS_TASK_STATUS_RUNNING));
	CT_SEND_OK(VS_CMD_TASK_NEW, ct_put_task(__n, "t2", "in-s", 500, "n1",
		   VS_TASK_STATUS_RUNNING));
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	cr_assert(strstr(take(), "queue root allocated cpu=1500 memory=1500Mi pods=2\n"
			 "queue p allocated cpu=1000 memory=1000Mi pods=1\n"
			 "queue c allocated cpu=1000 memory=1000Mi pods=1\n"
			 "queue s allocated cpu=500 memory=500Mi pods=1\n"));
	/* Without a root, each its own. */
	CT_SEND_OK(VS_CMD_QUEUE_DEL, ct_put_key(__n, VS_A_QUEUE, NULL, "root"));
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	EXPECT("queue p allocated cpu=0 memory=0Mi\n");
}

Test(writeback, nobody_listening_nothing_is_told_or_remembered)
{
	struct vs_job *big;

	ct.core.status.on = false;
	two_gangs();
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	EXPECT("");
	big = vs_job_find(&ct.cl, "ns", "big");
	cr_assert_not_null(big);
	cr_assert_eq(big->status_digest, 0);
	cr_assert_eq(vs_task_find(&ct.cl, "ns", "b1")->sched_digest, 0);
	cr_assert_eq(vs_queue_find(&ct.cl, "q1")->status_digest, 0);
	/* Who joins later hears every status the next cycle computes. */
	ct.core.status.on = true;
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	cr_assert(strstr(take(), "pod ns/b1 Unschedulable: "));
}
