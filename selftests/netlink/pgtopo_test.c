// SPDX-License-Identifier: Apache-2.0
/*
 * A PodGroup's topology request through the protocol: spec.networkTopology
 * and spec.subGroupPolicy as a client sends them, what the core keeps of
 * them, their defaults, their refusals (which name what and where and change
 * nothing), a SET that merges and a batch that undoes, and a checkpoint
 * that writes and reads them back.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/affinity.h"
#include "core/log.h"
#include "ctltest.h"
#include "netlink/checkpoint.h"
#include "netlink/fill.h"

static char dir[64], path[128];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/vs-pgtopo-test-XXXXXX");
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

TestSuite(nl_pgtopo, .init = setup, .fini = teardown);

/* ---- as a client writes them ---- */

/* A networkTopology: @mode < 0 leaves the mode out, @tier < 0 the tier. */
static void put_nt(struct nlmsghdr *nlh, u16 type, int mode, int tier, const char *tier_name)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, type);

	if (mode >= 0)
		mnl_attr_put_u32(nlh, VS_NT_A_MODE, (u32)mode);
	if (tier >= 0)
		mnl_attr_put_u32(nlh, VS_NT_A_HIGHEST_TIER, (u32)tier);
	if (tier_name)
		mnl_attr_put_strz(nlh, VS_NT_A_HIGHEST_TIER_NAME, tier_name);
	mnl_attr_nest_end(nlh, n);
}

/*
 * A sub-group policy "workers": hard within tier 1, groups of 4, at least
 * 2, the pods with role=worker and a zone label, split by rack.
 * @bad_tiers sets both tiers, @size 0 leaves the size out.
 */
static void put_workers(struct nlmsghdr *nlh, bool bad_tiers, u32 size, const char *key)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_PG_A_SUBGROUP_POLICY), *s, *l, *kv, *e;

	mnl_attr_put_strz(nlh, VS_SGP_A_NAME, "workers");
	put_nt(nlh, VS_SGP_A_NETWORK_TOPOLOGY, VS_NT_MODE_HARD, 1, bad_tiers ? "rack" : NULL);
	if (size)
		mnl_attr_put_u32(nlh, VS_SGP_A_SUBGROUP_SIZE, size);
	mnl_attr_put_u32(nlh, VS_SGP_A_MIN_SUBGROUPS, 2);
	s = mnl_attr_nest_start(nlh, VS_SGP_A_LABEL_SELECTOR);
	l = mnl_attr_nest_start(nlh, VS_LSEL_A_MATCH_LABELS);
	kv = mnl_attr_nest_start(nlh, VS_LABELS_A_ITEM);
	mnl_attr_put_strz(nlh, VS_KV_A_KEY, "role");
	mnl_attr_put_strz(nlh, VS_KV_A_VALUE, "worker");
	mnl_attr_nest_end(nlh, kv);
	mnl_attr_nest_end(nlh, l);
	e = mnl_attr_nest_start(nlh, VS_LSEL_A_EXPR);
	mnl_attr_put_strz(nlh, VS_SELREQ_A_KEY, "zone");
	mnl_attr_put_u32(nlh, VS_SELREQ_A_OP, VS_SEL_OP_EXISTS);
	mnl_attr_nest_end(nlh, e);
	mnl_attr_nest_end(nlh, s);
	mnl_attr_put_strz(nlh, VS_SGP_A_MATCH_LABEL_KEY, key ? key : "rack");
	mnl_attr_put_strz(nlh, VS_SGP_A_MATCH_LABEL_KEY, "volcano.sh/partition-id");
	mnl_attr_nest_end(nlh, n);
}

/* A policy with nothing but its defaults. */
static void put_bare(struct nlmsghdr *nlh)
{
	mnl_attr_nest_end(nlh, mnl_attr_nest_start(nlh, VS_PG_A_SUBGROUP_POLICY));
}

enum shape { TOPO, TOPO_BAD_PG, TOPO_BAD_SG, TOPO_BAD_KEY, TOPO_BAD_OP };

/* PodGroup ns/@name in queue q with a soft networkTopology to spine and two policies. */
static void put_pg(struct nlmsghdr *nlh, const char *name, enum shape shape)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_PODGROUP);

	mnl_attr_put_strz(nlh, VS_PG_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_PG_A_NAME, name);
	mnl_attr_put_strz(nlh, VS_PG_A_QUEUE, "q");
	mnl_attr_put_u32(nlh, VS_PG_A_MIN_MEMBER, 8);
	put_nt(nlh, VS_PG_A_NETWORK_TOPOLOGY, VS_NT_MODE_SOFT, shape == TOPO_BAD_PG ? 2 : -1,
	       "spine");
	put_bare(nlh);
	put_workers(nlh, shape == TOPO_BAD_SG, 4, shape == TOPO_BAD_KEY ? "-rack" : NULL);
	if (shape == TOPO_BAD_OP) {
		struct nlattr *p = mnl_attr_nest_start(nlh, VS_PG_A_SUBGROUP_POLICY);
		struct nlattr *s = mnl_attr_nest_start(nlh, VS_SGP_A_LABEL_SELECTOR);
		struct nlattr *e = mnl_attr_nest_start(nlh, VS_LSEL_A_EXPR);

		mnl_attr_put_strz(nlh, VS_SELREQ_A_KEY, "gen");
		mnl_attr_put_u32(nlh, VS_SELREQ_A_OP, VS_SEL_OP_GT);
		mnl_attr_put_strz(nlh, VS_SELREQ_A_VALUE, "3");
		mnl_attr_nest_end(nlh, e);
		mnl_attr_nest_end(nlh, s);
		mnl_attr_nest_end(nlh, p);
	}
	mnl_attr_nest_end(nlh, n);
}

static struct vs_job *pg(const char *name)
{
	struct vs_job *job = vs_job_find(&ct.cl, "ns", name);

	cr_assert_not_null(job, "no podgroup %s", name);
	return job;
}

static char obj_buf[1 << 14] __attribute__((aligned(4)));

/* Every PodGroup as the daemon sends it, and its seq: what a test compares. */
static char *state(size_t *len)
{
	const struct vs_job *job;
	char *s = NULL;
	FILE *f = open_memstream(&s, len);

	cr_assert_not_null(f);
	list_for_each_entry(job, &ct.cl.jobs, list) {
		struct nlmsghdr *m;

		memset(obj_buf, 0, sizeof(obj_buf));
		m = mnl_nlmsg_put_header(obj_buf);
		cr_assert(vs_nl_put_podgroup_spec(m, sizeof(obj_buf), job));
		fprintf(f, "\n%s ", job->name);
		fwrite(obj_buf, 1, m->nlmsg_len, f);
	}
	fclose(f);
	return s;
}

static void assert_same_state(const char *before, size_t before_len)
{
	size_t len;
	char *now = state(&len);

	cr_assert_eq(len, before_len, "the state changed size");
	cr_assert_eq(memcmp(now, before, len), 0, "the state changed");
	free(now);
}

/* ---- what the core keeps ---- */

Test(nl_pgtopo, the_core_keeps_the_topology_request_as_sent)
{
	const struct vs_subgroup_policy *sg;
	const struct vs_job *job;

	CT_SEND_OK(VS_CMD_PODGROUP_NEW, put_pg(__n, "pg", TOPO));
	job = pg("pg");
	cr_assert(job->net_topology.set);
	cr_assert_eq(job->net_topology.mode, VS_NT_SOFT);
	cr_assert_not(job->net_topology.has_highest_tier);
	cr_assert_str_eq(job->net_topology.highest_tier_name, "spine");
	cr_assert_eq(job->nr_subgroups, 2);

	sg = &job->subgroups[0];
	cr_assert_str_eq(sg->name, "", "an unnamed policy");
	cr_assert_not(sg->nt.set);
	cr_assert_eq(sg->sub_group_size, 1, "subGroupSize defaults to 1");
	cr_assert_eq(sg->min_sub_groups, 0);
	cr_assert_null(sg->selector);
	cr_assert_eq(sg->nr_match_label_keys, 0);

	sg = &job->subgroups[1];
	cr_assert_str_eq(sg->name, "workers");
	cr_assert(sg->nt.set);
	cr_assert_eq(sg->nt.mode, VS_NT_HARD);
	cr_assert(sg->nt.has_highest_tier);
	cr_assert_eq(sg->nt.highest_tier, 1);
	cr_assert_null(sg->nt.highest_tier_name);
	cr_assert_eq(sg->sub_group_size, 4);
	cr_assert_eq(sg->min_sub_groups, 2);
	cr_assert_not_null(sg->selector);
	cr_assert_eq(sg->selector->match_labels->nr, 1);
	cr_assert_str_eq(sg->selector->match_labels->kv[0].key, "role");
	cr_assert_eq(sg->selector->nr_exprs, 1);
	cr_assert_eq(sg->selector->exprs[0].op, VS_SEL_EXISTS);
	cr_assert_eq(sg->nr_match_label_keys, 2);
	cr_assert_str_eq(sg->match_label_keys[0], "rack");
	cr_assert_str_eq(sg->match_label_keys[1], "volcano.sh/partition-id");
	/* interned: the keys compare with a task's labels as pointers */
	cr_assert_eq(sg->match_label_keys[0], vs_str_get_cstr(&ct.cl.strs, "rack"));
	vs_str_put(&ct.cl.strs, sg->match_label_keys[0]);
}

Test(nl_pgtopo, an_empty_network_topology_is_hard_without_a_tier)
{
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, {
		struct nlattr *n = mnl_attr_nest_start(__n, VS_A_PODGROUP);

		mnl_attr_put_strz(__n, VS_PG_A_NAMESPACE, "ns");
		mnl_attr_put_strz(__n, VS_PG_A_NAME, "pg");
		mnl_attr_put_strz(__n, VS_PG_A_QUEUE, "q");
		put_nt(__n, VS_PG_A_NETWORK_TOPOLOGY, -1, -1, NULL);
		mnl_attr_nest_end(__n, n);
	});
	cr_assert(pg("pg")->net_topology.set);
	cr_assert_eq(pg("pg")->net_topology.mode, VS_NT_HARD);
	cr_assert_not(pg("pg")->net_topology.has_highest_tier);
	cr_assert_null(pg("pg")->net_topology.highest_tier_name);
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "plain", "q", 1));
	cr_assert_not(pg("plain")->net_topology.set, "no networkTopology, none kept");
	cr_assert_eq(pg("plain")->nr_subgroups, 0);
}

/* A GET answers with what was sent: the reply holds the same nests. */
Test(nl_pgtopo, a_get_answers_with_the_topology_request)
{
	const struct nlattr *obj, *nt, *a;
	const struct nlmsghdr *r;
	unsigned int n = 0;

	CT_SEND_OK(VS_CMD_PODGROUP_NEW, put_pg(__n, "pg", TOPO));
	CT_SEND_OK(VS_CMD_PODGROUP_GET, ct_put_key(__n, VS_A_PODGROUP, "ns", "pg"));
	r = ct_reply_genl();
	obj = ct_attr(r, VS_A_PODGROUP);
	nt = ct_nested(obj, VS_PG_A_NETWORK_TOPOLOGY);
	cr_assert_not_null(nt);
	cr_assert_eq(mnl_attr_get_u32(ct_nested(nt, VS_NT_A_MODE)), VS_NT_MODE_SOFT);
	cr_assert_null(ct_nested(nt, VS_NT_A_HIGHEST_TIER));
	cr_assert_str_eq(mnl_attr_get_str(ct_nested(nt, VS_NT_A_HIGHEST_TIER_NAME)), "spine");
	mnl_attr_for_each_nested(a, obj) {
		if (mnl_attr_get_type(a) != VS_PG_A_SUBGROUP_POLICY)
			continue;
		cr_assert_eq(mnl_attr_get_u32(ct_nested(a, VS_SGP_A_SUBGROUP_SIZE)), n ? 4 : 1);
		if (n++)
			cr_assert_str_eq(mnl_attr_get_str(ct_nested(a, VS_SGP_A_NAME)), "workers");
		else
			cr_assert_null(ct_nested(a, VS_SGP_A_NAME));
	}
	cr_assert_eq(n, 2);
}

/* ---- refusals ---- */

static void refused(enum shape shape, int err, const char *msg)
{
	size_t before_len;
	char *before = state(&before_len);

	cr_assert_eq(ct_send(({ struct nlmsghdr *__n = ct_req(VS_CMD_PODGROUP_NEW, 0);
				put_pg(__n, "bad", shape); __n; })), -err);
	cr_assert_str_eq(ct.ext.err.msg, msg);
	cr_assert_null(vs_job_find(&ct.cl, "ns", "bad"));
	cr_assert_eq(ct.core.events.nr, 0);
	assert_same_state(before, before_len);
	free(before);
}

Test(nl_pgtopo, what_volcano_refuses_is_refused_by_name)
{
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, put_pg(__n, "pg", TOPO));
	refused(TOPO_BAD_PG, EINVAL, "podgroup ns/bad: networkTopology: must not specify "
		"'highestTierAllowed' and 'highestTierName' simultaneously");
	refused(TOPO_BAD_SG, EINVAL, "podgroup ns/bad: subGroupPolicy[1]: networkTopology: must "
		"not specify 'highestTierAllowed' and 'highestTierName' simultaneously");
	refused(TOPO_BAD_KEY, EINVAL, "podgroup ns/bad: subGroupPolicy[1]: invalid matchLabelKeys "
		"key \"-rack\": must start and end with a letter or digit");
	refused(TOPO_BAD_OP, EINVAL, "podgroup ns/bad: subGroupPolicy[2]: labelSelector."
		"matchExpressions[0]: operator Gt is not allowed here (In, NotIn, Exists or "
		"DoesNotExist)");
}

Test(nl_pgtopo, the_policy_refuses_a_zero_sub_group_size)
{
	cr_assert_eq(ct_send(({ struct nlmsghdr *__n = ct_req(VS_CMD_PODGROUP_NEW, 0);
				struct nlattr *o = mnl_attr_nest_start(__n, VS_A_PODGROUP);
				mnl_attr_put_strz(__n, VS_PG_A_NAMESPACE, "ns");
				mnl_attr_put_strz(__n, VS_PG_A_NAME, "bad");
				struct nlattr *p = mnl_attr_nest_start(__n, VS_PG_A_SUBGROUP_POLICY);
				mnl_attr_put_u32(__n, VS_SGP_A_SUBGROUP_SIZE, 0);
				mnl_attr_nest_end(__n, p);
				mnl_attr_nest_end(__n, o); __n; })), -EINVAL);
	cr_assert(strstr(ct.ext.err.msg, "subGroupSize") &&
		  strstr(ct.ext.err.msg, "0 is out of range 1.."), "%s", ct.ext.err.msg);
	cr_assert_null(vs_job_find(&ct.cl, "ns", "bad"));
}

/* ---- SET, batches, checkpoints ---- */

Test(nl_pgtopo, a_set_keeps_what_it_does_not_carry_and_replaces_what_it_does)
{
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, put_pg(__n, "pg", TOPO));
	CT_SEND_OK(VS_CMD_PODGROUP_SET, {
		struct nlattr *n = mnl_attr_nest_start(__n, VS_A_PODGROUP);

		mnl_attr_put_strz(__n, VS_PG_A_NAMESPACE, "ns");
		mnl_attr_put_strz(__n, VS_PG_A_NAME, "pg");
		mnl_attr_put_u32(__n, VS_PG_A_MIN_MEMBER, 3);
		mnl_attr_nest_end(__n, n);
	});
	cr_assert_eq(pg("pg")->min_member, 3);
	cr_assert_str_eq(pg("pg")->net_topology.highest_tier_name, "spine");
	cr_assert_eq(pg("pg")->nr_subgroups, 2);
	cr_assert_eq(pg("pg")->subgroups[1].selector->nr_exprs, 1);

	CT_SEND_OK(VS_CMD_PODGROUP_SET, {
		struct nlattr *n = mnl_attr_nest_start(__n, VS_A_PODGROUP);

		mnl_attr_put_strz(__n, VS_PG_A_NAMESPACE, "ns");
		mnl_attr_put_strz(__n, VS_PG_A_NAME, "pg");
		put_nt(__n, VS_PG_A_NETWORK_TOPOLOGY, VS_NT_MODE_HARD, 0, NULL);
		put_bare(__n);
		mnl_attr_nest_end(__n, n);
	});
	cr_assert_eq(pg("pg")->net_topology.mode, VS_NT_HARD);
	cr_assert(pg("pg")->net_topology.has_highest_tier);
	cr_assert_eq(pg("pg")->net_topology.highest_tier, 0);
	cr_assert_null(pg("pg")->net_topology.highest_tier_name);
	cr_assert_eq(pg("pg")->nr_subgroups, 1, "the policies are replaced whole");
}

/* A batch that changes a PodGroup's topology and then fails leaves it as it was. */
Test(nl_pgtopo, a_failed_batch_puts_the_topology_back)
{
	struct nlmsghdr *first, *m;
	size_t before_len;
	char *before;
	u32 seq = 100;

	CT_SEND_OK(VS_CMD_PODGROUP_NEW, put_pg(__n, "pg", TOPO));
	before = state(&before_len);
	first = m = ct_req(VS_CMD_BATCH_BEGIN, 0);
	first->nlmsg_seq = seq++;
	m = ct_next(m, VS_CMD_PODGROUP_NEW, NLM_F_REPLACE, seq++);
	ct_put_pg(m, "pg", "q", 2);			/* drops the topology */
	m = ct_next(m, VS_CMD_PODGROUP_NEW, 0, seq++);
	put_pg(m, "pg2", TOPO);
	m = ct_next(m, VS_CMD_PODGROUP_NEW, 0, seq++);
	put_pg(m, "bad", TOPO_BAD_SG);
	m = ct_next(m, VS_CMD_BATCH_END, NLM_F_ACK, 200);
	cr_assert_eq(ct_send_dgram(ct.req, ct_len(first, m)), -EINVAL);
	cr_assert_null(vs_job_find(&ct.cl, "ns", "pg2"));
	assert_same_state(before, before_len);
	free(before);
}

Test(nl_pgtopo, a_checkpoint_writes_and_reads_the_topology_back)
{
	struct vs_ckpt_info info;
	struct vs_err e = { { 0 } };
	size_t before_len;
	char *before;

	CT_SEND_OK(VS_CMD_PODGROUP_NEW, put_pg(__n, "pg", TOPO));
	CT_SEND_OK(VS_CMD_PODGROUP_NEW, ct_put_pg(__n, "plain", "q", 1));
	before = state(&before_len);
	cr_assert_eq(vs_nl_checkpoint_save(&ct.core, path, &info, &e), 0, "%s", e.msg);

	ct_teardown();
	ct_setup_sched();
	cr_assert_eq(vs_nl_checkpoint_load(&ct.ctx, path, 0, &info, &e), 0, "%s", e.msg);
	cr_assert_eq(pg("pg")->nr_subgroups, 2);
	cr_assert_str_eq(pg("pg")->subgroups[1].match_label_keys[1], "volcano.sh/partition-id");
	cr_assert_not(pg("plain")->net_topology.set);
	assert_same_state(before, before_len);
	free(before);
}

/* ---- a VolcanoJob's networkTopology and partitionPolicy ---- */

/* Job ns/j in queue q: soft within tier 2; task w of 4 in 2 partitions of 2 (@total). */
static void put_vjob(struct nlmsghdr *nlh, u32 total)
{
	struct nlattr *v = mnl_attr_nest_start(nlh, VS_A_VJOB), *t, *p;

	mnl_attr_put_strz(nlh, VS_VJOB_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_VJOB_A_NAME, "j");
	mnl_attr_put_strz(nlh, VS_VJOB_A_QUEUE, "q");
	t = mnl_attr_nest_start(nlh, VS_VJOB_A_TASK);
	mnl_attr_put_strz(nlh, VS_VTASK_A_NAME, "w");
	mnl_attr_put_u32(nlh, VS_VTASK_A_REPLICAS, 4);
	ct_put_res(nlh, VS_VTASK_A_REQUEST, 100, CT_MI, -1);
	p = mnl_attr_nest_start(nlh, VS_VTASK_A_PARTITION_POLICY);
	mnl_attr_put_u32(nlh, VS_PART_A_TOTAL_PARTITIONS, total);
	mnl_attr_put_u32(nlh, VS_PART_A_PARTITION_SIZE, 2);
	mnl_attr_put_u32(nlh, VS_PART_A_MIN_PARTITIONS, 1);
	put_nt(nlh, VS_PART_A_NETWORK_TOPOLOGY, -1, 1, NULL);
	mnl_attr_nest_end(nlh, p);
	mnl_attr_nest_end(nlh, t);
	put_nt(nlh, VS_VJOB_A_NETWORK_TOPOLOGY, VS_NT_MODE_SOFT, 2, NULL);
	mnl_attr_nest_end(nlh, v);
}

static char *vjob_state(size_t *len)
{
	const struct vs_vjob *v = vs_vjob_find(&ct.cl, "ns", "j");
	struct nlmsghdr *m;
	char *s;

	cr_assert_not_null(v);
	memset(obj_buf, 0, sizeof(obj_buf));
	m = mnl_nlmsg_put_header(obj_buf);
	cr_assert(vs_nl_put_vjob_spec(m, sizeof(obj_buf), v));
	s = malloc(m->nlmsg_len);
	cr_assert_not_null(s);
	memcpy(s, obj_buf, m->nlmsg_len);
	*len = m->nlmsg_len;
	return s;
}

Test(nl_pgtopo, a_volcano_jobs_partitions_reach_its_podgroup_and_a_checkpoint)
{
	struct vs_ckpt_info info;
	struct vs_err e = { { 0 } };
	const struct vs_vjob *v;
	size_t pg_len, vj_len;
	char *pgs, *vj, *now;

	cr_assert_eq(ct_send(({ struct nlmsghdr *__n = ct_req(VS_CMD_VJOB_NEW, 0);
				put_vjob(__n, 3); __n; })), -EINVAL);
	cr_assert_str_eq(ct.ext.err.msg, "job ns/j: task w: partitionPolicy: 'Replicas' (4) are "
			 "not equal to TotalPartitions*PartitionSize (3*2)");
	CT_SEND_OK(VS_CMD_VJOB_NEW, put_vjob(__n, 2));
	v = vs_vjob_find(&ct.cl, "ns", "j");
	cr_assert(v->tasks[0].has_partition);
	cr_assert_eq(v->tasks[0].partition.total, 2);
	cr_assert_eq(v->tasks[0].partition.min, 1);
	cr_assert_eq(v->tasks[0].partition.nt.mode, VS_NT_HARD, "the default mode");
	cr_assert_eq(v->tasks[0].min_available, 2);
	cr_assert_eq(v->net_topology.highest_tier, 2);
	cr_assert_not_null(v->podgroup);
	cr_assert_eq(v->podgroup->net_topology.mode, VS_NT_SOFT);
	cr_assert_eq(v->podgroup->net_topology.highest_tier, 2);
	cr_assert_eq(v->podgroup->nr_subgroups, 1);
	cr_assert_eq(v->podgroup->subgroups[0].nt.highest_tier, 1);

	pgs = state(&pg_len);
	vj = vjob_state(&vj_len);
	cr_assert_eq(vs_nl_checkpoint_save(&ct.core, path, &info, &e), 0, "%s", e.msg);
	ct_teardown();
	ct_setup_sched();
	cr_assert_eq(vs_nl_checkpoint_load(&ct.ctx, path, 0, &info, &e), 0, "%s", e.msg);
	assert_same_state(pgs, pg_len);
	now = vjob_state(&pg_len);
	cr_assert_eq(pg_len, vj_len);
	cr_assert_eq(memcmp(now, vj, vj_len), 0, "the restored VolcanoJob differs");
	free(now);
	free(vj);
	free(pgs);
}
