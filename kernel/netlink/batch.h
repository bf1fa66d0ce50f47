/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Batches, as nftables applies them: the messages a client sends between
 * VS_CMD_BATCH_BEGIN and VS_CMD_BATCH_END, in one datagram or several, are
 * checked as they arrive (framing, command, permission, policy) and held,
 * copied; END applies them in order, all or none, in one transaction of
 * the core (core/txn.h). When one of them fails, the transaction is
 * aborted, which puts back everything the batch changed before it, down to
 * the objects' creation order, and END's error names the message by its
 * sequence number and the object by its key.
 *
 * A batch belongs to one connection: the daemon keeps a struct vs_nl_batch
 * per client, passes every message of that client through vs_nl_rcv()
 * instead of vs_genl_rcv_msg(), and calls vs_nl_batch_release() when the
 * client goes (a batch left open is dropped, never applied).
 *
 * A batch begun with VS_A_DRY_RUN is a dry run: END applies it as above,
 * answers as it would, and then aborts the transaction even when every
 * message was applied, so that nothing changes and no event goes out.
 *
 * In a batch: NEW, SET and DEL of nodes, queues, PodGroups, tasks,
 * VolcanoJobs and priority classes, VS_CMD_TASK_STATUS and
 * VS_CMD_BIND_RESULT. Anything else is refused (Documentation/protocol.md,
 * "Batches").
 */
#ifndef VS_NETLINK_BATCH_H
#define VS_NETLINK_BATCH_H

#include "netlink/family.h"

/* The most a batch holds: the bytes of its messages. */
#define VS_NL_BATCH_MAX		(64u << 20)

/* One client's batch: all zeroes is "no batch open". */
struct vs_nl_batch {
	bool open;
	bool dry_run;			/* begun with VS_A_DRY_RUN: END undoes it */
	u32 begin_seq;			/* nlmsg_seq of its VS_CMD_BATCH_BEGIN */
	char *buf;			/* the held messages, back to back, NLMSG_ALIGNed */
	size_t len;
	size_t cap;
	u32 nr;				/* messages held */
	/*
	 * The first message refused while the batch was open: it was
	 * answered with its error at once, and END will apply nothing.
	 */
	int error;			/* its negative errno; 0 while none was refused */
	u32 error_seq;
	char error_msg[VS_ERR_MSG_MAX];
};

/*
 * Handle one message of a client (from vs_nl_iter_next()), as
 * vs_genl_rcv_msg() does, with the same returns and the same answers in
 * @reply: outside a batch, everything but VS_CMD_BATCH_BEGIN and
 * VS_CMD_BATCH_END goes to vs_genl_rcv_msg(); inside one, a message is
 * held (and acked if it asks: accepted into the batch) or refused, and END
 * answers for the whole batch.
 */
int vs_nl_rcv(struct vs_genl_ctx *ctx, struct vs_nl_batch *batch, const struct nlmsghdr *nlh,
	      struct vs_nl_reply *reply, struct vs_genl_dump *dump, struct vs_extack *ext);

/* Drop the batch (its client went): nothing of it is applied. */
void vs_nl_batch_release(struct vs_nl_batch *batch);

/*
 * A datagram of the client could not be split further (vs_nl_iter_next()
 * failed, its rest is lost): if a batch is open, it is doomed as if the
 * message @nlh (the iterator's bad header) had been refused with @ext, so
 * that END does not apply a batch that lost messages.
 */
void vs_nl_batch_doom(struct vs_nl_batch *batch, const struct nlmsghdr *nlh,
		      const struct vs_extack *ext);

/*
 * VS_CMD_BATCH_BEGIN and VS_CMD_BATCH_END in vs_genl_ops[]: reached only
 * when a request bypasses vs_nl_rcv(), which has the client's batch; they
 * answer EOPNOTSUPP.
 */
int vs_nl_batch_doit(struct vs_genl_info *info);

#endif /* VS_NETLINK_BATCH_H */
