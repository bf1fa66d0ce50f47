// SPDX-License-Identifier: Apache-2.0
/*
 * "vsbench run --mode socket": the daemon's side of a run. This file owns
 * the conversation with a running vschedd: the two connections, the checks
 * that the daemon is fresh and runs cycles only when asked, the preset's
 * cluster loaded through load.c's batches, each cycle asked for and its
 * decisions read, the binder's answers, and the daemon's statistics. What
 * it measures goes back to the harness's bench_run.c, which prints it as
 * the in-process run's figures are printed.
 *
 * Two connections, as "vsctl scenario run --socket" has them
 * (userspace/vsctl/scenario_remote.c): one for requests, one subscribed to
 * the decisions and cycles groups. vsnl_request() waits for its own answer
 * and passes over notifications, so a cycle's decisions are read on the
 * second connection, up to that cycle's VS_CMD_CYCLE notification: every
 * VS_CMD_DECISIONS of a cycle comes before it. Being subscribed to decisions
 * makes this run the daemon's binder (vschedd.md, "Binder modes"): each
 * bind stays Binding until the run answers it, bound then running, as the
 * in-process binder sink confirms its binds between cycles, so that the
 * next cycle starts from the same state in both modes.
 *
 * Nothing here starts or resets the daemon: a run needs one freshly
 * started, and says so rather than measuring a cluster that is not the
 * preset's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "lib/codec_gen.h"
#include "lib/vsnl.h"
#include "vsbench/vsbench.h"

/* How long a cycle's notifications may take to come after its reply. */
#define NOTIFY_TIMEOUT_MS	60000
/* Room in the decisions' queue for a cycle's VS_CMD_CYCLE and what the socket rounds. */
#define VSBENCH_QUEUE_SLACK	(1u << 20)
/* The binder's answers: two messages a bind, in batches of this many. */
#define CONFIRM_BATCH		1000

/* A bind decision of the cycle being read: offsets into the arena. */
struct remote_bind {
	size_t key;			/* "ns/name" */
	size_t node;
};

struct vsbench_remote {
	const char *prog;
	const char *path;		/* the socket, for messages */
	struct vsnl *req;		/* requests and their answers */
	struct vsnl *mon;		/* subscribed to decisions and cycles */
	struct vsbench_loader loader;	/* on req: the load, then the binder's answers */
	bool has_loader;
	u64 last;			/* the daemon's last cycle, all of them ours */
	/* the actions of the first cycle, in order; each later cycle must name the same */
	char *actions[VSBENCH_REMOTE_ACTIONS];
	u32 nr_actions;
	/* the cycle being read */
	u64 id;
	bool done;
	struct remote_bind *binds;
	size_t nr_binds, cap_binds;
	char *arena;
	size_t arena_len, arena_cap;
	int failed;			/* a notification's error, reported */
};

/* Report @e's message (or @ret's) after @what, the run's way: once, on stderr. */
static int remote_fail(const struct vsbench_remote *r, int ret, const struct vsnl_err *e,
		       const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", r->prog, what,
		e && e->msg[0] ? e->msg : strerror(ret < 0 ? -ret : ret));
	return ret ? ret : -EPROTO;
}

/* ---- the daemon's state ---- */

static void get_pool(const struct nlattr *nest, struct vsbench_daemon_stats *st)
{
	struct vsnl_pool_tb p;
	struct vs_pool_stats *ps;
	const char *name;
	u64 v;
	u32 size;

	if (vsnl_pool_parse(nest, &p, VSNL_CODEC_REPLY, NULL) || !(name = vsnl_pool_get_name(&p)))
		return;
	if (!strcmp(name, "vs_node"))
		ps = &st->node_pool;
	else if (!strcmp(name, "vs_task"))
		ps = &st->task_pool;
	else
		return;
	*ps = (struct vs_pool_stats){ 0 };
	if (vsnl_pool_get_obj_size(&p, &size))
		ps->obj_size = size;
	if (vsnl_pool_get_active(&p, &v))
		ps->active_objs = v;
	if (vsnl_pool_get_total(&p, &v))
		ps->total_objs = v;
	if (vsnl_pool_get_slabs(&p, &v))
		ps->nr_slabs = v;
	if (vsnl_pool_get_bytes(&p, &v))
		ps->bytes = v;
	st->pools |= ps == &st->node_pool ? 1 : 2;
}

static int parse_stats(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct vsbench_daemon_stats *st = arg;
	struct vsnl_stats_tb s;
	struct vsnl_cycle_tb cy;
	const struct nlattr *a;

	*st = (struct vsbench_daemon_stats){ 0 };
	if (!tb[VS_A_STATS] || vsnl_stats_parse(tb[VS_A_STATS], &s, VSNL_CODEC_REPLY, NULL))
		return -EPROTO;
	vsnl_stats_get_nr_nodes(&s, &st->nodes);
	vsnl_stats_get_nr_queues(&s, &st->queues);
	vsnl_stats_get_nr_podgroups(&s, &st->podgroups);
	vsnl_stats_get_nr_tasks(&s, &st->tasks);
	vsnl_stats_get_nr_vjobs(&s, &st->vjobs);
	vsnl_stats_get_nr_prioclasses(&s, &st->prioclasses);
	st->has_rss = vsnl_stats_get_rss_bytes(&s, &st->rss);
	if (vsnl_stats_get_last_cycle(&s)) {
		if (vsnl_cycle_parse(vsnl_stats_get_last_cycle(&s), &cy, VSNL_CODEC_REPLY, NULL) ||
		    !vsnl_cycle_get_id(&cy, &st->last_cycle))
			return -EPROTO;
		vsnl_cycle_get_pending(&cy, &st->last_pending);
	}
	mnl_attr_for_each_nested(a, tb[VS_A_STATS])
		if (mnl_attr_get_type(a) == VS_STATS_A_POOL)
			get_pool(a, st);
	return 0;
}

int vsbench_remote_stats(struct vsbench_remote *r, struct vsbench_daemon_stats *st)
{
	struct vsnl_err e = { 0 };
	int ret;

	ret = vsnl_request(r->req, vsnl_msg_new(VS_CMD_STATS_GET, 0), parse_stats, st, &e);
	return ret ? remote_fail(r, ret, &e, "reading the daemon's statistics") : 0;
}

struct remote_conf {
	bool has_period;
	u32 period_ms;
	char *text;
	char *source;
};

static int parse_conf(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct remote_conf *rc = arg;
	struct vsnl_conf_tb c;

	if (!tb[VS_A_CONF] || vsnl_conf_parse(tb[VS_A_CONF], &c, VSNL_CODEC_REPLY, NULL))
		return -EPROTO;
	rc->has_period = vsnl_conf_get_period_ms(&c, &rc->period_ms);
	if (vsnl_conf_get_text(&c))
		rc->text = strdup(vsnl_conf_get_text(&c));
	if (vsnl_conf_get_source(&c))
		rc->source = strdup(vsnl_conf_get_source(&c));
	return 0;
}

/*
 * A run measures the preset against the daemon as it was started: nothing
 * in it yet (the load would be refused half way, or the cycles would
 * schedule more than the preset), and no cycle but the ones asked for.
 */
static int check_daemon(struct vsbench_remote *r)
{
	struct vsbench_daemon_stats st;
	struct remote_conf rc = { 0 };
	struct vsnl_err e = { 0 };
	int ret;

	ret = vsbench_remote_stats(r, &st);
	if (ret)
		return ret;
	if (st.nodes || st.queues || st.podgroups || st.tasks || st.vjobs || st.prioclasses) {
		fprintf(stderr, "%s: --mode socket: the daemon at %s holds objects already (%u "
			"nodes, %u queues, %u podgroups, %u tasks, %u VolcanoJobs, %u priority "
			"classes): a run loads its preset into a freshly started vschedd "
			"(--period 0)\n", r->prog, r->path, st.nodes, st.queues, st.podgroups,
			st.tasks, st.vjobs, st.prioclasses);
		return -EEXIST;
	}
	r->last = st.last_cycle;
	ret = vsnl_request(r->req, vsnl_msg_new(VS_CMD_CONF_GET, 0), parse_conf, &rc, &e);
	if (ret) {
		remote_fail(r, ret, &e, "reading the daemon's configuration");
		goto out;
	}
	if (rc.has_period && rc.period_ms) {
		fprintf(stderr, "%s: --mode socket: the daemon at %s runs a cycle every %u ms: "
			"start it with --period 0, so that it runs cycles only when asked\n",
			r->prog, r->path, rc.period_ms);
		ret = -EBUSY;
		goto out;
	}
	/* Another configuration is a measure of its own, not a failure; but say so. */
	if (!rc.text || !harness_conf_is_builtin(rc.text))
		fprintf(stderr, "%s: note: the daemon runs another configuration than the "
			"built-in one (%s): its decisions need not be --mode inproc's\n", r->prog,
			rc.source ? rc.source : "no source");
out:
	free(rc.text);
	free(rc.source);
	return ret;
}

/* ---- the connections ---- */

int vsbench_remote_open(struct vsbench_remote **out, const char *socket, const char *prog)
{
	struct vsnl_err e = { 0 };
	struct vsbench_remote *r;
	int ret;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -ENOMEM;
	}
	r->prog = prog;
	r->path = socket ? socket : vsnl_default_path();
	r->req = vsnl_open(socket, &e);
	if (r->req)
		r->mon = vsnl_open(socket, &e);
	if (!r->mon) {
		ret = remote_fail(r, e.err ? e.err : -ENOTCONN, &e, "--mode socket");
		goto out_close;
	}
	ret = check_daemon(r);
	if (ret)
		goto out_close;
	ret = vsnl_subscribe(r->mon, VS_MCGRP_DECISIONS, &e);
	if (!ret)
		ret = vsnl_subscribe(r->mon, VS_MCGRP_CYCLES, &e);
	if (ret) {
		remote_fail(r, ret, &e, "subscribing to decisions and cycles");
		goto out_close;
	}
	*out = r;
	return 0;

out_close:
	vsbench_remote_close(r);
	return ret;
}

void vsbench_remote_close(struct vsbench_remote *r)
{
	if (!r)
		return;
	if (r->has_loader)
		vsbench_loader_destroy(&r->loader);
	for (u32 i = 0; i < r->nr_actions; i++)
		free(r->actions[i]);
	free(r->binds);
	free(r->arena);
	vsnl_close(r->mon);
	vsnl_close(r->req);
	free(r);
}

/* ---- the decisions' queue ---- */

static int parse_conn(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct vsnl_conn_tb c;
	u64 *rcvbuf = arg;

	if (!tb[VS_A_CONN] || vsnl_conn_parse(tb[VS_A_CONN], &c, VSNL_CODEC_REPLY, NULL) ||
	    !vsnl_conn_get_rcvbuf(&c, rcvbuf))
		return -EPROTO;
	return 0;
}

/*
 * The bytes of VS_CMD_DECISIONS a cycle of @cl can make at most: every task
 * bound at once, to the node of the longest name. A cycle's decisions all
 * wait for the monitor connection while the run waits for the cycle's
 * reply on the other, so the daemon must be able to queue them all.
 */
static u64 decisions_bytes(const struct vs_cluster *cl)
{
	/* a message: its headers and VS_A_CYCLE_ID; the daemon's are at most 64 KiB */
	const u64 msg_hdr = NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN + 8, msg_max = 64 << 10;
	const struct vs_node *node;
	const struct vs_job *job;
	const struct vs_task *t;
	size_t node_len = 0;
	u64 total = 0, largest = 0;

	list_for_each_entry(node, &cl->nodes, list)
		if (strlen(node->name) > node_len)
			node_len = strlen(node->name);
	list_for_each_entry(job, &cl->jobs, list) {
		list_for_each_entry(t, &job->tasks, job_node) {
			u64 one = NLA_HDRLEN + nla_total_size(4) +
				  nla_total_size((int)strlen(t->ns) + 1) +
				  nla_total_size((int)strlen(t->name) + 1) +
				  nla_total_size((int)node_len + 1);

			total += one;
			if (one > largest)
				largest = one;
		}
	}
	/* each message leaves at most the largest decision's room unused */
	return total + (total / (msg_max - msg_hdr - largest) + 1) * (msg_hdr + largest) +
	       VSBENCH_QUEUE_SLACK;
}

/*
 * Have the daemon queue a whole cycle's decisions for the monitor
 * connection, as a netlink listener raises SO_RCVBUF: past its queue the
 * daemon drops notifications and the run would stop with ENOBUFS. Asked
 * only when the connection's queue is smaller; a daemon whose maximum is
 * smaller refuses, and says its maximum.
 */
static int size_queue(struct vsbench_remote *r, const struct vs_cluster *cl)
{
	u64 need = decisions_bytes(cl), have = 0;
	struct vsnl_err e = { 0 };
	int ret;

	ret = vsnl_request(r->mon, vsnl_msg_new(VS_CMD_CONN_GET, 0), parse_conn, &have, &e);
	if (ret)
		return remote_fail(r, ret, &e, "reading the decisions' connection");
	if (need <= have)
		return 0;
	ret = vsnl_set_rcvbuf(r->mon, need, &e);
	if (ret)
		return remote_fail(r, ret, &e, "sizing the daemon's queue for a cycle's decisions");
	return 0;
}

/* ---- the load ---- */

int vsbench_remote_load(struct vsbench_remote *r, const struct vs_cluster *cl,
			unsigned long *objects, double *seconds)
{
	unsigned long nr = harness_encode_nr(cl);
	double t0;
	int ret;

	/* One loader for the load and the answers: a flush between cycles can need 2 per task. */
	ret = vsbench_loader_init(&r->loader, r->prog, r->req, CONFIRM_BATCH,
				  nr > 2ul * cl->nr_tasks ? nr : 2ul * cl->nr_tasks);
	if (ret) {
		fprintf(stderr, "%s: out of memory\n", r->prog);
		return ret;
	}
	r->has_loader = true;
	ret = size_queue(r, cl);
	if (ret)
		return ret;
	t0 = vsbench_now();
	ret = vsbench_load_cluster(&r->loader, cl);
	*seconds = vsbench_now() - t0;
	*objects = r->loader.sent;
	return ret;
}

/* ---- cycles ---- */

static int foreign_cycle(struct vsbench_remote *r, u64 id)
{
	fprintf(stderr, "%s: cycle %llu ran, which this run did not ask for: the daemon must run "
		"cycles only on request (vschedd --period 0) and serve this run alone\n", r->prog,
		(unsigned long long)id);
	return -EBUSY;
}

/* @s, NUL included, into the arena; its offset, or (size_t)-1 without memory. */
static size_t arena_put(struct vsbench_remote *r, const char *s, const char *s2)
{
	size_t len = strlen(s), len2 = s2 ? strlen(s2) + 1 : 0, off = r->arena_len;

	if (r->arena_len + len + len2 + 1 > r->arena_cap) {
		size_t cap = r->arena_cap ? 2 * r->arena_cap : 1 << 16;
		char *a;

		while (cap < r->arena_len + len + len2 + 1)
			cap *= 2;
		a = realloc(r->arena, cap);
		if (!a)
			return (size_t)-1;
		r->arena = a;
		r->arena_cap = cap;
	}
	memcpy(r->arena + off, s, len);
	if (s2) {
		r->arena[off + len] = '/';
		memcpy(r->arena + off + len + 1, s2, len2 - 1);
		len += len2;
	}
	r->arena[off + len] = '\0';
	r->arena_len += len + 1;
	return off;
}

static int record_bind(struct vsbench_remote *r, const struct nlattr *nest)
{
	const char *ns, *name, *node;
	struct vsnl_decision_tb d;
	struct remote_bind *b;
	u32 kind;

	if (vsnl_decision_parse(nest, &d, VSNL_CODEC_REPLY, NULL) ||
	    !vsnl_decision_get_kind(&d, &kind)) {
		fprintf(stderr, "%s: vschedd sent a decision without its kind\n", r->prog);
		return -EPROTO;
	}
	/*
	 * Only binds: the in-process binder sink confirms binds and nothing
	 * else, and the built-in configuration evicts nothing.
	 */
	if (kind != VS_DECISION_BIND)
		return 0;
	ns = vsnl_decision_get_namespace(&d);
	name = vsnl_decision_get_name(&d);
	node = vsnl_decision_get_node(&d);
	if (!ns || !name || !node) {
		fprintf(stderr, "%s: vschedd sent a bind without its task or node\n", r->prog);
		return -EPROTO;
	}
	if (r->nr_binds == r->cap_binds) {
		size_t cap = r->cap_binds ? 2 * r->cap_binds : 1024;

		b = realloc(r->binds, cap * sizeof(*b));
		if (!b)
			goto nomem;
		r->binds = b;
		r->cap_binds = cap;
	}
	b = &r->binds[r->nr_binds];
	b->key = arena_put(r, ns, name);
	b->node = arena_put(r, node, NULL);
	if (b->key == (size_t)-1 || b->node == (size_t)-1)
		goto nomem;
	r->nr_binds++;
	return 0;
nomem:
	fprintf(stderr, "%s: out of memory\n", r->prog);
	return -ENOMEM;
}

static int cycle_of(struct nlattr **tb, u64 *id)
{
	struct vsnl_cycle_tb cy;

	if (!tb[VS_A_CYCLE] || vsnl_cycle_parse(tb[VS_A_CYCLE], &cy, VSNL_CODEC_REPLY, NULL) ||
	    !vsnl_cycle_get_id(&cy, id))
		return -EPROTO;
	return 0;
}

/*
 * A notification of the monitor connection. Cycle numbers only grow: one
 * above the cycle asked for is a cycle this run did not ask for.
 */
static int on_notification(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	const struct genlmsghdr *g = nlmsg_data(nlh);
	struct vsbench_remote *r = arg;
	const struct nlattr *a;
	u64 id = 0;
	int ret;

	switch (g->cmd) {
	case VS_CMD_DECISIONS:
		if (!vsnl_vsched_get_cycle_id(vsnl_reply_tb(tb), &id))
			goto proto;
		break;
	case VS_CMD_CYCLE:
		if (cycle_of(tb, &id))
			goto proto;
		break;
	default:
		return 0;
	}
	if (id < r->id)
		return 0;
	if (id > r->id || r->done)
		return r->failed = foreign_cycle(r, id);
	if (g->cmd == VS_CMD_CYCLE) {
		r->done = true;
		return 0;
	}
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) != VS_A_DECISION)
			continue;
		ret = record_bind(r, a);
		if (ret)
			return r->failed = ret;
	}
	return 0;
proto:
	fprintf(stderr, "%s: vschedd sent a notification without its cycle\n", r->prog);
	return r->failed = -EPROTO;
}

/* Read the monitor connection up to the end of cycle r->id. */
static int read_cycle(struct vsbench_remote *r)
{
	double deadline = vsbench_now() + NOTIFY_TIMEOUT_MS / 1e3;
	struct vsnl_err e = { 0 };

	while (!r->done) {
		double left = deadline - vsbench_now();
		int ret;

		if (left <= 0) {
			fprintf(stderr, "%s: the notifications of cycle %llu did not come within "
				"%u ms\n", r->prog, (unsigned long long)r->id, NOTIFY_TIMEOUT_MS);
			return -ETIMEDOUT;
		}
		ret = vsnl_recv_notifications(r->mon, (int)(left * 1e3) + 1, on_notification, r,
					      &e);
		if (ret == -ENOBUFS) {
			fprintf(stderr, "%s: the daemon dropped notifications of cycle %llu (its "
				"queue for this connection overflowed): too many decisions for "
				"one cycle\n", r->prog, (unsigned long long)r->id);
			return ret;
		}
		if (ret < 0)
			return r->failed ? r->failed : remote_fail(r, ret, &e,
								   "reading the decisions");
	}
	return 0;
}

static int parse_cycle(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct vsbench_remote_cycle *rc = arg;
	struct vsnl_action_stat_tb as;
	struct vsnl_cycle_tb cy;
	const struct nlattr *a;

	if (!tb[VS_A_CYCLE] || vsnl_cycle_parse(tb[VS_A_CYCLE], &cy, VSNL_CODEC_REPLY, NULL) ||
	    !vsnl_cycle_get_id(&cy, &rc->id) || !vsnl_cycle_get_duration_ns(&cy, &rc->duration_ns))
		return -EPROTO;
	rc->daemon_binds = 0;
	vsnl_cycle_get_binds(&cy, &rc->daemon_binds);
	rc->pending = 0;
	vsnl_cycle_get_pending(&cy, &rc->pending);
	rc->nr_actions = 0;
	mnl_attr_for_each_nested(a, tb[VS_A_CYCLE]) {
		if (mnl_attr_get_type(a) != VS_CYCLE_A_ACTION)
			continue;
		if (rc->nr_actions == VSBENCH_REMOTE_ACTIONS ||
		    vsnl_action_stat_parse(a, &as, VSNL_CODEC_REPLY, NULL) ||
		    !vsnl_action_stat_get_name(&as) ||
		    !vsnl_action_stat_get_duration_ns(&as, &rc->action_ns[rc->nr_actions]))
			return -EPROTO;
		snprintf(rc->action_names[rc->nr_actions], sizeof(rc->action_names[0]), "%s",
			 vsnl_action_stat_get_name(&as));
		rc->nr_actions++;
	}
	return 0;
}

/* The first cycle names the actions; every later one must name the same, in order. */
static int same_actions(struct vsbench_remote *r, const struct vsbench_remote_cycle *rc)
{
	bool same;

	if (!r->nr_actions) {
		for (u32 i = 0; i < rc->nr_actions; i++) {
			r->actions[i] = strdup(rc->action_names[i]);
			if (!r->actions[i]) {
				fprintf(stderr, "%s: out of memory\n", r->prog);
				return -ENOMEM;
			}
			r->nr_actions++;
		}
		return 0;
	}
	same = rc->nr_actions == r->nr_actions;

	for (u32 i = 0; same && i < rc->nr_actions; i++)
		same = !strcmp(rc->action_names[i], r->actions[i]);
	if (same)
		return 0;
	fprintf(stderr, "%s: cycle %llu ran other actions than the first: the daemon's "
		"configuration changed during the run\n", r->prog, (unsigned long long)rc->id);
	return -EBUSY;
}

const char *const *vsbench_remote_actions(const struct vsbench_remote *r, u32 *nr)
{
	*nr = r->nr_actions;
	return (const char *const *)r->actions;
}

/* One message of the binder's answer about the task @key, into the loader's batch. */
static int answer(struct vsbench_remote *r, u8 cmd, const char *key, const char *node)
{
	const char *slash = strchr(key, '/');
	struct vsbench_loader *l = &r->loader;
	struct vsnl_err e = { 0 };
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	char ns[256];
	int ret;

	/* Not snprintf(): at 50k its formatting was a twentieth of the binder's time. */
	if ((size_t)(slash - key) >= sizeof(ns)) {
		fprintf(stderr, "%s: the answer to the bind of %s: its namespace is longer than "
			"%zu bytes\n", r->prog, key, sizeof(ns) - 1);
		return -EMSGSIZE;
	}
	memcpy(ns, key, (size_t)(slash - key));
	ns[slash - key] = '\0';
	nlh = vsnl_msg_put(l->buf, VS_MSG_MAX, cmd, 0);
	if (!nlh)
		return -EMSGSIZE;
	/* The codec zeroes the padding of what it puts, whatever the buffer held. */
	if (cmd == VS_CMD_BIND_RESULT) {
		nest = vsnl_vsched_start_bind_result(nlh, VS_MSG_MAX, &e);
		ret = nest ? 0 : -EMSGSIZE;
		if (!ret)
			ret = vsnl_bind_result_put_namespace(nlh, VS_MSG_MAX, ns, &e);
		if (!ret)
			ret = vsnl_bind_result_put_name(nlh, VS_MSG_MAX, slash + 1, &e);
		if (!ret)
			ret = vsnl_bind_result_put_node(nlh, VS_MSG_MAX, node, &e);
		if (!ret)
			ret = vsnl_bind_result_put_error(nlh, VS_MSG_MAX, 0, &e);
	} else {
		nest = vsnl_vsched_start_task(nlh, VS_MSG_MAX, &e);
		ret = nest ? 0 : -EMSGSIZE;
		if (!ret)
			ret = vsnl_task_put_namespace(nlh, VS_MSG_MAX, ns, &e);
		if (!ret)
			ret = vsnl_task_put_name(nlh, VS_MSG_MAX, slash + 1, &e);
		if (!ret)
			ret = vsnl_task_put_event(nlh, VS_MSG_MAX, VS_TASK_EVENT_RUNNING, &e);
	}
	if (ret) {
		/* a name the daemon's policy refuses, or no room: the answer cannot go */
		fprintf(stderr, "%s: the answer to the bind of %s: %s\n", r->prog, key,
			e.msg[0] ? e.msg : strerror(-ret));
		return ret;
	}
	mnl_attr_nest_end(nlh, nest);
	return vsbench_loader_add(l, nlh, cmd == VS_CMD_BIND_RESULT ? "bind result of task" :
				  "running report of task", key);
}

/*
 * The cluster's answer to the cycle's binds, as the in-process binder sink
 * gives it: each bound (VS_CMD_BIND_RESULT without error), then running
 * (VS_CMD_TASK_STATUS), in batches, all applied before the next cycle.
 */
static int confirm(struct vsbench_remote *r)
{
	int ret = 0;

	for (size_t i = 0; i < r->nr_binds && !ret; i++) {
		const char *key = r->arena + r->binds[i].key;

		ret = answer(r, VS_CMD_BIND_RESULT, key, r->arena + r->binds[i].node);
		if (!ret)
			ret = answer(r, VS_CMD_TASK_STATUS, key, NULL);
	}
	if (!ret)
		ret = vsbench_loader_flush(&r->loader);
	if (ret == -ESTALE)
		fprintf(stderr, "%s: the daemon had confirmed the binds itself: does it run with "
			"--binder=auto? (this run is the binder: start vschedd without --binder)\n",
			r->prog);
	return ret;
}

int vsbench_remote_cycle(struct vsbench_remote *r, struct vsbench_remote_cycle *rc)
{
	struct vsnl_err e = { 0 };
	double t0, t1;
	int ret;

	memset(rc, 0, sizeof(*rc));
	r->nr_binds = 0;
	r->arena_len = 0;
	r->done = false;
	r->failed = 0;
	r->id = r->last + 1;

	t0 = vsbench_now();
	ret = vsnl_request(r->req, vsnl_msg_new(VS_CMD_CYCLE_RUN, 0), parse_cycle, rc, &e);
	if (ret)
		return remote_fail(r, ret, &e, "running the cycle");
	/* the numbers go on from the daemon's last: another is one this run did not ask for */
	if (rc->id != r->id)
		return foreign_cycle(r, r->id);
	r->last = rc->id;
	ret = read_cycle(r);
	t1 = vsbench_now();
	rc->wall = t1 - t0;
	if (ret)
		return ret;
	ret = same_actions(r, rc);
	if (ret)
		return ret;
	rc->binds = r->nr_binds;
	if (rc->binds != rc->daemon_binds) {
		fprintf(stderr, "%s: cycle %llu: the daemon counted %u binds, its decisions "
			"carried %u\n", r->prog, (unsigned long long)rc->id, rc->daemon_binds,
			rc->binds);
		return -EPROTO;
	}
	ret = confirm(r);
	rc->confirm = vsbench_now() - t1;
	return ret;
}
