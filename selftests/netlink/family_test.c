// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the dispatcher and the ops tables (netlink/family.h): the checks
 * before a handler (command, permission, do or dump, policy) each answer
 * with their NLMSG_ERROR; the controller's CTRL_CMD_GETFAMILY describes
 * vsched's family; the tables are well formed; and what fill.c puts in a
 * reply is what the policies say a reply holds.
 */
#include "nltest.h"
#include "netlink/fill.h"
#include "netlink/handlers.h"

static char req_buf[4096] __attribute__((aligned(4)));
static char out[8192] __attribute__((aligned(4)));
static struct vs_nl_reply reply;
static struct vs_extack ext;
static struct vs_genl_dump dump;
static struct vs_cluster core_cl;
static struct vs_arena core_arena;
static struct vs_nl_core core = { .cl = &core_cl, .arena = &core_arena };
static struct vs_genl_ctx admin = { .portid = 9, .admin = true, .priv = &core };
static struct vs_genl_ctx anyone = { .portid = 9, .admin = false, .priv = &core };

static void setup(void)
{
	memset(req_buf, 0, sizeof(req_buf));
	vs_nl_reply_init(&reply, out, sizeof(out), 9);
	vs_extack_clear(&ext);
}

static void suite_init(void)
{
	cr_assert_eq(vs_cluster_init(&core_cl), 0);
	vs_arena_init(&core_arena, 4096);
	setup();
}

static void suite_fini(void)
{
	vs_arena_destroy(&core_arena);
	vs_cluster_destroy(&core_cl);
}

TestSuite(family, .init = suite_init, .fini = suite_fini);

/* The reply holds one NLMSG_ERROR of @error with the message @msg. */
static void assert_error_reply(int error, const char *msg)
{
	const struct nlmsghdr *nlh = (const void *)out;
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;
	const char *got = NULL;

	cr_assert(mnl_nlmsg_ok(nlh, (int)reply.len));
	cr_assert_eq(nlh->nlmsg_len, reply.len, "more than the error in the reply");
	cr_assert_eq(nlh->nlmsg_type, NLMSG_ERROR);
	cr_assert_eq(e->error, error);
	cr_assert(nlh->nlmsg_flags & NLM_F_ACK_TLVS);
	mnl_attr_for_each(a, nlh, sizeof(*e) +
			  ((nlh->nlmsg_flags & NLM_F_CAPPED) ? 0 :
			   MNL_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN)))
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG)
			got = mnl_attr_get_str(a);
	cr_assert_not_null(got);
	cr_assert_str_eq(got, msg);
	cr_assert_str_eq(ext.err.msg, msg);
}

Test(family, unknown_command_is_eopnotsupp)
{
	struct nlmsghdr *nlh = nlt_request(req_buf, 200, NLM_F_ACK);

	cr_assert_eq(vs_genl_rcv_msg(&admin, nlh, &reply, &dump, &ext), -EOPNOTSUPP);
	assert_error_reply(-EOPNOTSUPP, "unknown command 200 of family vsched");
	cr_assert_not(ext.has_offs);

	setup();
	nlh = nlt_request(req_buf, VS_CMD_UNSPEC, 0);
	cr_assert_eq(vs_genl_rcv_msg(&admin, nlh, &reply, &dump, &ext), -EOPNOTSUPP);
	assert_error_reply(-EOPNOTSUPP, "unknown command 0 of family vsched");

	setup();
	nlh = nlt_request(req_buf, VS_CMD_EVENT, 0);
	cr_assert_eq(vs_genl_rcv_msg(&admin, nlh, &reply, &dump, &ext), -EOPNOTSUPP);
	assert_error_reply(-EOPNOTSUPP, "VS_CMD_EVENT is a notification, not a request");
}

Test(family, non_admin_mutation_is_eperm)
{
	struct nlmsghdr *nlh = nlt_request(req_buf, VS_CMD_NODE_NEW, 0);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE);

	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n1");
	mnl_attr_nest_end(nlh, n);
	cr_assert_eq(vs_genl_rcv_msg(&anyone, nlh, &reply, &dump, &ext), -EPERM);
	assert_error_reply(-EPERM, "VS_CMD_NODE_NEW needs the admin permission (root or the "
			   "admin group)");
	cr_assert_not(ext.has_offs);

	/* reading is open to anyone */
	setup();
	nlh = nlt_request(req_buf, VS_CMD_NODE_GET, 0);
	n = mnl_attr_nest_start(nlh, VS_A_NODE);
	mnl_attr_put_strz(nlh, VS_NODE_A_NAME, "n1");
	mnl_attr_nest_end(nlh, n);
	cr_assert_eq(vs_genl_rcv_msg(&anyone, nlh, &reply, &dump, &ext), -ENOENT);
	assert_error_reply(-ENOENT, "node n1 not found");
}

Test(family, explain_names_one_object_and_says_which_is_missing)
{
	struct nlmsghdr *nlh = nlt_request(req_buf, VS_CMD_EXPLAIN, NLM_F_ACK);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_EXPLAIN);

	mnl_attr_put_strz(nlh, VS_EXPLAIN_A_NAMESPACE, "ns");
	mnl_attr_put_strz(nlh, VS_EXPLAIN_A_PODGROUP, "pg1");
	mnl_attr_nest_end(nlh, n);
	cr_assert_eq(vs_genl_rcv_msg(&anyone, nlh, &reply, &dump, &ext), -ENOENT);
	assert_error_reply(-ENOENT, "podgroup ns/pg1 not found");

	setup();
	nlh = nlt_request(req_buf, VS_CMD_EXPLAIN, NLM_F_ACK);
	n = mnl_attr_nest_start(nlh, VS_A_EXPLAIN);
	mnl_attr_put_strz(nlh, VS_EXPLAIN_A_PODGROUP, "pg1");
	mnl_attr_put_strz(nlh, VS_EXPLAIN_A_NODE, "n1");
	mnl_attr_nest_end(nlh, n);
	cr_assert_eq(vs_genl_rcv_msg(&anyone, nlh, &reply, &dump, &ext), -EINVAL);
	assert_error_reply(-EINVAL, "explain (VS_A_EXPLAIN): name one of podgroup, task and "
			   "node, not 2");

	setup();
	nlh = nlt_request(req_buf, VS_CMD_EXPLAIN, NLM_F_ACK);
	n = mnl_attr_nest_start(nlh, VS_A_EXPLAIN);
	mnl_attr_put_strz(nlh, VS_EXPLAIN_A_TASK, "p1");
	mnl_attr_nest_end(nlh, n);
	cr_assert_eq(vs_genl_rcv_msg(&anyone, nlh, &reply, &dump, &ext), -EINVAL);
	assert_error_reply(-EINVAL, "explain.namespace (VS_EXPLAIN_A_NAMESPACE): missing: a "
			   "task has one");
}

Test(family, policy_error_answers_with_the_offset)
{
	struct nlmsghdr *nlh = nlt_request(req_buf, VS_CMD_NODE_NEW, NLM_F_ACK);
	struct nlattr *n = mnl_attr_nest_start(nlh, VS_A_NODE);
	const struct nlmsgerr *e = (const void *)(out + NLMSG_HDRLEN);
	const struct nlattr *a;
	u32 offs = 0;

	mnl_attr_put_str(nlh, VS_NODE_A_NAME, "n1");
	mnl_attr_nest_end(nlh, n);
	cr_assert_eq(vs_genl_rcv_msg(&admin, nlh, &reply, &dump, &ext), -EINVAL);
	assert_error_reply(-EINVAL, "node.name (VS_NODE_A_NAME): string not NUL-terminated");
	mnl_attr_for_each(a, (const struct nlmsghdr *)out,
			  sizeof(*e) + MNL_ALIGN(nlh->nlmsg_len - NLMSG_HDRLEN))
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_OFFS)
			offs = mnl_attr_get_u32(a);
	cr_assert_eq(offs, FIRST_ATTR + 4);
}

Test(family, framing_errors_reach_no_handler)
{
	struct nlmsghdr *nlh = nlt_request(req_buf, VS_CMD_STATS_GET, 0);

	nlh->nlmsg_len = NLMSG_HDRLEN + 1;
	cr_assert_eq(vs_genl_rcv_msg(&admin, nlh, &reply, &dump, &ext), -EINVAL);
	assert_error_reply(-EINVAL, "generic netlink header missing: 1 bytes after the message "
			   "header, needs 4");

	setup();
	nlh = nlt_request(req_buf, VS_CMD_STATS_GET, 0);
	nlh->nlmsg_type = 0x42;
	cr_assert_eq(vs_genl_rcv_msg(&admin, nlh, &reply, &dump, &ext), -ENOENT);
	assert_error_reply(-ENOENT, "unknown family id 0x42 (vsched's is 0x20)");

	setup();
	nlh = nlt_request(req_buf, VS_CMD_STATS_GET, 0);
	nlh->nlmsg_flags = NLM_F_ACK;
	cr_assert_eq(vs_genl_rcv_msg(&admin, nlh, &reply, &dump, &ext), -EINVAL);
	assert_error_reply(-EINVAL, "NLM_F_REQUEST not set: not a request");
}

Test(family, do_and_dump_go_where_the_op_allows)
{
	struct nlmsghdr *nlh = nlt_request(req_buf, VS_CMD_NODE_NEW, NLM_F_DUMP);

	cr_assert_eq(vs_genl_rcv_msg(&admin, nlh, &reply, &dump, &ext), -EOPNOTSUPP);
	assert_error_reply(-EOPNOTSUPP, "VS_CMD_NODE_NEW cannot be dumped (NLM_F_DUMP)");

	/* a dump takes the dump policy: filters, no object */
	setup();
	nlh = nlt_request(req_buf, VS_CMD_TASK_GET, NLM_F_DUMP);
	mnl_attr_put_strz(nlh, VS_A_FILTER_NODE, "n1");
	mnl_attr_put_u32(nlh, VS_A_FILTER_STATUS, 1 << VS_TASK_STATUS_RUNNING);
	cr_assert_eq(vs_genl_rcv_msg(&anyone, nlh, &reply, &dump, &ext), 0, "%s", ext.err.msg);
	/* no task: the dump is its NLMSG_DONE alone */
	cr_assert_eq(((const struct nlmsghdr *)out)->nlmsg_type, NLMSG_DONE);
	cr_assert_eq(reply.len, NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(int)));

	setup();
	nlh = nlt_request(req_buf, VS_CMD_TASK_GET, 0);
	mnl_attr_put_strz(nlh, VS_A_FILTER_NODE, "n1");
	cr_assert_eq(vs_genl_rcv_msg(&anyone, nlh, &reply, &dump, &ext), -EINVAL);
	assert_error_reply(-EINVAL, "filterNode (VS_A_FILTER_NODE): not taken by this command");
}

/* ---- the controller ---- */

struct family_info {
	const char *name;
	u16 id;
	u32 version, hdrsize, maxattr;
	unsigned int nr_ops, nr_groups;
	u32 node_new_flags, node_get_flags;
	const char *groups[4];
	u32 group_ids[4];
};

static void parse_family(const struct nlmsghdr *nlh, struct family_info *fi)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a, *item, *x;

	memset(fi, 0, sizeof(*fi));
	cr_assert_eq(nlh->nlmsg_type, GENL_ID_CTRL);
	cr_assert_eq(g->cmd, CTRL_CMD_NEWFAMILY);
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		switch (mnl_attr_get_type(a)) {
		case CTRL_ATTR_FAMILY_NAME:
			fi->name = mnl_attr_get_str(a);
			break;
		case CTRL_ATTR_FAMILY_ID:
			fi->id = mnl_attr_get_u16(a);
			break;
		case CTRL_ATTR_VERSION:
			fi->version = mnl_attr_get_u32(a);
			break;
		case CTRL_ATTR_HDRSIZE:
			fi->hdrsize = mnl_attr_get_u32(a);
			break;
		case CTRL_ATTR_MAXATTR:
			fi->maxattr = mnl_attr_get_u32(a);
			break;
		case CTRL_ATTR_OPS:
			mnl_attr_for_each_nested(item, a) {
				u32 id = 0, flags = 0;

				mnl_attr_for_each_nested(x, item) {
					if (mnl_attr_get_type(x) == CTRL_ATTR_OP_ID)
						id = mnl_attr_get_u32(x);
					if (mnl_attr_get_type(x) == CTRL_ATTR_OP_FLAGS)
						flags = mnl_attr_get_u32(x);
				}
				fi->nr_ops++;
				if (id == VS_CMD_NODE_NEW)
					fi->node_new_flags = flags;
				if (id == VS_CMD_NODE_GET)
					fi->node_get_flags = flags;
			}
			break;
		case CTRL_ATTR_MCAST_GROUPS:
			mnl_attr_for_each_nested(item, a) {
				cr_assert_lt(fi->nr_groups, 4);
				mnl_attr_for_each_nested(x, item) {
					if (mnl_attr_get_type(x) == CTRL_ATTR_MCAST_GRP_NAME)
						fi->groups[fi->nr_groups] = mnl_attr_get_str(x);
					if (mnl_attr_get_type(x) == CTRL_ATTR_MCAST_GRP_ID)
						fi->group_ids[fi->nr_groups] = mnl_attr_get_u32(x);
				}
				fi->nr_groups++;
			}
			break;
		}
	}
}

static struct nlmsghdr *ctrl_request(u16 flags)
{
	struct nlmsghdr *nlh = nlt_request(req_buf, CTRL_CMD_GETFAMILY, flags);

	nlh->nlmsg_type = GENL_ID_CTRL;
	return nlh;
}

Test(family, getfamily_by_name_describes_vsched)
{
	struct nlmsghdr *nlh = ctrl_request(NLM_F_ACK);
	const struct nlmsghdr *r = (const void *)out, *ack;
	struct family_info fi;
	int left = 0;

	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, VSCHED_GENL_NAME);
	cr_assert_eq(vs_genl_rcv_msg(&anyone, nlh, &reply, &dump, &ext), 0, "%s", ext.err.msg);
	cr_assert(mnl_nlmsg_ok(r, (int)reply.len));
	cr_assert_eq(r->nlmsg_seq, 42);
	cr_assert_eq(r->nlmsg_pid, 9);
	parse_family(r, &fi);
	cr_assert_str_eq(fi.name, "vsched");
	cr_assert_eq(fi.id, VSCHED_GENL_ID);
	cr_assert_eq(fi.version, VSCHED_GENL_VERSION);
	cr_assert_eq(fi.hdrsize, 0);
	cr_assert_eq(fi.maxattr, VS_A_MAX);
	/* every command but the four notifications */
	cr_assert_eq(fi.nr_ops, VS_CMD_MAX - 4);
	cr_assert_eq(fi.node_new_flags, GENL_ADMIN_PERM | GENL_CMD_CAP_DO | GENL_CMD_CAP_HASPOL);
	cr_assert_eq(fi.node_get_flags, GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP |
		     GENL_CMD_CAP_HASPOL);
	cr_assert_eq(fi.nr_groups, 4);
	cr_assert_str_eq(fi.groups[0], VSCHED_MCGRP_DECISIONS);
	cr_assert_eq(fi.group_ids[0], VS_MCGRP_DECISIONS);
	cr_assert_str_eq(fi.groups[2], VSCHED_MCGRP_CYCLES);
	cr_assert_eq(fi.group_ids[2], VS_MCGRP_CYCLES);
	cr_assert_str_eq(fi.groups[3], VSCHED_MCGRP_STATUS);
	cr_assert_eq(fi.group_ids[3], VS_MCGRP_STATUS);

	/* then the ack */
	left = (int)reply.len;
	ack = mnl_nlmsg_next(r, &left);
	cr_assert(mnl_nlmsg_ok(ack, left));
	cr_assert_eq(ack->nlmsg_type, NLMSG_ERROR);
	cr_assert_eq(((const struct nlmsgerr *)mnl_nlmsg_get_payload(ack))->error, 0);
	cr_assert_eq((size_t)left, ack->nlmsg_len);
}

Test(family, getfamily_by_id_and_by_dump)
{
	struct nlmsghdr *nlh = ctrl_request(0);
	const struct nlmsghdr *r = (const void *)out, *done;
	struct family_info fi;
	int left;

	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, VSCHED_GENL_ID);
	cr_assert_eq(vs_genl_rcv_msg(&anyone, nlh, &reply, &dump, &ext), 0, "%s", ext.err.msg);
	parse_family(r, &fi);
	cr_assert_str_eq(fi.name, "vsched");
	cr_assert_eq(reply.len, r->nlmsg_len, "no ack without NLM_F_ACK");

	setup();
	nlh = ctrl_request(NLM_F_DUMP);
	cr_assert_eq(vs_genl_rcv_msg(&anyone, nlh, &reply, &dump, &ext), 0, "%s", ext.err.msg);
	cr_assert_eq(r->nlmsg_flags, NLM_F_MULTI);
	parse_family(r, &fi);
	cr_assert_eq(fi.id, VSCHED_GENL_ID);
	left = (int)reply.len;
	done = mnl_nlmsg_next(r, &left);
	cr_assert(mnl_nlmsg_ok(done, left));
	cr_assert_eq(done->nlmsg_type, NLMSG_DONE);
	cr_assert_eq(dump.parts, 1);
}

Test(family, getfamily_of_another_family_is_enoent)
{
	struct nlmsghdr *nlh = ctrl_request(0);

	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, "nl80211");
	cr_assert_eq(vs_genl_rcv_msg(&anyone, nlh, &reply, &dump, &ext), -ENOENT);
	assert_error_reply(-ENOENT, "no family named \"nl80211\"");
	cr_assert(ext.has_offs);
	cr_assert_eq(ext.offs, FIRST_ATTR);

	setup();
	nlh = ctrl_request(0);
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 0x33);
	cr_assert_eq(vs_genl_rcv_msg(&anyone, nlh, &reply, &dump, &ext), -ENOENT);
	assert_error_reply(-ENOENT, "no family with id 0x33");

	setup();
	nlh = ctrl_request(0);
	cr_assert_eq(vs_genl_rcv_msg(&anyone, nlh, &reply, &dump, &ext), -EINVAL);
	assert_error_reply(-EINVAL, "CTRL_ATTR_FAMILY_ID or CTRL_ATTR_FAMILY_NAME is required");
}

Test(family, a_reply_that_does_not_fit_leaves_only_the_error)
{
	struct nlmsghdr *nlh = ctrl_request(NLM_F_ACK);

	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, VSCHED_GENL_NAME);
	vs_nl_reply_init(&reply, out, VS_NL_ERROR_MIN + 64, 9);
	cr_assert_eq(vs_genl_rcv_msg(&anyone, nlh, &reply, &dump, &ext), -EMSGSIZE);
	assert_error_reply(-EMSGSIZE, "the family does not fit the reply");
}

/* ---- the tables ---- */

static void check_set(const struct vs_nla_policy *set, u16 maxattr, unsigned int depth,
		      const char *where)
{
	cr_assert_leq(maxattr, VS_NLA_SET_MAX, "%s", where);
	cr_assert_leq(depth, VS_NEST_MAX, "%s: the policies nest deeper than requests may",
		      where);
	for (u16 t = 1; t <= maxattr; t++) {
		const struct vs_nla_policy *p = &set[t];

		if (p->type == VS_NLA_UNSPEC)
			continue;
		cr_assert_lt(p->type, __VS_NLA_TYPE_MAX, "%s[%u]", where, t);
		cr_assert(p->name && *p->name, "%s[%u] has no name", where, t);
		cr_assert(p->id && *p->id, "%s[%u] has no id", where, t);
		if (p->flags & VS_NLA_F_RANGE)
			cr_assert_leq(p->min, p->max, "%s", p->id);
		if (p->type == VS_NLA_NESTED) {
			cr_assert_not_null(p->nested, "%s", p->id);
			check_set(p->nested, p->maxattr, depth + 1, p->id);
		} else {
			cr_assert_null(p->nested, "%s", p->id);
		}
	}
}

Test(family, every_command_has_a_well_formed_op)
{
	cr_assert_eq(vs_genl_vsched.n_ops, __VS_CMD_MAX);
	cr_assert_null(vs_genl_op_find(&vs_genl_vsched, VS_CMD_UNSPEC));
	for (unsigned int cmd = 1; cmd <= VS_CMD_MAX; cmd++) {
		const struct vs_genl_op *op = vs_genl_op_find(&vs_genl_vsched, (u8)cmd);

		cr_assert_not_null(op, "command %u has no op", cmd);
		cr_assert_eq(op->cmd, cmd, "%s", op->name);
		cr_assert_eq(strncmp(op->name, "VS_CMD_", 7), 0);
		cr_assert_eq(op->maxattr, VS_A_MAX, "%s", op->name);
		if (op->flags & VS_OP_NOTIFY) {
			cr_assert_null(op->policy, "%s", op->name);
			continue;
		}
		cr_assert(op->flags & (VS_OP_DO | VS_OP_DUMP), "%s", op->name);
		cr_assert_not_null(op->policy, "%s", op->name);
		check_set(op->policy, op->maxattr, 0, op->name);
		if (op->dump_policy)
			check_set(op->dump_policy, op->maxattr, 0, op->name);
		/*
		 * What changes state needs the admin permission; what reads does
		 * not, nor sizing one's own connection (as SO_RCVBUF needs no
		 * capability).
		 */
		if (strstr(op->name, "_GET") || strstr(op->name, "SUBSCRIBE") ||
		    !strcmp(op->name, "VS_CMD_EXPLAIN") || !strcmp(op->name, "VS_CMD_CONN_SET"))
			cr_assert_not(op->flags & VS_OP_ADMIN, "%s", op->name);
		else
			cr_assert(op->flags & VS_OP_ADMIN, "%s", op->name);
	}
	check_set(vs_genl_reply_policy, VS_A_MAX, 0, "replies");
}

/* ---- replies as the policies describe them ---- */

static void assert_reply_valid(const struct nlmsghdr *nlh)
{
	const struct nlattr *t[VS_A_MAX + 1];

	cr_assert_eq(vs_nla_validate(nlh, GENL_HDRLEN, vs_genl_reply_policy, VS_A_MAX, t,
				     VS_NLA_V_REPLY, &ext), 0, "%s", ext.err.msg);
}

Test(family, objects_put_by_fill_pass_the_reply_policy)
{
	const struct vs_kv_spec labels[] = { { "zone", "a" }, { "kubernetes.io/arch", "" } };
	const struct vs_taint_spec taints[] = { { "dedicated", "gpu", VS_TAINT_NO_SCHEDULE } };
	const struct vs_role_min_spec roles[] = { { "worker", 2 }, { "", 1 } };
	const char *const zones[] = { "a", "b" };
	const struct vs_sel_req_spec expr[] = { { "zone", VS_SEL_IN, zones, 2 } };
	const struct vs_node_selector_term_spec term = { expr, 1, NULL, 0 };
	const struct vs_node_selector_spec required = { &term, 1 };
	const struct vs_node_pref_term_spec pref = { 30, { expr, 1, NULL, 0 } };
	const struct vs_node_affinity_spec na = { &required, &pref, 1 };
	const struct vs_kv_spec app[] = { { "app", "db" } };
	const struct vs_label_selector_spec lsel = { app, 1, NULL, 0 };
	const struct vs_pod_affinity_term_spec pterm = { &lsel, NULL, 0, NULL, "zone" };
	const struct vs_pod_affinity_spec anti = { &pterm, 1, NULL, 0 };
	const struct vs_affinity_spec aff = { &na, NULL, &anti };
	struct vs_prioclass_spec ps = { .name = "high", .value = 100 };
	struct vs_node_spec nspec;
	struct vs_queue_spec qspec;
	struct vs_job_spec jspec;
	struct vs_task_spec tspec;
	struct vs_cluster cl;
	struct vs_err e = { { 0 } };
	struct vs_node *n;
	struct vs_queue *q;
	struct vs_job *j;
	struct vs_task *t;
	struct vs_prioclass *pc;
	struct nlmsghdr *nlh;

	cr_assert_eq(vs_cluster_init(&cl), 0);
	vs_node_spec_init(&nspec, "n1");
	vs_res_set(&nspec.allocatable, VS_RES_CPU, 8000);
	cr_assert_eq(vs_res_set_quantity(&cl.dims, &nspec.allocatable, "nvidia.com/gpu", 14, "4", 1,
					 &e), 0);
	nspec.labels = labels;
	nspec.nr_labels = 2;
	nspec.taints = taints;
	nspec.nr_taints = 1;
	cr_assert_eq(vs_node_add(&cl, &nspec, &n, &e), 0, "%s", e.msg);
	vs_queue_spec_init(&qspec, "q1");
	qspec.has_capability = true;
	vs_res_set(&qspec.capability, VS_RES_CPU, 4000);
	cr_assert_eq(vs_queue_add(&cl, &qspec, &q, &e), 0, "%s", e.msg);
	vs_job_spec_init(&jspec, "ns", "pg");
	jspec.queue = "q1";
	jspec.min_task_member = roles;
	jspec.nr_min_task_member = 2;
	cr_assert_eq(vs_job_add(&cl, &jspec, &j, &e), 0, "%s", e.msg);
	vs_task_spec_init(&tspec, "ns", "p0", "pg");
	vs_res_set(&tspec.req, VS_RES_CPU, 500);
	tspec.labels = app;
	tspec.nr_labels = 1;
	tspec.affinity = &aff;
	cr_assert_eq(vs_task_add(&cl, &tspec, &t, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_prioclass_add(&cl, &ps, &pc, &e), 0, "%s", e.msg);

	nlh = nlt_request(req_buf, VS_CMD_NODE_GET, 0);
	cr_assert(vs_nl_put_node(nlh, sizeof(req_buf), n));
	assert_reply_valid(nlh);
	nlh = nlt_request(req_buf, VS_CMD_QUEUE_GET, 0);
	cr_assert(vs_nl_put_queue(nlh, sizeof(req_buf), q));
	assert_reply_valid(nlh);
	nlh = nlt_request(req_buf, VS_CMD_PODGROUP_GET, 0);
	cr_assert(vs_nl_put_podgroup(nlh, sizeof(req_buf), j));
	assert_reply_valid(nlh);
	nlh = nlt_request(req_buf, VS_CMD_TASK_GET, 0);
	cr_assert(vs_nl_put_task(nlh, sizeof(req_buf), t));
	assert_reply_valid(nlh);
	nlh = nlt_request(req_buf, VS_CMD_PRIOCLASS_GET, 0);
	cr_assert(vs_nl_put_prioclass(nlh, sizeof(req_buf), pc));
	assert_reply_valid(nlh);
	vs_cluster_destroy(&cl);
}
