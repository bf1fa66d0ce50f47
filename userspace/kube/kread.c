// SPDX-License-Identifier: Apache-2.0
/*
 * Kubernetes manifests as protocol requests: see kread.h. The walk over a
 * document's keys and the kinds' tables; the requests are written by the
 * generated codec, so that what the daemon's policy would refuse is
 * refused before it is sent, in the codec's words.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <libmnl/libmnl.h>

#include "kube/kread.h"
#include "lib/codec.h"
#include "lib/codec_gen.h"
#include "vsched/vsched.h"

#define KR_DEFAULT_NS	"default"

static const struct kr_kind_info kinds[KR_NR_KINDS] = {
	[KR_PRIOCLASS] = { "scheduling.k8s.io/v1", "PriorityClass", false, VS_CMD_PRIOCLASS_NEW,
			   VS_CMD_PRIOCLASS_DEL, VS_A_PRIOCLASS, 0, VS_PC_A_NAME },
	[KR_QUEUE] = { "scheduling.volcano.sh/v1beta1", "Queue", false, VS_CMD_QUEUE_NEW,
		       VS_CMD_QUEUE_DEL, VS_A_QUEUE, 0, VS_QUEUE_A_NAME },
	[KR_NODE] = { "v1", "Node", false, VS_CMD_NODE_NEW, VS_CMD_NODE_DEL, VS_A_NODE, 0,
		      VS_NODE_A_NAME },
	[KR_PODGROUP] = { "scheduling.volcano.sh/v1beta1", "PodGroup", true, VS_CMD_PODGROUP_NEW,
			  VS_CMD_PODGROUP_DEL, VS_A_PODGROUP, VS_PG_A_NAMESPACE, VS_PG_A_NAME },
	[KR_VJOB] = { "batch.volcano.sh/v1alpha1", "Job", true, VS_CMD_VJOB_NEW, VS_CMD_VJOB_DEL,
		      VS_A_VJOB, VS_VJOB_A_NAMESPACE, VS_VJOB_A_NAME },
	[KR_POD] = { "v1", "Pod", true, VS_CMD_TASK_NEW, VS_CMD_TASK_DEL, VS_A_TASK,
		     VS_TASK_A_NAMESPACE, VS_TASK_A_NAME },
	[KR_HYPERNODE] = { "topology.volcano.sh/v1alpha1", "HyperNode", false,
			   VS_CMD_HYPERNODE_NEW, VS_CMD_HYPERNODE_DEL, VS_A_HYPERNODE, 0,
			   VS_HN_A_NAME },
};

const struct kr_kind_info *kr_kind(enum kr_kind kind)
{
	return kind < KR_NR_KINDS ? &kinds[kind] : NULL;
}

/* ---- messages and the walk's place ---- */

int kr_err(struct kr *kr, u32 line, const char *fmt, ...)
{
	char msg[KR_PATH_MAX + 512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return vsnl_err_set(kr->err, EINVAL, "%s:%u: %s: %s", kr->doc->file, line,
			    kr->doc->label, msg);
}

const char *kr_type_name(const struct vsnl_ynode *n)
{
	static const char *const names[] = {
		[VSNL_Y_NULL] = "null", [VSNL_Y_BOOL] = "a boolean", [VSNL_Y_INT] = "an integer",
		[VSNL_Y_FLOAT] = "a number", [VSNL_Y_STRING] = "a string",
		[VSNL_Y_MAP] = "a mapping", [VSNL_Y_SEQ] = "a list",
	};

	return names[n->type];
}

size_t kr_path_append(char *buf, size_t size, size_t len, const char *s, size_t n)
{
	size_t room;

	if (len < size) {
		room = size - len - 1;
		room = n < room ? n : room;
		memcpy(buf + len, s, room);
		buf[len + room] = '\0';
	}
	return len + n;
}

size_t kr_path_step(char *buf, size_t size, size_t len, const char *key)
{
	bool bracket = !*key || strpbrk(key, "./");

	if (len >= size)
		return len;
	if (bracket || len)
		len = kr_path_append(buf, size, len, bracket ? "[" : ".", 1);
	len = kr_path_append(buf, size, len, key, strlen(key));
	return bracket ? kr_path_append(buf, size, len, "]", 1) : len;
}

size_t kr_push(struct kr *kr, const char *key)
{
	size_t old = kr->path_len;

	kr->path_len = kr_path_step(kr->path, sizeof(kr->path), old, key);
	return old;
}

size_t kr_push_idx(struct kr *kr, u32 idx)
{
	size_t old = kr->path_len;
	int n;

	if (old < sizeof(kr->path)) {
		n = snprintf(kr->path + old, sizeof(kr->path) - old, "[%u]", idx);
		kr->path_len = n < 0 ? old : old + (size_t)n;
	}
	return old;
}

void kr_pop(struct kr *kr, size_t len)
{
	kr->path_len = len;
	if (len < sizeof(kr->path))
		kr->path[len] = '\0';
}

const char *kr_name(struct kr *kr, const struct vsnl_ypair *kv)
{
	size_t len = kr->path_len < sizeof(kr->path) ? kr->path_len : sizeof(kr->path) - 1;

	memcpy(kr->name, kr->path, len);
	kr->name[len] = '\0';
	kr_path_step(kr->name, sizeof(kr->name), len, kv->key);
	return kr->name;
}

/* ---- the walk ---- */

int kr_want(struct kr *kr, const struct vsnl_ypair *kv, enum vsnl_ytype type, const char *what)
{
	if (kv->val.type == type)
		return 0;
	return kr_err(kr, kv->line, "%s must be %s, not %s", kr_name(kr, kv), what,
		      kr_type_name(&kv->val));
}

static int unknown_key(struct kr *kr, const struct vsnl_ypair *kv, const struct kr_field *fields,
		       u32 nr)
{
	char known[256];
	size_t len = 0;

	known[0] = '\0';
	for (u32 k = 0; k < nr && len < sizeof(known); k++) {
		if (!strcmp(fields[k].key, KR_ANY_OTHER))
			continue;
		len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s", len ? ", " : "",
					fields[k].key);
	}
	return kr_err(kr, kv->line, "%s: unknown field (known: %s)", kr_name(kr, kv), known);
}

int kr_walk(struct kr *kr, const struct vsnl_ynode *map, const char *what,
	    const struct kr_field *fields, u32 nr, void *obj, u64 *seen)
{
	if (map->type != VSNL_Y_MAP)
		return kr_err(kr, map->line, "%s must be a mapping, not %s",
			      kr->path_len ? kr->path : what, kr_type_name(map));
	for (u32 i = 0; i < map->map.nr; i++) {
		const struct vsnl_ypair *kv = &map->map.pairs[i];
		u32 f;
		int ret;

		for (f = 0; f < nr; f++)
			if (!strcmp(fields[f].key, kv->key) ||
			    !strcmp(fields[f].key, KR_ANY_OTHER))
				break;
		if (f == nr)
			return unknown_key(kr, kv, fields, nr);
		if (kv->val.type == VSNL_Y_NULL || !fields[f].parse)
			continue;
		ret = fields[f].parse(kr, kv, (char *)obj + fields[f].off);
		if (ret)
			return ret;
		if (seen)
			*seen |= 1ull << f;
	}
	return 0;
}

int kr_each_item(struct kr *kr, const struct vsnl_ypair *kv, kr_item_fn fn, void *ctx)
{
	int ret = kr_want(kr, kv, VSNL_Y_SEQ, "a list");
	size_t old;

	if (ret)
		return ret;
	old = kr_push(kr, kv->key);
	for (u32 i = 0; !ret && i < kv->val.seq.nr; i++) {
		size_t at = kr_push_idx(kr, i);

		ret = fn(kr, &kv->val.seq.items[i], i, ctx);
		kr_pop(kr, at);
	}
	kr_pop(kr, old);
	return ret;
}

int kr_walk_kv(struct kr *kr, const struct vsnl_ypair *kv, const struct kr_field *fields,
	       u32 nr, void *obj, u64 *seen)
{
	size_t old = kr_push(kr, kv->key);
	int ret = kr_walk(kr, &kv->val, kv->key, fields, nr, obj, seen);

	kr_pop(kr, old);
	return ret;
}

bool kr_has(const struct kr_field *fields, u32 nr, u64 seen, const char *key)
{
	for (u32 i = 0; i < nr; i++)
		if (!strcmp(fields[i].key, key))
			return seen & (1ull << i);
	return false;
}

/* ---- parsers ---- */

int kr_str(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	int ret = kr_want(kr, kv, VSNL_Y_STRING, "a string");

	if (!ret)
		*(const char **)slot = kv->val.text;
	return ret;
}

int kr_bool(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	int ret = kr_want(kr, kv, VSNL_Y_BOOL, "true or false");

	if (!ret)
		*(bool *)slot = kv->val.b;
	return ret;
}

int kr_get_int(struct kr *kr, const struct vsnl_ypair *kv, s64 min, s64 max, s64 *out)
{
	int ret = kr_want(kr, kv, VSNL_Y_INT, "an integer");

	if (ret)
		return ret;
	if (kv->val.i < min || kv->val.i > max)
		return kr_err(kr, kv->line, "%s must be between %lld and %lld", kr_name(kr, kv),
			      (long long)min, (long long)max);
	*out = kv->val.i;
	return 0;
}

int kr_s32(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	s64 v = 0;
	int ret = kr_get_int(kr, kv, INT32_MIN, INT32_MAX, &v);

	if (!ret)
		*(s32 *)slot = (s32)v;
	return ret;
}

int kr_count(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	s64 v = 0;
	int ret = kr_get_int(kr, kv, 0, INT32_MAX, &v);

	if (!ret)
		*(u32 *)slot = (u32)v;
	return ret;
}

int kr_str_map(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	int ret = kr_want(kr, kv, VSNL_Y_MAP, "a mapping of strings");
	size_t old;

	if (ret)
		return ret;
	old = kr_push(kr, kv->key);
	for (u32 i = 0; !ret && i < kv->val.map.nr; i++)
		ret = kr_want(kr, &kv->val.map.pairs[i], VSNL_Y_STRING, "a string");
	kr_pop(kr, old);
	return ret;
}

int kr_enum(struct kr *kr, const struct vsnl_ypair *kv, const char *const *names, u32 nr,
	    const char *what, u32 *out, bool *present)
{
	char list[256];
	size_t len = 0;
	int ret = kr_want(kr, kv, VSNL_Y_STRING, "a string");

	if (ret)
		return ret;
	*present = false;
	if (!*kv->val.text)		/* "" is the default */
		return 0;
	for (u32 i = 0; i < nr; i++) {
		if (names[i] && !strcmp(names[i], kv->val.text)) {
			*out = i;
			*present = true;
			return 0;
		}
	}
	list[0] = '\0';
	for (u32 i = 0; i < nr && len < sizeof(list); i++)
		if (names[i])
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
						len ? ", " : "", names[i]);
	return kr_err(kr, kv->line, "%s: unknown %s \"%s\" (one of: %s)", kr_name(kr, kv), what,
		      kv->val.text, list);
}

/* "2026-01-01T00:00:00Z", a fraction and an offset allowed (RFC 3339); 0 and *t, or -1. */
int kr_parse_time(const char *s, u64 *t)
{
	struct tm tm;
	const char *p;
	long off = 0;
	time_t v;

	memset(&tm, 0, sizeof(tm));
	p = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!p || (s[4] != '-' || s[10] != 'T'))
		return -1;
	if (*p == '.') {
		if (!isdigit((unsigned char)p[1]))
			return -1;
		for (p++; isdigit((unsigned char)*p); p++)
			;
	}
	if ((*p == '+' || *p == '-') && isdigit((unsigned char)p[1]) &&
	    isdigit((unsigned char)p[2]) && p[3] == ':' && isdigit((unsigned char)p[4]) &&
	    isdigit((unsigned char)p[5]) && !p[6]) {
		off = ((p[1] - '0') * 10 + (p[2] - '0')) * 3600L +
		      ((p[4] - '0') * 10 + (p[5] - '0')) * 60L;
		off = *p == '-' ? -off : off;
	} else if ((*p != 'Z' && *p != 'z') || p[1]) {
		return -1;
	}
	v = timegm(&tm);
	if (v == (time_t)-1 || v - off < 0)
		return -1;
	*t = (u64)(v - off);
	return 0;
}

int kr_time(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	int ret = kr_want(kr, kv, VSNL_Y_STRING, "a time");

	if (ret)
		return ret;
	if (kr_parse_time(kv->val.text, slot))
		return kr_err(kr, kv->line, "%s: \"%s\" is not a time as Kubernetes writes one "
			      "(RFC 3339: 2026-01-01T00:00:00Z)", kr_name(kr, kv), kv->val.text);
	return 0;
}

/* ---- the codec's refusals, at the walk's place ---- */

int kr_put_ret(struct kr *kr, const struct vsnl_ynode *at, const char *field, int ret)
{
	char why[VSNL_ERR_MSG_MAX];

	if (ret != -EINVAL)
		return ret;
	snprintf(why, sizeof(why), "%s", kr->err->msg);
	return kr_err(kr, at ? at->line : kr->doc->line, "%s: %s", field, why);
}

/* ---- metadata ---- */

/* Only what the kinds read; the name and namespace are the document's (kr_docs_read()). */
static const struct kr_field meta_fields[] = {
	KR_OPEN,
};

int kr_meta(struct kr *kr, const struct vsnl_ypair *kv, void *slot)
{
	return kr_walk_kv(kr, kv, meta_fields, ARRAY_SIZE(meta_fields), slot, NULL);
}

#define KR_PREEMPTABLE	"volcano.sh/preemptable"

int kr_put_preemptable(struct kr *kr, const struct vsnl_ypair *annotations,
		       const struct vsnl_ypair *labels, const struct vsnl_codec_set *set,
		       u16 type)
{
	static const char *const yes[] = { "1", "t", "T", "TRUE", "true", "True" };
	static const char *const no[] = { "0", "f", "F", "FALSE", "false", "False" };
	const char *where = "metadata.annotations";
	const char *v = annotations ? vsnl_ystr(vsnl_ymap_get(&annotations->val,
							      KR_PREEMPTABLE)) : NULL;

	if (!v) {
		where = "metadata.labels";
		v = labels ? vsnl_ystr(vsnl_ymap_get(&labels->val, KR_PREEMPTABLE)) : NULL;
	}
	if (!v)
		return 0;
	for (u32 i = 0; i < ARRAY_SIZE(yes); i++)
		if (!strcmp(v, yes[i]) || !strcmp(v, no[i]))
			return kr_put_ret(kr, NULL, where,
					  vsnl_codec_put_uint(kr->nlh, kr->cap, set, type,
							      !strcmp(v, yes[i]), kr->err));
	return kr_err(kr, kr->doc->line, "%s[" KR_PREEMPTABLE "]: \"%s\" is not a boolean", where,
		      v);
}

/* ---- documents ---- */

static int (*const put_kind[KR_NR_KINDS])(struct kr *kr) = {
	[KR_PRIOCLASS] = kr_put_prioclass,
	[KR_QUEUE] = kr_put_queue,
	[KR_NODE] = kr_put_node,
	[KR_PODGROUP] = kr_put_podgroup,
	[KR_HYPERNODE] = kr_put_hypernode,
	[KR_POD] = kr_put_pod,
	[KR_VJOB] = kr_put_vjob,
};

int kr_put_new(const struct kr_doc *doc, void *buf, size_t cap, struct nlmsghdr **nlh,
	       struct vsnl_err *err)
{
	struct kr kr = { .doc = doc, .err = err, .cap = cap };
	int ret;

	if (!put_kind[doc->kind])
		return vsnl_err_set(err, EOPNOTSUPP, "%s:%u: %s: kind %s is not read here yet",
				    doc->file, doc->line, doc->label, kinds[doc->kind].kind);
	kr.nlh = vsnl_msg_put(buf, cap, kinds[doc->kind].cmd_new, 0);
	if (!kr.nlh)
		return vsnl_err_set(err, EMSGSIZE, "%s:%u: %s: no room for its request",
				    doc->file, doc->line, doc->label);
	ret = put_kind[doc->kind](&kr);
	if (ret == -EMSGSIZE)
		return vsnl_err_set(err, EMSGSIZE, "%s:%u: %s: its request is larger than %zu bytes",
				    doc->file, doc->line, doc->label, cap);
	if (!ret)
		*nlh = kr.nlh;
	return ret;
}

int kr_put_del(enum kr_kind kind, const char *ns, const char *name, void *buf, size_t cap,
	       struct nlmsghdr **nlh, struct vsnl_err *err)
{
	const struct kr_kind_info *k = kr_kind(kind);
	const struct vsnl_codec_set *set;
	struct nlmsghdr *h;
	struct nlattr *nest;
	int ret;

	if (!k)
		return vsnl_err_set(err, EINVAL, "kind %d: no such kind", kind);
	set = vsnl_codec_vsched.attrs[k->attr].nested;
	h = vsnl_msg_put(buf, cap, k->cmd_del, 0);
	if (!h)
		return vsnl_err_set(err, EMSGSIZE, "%s %s: no room for its request", k->kind, name);
	nest = vsnl_codec_nest_start(h, cap, &vsnl_codec_vsched, k->attr, err);
	if (!nest)
		return err->err ?: -EMSGSIZE;
	ret = (k->a_ns ? vsnl_codec_put_str(h, cap, set, k->a_ns, ns, err) : 0) ?:
	      vsnl_codec_put_str(h, cap, set, k->a_name, name, err);
	if (ret)
		return ret;
	mnl_attr_nest_end(h, nest);
	*nlh = h;
	return 0;
}

static const char *str_at(const struct vsnl_ynode *map, const char *key,
			  const struct vsnl_ynode **v)
{
	*v = vsnl_ymap_get(map, key);
	return vsnl_ystr(*v);
}

static struct kr_doc *new_doc(struct kr_docs *out)
{
	struct kr_doc *d = realloc(out->v, (out->nr + 1) * sizeof(*d));

	if (!d)
		return NULL;
	out->v = d;
	d = &out->v[out->nr++];
	memset(d, 0, sizeof(*d));
	return d;
}

/*
 * What the document @root is: its kind among those taken, into a new
 * document of @out (a List's items each on their own), or into @one when
 * @out is NULL (one object: a List is refused).
 */
static int classify(const char *file, u32 index, u32 item, const struct vsnl_ynode *root,
		    struct kr_docs *out, struct kr_doc *one, struct vsnl_err *err)
{
	struct kr_doc where = { .file = file, .line = root->line };
	struct kr kr = { .doc = &where, .err = err };
	const struct vsnl_ynode *v, *meta;
	const char *api, *kind, *name, *ns;
	struct kr_doc *doc;
	char label[64];
	int k;

	if (item)
		snprintf(label, sizeof(label), "document %u items[%u]", index, item - 1);
	else
		snprintf(label, sizeof(label), "document %u", index);
	snprintf(where.label, sizeof(where.label), "%s", label);
	if (root->type != VSNL_Y_MAP)
		return kr_err(&kr, root->line, "a manifest must be a mapping, not %s",
			      kr_type_name(root));
	api = str_at(root, "apiVersion", &v);
	if (!api)
		return kr_err(&kr, v ? v->line : root->line, "apiVersion: %s", v ?
			      "must be a string" : "required");
	kind = str_at(root, "kind", &v);
	if (!kind)
		return kr_err(&kr, v ? v->line : root->line, "kind: %s", v ?
			      "must be a string" : "required");
	if (!strcmp(api, "v1") && !strcmp(kind, "List") && !item) {
		if (!out)
			return kr_err(&kr, root->line, "a List is not one object");
		v = vsnl_ymap_get(root, "items");
		if (!v || v->type != VSNL_Y_SEQ)
			return kr_err(&kr, v ? v->line : root->line, "items: %s", v ?
				      "must be a list" : "required");
		for (u32 i = 0; i < v->seq.nr; i++) {
			int ret = classify(file, index, i + 1, &v->seq.items[i], out, NULL, err);

			if (ret)
				return ret;
		}
		return 0;
	}
	for (k = 0; k < KR_NR_KINDS; k++)
		if (!strcmp(kinds[k].kind, kind))
			break;
	if (k == KR_NR_KINDS)
		return kr_err(&kr, root->line, "kind %s (%s) is not one vsctl apply takes: "
			      "PriorityClass, Queue, Node, PodGroup, Job, Pod, HyperNode, List", kind,
			      api);
	if (strcmp(kinds[k].api, api))
		return kr_err(&kr, root->line, "apiVersion %s: vsctl apply takes %s of %s", api,
			      kind, kinds[k].api);
	doc = out ? new_doc(out) : one;
	if (!doc)
		return vsnl_err_set(err, ENOMEM, "%s: out of memory", file);
	meta = vsnl_ymap_get(root, "metadata");
	name = meta ? str_at(meta, "name", &v) : NULL;
	ns = meta ? str_at(meta, "namespace", &v) : NULL;
	*doc = (struct kr_doc){
		.file = file, .index = index, .item = item, .line = root->line,
		.kind = (enum kr_kind)k, .name = name, .root = root,
		.ns = !kinds[k].namespaced ? NULL : ns && *ns ? ns : KR_DEFAULT_NS,
	};
	snprintf(doc->label, sizeof(doc->label), "%s (%s%s%s%s%s)", label, kind,
		 name ? " " : "", doc->ns && name ? doc->ns : "", doc->ns && name ? "/" : "",
		 name ? name : "");
	return 0;
}

int kr_docs_read(const char *file, const struct vsnl_ydocs *docs, struct kr_docs *out,
		 struct vsnl_err *err)
{
	for (u32 i = 0; i < docs->nr; i++) {
		int ret;

		if (docs->docs[i].root.type == VSNL_Y_NULL)
			continue;
		ret = classify(file, i + 1, 0, &docs->docs[i].root, out, NULL, err);
		if (ret)
			return ret;
	}
	return 0;
}

int kr_doc_of(const char *source, const struct vsnl_ynode *root, struct kr_doc *doc,
	      struct vsnl_err *err)
{
	return classify(source, 1, 0, root, NULL, doc, err);
}

void kr_docs_free(struct kr_docs *docs)
{
	free(docs->v);
	docs->v = NULL;
	docs->nr = 0;
}
