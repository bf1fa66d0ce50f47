// SPDX-License-Identifier: Apache-2.0
/*
 * The protocol layer of vschedd: a client's datagram split into messages,
 * each handed to the dispatcher (through the client's batch, batch.h) and
 * answered; dumps carried on part by part as the client reads; and the
 * host operations the handlers call back (handlers.h): subscriptions,
 * cycles on request and the connection's receive queue.
 *
 * The answers to the messages of one datagram share reply datagrams while
 * there is room for the next answer (VSCHEDD_REPLY_ROOM), as the kernel
 * answers each message of a netlink batch in turn. A dump, as
 * netlink_dump() does, makes its next part only when the client has read
 * the part before: when its out-queue is empty. One dump runs at a time per
 * client; a second dump request meanwhile is answered EBUSY, as
 * netlink_dump_start() answers it, while other requests are served.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "daemon/vschedd.h"
#include "netlink/ctlconf.h"

/*
 * A request for a dump of a command that has one. Others with NLM_F_DUMP
 * are the dispatcher's to refuse (EOPNOTSUPP), busy or not, as genetlink
 * refuses them before netlink_dump_start() could say EBUSY.
 */
static bool is_dump(const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = (const void *)((const char *)nlh + NLMSG_HDRLEN);
	const struct vs_genl_op *op;

	if ((nlh->nlmsg_flags & NLM_F_DUMP) != NLM_F_DUMP || nlh->nlmsg_type != VSCHED_GENL_ID ||
	    nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return false;
	op = vs_genl_op_find(&vs_genl_vsched, g->cmd);
	return op && op->dumpit;
}

/* ---- the answers to one datagram ---- */

static void tx_begin(struct vschedd *d, struct vs_client *c)
{
	d->tx.c = c;
	vs_nl_reply_init(&d->tx.r, d->txbuf, VSCHEDD_REPLY_MAX, c->ctx.portid);
	d->tx.done = 0;
	d->tx.sent = 0;
}

/* Send the answers up to @upto that are not sent yet. */
static void tx_flush(struct vschedd *d, size_t upto)
{
	struct vschedd_tx *tx = &d->tx;

	if (upto > tx->sent)
		vschedd_send(d, tx->c, d->txbuf + tx->sent, upto - tx->sent, false);
	tx->sent = upto;
}

/* Before a message: a fresh reply datagram when its answer might not fit the room left. */
static void tx_room(struct vschedd *d)
{
	struct vschedd_tx *tx = &d->tx;

	if (tx->r.cap - tx->r.len >= VSCHEDD_REPLY_ROOM)
		return;
	tx_flush(d, tx->r.len);
	tx->r.len = 0;
	tx->done = 0;
	tx->sent = 0;
}

static void tx_end(struct vschedd *d)
{
	tx_flush(d, d->tx.r.len);
	d->tx.c = NULL;
}

void vschedd_tx_order(struct vschedd *d, struct vs_client *c)
{
	/* The message being answered may still take back what it added: only what came before goes. */
	if (d->tx.c == c)
		tx_flush(d, d->tx.done);
}

/* ---- messages ---- */

static void log_msg(const struct vs_client *c, const struct nlmsghdr *nlh, int ret,
		    const struct vs_extack *ext)
{
	const struct genlmsghdr *g = (const void *)((const char *)nlh + NLMSG_HDRLEN);
	const struct vs_genl_op *op = NULL;

	if (nlh->nlmsg_type == VSCHED_GENL_ID && nlh->nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN)
		op = vs_genl_op_find(&vs_genl_vsched, g->cmd);
	if (ret < 0)
		vs_v(2, "client %u: %s seq %u refused: %s (%s)", c->ctx.portid,
		     op ? op->name : "message", nlh->nlmsg_seq, ext->err.msg, strerror(-ret));
	else
		vs_v(4, "client %u: %s seq %u%s", c->ctx.portid, op ? op->name : "message",
		     nlh->nlmsg_seq, ret ? ": a dump begins" : "");
}

static void rcv_msg(struct vschedd *d, struct vs_client *c, const struct nlmsghdr *nlh)
{
	struct vs_nl_reply *r = &d->tx.r;
	struct vs_genl_dump scratch;
	struct vs_extack ext;
	int ret;

	vs_extack_clear(&ext);
	/* A batch refuses dumps itself, and that dooms it: leave those to it. */
	if (c->dump_req && is_dump(nlh) && !c->batch.open) {
		ret = vs_extack_fail(&ext, EBUSY, "a dump is under way on this connection "
				     "(message seq %u): read it to its end first",
				     c->dump_req->nlmsg_seq);
		vs_nl_reply_error(r, nlh, ret, &ext);
		log_msg(c, nlh, ret, &ext);
		return;
	}
	ret = vs_nl_rcv(&c->ctx, &c->batch, nlh, r, c->dump_req ? &scratch : &c->dump, &ext);
	log_msg(c, nlh, ret, &ext);
	if (ret != 1)
		return;
	/* Its first part is answered; the request is kept for the next ones. */
	c->dump_req = malloc(nlh->nlmsg_len);
	if (!c->dump_req) {
		vs_extack_clear(&ext);
		ret = vs_extack_fail(&ext, ENOMEM, "out of memory to go on with the dump");
		vs_nl_reply_done(r, nlh, ret, &ext);
		return;
	}
	memcpy(c->dump_req, nlh, nlh->nlmsg_len);
}

static void topology_sync(struct vschedd *d)
{
	struct vs_err err = { { 0 } };

	if (vs_nl_topology_sync(&d->core, &err))
		vs_warn("%s", err.msg);
}

void vschedd_rcv(struct vschedd *d, struct vs_client *c, const void *buf, size_t len)
{
	const struct nlmsghdr *nlh;
	struct vs_nl_iter it;
	struct vs_extack ext;
	int ret;

	/*
	 * @len may be the length of a datagram larger than the buffer
	 * (MSG_TRUNC): the iterator refuses it from its first header alone.
	 */
	tx_begin(d, c);
	vs_nl_iter_init(&it, buf, len);
	while (!c->dead) {
		vs_extack_clear(&ext);
		tx_room(d);
		ret = vs_nl_iter_next(&it, &nlh, &ext);
		if (!ret)
			break;
		if (ret < 0) {
			/* The rest cannot be split: answered once, and lost to a batch. */
			vs_nl_batch_doom(&c->batch, &it.bad, &ext);
			vs_nl_reply_error(&d->tx.r, &it.bad, ret, &ext);
			log_msg(c, &it.bad, ret, &ext);
			break;
		}
		rcv_msg(d, c, nlh);
		/* What the message changed is told before it is answered. */
		vschedd_notify_events(d);
		d->tx.done = d->tx.r.len;
	}
	tx_end(d);
	/*
	 * Label discovery follows what the datagram did to nodes and
	 * HyperNodes, once for all of it (a batch's END applied it whole).
	 */
	topology_sync(d);
	vschedd_notify_events(d);	/* what discovery did, to the events group */
	/* Once a datagram: a load of 100,000 requests must not cost 100,000 walks. */
	vschedd_self_check(d, "a datagram of requests");
	vschedd_dump_continue(d, c);
}

/* ---- dumps ---- */

void vschedd_dump_end(struct vs_client *c)
{
	if (c->dump_req)
		vs_genl_dump_done(c->dump_req, &c->dump);
	free(c->dump_req);
	c->dump_req = NULL;
}

void vschedd_dump_continue(struct vschedd *d, struct vs_client *c)
{
	struct vs_nl_reply r;
	struct vs_extack ext;
	int ret;

	for (int i = 0; i < VSCHEDD_BURST; i++) {
		/* A part only once the one before is read; never over answers being built. */
		if (!c->dump_req || c->dead || c->deaf || !list_empty(&c->outq) || d->tx.c)
			return;
		vs_nl_reply_init(&r, d->txbuf, VSCHEDD_REPLY_MAX, c->ctx.portid);
		vs_extack_clear(&ext);
		ret = vs_genl_dump_next(&c->ctx, c->dump_req, &r, &c->dump, &ext);
		if (ret != 1)
			vschedd_dump_end(c);
		vschedd_send(d, c, d->txbuf, r.len, false);
	}
}

/* ---- what the handlers call back ---- */

static int host_subscribe(struct vs_nl_core *core, struct vs_genl_info *info,
			  unsigned int group, bool join)
{
	struct vschedd *d = core->host_priv;

	if (info->ctx == &d->self)
		return vs_extack_fail(info->extack, EOPNOTSUPP, "the daemon subscribes to nothing");
	vschedd_client_subscribe(d, container_of(info->ctx, struct vs_client, ctx), group, join);
	return 0;
}

static int host_cycle_run(struct vs_nl_core *core, struct vs_genl_info *info)
{
	struct vschedd *d = core->host_priv;
	int ret = vschedd_cycle(d, &info->extack->err);

	if (ret)
		return vs_extack_fail(info->extack, ret, "the cycle failed");
	return vs_nl_cycle_reply(info, &core->ctl.last_cycle);
}

static int host_conn_get(struct vs_nl_core *core, struct vs_genl_info *info,
			 struct vs_nl_conn *conn)
{
	struct vschedd *d = core->host_priv;
	struct vs_client *c;

	if (info->ctx == &d->self)
		return vs_extack_fail(info->extack, EOPNOTSUPP, "the daemon has no connection");
	c = container_of(info->ctx, struct vs_client, ctx);
	conn->rcvbuf = vschedd_client_rcvbuf(d, c);
	conn->rcvbuf_max = d->rcvbuf_max;
	conn->portid = c->ctx.portid;
	conn->hold = c->hold;
	return 0;
}

static int host_conn_set(struct vs_nl_core *core, struct vs_genl_info *info,
			 const struct vs_nl_conn *conn)
{
	struct vschedd *d = core->host_priv;
	struct vs_client *c = container_of(info->ctx, struct vs_client, ctx);

	if (conn->rcvbuf != vschedd_client_rcvbuf(d, c))
		vschedd_client_set_rcvbuf(d, c, conn->rcvbuf);
	vschedd_client_hold(d, c, conn->hold);
	return 0;
}

const struct vs_nl_host_ops vschedd_host_ops = {
	.subscribe = host_subscribe,
	.cycle_run = host_cycle_run,
	.conn_get = host_conn_get,
	.conn_set = host_conn_set,
};
