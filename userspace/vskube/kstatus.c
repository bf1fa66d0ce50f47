// SPDX-License-Identifier: Apache-2.0
/*
 * Statuses to the API server (kstatus.h has the model): one piece of work
 * per object, found by its key while it waits or runs, at most
 * s->inflight requests at a time.
 */
#include <errno.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include <libmnl/libmnl.h>
#include <netlink/genl/genl.h>
#include <netlink/hash.h>
#include <netlink/list.h>

#include "lib/log.h"
#include "lib/codec_gen.h"
#include "lib/render.h"
#include "lib/vsnl.h"
#include "vsched/vsched.h"
#include "vskube/kstatus.h"

/* Kubernetes' events are notes: client-go cuts a message longer than this. */
#define EVENT_MESSAGE_MAX	1024
#define TRIES			3


/* What to write, and the Event to record once written (type NULL: none). */
struct kst_write {
	char *patch;
	const char *ev_type, *ev_reason;	/* static */
	char *ev_message;
};

struct kst_work {
	struct nl_list_head link;		/* waiting or running */
	struct kstatus *s;
	struct kcl_req *req;
	enum kstatus_kind kind;
	bool running, has_next;
	u32 tries;
	char *ns, *name;			/* ns NULL for a queue */
	struct kst_write w;
	struct kst_write next;			/* arrived while w was being written */
};

/* An Event being recorded: not an object's work, nothing waits for it. */
struct kst_event {
	struct nl_list_head link;		/* kstatus.events */
	struct kstatus *s;
	struct kcl_req *req;
};

struct kstatus {
	struct kcl *c;
	char *component, *host;
	u32 inflight, nr_running, nr_waiting, nr_events;
	struct nl_list_head waiting, running, events;
	/*
	 * Every work, by kind and key (a tsearch() tree). A work lives only
	 * while it waits or runs, so this holds what is queued, not every
	 * object, and a tree's log n compares cost nothing beside a request.
	 */
	void *index;
	struct kstatus_stats st;
	kstatus_lookup_fn lookup;
	void *lookup_ctx;
};

static const char *const kind_names[] = { "podgroups", "pods", "queues" };

/* The index's order: by kind, then namespace (none first), then name. */
static int work_cmp(const void *pa, const void *pb)
{
	const struct kst_work *a = pa, *b = pb;
	int r;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (!a->ns || !b->ns)
		r = !!a->ns - !!b->ns;
	else
		r = strcmp(a->ns, b->ns);
	return r ? r : strcmp(a->name, b->name);
}

static struct kst_work *find(struct kstatus *s, enum kstatus_kind kind, const char *ns,
			     const char *name)
{
	struct kst_work key = { .kind = kind, .ns = (char *)ns, .name = (char *)name };
	struct kst_work **w = tfind(&key, &s->index, work_cmp);

	return w ? *w : NULL;
}

static void write_free(struct kst_write *w)
{
	free(w->patch);
	free(w->ev_message);
	memset(w, 0, sizeof(*w));
}

static void work_free(struct kst_work *w)
{
	tdelete(w, &w->s->index, work_cmp);
	nl_list_del(&w->link);
	write_free(&w->w);
	write_free(&w->next);
	free(w->ns);
	free(w->name);
	free(w);
}

/* Now, as metav1.Time writes it: RFC 3339, seconds, UTC. */
static void time_fmt(char *buf, size_t size, time_t t)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void time_now(char *buf, size_t size)
{
	time_fmt(buf, size, time(NULL));
}

/* ---- Events ---- */

static void event_done(struct kcl_req *r, long status, const char *body, size_t len,
		       const char *why, void *ctx)
{
	struct kst_event *e = ctx;
	struct kstatus *s = e->s;

	if (status == 201 || status == 200) {
		s->st.events++;
	} else {
		s->st.failures++;
		vsnl_v(2, "recording an Event failed: %s", status ? body : why);
	}
	nl_list_del(&e->link);
	s->nr_events--;
	free(e);
}

/*
 * client-go's recorder: an Event named after the object and the time,
 * in the object's namespace, about the object as the PATCH answered it.
 */
static void record(struct kstatus *s, const struct kst_work *w, json_t *obj)
{
	static const char *const kinds[] = { "PodGroup", "Pod" };
	static const char *const versions[] = { "scheduling.volcano.sh/v1beta1", "v1" };
	json_t *meta = json_object_get(obj, "metadata");
	const char *uid = json_string_value(json_object_get(meta, "uid"));
	const char *rv = json_string_value(json_object_get(meta, "resourceVersion"));
	char name[VS_NAME_MAX + 32], path[512], now[32];
	struct kst_event *e;
	struct timespec ts;
	json_t *ev;
	char *body;

	if (!w->w.ev_type || w->kind == KSTATUS_QUEUE)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(name, sizeof(name), "%.220s.%llx", w->name,
		 (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec);
	time_now(now, sizeof(now));
	ev = json_pack("{s:s, s:s, s:{s:s, s:s}, s:{s:s, s:s, s:s, s:s, s:s*, s:s*}, s:s, s:s%, "
		       "s:s, s:{s:s, s:s}, s:s, s:s, s:i, s:s, s:s}",
		       "apiVersion", "v1", "kind", "Event",
		       "metadata", "name", name, "namespace", w->ns,
		       "involvedObject", "kind", kinds[w->kind], "apiVersion", versions[w->kind],
		       "namespace", w->ns, "name", w->name, "uid", uid, "resourceVersion", rv,
		       "reason", w->w.ev_reason, "message", w->w.ev_message,
		       strnlen(w->w.ev_message, EVENT_MESSAGE_MAX), "type", w->w.ev_type,
		       "source", "component", s->component, "host", s->host,
		       "firstTimestamp", now, "lastTimestamp", now, "count", 1,
		       "reportingComponent", s->component, "reportingInstance", s->host);
	body = ev ? json_dumps(ev, JSON_COMPACT) : NULL;
	json_decref(ev);
	e = body ? calloc(1, sizeof(*e)) : NULL;
	if (!e) {
		free(body);
		s->st.failures++;
		vsnl_error("out of memory recording an Event on %s %s/%s", kind_names[w->kind],
			   w->ns, w->name);
		return;
	}
	e->s = s;
	snprintf(path, sizeof(path), "/api/v1/namespaces/%s/events", w->ns);
	e->req = kcl_request(s->c, "POST", path, "application/json", body, strlen(body),
			     event_done, e);
	free(body);
	if (!e->req) {
		free(e);
		s->st.failures++;
		return;
	}
	nl_list_add_tail(&e->link, &s->events);
	s->nr_events++;
}

/* ---- writes ---- */

static void start_more(struct kstatus *s);

static void done(struct kcl_req *r, long status, const char *body, size_t len, const char *why,
		 void *ctx)
{
	struct kst_work *w = ctx;
	struct kstatus *s = w->s;
	const char *ns = w->ns ? w->ns : "", *slash = w->ns ? "/" : "";

	s->nr_running--;
	w->req = NULL;
	w->running = false;
	if (status == 200 || status == 201) {
		json_t *obj = json_loadb(body, len, 0, NULL);

		s->st.podgroups += w->kind == KSTATUS_PODGROUP;
		s->st.pods += w->kind == KSTATUS_POD;
		s->st.queues += w->kind == KSTATUS_QUEUE;
		vsnl_v(4, "Updated the status of %s %s%s%s", kind_names[w->kind], ns, slash, w->name);
		record(s, w, obj);
		json_decref(obj);
	} else if (status == 404) {
		s->st.gone++;
		vsnl_v(4, "%s %s%s%s is not in the API server: its status is not written",
		       kind_names[w->kind], ns, slash, w->name);
	} else if ((!status || status == 429 || status >= 500) && ++w->tries < TRIES &&
		   !w->has_next) {
		vsnl_v(2, "writing the status of %s %s%s%s failed (%s): trying again",
		       kind_names[w->kind], ns, slash, w->name, status ? "an error" : why);
		nl_list_del(&w->link);
		nl_list_add_tail(&w->link, &s->waiting);
		s->nr_waiting++;
		start_more(s);
		return;
	} else {
		s->st.failures++;
		vsnl_error("Failed to update the status of %s %s%s%s: %s", kind_names[w->kind], ns,
			   slash, w->name, status ? body : why);
	}
	if (w->has_next) {
		/* what came meanwhile goes next */
		write_free(&w->w);
		w->w = w->next;
		memset(&w->next, 0, sizeof(w->next));
		w->has_next = false;
		w->tries = 0;
		nl_list_del(&w->link);
		nl_list_add_tail(&w->link, &s->waiting);
		s->nr_waiting++;
	} else {
		work_free(w);
	}
	start_more(s);
}

static bool start(struct kstatus *s, struct kst_work *w)
{
	char path[700];

	switch (w->kind) {
	case KSTATUS_PODGROUP:
		/*
		 * Volcano's PodGroup CRD has no status subresource (its
		 * status is written with the object, as Volcano's scheduler
		 * does with Update): .../podgroups/NAME/status is 404.
		 */
		snprintf(path, sizeof(path), "/apis/scheduling.volcano.sh/v1beta1/namespaces/%s/"
			 "podgroups/%s", w->ns, w->name);
		break;
	case KSTATUS_POD:
		snprintf(path, sizeof(path), "/api/v1/namespaces/%s/pods/%s/status", w->ns,
			 w->name);
		break;
	case KSTATUS_QUEUE:
		snprintf(path, sizeof(path), "/apis/scheduling.volcano.sh/v1beta1/queues/%s/status",
			 w->name);
		break;
	}
	w->req = kcl_request(s->c, "PATCH", path, w->kind == KSTATUS_POD ?
			     "application/strategic-merge-patch+json" :
			     "application/merge-patch+json", w->w.patch, strlen(w->w.patch), done, w);
	return w->req != NULL;
}

static void start_more(struct kstatus *s)
{
	while (!nl_list_empty(&s->waiting) && s->nr_running < s->inflight) {
		struct kst_work *w = nl_list_first_entry(&s->waiting, struct kst_work, link);

		nl_list_del(&w->link);
		nl_list_add_tail(&w->link, &s->running);
		s->nr_waiting--;
		if (!start(s, w)) {
			s->st.failures++;
			vsnl_error("%s %s: out of memory: its status is not written",
				   kind_names[w->kind], w->name);
			work_free(w);
			continue;
		}
		w->running = true;
		s->nr_running++;
	}
}

/* Take @wr (its strings are then the work's) for the object @kind @ns/@name. */
static int submit(struct kstatus *s, enum kstatus_kind kind, const char *ns, const char *name,
		  struct kst_write *wr)
{
	struct kst_work *w = find(s, kind, ns, name);

	if (w && !w->running) {
		write_free(&w->w);
		w->w = *wr;
		w->tries = 0;
		s->st.coalesced++;
		return 0;
	}
	if (w) {
		if (w->has_next)
			s->st.coalesced++;
		write_free(&w->next);
		w->next = *wr;
		w->has_next = true;
		return 0;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		goto nomem;
	w->s = s;
	w->kind = kind;
	w->ns = ns ? strdup(ns) : NULL;
	w->name = strdup(name);
	if ((ns && !w->ns) || !w->name || !tsearch(w, &s->index, work_cmp)) {
		free(w->ns);
		free(w->name);
		free(w);
		goto nomem;
	}
	w->w = *wr;
	nl_list_add_tail(&w->link, &s->waiting);
	s->nr_waiting++;
	start_more(s);
	return 0;
nomem:
	write_free(wr);
	return -ENOMEM;
}

/* ---- what the API server holds ---- */

/* Strings, each with its NUL, hashed into 64 bits. */
struct dig {
	u32 a, b;
};

static void dig_str(struct dig *d, const char *str)
{
	size_t len = str ? strlen(str) + 1 : 1;

	str = str ? str : "";
	d->a = nl_hash_any(str, len, d->a);
	d->b = nl_hash_any(str, len, d->b ^ 0x9e3779b9);
}

static void dig_int(struct dig *d, json_int_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	dig_str(d, buf);
}

static u64 dig_end(const struct dig *d)
{
	u64 h = ((u64)d->a << 32 | d->b) & ~KSTATUS_DIGEST_FREE_BIT;

	return h ? h : 1;
}

static const char *jstr(json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

u64 kstatus_podgroup_digest(json_t *status)
{
	struct dig d = { 0x70670000, 0x73746174 };
	json_t *c;
	size_t i;

	dig_str(&d, jstr(status, "phase"));
	dig_int(&d, json_integer_value(json_object_get(status, "running")));
	dig_int(&d, json_integer_value(json_object_get(status, "succeeded")));
	dig_int(&d, json_integer_value(json_object_get(status, "failed")));
	json_array_foreach(json_object_get(status, "conditions"), i, c) {
		dig_str(&d, jstr(c, "type"));
		dig_str(&d, jstr(c, "status"));
		dig_str(&d, jstr(c, "reason"));
		dig_str(&d, jstr(c, "message"));
	}
	return dig_end(&d);
}

u64 kstatus_pod_digest(json_t *status)
{
	struct dig d = { 0x706f6400, 0x73636864 };
	const char *type, *st;
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(status, "conditions"), i, c) {
		type = jstr(c, "type");
		st = jstr(c, "status");
		if (!type || strcmp(type, "PodScheduled"))
			continue;
		if (!st || strcmp(st, "False"))
			return 0;
		dig_str(&d, jstr(c, "reason"));
		dig_str(&d, jstr(c, "message"));
		dig_str(&d, jstr(status, "nominatedNodeName"));
		return dig_end(&d);
	}
	return 0;
}

void kstatus_set_lookup(struct kstatus *s, kstatus_lookup_fn fn, void *ctx)
{
	s->lookup = fn;
	s->lookup_ctx = ctx;
}

/*
 * Whether the first status told of an object is the one the API server
 * has already (no write, nothing waiting for the object), or is of an
 * object it does not have: 1, the status is not to be written.
 */
static bool already_there(struct kstatus *s, enum kstatus_kind kind, const char *ns,
			  const char *name, u64 digest, bool event_due)
{
	u64 api = 0;
	int r;

	if (!s->lookup)
		return false;
	r = s->lookup(s->lookup_ctx, kind, ns, name, &api);
	if (r == -ENOENT) {
		s->st.absent++;
		return true;
	}
	if (r != 1 || api != digest || event_due ||
	    find(s, kind, ns, name))
		return false;
	s->st.unchanged++;
	return true;
}

/* ---- what vschedd tells ---- */

static const char *const phases[] = { "Pending", "Running", "Unknown", "Inqueue", "Completed" };
static const char *const cond_types[] = { "Unschedulable", "Scheduled" };

/* The set has no getters: its attributes are the statuses, one above their values. */
static u32 count(const struct nlattr *counts, enum vs_task_status_uapi st)
{
	struct vsnl_task_status_counts_tb a;

	if (!counts || vsnl_task_status_counts_parse(counts, &a, VSNL_CODEC_REPLY, NULL) ||
	    !a.attr[st + 1])
		return 0;
	return mnl_attr_get_u32(a.attr[st + 1]);
}

/* A patch as text; NULL (and @j freed) when out of memory. */
static char *dump(json_t *j)
{
	char *s = j ? json_dumps(j, JSON_COMPACT) : NULL;

	json_decref(j);
	return s;
}

/*
 * One condition of a PodGroup's status. A cycle's own: the cycle's number
 * and now, as Volcano writes its session's. A given one (the API
 * server's, kept): its own id, and its time if it had one.
 */
static json_t *cond_json(const struct vsnl_cond_tb *c, u32 type, const char *now)
{
	const char *reason = vsnl_cond_get_reason(c), *message = vsnl_cond_get_message(c);
	const char *given_id = vsnl_cond_get_transition_id(c);
	u64 transition = 0, at;
	char id[24], when[32];
	const char *time = now;
	u8 status = 0;
	bool has_time;

	vsnl_cond_get_transition(c, &transition);
	snprintf(id, sizeof(id), "%llu", (unsigned long long)transition);
	has_time = vsnl_cond_get_time(c, &at);
	if (has_time)
		time_fmt(when, sizeof(when), (time_t)at);
	if (given_id)
		time = has_time ? when : NULL;
	vsnl_cond_get_status(c, &status);
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s*}", "type", cond_types[type],
			 "status", status ? "True" : "False",
			 "reason", reason ? reason : "",
			 "message", message ? message : "",
			 "transitionID", given_id ? given_id : id,
			 "lastTransitionTime", time);
}

static int podgroup(struct kstatus *s, const struct nlattr *nest)
{
	json_t *conds = json_array(), *cond;
	const char *ns, *name, *fit_error;
	struct kst_write wr = { 0 };
	const struct nlattr *x, *nr;
	struct vsnl_podgroup_tb a;
	u32 phase, total = 0;
	struct vsnl_cond_tb c;
	char now[32];
	json_t *patch;

	if (vsnl_podgroup_parse(nest, &a, VSNL_CODEC_REPLY, NULL) ||
	    !(ns = vsnl_podgroup_get_namespace(&a)) || !(name = vsnl_podgroup_get_name(&a)) ||
	    !vsnl_podgroup_get_phase(&a, &phase) || phase >= ARRAY_SIZE(phases)) {
		json_decref(conds);
		return -EPROTO;
	}
	nr = vsnl_podgroup_get_nr_tasks(&a);
	fit_error = vsnl_podgroup_get_fit_error(&a);
	time_now(now, sizeof(now));
	mnl_attr_for_each_nested(x, nest) {
		u32 type;

		if (mnl_attr_get_type(x) != VS_PG_A_CONDITION)
			continue;
		if (vsnl_cond_parse(x, &c, VSNL_CODEC_REPLY, NULL) ||
		    !vsnl_cond_get_type(&c, &type) || type >= ARRAY_SIZE(cond_types)) {
			json_decref(conds);
			return -EPROTO;
		}
		cond = cond_json(&c, type, now);
		if (!cond || json_array_append_new(conds, cond)) {
			json_decref(conds);
			return -ENOMEM;
		}
	}
	for (int st = VS_TASK_STATUS_PENDING; st <= VS_TASK_STATUS_UNKNOWN; st++)
		total += count(nr, st);
	patch = json_pack("{s:{s:s, s:o, s:i, s:i, s:i}}", "status", "phase",
			  phases[phase], "conditions", conds, "running",
			  count(nr, VS_TASK_STATUS_RUNNING), "succeeded",
			  count(nr, VS_TASK_STATUS_SUCCEEDED), "failed",
			  count(nr, VS_TASK_STATUS_FAILED));
	/* an Unschedulable Event is due whatever the status: RecordJobStatusEvent */
	if (patch && already_there(s, KSTATUS_PODGROUP, ns, name,
				   kstatus_podgroup_digest(json_object_get(patch, "status")),
				   fit_error != NULL)) {
		json_decref(patch);
		return 0;
	}
	wr.patch = dump(patch);
	if (!wr.patch)
		return -ENOMEM;
	/* RecordJobStatusEvent */
	if (fit_error) {
		wr.ev_type = "Warning";
		wr.ev_reason = "Unschedulable";
		if (asprintf(&wr.ev_message, "%u/%u tasks in gang unschedulable: %s",
			     count(nr, VS_TASK_STATUS_PENDING), total,
			     fit_error) < 0)
			wr.ev_message = NULL;
	} else {
		wr.ev_type = "Normal";
		wr.ev_reason = "Scheduled";
		wr.ev_message = strdup("pod group is ready");
	}
	if (!wr.ev_message) {
		write_free(&wr);
		return -ENOMEM;
	}
	return submit(s, KSTATUS_PODGROUP, ns, name, &wr);
}

static int pod(struct kstatus *s, const struct nlattr *nest)
{
	const char *ns, *name, *reason, *message, *nominated;
	struct kst_write wr = { 0 };
	struct vsnl_task_tb a;
	char now[32];
	json_t *patch;

	if (vsnl_task_spec_parse(nest, &a, VSNL_CODEC_REPLY, NULL) ||
	    !(ns = vsnl_task_get_namespace(&a)) || !(name = vsnl_task_get_name(&a)) ||
	    !(reason = vsnl_task_get_sched_reason(&a)) ||
	    !(message = vsnl_task_get_sched_message(&a)))
		return -EPROTO;
	nominated = vsnl_task_get_nominated_node(&a);
	time_now(now, sizeof(now));
	/*
	 * taskUnschedulable(): only when the condition or the nominated node
	 * changes (podConditionHaveUpdate, podNominatedNodeNameNeedUpdate)
	 */
	patch = json_pack("{s:{s:[{s:s, s:s, s:s}], s:s*}}", "status", "conditions", "type",
			  "PodScheduled", "status", "False",
			  "reason", reason,
			  "message", message,
			  "nominatedNodeName", nominated);
	if (!patch)
		return -ENOMEM;
	if (already_there(s, KSTATUS_POD, ns, name,
			  kstatus_pod_digest(json_object_get(patch, "status")), false)) {
		json_decref(patch);
		return 0;
	}
	json_decref(patch);
	/* the condition, the nominated node, and FailedScheduling with its message */
	wr.patch = dump(json_pack("{s:{s:[{s:s, s:s, s:s, s:s, s:n, s:s}], s:s*}}", "status",
				  "conditions", "type", "PodScheduled", "status", "False",
				  "reason", reason,
				  "message", message,
				  "lastProbeTime", "lastTransitionTime", now,
				  "nominatedNodeName", nominated));
	wr.ev_type = "Warning";
	wr.ev_reason = "FailedScheduling";
	wr.ev_message = strdup(message);
	if (!wr.patch || !wr.ev_message) {
		write_free(&wr);
		return -ENOMEM;
	}
	return submit(s, KSTATUS_POD, ns, name, &wr);
}

/* A resource nest as a ResourceList: {"cpu": "1500m", "memory": "1Gi", "pods": "3"}. */
static json_t *resource_list(const struct nlattr *res)
{
	json_t *l = json_object();
	struct vsnl_scalar_tb sc;
	const struct nlattr *x;
	struct vsnl_res_tb r;
	u64 v = 0;
	char q[64];

	if (!l || !res)
		return l;
	if (vsnl_res_parse(res, &r, VSNL_CODEC_REPLY, NULL)) {
		json_decref(l);
		return NULL;
	}
	/* in the message's order: a scalar resource repeats, and its name is in its nest */
	mnl_attr_for_each_nested(x, res) {
		const char *name = NULL;

		switch (mnl_attr_get_type(x)) {
		case VS_RES_A_CPU:
			name = "cpu";
			vsnl_res_get_cpu(&r, &v);
			vsnl_quantity_fmt(q, sizeof(q), (s64)v, 3, false);
			break;
		case VS_RES_A_MEMORY:
			name = "memory";
			vsnl_res_get_memory(&r, &v);
			vsnl_quantity_fmt(q, sizeof(q), (s64)v, 0, true);
			break;
		case VS_RES_A_PODS:
			name = "pods";
			vsnl_res_get_pods(&r, &v);
			vsnl_quantity_fmt(q, sizeof(q), (s64)v, 0, false);
			break;
		case VS_RES_A_SCALAR:
			if (vsnl_scalar_parse(x, &sc, VSNL_CODEC_REPLY, NULL) ||
			    !vsnl_scalar_get_name(&sc) || !vsnl_scalar_get_value(&sc, &v))
				continue;
			name = vsnl_scalar_get_name(&sc);
			vsnl_quantity_fmt(q, sizeof(q), (s64)v, 3, false);
			break;
		}
		if (name && json_object_set_new(l, name, json_string(q))) {
			json_decref(l);
			return NULL;
		}
	}
	return l;
}

static int queue(struct kstatus *s, const struct nlattr *nest)
{
	struct kst_write wr = { 0 };
	struct vsnl_queue_tb a;
	json_t *alloc;

	if (vsnl_queue_parse(nest, &a, VSNL_CODEC_REPLY, NULL) || !vsnl_queue_get_name(&a))
		return -EPROTO;
	alloc = resource_list(vsnl_queue_get_allocated(&a));
	if (!alloc)
		return -ENOMEM;
	/* updateQueueStatus(): the scheduler writes allocated; the rest is the controller's */
	wr.patch = dump(json_pack("{s:{s:o}}", "status", "allocated", alloc));
	if (!wr.patch)
		return -ENOMEM;
	return submit(s, KSTATUS_QUEUE, NULL, vsnl_queue_get_name(&a), &wr);
}

int kstatus_note(struct kstatus *s, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	struct vsnl_vsched_tb tb;
	const struct nlattr *a;

	if (g->cmd != VS_CMD_STATUS)
		return 0;
	/* libvsnl checked what it delivers; a caller of this may not have */
	if (vsnl_codec_parse_msg(&vsnl_codec_reply, nlh, GENL_HDRLEN, tb.attr, VSNL_CODEC_REPLY,
				 NULL))
		return -EPROTO;
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		switch (mnl_attr_get_type(a)) {
		case VS_A_PODGROUP:
			return podgroup(s, a);
		case VS_A_TASK:
			return pod(s, a);
		case VS_A_QUEUE:
			return queue(s, a);
		}
	}
	return -EPROTO;
}

struct kstatus *kstatus_new(struct kcl *c, const char *component, u32 inflight)
{
	struct kstatus *s = calloc(1, sizeof(*s));
	char host[256];

	if (!s)
		return NULL;
	if (gethostname(host, sizeof(host)))
		snprintf(host, sizeof(host), "vskube");
	host[sizeof(host) - 1] = '\0';
	s->c = c;
	s->inflight = inflight ? inflight : KSTATUS_INFLIGHT_DEFAULT;
	s->component = strdup(component);
	s->host = strdup(host);
	NL_INIT_LIST_HEAD(&s->waiting);
	NL_INIT_LIST_HEAD(&s->running);
	NL_INIT_LIST_HEAD(&s->events);
	if (!s->component || !s->host) {
		free(s->component);
		free(s->host);
		free(s);
		return NULL;
	}
	return s;
}

void kstatus_free(struct kstatus *s)
{
	struct kst_work *w, *tmp;
	struct kst_event *e, *etmp;

	if (!s)
		return;
	nl_list_for_each_entry_safe(w, tmp, &s->running, link) {
		kcl_cancel(w->req);
		work_free(w);
	}
	nl_list_for_each_entry_safe(w, tmp, &s->waiting, link)
		work_free(w);
	nl_list_for_each_entry_safe(e, etmp, &s->events, link) {
		kcl_cancel(e->req);
		free(e);
	}
	/* work_free() took each work out of the index: it is empty */
	free(s->component);
	free(s->host);
	free(s);
}

u32 kstatus_pending(const struct kstatus *s)
{
	return s->nr_running + s->nr_waiting + s->nr_events;
}

const struct kstatus_stats *kstatus_stats(const struct kstatus *s)
{
	return &s->st;
}
