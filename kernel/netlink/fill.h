/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Objects as attributes: what GET replies, dumps and notifications carry
 * (uapi/vsched/vsched.h, Documentation/protocol.md).
 *
 * Each vs_nl_put_*() appends one nested attribute to the message @nlh in a
 * buffer of @cap bytes and returns true, or returns false and leaves the
 * message exactly as it was when the buffer has no room: a dump then ends
 * its part there and resumes with the same object in the next one.
 *
 * The _spec variants write only what the object's NEW request takes (no
 * read-only attribute: no idle, allocated, counts or conditions), so that
 * the message replays the object: checkpoints, "vsctl dump", and loading a
 * generated cluster into a daemon.
 */
#ifndef VS_NETLINK_FILL_H
#define VS_NETLINK_FILL_H

#include <linux/netlink.h>

#include "core/cluster.h"
#include "core/vjob.h"

bool vs_nl_put_res(struct nlmsghdr *nlh, size_t cap, const struct vs_res_dims *dims, u16 type,
		   const struct vs_res *r);
bool vs_nl_put_node(struct nlmsghdr *nlh, size_t cap, const struct vs_node *node);
bool vs_nl_put_queue(struct nlmsghdr *nlh, size_t cap, const struct vs_queue *queue);
bool vs_nl_put_podgroup(struct nlmsghdr *nlh, size_t cap, const struct vs_job *job);
bool vs_nl_put_task(struct nlmsghdr *nlh, size_t cap, const struct vs_task *task);
bool vs_nl_put_prioclass(struct nlmsghdr *nlh, size_t cap, const struct vs_prioclass *pc);
bool vs_nl_put_vjob(struct nlmsghdr *nlh, size_t cap, const struct vs_vjob *vjob);
bool vs_nl_put_hypernode(struct nlmsghdr *nlh, size_t cap, const struct vs_hypernode *hn);

/*
 * What the status group tells (netlink/writeback.h): a PodGroup's status
 * (phase, conditions, task counts; @fit_error when not NULL), a task's
 * PodScheduled condition, a queue's allocated resources.
 */
bool vs_nl_put_podgroup_status(struct nlmsghdr *nlh, size_t cap, const struct vs_job *job,
			       const char *fit_error);
bool vs_nl_put_task_sched(struct nlmsghdr *nlh, size_t cap, const struct vs_task *task,
			  const char *reason, const char *message);
bool vs_nl_put_queue_allocated(struct nlmsghdr *nlh, size_t cap, const struct vs_queue *queue,
			       const struct vs_res *allocated);

bool vs_nl_put_node_spec(struct nlmsghdr *nlh, size_t cap, const struct vs_node *node);
bool vs_nl_put_queue_spec(struct nlmsghdr *nlh, size_t cap, const struct vs_queue *queue);
bool vs_nl_put_podgroup_spec(struct nlmsghdr *nlh, size_t cap, const struct vs_job *job);
bool vs_nl_put_task_spec(struct nlmsghdr *nlh, size_t cap, const struct vs_task *task);
bool vs_nl_put_prioclass_spec(struct nlmsghdr *nlh, size_t cap, const struct vs_prioclass *pc);
bool vs_nl_put_vjob_spec(struct nlmsghdr *nlh, size_t cap, const struct vs_vjob *vjob);
bool vs_nl_put_hypernode_spec(struct nlmsghdr *nlh, size_t cap, const struct vs_hypernode *hn);
/* The spec and the state the job controller keeps (VS_VJOB_A_STATE): a checkpoint's. */
bool vs_nl_put_vjob_checkpoint(struct nlmsghdr *nlh, size_t cap, const struct vs_vjob *vjob);

#endif /* VS_NETLINK_FILL_H */
