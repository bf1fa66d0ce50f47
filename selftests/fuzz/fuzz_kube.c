// SPDX-License-Identifier: Apache-2.0
/*
 * Fuzz target: the API server's objects as vskube reads them (ksync.c's
 * round_add()): JSON loaded with jansson, kind and apiVersion added where
 * a list item lacks them, turned into the readers' values (kj_to_arg()),
 * classified (mf_set_add()) and built as one round that leaves out what it
 * refuses and goes on (mf_set_build()), each object then written as its
 * NEW request (mf_put_spec()); and the status digests the informers note
 * (kstatus_podgroup_digest(), kstatus_pod_digest()).
 *
 * The input: its first byte picks the resource the JSON comes from, as an
 * informer's (its value modulo 5: priorityclasses, queues, nodes,
 * podgroups, pods); the rest is the JSON text. An object is one object; an
 * object with an "items" list, as a list page is, is each of its items.
 *
 * What must hold whatever the bytes: a refusal says why and names the
 * object (on line 1: JSON has no lines), and the round never fails for a
 * refused object; every request passes the daemon's
 * checks of its command (attribute policy) and reads back with its
 * parsers, the same bytes whatever the buffer held before (vskube tells a
 * changed object by a digest of them); and the objects are the very ones
 * the same JSON makes when read as a YAML manifest (JSON is YAML), as vsctl
 * apply reads it: request for request, byte for byte, whenever both readers
 * accept everything.
 */
#include <errno.h>
#include <jansson.h>
#include <linux/genetlink.h>
#include <string.h>

#include "core/arena.h"
#include "core/res.h"
#include "fuzz.h"
#include "fuzz_request.h"
#include "kube/manifest.h"
#include "lib/vsnl.h"
#include "netlink/extack.h"
#include "netlink/family.h"
#include "netlink/msg.h"
#include "netlink/parse.h"
#include "netlink/policy.h"
#include "vskube/kjson.h"
#include "vskube/kstatus.h"

/* As ksync.c's feed_info: what a list item of each resource lacks, and its name. */
static const struct feed {
	enum mf_kind kind;
	const char *api, *kind_name, *resource;
} feeds[] = {
	{ MF_PRIOCLASS, "scheduling.k8s.io/v1", "PriorityClass", "priorityclasses" },
	{ MF_QUEUE, "scheduling.volcano.sh/v1beta1", "Queue", "queues" },
	{ MF_NODE, "v1", "Node", "nodes" },
	{ MF_PODGROUP, "scheduling.volcano.sh/v1beta1", "PodGroup", "podgroups" },
	{ MF_POD, "v1", "Pod", "pods" },
};

/* Objects in a round: a list page of a few KiB holds fewer. */
#define OBJS_MAX	256

static char bufa[VS_MSG_MAX] __attribute__((aligned(4)));
static char bufb[VS_MSG_MAX] __attribute__((aligned(4)));

struct round {
	struct mf_set set;
	bool json;			/* read as vskube reads it, not as a manifest */
	u32 refused;
	char sources[OBJS_MAX][600];
};

/* A refusal says why, and where: JSON's values are all on line 1 of their object. */
static void check_where(const char *source, const char *msg, bool json)
{
	size_t n = strlen(source);

	FUZZ_ASSERT(msg && msg[0], "%s: refused without a reason", source);
	FUZZ_ASSERT(!strncmp(msg, source, n) && msg[n] == ':',
		    "a refusal that does not name its object first: %s", msg);
	FUZZ_ASSERT(!json || !strncmp(msg + n, ":1: ", 4) || !strcmp(msg + n, ": out of memory"),
		    "not on line 1: %s", msg);
}

static void on_refused(void *arg, const struct mf_doc *doc, const char *msg)
{
	struct round *r = arg;

	FUZZ_ASSERT(doc && doc->file, "a refusal without its document");
	check_where(doc->file, msg, r->json);
	r->refused++;
}

static void round_init(struct round *r, bool json)
{
	FUZZ_ASSERT(!mf_set_init(&r->set), "out of memory");
	r->json = json;
	r->set.keep_going = true;
	r->set.refused = on_refused;
	r->set.warn_arg = r;
	r->refused = 0;
}

static const char *str_at(json_t *obj, const char *a, const char *b)
{
	json_t *v = json_object_get(json_object_get(obj, a), b);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

/*
 * @obj into both rounds, as vskube reads it (@a) and as the same text in
 * a manifest (@b); false when it is left out before either reads it.
 */
static bool add(struct round *a, struct round *b, const struct feed *f, json_t *obj, u32 i)
{
	const char *ns = str_at(obj, "metadata", "namespace");
	const char *name = str_at(obj, "metadata", "name");
	struct mf_err err = { { 0 } };
	char *source = a->sources[i];
	struct vs_arg *root;
	char *text;
	int ret;

	if (!name)
		return false;	/* an object without metadata.name: left out */
	if (!json_object_get(obj, "kind"))
		json_object_set_new(obj, "kind", json_string(f->kind_name));
	if (!json_object_get(obj, "apiVersion"))
		json_object_set_new(obj, "apiVersion", json_string(f->api));
	snprintf(source, sizeof(a->sources[i]), "%s %s%s%s", f->resource, ns ? ns : "",
		 ns ? "/" : "", name);

	root = calloc(1, sizeof(*root));
	FUZZ_ASSERT(root && !kj_to_arg(obj, source, root), "out of memory");
	ret = mf_set_add(&a->set, source, root, &err);
	FUZZ_ASSERT(ret <= 0 && ret != -ENOMEM, "%d", ret);
	if (ret) {
		check_where(source, err.msg, true);
		a->refused++;
	}

	text = json_dumps(obj, 0);
	FUZZ_ASSERT(text, "out of memory");
	memset(&err, 0, sizeof(err));
	ret = mf_set_parse(&b->set, source, text, strlen(text), &err);
	FUZZ_ASSERT(ret <= 0 && ret != -ENOMEM, "%d", ret);
	if (ret) {
		check_where(source, err.msg, false);
		b->refused++;
	}
	free(text);
	return true;
}

/*
 * @o's NEW request in @buf, whose bytes are all @fill (and are again after
 * release()); NULL when it is not sent.
 */
static struct nlmsghdr *request(const struct mf_obj *o, char *buf)
{
	struct nlmsghdr *nlh;
	u32 hdr;

	nlh = vsnl_msg_put(buf, VS_MSG_MAX, mf_kind(o->kind)->cmd_new, 0);
	hdr = nlh->nlmsg_len;
	if (mf_put_spec(o, nlh, VS_MSG_MAX))
		return nlh;
	/* an object of a few KiB of JSON fits in a message: only a skipped one is not sent */
	FUZZ_ASSERT(o->skipped && !o->obj, "%s/%s does not fit in a message",
		    o->ns ? o->ns : "", o->name);
	FUZZ_ASSERT(nlh->nlmsg_len == hdr, "a failed put left %u bytes of %u", nlh->nlmsg_len,
		    hdr);
	return NULL;
}

static void release(char *buf, int fill)
{
	memset(buf, fill, ((struct nlmsghdr *)buf)->nlmsg_len);
}

static void check_round(struct vs_cluster *daemon, const struct round *a, const struct round *b,
			struct vs_arena *arena)
{
	bool same = !a->refused && !b->refused;

	if (same)
		FUZZ_ASSERT(a->set.nr_objs == b->set.nr_objs, "%u objects from JSON, %u as YAML",
			    a->set.nr_objs, b->set.nr_objs);
	for (u32 i = 0; i < a->set.nr_objs; i++) {
		const struct mf_obj *o = &a->set.objs[i];
		struct nlmsghdr *x, *y;

		FUZZ_ASSERT(o->name && o->name[0] && o->doc, "object %u without its key", i);
		x = request(o, bufa);
		y = request(o, bufb);
		FUZZ_ASSERT(!x == !y, "%s/%s: sent once of twice", o->ns ? o->ns : "", o->name);
		if (x) {
			FUZZ_ASSERT(x->nlmsg_len == y->nlmsg_len && !memcmp(x, y, x->nlmsg_len),
				    "%s/%s: other bytes in another buffer", o->ns ? o->ns : "",
				    o->name);
			fuzz_check_request(daemon, o, x, true, arena);
		}
		release(bufb, 0xff);
		if (same) {
			y = request(&b->set.objs[i], bufb);
			FUZZ_ASSERT(!x == !y, "%s/%s: sent from JSON or as YAML, not both",
				    o->ns ? o->ns : "", o->name);
			FUZZ_ASSERT(!x || (x->nlmsg_len == y->nlmsg_len &&
					   !memcmp(x, y, x->nlmsg_len)),
				    "%s/%s: another request from JSON than as YAML",
				    o->ns ? o->ns : "", o->name);
			release(bufb, 0xff);
		}
		release(bufa, 0x00);
	}
}

/* What the informers note of a status: only digests, which must not depend on the call. */
static void note_status(const struct feed *f, json_t *obj)
{
	json_t *status = json_object_get(obj, "status");

	if (f->kind == MF_PODGROUP)
		FUZZ_ASSERT(kstatus_podgroup_digest(status) == kstatus_podgroup_digest(status),
			    "two digests of one status");
	if (f->kind == MF_POD)
		FUZZ_ASSERT(json_is_array(json_object_get(status, "conditions")) ||
			    !kstatus_pod_digest(status), "a digest of no condition");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct round a, b;
	const struct feed *f;
	struct vs_cluster daemon;
	struct vs_arena arena;
	json_error_t jerr;
	json_t *doc, *items, *obj;
	u32 n = 0;
	size_t i;

	if (!bufb[0]) {
		memset(bufb, 0xff, sizeof(bufb));
		/* the same hash tables on every run, not a seed from /dev/urandom */
		json_object_seed(1);
	}
	if (!size)
		return 0;
	f = &feeds[data[0] % ARRAY_SIZE(feeds)];
	doc = json_loadb((const char *)data + 1, size - 1, 0, &jerr);
	if (!doc)
		return 0;	/* the informer drops what does not load */

	/* each input's requests are read by a daemon of its own: its resource names too */
	FUZZ_ASSERT(!vs_cluster_init(&daemon), "cluster");
	vs_arena_init(&arena, 0);
	round_init(&a, true);
	round_init(&b, false);
	items = json_object_get(doc, "items");
	if (json_is_array(items)) {
		json_array_foreach(items, i, obj) {
			if (n == OBJS_MAX)
				break;
			note_status(f, obj);
			n += add(&a, &b, f, obj, n);
		}
	} else {
		note_status(f, doc);
		add(&a, &b, f, doc, 0);
	}
	/* a round goes on past what it refuses */
	FUZZ_ASSERT(!mf_set_build(&a.set, &(struct mf_err){ { 0 } }), "the round failed");
	FUZZ_ASSERT(!mf_set_build(&b.set, &(struct mf_err){ { 0 } }), "the manifest failed");
	check_round(&daemon, &a, &b, &arena);

	mf_set_free(&a.set);
	mf_set_free(&b.set);
	vs_arena_destroy(&arena);
	vs_cluster_destroy(&daemon);
	json_decref(doc);
	return 0;
}
