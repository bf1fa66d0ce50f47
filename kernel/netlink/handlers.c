// SPDX-License-Identifier: Apache-2.0
/*
 * The object commands as generic netlink handlers: see handlers.h.
 *
 * Dumps resume by creation order: a part remembers the creation sequence
 * of the last object it carried (and, for tasks, of that task's PodGroup),
 * and the next part starts after it. Objects deleted between parts are
 * simply not there; objects created meanwhile come at the end.
 */
#include <libmnl/libmnl.h>

#include "netlink/handlers.h"
#include "netlink/objects.h"
#include "vsched/vsched.h"

/* The object type of a command: its top-level attribute. */
static const struct vs_nl_objtype *objtype_of(const struct vs_genl_info *info)
{
	return vs_nl_objtype_cmd(info->op->cmd);
}

static struct vs_nl_core *core_of(const struct vs_genl_info *info)
{
	return info->ctx->priv;
}

/* The object's nest, which the command's policy requires. */
static const struct nlattr *obj_nest(const struct vs_genl_info *info,
				     const struct vs_nl_objtype **ot)
{
	*ot = objtype_of(info);
	return *ot ? info->attrs[vs_nl_objtype_attr(*ot)] : NULL;
}

/* After the core has said why in info->extack->err: the errno, with the object's nest marked. */
static int done(struct vs_genl_info *info, const struct nlattr *nest, int ret)
{
	vs_arena_reset(core_of(info)->arena);
	if (ret) {
		vs_extack_set_attr(info->extack, info->nlh, nest);
		return vs_extack_fail(info->extack, ret, "%s failed", info->op->name);
	}
	return 0;
}

int vs_nl_obj_new_doit(struct vs_genl_info *info)
{
	const struct vs_nl_objtype *ot;
	const struct nlattr *nest = obj_nest(info, &ot);
	struct vs_nl_core *core = core_of(info);

	if (!nest)
		return vs_extack_fail(info->extack, EINVAL, "%s: no object", info->op->name);
	return done(info, nest, vs_nl_obj_new(ot, core->cl, nest,
					      info->nlh->nlmsg_flags & NLM_F_REPLACE, core->arena,
					      &info->extack->err));
}

int vs_nl_obj_set_doit(struct vs_genl_info *info)
{
	const struct vs_nl_objtype *ot;
	const struct nlattr *nest = obj_nest(info, &ot);
	struct vs_nl_core *core = core_of(info);

	if (!nest)
		return vs_extack_fail(info->extack, EINVAL, "%s: no object", info->op->name);
	return done(info, nest, vs_nl_obj_set(ot, core->cl, nest, core->arena,
					      &info->extack->err));
}

int vs_nl_obj_del_doit(struct vs_genl_info *info)
{
	const struct vs_nl_objtype *ot;
	const struct nlattr *nest = obj_nest(info, &ot);

	if (!nest)
		return vs_extack_fail(info->extack, EINVAL, "%s: no object", info->op->name);
	return done(info, nest, vs_nl_obj_del(ot, core_of(info)->cl, nest, &info->extack->err));
}

int vs_nl_obj_get_doit(struct vs_genl_info *info)
{
	const struct vs_nl_objtype *ot;
	const struct nlattr *nest = obj_nest(info, &ot);
	struct nlmsghdr *nlh;
	void *obj;
	int ret;

	if (!nest)
		return vs_extack_fail(info->extack, EINVAL, "%s: no object", info->op->name);
	obj = vs_nl_obj_find(ot, core_of(info)->cl, nest, &info->extack->err, &ret);
	if (!obj)
		return done(info, nest, ret);
	nlh = vs_genl_reply_put(info, 0);
	if (!nlh || !vs_nl_obj_put(ot, nlh, vs_nl_reply_room(info->reply, nlh), obj))
		return vs_extack_fail(info->extack, EMSGSIZE, "the object does not fit a reply");
	vs_nl_reply_finish(info->reply, nlh);
	return 0;
}

int vs_nl_obj_get_dumpit(struct vs_genl_info *info)
{
	const struct vs_nl_objtype *ot = objtype_of(info);
	struct vs_cluster *cl = core_of(info)->cl;
	struct vs_genl_dump *d = info->dump;
	unsigned int n = 0;
	void *obj = NULL;

	while ((obj = vs_nl_obj_next(ot, cl, obj))) {
		struct nlmsghdr *nlh;

		if (d->pos[2] && !vs_nl_obj_after(ot, obj, d->pos))
			continue;
		if (!vs_nl_obj_match(ot, obj, info->attrs))
			continue;
		nlh = vs_genl_reply_put(info, NLM_F_MULTI);
		if (!nlh || !vs_nl_obj_put(ot, nlh, vs_nl_reply_room(info->reply, nlh), obj)) {
			if (!n)
				return vs_extack_fail(info->extack, EMSGSIZE,
						      "an object does not fit a dump part");
			return 1;	/* the rest in the next part */
		}
		vs_nl_reply_finish(info->reply, nlh);
		vs_nl_obj_pos(ot, obj, d->pos);
		d->pos[2] = 1;
		n++;
	}
	return 0;
}
