/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A cluster the harness built in-process (a loaded scenario, a synthetic
 * cluster of the generator) as the requests that make it in a daemon: the
 * one encoder of "vsbench load", "vsbench run --mode socket" and "vsctl
 * scenario run --socket". Each object's request is written by the core's
 * own fills (the _spec ones, what a NEW takes), so that the daemon gets
 * exactly the objects the in-process core holds; the programs send the
 * messages and never see a core header.
 *
 * The order is the one the daemon needs: priority classes, queues, nodes,
 * HyperNodes, PodGroups, then tasks, each kind in the order the in-process core created
 * its objects (a task's in its creation order across PodGroups). A queue
 * that is not Open admits no PodGroup (Volcano's admission, which vschedd
 * applies to every PodGroup created): it is created Open, and set to its
 * state by a SET after the last task.
 */
#ifndef HARNESS_ENCODE_H
#define HARNESS_ENCODE_H

#include <stddef.h>
#include <linux/netlink.h>

#include "lib/vsnl.h"

/* The harness's cluster: vsbench_build()'s, or a loaded scenario's. */
struct vs_cluster;

enum harness_kind {
	HARNESS_PRIOCLASS,
	HARNESS_QUEUE,
	HARNESS_NODE,
	HARNESS_PODGROUP,
	HARNESS_TASK,
	HARNESS_HYPERNODE,
};

/* One request, and what it makes, to name it in messages. */
struct harness_msg {
	const struct nlmsghdr *nlh;	/* in the caller's buffer, until the callback returns */
	enum harness_kind kind;
	const char *what;		/* "priority class", "queue", "node", "HyperNode", "PodGroup", "task" */
	const char *ns;			/* NULL for a priority class, queue, node or HyperNode */
	const char *name;		/* the object's own; both live as long as the cluster */
};

/*
 * Called with each request in turn; 0 to go on, anything else stops the
 * walk and is returned as it is.
 */
typedef int (*harness_msg_fn)(const struct harness_msg *msg, void *arg);

/*
 * Write each request of @cl into @buf (@cap bytes, aligned for a struct
 * nlmsghdr; VS_MSG_MAX holds any object) and hand it to @fn. 0, what @fn
 * returned, or -errno with @err saying what (an object that does not fit:
 * "queue q1 does not fit in a message"; out of memory); @err is set only
 * by the encoder, never for @fn's own return.
 */
int harness_encode_cluster(const struct vs_cluster *cl, void *buf, size_t cap,
			   harness_msg_fn fn, void *arg, struct vsnl_err *err);

/* The requests harness_encode_cluster() makes of @cl: its objects and the queue SETs. */
unsigned long harness_encode_nr(const struct vs_cluster *cl);

#endif /* HARNESS_ENCODE_H */
