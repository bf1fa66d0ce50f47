// SPDX-License-Identifier: Apache-2.0
/*
 * The core kept in step with the API server (ksync.h has the model).
 *
 * Objects told by the informers gather in a round: the new and changed
 * ones (their JSON, held), and the keys of the deleted ones. A flush reads
 * each object with the manifest reader (kube/kread.h: kj_to_ynode(), then
 * kr_doc_of() and kr_put_new()), kind by kind, leaving out and logging
 * what the reader refuses, writes the requests into one buffer, compares
 * them with what was sent last (a table of 64-bit key hashes to a digest
 * of the request, or a pod's status), and sends what differs as a batch.
 * The table is changed only for what the daemon applied.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <jansson.h>
#include <netlink/hash.h>

#include "kube/kread.h"
#include "lib/codec.h"
#include "lib/codec_gen.h"
#include "lib/log.h"
#include "vskube/informer.h"
#include "vskube/kjson.h"
#include "vskube/kstatus.h"
#include "vskube/ksync.h"

/* Requests in a batch before it is sent, whatever the round holds: under the daemon's 64 MiB. */
#define KSYNC_BATCH_BYTES	(32u << 20)
/* Batches sent again without what the daemon refused, before each message goes alone. */
#define KSYNC_RETRIES		3

/* ---- the kinds, in the order they are listed ---- */

struct kfeed_info {
	enum kr_kind kind;
	const char *path;
	const char *api, *kind_name;	/* what list items lack */
	const char *resource;		/* the informer's, in messages: "pods ns/p1" */
	const char *what;		/* an object's, in the log: "pod ns/p1" */
	bool optional;			/* the API server may not serve it: kinf_set_optional() */
};

static const struct kfeed_info feed_info[] = {
	{ KR_PRIOCLASS, "/apis/scheduling.k8s.io/v1/priorityclasses", "scheduling.k8s.io/v1",
	  "PriorityClass", "priorityclasses", "priorityclass.scheduling.k8s.io", false },
	{ KR_QUEUE, "/apis/scheduling.volcano.sh/v1beta1/queues", "scheduling.volcano.sh/v1beta1",
	  "Queue", "queues", "queue.scheduling.volcano.sh", false },
	{ KR_NODE, "/api/v1/nodes", "v1", "Node", "nodes", "node", false },
	{ KR_PODGROUP, "/apis/scheduling.volcano.sh/v1beta1/podgroups",
	  "scheduling.volcano.sh/v1beta1", "PodGroup", "podgroups",
	  "podgroup.scheduling.volcano.sh", false },
	{ KR_POD, "/api/v1/pods", "v1", "Pod", "pods", "pod", false },
	/* Volcano v1.12 and later, with its CRD: vsched goes on without them */
	{ KR_HYPERNODE, "/apis/topology.volcano.sh/v1alpha1/hypernodes",
	  "topology.volcano.sh/v1alpha1", "HyperNode", "hypernodes",
	  "hypernode.topology.volcano.sh", true },
};

#define NR_FEEDS	ARRAY_SIZE(feed_info)

struct kfeed {
	struct ksync *s;
	const struct kfeed_info *info;
	struct kinf *inf;
	bool listed;			/* in this load */
	long absent;			/* the API server's 404 or 403, told: kept across loads */
};

/* ---- what was sent: 64-bit key hashes, open addressing ---- */

struct kmap_ent {
	u64 key;			/* 0: free */
	u64 val;
};

struct kmap {
	struct kmap_ent *v;
	u64 mask;			/* size - 1; size a power of two */
	u64 nr;
};

static u64 key_of(enum kr_kind kind, const char *ns, const char *name)
{
	size_t nl = ns ? strlen(ns) : 0, len = strlen(name);
	/* Two 32-bit hashes of (kind, namespace), each the seed of one of the name. */
	u32 a = nl_hash_any(ns, nl, 0x6b73796e ^ (u32)kind);
	u32 b = nl_hash_any(ns, nl, 0x636b6579 ^ (u32)kind << 8);
	u64 k = (u64)nl_hash_any(name, len, a) << 32 | nl_hash_any(name, len, b);

	return k ? k : 1;
}

static struct kmap_ent *kmap_slot(const struct kmap *m, u64 key)
{
	u64 i;

	if (!m->v)
		return NULL;
	for (i = key & m->mask; m->v[i].key; i = (i + 1) & m->mask)
		if (m->v[i].key == key)
			return &m->v[i];
	return &m->v[i];
}

static bool kmap_get(const struct kmap *m, u64 key, u64 *val)
{
	struct kmap_ent *e = kmap_slot(m, key);

	if (!e || !e->key)
		return false;
	if (val)
		*val = e->val;
	return true;
}

static int kmap_put(struct kmap *m, u64 key, u64 val)
{
	struct kmap_ent *e;

	if (!m->v || 4 * (m->nr + 1) > 3 * (m->mask + 1)) {
		u64 size = m->v ? 2 * (m->mask + 1) : 1024;
		struct kmap bigger = { .v = calloc(size, sizeof(*m->v)), .mask = size - 1 };

		if (!bigger.v)
			return -ENOMEM;
		for (u64 i = 0; m->v && i <= m->mask; i++)
			if (m->v[i].key)
				*kmap_slot(&bigger, m->v[i].key) = m->v[i];
		bigger.nr = m->nr;
		free(m->v);
		*m = bigger;
	}
	e = kmap_slot(m, key);
	if (!e->key)
		m->nr++;
	e->key = key;
	e->val = val;
	return 0;
}

/* Linear probing's deletion: the entries after the hole move back into it. */
static void kmap_del(struct kmap *m, u64 key)
{
	struct kmap_ent *e = kmap_slot(m, key);
	u64 i, j;

	if (!e || !e->key)
		return;
	i = (u64)(e - m->v);
	m->v[i].key = 0;
	m->nr--;
	for (j = (i + 1) & m->mask; m->v[j].key; j = (j + 1) & m->mask) {
		u64 home = m->v[j].key & m->mask;

		/* stays when its home lies cyclically in (i, j] */
		if (i <= j ? (home > i && home <= j) : (home > i || home <= j))
			continue;
		m->v[i] = m->v[j];
		m->v[j].key = 0;
		i = j;
	}
}

static void kmap_clear(struct kmap *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}

/* A pod's value: that it is a task in the core, and the status last told. */
#define KV_TASK		(1ull << 63)
/* ... and that it had scheduling gates then. */
#define KV_GATED	(1ull << 62)
/* ... and a hash of its status.nominatedNodeName then (0: none), above the status. */
#define KV_NOMINATED_SHIFT	8
#define KV_NOMINATED	(0xffffffffull << KV_NOMINATED_SHIFT)

/* ---- the requests of a flush ---- */

enum kmsg_done {
	KM_NOTHING,			/* the table does not change */
	KM_PUT,				/* key -> val */
	KM_DEL,
};

struct kmsg {
	u32 off, len;			/* in kout.buf */
	u32 seq;
	bool refused;
	bool report;			/* a task report: refused, the core has parted from the bridge */
	u8 done;			/* enum kmsg_done */
	u64 key, val;
	char what[160];			/* "pod ns/p1", for the log */
};

struct kout {
	u8 *buf;
	size_t len, cap;
	struct kmsg *v;
	u32 nr, cap_v;
};

/* A new or changed object of the round: its JSON, held until the flush reads it. */
struct kobj {
	const struct kfeed_info *fi;
	json_t *obj;
};

struct kdel {
	const struct kfeed_info *fi;
	char *ns, *name;
};

struct ksync {
	struct kcl *c;
	struct vsnl *nl;
	struct ksync_opts opts;
	struct kfeed feeds[NR_FEEDS];
	u32 stage;			/* feeds started in this load */
	bool loading;
	bool synced;
	bool resync;			/* the daemon refused a report: load again */
	u64 last_load_ms;
	int fatal;			/* a flush inside a callback failed: told at the next */
	struct vsnl_err fatal_err;

	struct kmap sent;
	struct kmap api;		/* statuses the API server holds: see ksync_status_lookup() */

	/* the round */
	struct kmap round_keys;
	struct kobj *objs;
	u32 nr_objs, cap_objs;
	struct kdel *dels;
	u32 nr_dels, cap_dels;
	u32 nr_round;

	struct kout out;
	struct kout ext;		/* the caller's messages (bind results) for the next batch */

	struct ksync_stats st;
	u8 *msg;			/* one request: VS_MSG_MAX bytes (malloc: aligned) */
};

/* ---- the out buffer ---- */

static struct kmsg *kout_add(struct kout *o, const struct nlmsghdr *nlh)
{
	struct kmsg *m;

	if (o->len + nlh->nlmsg_len > o->cap) {
		size_t cap = o->cap ? o->cap : 1u << 20;
		u8 *bigger;

		while (cap < o->len + nlh->nlmsg_len)
			cap *= 2;
		bigger = realloc(o->buf, cap);
		if (!bigger)
			return NULL;
		o->buf = bigger;
		o->cap = cap;
	}
	if (o->nr == o->cap_v) {
		u32 cap = o->cap_v ? 2 * o->cap_v : 1024;

		m = realloc(o->v, cap * sizeof(*m));
		if (!m)
			return NULL;
		o->v = m;
		o->cap_v = cap;
	}
	m = &o->v[o->nr++];
	memset(m, 0, offsetof(struct kmsg, what) + 1);
	m->off = (u32)o->len;
	m->len = nlh->nlmsg_len;
	memcpy(o->buf + o->len, nlh, nlh->nlmsg_len);
	/* messages follow each other aligned, as in a datagram */
	o->len += NLMSG_ALIGN(nlh->nlmsg_len);
	return m;
}

static void kout_reset(struct kout *o)
{
	o->len = 0;
	o->nr = 0;
}

static void kout_free(struct kout *o)
{
	kout_reset(o);
	free(o->buf);
	free(o->v);
	memset(o, 0, sizeof(*o));
}
/* ---- the round ---- */

static void round_close(struct ksync *s)
{
	for (u32 i = 0; i < s->nr_objs; i++)
		json_decref(s->objs[i].obj);
	s->nr_objs = 0;
	for (u32 i = 0; i < s->nr_dels; i++) {
		free(s->dels[i].ns);
		free(s->dels[i].name);
	}
	s->nr_dels = 0;
	kmap_clear(&s->round_keys);
	s->nr_round = 0;
}

static const char *str_at(json_t *obj, const char *a, const char *b)
{
	json_t *v = json_object_get(json_object_get(obj, a), b);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* The exit code of a failed pod's first container that failed, as the job controller reads it. */
static s32 pod_exit_code(json_t *pod)
{
	json_t *st = json_object_get(json_object_get(pod, "status"), "containerStatuses");
	json_t *c;
	size_t i;

	json_array_foreach(st, i, c) {
		json_t *term = json_object_get(json_object_get(c, "state"), "terminated");
		json_t *code = json_object_get(term, "exitCode");

		if (json_is_integer(code) && json_integer_value(code))
			return (s32)json_integer_value(code);
	}
	return 0;
}

static int flush_round(struct ksync *s, struct vsnl_err *err);

/* A round holds an object once: a second change of it goes in the next. */
static int round_key(struct ksync *s, u64 key, struct vsnl_err *err)
{
	int ret;

	if (kmap_get(&s->round_keys, key, NULL) || s->nr_round >= KSYNC_CHUNK) {
		ret = flush_round(s, err);
		if (ret)
			return ret;
	}
	s->nr_round++;
	return kmap_put(&s->round_keys, key, 0);
}

/* The namespace of a key: "default" for a namespaced kind's object that names none. */
static const char *key_ns(const struct kfeed_info *fi, const char *ns)
{
	if (!kr_kind(fi->kind)->namespaced)
		return NULL;
	return ns && *ns ? ns : "default";
}

static int round_add(struct ksync *s, const struct kfeed_info *fi, json_t *obj,
		     struct vsnl_err *err)
{
	const char *ns = str_at(obj, "metadata", "namespace");
	const char *name = str_at(obj, "metadata", "name");
	int ret;

	if (!name) {
		s->st.refused_read++;
		vsnl_warn("%s: an object without metadata.name: left out", fi->resource);
		return 0;
	}
	ret = round_key(s, key_of(fi->kind, key_ns(fi, ns), name), err);
	if (ret)
		return ret;
	if (s->nr_objs == s->cap_objs) {
		u32 cap = s->cap_objs ? 2 * s->cap_objs : 1024;
		struct kobj *v = realloc(s->objs, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->objs = v;
		s->cap_objs = cap;
	}
	/* list items come without them: the reader takes an object by its kind */
	if (!json_object_get(obj, "kind"))
		json_object_set_new(obj, "kind", json_string(fi->kind_name));
	if (!json_object_get(obj, "apiVersion"))
		json_object_set_new(obj, "apiVersion", json_string(fi->api));
	s->objs[s->nr_objs++] = (struct kobj){ .fi = fi, .obj = json_incref(obj) };
	return 0;
}

static int round_del(struct ksync *s, const struct kfeed_info *fi, json_t *obj,
		     struct vsnl_err *err)
{
	const char *ns = key_ns(fi, str_at(obj, "metadata", "namespace"));
	const char *name = str_at(obj, "metadata", "name");
	struct kdel *d;
	int ret;

	if (!name)
		return 0;
	if (!kmap_get(&s->sent, key_of(fi->kind, ns, name), NULL))
		return 0;	/* never in the core: another scheduler's pod without a node */
	ret = round_key(s, key_of(fi->kind, ns, name), err);
	if (ret)
		return ret;
	if (s->nr_dels == s->cap_dels) {
		u32 cap = s->cap_dels ? 2 * s->cap_dels : 64;

		d = realloc(s->dels, cap * sizeof(*d));
		if (!d)
			return -ENOMEM;
		s->dels = d;
		s->cap_dels = cap;
	}
	d = &s->dels[s->nr_dels];
	d->fi = fi;
	d->ns = ns ? strdup(ns) : NULL;
	d->name = strdup(name);
	if (!d->name || (ns && !d->ns)) {
		free(d->ns);
		free(d->name);
		return -ENOMEM;
	}
	s->nr_dels++;
	return 0;
}

/* ---- the requests ---- */

static u64 digest(const struct nlmsghdr *nlh)
{
	return (u64)nl_hash_any(nlh, nlh->nlmsg_len, 0x64696765) << 32 |
	       nl_hash_any(nlh, nlh->nlmsg_len, 0x73740000);
}

static struct kmsg *emit(struct ksync *s, const struct nlmsghdr *nlh, const char *what)
{
	struct kmsg *m = kout_add(&s->out, nlh);

	if (m)
		snprintf(m->what, sizeof(m->what), "%s", what);
	return m;
}

static void obj_what(const struct kfeed_info *fi, const char *ns, const char *name, char *buf,
		     size_t size)
{
	snprintf(buf, size, "%s %s%s%s", fi->what, ns ? ns : "", ns ? "/" : "", name);
}

/* A VS_CMD_TASK_STATUS; NULL (with a warning naming @what) when the policy refuses it. */
/* A report of @event; a failure's @exit_code, a nomination's @nominated node (none: NULL). */
static struct nlmsghdr *task_report_of(struct ksync *s, const char *ns, const char *name,
				       u32 event, s32 exit_code, const char *nominated,
				       const char *what)
{
	struct nlmsghdr *nlh = vsnl_msg_put(s->msg, VS_MSG_MAX, VS_CMD_TASK_STATUS, 0);
	struct vsnl_err err = { 0 };
	struct nlattr *nest = vsnl_vsched_start_task(nlh, VS_MSG_MAX, &err);

	if (!nest || vsnl_task_put_namespace(nlh, VS_MSG_MAX, ns, &err) ||
	    vsnl_task_put_name(nlh, VS_MSG_MAX, name, &err) ||
	    vsnl_task_put_event(nlh, VS_MSG_MAX, event, &err) ||
	    (event == VS_TASK_EVENT_FAILED && exit_code &&
	     vsnl_task_put_exit_code(nlh, VS_MSG_MAX, exit_code, &err)) ||
	    (event == VS_TASK_EVENT_NOMINATED && nominated &&
	     vsnl_task_put_nominated_node(nlh, VS_MSG_MAX, nominated, &err))) {
		vsnl_warn("%s: %s: its status is not reported", what, err.msg);
		return NULL;
	}
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

static struct nlmsghdr *task_report(struct ksync *s, const char *ns, const char *name, u32 event,
				    s32 exit_code, const char *what)
{
	return task_report_of(s, ns, name, event, exit_code, NULL, what);
}

/* The deletions: pods' as reports, then the others' by key, dependents first. */
static int emit_dels(struct ksync *s)
{
	for (int f = NR_FEEDS - 1; f >= 0; f--) {
		for (u32 i = 0; i < s->nr_dels; i++) {
			struct kdel *d = &s->dels[i];
			struct vsnl_err err = { 0 };
			struct nlmsghdr *nlh;
			struct kmsg *m;
			char what[160];

			if (d->fi != &feed_info[f])
				continue;
			obj_what(d->fi, d->ns, d->name, what, sizeof(what));
			if (d->fi->kind == KR_POD) {
				nlh = task_report(s, d->ns, d->name, VS_TASK_EVENT_DELETED, 0,
						  what);
				if (!nlh)
					continue;
			} else if (kr_put_del(d->fi->kind, d->ns, d->name, s->msg, VS_MSG_MAX, &nlh,
					      &err)) {
				vsnl_warn("%s: %s: its deletion is not sent", what, err.msg);
				continue;
			}
			m = emit(s, nlh, what);
			if (!m)
				return -ENOMEM;
			m->done = KM_DEL;
			m->key = key_of(d->fi->kind, d->ns, d->name);
		}
	}
	return 0;
}

/* What a pod's status, as the reader puts it, reports to the core; -1: nothing. */
static int report_of(u32 status)
{
	switch (status) {
	case VS_TASK_STATUS_RUNNING:
		return VS_TASK_EVENT_RUNNING;
	case VS_TASK_STATUS_SUCCEEDED:
		return VS_TASK_EVENT_SUCCEEDED;
	case VS_TASK_STATUS_FAILED:
		return VS_TASK_EVENT_FAILED;
	case VS_TASK_STATUS_RELEASING:
		return VS_TASK_EVENT_DELETING;
	default:
		return -1;
	}
}

/*
 * The status the reader put in the pod's TASK_NEW @nlh (Pending, the
 * daemon's default, if none), whether it has scheduling gates, and its
 * nominated node (NULL: none; it points into @nlh).
 */
static u32 task_status_of(const struct nlmsghdr *nlh, bool *gated, const char **nominated)
{
	struct vsnl_vsched_tb top;
	struct vsnl_task_tb tb;
	struct vsnl_err err = { 0 };
	u32 status = VS_TASK_STATUS_PENDING;

	*gated = false;
	*nominated = NULL;
	if (!vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top.attr, VSNL_CODEC_REPLY,
				  &err) && vsnl_vsched_get_task(&top) &&
	    !vsnl_task_parse(vsnl_vsched_get_task(&top), &tb, VSNL_CODEC_REPLY, &err)) {
		vsnl_task_get_status(&tb, &status);
		*gated = vsnl_task_get_gated(&tb);
		*nominated = vsnl_task_get_nominated_node(&tb);
	}
	return status;
}

/* KV_NOMINATED's part of a pod's value: a hash of @node, never 0 for one. */
static u64 nominated_bits(const char *node)
{
	u32 h;

	if (!node)
		return 0;
	h = nl_hash_any(node, strlen(node), 0x6e6f6d) | 1;
	return (u64)h << KV_NOMINATED_SHIFT;
}

/* A pod's request (a @report of a task the core has): once applied, its value is @val. */
static int emit_pod_msg(struct ksync *s, struct nlmsghdr *nlh, const char *what, u64 key, u64 val,
			bool report)
{
	struct kmsg *m = emit(s, nlh, what);

	if (!m)
		return -ENOMEM;
	m->done = KM_PUT;
	m->report = report;
	m->key = key;
	m->val = val;
	return 0;
}

/*
 * A pod the core does not have is sent as it is (a new task: its spec
 * cannot change but for its scheduling gates, which may only go); one it
 * has, by what its status reports, that its gates went, and its nominated
 * node, when that changed.
 */
static int emit_pod(struct ksync *s, const struct kr_doc *doc, json_t *obj,
		    struct nlmsghdr *nlh, const char *what)
{
	u64 key = key_of(KR_POD, doc->ns, doc->name), prev;
	const char *nominated;
	bool gated;
	u32 status = task_status_of(nlh, &gated, &nominated);
	u64 val = KV_TASK | (gated ? KV_GATED : 0) | nominated_bits(nominated) | status;
	bool known = kmap_get(&s->sent, key, &prev);
	int ev;

	if (known) {
		if (prev == val) {
			s->st.unchanged++;
			return 0;
		}
		if ((prev & KV_GATED) && !gated) {
			nlh = task_report(s, doc->ns, doc->name, VS_TASK_EVENT_UNGATED, 0, what);
			if (!nlh)
				return 0;
			prev &= ~KV_GATED;
			if (emit_pod_msg(s, nlh, what, key, prev, true))
				return -ENOMEM;
			if (prev == val)
				return 0;
		}
		if ((prev & KV_NOMINATED) != (val & KV_NOMINATED)) {
			nlh = task_report_of(s, doc->ns, doc->name, VS_TASK_EVENT_NOMINATED, 0,
					     nominated, what);
			if (!nlh)
				return 0;
			prev = (prev & ~KV_NOMINATED) | (val & KV_NOMINATED);
			if (emit_pod_msg(s, nlh, what, key, prev, true))
				return -ENOMEM;
			if (prev == val)
				return 0;
		}
		ev = report_of(status);
		/* Bound: the core knows from the bind result; nothing to report */
		if (ev < 0)
			return kmap_put(&s->sent, key, val);
		nlh = task_report(s, doc->ns, doc->name, (u32)ev, pod_exit_code(obj), what);
		if (!nlh)
			return 0;
	}
	return emit_pod_msg(s, nlh, what, key, val, known);
}

/*
 * One object of the round, read as "vsctl apply" reads a manifest's: its
 * NEW, replacing what the core has (a pod's apart); left out, and logged
 * with the field at fault, when the reader refuses it.
 */
static int emit_obj(struct ksync *s, const struct kobj *ko)
{
	const struct kfeed_info *fi = ko->fi;
	const char *ns = str_at(ko->obj, "metadata", "namespace");
	const char *name = str_at(ko->obj, "metadata", "name");
	struct vsnl_err err = { 0 };
	struct vsnl_ynode root;
	struct nlmsghdr *nlh = NULL;
	struct kr_doc doc;
	struct kmsg *m;
	char source[600], what[600] = "";
	u64 key, prev, dg;
	int ret;

	snprintf(source, sizeof(source), "%s %s%s%s", fi->resource, ns ? ns : "", ns ? "/" : "",
		 name);
	ret = kj_to_ynode(ko->obj, source, &root);
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		s->st.refused_read++;
		vsnl_warn("%s: left out: %s:1: a string or key holding a NUL byte, or collections "
			  "nested deeper than %d, as YAML's reader refuses them", source, source,
			  VSNL_YAML_DEPTH_MAX);
		return 0;
	}
	ret = kr_doc_of(source, &root, &doc, &err);
	if (!ret && doc.kind != fi->kind)
		ret = vsnl_err_set(&err, EINVAL, "%s:1: %s: not a %s", source, doc.label,
				   fi->kind_name);
	if (!ret) {
		doc.scheduler = s->opts.scheduler;
		doc.mirror = true;
		obj_what(fi, doc.ns, doc.name, what, sizeof(what));
		ret = kr_put_new(&doc, s->msg, VS_MSG_MAX, &nlh, &err);
	}
	if (ret == KR_SKIPPED) {
		/* another scheduler's pod on no node: Volcano's cache leaves it out too */
		ret = 0;
		goto out;
	}
	if (ret == -ENOMEM)
		goto out;
	if (ret == -EMSGSIZE) {
		vsnl_warn("%s: does not fit in a message: left out", source);
		ret = 0;
		goto out;
	}
	if (ret) {
		s->st.refused_read++;
		vsnl_warn("%s: left out: %s", source, err.msg);
		ret = 0;
		goto out;
	}
	if (fi->kind == KR_POD) {
		ret = emit_pod(s, &doc, ko->obj, nlh, what);
		goto out;
	}
	nlh->nlmsg_flags |= NLM_F_REPLACE;
	key = key_of(fi->kind, doc.ns, doc.name);
	dg = digest(nlh);
	if (kmap_get(&s->sent, key, &prev) && prev == dg) {
		s->st.unchanged++;
		goto out;
	}
	m = emit(s, nlh, what);
	if (!m) {
		ret = -ENOMEM;
		goto out;
	}
	m->done = KM_PUT;
	m->key = key;
	m->val = dg;
out:
	vsnl_ynode_free(&root);
	return ret;
}

/* ---- sending ---- */

/* What the daemon applied goes into the table. */
static int applied(struct ksync *s, struct kmsg *m)
{
	int ret = 0;

	s->st.sent++;
	switch (m->done) {
	case KM_PUT:
		ret = kmap_put(&s->sent, m->key, m->val);
		break;
	case KM_DEL:
		kmap_del(&s->sent, m->key);
		break;
	}
	return ret;
}

static void refused(struct ksync *s, struct kmsg *m, const struct vsnl_err *err)
{
	m->refused = true;
	s->st.refused_core++;
	vsnl_warn("%s: vschedd refused it: %s", m->what, err->msg);
	if (m->report)
		s->resync = true;
}

/* Not the daemon's refusal of a message: the connection (or memory) failed. */
static bool conn_lost(int ret)
{
	return ret == -ENOMEM || ret == -EPIPE || ret == -ECONNRESET || ret == -ENOTCONN ||
	       ret == -EPROTO || ret == -EBADF;
}

/* Each message alone: the last resort of a batch refused again and again. */
static int send_singles(struct ksync *s, struct kout *o, struct vsnl_err *err)
{
	for (u32 i = 0; i < o->nr; i++) {
		struct kmsg *m = &o->v[i];
		struct vsnl_err e = { 0 };
		struct nlmsghdr *nlh = (struct nlmsghdr *)(o->buf + m->off);
		struct nl_msg *msg;
		int ret;

		if (m->refused || !m->len)
			continue;
		msg = nlmsg_convert(nlh);
		ret = vsnl_request(s->nl, msg, NULL, NULL, &e);
		if (conn_lost(ret)) {
			*err = e;
			return ret;
		}
		if (ret) {
			refused(s, m, &e);
			continue;
		}
		ret = applied(s, m);
		if (ret)
			return ret;
	}
	return 0;
}

static int send_out(struct ksync *s, struct kout *o, struct vsnl_err *err)
{
	u32 live = 0;
	int ret;

	for (u32 i = 0; i < o->nr; i++)
		live += o->v[i].len != 0;
	for (int attempt = 0; live; attempt++) {
		struct kmsg *bad = NULL;

		if (attempt == KSYNC_RETRIES)
			return send_singles(s, o, err);
		memset(err, 0, sizeof(*err));
		ret = vsnl_batch_begin(s->nl, err);
		for (u32 i = 0; !ret && i < o->nr; i++) {
			struct kmsg *m = &o->v[i];

			if (m->refused || !m->len)
				continue;
			ret = vsnl_batch_add_nlh(s->nl, (struct nlmsghdr *)(o->buf + m->off),
						 &m->seq, err);
		}
		if (ret)
			return ret;	/* the connection: the caller reconnects */
		ret = vsnl_batch_end(s->nl, err);
		if (!ret) {
			s->st.batches++;
			for (u32 i = 0; i < o->nr; i++) {
				if (o->v[i].refused || !o->v[i].len)
					continue;
				ret = applied(s, &o->v[i]);
				if (ret)
					return ret;
			}
			return 0;
		}
		for (u32 i = 0; err->seq && i < o->nr; i++)
			if (o->v[i].seq == err->seq && !o->v[i].refused && o->v[i].len)
				bad = &o->v[i];
		if (!bad)
			return ret;	/* not one message's fault: the batch cannot be sent */
		refused(s, bad, err);
		live--;
	}
	return 0;
}

/* Send what is in s->out, and start it again. */
static int send_pending(struct ksync *s, struct vsnl_err *err)
{
	int ret = send_out(s, &s->out, err);

	kout_reset(&s->out);
	return ret;
}

static int emit_ext(struct ksync *s)
{
	for (u32 i = 0; i < s->ext.nr; i++) {
		struct kmsg *m = emit(s, (struct nlmsghdr *)(s->ext.buf + s->ext.v[i].off),
				      s->ext.v[i].what);

		if (!m)
			return -ENOMEM;
	}
	kout_reset(&s->ext);
	return 0;
}

static int flush_round(struct ksync *s, struct vsnl_err *err)
{
	int ret;

	ret = emit_ext(s) ?: emit_dels(s);
	/* kind by kind, as they are listed: what an object names is in the core before it */
	for (u32 f = 0; !ret && f < NR_FEEDS; f++) {
		for (u32 i = 0; !ret && i < s->nr_objs; i++) {
			if (s->objs[i].fi != &feed_info[f])
				continue;
			ret = emit_obj(s, &s->objs[i]);
			if (!ret && s->out.len >= KSYNC_BATCH_BYTES)
				ret = send_pending(s, err);
		}
	}
	if (!ret)
		ret = send_pending(s, err);
	kout_reset(&s->out);
	round_close(s);
	if (ret && !err->err) {
		err->err = ret;
		snprintf(err->msg, sizeof(err->msg), "%s", strerror(-ret));
	}
	return ret;
}

/* ---- what the API server holds of statuses ---- */

/* In s->api: kstatus has been told a status of the object since the load. */
#define KV_TOLD		KSTATUS_DIGEST_FREE_BIT

/*
 * Every PodGroup, and the pods whose PodScheduled condition is False, with
 * the digest of that status. Out of memory, an object is left out: its
 * status will be written whether it is there already or not.
 */
static void api_note(struct ksync *s, const struct kfeed_info *fi, enum kinf_event type,
		     json_t *obj)
{
	json_t *meta = json_object_get(obj, "metadata"), *status = json_object_get(obj, "status");
	const char *ns = json_string_value(json_object_get(meta, "namespace"));
	const char *name = json_string_value(json_object_get(meta, "name"));
	u64 key, prev = 0, d;

	if ((fi->kind != KR_PODGROUP && fi->kind != KR_POD) || !name)
		return;
	key = key_of(fi->kind, ns, name);
	if (type == KINF_DELETED) {
		kmap_del(&s->api, key);
		return;
	}
	d = fi->kind == KR_PODGROUP ? kstatus_podgroup_digest(status) :
				      kstatus_pod_digest(status);
	if (!kmap_get(&s->api, key, &prev) && !d)
		return;
	kmap_put(&s->api, key, (prev & KV_TOLD) | d);
}

int ksync_status_lookup(struct ksync *s, enum kstatus_kind kind, const char *ns,
			const char *name, u64 *digest)
{
	u64 key, v;

	if (kind == KSTATUS_QUEUE)
		return 0;
	key = key_of(kind == KSTATUS_PODGROUP ? KR_PODGROUP : KR_POD, ns, name);
	if (!kmap_get(&s->api, key, &v)) {
		if (kind == KSTATUS_PODGROUP)
			return -ENOENT;
		kmap_put(&s->api, key, KV_TOLD);
		return 0;
	}
	if (v & KV_TOLD)
		return 0;
	kmap_put(&s->api, key, v | KV_TOLD);
	*digest = v;
	return 1;
}

/* ---- the informers ---- */

static void feed_event(struct kinf *inf, enum kinf_event type, json_t *obj, void *ctx)
{
	struct kfeed *f = ctx;
	struct ksync *s = f->s;
	int ret;

	if (s->fatal)
		return;
	api_note(s, f->info, type, obj);
	if (type == KINF_DELETED)
		ret = round_del(s, f->info, obj, &s->fatal_err);
	else
		ret = round_add(s, f->info, obj, &s->fatal_err);
	if (ret)
		s->fatal = ret;
}

/* Told once per change, not at every look, nor again at a load. */
static void feed_absent(struct kinf *inf, long status, void *ctx)
{
	struct kfeed *f = ctx;

	if (status == f->absent)
		return;
	f->absent = status;
	if (!status)
		vsnl_info("%s: the API server serves %s: mirrored from now on", f->info->resource,
			  f->info->path);
	else if (status == 404)
		vsnl_info("%s: the API server has no %s (Volcano before v1.12, or its CRD "
			  "not installed): going on without them, looking again (every %u s at "
			  "the longest)", f->info->resource, f->info->path,
			  KSYNC_ABSENT_RETRY_MS / 1000);
	else
		vsnl_warn("%s: the API server forbids listing %s (%ld: the bridge's role "
			  "lacks list and watch on them): going on without them, asking again "
			  "(every %u s at the longest)", f->info->resource, f->info->path, status,
			  KSYNC_ABSENT_RETRY_MS / 1000);
}

static void feed_synced(struct kinf *inf, void *ctx)
{
	struct kfeed *f = ctx;

	f->listed = true;
	if (kinf_absent(inf))
		return;
	vsnl_v(1, "%s: listed, %zu objects at resourceVersion %s", f->info->resource,
	       kinf_count(inf), kinf_rv(inf));
	/* a new informer (a load) that finds the kind served: the informer tells no change */
	feed_absent(inf, 0, f);
}

static void feed_trouble(struct kinf *inf, const char *what, void *ctx)
{
	struct kfeed *f = ctx;

	vsnl_warn("%s: %s", f->info->resource, what);
}

static const struct kinf_ops feed_ops = {
	.event = feed_event,
	.synced = feed_synced,
	.trouble = feed_trouble,
	.absent = feed_absent,
};

static void feeds_stop(struct ksync *s)
{
	for (u32 i = 0; i < NR_FEEDS; i++) {
		kinf_free(s->feeds[i].inf);
		s->feeds[i].inf = NULL;
		s->feeds[i].listed = false;
	}
	s->stage = 0;
}

static int feed_start(struct ksync *s, u32 i)
{
	struct kfeed *f = &s->feeds[i];

	f->inf = kinf_new(s->c, f->info->path, NULL, s->opts.page, &feed_ops, f);
	if (!f->inf)
		return -ENOMEM;
	if (f->info->optional)
		kinf_set_optional(f->inf, KSYNC_ABSENT_RETRY_MS);
	kinf_start(f->inf);
	s->stage = i + 1;
	return 0;
}

struct ksync *ksync_new(struct kcl *c, struct vsnl *nl, const struct ksync_opts *opts,
			struct vsnl_err *err)
{
	struct ksync *s = calloc(1, sizeof(*s));

	if (!s) {
		vsnl_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	s->msg = malloc(VS_MSG_MAX);
	if (!s->msg) {
		free(s);
		vsnl_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	s->c = c;
	s->nl = nl;
	s->opts = *opts;
	if (!s->opts.scheduler)
		s->opts.scheduler = "volcano";
	for (u32 i = 0; i < NR_FEEDS; i++) {
		s->feeds[i].s = s;
		s->feeds[i].info = &feed_info[i];
	}
	return s;
}

void ksync_free(struct ksync *s)
{
	if (!s)
		return;
	feeds_stop(s);
	round_close(s);
	kout_free(&s->out);
	kout_free(&s->ext);
	kmap_clear(&s->sent);
	kmap_clear(&s->api);
	free(s->objs);
	free(s->dels);
	free(s->msg);
	free(s);
}

int ksync_load(struct ksync *s, struct vsnl_err *err)
{
	int ret;

	feeds_stop(s);
	round_close(s);
	kout_reset(&s->out);
	kmap_clear(&s->sent);
	kmap_clear(&s->api);
	s->synced = false;
	s->resync = false;
	s->fatal = 0;
	s->loading = true;
	s->last_load_ms = kinf_clock_ms();
	s->st.loads++;
	vsnl_info("loading vschedd from the API server's lists");
	/* Hold cycles first: after the reset, no cycle may see the cluster half loaded. */
	ret = vsnl_set_hold(s->nl, true, err) ?:
	      vsnl_request(s->nl, vsnl_msg_new(VS_CMD_RESET, 0), NULL, NULL, err);
	return ret ?: feed_start(s, 0);
}

u64 ksync_tick(struct ksync *s, u64 now_ms)
{
	u64 next = UINT64_MAX;

	for (u32 i = 0; i < s->stage; i++) {
		u64 t = kinf_tick(s->feeds[i].inf, now_ms);

		next = t < next ? t : next;
	}
	if (s->resync && !s->loading) {
		u64 due = s->last_load_ms + KSYNC_RESYNC_MIN_MS;

		next = due < next ? due : next;
	}
	return next;
}

int ksync_flush(struct ksync *s, struct vsnl_err *err)
{
	int ret;

	if (s->fatal) {
		*err = s->fatal_err;
		if (!err->err) {
			err->err = s->fatal;
			snprintf(err->msg, sizeof(err->msg), "%s", strerror(-s->fatal));
		}
		return s->fatal;
	}
	if (s->resync && !s->loading && kinf_clock_ms() >= s->last_load_ms + KSYNC_RESYNC_MIN_MS) {
		vsnl_warn("vschedd refused what a pod reported: it and the API server have parted; "
			  "loading again");
		return ksync_load(s, err);
	}
	if (s->nr_round || s->nr_dels || s->ext.nr) {
		ret = flush_round(s, err);
		if (ret)
			return ret;
	}
	/* the next kind lists once what this one listed is in the core */
	while (s->loading && s->stage && s->feeds[s->stage - 1].listed) {
		if (s->stage == NR_FEEDS) {
			s->loading = false;
			s->synced = true;
			ret = vsnl_set_hold(s->nl, false, err);
			if (ret)
				return ret;
			vsnl_info("vschedd loaded: %zu nodes, %zu pods; cycles go on",
				  kinf_count(s->feeds[2].inf), kinf_count(s->feeds[4].inf));
			break;
		}
		ret = feed_start(s, s->stage);
		if (ret)
			return ret;
	}
	return 0;
}

int ksync_queue(struct ksync *s, const struct nlmsghdr *nlh, const char *what)
{
	struct kmsg *m = kout_add(&s->ext, nlh);

	if (!m)
		return -ENOMEM;
	snprintf(m->what, sizeof(m->what), "%s", what);
	return 0;
}

bool ksync_synced(const struct ksync *s)
{
	return s->synced;
}

const struct ksync_stats *ksync_stats(const struct ksync *s)
{
	return &s->st;
}

struct kinf *ksync_informer(const struct ksync *s, unsigned int i)
{
	return i < NR_FEEDS ? s->feeds[i].inf : NULL;
}
