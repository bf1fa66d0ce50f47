// SPDX-License-Identifier: Apache-2.0
/*
 * "vsctl scenario run --socket PATH": a loaded scenario run against a
 * running vschedd instead of the in-process core. This file owns the
 * conversation with the daemon: the two connections, the reset, the
 * configuration and the objects sent, the cycles asked for and their
 * decisions read, the cluster's part played between cycles, and the PodGroup
 * phases read back. What it records goes into the same struct scn_result the
 * in-process run fills, and is judged by the same scenario_compare().
 *
 * The scenario is still loaded in-process (scenario_load() builds a private
 * struct vs_cluster): that cluster is the source of every object sent, each
 * request written by the harness's encoder (harness/encode.h, with the
 * core's own fills), so the daemon gets exactly what the in-process run
 * would schedule, in the same creation order.
 *
 * Two connections: one for requests, one subscribed to the decisions and
 * cycles groups. libvsnl's vsnl_request() waits for its own answer and
 * passes over notifications, so the decisions of a cycle are read on the
 * second connection, up to that cycle's VS_CMD_CYCLE notification: the
 * protocol sends every VS_CMD_DECISIONS of a cycle before it, and the cycle
 * is named by the VS_A_CYCLE_ID the CYCLE_RUN reply gave. Being subscribed
 * to decisions also makes this run the binder (vschedd.md, "Binder modes"):
 * the daemon leaves each bind Binding for the run to confirm, as the
 * in-process auto-binder does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <libmnl/libmnl.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "harness/encode.h"
#include "lib/codec_gen.h"
#include "lib/render.h"
#include "lib/vsnl.h"
#include "vsctl/request.h"
#include "vsctl/scenario.h"

/* How long a cycle's notifications may take to come after its reply. */
#define NOTIFY_TIMEOUT_MS	10000

struct scn_remote {
	struct vsnl *req;		/* requests and their answers */
	struct vsnl *mon;		/* subscribed to decisions and cycles */
	struct vsnl_err batch_err;	/* why an object could not join the batch */
};

/* A libvsnl failure as the run's error, with @what said first. */
static int remote_fail(struct vs_err *err, int ret, const struct vsnl_err *e, const char *what)
{
	return vs_err_set(err, ret, "%s: %s", what, e->msg[0] ? e->msg : strerror(-ret));
}

/* ---- the connection ---- */

int scn_remote_open(struct scn_remote **out, const char *socket, struct vs_err *err)
{
	struct vsnl_err e = { 0 };
	struct scn_remote *r;
	int ret;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return vs_err_set(err, ENOMEM, "out of memory");
	r->req = vsnl_open(socket, &e);
	if (r->req)
		r->mon = vsnl_open(socket, &e);
	if (!r->mon) {
		ret = vs_err_set(err, e.err ? e.err : -ENOTCONN, "%s", e.msg);
		goto out_close;
	}
	ret = vsnl_subscribe(r->mon, VS_MCGRP_DECISIONS, &e);
	if (!ret)
		ret = vsnl_subscribe(r->mon, VS_MCGRP_CYCLES, &e);
	if (ret) {
		remote_fail(err, ret, &e, "subscribing to decisions and cycles");
		goto out_close;
	}
	*out = r;
	return 0;

out_close:
	scn_remote_close(r);
	return ret;
}

void scn_remote_close(struct scn_remote *r)
{
	if (!r)
		return;
	vsnl_close(r->mon);
	vsnl_close(r->req);
	free(r);
}

/* ---- what cannot go over the socket ---- */

/* A PodGroup naming a queue that is not listed: Volcano's admission refuses to make one. */
static bool has_orphan(const struct vs_cluster *cl)
{
	const struct vs_job *job;

	list_for_each_entry(job, &cl->jobs, list)
		if (!job->queue)
			return true;
	return false;
}

const char *scenario_remote_limits(const struct scenario *scn, u32 *unchecked, bool *runnable)
{
	u32 has = scn->expect.has;

	*unchecked = has & ((1u << SCN_SCORES) | SCN_HAS_HN_LEAVES);
	*runnable = false;
	/*
	 * pipelinedTo is a Statement's pipeline in the first session, undone
	 * when it closes: no request makes one. A task created Pipelined
	 * would stay so after the cycle, and the plugins would count it when
	 * the session opens rather than hear it as an event.
	 */
	if (scn->nr_pipelines)
		return "pipelinedTo needs the in-process core";
	/* vschedd's PodGroup admission wants the queue; a queue with PodGroups cannot go. */
	if (has_orphan(&scn->cl))
		return "a podgroup whose queue is not listed needs the in-process core";
	/* A scoring-only case: the daemon takes no configuration without actions. */
	if (!scn->conf->nr_actions)
		return *unchecked & (1u << SCN_SCORES) ? "nodeScores needs the in-process core" :
			"a configuration without actions needs the in-process core";
	*runnable = true;
	/*
	 * Scores are a session's, on the initial state: no request reads
	 * them. (What a cycle left pipelined comes with its decisions, as
	 * VS_DECISION_PIPELINE.)
	 */
	if (*unchecked & (1u << SCN_SCORES))
		return "nodeScores needs the in-process core";
	/* a HyperNode's reply has its parent and node count, not the nodes' names */
	return *unchecked ? "hypernodes leaves need the in-process core" : NULL;
}

/* ---- the initial state ---- */

/* A request with no attribute, acked. */
static int simple(struct scn_remote *r, u8 cmd, const char *what, struct vs_err *err)
{
	struct vsnl_err e = { 0 };
	int ret = vsnl_request(r->req, vsnl_msg_new(cmd, 0), NULL, NULL, &e);

	return ret ? remote_fail(err, ret, &e, what) : 0;
}

/*
 * The scenario's configuration as text: what "conf:" held (padded to the
 * scenario's lines, so that the daemon's messages point into the file), or
 * for the explicit form the YAML vs_conf_format() writes, every flag
 * spelled out so that the daemon's defaults (flags on) change nothing.
 */
static char *conf_text(const struct vs_conf *conf)
{
	size_t len;
	char *text;

	if (conf->text)
		return strdup(conf->text);
	len = vs_conf_format(conf, NULL, 0);
	text = malloc(len + 1);
	if (text)
		vs_conf_format(conf, text, len + 1);
	return text;
}

static int set_conf(struct scn_remote *r, const struct scenario *scn, struct vs_err *err)
{
	/* an attribute's length is 16 bits, header and NUL included */
	const size_t max = 0xffff - NLA_HDRLEN - 1;
	struct vsnl_err e = { 0 };
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct nl_msg *m;
	char *text;
	size_t cap;
	int ret;

	text = conf_text(scn->conf);
	if (!text)
		return vs_err_set(err, ENOMEM, "out of memory");
	if (strlen(text) > max) {
		free(text);
		return vs_err_set(err, EMSGSIZE, "the configuration is larger than one request "
				  "carries (%zu bytes)", max);
	}
	m = vsnl_msg_new(VS_CMD_CONF_SET, 0);
	if (m) {
		nlh = vsnl_msg_hdr(m, &cap);
		nest = vsnl_vsched_start_conf(nlh, cap, &e);
		if (!nest || vsnl_conf_put_text(nlh, cap, text, &e) ||
		    vsnl_conf_put_source(nlh, cap, scn->file, &e)) {
			nlmsg_free(m);
			free(text);
			return remote_fail(err, e.err, &e, "installing the configuration");
		}
		mnl_attr_nest_end(nlh, nest);
	}
	free(text);
	ret = vsnl_request(r->req, m, NULL, NULL, &e);
	return ret ? remote_fail(err, ret, &e, "installing the configuration") : 0;
}

/* One request of the harness's encoder, into the open batch. */
static int batch_one(const struct harness_msg *msg, void *arg)
{
	struct scn_remote *r = arg;

	return vsnl_batch_add_nlh(r->req, msg->nlh, NULL, &r->batch_err);
}

/*
 * Every object of @cl, as the harness's encoder writes and orders them
 * (harness/encode.h: dependency order, each kind in creation order; a queue
 * that is not Open created Open and set to its state after the tasks), in
 * one batch.
 */
static int send_objects(struct scn_remote *r, const struct vs_cluster *cl, struct vs_err *err)
{
	struct vsnl_err e = { 0 };
	void *buf;
	int ret;

	buf = malloc(VS_MSG_MAX);
	if (!buf)
		return vs_err_set(err, ENOMEM, "out of memory");
	ret = vsnl_batch_begin(r->req, &e);
	if (ret) {
		free(buf);
		return remote_fail(err, ret, &e, "opening a batch");
	}
	r->batch_err = (struct vsnl_err){ 0 };
	ret = harness_encode_cluster(cl, buf, VS_MSG_MAX, batch_one, r, &e);
	free(buf);
	/* END also after a failure: the daemon drops the batch, the connection stays usable. */
	if (ret) {
		if (e.err)
			vs_err_set(err, ret, "%s", e.msg);
		else
			remote_fail(err, ret, &r->batch_err, "sending the objects");
		vsnl_batch_end(r->req, &e);
		return ret;
	}
	ret = vsnl_batch_end(r->req, &e);
	return ret ? remote_fail(err, ret, &e, "loading the objects") : 0;
}

/* ---- cycles ---- */

/* One cycle's decisions, read from the notifications. */
struct cycle_rx {
	u64 id;				/* the cycle asked for */
	bool done;			/* its VS_CMD_CYCLE came */
	struct scn_result *res;
	struct scn_set binds;		/* this cycle's, for the cluster's answer */
	struct scn_set evicts;
	struct vs_err *err;
};

static int cycle_id(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct vsnl_cycle_tb cy;
	u64 *id = arg;

	if (!tb[VS_A_CYCLE] || vsnl_cycle_parse(tb[VS_A_CYCLE], &cy, VSNL_CODEC_REPLY, NULL) ||
	    !vsnl_cycle_get_id(&cy, id))
		return -EPROTO;
	return 0;
}

/*
 * The number of the daemon's last cycle (0 before the first), from its
 * statistics. A run checks that the cycles between its reset and its last
 * reading are exactly the ones it asked for: a periodic cycle or another
 * client's would change what it reads.
 */
static int stats_last_cycle(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct vsnl_stats_tb st;
	struct vsnl_cycle_tb cy;
	u64 *id = arg;

	*id = 0;
	if (!tb[VS_A_STATS] || vsnl_stats_parse(tb[VS_A_STATS], &st, VSNL_CODEC_REPLY, NULL))
		return -EPROTO;
	if (!vsnl_stats_get_last_cycle(&st))
		return 0;
	if (vsnl_cycle_parse(vsnl_stats_get_last_cycle(&st), &cy, VSNL_CODEC_REPLY, NULL) ||
	    !vsnl_cycle_get_id(&cy, id))
		return -EPROTO;
	return 0;
}

static int last_cycle(struct scn_remote *r, u64 *id, struct vs_err *err)
{
	struct vsnl_err e = { 0 };
	int ret;

	ret = vsnl_request(r->req, vsnl_msg_new(VS_CMD_STATS_GET, 0), stats_last_cycle, id, &e);
	return ret ? remote_fail(err, ret, &e, "reading the daemon's statistics") : 0;
}

/* Cycle @id ran, and this run did not ask for it. */
static int foreign_cycle(struct vs_err *err, u64 id)
{
	return vs_err_set(err, EBUSY, "cycle %llu ran, which this run did not ask for: the "
			  "daemon must run cycles only on request (vschedd --period 0) and "
			  "serve this run alone", (unsigned long long)id);
}

static int record_decision(struct cycle_rx *rx, const struct nlattr *nest)
{
	struct vsnl_decision_tb d;
	const char *node;
	char key[512];
	u32 kind;

	if (vsnl_decision_parse(nest, &d, VSNL_CODEC_REPLY, NULL) ||
	    !vsnl_decision_get_kind(&d, &kind) || !vsnl_decision_get_namespace(&d) ||
	    !vsnl_decision_get_name(&d))
		return vs_err_set(rx->err, EPROTO, "vschedd sent a decision without its task");
	snprintf(key, sizeof(key), "%s/%s", vsnl_decision_get_namespace(&d),
		 vsnl_decision_get_name(&d));
	node = vsnl_decision_get_node(&d);
	switch (kind) {
	case VS_DECISION_BIND:
		if (!node)
			return vs_err_set(rx->err, EPROTO, "vschedd sent the bind of %s without "
					  "its node", key);
		if (scn_set_add(&rx->res->binds, key, node, 0, 0) ||
		    scn_set_add(&rx->binds, key, node, 0, 0))
			return vs_err_set(rx->err, ENOMEM, "out of memory");
		return 0;
	case VS_DECISION_EVICT:
		if (scn_set_add(&rx->res->evicts, key, NULL, 0, 0) ||
		    scn_set_add(&rx->evicts, key, NULL, 0, 0))
			return vs_err_set(rx->err, ENOMEM, "out of memory");
		return 0;
	case VS_DECISION_PIPELINE:
		/* What the last cycle left pipelined: run_cycles() forgets the others'. */
		if (!node)
			return vs_err_set(rx->err, EPROTO, "vschedd sent the pipeline of %s "
					  "without its node", key);
		if (scn_set_add(&rx->res->pipelined, key, node, 0, 0))
			return vs_err_set(rx->err, ENOMEM, "out of memory");
		return 0;
	}
	return vs_err_set(rx->err, EPROTO, "vschedd sent a decision of unknown kind %u", kind);
}

/*
 * A notification of the monitor connection. Cycle numbers only grow: one
 * below the cycle asked for is left over from a run that failed before
 * reading it; one above is a cycle this run did not ask for.
 */
static int on_notification(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	const struct genlmsghdr *g = nlmsg_data(nlh);
	struct cycle_rx *rx = arg;
	const struct nlattr *a;
	u64 id = 0;
	int ret;

	switch (g->cmd) {
	case VS_CMD_DECISIONS:
		if (!vsnl_vsched_get_cycle_id(vsnl_reply_tb(tb), &id))
			return vs_err_set(rx->err, EPROTO, "vschedd sent decisions without "
					  "their cycle");
		break;
	case VS_CMD_CYCLE:
		if (cycle_id(nlh, tb, &id))
			return vs_err_set(rx->err, EPROTO, "vschedd sent a cycle without its id");
		break;
	default:
		return 0;
	}
	if (id < rx->id)
		return 0;
	if (id > rx->id || rx->done)
		return foreign_cycle(rx->err, id);
	if (g->cmd == VS_CMD_CYCLE) {
		rx->done = true;
		return 0;
	}
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) != VS_A_DECISION)
			continue;
		ret = record_decision(rx, a);
		if (ret)
			return ret;
	}
	return 0;
}

static u64 now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000 + (u64)ts.tv_nsec / 1000000;
}

/* Read the monitor connection up to the end of cycle rx->id. */
static int read_cycle(struct scn_remote *r, struct cycle_rx *rx)
{
	u64 deadline = now_ms() + NOTIFY_TIMEOUT_MS;
	struct vsnl_err e = { 0 };

	while (!rx->done) {
		u64 now = now_ms();
		int ret;

		if (now >= deadline)
			return vs_err_set(rx->err, ETIMEDOUT, "the notifications of cycle %llu did "
					  "not come within %u ms", (unsigned long long)rx->id,
					  NOTIFY_TIMEOUT_MS);
		ret = vsnl_recv_notifications(r->mon, (int)(deadline - now), on_notification,
					      rx, &e);
		if (ret == -ENOBUFS)
			return vs_err_set(rx->err, ENOBUFS, "the daemon dropped notifications of "
					  "cycle %llu (its queue for this client overflowed)",
					  (unsigned long long)rx->id);
		if (ret < 0)
			return vs_err_is_set(rx->err) ? ret :
				remote_fail(rx->err, ret, &e, "reading the decisions");
	}
	return 0;
}

/* VS_CMD_BIND_RESULT "bound", or VS_CMD_TASK_STATUS @event, for the task @key. */
static int report(struct scn_remote *r, u8 cmd, const char *key, const char *node, u32 event,
		  struct vs_err *err)
{
	const char *slash = strchr(key, '/');
	struct vsnl_err e = { 0 };
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct nl_msg *m;
	char ns[256];
	size_t cap;
	int ret;

	snprintf(ns, sizeof(ns), "%.*s", (int)(slash - key), key);
	m = vsnl_msg_new(cmd, 0);
	if (!m)
		goto nomem;
	nlh = vsnl_msg_hdr(m, &cap);
	if (cmd == VS_CMD_BIND_RESULT) {
		nest = vsnl_vsched_start_bind_result(nlh, cap, &e);
		ret = !nest || vsnl_bind_result_put_namespace(nlh, cap, ns, &e) ||
		      vsnl_bind_result_put_name(nlh, cap, slash + 1, &e) ||
		      vsnl_bind_result_put_node(nlh, cap, node, &e) ||
		      vsnl_bind_result_put_error(nlh, cap, 0, &e);
	} else {
		nest = vsnl_vsched_start_task(nlh, cap, &e);
		ret = !nest || vsnl_task_put_namespace(nlh, cap, ns, &e) ||
		      vsnl_task_put_name(nlh, cap, slash + 1, &e) ||
		      vsnl_task_put_event(nlh, cap, event, &e);
	}
	if (ret) {
		nlmsg_free(m);
		return vs_err_set(err, e.err, "reporting %s: %s", key, e.msg);
	}
	mnl_attr_nest_end(nlh, nest);
	ret = vsnl_request(r->req, m, NULL, NULL, &e);
	if (!ret)
		return 0;
	if (ret == -ESTALE)
		return vs_err_set(err, ret, "confirming the bind of %s: %s (does the daemon run "
				  "with --binder=auto? the run confirms binds itself)", key, e.msg);
	return vs_err_set(err, ret, "%s of %s: %s",
			  cmd == VS_CMD_BIND_RESULT ? "confirming the bind" :
			  event == VS_TASK_EVENT_RUNNING ? "reporting running" : "deleting",
			  key, e.msg[0] ? e.msg : strerror(-ret));
nomem:
	return vs_err_set(err, ENOMEM, "out of memory");
}

/*
 * The cluster's answer between cycles, as the in-process auto-binder gives
 * it: each bind confirmed (bound, then running), unless the task was evicted
 * in the same cycle, and each evicted task's pod gone.
 */
static int settle(struct scn_remote *r, const struct cycle_rx *rx, struct vs_err *err)
{
	int ret;

	for (u32 i = 0; i < rx->binds.nr; i++) {
		const char *key = rx->binds.e[i].key;
		bool evicted = false;

		for (u32 k = 0; k < rx->evicts.nr && !evicted; k++)
			evicted = !strcmp(rx->evicts.e[k].key, key);
		if (evicted)
			continue;
		ret = report(r, VS_CMD_BIND_RESULT, key, rx->binds.e[i].val, 0, err);
		if (!ret)
			ret = report(r, VS_CMD_TASK_STATUS, key, NULL, VS_TASK_EVENT_RUNNING, err);
		if (ret)
			return ret;
	}
	for (u32 i = 0; i < rx->evicts.nr; i++) {
		ret = report(r, VS_CMD_TASK_STATUS, rx->evicts.e[i].key, NULL,
			     VS_TASK_EVENT_DELETED, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* The cycles, numbered from @last + 1 on; @last ends as the number of the last. */
static int run_cycles(struct scn_remote *r, const struct scenario *scn, struct scn_result *res,
		      u64 *last, struct vs_err *err)
{
	int ret = 0;

	for (u32 c = 1; c <= scn->cycles && !ret; c++) {
		struct cycle_rx rx = { .res = res, .err = err };
		struct vsnl_err e = { 0 };

		/* "pipelined" is what the last cycle left: a session undoes its pipelines. */
		scn_set_free(&res->pipelined);

		ret = vsnl_request(r->req, vsnl_msg_new(VS_CMD_CYCLE_RUN, 0), cycle_id, &rx.id, &e);
		if (ret)
			remote_fail(err, ret, &e, "running the cycle");
		else if (rx.id != *last + 1)
			ret = foreign_cycle(err, *last + 1);
		if (!ret)
			ret = read_cycle(r, &rx);
		if (!ret && c < scn->cycles)
			ret = settle(r, &rx, err);
		if (ret)
			vs_err_prefix(err, "cycle %u: ", c);
		*last = rx.id;
		scn_set_free(&rx.binds);
		scn_set_free(&rx.evicts);
	}
	return ret;
}

/* ---- after the last cycle ---- */

static int record_phase(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct scn_result *res = arg;
	struct vsnl_podgroup_tb pg;
	u32 phase = VS_PG_PENDING;
	char key[512];

	if (!tb[VS_A_PODGROUP] ||
	    vsnl_podgroup_parse(tb[VS_A_PODGROUP], &pg, VSNL_CODEC_REPLY, NULL) ||
	    !vsnl_podgroup_get_namespace(&pg) || !vsnl_podgroup_get_name(&pg))
		return -EPROTO;
	vsnl_podgroup_get_phase(&pg, &phase);
	snprintf(key, sizeof(key), "%s/%s", vsnl_podgroup_get_namespace(&pg),
		 vsnl_podgroup_get_name(&pg));
	/* the core's values, checked against the protocol's by uapi_test.c */
	return scn_set_add(&res->phases, key, vs_pg_phase_name((enum vs_pg_phase)phase), 0, 0);
}

static int read_phases(struct scn_remote *r, struct scn_result *res, struct vs_err *err)
{
	struct vsnl_err e = { 0 };
	int ret;

	ret = vsnl_request(r->req, vsnl_msg_new(VS_CMD_PODGROUP_GET, NLM_F_DUMP), record_phase,
			   res, &e);
	if (ret == -EPROTO && !e.msg[0])
		return vs_err_set(err, ret, "reading the PodGroups: a malformed PodGroup");
	return ret ? remote_fail(err, ret, &e, "reading the PodGroups") : 0;
}

/* hypernodes: each HyperNode's parent and node count, as scenario_run() records them. */
static int record_hypernode(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct scn_result *res = arg;
	struct vsnl_hypernode_tb hn;
	const char *name, *parent;
	char key[320], count[16];
	u32 nr = 0;

	if (!tb[VS_A_HYPERNODE] ||
	    vsnl_hypernode_parse(tb[VS_A_HYPERNODE], &hn, VSNL_CODEC_REPLY, NULL) ||
	    !(name = vsnl_hypernode_get_name(&hn)) || !vsnl_hypernode_get_nr_nodes(&hn, &nr))
		return -EPROTO;
	parent = vsnl_hypernode_get_parent(&hn);
	snprintf(key, sizeof(key), "%s parent", name);
	snprintf(count, sizeof(count), "%u", nr);
	if (scn_set_add(&res->hypernodes, key, parent ? parent : "", 0, 0))
		return -ENOMEM;
	snprintf(key, sizeof(key), "%s nodeCount", name);
	return scn_set_add(&res->hypernodes, key, count, 0, 0);
}

static int read_hypernodes(struct scn_remote *r, const struct scenario *scn,
			   struct scn_result *res, struct vs_err *err)
{
	struct vsnl_err e = { 0 };
	int ret;

	if (!(scn->expect.has & (1u << SCN_HYPERNODES)))
		return 0;
	ret = vsnl_request(r->req, vsnl_msg_new(VS_CMD_HYPERNODE_GET, NLM_F_DUMP),
			   record_hypernode, res, &e);
	if (ret == -EPROTO && !e.msg[0])
		return vs_err_set(err, ret, "reading the HyperNodes: a malformed HyperNode");
	return ret ? remote_fail(err, ret, &e, "reading the HyperNodes") : 0;
}

/* explain: each object the expectations name, as the daemon explains it. */
static int read_explanations(struct scn_remote *r, const struct scenario *scn,
			     struct scn_result *res, struct vs_err *err)
{
	const struct scn_set *want = &scn->expect.explain;

	for (u32 i = 0; i < want->nr; i++) {
		const char *key = want->e[i].key;
		struct vsnl_err e = { 0 };
		struct scn_explain_key k;
		struct nlmsghdr *nlh;
		struct nl_msg *m;
		size_t cap;
		json_t *reply = NULL;
		struct nlattr *nest;
		u16 attr;
		int ret;

		if (i && !strcmp(key, want->e[i - 1].key))
			continue;	/* the same object, another line */
		scn_explain_key(key, &k);
		attr = k.kind == SCN_EX_NODE ? VS_EXPLAIN_A_NODE :
		       k.kind == SCN_EX_JOB ? VS_EXPLAIN_A_PODGROUP : VS_EXPLAIN_A_TASK;
		m = vsnl_msg_new(VS_CMD_EXPLAIN, 0);
		if (!m)
			return vs_err_set(err, ENOMEM, "out of memory");
		nlh = vsnl_msg_hdr(m, &cap);
		nest = vsnl_vsched_start_explain(nlh, cap, &e);
		if (!nest || (*k.ns && vsnl_explain_put_namespace(nlh, cap, k.ns, &e)) ||
		    vsnl_codec_put_str(nlh, cap, &vsnl_codec_explain, attr, k.name, &e) ||
		    (k.kind == SCN_EX_SCORES &&
		     vsnl_explain_put_scores(nlh, cap, SCN_EXPLAIN_SCORES, &e))) {
			nlmsg_free(m);
			return remote_fail(err, e.err, &e, "explaining");
		}
		mnl_attr_nest_end(nlh, nest);
		ret = vsnl_request(r->req, m, vsnl_render_keep, &reply, &e);
		if (!ret)
			ret = scn_explain_add(res, key, json_object_get(reply, "explain"));
		json_decref(reply);
		if (ret)
			return remote_fail(err, ret, &e, "explaining");
	}
	return 0;
}

int scenario_run_remote(struct scn_remote *r, struct scenario *scn, struct scn_result *res,
			struct vs_err *err)
{
	u64 last, after;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = last_cycle(r, &last, err);
	if (!ret)
		ret = simple(r, VS_CMD_RESET, "resetting the daemon", err);
	if (!ret)
		ret = set_conf(r, scn, err);
	if (!ret)
		ret = send_objects(r, &scn->cl, err);
	if (!ret)
		ret = run_cycles(r, scn, res, &last, err);
	if (!ret)
		ret = read_phases(r, res, err);
	if (!ret)
		ret = read_explanations(r, scn, res, err);
	if (!ret)
		ret = read_hypernodes(r, scn, res, err);
	if (!ret)
		ret = last_cycle(r, &after, err);
	if (!ret && after != last)
		ret = foreign_cycle(err, last + 1);
	return ret;
}
