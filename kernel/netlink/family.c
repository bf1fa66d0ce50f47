// SPDX-License-Identifier: Apache-2.0
/*
 * The dispatcher and the controller family: see family.h.
 *
 * The order of the checks is the kernel's (genl_family_rcv_msg()): the
 * family, the command, the permission, do or dump, the policy; only then
 * the handler. A refused request reaches no handler, so it changes nothing.
 */
#include <libmnl/libmnl.h>
#include <string.h>

#include "core/res.h"
#include "netlink/family.h"
#include "vsched/vsched.h"

/* The controller's own version, as the kernel's nlctrl reports it. */
#define VS_CTRL_VERSION		2

const struct vs_genl_op *vs_genl_op_find(const struct vs_genl_family *family, u8 cmd)
{
	if (cmd >= family->n_ops || !family->ops[cmd].name)
		return NULL;
	return &family->ops[cmd];
}

struct nlmsghdr *vs_genl_reply_put(struct vs_genl_info *info, u16 flags)
{
	return vs_nl_reply_genl(info->reply, info->nlh, info->family->id, flags, info->op->cmd,
				info->family->version);
}

void vs_genl_dump_done(const struct nlmsghdr *nlh, struct vs_genl_dump *dump)
{
	const struct genlmsghdr *g = (const void *)((const char *)nlh + NLMSG_HDRLEN);
	const struct vs_genl_op *op;

	if (nlh->nlmsg_type != VSCHED_GENL_ID || nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return;
	op = vs_genl_op_find(&vs_genl_vsched, g->cmd);
	if (op && op->done)
		op->done(dump);
}

int vs_genl_mem_check(const struct vs_genl_ctx *ctx, const struct vs_genl_op *op,
		      struct vs_extack *ext)
{
	u64 used;

	if (!(op->flags & VS_OP_GROWS) || !vs_mem_cap_reached(ctx->mem, &used))
		return 0;
	return vs_extack_fail(ext, ENOMEM, "%s refused: vschedd holds %llu MiB, its memory "
			      "cap is %llu MiB (vschedd --max-memory); delete objects first",
			      op->name, (unsigned long long)(used >> 20),
			      (unsigned long long)(ctx->mem->max >> 20));
}

/* Everything up to the handler: the op, with @info and @tb filled, or an error. */
static int prepare(struct vs_genl_ctx *ctx, const struct nlmsghdr *nlh, bool dump,
		   struct vs_genl_info *info, const struct nlattr **tb, struct vs_extack *ext)
{
	const struct vs_genl_family *family;
	const struct genlmsghdr *g;
	const struct vs_genl_op *op;
	int ret;

	ret = vs_nl_msg_check(nlh, ext);
	if (ret)
		return ret;
	family = nlh->nlmsg_type == GENL_ID_CTRL ? &vs_genl_ctrl : &vs_genl_vsched;
	g = mnl_nlmsg_get_payload(nlh);
	op = vs_genl_op_find(family, g->cmd);
	if (!op)
		return vs_extack_fail(ext, EOPNOTSUPP, "unknown command %u of family %s", g->cmd,
				      family->name);
	if (op->flags & VS_OP_NOTIFY)
		return vs_extack_fail(ext, EOPNOTSUPP, "%s is a notification, not a request",
				      op->name);
	if ((op->flags & VS_OP_ADMIN) && !ctx->admin)
		return vs_extack_fail(ext, EPERM, "%s needs the admin permission (root or the "
				      "admin group)", op->name);
	if (dump && !(op->flags & VS_OP_DUMP))
		return vs_extack_fail(ext, EOPNOTSUPP, "%s cannot be dumped (NLM_F_DUMP)",
				      op->name);
	if (!dump && !(op->flags & VS_OP_DO))
		return vs_extack_fail(ext, EOPNOTSUPP, "%s needs NLM_F_DUMP", op->name);
	ret = vs_nla_validate(nlh, GENL_HDRLEN, dump && op->dump_policy ? op->dump_policy :
			      op->policy, op->maxattr, tb, ctx->restore ? VS_NLA_V_RESTORE : 0,
			      ext);
	if (ret)
		return ret;
	if (dump ? !op->dumpit : !op->doit)
		return vs_extack_fail(ext, EOPNOTSUPP, "%s: not implemented yet", op->name);
	ret = vs_genl_mem_check(ctx, op, ext);
	if (ret)
		return ret;
	*info = (struct vs_genl_info) {
		.ctx = ctx,
		.family = family,
		.op = op,
		.nlh = nlh,
		.genlhdr = g,
		.attrs = tb,
		.extack = ext,
		.reply = info->reply,
		.dump = info->dump,
	};
	return 0;
}

/*
 * Run a handler with the room for the answer after it kept aside, and take
 * back what it added if it fails.
 */
static int run(struct vs_genl_info *info, int (*fn)(struct vs_genl_info *))
{
	struct vs_nl_reply *r = info->reply;
	size_t saved = r->len, cap = r->cap;
	int ret;

	if (r->cap - r->len >= VS_NL_ERROR_MIN)
		r->cap -= VS_NL_ERROR_MIN;
	ret = fn(info);
	r->cap = cap;
	if (ret < 0) {
		r->len = saved;
		/* A handler that forgot to say why still answers with a sentence. */
		vs_extack_fail(info->extack, ret, "%s failed", info->op->name);
		ret = info->extack->error;
	}
	return ret;
}

static bool is_dump(const struct nlmsghdr *nlh)
{
	return (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
}

static int dump_part(struct vs_genl_info *info)
{
	const struct nlmsghdr *nlh = info->nlh;
	int ret = run(info, info->op->dumpit);

	if (ret < 0) {
		/* As the kernel: an error answers the first part, and ends the dump later. */
		if (!info->dump->parts)
			vs_nl_reply_error(info->reply, nlh, ret, info->extack);
		else
			vs_nl_reply_done(info->reply, nlh, ret, info->extack);
		return ret;
	}
	info->dump->parts++;
	if (ret > 0)
		return 1;
	vs_nl_reply_done(info->reply, nlh, 0, NULL);
	return 0;
}

int vs_genl_rcv_msg(struct vs_genl_ctx *ctx, const struct nlmsghdr *nlh,
		    struct vs_nl_reply *reply, struct vs_genl_dump *dump, struct vs_extack *ext)
{
	const struct nlattr *tb[VS_NLA_SET_MAX + 1];
	struct vs_genl_info info = { .reply = reply, .dump = dump };
	int ret;

	ret = prepare(ctx, nlh, is_dump(nlh), &info, tb, ext);
	if (!ret && is_dump(nlh) && !dump)
		ret = vs_extack_fail(ext, EOPNOTSUPP, "dumps are not available here");
	if (ret) {
		vs_nl_reply_error(reply, nlh, ret, ext);
		return ret;
	}
	if (is_dump(nlh)) {
		memset(dump, 0, sizeof(*dump));
		return dump_part(&info);
	}
	ret = run(&info, info.op->doit);
	if (ret < 0) {
		vs_nl_reply_error(reply, nlh, ret, ext);
		return ret;
	}
	if (nlh->nlmsg_flags & NLM_F_ACK)
		vs_nl_reply_ack(reply, nlh);
	return 0;
}

int vs_genl_dump_next(struct vs_genl_ctx *ctx, const struct nlmsghdr *nlh,
		      struct vs_nl_reply *reply, struct vs_genl_dump *dump, struct vs_extack *ext)
{
	const struct nlattr *tb[VS_NLA_SET_MAX + 1];
	struct vs_genl_info info = { .reply = reply, .dump = dump };
	int ret;

	/* The request passed once; checking it again is cheap and keeps tb[] honest. */
	ret = prepare(ctx, nlh, true, &info, tb, ext);
	if (ret) {
		vs_nl_reply_done(reply, nlh, ret, ext);
		return ret;
	}
	return dump_part(&info);
}

/* ---- the controller: CTRL_CMD_GETFAMILY ---- */

static const struct vs_nla_policy ctrl_policy[CTRL_ATTR_MAX + 1] = {
	VS_NLA_INT(CTRL_ATTR_FAMILY_ID, "family id", VS_NLA_U16),
	VS_NLA_STR(CTRL_ATTR_FAMILY_NAME, "family name", GENL_NAMSIZ),
};

/* vsched's family as CTRL_CMD_NEWFAMILY describes it; false when it does not fit. */
static bool put_family(struct nlmsghdr *nlh, size_t room, const struct vs_genl_family *fam)
{
	struct nlattr *list, *item;
	unsigned int idx = 1;

	if (!vs_nla_put_strz(nlh, room, CTRL_ATTR_FAMILY_NAME, fam->name) ||
	    !vs_nla_put_u16(nlh, room, CTRL_ATTR_FAMILY_ID, fam->id) ||
	    !mnl_attr_put_u32_check(nlh, room, CTRL_ATTR_VERSION, fam->version) ||
	    !mnl_attr_put_u32_check(nlh, room, CTRL_ATTR_HDRSIZE, 0) ||
	    !mnl_attr_put_u32_check(nlh, room, CTRL_ATTR_MAXATTR, fam->maxattr))
		return false;
	list = mnl_attr_nest_start_check(nlh, room, CTRL_ATTR_OPS);
	if (!list)
		return false;
	for (unsigned int i = 0; i < fam->n_ops; i++) {
		const struct vs_genl_op *op = &fam->ops[i];
		u32 flags = GENL_CMD_CAP_HASPOL;

		if (!op->name || !(op->flags & (VS_OP_DO | VS_OP_DUMP)))
			continue;
		flags |= op->flags & VS_OP_DO ? GENL_CMD_CAP_DO : 0;
		flags |= op->flags & VS_OP_DUMP ? GENL_CMD_CAP_DUMP : 0;
		flags |= op->flags & VS_OP_ADMIN ? GENL_ADMIN_PERM : 0;
		item = mnl_attr_nest_start_check(nlh, room, (u16)idx++);
		if (!item || !mnl_attr_put_u32_check(nlh, room, CTRL_ATTR_OP_ID, op->cmd) ||
		    !mnl_attr_put_u32_check(nlh, room, CTRL_ATTR_OP_FLAGS, flags))
			return false;
		mnl_attr_nest_end(nlh, item);
	}
	mnl_attr_nest_end(nlh, list);
	list = mnl_attr_nest_start_check(nlh, room, CTRL_ATTR_MCAST_GROUPS);
	if (!list)
		return false;
	for (unsigned int id = 1; id <= fam->n_mcgrps; id++) {
		item = mnl_attr_nest_start_check(nlh, room, (u16)id);
		if (!item || !vs_nla_put_strz(nlh, room, CTRL_ATTR_MCAST_GRP_NAME,
						      fam->mcgrps[id]) ||
		    !mnl_attr_put_u32_check(nlh, room, CTRL_ATTR_MCAST_GRP_ID, id))
			return false;
		mnl_attr_nest_end(nlh, item);
	}
	mnl_attr_nest_end(nlh, list);
	return true;
}

static int ctrl_reply(struct vs_genl_info *info, u16 flags)
{
	struct nlmsghdr *nlh = vs_nl_reply_genl(info->reply, info->nlh, GENL_ID_CTRL, flags,
						CTRL_CMD_NEWFAMILY, VS_CTRL_VERSION);

	if (!nlh || !put_family(nlh, vs_nl_reply_room(info->reply, nlh), &vs_genl_vsched))
		return vs_extack_fail(info->extack, EMSGSIZE, "the family does not fit the reply");
	vs_nl_reply_finish(info->reply, nlh);
	return 0;
}

static int ctrl_getfamily_doit(struct vs_genl_info *info)
{
	const struct nlattr *id = info->attrs[CTRL_ATTR_FAMILY_ID];
	const struct nlattr *name = info->attrs[CTRL_ATTR_FAMILY_NAME];

	/* As the kernel's ctrl_getfamily(): the id wins over the name. */
	if (id && mnl_attr_get_u16(id) != vs_genl_vsched.id) {
		vs_extack_set_attr(info->extack, info->nlh, id);
		return vs_extack_fail(info->extack, ENOENT, "no family with id 0x%x",
				      mnl_attr_get_u16(id));
	}
	if (!id && name && strcmp(mnl_attr_get_str(name), vs_genl_vsched.name)) {
		vs_extack_set_attr(info->extack, info->nlh, name);
		return vs_extack_fail(info->extack, ENOENT, "no family named \"%s\"",
				      mnl_attr_get_str(name));
	}
	if (!id && !name)
		return vs_extack_fail(info->extack, EINVAL, "CTRL_ATTR_FAMILY_ID or "
				      "CTRL_ATTR_FAMILY_NAME is required");
	return ctrl_reply(info, 0);
}

/* There is one family to list, so a dump is one part. */
static int ctrl_getfamily_dumpit(struct vs_genl_info *info)
{
	return ctrl_reply(info, NLM_F_MULTI);
}

static const struct vs_genl_op ctrl_ops[] = {
	[CTRL_CMD_GETFAMILY] = {
		.cmd = CTRL_CMD_GETFAMILY,
		.name = "CTRL_CMD_GETFAMILY",
		.flags = VS_OP_DO | VS_OP_DUMP,
		.policy = ctrl_policy,
		.maxattr = CTRL_ATTR_MAX,
		.doit = ctrl_getfamily_doit,
		.dumpit = ctrl_getfamily_dumpit,
	},
};

const struct vs_genl_family vs_genl_ctrl = {
	.name = "nlctrl",
	.id = GENL_ID_CTRL,
	.version = VS_CTRL_VERSION,
	.maxattr = CTRL_ATTR_MAX,
	.ops = ctrl_ops,
	.n_ops = ARRAY_SIZE(ctrl_ops),
};
