// SPDX-License-Identifier: Apache-2.0
/*
 * The bind pipeline through the dispatcher, on a clock the test steps: a
 * failed bind forgets the assumption, keeps its reason on the task (GET
 * shows it) and backs the task off, 1 s doubling to 10 s per failure in a
 * row; cycles leave a task alone until its backoff is over; a bind that
 * succeeds clears it all. And the backoff is undone with the rest of a
 * batch that fails.
 */
#include <errno.h>

#include "ctltest.h"
#include "bind/bind.h"

TestSuite(bind, .init = ct_setup_sched, .fini = ct_teardown);

#define SEC	1000000000ULL

static u64 fake_now;

static u64 fake_clock(void)
{
	return fake_now;
}

/* One node of 4 cpus, a PodGroup of minMember 1 and the one-cpu task ns/p0; on the fake clock. */
static void one_task(void)
{
	struct nlmsghdr *nlh;

	fake_now = 100 * SEC;
	ct.core.clock_ns = fake_clock;
	nlh = ct_req(VS_CMD_NODE_NEW, 0);
	ct_put_node(nlh, "n1", 4000);
	CT_OK(nlh);
	nlh = ct_req(VS_CMD_QUEUE_NEW, 0);
	ct_put_queue(nlh, "default", 1);
	CT_OK(nlh);
	nlh = ct_req(VS_CMD_PODGROUP_NEW, 0);
	ct_put_pg(nlh, "pg", NULL, 1);
	CT_OK(nlh);
	nlh = ct_req(VS_CMD_TASK_NEW, 0);
	ct_put_task(nlh, "p0", "pg", 1000, NULL, 0);
	CT_OK(nlh);
}

/* Every node's accounting equals the sum of its tasks, and so on (vs_cluster_check()). */
static void whole(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_check(&ct.cl, &e), 0, "%s", e.msg);
}

/* The cpu n1 has left. */
static s64 idle_cpu(void)
{
	return vs_res_get(&vs_node_find(&ct.cl, "n1")->idle, VS_RES_CPU);
}

/* A cycle now: how many binds it made. */
static u32 cycle(void)
{
	const struct nlattr *cy;

	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	cy = ct_attr(ct_reply_genl(), VS_A_CYCLE);
	cr_assert_not_null(cy);
	return mnl_attr_get_u32(ct_nested(cy, VS_CYCLE_A_BINDS));
}

static void fail_bind(const char *msg)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_BIND_RESULT, NLM_F_ACK);

	ct_put_bind(nlh, "p0", "n1", -EIO, msg);
	CT_OK(nlh);
}

/* GET of ns/p0: its bind attributes, or NULL / 0 when the reply has none. */
static const char *bind_error(u32 *failures)
{
	const struct nlattr *task, *a;
	struct nlmsghdr *nlh = ct_req(VS_CMD_TASK_GET, 0);

	ct_put_key(nlh, VS_A_TASK, "ns", "p0");
	CT_OK(nlh);
	task = ct_attr(ct_reply_genl(), VS_A_TASK);
	cr_assert_not_null(task);
	a = ct_nested(task, VS_TASK_A_BIND_FAILURES);
	*failures = a ? mnl_attr_get_u32(a) : 0;
	a = ct_nested(task, VS_TASK_A_BIND_ERROR);
	return a ? mnl_attr_get_str(a) : NULL;
}

Test(bind, the_backoff_doubles_from_one_second_to_ten)
{
	static const u64 want[] = { 1, 1, 2, 4, 8, 10, 10 };

	for (u32 f = 0; f < ARRAY_SIZE(want); f++)
		cr_assert_eq(vs_bind_backoff_ns(f), want[f] * SEC, "after %u failures", f);
	cr_assert_eq(vs_bind_backoff_ns(UINT32_MAX), 10 * SEC);
}

Test(bind, a_failed_bind_keeps_its_reason_and_the_task_waits_out_its_backoff)
{
	const char *why;
	u32 failures;

	one_task();
	cr_assert_eq(cycle(), 1);
	cr_assert_eq(ct_task("p0")->status, VS_TASK_BINDING);
	cr_assert_eq(idle_cpu(), 3000);
	fail_bind("node n1 is not ready");
	cr_assert_eq(ct_task("p0")->status, VS_TASK_PENDING);
	cr_assert_eq(idle_cpu(), 4000, "the node got its cpu back");
	whole();
	why = bind_error(&failures);
	cr_assert_eq(failures, 1);
	cr_assert_str_eq(why, "binding to node n1 failed: node n1 is not ready (error -5)");
	cr_assert_eq(vs_task_retry_after(ct_task("p0")), 101 * SEC);

	/* Within its backoff no cycle places it, though the node has room. */
	cr_assert_eq(cycle(), 0);
	fake_now += SEC - 1;
	cr_assert_eq(cycle(), 0);
	cr_assert_eq(ct_task("p0")->status, VS_TASK_PENDING);
	fake_now += 1;
	cr_assert_eq(cycle(), 1, "the backoff is over");

	/* A second failure in a row waits twice as long. */
	fail_bind(NULL);
	cr_assert_eq(idle_cpu(), 4000);
	whole();
	why = bind_error(&failures);
	cr_assert_eq(failures, 2);
	cr_assert_str_eq(why, "binding to node n1 failed: no reason given (error -5)");
	cr_assert_eq(vs_task_retry_after(ct_task("p0")), fake_now + 2 * SEC);
	fake_now += 2 * SEC - 1;
	cr_assert_eq(cycle(), 0);
	fake_now += 1;
	cr_assert_eq(cycle(), 1);

	/* A bind that succeeds clears it all. */
	{
		struct nlmsghdr *nlh = ct_req(VS_CMD_BIND_RESULT, NLM_F_ACK);

		ct_put_bind(nlh, "p0", "n1", 0, NULL);
		CT_OK(nlh);
	}
	cr_assert_eq(ct_task("p0")->status, VS_TASK_BOUND);
	cr_assert_null(bind_error(&failures));
	cr_assert_eq(failures, 0);
	cr_assert_eq(vs_task_retry_after(ct_task("p0")), 0);
	cr_assert_eq(ct.core.ctl.bind_failures, 2);
	cr_assert_eq(idle_cpu(), 3000);
	whole();
}

Test(bind, a_batch_that_fails_takes_the_backoff_back_too)
{
	struct nlmsghdr *nlh;
	u32 failures;

	one_task();
	cr_assert_eq(cycle(), 1);
	CT_OK(ct_req(VS_CMD_BATCH_BEGIN, 0));
	nlh = ct_req(VS_CMD_BIND_RESULT, 0);
	ct_put_bind(nlh, "p0", "n1", -EIO, "gone");
	CT_OK(nlh);
	nlh = ct_req(VS_CMD_TASK_DEL, 0);
	ct_put_key(nlh, VS_A_TASK, "ns", "nobody");
	CT_OK(nlh);
	cr_assert_eq(ct_send(ct_req(VS_CMD_BATCH_END, 0)), -ENOENT);
	cr_assert_eq(ct_task("p0")->status, VS_TASK_BINDING);
	cr_assert_null(bind_error(&failures));
	cr_assert_eq(failures, 0);
	cr_assert_eq(vs_task_retry_after(ct_task("p0")), 0);
	cr_assert_eq(idle_cpu(), 3000, "bound again to its node");
	whole();
}
