// SPDX-License-Identifier: Apache-2.0
/*
 * Batches: see batch.h.
 *
 * This file is framing only: it checks and holds the messages, and at END
 * opens a transaction on the cluster (core/txn.h), applies each held
 * message through its ordinary handler, as a single request is applied,
 * and commits, or, when a message fails, aborts and names the message by
 * its sequence number. What a message changes, and what the controllers do
 * behind it (a VolcanoJob's PodGroup and tasks, a bare task's PodGroup, a
 * queue's state), is journalled by the core functions that change it and
 * undone by the abort: any request that may be sent alone may be in a
 * batch. A dry run is the same transaction, aborted when it went through.
 */
#include <libmnl/libmnl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/txn.h"
#include "netlink/batch.h"
#include "netlink/handlers.h"
#include "netlink/objects.h"
#include "netlink/parse.h"
#include "vsched/vsched.h"

static bool is_dump(const struct nlmsghdr *nlh)
{
	return (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
}

/* ---- checking and holding ---- */

/*
 * The dispatcher's checks before a handler (family.c), in its order and
 * words: the message, the command, the permission, do or dump, the policy.
 * The op, with @tb filled, or NULL with @ext saying why.
 */
static const struct vs_genl_op *check(const struct vs_genl_ctx *ctx, const struct nlmsghdr *nlh,
				      const struct nlattr **tb, struct vs_extack *ext)
{
	const struct vs_genl_family *fam = &vs_genl_vsched;
	const struct vs_genl_op *op;
	const struct genlmsghdr *g;

	if (vs_nl_msg_check(nlh, ext))
		return NULL;
	if (nlh->nlmsg_type != fam->id) {
		vs_extack_fail(ext, EINVAL, "a message of family 0x%x cannot be in a batch",
			       nlh->nlmsg_type);
		return NULL;
	}
	g = mnl_nlmsg_get_payload(nlh);
	op = vs_genl_op_find(fam, g->cmd);
	if (!op) {
		vs_extack_fail(ext, EOPNOTSUPP, "unknown command %u of family %s", g->cmd,
			       fam->name);
		return NULL;
	}
	if (op->flags & VS_OP_NOTIFY) {
		vs_extack_fail(ext, EOPNOTSUPP, "%s is a notification, not a request", op->name);
		return NULL;
	}
	if ((op->flags & VS_OP_ADMIN) && !ctx->admin) {
		vs_extack_fail(ext, EPERM, "%s needs the admin permission (root or the admin "
			       "group)", op->name);
		return NULL;
	}
	if (is_dump(nlh)) {
		vs_extack_fail(ext, EINVAL, "%s: a dump (NLM_F_DUMP) cannot be in a batch",
			       op->name);
		return NULL;
	}
	if (!(op->flags & VS_OP_DO)) {
		vs_extack_fail(ext, EOPNOTSUPP, "%s needs NLM_F_DUMP", op->name);
		return NULL;
	}
	if (vs_nla_validate(nlh, GENL_HDRLEN, op->policy, op->maxattr, tb, 0, ext))
		return NULL;
	if (vs_genl_mem_check(ctx, op, ext))
		return NULL;
	return op;
}

/* What may be in a batch, or NULL; else why not. */
static const char *not_batchable(u8 cmd)
{
	const struct vs_nl_objtype *ot = vs_nl_objtype_cmd(cmd);

	if (cmd == VS_CMD_TASK_STATUS || cmd == VS_CMD_BIND_RESULT)
		return NULL;
	if (!ot || vs_nl_obj_verb(ot, cmd) == VS_NL_GET)
		return "only NEW, SET and DEL of objects, VS_CMD_TASK_STATUS and "
		       "VS_CMD_BIND_RESULT may be";
	return NULL;
}

/* Give up on the batch after @nlh was refused: END will say so and apply nothing. */
static void doom(struct vs_nl_batch *b, const struct nlmsghdr *nlh, const struct vs_extack *ext)
{
	if (b->error)
		return;
	b->error = ext->error ? ext->error : -EINVAL;
	b->error_seq = nlh->nlmsg_seq;
	snprintf(b->error_msg, sizeof(b->error_msg), "%s", ext->err.msg);
	free(b->buf);
	b->buf = NULL;
	b->len = b->cap = 0;
	b->nr = 0;
}

/* Copy @nlh after the messages held. */
static int hold(struct vs_nl_batch *b, const struct nlmsghdr *nlh, struct vs_extack *ext)
{
	size_t need = NLMSG_ALIGN(nlh->nlmsg_len);

	if (need > VS_NL_BATCH_MAX - b->len)
		return vs_extack_fail(ext, ENOSPC, "the batch would hold more than %u MiB of "
				      "messages", VS_NL_BATCH_MAX >> 20);
	if (need > b->cap - b->len) {
		size_t cap = b->cap ? b->cap : 64 << 10;
		char *buf;

		while (cap - b->len < need)
			cap *= 2;
		cap = min_t(size_t, cap, VS_NL_BATCH_MAX);
		buf = realloc(b->buf, cap);
		if (!buf)
			return vs_extack_fail(ext, ENOMEM, "out of memory holding the batch");
		b->buf = buf;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, nlh, nlh->nlmsg_len);
	memset(b->buf + b->len + nlh->nlmsg_len, 0, need - nlh->nlmsg_len);
	b->len += need;
	b->nr++;
	return 0;
}

void vs_nl_batch_release(struct vs_nl_batch *batch)
{
	free(batch->buf);
	memset(batch, 0, sizeof(*batch));
}

void vs_nl_batch_doom(struct vs_nl_batch *batch, const struct nlmsghdr *nlh,
		      const struct vs_extack *ext)
{
	if (batch->open)
		doom(batch, nlh, ext);
}

int vs_nl_batch_doit(struct vs_genl_info *info)
{
	return vs_extack_fail(info->extack, EOPNOTSUPP, "%s: batches are not available here",
			      info->op->name);
}

/* ---- applying ---- */

/* The held message @nlh through its handler, with @ext for its error. */
static int apply(struct vs_genl_ctx *ctx, const struct vs_genl_op *op, const struct nlmsghdr *nlh,
		 const struct nlattr **tb, struct vs_extack *ext)
{
	u32 none[NLMSG_HDRLEN / 4];
	struct vs_nl_reply reply;
	struct vs_genl_info info = {
		.ctx = ctx,
		.family = &vs_genl_vsched,
		.op = op,
		.nlh = nlh,
		.genlhdr = mnl_nlmsg_get_payload(nlh),
		.attrs = tb,
		.extack = ext,
		.reply = &reply,
	};
	int ret;

	/* What may be in a batch answers nothing but its errors. */
	vs_nl_reply_init(&reply, none, 0, ctx->portid);
	ret = op->doit(&info);
	if (ret < 0)
		vs_extack_fail(ext, ret, "%s failed", op->name);
	return ret < 0 ? ret : 0;
}

/* "task ns/p1": the object the held message is about, for END's error. */
static void describe(const struct vs_genl_op *op, const struct nlattr *const *tb, char *buf,
		     size_t len)
{
	const struct vs_nl_objtype *ot = vs_nl_objtype_cmd(op->cmd);
	const struct nlattr *nest;

	if (ot) {
		vs_nl_obj_describe(ot, tb[vs_nl_objtype_attr(ot)], buf, len);
	} else if (op->cmd == VS_CMD_TASK_STATUS) {
		vs_nl_obj_describe(vs_nl_objtype(VS_A_TASK), tb[VS_A_TASK], buf, len);
	} else {
		const struct nlattr *bt[VS_BIND_A_MAX + 1];

		nest = tb[VS_A_BIND_RESULT];
		vs_nl_nest_tb(nest, bt, VS_BIND_A_MAX);
		snprintf(buf, len, "task %s/%s",
			 bt[VS_BIND_A_NAMESPACE] ? mnl_attr_get_str(bt[VS_BIND_A_NAMESPACE]) : "(null)",
			 bt[VS_BIND_A_NAME] ? mnl_attr_get_str(bt[VS_BIND_A_NAME]) : "(null)");
	}
}

/* END's error for the held message @nlh that failed with @mext, after the rollback. */
static int failed(struct vs_extack *ext, const struct nlmsghdr *nlh, const struct vs_genl_op *op,
		  const struct nlattr *const *tb, const struct vs_extack *mext, bool whole)
{
	char what[160] = "";
	const char *inner = mext->err.msg;
	size_t wl;

	if (tb)
		describe(op, tb, what, sizeof(what));
	/* Handlers name the object first; say it once. */
	wl = strlen(what);
	if (wl && !strncmp(inner, what, wl) && !strncmp(inner + wl, ": ", 2))
		inner += wl + 2;
	return vs_extack_fail(ext, mext->error, "batch not applied: message seq %u (%s%s%s) "
			      "failed: %s%s", nlh->nlmsg_seq, op->name, wl ? " " : "", what, inner,
			      whole ? "" : " (and undoing failed, see the log)");
}

/* Apply the held messages in order, or none: one transaction of the cluster. */
static int commit(struct vs_genl_ctx *ctx, struct vs_nl_batch *b, struct vs_extack *ext)
{
	const struct nlattr *tb[VS_NLA_SET_MAX + 1];
	struct vs_nl_core *core = ctx->priv;
	const struct nlmsghdr *nlh;
	struct vs_txn txn;
	size_t mark;
	size_t off;
	int ret = 0;

	if (!b->nr)
		return 0;
	mark = vs_nl_events_mark(&core->events);
	vs_txn_begin(&txn, core->cl);
	/*
	 * The held messages, each checked and NLMSG_ALIGNed when it was held:
	 * not a datagram, so not bound by VS_MSG_MAX as vs_nl_iter_next() is
	 * (a batch of several megabytes held whole).
	 */
	for (off = 0; !ret && off < b->len; off += NLMSG_ALIGN(nlh->nlmsg_len)) {
		const struct genlmsghdr *g;
		const struct vs_genl_op *op;
		struct vs_extack mext = { 0 };

		nlh = (const struct nlmsghdr *)(b->buf + off);
		g = mnl_nlmsg_get_payload(nlh);
		op = vs_genl_op_find(&vs_genl_vsched, g->cmd);

		/*
		 * Checked against its policy when held, and the copy held is
		 * the batch's own: finding its attributes is enough. Walking
		 * the policy again cost a twentieth of a load's time.
		 */
		vs_nla_tb(nlh, GENL_HDRLEN, op->maxattr, tb);
		ret = vs_genl_mem_check(ctx, op, &mext);
		if (!ret)
			ret = apply(ctx, op, nlh, tb, &mext);
		if (!ret && vs_txn_broken(&txn))
			ret = vs_extack_fail(&mext, ENOMEM, "out of memory for the batch's undo "
					     "journal");
		if (ret)
			ret = failed(ext, nlh, op, tb, &mext, !vs_txn_abort(&txn));
	}
	/* A dry run that went through is undone as a failure is. */
	if (!ret && b->dry_run && vs_txn_abort(&txn))
		ret = vs_extack_fail(ext, EIO, "dry run applied, but undoing it failed (see the "
				     "log): the cluster may differ from what it was");
	if (ret || b->dry_run)
		vs_nl_events_rewind(&core->events, mark);	/* undone, it did not happen */
	else
		vs_txn_commit(&txn);
	vs_arena_reset(core->arena);
	return ret;
}

/* ---- the client's messages ---- */

/* VS_CMD_BATCH_BEGIN or VS_CMD_BATCH_END of vsched's family, else 0; nothing checked yet. */
static u8 batch_cmd(const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_type != VSCHED_GENL_ID || nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return 0;
	return g->cmd == VS_CMD_BATCH_BEGIN || g->cmd == VS_CMD_BATCH_END ? g->cmd : 0;
}

static int answer(struct vs_nl_reply *reply, const struct nlmsghdr *nlh, int ret,
		  struct vs_extack *ext)
{
	if (ret)
		vs_nl_reply_error(reply, nlh, ret, ext);
	else if (nlh->nlmsg_flags & NLM_F_ACK)
		vs_nl_reply_ack(reply, nlh);
	return ret;
}

static int begin(struct vs_genl_ctx *ctx, struct vs_nl_batch *b, const struct nlmsghdr *nlh,
		 struct vs_nl_reply *reply, struct vs_extack *ext)
{
	const struct nlattr *tb[VS_NLA_SET_MAX + 1];

	if (!check(ctx, nlh, tb, ext))
		return answer(reply, nlh, ext->error, ext);
	vs_nl_batch_release(b);
	b->open = true;
	b->dry_run = tb[VS_A_DRY_RUN] != NULL;
	b->begin_seq = nlh->nlmsg_seq;
	return answer(reply, nlh, 0, ext);
}

static int end(struct vs_genl_ctx *ctx, struct vs_nl_batch *b, const struct nlmsghdr *nlh,
	       struct vs_nl_reply *reply, struct vs_extack *ext)
{
	int ret;

	if (b->error)
		ret = vs_extack_fail(ext, b->error, "batch not applied: message seq %u was "
				     "refused: %s", b->error_seq, b->error_msg);
	else
		ret = commit(ctx, b, ext);
	vs_nl_batch_release(b);
	return answer(reply, nlh, ret, ext);
}

int vs_nl_rcv(struct vs_genl_ctx *ctx, struct vs_nl_batch *batch, const struct nlmsghdr *nlh,
	      struct vs_nl_reply *reply, struct vs_genl_dump *dump, struct vs_extack *ext)
{
	const struct nlattr *tb[VS_NLA_SET_MAX + 1];
	const struct vs_genl_op *op;
	const char *why;
	int ret;

	if (!batch->open) {
		switch (batch_cmd(nlh)) {
		case VS_CMD_BATCH_BEGIN:
			return begin(ctx, batch, nlh, reply, ext);
		case VS_CMD_BATCH_END:
			if (!check(ctx, nlh, tb, ext))
				return answer(reply, nlh, ext->error, ext);
			return answer(reply, nlh, vs_extack_fail(ext, EINVAL, "VS_CMD_BATCH_END "
				      "without VS_CMD_BATCH_BEGIN: no batch is open"), ext);
		}
		return vs_genl_rcv_msg(ctx, nlh, reply, dump, ext);
	}

	op = check(ctx, nlh, tb, ext);
	if (op && op->cmd == VS_CMD_BATCH_END)
		return end(ctx, batch, nlh, reply, ext);
	if (op && op->cmd == VS_CMD_BATCH_BEGIN)
		vs_extack_fail(ext, EINVAL, "a batch is open already (begun by message seq %u)",
			       batch->begin_seq);
	else if (op && (why = not_batchable(op->cmd)))
		vs_extack_fail(ext, EINVAL, "%s cannot be in a batch: %s", op->name, why);
	else if (op && !batch->error)
		hold(batch, nlh, ext);
	ret = ext->error;
	if (ret)
		doom(batch, nlh, ext);
	return answer(reply, nlh, ret, ext);
}
