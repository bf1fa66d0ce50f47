// SPDX-License-Identifier: Apache-2.0
/*
 * The status group's messages: see writeback.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "core/log.h"
#include "netlink/events.h"
#include "netlink/fill.h"
#include "netlink/handlers.h"
#include "netlink/writeback.h"
#include "sched/fiterr.h"

/* Room for a FitError or a task's message; Volcano's have no bound, these are cut there. */
#define WB_MSG_MAX	4096

/* NULL hashes as "". */
static u32 hash_str(const char *s, u32 seed)
{
	return s ? vs_hash_bytes(s, strlen(s) + 1, seed) : vs_hash_bytes("", 1, seed);
}

/* A digest is never 0: 0 means "nothing told yet". */
static u32 nonzero(u32 h)
{
	return h ? h : 1;
}

const char *vs_nl_task_sched_reason(const struct vs_task *task, const char *job_fit_error,
				    char *buf, size_t len, const char **message)
{
	const struct vs_task_note *n = task->note;
	enum vs_task_status st = vs_task_last_tx_status(task);
	const struct vs_node *node = n && n->has_last_tx ? n->last_tx_node : task->node;

	switch (st) {
	case VS_TASK_ALLOCATED:
		snprintf(buf, len, "Pod %s/%s can possibly be assigned to %s, once minAvailable "
			 "is satisfied", task->ns, task->name, node ? node->name : "");
		*message = buf;
		return "Schedulable";
	case VS_TASK_PIPELINED:
		snprintf(buf, len, "Pod %s/%s can possibly be assigned to %s, once resource is "
			 "released and minAvailable is satisfied", task->ns, task->name,
			 node ? node->name : "");
		*message = buf;
		return "Unschedulable";
	case VS_TASK_PENDING:
		if (n && n->fit) {
			vs_fit_errors_format(n->fit, buf, len);
			*message = buf;
		} else {
			*message = job_fit_error;
		}
		return "Unschedulable";
	default:
		*message = job_fit_error;
		return vs_task_status_name(st);
	}
}

/* ---- PodGroups and their tasks ---- */

struct pg_arg {
	const struct vs_job *job;
	const char *fit_error;
};

static bool put_pg(struct nlmsghdr *nlh, size_t room, const void *arg)
{
	const struct pg_arg *a = arg;

	return vs_nl_put_podgroup_status(nlh, room, a->job, a->fit_error);
}

struct sched_arg {
	const struct vs_task *task;
	const char *reason, *message;
};

static bool put_sched(struct nlmsghdr *nlh, size_t room, const void *arg)
{
	const struct sched_arg *a = arg;

	return vs_nl_put_task_sched(nlh, room, a->task, a->reason, a->message);
}

/*
 * What Volcano compares of a PodGroup's status (isPodGroupStatusUpdated):
 * the phase, the running, succeeded and failed counts, the conditions
 * without their times; and the FitError its Unschedulable event tells.
 */
static u32 pg_digest(const struct vs_job *job, const char *fit_error)
{
	u32 h = vs_hash_u64(job->phase);

	h = vs_hash_combine(h, job->nr_by_status[VS_TASK_RUNNING]);
	h = vs_hash_combine(h, job->nr_by_status[VS_TASK_SUCCEEDED]);
	h = vs_hash_combine(h, job->nr_by_status[VS_TASK_FAILED]);
	for (unsigned int t = 0; t < VS_PG_COND_NR; t++) {
		const struct vs_pg_condition *c = &job->cond[t];

		if (!c->set)
			continue;
		h = vs_hash_combine(h, t << 1 | c->status);
		h = hash_str(vs_pg_cond_reason(c), h);
		h = hash_str(vs_pg_cond_message(c), h);
	}
	if (fit_error)
		h = hash_str(fit_error, h);
	return nonzero(h);
}

static bool pg_unschedulable(const struct vs_job *job)
{
	return job->phase == VS_PG_PENDING || job->phase == VS_PG_INQUEUE ||
	       job->phase == VS_PG_UNKNOWN;
}

static const enum vs_task_status sched_statuses[] = {
	VS_TASK_ALLOCATED, VS_TASK_PENDING, VS_TASK_PIPELINED,
};

void vs_nl_writeback_job(struct vs_nl_core *core, struct vs_job *job)
{
	struct vs_nl_events *ev = &core->status;
	char fit_error[WB_MSG_MAX], buf[WB_MSG_MAX];
	bool unsched = pg_unschedulable(job);
	struct sched_arg sa;
	struct vs_task *t;
	u32 d;

	if (!ev->on)
		return;
	fit_error[0] = '\0';
	for (unsigned int i = 0; i < ARRAY_SIZE(sched_statuses); i++)
		if (job->nr_by_status[sched_statuses[i]])
			unsched = true;
	/* The job's FitError(): for the PodGroup's event and the tasks without a message. */
	if (unsched)
		vs_job_fit_error(job, fit_error, sizeof(fit_error));

	d = pg_digest(job, pg_unschedulable(job) ? fit_error : NULL);
	if (d != job->status_digest) {
		struct pg_arg a = { job, pg_unschedulable(job) ? fit_error : NULL };

		if (vs_nl_events_put(ev, VS_CMD_STATUS, VS_EVENT_STATUS, put_pg, &a))
			job->status_digest = d;
	}

	for (unsigned int i = 0; i < ARRAY_SIZE(sched_statuses); i++) {
		list_for_each_entry(t, &job->by_status[sched_statuses[i]], status_node) {
			/*
			 * The API server gives a gated pod its SchedulingGated
			 * condition: Volcano's cache leaves it alone.
			 */
			if (t->gated)
				continue;
			sa.task = t;
			sa.reason = vs_nl_task_sched_reason(t, fit_error, buf, sizeof(buf),
							    &sa.message);
			d = nonzero(hash_str(vs_task_nominated(t),
					     hash_str(sa.message, hash_str(sa.reason, 0))));
			if (d == t->sched_digest)
				continue;
			if (vs_nl_events_put(ev, VS_CMD_STATUS, VS_EVENT_UNSCHEDULABLE, put_sched, &sa))
				t->sched_digest = d;
		}
	}
}

/* ---- queues ---- */

struct queue_arg {
	const struct vs_queue *queue;
	const struct vs_res *allocated;
};

static bool put_queue(struct nlmsghdr *nlh, size_t room, const void *arg)
{
	const struct queue_arg *a = arg;

	return vs_nl_put_queue_allocated(nlh, room, a->queue, a->allocated);
}

static u32 res_digest(const struct vs_res *r)
{
	return nonzero(vs_hash_combine(vs_hash_bytes(r->v, sizeof(r->v), 0), r->present));
}

struct qsum {
	struct vs_queue *queue;
	struct vs_res sum;
};

static int cmp_qsum(const void *a, const void *b)
{
	const struct vs_queue *x = ((const struct qsum *)a)->queue;
	const struct vs_queue *y = ((const struct qsum *)b)->queue;

	return x < y ? -1 : x > y;
}

static struct qsum *qsum_of(struct qsum *qs, u32 n, const struct vs_queue *q)
{
	struct qsum key = { .queue = (struct vs_queue *)q };

	return q ? bsearch(&key, qs, n, sizeof(*qs), cmp_qsum) : NULL;
}

/*
 * Each queue's allocated, with its descendants' when a queue named "root"
 * exists: every queue adds its own to each ancestor, up to root (a queue
 * without a parent is root's child); a cycle of parents stops after as
 * many steps as there are queues.
 */
static struct qsum *queue_sums(struct vs_cluster *cl, u32 *nr)
{
	struct vs_queue *q, *root = vs_queue_find(cl, "root");
	struct qsum *qs = malloc((cl->nr_queues ? cl->nr_queues : 1) * sizeof(*qs));
	u32 n = 0;

	if (!qs)
		return NULL;
	list_for_each_entry(q, &cl->queues, list)
		qs[n++] = (struct qsum){ q, q->allocated };
	qsort(qs, n, sizeof(*qs), cmp_qsum);
	for (u32 i = 0; root && i < n; i++) {
		const struct vs_queue *a = qs[i].queue;

		for (u32 depth = 0; a != root && depth < n; depth++) {
			struct qsum *up;

			a = a->parent ? vs_queue_find(cl, a->parent) : root;
			up = qsum_of(qs, n, a);
			if (!up)
				break;
			vs_res_add(&up->sum, &qs[i].queue->allocated);
		}
	}
	*nr = n;
	return qs;
}

void vs_nl_writeback_queues(struct vs_nl_core *core)
{
	struct vs_queue *q;
	struct qsum *qs;
	u32 n, d;

	if (!core->status.on)
		return;
	qs = queue_sums(core->cl, &n);
	if (!qs) {
		vs_error("status: out of memory summing the queues' allocated resources");
		return;
	}
	/* In creation order, as the queues' other events. */
	list_for_each_entry(q, &core->cl->queues, list) {
		struct qsum *qsum = qsum_of(qs, n, q);
		struct queue_arg a;

		if (!qsum)
			continue;	/* cannot be: every queue is in qs */
		a = (struct queue_arg){ q, &qsum->sum };
		d = res_digest(&qsum->sum);
		if (d != q->status_digest && vs_nl_events_put(&core->status, VS_CMD_STATUS,
							      VS_EVENT_STATUS, put_queue, &a))
			q->status_digest = d;
	}
	free(qs);
}
