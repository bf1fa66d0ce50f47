// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the control commands (netlink/ctl.h) through the dispatcher:
 * the configuration read back exactly as it was set and a bad one refused
 * with its file and line while the old one stays, cycles run on request,
 * statistics, subscriptions handed to the daemon, RESET, and VolcanoJobs
 * through the object commands.
 */
#include <stdlib.h>

#include "ctltest.h"
#include "netlink/fill.h"

TestSuite(ctl, .init = ct_setup_sched, .fini = ct_teardown);
TestSuite(ctl_objects_only, .init = ct_setup_objects, .fini = ct_teardown);

/* A VS_CMD_CONF_SET of @text (if not NULL), @source and @period_ms (if not 0). */
static struct nlmsghdr *conf_set(const char *text, const char *source, u32 period_ms,
				 bool check_only)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_CONF_SET, NLM_F_ACK);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_CONF);

	if (text)
		mnl_attr_put_strz(nlh, VS_CONF_A_TEXT, text);
	if (source)
		mnl_attr_put_strz(nlh, VS_CONF_A_SOURCE, source);
	if (check_only)
		mnl_attr_put(nlh, VS_CONF_A_CHECK_ONLY, 0, NULL);
	if (period_ms)
		mnl_attr_put_u32(nlh, VS_CONF_A_PERIOD_MS, period_ms);
	mnl_attr_nest_end(nlh, n);
	return nlh;
}

/* VS_CMD_CONF_GET: the text, the source and the period in the reply. */
static void conf_get(const char **text, const char **source, u32 *period)
{
	const struct nlattr *conf, *a;

	CT_OK(ct_req(VS_CMD_CONF_GET, 0));
	conf = ct_attr(ct_reply_genl(), VS_A_CONF);
	cr_assert_not_null(conf);
	a = ct_nested(conf, VS_CONF_A_TEXT);
	cr_assert_not_null(a);
	*text = mnl_attr_get_str(a);
	a = ct_nested(conf, VS_CONF_A_SOURCE);
	*source = a ? mnl_attr_get_str(a) : NULL;
	*period = mnl_attr_get_u32(ct_nested(conf, VS_CONF_A_PERIOD_MS));
}

static const char my_conf[] =
	"# the actions we want, in our words\n"
	"actions: \"enqueue, allocate\"\n"
	"tiers:\n"
	"- plugins:\n"
	"  - name: gang      # all or nothing\n"
	"  - name: priority\n";

Test(ctl, conf_get_answers_with_the_text_in_force)
{
	const char *text, *source;
	u32 period;

	conf_get(&text, &source, &period);
	cr_assert_str_eq(text, vs_conf_default_text);
	cr_assert_str_eq(source, "default.conf");
	cr_assert_eq(period, VS_NL_PERIOD_DEFAULT_MS);
}

Test(ctl, conf_set_installs_a_text_that_get_returns_exactly)
{
	const char *text, *source;
	u32 period;

	CT_OK(conf_set(my_conf, "my.conf", 250, false));
	cr_assert_eq(ct_reply_errno(0), 0, "the ack");
	cr_assert_eq(ct.sched.conf->nr_actions, 2);
	cr_assert_str_eq(ct.sched.conf->actions[1], "allocate");
	cr_assert_eq(vs_nl_period_ms(&ct.core), 250);
	conf_get(&text, &source, &period);
	cr_assert_str_eq(text, my_conf, "comments and layout are kept");
	cr_assert_str_eq(source, "my.conf");
	cr_assert_eq(period, 250);

	/* the period alone, and a text without a source */
	CT_OK(conf_set(NULL, NULL, 2000, false));
	cr_assert_eq(vs_nl_period_ms(&ct.core), 2000);
	cr_assert_eq(ct.sched.conf->nr_actions, 2, "the period alone changed the configuration");
	CT_OK(conf_set("actions: \"allocate\"\n", NULL, 0, false));
	conf_get(&text, &source, &period);
	cr_assert_str_eq(text, "actions: \"allocate\"\n");
	cr_assert_str_eq(source, "volcano-scheduler.conf");
	cr_assert_eq(period, 2000);
}

Test(ctl, a_bad_conf_is_refused_with_its_file_and_line_and_the_old_one_stays)
{
	static const char bad[] =
		"actions: \"enqueue, allocate\"\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: gang\n"
		"  - name: no-such-plugin\n";
	struct nlmsghdr *nlh = conf_set(bad, "bad.conf", 300, false);
	const struct nlattr *text = ct_nested(ct_attr(nlh, VS_A_CONF), VS_CONF_A_TEXT);
	const struct vs_conf *before = ct.sched.conf;
	const char *got, *source;
	u32 period;

	cr_assert_eq(ct_send(nlh), -EINVAL);
	cr_assert_eq(ct_reply_errno(0), -EINVAL);
	cr_assert_eq(strncmp(ct.ext.err.msg, "bad.conf:5: ", 12), 0, "%s", ct.ext.err.msg);
	cr_assert_not_null(strstr(ct.ext.err.msg, "no-such-plugin"), "%s", ct.ext.err.msg);
	cr_assert(ct.ext.has_offs);
	cr_assert_eq(ct.ext.offs, nlt_offs(nlh, text), "the offset points at the text");
	cr_assert_eq(ct.sched.conf, before);
	cr_assert_eq(vs_nl_period_ms(&ct.core), VS_NL_PERIOD_DEFAULT_MS,
		     "the period of a refused request was taken");
	conf_get(&got, &source, &period);
	cr_assert_str_eq(got, vs_conf_default_text);

	/* YAML that does not parse, and an action the registry does not know */
	cr_assert_eq(ct_send(conf_set("actions: [\n", "y.conf", 0, false)), -EINVAL);
	cr_assert_eq(strncmp(ct.ext.err.msg, "y.conf:", 7), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct_send(conf_set("actions: \"allocate, shuffle2\"\n", "a.conf", 0, false)),
		     -EINVAL);
	cr_assert_eq(strncmp(ct.ext.err.msg, "a.conf:1: ", 10), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct.sched.conf, before);
}

Test(ctl, a_configuration_built_in_code_is_shown_as_yaml_that_reads_back)
{
	struct vs_conf *conf = ct.sched.conf, *back;
	struct vs_err e = { { 0 } };
	const char *text, *source;
	static char want[65536];
	u32 period;

	free(conf->text);
	conf->text = NULL;
	conf->text_len = 0;
	cr_assert_lt(vs_conf_format(conf, want, sizeof(want)), sizeof(want));
	conf_get(&text, &source, &period);
	cr_assert_str_eq(text, want);
	cr_assert_eq(vs_conf_parse(text, strlen(text), "back", NULL, VS_CONF_FLAGS_DEFAULT_ON,
				   &back, &e), 0, "%s", e.msg);
	cr_assert_eq(back->nr_actions, conf->nr_actions);
	cr_assert_eq(back->nr_tiers, conf->nr_tiers);
	vs_conf_free(back);
}

Test(ctl, check_only_checks_and_changes_nothing)
{
	const struct vs_conf *before = ct.sched.conf;

	CT_OK(conf_set(my_conf, "my.conf", 400, true));
	cr_assert_eq(ct.sched.conf, before);
	cr_assert_eq(vs_nl_period_ms(&ct.core), VS_NL_PERIOD_DEFAULT_MS);
	cr_assert_eq(ct_send(conf_set("actions: \"allocate, nope\"\n", "c.conf", 0, true)),
		     -EINVAL);
	cr_assert_eq(strncmp(ct.ext.err.msg, "c.conf:1: ", 10), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct.sched.conf, before);
}

Test(ctl, conf_set_refuses_what_it_cannot_take)
{
	struct nlmsghdr *nlh;

	cr_assert_eq(ct_send(conf_set(NULL, NULL, 0, false)), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "conf: nothing to set: give the text (VS_CONF_A_TEXT), "
			 "the period (VS_CONF_A_PERIOD_MS) or both");
	cr_assert_eq(ct.ext.offs, FIRST_ATTR);

	nlh = conf_set(NULL, "x.conf", 0, false);
	cr_assert_eq(ct_send(nlh), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "conf.source (VS_CONF_A_SOURCE): names a text, and "
			 "none is given");
	cr_assert_eq(ct.ext.offs, FIRST_ATTR + NLA_HDRLEN);

	cr_assert_eq(ct_send(conf_set(my_conf, "", 0, false)), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "conf.source (VS_CONF_A_SOURCE): empty");

	/* the period's range is the policy's */
	nlh = ct_req(VS_CMD_CONF_SET, 0);
	{
		struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_CONF);

		mnl_attr_put_u32(nlh, VS_CONF_A_PERIOD_MS, 0);
		mnl_attr_nest_end(nlh, n);
	}
	cr_assert_eq(ct_send(nlh), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "conf.periodMs (VS_CONF_A_PERIOD_MS): 0 is out of range "
			 "1..86400000");

	/* reading is anyone's, setting is the admin's */
	ct.ctx.admin = false;
	CT_OK(ct_req(VS_CMD_CONF_GET, 0));
	cr_assert_eq(ct_send(conf_set(my_conf, NULL, 0, false)), -EPERM);
}

Test(ctl_objects_only, without_a_scheduler_conf_and_cycles_are_eopnotsupp)
{
	cr_assert_eq(ct_send(ct_req(VS_CMD_CONF_GET, 0)), -EOPNOTSUPP);
	cr_assert_str_eq(ct.ext.err.msg, "VS_CMD_CONF_GET: no scheduler here (only objects are "
			 "served)");
	cr_assert_eq(ct_send(conf_set(my_conf, NULL, 0, false)), -EOPNOTSUPP);
	cr_assert_eq(ct_send(ct_req(VS_CMD_CYCLE_RUN, 0)), -EOPNOTSUPP);
	cr_assert_str_eq(ct.ext.err.msg, "VS_CMD_CYCLE_RUN: no scheduler here (only objects are "
			 "served)");
	/* statistics without cycles: objects and pools only */
	CT_OK(ct_req(VS_CMD_STATS_GET, 0));
	cr_assert_null(ct_nested(ct_attr(ct_reply_genl(), VS_A_STATS), VS_STATS_A_CYCLES));
	cr_assert_not_null(ct_nested(ct_attr(ct_reply_genl(), VS_A_STATS), VS_STATS_A_NR_TASKS));
}

/* ---- cycles and statistics ---- */

/* One node of 4 cpus, the default queue, a PodGroup with @n tasks of one cpu each. */
static void small_cluster(unsigned int n)
{
	struct nlmsghdr *nlh;

	nlh = ct_req(VS_CMD_NODE_NEW, 0);
	ct_put_node(nlh, "n1", 4000);
	CT_OK(nlh);
	nlh = ct_req(VS_CMD_QUEUE_NEW, 0);
	ct_put_queue(nlh, "default", 1);
	CT_OK(nlh);
	nlh = ct_req(VS_CMD_PODGROUP_NEW, 0);
	ct_put_pg(nlh, "pg", NULL, 1);
	CT_OK(nlh);
	for (unsigned int i = 0; i < n; i++) {
		char name[16];

		snprintf(name, sizeof(name), "p%u", i);
		nlh = ct_req(VS_CMD_TASK_NEW, 0);
		ct_put_task(nlh, name, "pg", 1000, NULL, 0);
		CT_OK(nlh);
	}
}

static u64 get_u64(const struct nlattr *nest, u16 type)
{
	const struct nlattr *a = ct_nested(nest, type);

	cr_assert_not_null(a, "attribute %u missing", type);
	return mnl_attr_get_u64(a);
}

static u32 get_u32(const struct nlattr *nest, u16 type)
{
	const struct nlattr *a = ct_nested(nest, type);

	cr_assert_not_null(a, "attribute %u missing", type);
	return mnl_attr_get_u32(a);
}

/* The cycle's actions, "enqueue allocate backfill ". */
static void action_names(const struct nlattr *cycle, char *buf, size_t len)
{
	const struct nlattr *a;

	buf[0] = '\0';
	mnl_attr_for_each_nested(a, cycle)
		if (mnl_attr_get_type(a) == VS_CYCLE_A_ACTION) {
			strncat(buf, mnl_attr_get_str(ct_nested(a, VS_ACTSTAT_A_NAME)),
				len - strlen(buf) - 2);
			strcat(buf, " ");
		}
}

Test(ctl, cycle_run_answers_with_the_cycle_and_stats_report_it)
{
	const struct nlattr *cycle, *stats, *a;
	unsigned int pools = 0;
	char names[128];

	small_cluster(6);
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, NLM_F_ACK));
	cycle = ct_attr(ct_reply_genl(), VS_A_CYCLE);
	cr_assert_not_null(cycle);
	cr_assert_eq(ct_reply_count(), 2, "the cycle, then the ack");
	cr_assert_eq(ct_reply_errno(1), 0);
	cr_assert_eq(get_u64(cycle, VS_CYCLE_A_ID), 1);
	cr_assert_eq(get_u32(cycle, VS_CYCLE_A_BINDS), 4, "four cpus for six one-cpu tasks");
	cr_assert_eq(get_u32(cycle, VS_CYCLE_A_EVICTS), 0);
	cr_assert_eq(get_u32(cycle, VS_CYCLE_A_PENDING), 2);
	cr_assert_gt(get_u64(cycle, VS_CYCLE_A_DURATION_NS), 0);
	action_names(cycle, names, sizeof(names));
	cr_assert_str_eq(names, "enqueue allocate backfill ");
	cr_assert_eq(ct.cl.job_pool.active_objs, 1);
	cr_assert_eq(ct_task("p0")->status, VS_TASK_BINDING);

	CT_OK(ct_req(VS_CMD_STATS_GET, 0));
	stats = ct_attr(ct_reply_genl(), VS_A_STATS);
	cr_assert_not_null(stats);
	cr_assert_eq(get_u64(stats, VS_STATS_A_CYCLES), 1);
	cr_assert_eq(get_u64(stats, VS_STATS_A_BINDS), 4);
	cr_assert_eq(get_u64(stats, VS_STATS_A_EVICTS), 0);
	cr_assert_eq(get_u64(stats, VS_STATS_A_BIND_FAILURES), 0);
	cr_assert_eq(get_u64(stats, VS_STATS_A_DISCARDED_OPS), ct.sched.stats.discarded_ops);
	cr_assert_eq(get_u32(stats, VS_STATS_A_NR_NODES), 1);
	cr_assert_eq(get_u32(stats, VS_STATS_A_NR_QUEUES), 1);
	cr_assert_eq(get_u32(stats, VS_STATS_A_NR_PODGROUPS), 1);
	cr_assert_eq(get_u32(stats, VS_STATS_A_NR_TASKS), 6);
	cr_assert_eq(get_u32(stats, VS_STATS_A_NR_VJOBS), 0);
	cr_assert_eq(get_u32(stats, VS_STATS_A_NR_PRIOCLASSES), 0);
	cr_assert_gt(get_u64(stats, VS_STATS_A_RSS_BYTES), 0);
	a = ct_nested(stats, VS_STATS_A_LAST_CYCLE);
	cr_assert_eq(get_u64(a, VS_CYCLE_A_ID), 1);
	cr_assert_eq(get_u32(a, VS_CYCLE_A_PENDING), 2);
	mnl_attr_for_each_nested(a, stats) {
		const char *name;

		if (mnl_attr_get_type(a) != VS_STATS_A_POOL)
			continue;
		pools++;
		name = mnl_attr_get_str(ct_nested(a, VS_POOL_A_NAME));
		if (strcmp(name, "vs_task"))
			continue;
		cr_assert_eq(get_u64(a, VS_POOL_A_ACTIVE), 6);
		cr_assert_eq(get_u32(a, VS_POOL_A_OBJ_SIZE), ct.cl.task_pool.obj_size);
		cr_assert_geq(get_u64(a, VS_POOL_A_TOTAL), 6);
		cr_assert_geq(get_u64(a, VS_POOL_A_SLABS), 1);
		cr_assert_eq(get_u64(a, VS_POOL_A_BYTES),
			     get_u64(a, VS_POOL_A_SLABS) * ct.cl.task_pool.slab_size);
	}
	cr_assert_eq(pools, 8, "one pool per object type, and the interned requests'");

	/* a second cycle has nothing left that fits */
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	cycle = ct_attr(ct_reply_genl(), VS_A_CYCLE);
	cr_assert_eq(get_u64(cycle, VS_CYCLE_A_ID), 2);
	cr_assert_eq(get_u32(cycle, VS_CYCLE_A_BINDS), 0);
}

static struct {
	unsigned int calls;
	unsigned int group;
	bool join;
	int ret;
	bool reply;
} host_seen;

static int host_subscribe(struct vs_nl_core *core, struct vs_genl_info *info,
			  unsigned int group, bool join)
{
	host_seen.calls++;
	host_seen.group = group;
	host_seen.join = join;
	return host_seen.ret;
}

static int host_cycle_run(struct vs_nl_core *core, struct vs_genl_info *info)
{
	host_seen.calls++;
	if (host_seen.ret)
		return vs_extack_fail(info->extack, host_seen.ret, "the daemon says no");
	if (host_seen.reply)
		return vs_nl_cycle_reply(info, &(struct vs_nl_cycle){ .id = 77 });
	return vs_nl_cycle_run(core, &info->extack->err);
}

static const struct vs_nl_host_ops host = {
	.subscribe = host_subscribe,
	.cycle_run = host_cycle_run,
};

Test(ctl, subscriptions_are_checked_then_handed_to_the_daemon)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_SUBSCRIBE, NLM_F_ACK);

	mnl_attr_put_u32(nlh, VS_A_MCGRP, VS_MCGRP_EVENTS);
	cr_assert_eq(ct_send(nlh), -EOPNOTSUPP);
	cr_assert_str_eq(ct.ext.err.msg, "VS_CMD_SUBSCRIBE: subscriptions are kept by the "
			 "daemon, and there is none here");

	memset(&host_seen, 0, sizeof(host_seen));
	ct.core.host = &host;
	ct.ctx.admin = false;	/* anyone may listen */
	CT_OK(nlh);
	cr_assert_eq(ct_reply_errno(0), 0);
	cr_assert_eq(host_seen.calls, 1);
	cr_assert_eq(host_seen.group, VS_MCGRP_EVENTS);
	cr_assert(host_seen.join);

	nlh = ct_req(VS_CMD_UNSUBSCRIBE, 0);
	mnl_attr_put_u32(nlh, VS_A_MCGRP, VS_MCGRP_CYCLES);
	CT_OK(nlh);
	cr_assert_eq(host_seen.group, VS_MCGRP_CYCLES);
	cr_assert_not(host_seen.join);

	host_seen.ret = -ENOBUFS;
	cr_assert_eq(ct_send(nlh), -ENOBUFS);
	cr_assert_str_eq(ct.ext.err.msg, "VS_CMD_UNSUBSCRIBE failed");

	/* a group the family does not have never reaches the daemon */
	nlh = ct_req(VS_CMD_SUBSCRIBE, 0);
	mnl_attr_put_u32(nlh, VS_A_MCGRP, VS_MCGRP_MAX + 1);
	cr_assert_eq(ct_send(nlh), -EINVAL);
	cr_assert_eq(host_seen.calls, 3);
}

Test(ctl, cycle_run_goes_through_the_daemon_when_there_is_one)
{
	const struct nlattr *cycle;

	small_cluster(1);
	memset(&host_seen, 0, sizeof(host_seen));
	ct.core.host = &host;
	/* the daemon runs it and says nothing: the request is answered with the last cycle */
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	cr_assert_eq(host_seen.calls, 1);
	cycle = ct_attr(ct_reply_genl(), VS_A_CYCLE);
	cr_assert_eq(get_u64(cycle, VS_CYCLE_A_ID), 1);
	cr_assert_eq(get_u32(cycle, VS_CYCLE_A_BINDS), 1);
	cr_assert_eq(ct_reply_count(), 1);

	/* the daemon answers itself */
	host_seen.reply = true;
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	cycle = ct_attr(ct_reply_genl(), VS_A_CYCLE);
	cr_assert_eq(get_u64(cycle, VS_CYCLE_A_ID), 77);
	cr_assert_eq(ct_reply_count(), 1, "answered twice");

	host_seen.ret = -EBUSY;
	cr_assert_eq(ct_send(ct_req(VS_CMD_CYCLE_RUN, 0)), -EBUSY);
	cr_assert_str_eq(ct.ext.err.msg, "the daemon says no");
	cr_assert_eq(ct_reply_count(), 1, "only the error");
}

/* ---- reset ---- */

Test(ctl, reset_forgets_every_object_and_keeps_the_configuration)
{
	const struct vs_conf *conf = ct.sched.conf;
	struct vs_prioclass_spec pc = { .name = "high", .value = 10 };
	struct vs_vjob_task_spec vt = { .name = "w", .replicas = 2 };
	struct vs_vjob_spec vj;
	struct vs_err e = { { 0 } };
	struct nlmsghdr *nlh;

	small_cluster(3);
	CT_OK(ct_req(VS_CMD_CYCLE_RUN, 0));
	cr_assert_eq(vs_prioclass_add(&ct.cl, &pc, NULL, &e), 0, "%s", e.msg);
	vs_vjob_spec_init(&vj, "ns", "vj");
	vj.tasks = &vt;
	vj.nr_tasks = 1;
	cr_assert_eq(vs_vjob_add(&ct.cl, &vj, NULL, &e), 0, "%s", e.msg);
	/* PodGroup admission wants its queue: an orphan is one whose queue changed */
	nlh = ct_req(VS_CMD_PODGROUP_NEW, 0);
	ct_put_pg(nlh, "orphan", NULL, 1);
	CT_OK(nlh);
	nlh = ct_req(VS_CMD_PODGROUP_SET, 0);
	ct_put_pg(nlh, "orphan", "no-such-queue", 0);
	CT_OK(nlh);
	cr_assert_not(list_empty(&ct.cl.orphan_jobs));

	CT_OK(ct_req(VS_CMD_RESET, NLM_F_ACK));
	cr_assert_eq(ct_reply_errno(0), 0);
	cr_assert_eq(ct.cl.nr_nodes + ct.cl.nr_queues + ct.cl.nr_jobs + ct.cl.nr_tasks +
		     ct.cl.nr_vjobs + ct.cl.nr_prioclasses, 0);
	cr_assert(list_empty(&ct.cl.orphan_jobs));
	cr_assert_eq(vs_cluster_check(&ct.cl, &e), 0, "%s", e.msg);
	cr_assert_eq(ct.cl.task_pool.active_objs, 0);
	cr_assert_eq(ct.sched.conf, conf, "the configuration went too");
	cr_assert_eq(ct.sched.stats.cycles, 1, "statistics stay");

	/* the cluster takes objects again */
	small_cluster(1);
	cr_assert_eq(ct.cl.nr_tasks, 1);
	ct.ctx.admin = false;
	cr_assert_eq(ct_send(ct_req(VS_CMD_RESET, 0)), -EPERM);
	cr_assert_eq(ct.cl.nr_tasks, 1);
}

/* ---- VolcanoJobs through the object commands ---- */

/* A VolcanoJob "ns/@name" with a task "worker" of @replicas and a policy. */
static struct nlmsghdr *vjob_new(const char *name, u32 replicas, bool bad_policy)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_VJOB_NEW, NLM_F_ACK);
	struct nlattr *v = mnl_attr_nest_start(nlh, VS_A_VJOB), *t, *p;

	mnl_attr_put_strz(nlh, VS_VJOB_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_VJOB_A_NAME, name);
	mnl_attr_put_strz(nlh, VS_VJOB_A_QUEUE, "q1");
	mnl_attr_put_u32(nlh, VS_VJOB_A_MAX_RETRY, 5);
	t = mnl_attr_nest_start(nlh, VS_VJOB_A_TASK);
	mnl_attr_put_strz(nlh, VS_VTASK_A_NAME, "worker");
	mnl_attr_put_u32(nlh, VS_VTASK_A_REPLICAS, replicas);
	ct_put_res(nlh, VS_VTASK_A_REQUEST, 500, 64 * CT_MI, -1);
	p = mnl_attr_nest_start(nlh, VS_VTASK_A_POLICY);
	mnl_attr_put_strz(nlh, VS_POLICY_A_EVENT, "PodFailed");
	if (bad_policy)
		mnl_attr_put_u32(nlh, VS_POLICY_A_EXIT_CODE, 3);
	mnl_attr_put_strz(nlh, VS_POLICY_A_ACTION, "RestartJob");
	mnl_attr_nest_end(nlh, p);
	mnl_attr_nest_end(nlh, t);
	p = mnl_attr_nest_start(nlh, VS_VJOB_A_POLICY);
	mnl_attr_put_u32(nlh, VS_POLICY_A_EXIT_CODE, 137);
	mnl_attr_put_strz(nlh, VS_POLICY_A_ACTION, "AbortJob");
	mnl_attr_nest_end(nlh, p);
	mnl_attr_nest_end(nlh, v);
	return nlh;
}

/* The queue of vjob_new()'s jobs: admission wants it, and Open. */
static void queue_q1(void)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_QUEUE_NEW, 0);

	ct_put_queue(nlh, "q1", 1);
	CT_OK(nlh);
}

Test(ctl_objects_only, volcano_jobs_go_through_the_object_commands)
{
	const struct vs_vjob *vj;
	const struct nlattr *got, *t;
	struct nlmsghdr *nlh;

	queue_q1();
	CT_OK(vjob_new("train", 3, false));
	vj = vs_vjob_find(&ct.cl, "ns", "train");
	cr_assert_not_null(vj);
	cr_assert_str_eq(vj->queue_name, "q1");
	cr_assert_eq(vj->max_retry, 5);
	cr_assert_eq(vj->nr_tasks, 1);
	cr_assert_eq(vj->tasks[0].replicas, 3);
	cr_assert_eq(vj->tasks[0].nr_policies, 1);
	cr_assert_eq(vj->tasks[0].policies[0].event, VS_EV_POD_FAILED);
	cr_assert_eq(vj->tasks[0].policies[0].action, VS_ACT_RESTART_JOB);
	cr_assert_eq(vj->nr_policies, 1);
	cr_assert(vj->policies[0].has_exit_code);
	cr_assert_eq(vj->policies[0].exit_code, 137);

	cr_assert_eq(ct_send(vjob_new("train", 3, false)), -EEXIST);
	cr_assert_eq(ct_send(vjob_new("bad", 3, true)), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "vjob ns/bad: task worker: policy 0: give an event or "
			 "an exit code, not both");
	cr_assert_null(vs_vjob_find(&ct.cl, "ns", "bad"));
	cr_assert_eq(ct_send(vjob_new("none", 0, false)), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "vjob.tasks[0].replicas (VS_VTASK_A_REPLICAS): 0 is out "
			 "of range 1..2147483647");

	nlh = ct_req(VS_CMD_VJOB_GET, 0);
	ct_put_key(nlh, VS_A_VJOB, "ns", "train");
	CT_OK(nlh);
	got = ct_attr(ct_reply_genl(), VS_A_VJOB);
	cr_assert_eq(get_u32(got, VS_VJOB_A_PHASE), VS_VJOB_PHASE_PENDING);
	t = ct_nested(got, VS_VJOB_A_TASK);
	cr_assert_eq(get_u32(t, VS_VTASK_A_REPLICAS), 3);

	/* no update in the core: SET and a replacing NEW say so */
	nlh = vjob_new("train", 4, false);
	((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->cmd = VS_CMD_VJOB_SET;
	cr_assert_eq(ct_send(nlh), -EOPNOTSUPP);
	cr_assert_str_eq(ct.ext.err.msg, "vjob ns/train: a VolcanoJob's spec cannot change: "
			 "delete it and create it again");
	nlh = vjob_new("train", 4, false);
	nlh->nlmsg_flags |= NLM_F_REPLACE;
	cr_assert_eq(ct_send(nlh), -EOPNOTSUPP);
	cr_assert_eq(vs_vjob_find(&ct.cl, "ns", "train")->tasks[0].replicas, 3);

	/* a dump, filtered by namespace */
	CT_OK(vjob_new("infer", 1, false));
	nlh = ct_req(VS_CMD_VJOB_GET, NLM_F_DUMP);
	mnl_attr_put_strz(nlh, VS_A_FILTER_NAMESPACE, "ns");
	CT_OK(nlh);
	cr_assert_eq(ct_reply_count(), 3, "two jobs and NLMSG_DONE");
	nlh = ct_req(VS_CMD_VJOB_GET, NLM_F_DUMP);
	mnl_attr_put_strz(nlh, VS_A_FILTER_NAMESPACE, "other");
	CT_OK(nlh);
	cr_assert_eq(ct_reply_count(), 1);

	nlh = ct_req(VS_CMD_VJOB_DEL, 0);
	ct_put_key(nlh, VS_A_VJOB, "ns", "train");
	cr_assert_not_null(vs_job_find(&ct.cl, "ns", "train"), "the job controller made it");
	CT_OK(nlh);
	cr_assert_null(vs_vjob_find(&ct.cl, "ns", "train"));
	cr_assert_null(vs_job_find(&ct.cl, "ns", "train"), "collected with its owner");
	cr_assert_eq(ct_send(nlh), -ENOENT);
	cr_assert_str_eq(ct.ext.err.msg, "vjob ns/train not found");
}

Test(ctl_objects_only, a_volcano_job_written_as_its_new_request_is_made_again_the_same)
{
	static char a[8192] __attribute__((aligned(4))), b[8192] __attribute__((aligned(4)));
	struct nlmsghdr *x, *y, *nlh;
	struct vs_vjob *vj;

	queue_q1();
	CT_OK(vjob_new("train", 3, false));
	vj = vs_vjob_find(&ct.cl, "ns", "train");
	x = nlt_request(a, VS_CMD_UNSPEC, 0);
	cr_assert(vs_nl_put_vjob(x, sizeof(a), vj));
	nlh = ct_req(VS_CMD_VJOB_NEW, 0);
	cr_assert(vs_nl_put_vjob_spec(nlh, sizeof(ct.req), vj));
	vs_vjob_del(&ct.cl, vj);
	CT_OK(nlh);
	y = nlt_request(b, VS_CMD_UNSPEC, 0);
	cr_assert(vs_nl_put_vjob(y, sizeof(b), vs_vjob_find(&ct.cl, "ns", "train")));
	cr_assert_eq(x->nlmsg_len, y->nlmsg_len);
	cr_assert_eq(memcmp(x, y, x->nlmsg_len), 0, "the job made again differs");
}
