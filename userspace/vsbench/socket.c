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

static void get_pool(struct nlattr *nest, struct vsbench_daemon_stats *st)
{
	struct nlattr *p[VS_POOL_A_MAX + 1];
	struct vs_pool_stats *ps;
	const char *name;

	if (vsnl_parse_nested(p, VS_POOL_A_MAX, nest) || !p[VS_POOL_A_NAME])
		return;
	name = nla_get_string(p[VS_POOL_A_NAME]);
	if (!strcmp(name, "vs_node"))
		ps = &st->node_pool;
	else if (!strcmp(name, "vs_task"))
		ps = &st->task_pool;
	else
		return;
	*ps = (struct vs_pool_stats){ 0 };
	if (p[VS_POOL_A_OBJ_SIZE])
		ps->obj_size = nla_get_u32(p[VS_POOL_A_OBJ_SIZE]);
	if (p[VS_POOL_A_ACTIVE])
		ps->active_objs = nla_get_u64(p[VS_POOL_A_ACTIVE]);
	if (p[VS_POOL_A_TOTAL])
		ps->total_objs = nla_get_u64(p[VS_POOL_A_TOTAL]);
	if (p[VS_POOL_A_SLABS])
		ps->nr_slabs = nla_get_u64(p[VS_POOL_A_SLABS]);
	if (p[VS_POOL_A_BYTES])
		ps->bytes = nla_get_u64(p[VS_POOL_A_BYTES]);
	st->pools |= ps == &st->node_pool ? 1 : 2;
}

static u32 get_u32(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_u32(tb[type]) : 0;
}

static int parse_stats(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct vsbench_daemon_stats *st = arg;
	struct nlattr *s[VS_STATS_A_MAX + 1], *cy[VS_CYCLE_A_MAX + 1], *a;
	int rem;

	*st = (struct vsbench_daemon_stats){ 0 };
	if (!tb[VS_A_STATS] || vsnl_parse_nested(s, VS_STATS_A_MAX, tb[VS_A_STATS]))
		return -EPROTO;
	st->nodes = get_u32(s, VS_STATS_A_NR_NODES);
	st->queues = get_u32(s, VS_STATS_A_NR_QUEUES);
	st->podgroups = get_u32(s, VS_STATS_A_NR_PODGROUPS);
	st->tasks = get_u32(s, VS_STATS_A_NR_TASKS);
	st->vjobs = get_u32(s, VS_STATS_A_NR_VJOBS);
	st->prioclasses = get_u32(s, VS_STATS_A_NR_PRIOCLASSES);
	if (s[VS_STATS_A_RSS_BYTES]) {
		st->has_rss = true;
		st->rss = nla_get_u64(s[VS_STATS_A_RSS_BYTES]);
	}
	if (s[VS_STATS_A_LAST_CYCLE]) {
		if (vsnl_parse_nested(cy, VS_CYCLE_A_MAX, s[VS_STATS_A_LAST_CYCLE]) ||
		    !cy[VS_CYCLE_A_ID])
			return -EPROTO;
		st->last_cycle = nla_get_u64(cy[VS_CYCLE_A_ID]);
		st->last_pending = get_u32(cy, VS_CYCLE_A_PENDING);
	}
	nla_for_each_nested(a, tb[VS_A_STATS], rem)
		if (nla_type(a) == VS_STATS_A_POOL)
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
	struct nlattr *c[VS_CONF_A_MAX + 1];
	struct remote_conf *rc = arg;

	if (!tb[VS_A_CONF] || vsnl_parse_nested(c, VS_CONF_A_MAX, tb[VS_A_CONF]))
		return -EPROTO;
	if (c[VS_CONF_A_PERIOD_MS]) {
		rc->has_period = true;
		rc->period_ms = nla_get_u32(c[VS_CONF_A_PERIOD_MS]);
	}
	if (c[VS_CONF_A_TEXT])
		rc->text = strdup(nla_get_string(c[VS_CONF_A_TEXT]));
	if (c[VS_CONF_A_SOURCE])
		rc->source = strdup(nla_get_string(c[VS_CONF_A_SOURCE]));
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
	struct nlattr *c[VS_CONN_A_MAX + 1];
	u64 *rcvbuf = arg;

	if (!tb[VS_A_CONN] || vsnl_parse_nested(c, VS_CONN_A_MAX, tb[VS_A_CONN]) ||
	    !c[VS_CONN_A_RCVBUF])
		return -EPROTO;
	*rcvbuf = nla_get_u64(c[VS_CONN_A_RCVBUF]);
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
	struct nlattr *d[VS_DECISION_A_MAX + 1];
	struct remote_bind *b;

	if (vsnl_parse_nested(d, VS_DECISION_A_MAX, nest) || !d[VS_DECISION_A_KIND]) {
		fprintf(stderr, "%s: vschedd sent a decision without its kind\n", r->prog);
		return -EPROTO;
	}
	/*
	 * Only binds: the in-process binder sink confirms binds and nothing
	 * else, and the built-in configuration evicts nothing.
	 */
	if (nla_get_u32(d[VS_DECISION_A_KIND]) != VS_DECISION_BIND)
		return 0;
	if (!d[VS_DECISION_A_NAMESPACE] || !d[VS_DECISION_A_NAME] || !d[VS_DECISION_A_NODE]) {
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
	b->key = arena_put(r, nla_get_string(d[VS_DECISION_A_NAMESPACE]),
			   nla_get_string(d[VS_DECISION_A_NAME]));
	b->node = arena_put(r, nla_get_string(d[VS_DECISION_A_NODE]), NULL);
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
	struct nlattr *cy[VS_CYCLE_A_MAX + 1];

	if (!tb[VS_A_CYCLE] || vsnl_parse_nested(cy, VS_CYCLE_A_MAX, tb[VS_A_CYCLE]) ||
	    !cy[VS_CYCLE_A_ID])
		return -EPROTO;
	*id = nla_get_u64(cy[VS_CYCLE_A_ID]);
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
	struct nlattr *a;
	u64 id = 0;
	int rem, ret;

	switch (g->cmd) {
	case VS_CMD_DECISIONS:
		if (!tb[VS_A_CYCLE_ID])
			goto proto;
		id = nla_get_u64(tb[VS_A_CYCLE_ID]);
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
	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0), rem) {
		if (nla_type(a) != VS_A_DECISION)
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
	struct nlattr *cy[VS_CYCLE_A_MAX + 1], *a, *as[VS_ACTSTAT_A_MAX + 1];
	int rem;

	if (!tb[VS_A_CYCLE] || vsnl_parse_nested(cy, VS_CYCLE_A_MAX, tb[VS_A_CYCLE]) ||
	    !cy[VS_CYCLE_A_ID] || !cy[VS_CYCLE_A_DURATION_NS])
		return -EPROTO;
	rc->id = nla_get_u64(cy[VS_CYCLE_A_ID]);
	rc->duration_ns = nla_get_u64(cy[VS_CYCLE_A_DURATION_NS]);
	rc->daemon_binds = get_u32(cy, VS_CYCLE_A_BINDS);
	rc->pending = get_u32(cy, VS_CYCLE_A_PENDING);
	rc->nr_actions = 0;
	nla_for_each_nested(a, tb[VS_A_CYCLE], rem) {
		if (nla_type(a) != VS_CYCLE_A_ACTION)
			continue;
		if (rc->nr_actions == VSBENCH_REMOTE_ACTIONS ||
		    vsnl_parse_nested(as, VS_ACTSTAT_A_MAX, a) || !as[VS_ACTSTAT_A_NAME] ||
		    !as[VS_ACTSTAT_A_DURATION_NS])
			return -EPROTO;
		snprintf(rc->action_names[rc->nr_actions], sizeof(rc->action_names[0]), "%s",
			 nla_get_string(as[VS_ACTSTAT_A_NAME]));
		rc->action_ns[rc->nr_actions++] = nla_get_u64(as[VS_ACTSTAT_A_DURATION_NS]);
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
