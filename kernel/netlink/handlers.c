// SPDX-License-Identifier: Apache-2.0
/*
 * The object commands and the users' commands as generic netlink handlers:
 * see handlers.h.
 *
 * Dumps list objects in name order (namespace, then name), as kubectl
 * does, and resume by key: a part remembers the key of the last object it
 * carried and the next part starts at the first key after it, found in the
 * cluster's name tree in O(log n). Objects deleted between parts are
 * simply not there, objects created meanwhile come where their names sort
 * (in this dump if after the key), and no other object is skipped or sent
 * twice for them.
 */
#include <libmnl/libmnl.h>
#include <stdio.h>

#include "controllers/jobctl.h"
#include "controllers/qctl.h"
#include "netlink/handlers.h"
#include "netlink/objects.h"
#include "netlink/parse.h"
#include "vsched/vsched.h"

/* A command's action is the core's: neither side translates. */
#define SAME(a, b) _Static_assert((int)(a) == (int)(b), #a " != " #b)
SAME(VS_ACTION_ABORT_JOB, VS_ACT_ABORT_JOB);
SAME(VS_ACTION_RESTART_JOB, VS_ACT_RESTART_JOB);
SAME(VS_ACTION_RESTART_TASK, VS_ACT_RESTART_TASK);
SAME(VS_ACTION_RESTART_POD, VS_ACT_RESTART_POD);
SAME(VS_ACTION_TERMINATE_JOB, VS_ACT_TERMINATE_JOB);
SAME(VS_ACTION_COMPLETE_JOB, VS_ACT_COMPLETE_JOB);
SAME(VS_ACTION_RESUME_JOB, VS_ACT_RESUME_JOB);
SAME(VS_ACTION_SYNC_JOB, VS_ACT_SYNC_JOB);
SAME(VS_ACTION_ENQUEUE_JOB, VS_ACT_ENQUEUE_JOB);
SAME(VS_ACTION_SYNC_QUEUE, VS_ACT_SYNC_QUEUE);
SAME(VS_ACTION_OPEN_QUEUE, VS_ACT_OPEN_QUEUE);
SAME(VS_ACTION_CLOSE_QUEUE, VS_ACT_CLOSE_QUEUE);
SAME(VS_ACTION_CLOSE_QUEUE + 1, VS_ACT_NR);
/* Nor for a port's protocol. */
SAME(VS_PORT_PROTOCOL_TCP, VS_PORT_TCP);
SAME(VS_PORT_PROTOCOL_UDP, VS_PORT_UDP);
SAME(VS_PORT_PROTOCOL_SCTP, VS_PORT_SCTP);
#undef SAME

void vs_nl_ctl_init(const struct vs_nl_core *core, struct vs_ctl *ctl)
{
	vs_ctl_init(ctl, core->cl, core->hooks, core->hooks_priv);
	ctl->scheduler = core->scheduler;
}

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

/* The object @nest names, if there is one, for an event; nothing said when not. */
static void *find_quietly(const struct vs_nl_objtype *ot, struct vs_cluster *cl,
			  const struct nlattr *nest)
{
	struct vs_err e = { { 0 } };
	int ret;

	return vs_nl_obj_find(ot, cl, nest, &e, &ret);
}

/*
 * After a NEW or a SET that succeeded: the object, before what the
 * controllers did about it (events made since @mark). A replacing NEW of
 * an object that existed is a SET to whoever watches.
 */
static void tell(struct vs_nl_core *core, size_t mark, const struct vs_nl_objtype *ot,
		 const struct nlattr *nest, enum vs_event_kind kind)
{
	void *obj;

	if (!core->events.on)
		return;
	obj = find_quietly(ot, core->cl, nest);
	if (obj)
		vs_nl_event_at(core, mark, kind, vs_nl_objtype_attr(ot), obj);
}

int vs_nl_obj_new_doit(struct vs_genl_info *info)
{
	const struct vs_nl_objtype *ot;
	const struct nlattr *nest = obj_nest(info, &ot);
	struct vs_nl_core *core = core_of(info);
	size_t mark = vs_nl_events_mark(&core->events);
	bool existed;
	struct vs_ctl ctl;
	int ret;

	if (!nest)
		return vs_extack_fail(info->extack, EINVAL, "%s: no object", info->op->name);
	existed = core->events.on && find_quietly(ot, core->cl, nest);
	vs_nl_ctl_init(core, &ctl);
	/* A checkpoint's objects are as they were: what the controllers did is in it. */
	ret = vs_nl_obj_new(ot, core->cl, info->ctx->restore ? NULL : &ctl, nest,
			    info->nlh->nlmsg_flags & NLM_F_REPLACE, core->arena,
			    &info->extack->err);
	if (ret)
		vs_nl_events_rewind(&core->events, mark);
	else
		tell(core, mark, ot, nest, existed ? VS_EVENT_SET : VS_EVENT_NEW);
	return done(info, nest, ret);
}

int vs_nl_obj_set_doit(struct vs_genl_info *info)
{
	const struct vs_nl_objtype *ot;
	const struct nlattr *nest = obj_nest(info, &ot);
	struct vs_nl_core *core = core_of(info);
	size_t mark = vs_nl_events_mark(&core->events);
	struct vs_ctl ctl;
	int ret;

	if (!nest)
		return vs_extack_fail(info->extack, EINVAL, "%s: no object", info->op->name);
	vs_nl_ctl_init(core, &ctl);
	ret = vs_nl_obj_set(ot, core->cl, &ctl, nest, core->arena, &info->extack->err);
	if (ret)
		vs_nl_events_rewind(&core->events, mark);
	else
		tell(core, mark, ot, nest, VS_EVENT_SET);
	return done(info, nest, ret);
}

int vs_nl_obj_del_doit(struct vs_genl_info *info)
{
	const struct vs_nl_objtype *ot;
	const struct nlattr *nest = obj_nest(info, &ot);
	struct vs_nl_core *core = core_of(info);
	size_t mark = vs_nl_events_mark(&core->events);
	struct vs_ctl ctl;
	void *obj;
	int ret;

	if (!nest)
		return vs_extack_fail(info->extack, EINVAL, "%s: no object", info->op->name);
	/* Told as it was, before it goes; taken back if it stays. */
	obj = core->events.on ? find_quietly(ot, core->cl, nest) : NULL;
	if (obj)
		vs_nl_event(core, VS_EVENT_DEL, vs_nl_objtype_attr(ot), obj);
	vs_nl_ctl_init(core, &ctl);
	ret = vs_nl_obj_del(ot, core->cl, &ctl, nest, &info->extack->err);
	if (ret)
		vs_nl_events_rewind(&core->events, mark);
	return done(info, nest, ret);
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
	const struct vs_name_tree *names = vs_nl_obj_names(ot, cl);
	struct vs_genl_dump *d = info->dump;
	unsigned int n = 0;
	void *obj;

	vs_cluster_keep_names(cl);

	/*
	 * From the key of the last object sent, not from a place: what was
	 * added or deleted between the parts moves no other object past it.
	 */
	obj = vs_name_tree_after(names, d->key_ns, d->key_name[0] ? d->key_name : NULL);
	for (; obj; obj = vs_name_tree_next(names, obj)) {
		const char *ns, *name;
		struct nlmsghdr *nlh;

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
		/* Names the core accepted: DNS labels and subdomains, which fit. */
		vs_name_tree_key(names, obj, &ns, &name);
		snprintf(d->key_ns, sizeof(d->key_ns), "%s", ns ? ns : "");
		snprintf(d->key_name, sizeof(d->key_name), "%s", name);
		n++;
	}
	return 0;
}

/* ---- users' commands ---- */

/* The string attribute @type of a command, or NULL. */
static const char *cmd_str(const struct nlattr *const *tb, u16 type)
{
	return tb[type] ? mnl_attr_get_str(tb[type]) : NULL;
}

/*
 * Refused by the controller: its reason (which names the object), pointing
 * at the command's nest. A refused command changed nothing: nothing is told.
 */
static int refused(struct vs_genl_info *info, const struct nlattr *nest, int ret)
{
	vs_extack_set_attr(info->extack, info->nlh, nest);
	return vs_extack_fail(info->extack, ret, "%s failed", info->op->name);
}

/*
 * The policy holds the action to the job actions and requires the key. The
 * controller refuses a target the action does not take or the job does
 * not have; a refused command changes nothing.
 */
int vs_nl_vjob_command_doit(struct vs_genl_info *info)
{
	const struct nlattr *nest = info->attrs[VS_A_COMMAND], *tb[VS_COMMAND_A_MAX + 1];
	struct vs_nl_core *core = core_of(info);
	const char *ns, *name;
	struct vs_vjob *vjob;
	struct vs_ctl ctl;
	size_t mark;
	int ret;

	vs_nl_nest_tb(nest, tb, VS_COMMAND_A_MAX);
	ns = cmd_str(tb, VS_COMMAND_A_NAMESPACE);
	name = cmd_str(tb, VS_COMMAND_A_NAME);
	vjob = vs_vjob_find(core->cl, ns, name);
	if (!vjob) {
		vs_err_set(&info->extack->err, ENOENT, "job %s/%s not found", ns, name);
		return refused(info, nest, -ENOENT);
	}
	mark = vs_nl_events_mark(&core->events);
	vs_nl_ctl_init(core, &ctl);
	ret = vs_jobctl_command(&ctl, vjob,
				(enum vs_vjob_action)mnl_attr_get_u32(tb[VS_COMMAND_A_ACTION]),
				cmd_str(tb, VS_COMMAND_A_TASK), cmd_str(tb, VS_COMMAND_A_POD),
				&info->extack->err);
	if (ret)
		vs_nl_events_rewind(&core->events, mark);
	return ret ? refused(info, nest, ret) : 0;
}

/* OpenQueue or CloseQueue, which the policy holds the action to. */
int vs_nl_queue_command_doit(struct vs_genl_info *info)
{
	const struct nlattr *nest = info->attrs[VS_A_COMMAND], *tb[VS_COMMAND_A_MAX + 1];
	struct vs_nl_core *core = core_of(info);
	struct vs_queue *queue;
	const char *name;
	struct vs_ctl ctl;
	size_t mark;
	int ret;

	vs_nl_nest_tb(nest, tb, VS_COMMAND_A_MAX);
	name = cmd_str(tb, VS_COMMAND_A_NAME);
	queue = vs_queue_find(core->cl, name);
	if (!queue) {
		vs_err_set(&info->extack->err, ENOENT, "queue %s not found", name);
		return refused(info, nest, -ENOENT);
	}
	mark = vs_nl_events_mark(&core->events);
	vs_nl_ctl_init(core, &ctl);
	ret = vs_qctl_command(&ctl, queue,
			      (enum vs_vjob_action)mnl_attr_get_u32(tb[VS_COMMAND_A_ACTION]),
			      &info->extack->err);
	if (ret)
		vs_nl_events_rewind(&core->events, mark);
	return ret ? refused(info, nest, ret) : 0;
}
