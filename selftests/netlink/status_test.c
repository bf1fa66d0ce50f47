// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for what the outside world reports about tasks (netlink/status.c):
 * VS_CMD_TASK_STATUS moves a task as its pod moves and refuses what cannot
 * have happened; VS_CMD_BIND_RESULT confirms or forgets an assumption, and
 * a result for a task that awaits none is stale. A refused report changes
 * nothing.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/log.h"
#include "ctltest.h"

/* n1 (4 cpus) and n2 (2 cpus), the default queue, PodGroup "pg" and its tasks. */
static void setup(void)
{
	static const struct {
		const char *name;
		const char *node;
		enum vs_task_status_uapi status;
	} tasks[] = {
		{ "pending", NULL, 0 },
		{ "binding", "n1", VS_TASK_STATUS_BINDING },
		{ "bound", "n1", VS_TASK_STATUS_BOUND },
		{ "running", "n2", VS_TASK_STATUS_RUNNING },
		{ "allocated", "n2", VS_TASK_STATUS_ALLOCATED },
	};
	struct nlmsghdr *nlh;

	ct_setup_objects();
	nlh = ct_req(VS_CMD_NODE_NEW, 0);
	ct_put_node(nlh, "n1", 4000);
	CT_OK(nlh);
	nlh = ct_req(VS_CMD_NODE_NEW, 0);
	ct_put_node(nlh, "n2", 2000);
	CT_OK(nlh);
	nlh = ct_req(VS_CMD_QUEUE_NEW, 0);
	ct_put_queue(nlh, "default", 0);
	CT_OK(nlh);
	nlh = ct_req(VS_CMD_PODGROUP_NEW, 0);
	ct_put_pg(nlh, "pg", NULL, 1);
	CT_OK(nlh);
	for (unsigned int i = 0; i < ARRAY_SIZE(tasks); i++) {
		nlh = ct_req(VS_CMD_TASK_NEW, 0);
		ct_put_task(nlh, tasks[i].name, "pg", 1000, tasks[i].node, tasks[i].status);
		CT_OK(nlh);
	}
}

TestSuite(status, .init = setup, .fini = ct_teardown);

static s64 idle_cpu(const char *node)
{
	return vs_res_get(&vs_node_find(&ct.cl, node)->idle, VS_RES_CPU);
}

static int event(const char *task, enum vs_task_event ev)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_TASK_STATUS, NLM_F_ACK);

	ct_put_event(nlh, task, ev);
	return ct_send(nlh);
}

static int bind_result(const char *task, const char *node, s32 error, const char *msg)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_BIND_RESULT, NLM_F_ACK);

	ct_put_bind(nlh, task, node, error, msg);
	return ct_send(nlh);
}

static void assert_whole(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_check(&ct.cl, &e), 0, "%s", e.msg);
}

Test(status, a_pod_runs_then_finishes_and_gives_its_node_back)
{
	cr_assert_eq(idle_cpu("n1"), 2000);
	cr_assert_eq(event("binding", VS_TASK_EVENT_RUNNING), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_reply_errno(0), 0, "the ack");
	cr_assert_eq(ct_task("binding")->status, VS_TASK_RUNNING);
	cr_assert_eq(event("bound", VS_TASK_EVENT_RUNNING), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_task("bound")->status, VS_TASK_RUNNING);
	cr_assert_eq(idle_cpu("n1"), 2000, "running holds what binding held");

	/* said again: nothing changes */
	cr_assert_eq(event("bound", VS_TASK_EVENT_RUNNING), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_task("bound")->status, VS_TASK_RUNNING);

	cr_assert_eq(event("binding", VS_TASK_EVENT_SUCCEEDED), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_task("binding")->status, VS_TASK_SUCCEEDED);
	cr_assert_null(ct_task("binding")->node);
	cr_assert_eq(idle_cpu("n1"), 3000);
	cr_assert_eq(event("binding", VS_TASK_EVENT_SUCCEEDED), 0, "%s", ct.ext.err.msg);

	cr_assert_eq(event("bound", VS_TASK_EVENT_FAILED), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_task("bound")->status, VS_TASK_FAILED);
	cr_assert_eq(idle_cpu("n1"), 4000);

	/* a pod may fail before it ever ran (activeDeadlineSeconds) */
	cr_assert_eq(event("pending", VS_TASK_EVENT_FAILED), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_task("pending")->status, VS_TASK_FAILED);
	assert_whole();
}

Test(status, deletion_releases_then_removes)
{
	struct vs_node *n2 = vs_node_find(&ct.cl, "n2");

	cr_assert_eq(event("running", VS_TASK_EVENT_DELETING), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_task("running")->status, VS_TASK_RELEASING);
	cr_assert_eq(vs_res_get(&n2->releasing, VS_RES_CPU), 1000);
	/* still running while it is deleted: it stays Releasing */
	cr_assert_eq(event("running", VS_TASK_EVENT_RUNNING), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_task("running")->status, VS_TASK_RELEASING);

	cr_assert_eq(event("running", VS_TASK_EVENT_DELETED), 0, "%s", ct.ext.err.msg);
	cr_assert_null(ct_task("running"));
	cr_assert_eq(vs_res_get(&n2->releasing, VS_RES_CPU), 0);
	cr_assert_eq(idle_cpu("n2"), 1000, "the allocated task still holds its share");

	/* a pending pod being deleted is Releasing too, on no node; a finished one stays */
	cr_assert_eq(event("pending", VS_TASK_EVENT_DELETING), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_task("pending")->status, VS_TASK_RELEASING);
	cr_assert_eq(event("bound", VS_TASK_EVENT_SUCCEEDED), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(event("bound", VS_TASK_EVENT_DELETING), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_task("bound")->status, VS_TASK_SUCCEEDED);
	/* gone from any status */
	cr_assert_eq(event("allocated", VS_TASK_EVENT_DELETED), 0, "%s", ct.ext.err.msg);
	cr_assert_null(ct_task("allocated"));
	cr_assert_eq(idle_cpu("n2"), 2000);
	assert_whole();
}

Test(status, a_pod_that_lost_its_gates_may_be_scheduled)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_TASK_NEW, 0);
	struct nlattr *nest;

	nest = mnl_attr_nest_start(nlh, VS_A_TASK);
	mnl_attr_put_strz(nlh, VS_TASK_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_TASK_A_NAME, "gated");
	mnl_attr_put_strz(nlh, VS_TASK_A_PODGROUP, "pg");
	mnl_attr_put(nlh, VS_TASK_A_GATED, 0, NULL);
	mnl_attr_nest_end(nlh, nest);
	CT_OK(nlh);
	cr_assert(ct_task("gated")->gated);
	cr_assert_eq(ct_task("gated")->job->nr_gated, 1);
	cr_assert_eq(event("gated", VS_TASK_EVENT_UNGATED), 0, "%s", ct.ext.err.msg);
	cr_assert_not(ct_task("gated")->gated);
	cr_assert_eq(ct_task("gated")->status, VS_TASK_PENDING, "its status stays");
	cr_assert_eq(ct_task("gated")->job->nr_gated, 0);
	/* said again, or of a task that never had gates: nothing changes */
	cr_assert_eq(event("gated", VS_TASK_EVENT_UNGATED), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(event("running", VS_TASK_EVENT_UNGATED), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_task("running")->status, VS_TASK_RUNNING);
	assert_whole();
}

/* A report of @ev with nominated node @node (none when NULL). */
static int nominated(const char *task, const char *node, enum vs_task_event ev)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_TASK_STATUS, NLM_F_ACK);

	ct_put_report(nlh, task, ev, node);
	return ct_send(nlh);
}

/* status.nominatedNodeName as the API server has it: set, changed, cleared, in any phase. */
Test(status, a_nominated_report_sets_or_clears_the_nominated_node)
{
	cr_assert_eq(nominated("pending", "n2", VS_TASK_EVENT_NOMINATED), 0, "%s",
		     ct.ext.err.msg);
	cr_assert_str_eq(vs_task_nominated(ct_task("pending")), "n2");
	cr_assert_eq(nominated("pending", "n2", VS_TASK_EVENT_NOMINATED), 0, "said again");
	cr_assert_eq(nominated("pending", "elsewhere", VS_TASK_EVENT_NOMINATED), 0);
	cr_assert_str_eq(vs_task_nominated(ct_task("pending")), "elsewhere",
			 "no node need be so named");
	cr_assert_eq(nominated("running", "n1", VS_TASK_EVENT_NOMINATED), 0);
	cr_assert_str_eq(vs_task_nominated(ct_task("running")), "n1");
	cr_assert_eq(ct_task("running")->status, VS_TASK_RUNNING, "its status stays");

	/* a bad name, or a nominated node with another report: refused, nothing changed */
	cr_assert_eq(nominated("pending", "Not_A_Node", VS_TASK_EVENT_NOMINATED), -EINVAL);
	cr_assert(strstr(ct.ext.err.msg, "invalid nominated node name \"Not_A_Node\""), "%s",
		  ct.ext.err.msg);
	cr_assert_eq(nominated("running", "n2", VS_TASK_EVENT_SUCCEEDED), -EINVAL);
	cr_assert(strstr(ct.ext.err.msg, "only a nominated report has a nominated node"), "%s",
		  ct.ext.err.msg);
	cr_assert_eq(ct_task("running")->status, VS_TASK_RUNNING);
	cr_assert_str_eq(vs_task_nominated(ct_task("pending")), "elsewhere");

	cr_assert_eq(nominated("pending", NULL, VS_TASK_EVENT_NOMINATED), 0);
	cr_assert_null(vs_task_nominated(ct_task("pending")), "none given: cleared");
	assert_whole();
}

Test(status, what_cannot_have_happened_is_refused_and_changes_nothing)
{
	struct nlmsghdr *nlh;
	const struct nlattr *ev;

	cr_assert_eq(event("pending", VS_TASK_EVENT_SUCCEEDED), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "task ns/pending is Pending: it cannot have succeeded");
	cr_assert_eq(ct_reply_errno(0), -EINVAL);
	cr_assert_eq(event("pending", VS_TASK_EVENT_RUNNING), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "task ns/pending is Pending: it cannot be running");
	cr_assert_eq(ct_task("pending")->status, VS_TASK_PENDING);

	cr_assert_eq(event("allocated", VS_TASK_EVENT_RUNNING), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "task ns/allocated is Allocated: it cannot be running");
	cr_assert_eq(event("allocated", VS_TASK_EVENT_DELETING), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "task ns/allocated is Allocated: it cannot be "
			 "terminating");
	cr_assert_eq(ct_task("allocated")->status, VS_TASK_ALLOCATED);

	cr_assert_eq(event("bound", VS_TASK_EVENT_SUCCEEDED), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(event("bound", VS_TASK_EVENT_FAILED), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "task ns/bound is Succeeded: it cannot have failed");
	cr_assert_eq(event("bound", VS_TASK_EVENT_RUNNING), -EINVAL);
	cr_assert_eq(ct_task("bound")->status, VS_TASK_SUCCEEDED);

	/* the offset points at the event */
	nlh = ct_req(VS_CMD_TASK_STATUS, 0);
	ct_put_event(nlh, "pending", VS_TASK_EVENT_SUCCEEDED);
	ev = ct_nested(ct_attr(nlh, VS_A_TASK), VS_TASK_A_EVENT);
	cr_assert_eq(ct_send(nlh), -EINVAL);
	cr_assert_eq(ct.ext.offs, nlt_offs(nlh, ev));

	/* an unknown task, an exit code that is not a failure's */
	cr_assert_eq(event("nobody", VS_TASK_EVENT_RUNNING), -ENOENT);
	cr_assert_str_eq(ct.ext.err.msg, "task ns/nobody not found");
	cr_assert_eq(ct.ext.offs, FIRST_ATTR);
	nlh = ct_req(VS_CMD_TASK_STATUS, 0);
	{
		struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_TASK);

		mnl_attr_put_strz(nlh, VS_TASK_A_NAMESPACE, "ns");
		mnl_attr_put_strz(nlh, VS_TASK_A_NAME, "running");
		mnl_attr_put_u32(nlh, VS_TASK_A_EVENT, VS_TASK_EVENT_SUCCEEDED);
		mnl_attr_put_u32(nlh, VS_TASK_A_EXIT_CODE, 0);
		mnl_attr_nest_end(nlh, n);
	}
	cr_assert_eq(ct_send(nlh), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "task.exitCode (VS_TASK_A_EXIT_CODE): only a failed task "
			 "has an exit code");
	cr_assert_eq(ct_task("running")->status, VS_TASK_RUNNING);
	cr_assert_eq(idle_cpu("n1"), 3000, "only the succeeded task left n1");
	cr_assert_eq(idle_cpu("n2"), 0);
	assert_whole();

	ct.ctx.admin = false;
	cr_assert_eq(event("running", VS_TASK_EVENT_DELETED), -EPERM);
	cr_assert_not_null(ct_task("running"));
}

Test(status, a_bind_that_succeeded_makes_the_task_bound)
{
	cr_assert_eq(bind_result("binding", "n1", 0, NULL), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_reply_errno(0), 0);
	cr_assert_eq(ct_task("binding")->status, VS_TASK_BOUND);
	cr_assert_eq(idle_cpu("n1"), 2000);
	cr_assert_eq(ct.core.ctl.bind_failures, 0);
	assert_whole();
}

Test(status, a_bind_that_failed_forgets_the_assumption_and_says_why)
{
	char line[512] = "";
	FILE *log = tmpfile();

	cr_assert_not_null(log);
	vs_log_file = log;
	cr_assert_eq(bind_result("binding", NULL, -EIO, "node n1 is not ready"), 0, "%s",
		     ct.ext.err.msg);
	vs_log_file = NULL;
	cr_assert_eq(ct_task("binding")->status, VS_TASK_PENDING);
	cr_assert_null(ct_task("binding")->node);
	cr_assert_eq(idle_cpu("n1"), 3000, "the node got its resources back");
	cr_assert_eq(ct.core.ctl.bind_failures, 1);
	rewind(log);
	cr_assert_not_null(fgets(line, sizeof(line), log));
	fclose(log);
	cr_assert_not_null(strstr(line, "Failed to bind task <ns/binding> to node <n1>: node n1 "
				  "is not ready (error -5): back to Pending"), "%s", line);
	assert_whole();

	/* and the statistics count it */
	CT_OK(ct_req(VS_CMD_STATS_GET, 0));
	cr_assert_eq(mnl_attr_get_u64(ct_nested(ct_attr(ct_reply_genl(), VS_A_STATS),
						VS_STATS_A_BIND_FAILURES)), 1);
}

Test(status, a_result_for_a_task_that_awaits_none_is_stale_and_changes_nothing)
{
	struct nlmsghdr *nlh;

	cr_assert_eq(bind_result("running", NULL, 0, NULL), -ESTALE);
	cr_assert_str_eq(ct.ext.err.msg, "task ns/running is Running, not Binding: no bind result "
			 "is awaited");
	cr_assert_eq(ct_reply_errno(0), -ESTALE);
	cr_assert_eq(bind_result("pending", NULL, -EIO, "x"), -ESTALE);
	cr_assert_eq(ct_task("pending")->status, VS_TASK_PENDING);

	/* a result for another node than the decision's */
	nlh = ct_req(VS_CMD_BIND_RESULT, 0);
	ct_put_bind(nlh, "binding", "n2", -EIO, "gone");
	cr_assert_eq(ct_send(nlh), -ESTALE);
	cr_assert_str_eq(ct.ext.err.msg, "task ns/binding is Binding to node n1, not n2: the "
			 "result is stale");
	cr_assert_eq(ct.ext.offs, nlt_offs(nlh, ct_nested(ct_attr(nlh, VS_A_BIND_RESULT),
							 VS_BIND_A_NODE)));
	cr_assert_eq(ct_task("binding")->status, VS_TASK_BINDING);

	cr_assert_eq(bind_result("nobody", NULL, 0, NULL), -ENOENT);
	cr_assert_str_eq(ct.ext.err.msg, "task ns/nobody not found");
	cr_assert_eq(bind_result("binding", NULL, 0, "fine"), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "bindResult.message (VS_BIND_A_MESSAGE): only a failed "
			 "bind has one (error is 0)");
	cr_assert_eq(ct_task("binding")->status, VS_TASK_BINDING);
	cr_assert_eq(idle_cpu("n1"), 2000);
	cr_assert_eq(ct.core.ctl.bind_failures, 0);
	assert_whole();
}
