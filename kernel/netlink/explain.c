// SPDX-License-Identifier: Apache-2.0
/*
 * VS_CMD_EXPLAIN: why a PodGroup, a task or a node is where it is, as
 * sched/explain.h composes it, in one reply.
 */
#include <libmnl/libmnl.h>
#include <string.h>

#include "netlink/ctl.h"
#include "netlink/handlers.h"
#include "core/vjob.h"
#include "netlink/parse.h"
#include "sched/explain.h"
#include "vsched/vsched.h"

static struct vs_nl_core *core_of(const struct vs_genl_info *info)
{
	return info->ctx->priv;
}

/* Room kept for the line that says steps were left out. */
#define CUT_ROOM	96

static bool put_explain(struct nlmsghdr *nlh, size_t room, const struct nlattr *const *tb,
			const struct vs_explain *ex)
{
	static const u16 keys[] = {
		VS_EXPLAIN_A_NAMESPACE, VS_EXPLAIN_A_PODGROUP, VS_EXPLAIN_A_TASK,
		VS_EXPLAIN_A_NODE,
	};
	struct nlattr *nest = mnl_attr_nest_start_check(nlh, room, VS_A_EXPLAIN);
	u32 left = ex->nr_steps;

	if (!nest)
		return false;
	for (unsigned int i = 0; i < ARRAY_SIZE(keys); i++)
		if (tb[keys[i]] && !vs_nla_put_strz(nlh, room, keys[i],
						    mnl_attr_get_str(tb[keys[i]])))
			return false;
	if (!vs_nla_put_strz(nlh, room, VS_EXPLAIN_A_STATUS, ex->status ? ex->status : "") ||
	    !vs_nla_put_strz(nlh, room, VS_EXPLAIN_A_REASON, ex->reason ? ex->reason : "") ||
	    !vs_nla_put_strz(nlh, room, VS_EXPLAIN_A_MESSAGE, vs_explain_message(ex)) ||
	    (ex->cycle && !mnl_attr_put_u64_check(nlh, room, VS_EXPLAIN_A_CYCLE, ex->cycle)))
		return false;
	/* A node with thousands of tasks: as many steps as fit, and a line saying so. */
	for (const char *s = vs_explain_first(ex); s; s = vs_explain_next(ex, s), left--)
		if (room < CUT_ROOM || !vs_nla_put_strz(nlh, room - CUT_ROOM, VS_EXPLAIN_A_STEP, s))
			break;
	if (left) {
		char cut[CUT_ROOM - 8];

		snprintf(cut, sizeof(cut), "... %u more lines do not fit the reply", left);
		if (!vs_nla_put_strz(nlh, room, VS_EXPLAIN_A_STEP, cut))
			return false;
	}
	mnl_attr_nest_end(nlh, nest);
	return true;
}

int vs_nl_explain_doit(struct vs_genl_info *info)
{
	const struct nlattr *nest = info->attrs[VS_A_EXPLAIN], *tb[VS_EXPLAIN_A_MAX + 1];
	struct vs_nl_core *core = core_of(info);
	const char *ns = NULL;
	struct vs_explain ex;
	struct nlmsghdr *nlh;
	unsigned int n;
	int ret;

	if (!nest)
		return vs_nl_refuse(info, NULL, EINVAL, "explain (VS_A_EXPLAIN): missing: it "
				    "names a podgroup or a task (with its namespace), or a node");
	vs_nl_nest_tb(nest, tb, VS_EXPLAIN_A_MAX);
	n = !!tb[VS_EXPLAIN_A_PODGROUP] + !!tb[VS_EXPLAIN_A_TASK] + !!tb[VS_EXPLAIN_A_NODE];
	if (n != 1)
		return vs_nl_refuse(info, nest, EINVAL, "explain (VS_A_EXPLAIN): name one of "
				    "podgroup, task and node, not %u", n);
	if (tb[VS_EXPLAIN_A_SCORES] && !tb[VS_EXPLAIN_A_TASK])
		return vs_nl_refuse(info, tb[VS_EXPLAIN_A_SCORES], EINVAL,
				    "explain.scores (VS_EXPLAIN_A_SCORES): only a task is scored");
	if (tb[VS_EXPLAIN_A_SCORES] && !core->sched)
		return vs_nl_refuse(info, tb[VS_EXPLAIN_A_SCORES], EOPNOTSUPP,
				    "explain.scores (VS_EXPLAIN_A_SCORES): there is no scheduler "
				    "here to score with");
	if (tb[VS_EXPLAIN_A_NODE] && tb[VS_EXPLAIN_A_NAMESPACE])
		return vs_nl_refuse(info, tb[VS_EXPLAIN_A_NAMESPACE], EINVAL,
				    "explain.namespace (VS_EXPLAIN_A_NAMESPACE): a node has none");
	if (!tb[VS_EXPLAIN_A_NODE]) {
		if (!tb[VS_EXPLAIN_A_NAMESPACE])
			return vs_nl_refuse(info, nest, EINVAL, "explain.namespace "
					    "(VS_EXPLAIN_A_NAMESPACE): missing: a %s has one",
					    tb[VS_EXPLAIN_A_TASK] ? "task" : "podgroup");
		ns = mnl_attr_get_str(tb[VS_EXPLAIN_A_NAMESPACE]);
	}

	vs_explain_init(&ex);
	if (tb[VS_EXPLAIN_A_TASK]) {
		const char *name = mnl_attr_get_str(tb[VS_EXPLAIN_A_TASK]);
		const struct vs_task *task = vs_task_find(core->cl, ns, name);

		if (!task)
			return vs_nl_refuse(info, tb[VS_EXPLAIN_A_TASK], ENOENT,
					    "task %s/%s not found", ns, name);
		ret = vs_explain_task(core->sched, task, vs_nl_now_ns(core), &ex);
		if (!ret && tb[VS_EXPLAIN_A_SCORES]) {
			struct vs_err e = { { 0 } };

			ret = vs_explain_scores(core->sched, task,
						mnl_attr_get_u32(tb[VS_EXPLAIN_A_SCORES]), &ex, &e);
			if (ret) {
				vs_explain_release(&ex);
				return vs_extack_fail(info->extack, -ret, "scoring task %s/%s: %s",
						      ns, name, e.msg);
			}
		}
	} else if (tb[VS_EXPLAIN_A_PODGROUP]) {
		const char *name = mnl_attr_get_str(tb[VS_EXPLAIN_A_PODGROUP]);
		const struct vs_job *job = vs_job_find(core->cl, ns, name);
		const struct vs_vjob *vjob = job ? NULL : vs_vjob_find(core->cl, ns, name);

		/* "vsctl explain job" may name a VolcanoJob: its PodGroup, then */
		if (vjob && vjob->podgroup)
			job = vjob->podgroup;
		if (!job)
			return vs_nl_refuse(info, tb[VS_EXPLAIN_A_PODGROUP], ENOENT,
					    "podgroup %s/%s not found", ns, name);
		ret = vs_explain_job(core->sched, job, vs_nl_now_ns(core), &ex);
	} else {
		const char *name = mnl_attr_get_str(tb[VS_EXPLAIN_A_NODE]);
		const struct vs_node *node = vs_node_find(core->cl, name);

		if (!node)
			return vs_nl_refuse(info, tb[VS_EXPLAIN_A_NODE], ENOENT,
					    "node %s not found", name);
		ret = vs_explain_node(node, &ex);
	}
	if (ret) {
		vs_explain_release(&ex);
		return vs_extack_fail(info->extack, -ret, "out of memory");
	}
	nlh = vs_genl_reply_put(info, 0);
	if (!nlh || !put_explain(nlh, vs_nl_reply_room(info->reply, nlh), tb, &ex)) {
		vs_explain_release(&ex);
		return vs_extack_fail(info->extack, EMSGSIZE, "the explanation does not fit the "
				      "reply");
	}
	vs_nl_reply_finish(info->reply, nlh);
	vs_explain_release(&ex);
	return 0;
}
