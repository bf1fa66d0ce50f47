// SPDX-License-Identifier: Apache-2.0
/*
 * A PodGroup's volcano.sh/preemptable through the protocol: NEW, SET, GET
 * and a dump carry it, unset is neither true nor false and is never sent,
 * a value the policy does not take is refused by name, a VolcanoJob's
 * controller leaves it, and a checkpoint writes and reads it back.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/log.h"
#include "ctltest.h"
#include "netlink/checkpoint.h"

static char dir[64], path[128];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/vs-pgpreempt-test-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/state", dir);
	ct_setup_sched();
	vs_log_file = tmpfile();
	CT_SEND_OK(VS_CMD_QUEUE_NEW, ct_put_queue(__n, "q", 1));
}

static void teardown(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_check(&ct.cl, &e), 0, "%s", e.msg);
	if (vs_log_file)
		fclose(vs_log_file);
	vs_log_file = NULL;
	ct_teardown();
	unlink(path);
	rmdir(dir);
}

TestSuite(nl_pgpreempt, .init = setup, .fini = teardown);

enum { UNSET = -1 };

/* PodGroup ns/@name in queue q; @v: 0 or 1 as a u8, UNSET leaves it out. */
static void put_pg(struct nlmsghdr *nlh, const char *name, int v)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_PODGROUP);

	mnl_attr_put_strz(nlh, VS_PG_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_PG_A_NAME, name);
	mnl_attr_put_strz(nlh, VS_PG_A_QUEUE, "q");
	if (v != UNSET)
		mnl_attr_put_u8(nlh, VS_PG_A_PREEMPTABLE, (u8)v);
	mnl_attr_nest_end(nlh, n);
}

static enum vs_pg_preemptable preemptable(const char *name)
{
	const struct vs_job *job = vs_job_find(&ct.cl, "ns", name);

	cr_assert_not_null(job, "no podgroup %s", name);
	return (enum vs_pg_preemptable)job->preemptable;
}

/* What a GET of @name answers: 0 or 1, or UNSET when the reply leaves it out. */
static int get(const char *name)
{
	const struct nlattr *a;

	CT_SEND_OK(VS_CMD_PODGROUP_GET, ct_put_key(__n, VS_A_PODGROUP, "ns", name));
	a = ct_nested(ct_attr(ct_reply_genl(), VS_A_PODGROUP), VS_PG_A_PREEMPTABLE);
	if (!a)
		return UNSET;
	cr_assert_eq(mnl_attr_get_payload_len(a), 1, "a u8");
	return mnl_attr_get_u8(a);
}

Test(nl_pgpreempt, new_takes_it_and_get_answers_with_it)
{
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, put_pg(__n, "yes", 1));
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, put_pg(__n, "no", 0));
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, put_pg(__n, "plain", UNSET));
	cr_assert_eq(preemptable("yes"), VS_PG_PREEMPTABLE_TRUE);
	cr_assert_eq(preemptable("no"), VS_PG_PREEMPTABLE_FALSE);
	cr_assert_eq(preemptable("plain"), VS_PG_PREEMPTABLE_UNSET);
	cr_assert_eq(get("yes"), 1);
	cr_assert_eq(get("no"), 0);
	cr_assert_eq(get("plain"), UNSET, "unset is not sent");
}

Test(nl_pgpreempt, a_dump_carries_it_for_each_podgroup)
{
	const struct nlmsghdr *r;
	int seen[3] = { -2, -2, -2 };

	CT_SEND_OK(VS_CMD_PODGROUP_NEW, put_pg(__n, "a", 1));
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, put_pg(__n, "b", 0));
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, put_pg(__n, "c", UNSET));
	CT_OK(ct_req(VS_CMD_PODGROUP_GET, NLM_F_DUMP));
	for (unsigned int i = 0; (r = ct_reply_msg(i)); i++) {
		const struct nlattr *obj, *a;
		const char *name;

		if (r->nlmsg_type != VSCHED_GENL_ID)
			continue;
		obj = ct_attr(r, VS_A_PODGROUP);
		name = mnl_attr_get_str(ct_nested(obj, VS_PG_A_NAME));
		a = ct_nested(obj, VS_PG_A_PREEMPTABLE);
		cr_assert(name[0] >= 'a' && name[0] <= 'c' && !name[1], "%s", name);
		seen[name[0] - 'a'] = a ? mnl_attr_get_u8(a) : UNSET;
	}
	cr_assert_eq(seen[0], 1);
	cr_assert_eq(seen[1], 0);
	cr_assert_eq(seen[2], UNSET);
}

Test(nl_pgpreempt, a_set_keeps_it_unless_it_carries_it_and_a_replacing_new_drops_it)
{
	struct nlmsghdr *m;

	CT_SEND_OK(VS_CMD_PODGROUP_NEW, put_pg(__n, "pg", 0));
	CT_SEND_OK(VS_CMD_PODGROUP_SET, {
		struct nlattr *n = mnl_attr_nest_start(__n, VS_A_PODGROUP);

		mnl_attr_put_strz(__n, VS_PG_A_NAMESPACE, "ns");
		mnl_attr_put_strz(__n, VS_PG_A_NAME, "pg");
		mnl_attr_put_u32(__n, VS_PG_A_MIN_MEMBER, 3);
		mnl_attr_nest_end(__n, n);
	});
	cr_assert_eq(preemptable("pg"), VS_PG_PREEMPTABLE_FALSE, "a SET without it keeps it");
	cr_assert_eq(vs_job_find(&ct.cl, "ns", "pg")->min_member, 3);

	CT_SEND_OK(VS_CMD_PODGROUP_SET, put_pg(__n, "pg", 1));
	cr_assert_eq(preemptable("pg"), VS_PG_PREEMPTABLE_TRUE);
	cr_assert_eq(get("pg"), 1);

	m = ct_req(VS_CMD_PODGROUP_NEW, NLM_F_REPLACE);
	put_pg(m, "pg", UNSET);
	CT_OK(m);
	cr_assert_eq(preemptable("pg"), VS_PG_PREEMPTABLE_UNSET, "a replacing NEW drops it");
	cr_assert_eq(get("pg"), UNSET);
}

/* A batch that sets it and then fails puts it back. */
Test(nl_pgpreempt, a_failed_batch_puts_it_back)
{
	struct nlmsghdr *first, *m;
	u32 seq = 100;

	CT_SEND_OK(VS_CMD_PODGROUP_NEW, put_pg(__n, "pg", 0));
	first = m = ct_req(VS_CMD_BATCH_BEGIN, 0);
	first->nlmsg_seq = seq++;
	m = ct_next(m, VS_CMD_PODGROUP_SET, 0, seq++);
	put_pg(m, "pg", 1);
	m = ct_next(m, VS_CMD_PODGROUP_NEW, 0, seq++);
	put_pg(m, "pg", 1);				/* exists: the batch fails */
	m = ct_next(m, VS_CMD_BATCH_END, NLM_F_ACK, 200);
	cr_assert_eq(ct_send_dgram(ct.req, ct_len(first, m)), -EEXIST, "%s", ct.ext.err.msg);
	cr_assert_eq(preemptable("pg"), VS_PG_PREEMPTABLE_FALSE);
}

/* A value of the wrong size or out of 0..1 is refused, naming the attribute. */
static void refused(void (*put)(struct nlmsghdr *nlh), const char *why)
{
	struct nlmsghdr *m = ct_req(VS_CMD_PODGROUP_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(m, VS_A_PODGROUP);

	mnl_attr_put_strz(m, VS_PG_A_NAMESPACE, "ns");
	mnl_attr_put_strz(m, VS_PG_A_NAME, "bad");
	put(m);
	mnl_attr_nest_end(m, n);
	cr_assert_eq(ct_send(m), -EINVAL);
	cr_assert(strstr(ct.ext.err.msg, "preemptable"), "%s", ct.ext.err.msg);
	cr_assert(strstr(ct.ext.err.msg, why), "%s", ct.ext.err.msg);
	cr_assert_null(vs_job_find(&ct.cl, "ns", "bad"));
}

static void put_two(struct nlmsghdr *nlh)
{
	mnl_attr_put_u8(nlh, VS_PG_A_PREEMPTABLE, 2);
}

static void put_u32_one(struct nlmsghdr *nlh)
{
	mnl_attr_put_u32(nlh, VS_PG_A_PREEMPTABLE, 1);
}

static void put_string(struct nlmsghdr *nlh)
{
	mnl_attr_put_strz(nlh, VS_PG_A_PREEMPTABLE, "true");
}

Test(nl_pgpreempt, a_bad_value_is_refused_by_name)
{
	refused(put_two, "2 is out of range 0..1");
	refused(put_u32_one, "of 4 bytes, needs 1");
	refused(put_string, "bytes, needs 1");
}

/* The job controller's update of its PodGroup leaves the PodGroup's own preemptable. */
Test(nl_pgpreempt, a_volcano_jobs_update_of_its_podgroup_keeps_it)
{
	struct vs_job *pg;

	CT_SEND_OK(VS_CMD_VJOB_NEW, {
		struct nlattr *v = mnl_attr_nest_start(__n, VS_A_VJOB), *t;

		mnl_attr_put_strz(__n, VS_VJOB_A_NAMESPACE, "ns");
		mnl_attr_put_strz(__n, VS_VJOB_A_NAME, "j");
		mnl_attr_put_strz(__n, VS_VJOB_A_QUEUE, "q");
		t = mnl_attr_nest_start(__n, VS_VJOB_A_TASK);
		mnl_attr_put_strz(__n, VS_VTASK_A_NAME, "w");
		mnl_attr_put_u32(__n, VS_VTASK_A_REPLICAS, 2);
		ct_put_res(__n, VS_VTASK_A_REQUEST, 100, CT_MI, -1);
		mnl_attr_nest_end(__n, t);
		mnl_attr_nest_end(__n, v);
	});
	pg = vs_vjob_find(&ct.cl, "ns", "j")->podgroup;
	cr_assert_not_null(pg);
	cr_assert_eq(pg->preemptable, VS_PG_PREEMPTABLE_UNSET);
	/* a SET that makes it differ from what the job wants: the controller puts it back */
	CT_SEND_OK(VS_CMD_PODGROUP_SET, {
		struct nlattr *n = mnl_attr_nest_start(__n, VS_A_PODGROUP);

		mnl_attr_put_strz(__n, VS_PG_A_NAMESPACE, "ns");
		mnl_attr_put_strz(__n, VS_PG_A_NAME, pg->name);
		mnl_attr_put_u32(__n, VS_PG_A_MIN_MEMBER, 7);
		mnl_attr_put_u8(__n, VS_PG_A_PREEMPTABLE, 0);
		mnl_attr_nest_end(__n, n);
	});
	cr_assert_eq(pg->preemptable, VS_PG_PREEMPTABLE_FALSE);
	ct_cycle();
	cr_assert_eq(pg->min_member, 2, "the job controller made it the job's again");
	cr_assert_eq(pg->preemptable, VS_PG_PREEMPTABLE_FALSE);
}

Test(nl_pgpreempt, a_checkpoint_writes_and_reads_it_back)
{
	struct vs_ckpt_info info;
	struct vs_err e = { { 0 } };

	CT_SEND_OK(VS_CMD_PODGROUP_NEW, put_pg(__n, "yes", 1));
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, put_pg(__n, "no", 0));
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, put_pg(__n, "plain", UNSET));
	cr_assert_eq(vs_nl_checkpoint_save(&ct.core, path, &info, &e), 0, "%s", e.msg);

	ct_teardown();
	ct_setup_sched();
	cr_assert_eq(vs_nl_checkpoint_load(&ct.ctx, path, 0, &info, &e), 0, "%s", e.msg);
	cr_assert_eq(preemptable("yes"), VS_PG_PREEMPTABLE_TRUE);
	cr_assert_eq(preemptable("no"), VS_PG_PREEMPTABLE_FALSE);
	cr_assert_eq(preemptable("plain"), VS_PG_PREEMPTABLE_UNSET);
}
