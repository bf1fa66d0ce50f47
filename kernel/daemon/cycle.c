// SPDX-License-Identifier: Apache-2.0
/*
 * vschedd's cycles: one scheduling cycle (vs_nl_cycle_run(), which times
 * each action and keeps the cycle's numbers for VS_CMD_STATS_GET), the
 * decision sink that sees its commits, and what follows a cycle: its
 * decisions to the decisions group, the standalone binder, the cycle to
 * the cycles group.
 *
 * The standalone binder (--binder=auto, or by default while no connection
 * with the admin permission subscribes to decisions: a reader's
 * subscription listens and changes nothing) plays the cluster's part for
 * each bind: it answers VS_CMD_BIND_RESULT "bound", as a binder would, then
 * VS_CMD_TASK_STATUS "running", as the kubelet's report would come; and
 * for each eviction VS_CMD_TASK_STATUS "deleted", as the pod's going
 * would be reported once its kubelet stopped it. All are real requests of
 * the daemon's own (an admin context of port 0) through the dispatcher,
 * so what is confirmed here takes exactly the path an external binder's
 * reports take, checks included.
 *
 * An external binder has --bind-timeout to answer each bind: a bind left
 * without a result past it fails as a failed VS_CMD_BIND_RESULT does (a
 * request of the daemon's own, error ETIMEDOUT), so the task leaves its
 * node and is retried after its backoff. The binds wait in the bind
 * pipeline's ring (bind/bind.h), on CLOCK_MONOTONIC (vs_nl_now_ns()); it
 * is the daemon's only in how a timed-out bind is failed and told.
 */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/bind.h"
#include "core/log.h"
#include "daemon/vschedd.h"
#include "netlink/writeback.h"

/* A request of the daemon's own: three names, two integers and a short message in one nest. */
#define SELF_TEXT_MAX	64
#define SELF_MSG_MAX	(NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN + \
			 3 * (NLA_HDRLEN + NLA_ALIGN(VS_NAME_MAX)) + 2 * (NLA_HDRLEN + 4) + \
			 NLA_HDRLEN + SELF_TEXT_MAX)

bool vschedd_binder_auto(const struct vschedd *d)
{
	switch (d->opts.binder) {
	case VSCHEDD_BINDER_AUTO:
		return true;
	case VSCHEDD_BINDER_EXTERNAL:
		return false;
	case VSCHEDD_BINDER_DEFAULT:
		break;
	}
	return !d->nr_binders;
}

/* ---- tasks to act on later ---- */

/* Keep @task in @v for after the cycle. */
static int ref_push(struct vs_task_ref **v, size_t *nr, size_t *cap, const struct vs_task *task)
{
	if (*nr == *cap) {
		size_t n = *cap ? 2 * *cap : 1024;
		struct vs_task_ref *p = realloc(*v, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		*v = p;
		*cap = n;
	}
	vs_task_ref_take(&(*v)[(*nr)++], task);
	return 0;
}

/* ---- binds waiting for their result ---- */

static int fail_bind(struct vschedd *d, const struct vs_task *task);

int vschedd_binds_expire(struct vschedd *d)
{
	u64 now = vs_nl_now_ns(&d->core);
	struct vs_task *task;

	while ((task = vs_binds_next_expired(&d->waits, now))) {
		fail_bind(d, task);
		vschedd_self_check(d, "a bind that timed out");
	}
	return vs_binds_next_ms(&d->waits, now);
}

/* ---- the decision sink ---- */

static void sink_bind(void *ctx, struct vs_task *task, struct vs_node *node)
{
	struct vschedd *d = ctx;

	vschedd_notify_decision(d, VS_DECISION_BIND, task, node->name, NULL);
	vs_nl_event(&d->core, VS_EVENT_STATUS, VS_A_TASK, task);
	/* Subscriptions change only between requests: the binder's mode holds for the cycle. */
	if (!vschedd_binder_auto(d)) {
		if (vs_binds_wait(&d->waits, task, vs_nl_now_ns(&d->core)))
			vs_error("out of memory: the bind of task %s/%s has no timeout; it stays "
				 "Binding until its result comes", task->ns, task->name);
		return;
	}
	if (ref_push(&d->binds, &d->nr_binds, &d->cap_binds, task))
		vs_error("out of memory: the bind of task %s/%s to node %s is not confirmed; it "
			 "stays Binding", task->ns, task->name, node->name);
}

static void sink_evict(void *ctx, struct vs_task *task, const char *reason)
{
	struct vschedd *d = ctx;

	vschedd_notify_decision(d, VS_DECISION_EVICT, task,
				task->node ? task->node->name : NULL, reason);
	vs_nl_event(&d->core, VS_EVENT_STATUS, VS_A_TASK, task);
	if (vschedd_binder_auto(d) &&
	    ref_push(&d->evicts, &d->nr_evicts, &d->cap_evicts, task))
		vs_error("out of memory: the eviction of task %s/%s is not carried out; it "
			 "stays Releasing", task->ns, task->name);
}

/* Told to the decisions group only: a pipeline binds nothing and ends with the session. */
static void sink_pipeline(void *ctx, struct vs_task *task, struct vs_node *node)
{
	vschedd_notify_decision(ctx, VS_DECISION_PIPELINE, task, node->name, NULL);
}

/* The job updater's writes, to the status group. */
static void sink_job_status(void *ctx, struct vs_job *job)
{
	struct vschedd *d = ctx;

	vs_nl_writeback_job(&d->core, job);
}

void vschedd_sink_init(struct vschedd *d)
{
	d->sched.sink = (struct vs_decision_sink) {
		.bind = sink_bind,
		.evict = sink_evict,
		.pipeline = sink_pipeline,
		.job_status = sink_job_status,
		.ctx = d,
	};
}

/* ---- the standalone binder ---- */

/* A request of @cmd with its nest of @nest_type opened. */
static struct nlmsghdr *self_msg(void *buf, u8 cmd, u16 nest_type, struct nlattr **nest)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	/* libmnl 1.0.4 leaves attributes' padding as it finds it (msg.h, vs_nla_put()). */
	memset(buf, 0, SELF_MSG_MAX);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = VSCHED_GENL_ID;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = VSCHED_GENL_VERSION;
	*nest = mnl_attr_nest_start(nlh, nest_type);
	return nlh;
}

/* Hand the daemon's own request to the dispatcher; its answer is only looked at for an error. */
static int self_request(struct vschedd *d, const struct nlmsghdr *nlh, struct vs_extack *ext)
{
	alignas(NLMSG_ALIGNTO) unsigned char buf[NLMSG_HDRLEN + sizeof(struct nlmsgerr) +
						 SELF_MSG_MAX + VS_NL_ERROR_MIN];
	struct vs_nl_reply r;

	vs_nl_reply_init(&r, buf, sizeof(buf), d->self.portid);
	vs_extack_clear(ext);
	return vs_genl_rcv_msg(&d->self, nlh, &r, NULL, ext);
}

/* A bind succeeded and the pod runs: what a binder and a kubelet would report. */
static int confirm_bind(struct vschedd *d, const struct vs_task *task)
{
	alignas(NLMSG_ALIGNTO) unsigned char buf[SELF_MSG_MAX];
	struct vs_extack ext;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int ret;

	nlh = self_msg(buf, VS_CMD_BIND_RESULT, VS_A_BIND_RESULT, &nest);
	mnl_attr_put_strz(nlh, VS_BIND_A_NAMESPACE, task->ns);
	mnl_attr_put_strz(nlh, VS_BIND_A_NAME, task->name);
	mnl_attr_put_strz(nlh, VS_BIND_A_NODE, task->node->name);
	mnl_attr_put_u32(nlh, VS_BIND_A_ERROR, 0);
	mnl_attr_nest_end(nlh, nest);
	ret = self_request(d, nlh, &ext);
	if (!ret) {
		nlh = self_msg(buf, VS_CMD_TASK_STATUS, VS_A_TASK, &nest);
		mnl_attr_put_strz(nlh, VS_TASK_A_NAMESPACE, task->ns);
		mnl_attr_put_strz(nlh, VS_TASK_A_NAME, task->name);
		mnl_attr_put_u32(nlh, VS_TASK_A_EVENT, VS_TASK_EVENT_RUNNING);
		mnl_attr_nest_end(nlh, nest);
		ret = self_request(d, nlh, &ext);
	}
	if (ret)
		vs_error("standalone binder: task %s/%s: %s", task->ns, task->name, ext.err.msg);
	return ret;
}

/* No result within the timeout: the bind failed, as a binder reporting ETIMEDOUT would say. */
static int fail_bind(struct vschedd *d, const struct vs_task *task)
{
	alignas(NLMSG_ALIGNTO) unsigned char buf[SELF_MSG_MAX];
	struct vs_extack ext;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	char msg[SELF_TEXT_MAX];
	int ret;

	vs_binds_timeout_msg(&d->waits, msg, sizeof(msg));
	nlh = self_msg(buf, VS_CMD_BIND_RESULT, VS_A_BIND_RESULT, &nest);
	mnl_attr_put_strz(nlh, VS_BIND_A_NAMESPACE, task->ns);
	mnl_attr_put_strz(nlh, VS_BIND_A_NAME, task->name);
	mnl_attr_put_strz(nlh, VS_BIND_A_NODE, task->node->name);
	mnl_attr_put_u32(nlh, VS_BIND_A_ERROR, (u32)-ETIMEDOUT);
	mnl_attr_put_strz(nlh, VS_BIND_A_MESSAGE, msg);
	mnl_attr_nest_end(nlh, nest);
	ret = self_request(d, nlh, &ext);
	if (ret)
		vs_error("bind timeout: task %s/%s: %s", task->ns, task->name, ext.err.msg);
	return ret;
}

/* An evicted pod was stopped and is gone: what its deletion's report would say. */
static int confirm_evict(struct vschedd *d, const struct vs_task *task)
{
	alignas(NLMSG_ALIGNTO) unsigned char buf[SELF_MSG_MAX];
	struct vs_extack ext;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int ret;

	nlh = self_msg(buf, VS_CMD_TASK_STATUS, VS_A_TASK, &nest);
	mnl_attr_put_strz(nlh, VS_TASK_A_NAMESPACE, task->ns);
	mnl_attr_put_strz(nlh, VS_TASK_A_NAME, task->name);
	mnl_attr_put_u32(nlh, VS_TASK_A_EVENT, VS_TASK_EVENT_DELETED);
	mnl_attr_nest_end(nlh, nest);
	ret = self_request(d, nlh, &ext);
	if (ret)
		vs_error("standalone binder: evicting task %s/%s: %s", task->ns, task->name,
			 ext.err.msg);
	return ret;
}

static void confirm_evicts(struct vschedd *d)
{
	size_t n = 0;

	for (size_t i = 0; i < d->nr_evicts; i++) {
		/* Still Releasing: what a controller did meanwhile may have changed that. */
		const struct vs_task *task = vs_task_ref_find(&d->cl, &d->evicts[i],
							      VS_TASK_RELEASING);

		if (task && !confirm_evict(d, task))
			n++;
		vs_task_ref_put(&d->cl, &d->evicts[i]);
	}
	if (n)
		vs_v(2, "standalone binder: %zu evicted tasks stopped and gone", n);
	d->nr_evicts = 0;
}

static void confirm_binds(struct vschedd *d)
{
	size_t n = 0;

	for (size_t i = 0; i < d->nr_binds; i++) {
		/* Evicted in the same cycle, or gone: no bind to confirm any more. */
		const struct vs_task *task = vs_task_ref_find(&d->cl, &d->binds[i],
							      VS_TASK_BINDING);

		if (task && !confirm_bind(d, task))
			n++;
		vs_task_ref_put(&d->cl, &d->binds[i]);
	}
	if (n)
		vs_v(2, "standalone binder: %zu binds confirmed, their tasks run", n);
	d->nr_binds = 0;
}

/* ---- a cycle ---- */

void vschedd_self_check(const struct vschedd *d, const char *what)
{
	struct vs_err err = { { 0 } };

	if (!d->opts.self_check || !vs_cluster_check(&d->cl, &err))
		return;
	vs_error("--self-check: after %s: %s", what, err.msg);
	abort();
}

int vschedd_cycle(struct vschedd *d, struct vs_err *err)
{
	const struct vs_nl_cycle *cy = &d->core.ctl.last_cycle;
	u64 before = d->sched.stats.cycles;
	int ret;

	/* The binds and evictions kept are carried out and dropped after each cycle. */
	ret = vs_nl_cycle_run(&d->core, err);
	vschedd_notify_decisions_end(d);
	/* A session that could not open ran no cycle: nothing follows. */
	if (d->sched.stats.cycles == before)
		return ret;
	/* The cycle's events go before what the binder does, and all before VS_CMD_CYCLE. */
	vschedd_notify_events(d);
	confirm_binds(d);
	vschedd_notify_events(d);
	confirm_evicts(d);
	vschedd_notify_events(d);
	vschedd_self_check(d, "a cycle and its binds");
	vschedd_notify_cycle(d, cy);
	vs_v(1, "cycle %llu: %u binds, %u evictions, %u tasks pending, %llu us",
	     (unsigned long long)cy->id, cy->binds, cy->evicts, cy->pending,
	     (unsigned long long)(cy->duration_ns / 1000));
	return ret;
}
