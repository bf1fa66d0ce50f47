// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the memory cap (vschedd --max-memory, core/mem.h) as the
 * dispatcher and batches keep it: past the cap, requests that add to the
 * core (VS_OP_GROWS) are refused with ENOMEM and a sentence that says so,
 * and change nothing; deletes, reads and statistics go on; a batch that
 * crosses the cap half way is undone whole. The heap is counted here as
 * one MiB per node, so that the test decides when the cap is reached.
 */
#include <stdio.h>

#include "ctltest.h"

#define MC_MIB		(1ull << 20)

static u64 nodes_as_mib(void)
{
	return ct.cl.nr_nodes * MC_MIB;
}

static struct vs_mem_cap cap = { .max = 3 * MC_MIB, .used = nodes_as_mib };

static void setup(void)
{
	ct_setup_objects();
	ct.ctx.mem = &cap;
}

TestSuite(memcap, .init = setup, .fini = ct_teardown);

static int node_new(const char *name)
{
	struct nlmsghdr *nlh = ct_req(VS_CMD_NODE_NEW, 0);

	ct_put_node(nlh, name, 1000);
	return ct_send(nlh);
}

static const char refused[] = "refused: vschedd holds 3 MiB, its memory cap is 3 MiB "
			      "(vschedd --max-memory); delete objects first";

Test(memcap, past_the_cap_what_adds_is_refused_and_the_rest_goes_on)
{
	const struct nlattr *stats;
	struct nlmsghdr *nlh;
	char want[256];

	cr_assert_eq(node_new("n0"), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(node_new("n1"), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(node_new("n2"), 0, "%s", ct.ext.err.msg);

	/* NEW: refused, saying why, and nothing made */
	cr_assert_eq(node_new("n3"), -ENOMEM);
	snprintf(want, sizeof(want), "VS_CMD_NODE_NEW %s", refused);
	cr_assert_str_eq(ct.ext.err.msg, want);
	cr_assert_eq(ct.cl.nr_nodes, 3);
	cr_assert_null(vs_node_find(&ct.cl, "n3"));

	/* SET of an existing object may add too (labels, taints): refused alike */
	nlh = ct_req(VS_CMD_NODE_SET, 0);
	ct_put_node(nlh, "n0", 2000);
	cr_assert_eq(ct_send(nlh), -ENOMEM);
	cr_assert_eq(vs_res_get(&vs_node_find(&ct.cl, "n0")->allocatable, VS_RES_CPU), 1000,
		     "SET changed it");

	/* and a new configuration */
	nlh = ct_req(VS_CMD_CONF_SET, 0);
	mnl_attr_nest_end(nlh, mnl_attr_nest_start(nlh, VS_A_CONF));
	cr_assert_eq(ct_send(nlh), -ENOMEM);
	snprintf(want, sizeof(want), "VS_CMD_CONF_SET %s", refused);
	cr_assert_str_eq(ct.ext.err.msg, want);

	/* reads and statistics go on, and say what the cap is */
	nlh = ct_req(VS_CMD_NODE_GET, 0);
	ct_put_key(nlh, VS_A_NODE, NULL, "n1");
	CT_OK(nlh);
	CT_OK(ct_req(VS_CMD_STATS_GET, 0));
	stats = ct_attr(ct_reply_genl(), VS_A_STATS);
	cr_assert_not_null(ct_nested(stats, VS_STATS_A_MAX_MEMORY));
	cr_assert_eq(mnl_attr_get_u64(ct_nested(stats, VS_STATS_A_MAX_MEMORY)), 3 * MC_MIB);

	/* a delete brings the daemon under the cap, and NEW works again */
	nlh = ct_req(VS_CMD_NODE_DEL, 0);
	ct_put_key(nlh, VS_A_NODE, NULL, "n2");
	CT_OK(nlh);
	cr_assert_eq(node_new("n3"), 0, "%s", ct.ext.err.msg);
	cr_assert_not_null(vs_node_find(&ct.cl, "n3"));
}

/* Held under the cap, five nodes pass it at the fourth as END applies them: none stays. */
Test(memcap, a_batch_that_crosses_the_cap_is_undone_whole)
{
	struct nlmsghdr *first = ct_req(VS_CMD_BATCH_BEGIN, 0), *m = first;
	char name[8], want[256];

	for (u32 i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "n%u", i);
		m = ct_next(m, VS_CMD_NODE_NEW, 0, 10 + i);
		ct_put_node(m, name, 1000);
	}
	cr_assert_eq(ct_send_dgram(first, ct_len(first, m)), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct.batch.nr, 5, "held: the cap is not reached while nothing is applied");
	cr_assert_eq(ct_send(ct_req(VS_CMD_BATCH_END, 0)), -ENOMEM);
	snprintf(want, sizeof(want), "batch not applied: message seq 13 (VS_CMD_NODE_NEW node "
		 "n3) failed: VS_CMD_NODE_NEW %s", refused);
	cr_assert_str_eq(ct.ext.err.msg, want);
	cr_assert_eq(ct.cl.nr_nodes, 0, "the three nodes before the cap were not undone");
	cr_assert_not(ct.batch.open);
}

/* Past the cap, a message that adds dooms the batch it is sent in; a delete may be held. */
Test(memcap, past_the_cap_a_batch_holds_deletes_but_not_what_adds)
{
	struct nlmsghdr *first, *m;
	char want[256];

	for (u32 i = 0; i < 3; i++) {
		snprintf(want, sizeof(want), "n%u", i);
		cr_assert_eq(node_new(want), 0, "%s", ct.ext.err.msg);
	}
	/* a delete, then a NEW that the delete would have made room for: refused as held */
	first = ct_req(VS_CMD_BATCH_BEGIN, 0);
	m = ct_next(first, VS_CMD_NODE_DEL, 0, 2);
	ct_put_key(m, VS_A_NODE, NULL, "n0");
	m = ct_next(m, VS_CMD_NODE_NEW, 0, 3);
	ct_put_node(m, "n9", 1000);
	cr_assert_eq(ct_send_dgram(first, ct_len(first, m)), -ENOMEM);
	cr_assert_eq(ct_reply_count(), 1, "the NEW's error");
	cr_assert_eq(ct_reply_seq(0), 3);
	cr_assert_eq(ct_send(ct_req(VS_CMD_BATCH_END, 0)), -ENOMEM);
	snprintf(want, sizeof(want), "batch not applied: message seq 3 was refused: "
		 "VS_CMD_NODE_NEW %s", refused);
	cr_assert_str_eq(ct.ext.err.msg, want);
	cr_assert_eq(ct.cl.nr_nodes, 3, "a doomed batch applied its delete");

	/* deletes alone go through, and bring it under */
	first = ct_req(VS_CMD_BATCH_BEGIN, 0);
	m = ct_next(first, VS_CMD_NODE_DEL, 0, 2);
	ct_put_key(m, VS_A_NODE, NULL, "n0");
	m = ct_next(m, VS_CMD_BATCH_END, 0, 3);
	cr_assert_eq(ct_send_dgram(first, ct_len(first, m)), 0, "%s", ct.ext.err.msg);
	cr_assert_eq(ct.cl.nr_nodes, 2);
}

/* Without a cap (the daemon's own requests, a checkpoint restored) nothing is refused. */
Test(memcap, no_cap_refuses_nothing)
{
	char name[8];

	ct.ctx.mem = NULL;
	for (u32 i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "n%u", i);
		cr_assert_eq(node_new(name), 0, "%s", ct.ext.err.msg);
	}
	cap.max = 0;
	ct.ctx.mem = &cap;
	cr_assert_eq(node_new("n8"), 0, "max 0 is no cap: %s", ct.ext.err.msg);
	CT_OK(ct_req(VS_CMD_STATS_GET, 0));
	cr_assert_null(ct_nested(ct_attr(ct_reply_genl(), VS_A_STATS), VS_STATS_A_MAX_MEMORY));
}
