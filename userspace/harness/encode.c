// SPDX-License-Identifier: Apache-2.0
/*
 * A harness cluster as the requests that make it in a daemon. See encode.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "core/cluster.h"
#include "harness/encode.h"
#include "netlink/fill.h"

static const char *const kind_what[] = {
	[HARNESS_PRIOCLASS] = "priority class",
	[HARNESS_QUEUE] = "queue",
	[HARNESS_NODE] = "node",
	[HARNESS_PODGROUP] = "PodGroup",
	[HARNESS_TASK] = "task",
	[HARNESS_HYPERNODE] = "HyperNode",
};

/* The walk: where the requests are written, and who takes them. */
struct encoder {
	void *buf;
	size_t cap;
	harness_msg_fn fn;
	void *arg;
	struct vsnl_err *err;
};

/* The request of @cmd for the object @obj, @fill's, handed on. */
static int encode(struct encoder *enc, u8 cmd, enum harness_kind kind, const char *ns,
		  const char *name, bool (*fill)(struct nlmsghdr *, size_t, const void *),
		  const void *obj)
{
	struct nlmsghdr *nlh = vsnl_msg_put(enc->buf, enc->cap, cmd, 0);
	struct harness_msg msg = { .nlh = nlh, .kind = kind, .what = kind_what[kind],
				   .ns = ns, .name = name };

	if (!nlh || !fill(nlh, enc->cap, obj))
		return vsnl_err_set(enc->err, EMSGSIZE, "%s %s does not fit in a message",
				    msg.what, name);
	return enc->fn(&msg, enc->arg);
}

/* The fills, each with the object's own type, through one signature. */
#define FILL(_fn, _type)							\
	static bool fill_##_fn(struct nlmsghdr *nlh, size_t cap, const void *obj)	\
	{									\
		return vs_nl_put_##_fn##_spec(nlh, cap, (const _type *)obj);	\
	}
FILL(prioclass, struct vs_prioclass)
FILL(queue, struct vs_queue)
FILL(node, struct vs_node)
FILL(podgroup, struct vs_job)
FILL(task, struct vs_task)
FILL(hypernode, struct vs_hypernode)
#undef FILL

/*
 * A queue's spec with VS_QUEUE_A_STATE Open: the state written by the fill
 * is rewritten in the message, and the cluster stays as it was loaded.
 */
static bool fill_queue_open(struct nlmsghdr *nlh, size_t cap, const void *obj)
{
	struct nlattr *top, *a;

	if (!fill_queue(nlh, cap, obj))
		return false;
	mnl_attr_for_each(top, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(top) != VS_A_QUEUE)
			continue;
		mnl_attr_for_each_nested(a, top) {
			if (mnl_attr_get_type(a) == VS_QUEUE_A_STATE &&
			    mnl_attr_get_payload_len(a) == sizeof(u32)) {
				*(u32 *)mnl_attr_get_payload(a) = VS_QUEUE_STATE_OPEN;
				return true;
			}
		}
	}
	/* a queue not Open whose spec has no state: nothing the daemon would make right */
	return false;
}

static int cmp_task_seq(const void *a, const void *b)
{
	const struct vs_task *x = *(const struct vs_task *const *)a;
	const struct vs_task *y = *(const struct vs_task *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Whether the PodGroups' lists, one after the other, hold the tasks in
 * creation order: a generated cluster makes each PodGroup's tasks after the
 * one before's; a scenario's file may interleave them.
 */
static bool tasks_in_order(const struct vs_cluster *cl)
{
	const struct vs_job *job;
	const struct vs_task *t;
	u64 last = 0;

	list_for_each_entry(job, &cl->jobs, list) {
		list_for_each_entry(t, &job->tasks, job_node) {
			if (t->seq < last)
				return false;
			last = t->seq;
		}
	}
	return true;
}

/* Every task of @cl, sorted by creation order; their number in *@nr. */
static const struct vs_task **tasks_sorted(const struct vs_cluster *cl, u32 *nr)
{
	const struct vs_task **v = malloc((cl->nr_tasks + 1) * sizeof(*v));
	const struct vs_job *job;
	const struct vs_task *t;
	u32 n = 0;

	if (!v)
		return NULL;
	list_for_each_entry(job, &cl->jobs, list)
		list_for_each_entry(t, &job->tasks, job_node)
			v[n++] = t;
	qsort(v, n, sizeof(*v), cmp_task_seq);
	*nr = n;
	return v;
}

static int encode_task(struct encoder *enc, const struct vs_task *t)
{
	return encode(enc, VS_CMD_TASK_NEW, HARNESS_TASK, t->ns, t->name, fill_task, t);
}

/* The tasks in creation order, across PodGroups. */
static int encode_tasks(struct encoder *enc, const struct vs_cluster *cl)
{
	const struct vs_task **tasks;
	const struct vs_job *job;
	const struct vs_task *t;
	u32 nr;
	int ret = 0;

	if (tasks_in_order(cl)) {
		list_for_each_entry(job, &cl->jobs, list)
			list_for_each_entry(t, &job->tasks, job_node)
				if ((ret = encode_task(enc, t)))
					return ret;
		return 0;
	}
	tasks = tasks_sorted(cl, &nr);
	if (!tasks)
		return vsnl_err_set(enc->err, ENOMEM, "out of memory");
	for (u32 i = 0; i < nr && !ret; i++)
		ret = encode_task(enc, tasks[i]);
	free(tasks);
	return ret;
}

int harness_encode_cluster(const struct vs_cluster *cl, void *buf, size_t cap,
			   harness_msg_fn fn, void *arg, struct vsnl_err *err)
{
	struct encoder enc = { .buf = buf, .cap = cap, .fn = fn, .arg = arg, .err = err };
	const struct vs_prioclass *pc;
	const struct vs_queue *q;
	const struct vs_node *n;
	const struct vs_hypernode *hn;
	const struct vs_job *j;
	int ret;

	list_for_each_entry(pc, &cl->prioclasses, list)
		if ((ret = encode(&enc, VS_CMD_PRIOCLASS_NEW, HARNESS_PRIOCLASS, NULL, pc->name,
				  fill_prioclass, pc)))
			return ret;
	list_for_each_entry(q, &cl->queues, list)
		if ((ret = encode(&enc, VS_CMD_QUEUE_NEW, HARNESS_QUEUE, NULL, q->name,
				  q->state == VS_QUEUE_OPEN ? fill_queue : fill_queue_open, q)))
			return ret;
	list_for_each_entry(n, &cl->nodes, list)
		if ((ret = encode(&enc, VS_CMD_NODE_NEW, HARNESS_NODE, NULL, n->name, fill_node,
				  n)))
			return ret;
	/* creation order: of two claims of one HyperNode, the older claimer's wins */
	list_for_each_entry(hn, &cl->hypernodes.list, list)
		if ((ret = encode(&enc, VS_CMD_HYPERNODE_NEW, HARNESS_HYPERNODE, NULL, hn->name,
				  fill_hypernode, hn)))
			return ret;
	list_for_each_entry(j, &cl->jobs, list)
		if ((ret = encode(&enc, VS_CMD_PODGROUP_NEW, HARNESS_PODGROUP, j->ns, j->name,
				  fill_podgroup, j)))
			return ret;
	ret = encode_tasks(&enc, cl);
	if (ret)
		return ret;
	list_for_each_entry(q, &cl->queues, list)
		if (q->state != VS_QUEUE_OPEN &&
		    (ret = encode(&enc, VS_CMD_QUEUE_SET, HARNESS_QUEUE, NULL, q->name, fill_queue,
				  q)))
			return ret;
	return 0;
}

unsigned long harness_encode_nr(const struct vs_cluster *cl)
{
	unsigned long n = (unsigned long)cl->nr_prioclasses + cl->nr_queues + cl->nr_nodes +
			  cl->hypernodes.nr + cl->nr_jobs + cl->nr_tasks;
	const struct vs_queue *q;

	list_for_each_entry(q, &cl->queues, list)
		n += q->state != VS_QUEUE_OPEN;
	return n;
}
