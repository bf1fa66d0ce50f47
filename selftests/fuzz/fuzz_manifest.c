// SPDX-License-Identifier: Apache-2.0
/*
 * Fuzz target: Kubernetes and Volcano manifests, as "vsctl apply -f" reads
 * them (mf_set_parse(): YAML documents, Lists, kinds; mf_set_build(): the
 * objects, with Volcano's rules). The input is one manifest file. It is
 * built twice, as vsctl does without the daemon (the first refusal stops
 * the build) and as vskube does (a refused document is left out and the
 * build goes on), and each object built is written as vsctl sends it
 * (mf_put_spec(), mf_put_key()).
 *
 * What must hold whatever the bytes: a refusal says why and where (the
 * file, and a line of it); the documents are the same, a line further
 * down, after a comment line of non-ASCII text; the two builds agree (the
 * build that stops says what the one that goes on says first, and when
 * neither refuses anything they make as many objects), and going on past
 * refusals never fails; every object has its key, and a spec only when it
 * is sent; what is written passes the daemon's checks of its request (the
 * command's attribute policy) and reads back with the daemon's parsers,
 * and it is the same bytes in a buffer of exactly its size, whatever the
 * buffer held; a buffer a byte short takes nothing and leaves the message
 * as it was.
 */
#include <errno.h>
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

#define SOURCE	"fuzz.yaml"

static char big[VS_MSG_MAX] __attribute__((aligned(4)));

/* The input, for the lines messages name. */
static const uint8_t *in_data;
static size_t in_size;

/* What the vskube-like build was told. */
struct told {
	u32 refused;
	char first[MF_ERR_MAX];
};

/*
 * The last line a message about the input may name: one after the last
 * line break, where libyaml ends a text that lacks its final one.
 */
static unsigned long last_line(void)
{
	return 2 + fuzz_line_breaks(in_data, in_size, false);
}

/* A refusal says why, where: "FILE:LINE: ...", the line one of the file's. */
static void check_where(const char *msg)
{
	unsigned long line;
	char *end;

	FUZZ_ASSERT(msg[0], "refused without a reason");
	FUZZ_ASSERT(!strncmp(msg, SOURCE ":", strlen(SOURCE ":")),
		    "a refusal that does not name the file first: %s", msg);
	msg += strlen(SOURCE ":");
	if (!strcmp(msg, " out of memory"))
		return;
	line = strtoul(msg, &end, 10);
	FUZZ_ASSERT(end != msg && *end == ':' && line >= 1 && line <= last_line(),
		    "line %lu of %lu: %s", line, last_line(), msg);
}

static void on_warn(void *arg, const char *msg)
{
	FUZZ_ASSERT(msg && msg[0], "a warning without a message");
}

static void on_refused(void *arg, const struct mf_doc *doc, const char *msg)
{
	struct told *t = arg;

	FUZZ_ASSERT(doc && doc->file, "a refusal without its document");
	FUZZ_ASSERT(msg, "%s: refused without a reason", doc->label);
	check_where(msg);
	if (!t->refused++)
		snprintf(t->first, sizeof(t->first), "%s", msg);
}

static bool put(const struct mf_obj *o, struct nlmsghdr *nlh, size_t cap, bool spec)
{
	return spec ? mf_put_spec(o, nlh, cap) : mf_put_key(o, nlh, cap);
}

/*
 * @o's request (its spec, or its key) in a buffer of @len bytes that held
 * @fill: the same bytes as @want when @len is the request's size; nothing
 * written when it is less.
 */
static void put_exact(const struct mf_obj *o, u8 cmd, bool spec, const struct nlmsghdr *want,
		      size_t len, int fill)
{
	struct nlmsghdr *nlh;
	u32 hdr;
	void *buf;
	bool ok;

	buf = malloc(len);
	FUZZ_ASSERT(buf, "out of memory");
	memset(buf, fill, len);
	nlh = vsnl_msg_put(buf, len, cmd, 0);
	FUZZ_ASSERT(nlh, "%zu bytes", len);
	hdr = nlh->nlmsg_len;
	ok = put(o, nlh, len, spec);
	if (len == want->nlmsg_len) {
		FUZZ_ASSERT(ok, "%s/%s does not fit in its own %zu bytes", o->ns ? o->ns : "",
			    o->name, len);
		FUZZ_ASSERT(!memcmp(nlh, want, len), "%s/%s: other bytes in another buffer",
			    o->ns ? o->ns : "", o->name);
	} else {
		FUZZ_ASSERT(!ok, "%s/%s: %u bytes written into %zu", o->ns ? o->ns : "", o->name,
			    want->nlmsg_len, len);
		FUZZ_ASSERT(nlh->nlmsg_len == hdr, "a failed put left %u bytes of %u",
			    nlh->nlmsg_len, hdr);
	}
	free(buf);
}

static void check_put(struct vs_cluster *daemon, const struct mf_obj *o, bool spec,
		      struct vs_arena *arena)
{
	const struct mf_kind_info *k = mf_kind(o->kind);
	u8 cmd = spec ? k->cmd_new : k->cmd_del;
	struct nlmsghdr *nlh = vsnl_msg_put(big, sizeof(big), cmd, 0);
	u32 hdr = nlh->nlmsg_len;
	size_t len;

	if (!put(o, nlh, sizeof(big), spec)) {
		/* an object a manifest of a few KiB makes fits in a message */
		FUZZ_ASSERT(spec && !o->obj, "%s/%s does not fit in %zu bytes", o->ns ? o->ns : "",
			    o->name, sizeof(big));
		FUZZ_ASSERT(nlh->nlmsg_len == hdr, "a failed put left %u bytes of %u",
			    nlh->nlmsg_len, hdr);
		return;
	}
	FUZZ_ASSERT(!spec || o->obj, "a spec of nothing");
	len = nlh->nlmsg_len;
	FUZZ_ASSERT(len > hdr && len <= sizeof(big) && !(len & 3), "%zu bytes", len);
	fuzz_check_request(daemon, o, nlh, spec, arena);
	put_exact(o, cmd, spec, nlh, len, 0x00);
	put_exact(o, cmd, spec, nlh, len, 0xff);
	put_exact(o, cmd, spec, nlh, len - 1, 0xa5);
	memset(big, 0, len);
}

static void check_objs(struct vs_cluster *daemon, const struct mf_set *set,
		       struct vs_arena *arena)
{
	for (u32 i = 0; i < set->nr_objs; i++) {
		const struct mf_obj *o = &set->objs[i];
		const struct mf_kind_info *k;

		FUZZ_ASSERT((unsigned int)o->kind < MF_NR_KINDS, "object %u of kind %d", i,
			    o->kind);
		FUZZ_ASSERT(!i || o->kind >= set->objs[i - 1].kind, "object %u out of kind order",
			    i);
		k = mf_kind(o->kind);
		FUZZ_ASSERT(o->doc, "object %u without its document", i);
		FUZZ_ASSERT(o->name && o->name[0], "object %u without a name", i);
		FUZZ_ASSERT(!k->namespaced == !o->ns, "%s %s: namespace %s", k->kind, o->name,
			    o->ns ? o->ns : "(none)");
		FUZZ_ASSERT(!o->skipped == !!o->obj, "%s %s: skipped (%s) and %s", k->kind,
			    o->name, o->skipped ? o->skipped : "no", o->obj ? "made" : "not made");
		check_put(daemon, o, true, arena);
		check_put(daemon, o, false, arena);
	}
}

/* Parse @data into @set; 0, or the refusal, which says why. */
static int parse(struct mf_set *set, const uint8_t *data, size_t size, struct mf_err *err)
{
	int ret;

	FUZZ_ASSERT(!mf_set_init(set), "out of memory");
	set->offline = true;
	set->warn = on_warn;
	ret = mf_set_parse(set, SOURCE, (const char *)data, size, err);
	FUZZ_ASSERT(ret <= 0, "%d", ret);
	if (ret && ret != -ENOMEM)
		check_where(err->msg);
	return ret;
}

/*
 * The text after a comment line of non-ASCII text (after its byte order
 * mark, if any) reads as @set read it: as many documents, of the same
 * kinds and names, each a line further down; or it is refused as well.
 * Documents are found by libyaml's marks, which count characters and
 * lines as libyaml does.
 */
static void check_shifted(const struct mf_set *set, int parsed, const uint8_t *data,
			  size_t size)
{
	static const char comment[] = "# \xc3\xa9t\xc3\xa9 \xe2\x98\x83\n";	/* été ☃ */
	size_t bom = size >= 3 && !memcmp(data, "\xef\xbb\xbf", 3) ? 3 : 0;
	size_t clen = strlen(comment);
	struct mf_err err = { { 0 } };
	struct mf_set shifted;
	char *text;

	if (size >= 2 && ((data[0] == 0xff && data[1] == 0xfe) ||
			  (data[0] == 0xfe && data[1] == 0xff)))
		return;		/* UTF-16: a comment in UTF-8 would change it */
	text = malloc(size + clen);
	FUZZ_ASSERT(text, "out of memory");
	memcpy(text, data, bom);
	memcpy(text + bom, comment, clen);
	memcpy(text + bom + clen, data + bom, size - bom);
	FUZZ_ASSERT(!mf_set_init(&shifted), "out of memory");
	FUZZ_ASSERT(!mf_set_parse(&shifted, SOURCE, text, size + clen, &err) == !parsed,
		    "%s, and after a comment line %s", parsed ? "refused" : "read",
		    parsed ? "read" : err.msg);
	for (u32 i = 0; !parsed && i < set->nr_docs; i++) {
		const struct mf_doc *a = &set->docs[i], *b = &shifted.docs[i];

		FUZZ_ASSERT(i < shifted.nr_docs, "%u documents, %u after a comment line",
			    set->nr_docs, shifted.nr_docs);
		FUZZ_ASSERT(a->kind == b->kind && !a->name == !b->name &&
			    (!a->name || !strcmp(a->name, b->name)) && !a->ns == !b->ns &&
			    (!a->ns || !strcmp(a->ns, b->ns)) && a->item == b->item,
			    "%s, after a comment line %s", a->label, b->label);
		FUZZ_ASSERT(b->line == a->line + 1, "%s on line %u, after a comment line on %u",
			    a->label, a->line, b->line);
	}
	FUZZ_ASSERT(parsed || shifted.nr_docs == set->nr_docs, "%u documents, %u after a comment",
		    set->nr_docs, shifted.nr_docs);
	mf_set_free(&shifted);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mf_err err = { { 0 } }, err2 = { { 0 } };
	struct mf_set set, set2;
	struct told told = { 0 };
	struct vs_cluster daemon;
	struct vs_arena arena;
	int parsed, ret;

	/* each input's requests are read by a daemon of its own: its resource names too */
	FUZZ_ASSERT(!vs_cluster_init(&daemon), "cluster");
	vs_arena_init(&arena, 0);
	in_data = data;
	in_size = size;

	/* as vsctl apply --dry-run: the first refusal stops the build */
	parsed = ret = parse(&set, data, size, &err);
	check_shifted(&set, parsed, data, size);
	if (!ret) {
		ret = mf_set_build(&set, &err);
		FUZZ_ASSERT(ret <= 0, "%d", ret);
		if (ret && ret != -ENOMEM)
			check_where(err.msg);
		if (!ret)
			check_objs(&daemon, &set, &arena);
	}

	/* as vskube: a refused document is left out, the others go on */
	FUZZ_ASSERT(parse(&set2, data, size, &err2) == parsed, "parsed twice, two answers");
	if (!parsed) {
		set2.keep_going = true;
		set2.refused = on_refused;
		set2.warn_arg = &told;
		FUZZ_ASSERT(!mf_set_build(&set2, &err2), "keeping going, refused: %s", err2.msg);
		if (!ret) {
			FUZZ_ASSERT(!told.refused, "%u refused: %s", told.refused, told.first);
			FUZZ_ASSERT(set2.nr_objs == set.nr_objs, "%u objects, then %u",
				    set.nr_objs, set2.nr_objs);
		} else if (ret != -ENOMEM) {
			FUZZ_ASSERT(told.refused && !strcmp(told.first, err.msg),
				    "stopped at \"%s\", went on past \"%s\"", err.msg, told.first);
		}
		check_objs(&daemon, &set2, &arena);
	}

	mf_set_free(&set);
	mf_set_free(&set2);
	vs_arena_destroy(&arena);
	vs_cluster_destroy(&daemon);
	return 0;
}
