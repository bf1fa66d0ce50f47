// SPDX-License-Identifier: Apache-2.0
/*
 * Fuzz target: the API server's objects as vskube reads them (ksync.c's
 * round_add() and emit_obj()): JSON loaded with jansson, kind and
 * apiVersion added where a list item lacks them, turned into libvsnl's
 * YAML tree (kj_to_ynode()), classified as one object (kr_doc_of()) and
 * written as its NEW request by the manifest reader without the core
 * (kr_put_new(), a mirrored object); and the status digests the informers
 * note (kstatus_podgroup_digest(), kstatus_pod_digest()).
 *
 * The input: its first byte picks the resource the JSON comes from, as an
 * informer's (its value modulo 5: priorityclasses, queues, nodes,
 * podgroups, pods); the rest is the JSON text. An object is one object; an
 * object with an "items" list, as a list page is, is each of its items.
 *
 * What must hold whatever the bytes: a refusal says why and names the
 * object on line 1 (JSON has no lines); every request passes the daemon's
 * checks of its command (attribute policy), and its parsers read it or
 * say why not (names and values are the daemon's to refuse); it is the
 * same bytes whatever the buffer held before (vskube tells a changed
 * object by a digest of them); and each object gives what the same
 * JSON gives read as a YAML manifest (JSON is YAML), as vsctl apply reads
 * it: the same request byte for byte, or the same refusal word for word,
 * whenever YAML's reader takes the text jansson writes (it refuses some
 * characters JSON's strings hold raw, such as DEL).
 */
#include <errno.h>
#include <jansson.h>
#include <linux/genetlink.h>
#include <string.h>

#include "core/arena.h"
#include "core/res.h"
#include "fuzz.h"
#include "fuzz_request.h"
#include "kube/kread.h"
#include "lib/vsnl.h"
#include "lib/ytree.h"
#include "vskube/kjson.h"
#include "vskube/kstatus.h"

/* As ksync.c's feed_info: what a list item of each resource lacks, and its name. */
static const struct feed {
	enum kr_kind kind;
	const char *api, *kind_name, *resource;
} feeds[] = {
	{ KR_PRIOCLASS, "scheduling.k8s.io/v1", "PriorityClass", "priorityclasses" },
	{ KR_QUEUE, "scheduling.volcano.sh/v1beta1", "Queue", "queues" },
	{ KR_NODE, "v1", "Node", "nodes" },
	{ KR_PODGROUP, "scheduling.volcano.sh/v1beta1", "PodGroup", "podgroups" },
	{ KR_POD, "v1", "Pod", "pods" },
};

/* Objects of a list page read: a page of a few KiB holds fewer. */
#define OBJS_MAX	256

static char bufa[VS_MSG_MAX] __attribute__((aligned(4)));
static char bufb[VS_MSG_MAX] __attribute__((aligned(4)));
static char bufy[VS_MSG_MAX] __attribute__((aligned(4)));

/* A refusal says why, and where: JSON's values are all on line 1 of their object. */
static void check_where(const char *source, const char *msg)
{
	size_t n = strlen(source);

	FUZZ_ASSERT(msg && msg[0], "%s: refused without a reason", source);
	FUZZ_ASSERT(!strncmp(msg, source, n) && !strncmp(msg + n, ":1: ", 4),
		    "a refusal that does not name its object on line 1 first: %s", msg);
}

static const char *str_at(json_t *obj, const char *a, const char *b)
{
	json_t *v = json_object_get(json_object_get(obj, a), b);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* @doc's request in @buf, whose bytes are all @fill first; kr_put_new()'s answer. */
static int request(const struct kr_doc *doc, char *buf, int fill, struct nlmsghdr **nlh,
		   struct vsnl_err *err)
{
	int ret;

	memset(buf, fill, VS_MSG_MAX);
	*nlh = NULL;
	memset(err, 0, sizeof(*err));
	ret = kr_put_new(doc, buf, VS_MSG_MAX, nlh, err);
	FUZZ_ASSERT(ret <= 0 || ret == KR_SKIPPED, "%d", ret);
	/* an object of a few KiB of JSON fits in a message */
	FUZZ_ASSERT(ret != -EMSGSIZE && ret != -EOPNOTSUPP && ret != -ENOMEM, "%s", err->msg);
	FUZZ_ASSERT(!ret == !!*nlh, "a request %s", ret ? "and a refusal" : "missing");
	FUZZ_ASSERT(ret != KR_SKIPPED || doc->kind == KR_POD, "a %s skipped",
		    kr_kind(doc->kind)->kind);
	return ret;
}

/*
 * The same JSON text read as vsctl apply reads a manifest: one document,
 * the same request or the same refusal as @x (@ret, @msg).
 */
static void check_as_yaml(json_t *obj, const char *source, int ret, const struct nlmsghdr *x,
			  const char *msg)
{
	struct vsnl_err err = { 0 };
	struct vsnl_ydocs ydocs;
	struct kr_docs docs = { 0 };
	struct nlmsghdr *y;
	char *text = json_dumps(obj, JSON_COMPACT);
	int r;

	FUZZ_ASSERT(text, "out of memory");
	/* a character YAML's stream refuses, which JSON's strings may hold raw (DEL) */
	if (vsnl_yaml_parse_docs(text, strlen(text), source, &ydocs, &err)) {
		free(text);
		return;
	}
	r = kr_docs_read(source, &ydocs, &docs, &err);
	FUZZ_ASSERT(!r && docs.nr == 1, "%s: read as YAML: %s", source, err.msg);
	docs.v[0].mirror = true;
	r = request(&docs.v[0], bufy, 0x5a, &y, &err);
	FUZZ_ASSERT(r == ret, "%s: %d from JSON, %d as YAML: %s", source, ret, r, err.msg);
	if (!r)
		FUZZ_ASSERT(x->nlmsg_len == y->nlmsg_len && !memcmp(x, y, x->nlmsg_len),
			    "%s: another request from JSON than as YAML", source);
	else
		FUZZ_ASSERT(!strcmp(msg, err.msg), "%s: refused \"%s\" from JSON, \"%s\" as YAML",
			    source, msg, err.msg);
	kr_docs_free(&docs);
	vsnl_ydocs_free(&ydocs);
	free(text);
}

/* @obj as ksync reads it, each request checked as the daemon would check it. */
static void add(struct vs_cluster *daemon, struct vs_arena *arena, const struct feed *f,
		json_t *obj)
{
	const char *ns = str_at(obj, "metadata", "namespace");
	const char *name = str_at(obj, "metadata", "name");
	struct vsnl_err err = { 0 }, errb = { 0 };
	struct nlmsghdr *x, *y;
	struct vsnl_ynode root;
	struct kr_doc doc;
	char source[600];
	int ret;

	if (!name)
		return;		/* an object without metadata.name: left out */
	if (!json_object_get(obj, "kind"))
		json_object_set_new(obj, "kind", json_string(f->kind_name));
	if (!json_object_get(obj, "apiVersion"))
		json_object_set_new(obj, "apiVersion", json_string(f->api));
	snprintf(source, sizeof(source), "%s %s%s%s", f->resource, ns ? ns : "", ns ? "/" : "",
		 name);

	ret = kj_to_ynode(obj, source, &root);
	FUZZ_ASSERT(ret != -ENOMEM, "out of memory");
	if (ret)
		return;	/* a NUL byte or a depth YAML refuses too: left out */
	ret = kr_doc_of(source, &root, &doc, &err);
	if (ret) {
		FUZZ_ASSERT(ret == -EINVAL, "%d", ret);
		check_where(source, err.msg);
		goto out;
	}
	if (doc.kind != f->kind)
		goto out;	/* ksync leaves out what is not of its feed's kind */
	doc.mirror = true;
	ret = request(&doc, bufa, 0x00, &x, &err);
	if (ret == KR_SKIPPED)
		goto out;
	if (ret) {
		check_where(source, err.msg);
		check_as_yaml(obj, source, ret, NULL, err.msg);
		goto out;
	}
	/* the same bytes whatever the buffer held */
	FUZZ_ASSERT(!request(&doc, bufb, 0xff, &y, &errb), "%s", errb.msg);
	FUZZ_ASSERT(x->nlmsg_len == y->nlmsg_len && !memcmp(x, y, x->nlmsg_len),
		    "%s: other bytes in another buffer", source);
	/* the policy takes it; the daemon's parsers read it or say why not */
	fuzz_request_parse(daemon, &doc, x, true, arena, &(struct vs_err){ { 0 } });
	check_as_yaml(obj, source, 0, x, NULL);
out:
	vsnl_ynode_free(&root);
}

/* What the informers note of a status: only digests, which must not depend on the call. */
static void note_status(const struct feed *f, json_t *obj)
{
	json_t *status = json_object_get(obj, "status");

	if (f->kind == KR_PODGROUP)
		FUZZ_ASSERT(kstatus_podgroup_digest(status) == kstatus_podgroup_digest(status),
			    "two digests of one status");
	if (f->kind == KR_POD)
		FUZZ_ASSERT(json_is_array(json_object_get(status, "conditions")) ||
			    !kstatus_pod_digest(status), "a digest of no condition");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct feed *f;
	struct vs_cluster daemon;
	struct vs_arena arena;
	json_error_t jerr;
	json_t *doc, *items, *obj;
	u32 n = 0;
	size_t i;

	if (!size)
		return 0;
	/* the same hash tables on every run, not a seed from /dev/urandom */
	json_object_seed(1);
	f = &feeds[data[0] % ARRAY_SIZE(feeds)];
	doc = json_loadb((const char *)data + 1, size - 1, 0, &jerr);
	if (!doc)
		return 0;	/* the informer drops what does not load */

	/* each input's requests are read by a daemon of its own: its resource names too */
	FUZZ_ASSERT(!vs_cluster_init(&daemon), "cluster");
	vs_arena_init(&arena, 0);
	items = json_object_get(doc, "items");
	if (json_is_array(items)) {
		json_array_foreach(items, i, obj) {
			if (n++ == OBJS_MAX)
				break;
			note_status(f, obj);
			add(&daemon, &arena, f, obj);
		}
	} else {
		note_status(f, doc);
		add(&daemon, &arena, f, doc);
	}
	vs_arena_destroy(&arena);
	vs_cluster_destroy(&daemon);
	json_decref(doc);
	return 0;
}
