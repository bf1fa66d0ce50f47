// SPDX-License-Identifier: Apache-2.0
/*
 * Decisions to the API server (kbind.h has the model): a queue of work,
 * at most b->inflight requests at a time, results back to the core.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <libmnl/libmnl.h>
#include <netlink/genl/genl.h>
#include <netlink/list.h>

#include "lib/log.h"
#include "lib/codec_gen.h"
#include "vskube/kbind.h"

struct kwork {
	struct nl_list_head link;		/* kbind.waiting or kbind.running */
	struct kbind *b;
	struct kcl_req *req;		/* while running */
	u32 kind;			/* enum vs_decision_kind */
	bool deleting;			/* an eviction the API refused: the pod is deleted */
	char *ns, *name, *node;
};

struct kbind {
	struct kcl *c;
	struct ksync *s;
	struct kstatus *status;
	u32 inflight, nr_running, nr_waiting;
	struct nl_list_head waiting, running;
	struct kbind_stats st;
	u64 msg[512];			/* a bind result: 4 KiB, aligned */
};

static void work_free(struct kwork *w)
{
	nl_list_del(&w->link);
	free(w->ns);
	free(w->name);
	free(w->node);
	free(w);
}

static void start_more(struct kbind *b);

/* The API server's words for a failure: a Status's message, else the status and body. */
static void api_message(long status, const char *body, const char *why, char *buf, size_t size)
{
	json_t *j, *m;

	if (!status) {
		snprintf(buf, size, "no answer from the API server: %s", why ? why : "");
		return;
	}
	j = json_loads(body, 0, NULL);
	m = json_object_get(j, "message");
	if (json_is_string(m))
		snprintf(buf, size, "%s", json_string_value(m));
	else
		snprintf(buf, size, "HTTP %ld: %.200s", status, body);
	json_decref(j);
}

static int errno_of(long status)
{
	switch (status) {
	case 0:
		return -EIO;
	case 404:
		return -ENOENT;
	case 409:
		return -EEXIST;
	case 403:
	case 401:
		return -EACCES;
	case 429:
		return -EBUSY;
	default:
		return -EIO;
	}
}

static void bind_result(struct kbind *b, struct kwork *w, int error, const char *msg)
{
	const size_t cap = sizeof(b->msg);
	struct nlmsghdr *nlh = vsnl_msg_put(b->msg, cap, VS_CMD_BIND_RESULT, 0);
	struct vsnl_err err = { 0 };
	struct nlattr *nest;
	char what[320];

	snprintf(what, sizeof(what), "bind result of pods %s/%s", w->ns, w->name);
	/* Names come from vschedd's decision, the message from a 512-byte buffer: all fit. */
	nest = vsnl_vsched_start_bind_result(nlh, cap, &err);
	if (!nest || vsnl_bind_result_put_namespace(nlh, cap, w->ns, &err) ||
	    vsnl_bind_result_put_name(nlh, cap, w->name, &err) ||
	    vsnl_bind_result_put_node(nlh, cap, w->node, &err) ||
	    vsnl_bind_result_put_error(nlh, cap, error, &err) ||
	    (error && vsnl_bind_result_put_message(nlh, cap, msg, &err))) {
		vsnl_error("%s: %s: the bind times out in vschedd instead", what, err.msg);
		return;
	}
	mnl_attr_nest_end(nlh, nest);
	if (ksync_queue(b->s, nlh, what))
		vsnl_error("%s: out of memory: the bind times out in vschedd instead", what);
}

static void done(struct kcl_req *r, long status, const char *body, size_t len, const char *why,
		 void *ctx)
{
	struct kwork *w = ctx;
	struct kbind *b = w->b;
	char msg[512];

	b->nr_running--;
	w->req = NULL;
	if (w->kind == VS_DECISION_BIND) {
		if (status == 201 || status == 200) {
			b->st.binds++;
			vsnl_v(3, "Bound pod <%s/%s> to node <%s>", w->ns, w->name, w->node);
			bind_result(b, w, 0, NULL);
		} else {
			api_message(status, body, why, msg, sizeof(msg));
			b->st.bind_failures++;
			vsnl_warn("Failed to bind pod <%s/%s> to node <%s>: %s", w->ns, w->name,
				  w->node, msg);
			bind_result(b, w, errno_of(status), msg);
		}
	} else if (status == 200 || status == 201 || status == 404) {
		/* evicted or deleted; a pod already gone is what was wanted */
		b->st.evictions++;
		b->st.evict_deletes += w->deleting;
		vsnl_v(3, "Evicted pod <%s/%s> from node <%s>", w->ns, w->name, w->node);
	} else if (!w->deleting && status != 0 && status != 401 && status != 403) {
		api_message(status, body, why, msg, sizeof(msg));
		vsnl_v(2, "eviction of pod <%s/%s> refused (%s): deleting it", w->ns, w->name, msg);
		w->deleting = true;
		nl_list_del(&w->link);
		nl_list_add_tail(&w->link, &b->waiting);
		b->nr_waiting++;
		start_more(b);
		return;
	} else {
		api_message(status, body, why, msg, sizeof(msg));
		b->st.evict_failures++;
		vsnl_warn("Failed to evict pod <%s/%s>: %s", w->ns, w->name, msg);
	}
	work_free(w);
	start_more(b);
}

static bool start(struct kbind *b, struct kwork *w)
{
	char path[700];
	json_t *j;
	char *body;

	if (w->kind == VS_DECISION_EVICT && w->deleting) {
		snprintf(path, sizeof(path), "/api/v1/namespaces/%s/pods/%s", w->ns, w->name);
		w->req = kcl_request(b->c, "DELETE", path, NULL, NULL, 0, done, w);
		return w->req != NULL;
	}
	if (w->kind == VS_DECISION_BIND) {
		snprintf(path, sizeof(path), "/api/v1/namespaces/%s/pods/%s/binding", w->ns,
			 w->name);
		j = json_pack("{s:s, s:s, s:{s:s, s:s}, s:{s:s, s:s, s:s}}", "apiVersion", "v1",
			      "kind", "Binding", "metadata", "name", w->name, "namespace", w->ns,
			      "target", "apiVersion", "v1", "kind", "Node", "name", w->node);
	} else {
		snprintf(path, sizeof(path), "/api/v1/namespaces/%s/pods/%s/eviction", w->ns,
			 w->name);
		j = json_pack("{s:s, s:s, s:{s:s, s:s}}", "apiVersion", "policy/v1", "kind",
			      "Eviction", "metadata", "name", w->name, "namespace", w->ns);
	}
	body = j ? json_dumps(j, JSON_COMPACT) : NULL;
	json_decref(j);
	if (!body)
		return false;
	w->req = kcl_request(b->c, "POST", path, "application/json", body, strlen(body), done, w);
	free(body);
	return w->req != NULL;
}

static void start_more(struct kbind *b)
{
	while (!nl_list_empty(&b->waiting) && b->nr_running < b->inflight) {
		struct kwork *w = nl_list_first_entry(&b->waiting, struct kwork, link);

		nl_list_del(&w->link);
		nl_list_add_tail(&w->link, &b->running);
		b->nr_waiting--;
		if (!start(b, w)) {
			vsnl_error("pods %s/%s: out of memory: its decision is dropped", w->ns,
				   w->name);
			work_free(w);
			continue;
		}
		b->nr_running++;
	}
}

static int queue_decision(struct kbind *b, const struct nlattr *nest)
{
	struct vsnl_decision_tb d;
	struct kwork *w;
	u32 kind;

	if (vsnl_decision_parse(nest, &d, VSNL_CODEC_REPLY, NULL) ||
	    !vsnl_decision_get_kind(&d, &kind) || !vsnl_decision_get_namespace(&d) ||
	    !vsnl_decision_get_name(&d) || !vsnl_decision_get_node(&d))
		return -EPROTO;
	if (kind != VS_DECISION_BIND && kind != VS_DECISION_EVICT)
		return 0;	/* a pipeline: the task waits; nothing to do */
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	NL_INIT_LIST_HEAD(&w->link);
	w->b = b;
	w->kind = kind;
	w->ns = strdup(vsnl_decision_get_namespace(&d));
	w->name = strdup(vsnl_decision_get_name(&d));
	w->node = strdup(vsnl_decision_get_node(&d));
	if (!w->ns || !w->name || !w->node) {
		work_free(w);
		return -ENOMEM;
	}
	b->st.decisions++;
	nl_list_add_tail(&w->link, &b->waiting);
	b->nr_waiting++;
	return 0;
}

static int on_note(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct genlmsghdr *g = nlmsg_data(nlh);
	struct kbind *b = arg;
	const struct nlattr *a;
	int ret;

	if (g->cmd == VS_CMD_STATUS && b->status) {
		ret = kstatus_note(b->status, nlh);
		if (ret == -EPROTO)
			vsnl_warn("vschedd sent a status without what it must carry: ignored");
		return ret == -EPROTO ? 0 : ret;
	}
	if (g->cmd != VS_CMD_DECISIONS)
		return 0;
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) != VS_A_DECISION)
			continue;
		ret = queue_decision(b, a);
		if (ret == -EPROTO)
			vsnl_warn("vschedd sent a decision without its task or node: ignored");
		else if (ret)
			return ret;
	}
	return 0;
}

int kbind_read(struct kbind *b, struct vsnl *dec, struct vsnl_err *err)
{
	int ret;

	do {
		ret = vsnl_recv_notifications(dec, 0, on_note, b, err);
		if (ret == -ENOBUFS) {
			/* the binds lost time out in vschedd and are tried again */
			b->st.lost++;
			vsnl_warn("vschedd dropped notifications for this bridge (its queue "
				  "overflowed): the binds lost time out and are retried; statuses lost "
				  "are written when they change again");
			ret = 1;
		}
	} while (ret > 0);
	start_more(b);
	return ret;
}

struct kbind *kbind_new(struct kcl *c, struct ksync *s, struct kstatus *status, u32 inflight)
{
	struct kbind *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->c = c;
	b->s = s;
	b->status = status;
	b->inflight = inflight ? inflight : KBIND_INFLIGHT_DEFAULT;
	NL_INIT_LIST_HEAD(&b->waiting);
	NL_INIT_LIST_HEAD(&b->running);
	return b;
}

void kbind_free(struct kbind *b)
{
	struct kwork *w, *tmp;

	if (!b)
		return;
	nl_list_for_each_entry_safe(w, tmp, &b->running, link) {
		kcl_cancel(w->req);
		work_free(w);
	}
	nl_list_for_each_entry_safe(w, tmp, &b->waiting, link)
		work_free(w);
	free(b);
}

u32 kbind_pending(const struct kbind *b)
{
	return b->nr_running + b->nr_waiting;
}

const struct kbind_stats *kbind_stats(const struct kbind *b)
{
	return &b->st;
}
