// SPDX-License-Identifier: Apache-2.0
/*
 * Fuzz target: Kubernetes and Volcano manifests, as "vsctl apply -f" reads
 * them (userspace/kube/kread.h): the file's YAML documents
 * (vsnl_yaml_parse_docs()), classified with a List's items each on its own
 * (kr_docs_read()), and each document's NEW request written by
 * kr_put_new(). The input is one manifest file.
 *
 * What must hold whatever the bytes: a refusal says why and where (the
 * file, and a line of it); the documents are the same, a line further
 * down, after a comment line of non-ASCII text, and each gets the same
 * answer; a document is put, refused, or skipped (a pod of another
 * scheduler, nothing written) and nothing else; what is written is the
 * kind's NEW command with its object, passes the daemon's own check of
 * its framing, and the codec's parse of a request (lib/codec.h,
 * VSNL_CODEC_REQUEST) and the daemon's attribute policy answer it alike:
 * yes, but for a required attribute the manifest leaves out, which the
 * daemon refuses by design (check_request()); and it is
 * the same bytes in a buffer of exactly its size, whatever the buffer
 * held, while a buffer a byte short is refused for its size.
 */
#include <errno.h>
#include <linux/genetlink.h>
#include <string.h>

#include "fuzz.h"
#include "kube/kread.h"
#include "lib/codec.h"
#include "lib/codec_gen.h"
#include "lib/vsnl.h"
#include "lib/ytree.h"
#include "netlink/extack.h"
#include "netlink/family.h"
#include "netlink/msg.h"
#include "netlink/policy.h"
#include "vsched/vsched.h"

#define SOURCE	"fuzz.yaml"

/* An input this small makes no request larger than a message (bytes of text per attribute). */
#define FITS_MAX	(VS_MSG_MAX / 16)

static char big[VS_MSG_MAX] __attribute__((aligned(4)));

/* The input, for the lines messages name. */
static const uint8_t *in_data;
static size_t in_size;

/* Each kind's object in its NEW request. */
static const u16 obj_attr[KR_NR_KINDS] = {
	[KR_PRIOCLASS] = VS_A_PRIOCLASS,
	[KR_QUEUE] = VS_A_QUEUE,
	[KR_NODE] = VS_A_NODE,
	[KR_PODGROUP] = VS_A_PODGROUP,
	[KR_VJOB] = VS_A_VJOB,
	[KR_POD] = VS_A_TASK,
};

/* One document's answer, for comparing with the text a line further down. */
struct answer {
	int ret;
	u32 len;		/* of its request, when put */
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

/* Parse and classify @text; 0, or the refusal, which says why and where. */
static int read_docs(const char *text, size_t size, struct vsnl_ydocs *ydocs,
		     struct kr_docs *docs, struct vsnl_err *err)
{
	int ret;

	memset(ydocs, 0, sizeof(*ydocs));
	memset(docs, 0, sizeof(*docs));
	ret = vsnl_yaml_parse_docs(text, size, SOURCE, ydocs, err) ?:
	      kr_docs_read(SOURCE, ydocs, docs, err);
	FUZZ_ASSERT(ret <= 0, "%d", ret);
	return ret;
}

static void free_docs(struct vsnl_ydocs *ydocs, struct kr_docs *docs)
{
	kr_docs_free(docs);
	vsnl_ydocs_free(ydocs);
}

/* Whether @msg refuses a required attribute that is absent (the codec's or the daemon's words). */
static bool required_missing(const char *msg)
{
	static const char tail[] = ": required but missing";
	size_t len = strlen(msg);

	return len > strlen(tail) && !strcmp(msg + len - strlen(tail), tail);
}

/*
 * The request @nlh of @doc is what the daemon's policy takes: the codec's
 * parse of a request (VSNL_CODEC_REQUEST) and the daemon's own checks,
 * framing and the command's attribute policy, give the same answer (the
 * two come from one spec), and it is yes, but for one refusal the reader
 * leaves to the daemon by design: a required attribute the manifest does
 * not write (a taint's effect, a preferred term's weight, a pod affinity
 * term's topologyKey, a task's name), which the daemon refuses whole,
 * naming the field, before it changes anything. A value the policy
 * refuses, a wrong type or length, is never written.
 */
static void check_request(const struct kr_doc *doc, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	const struct nlattr *tb[VS_A_MAX + 1];
	const struct nlattr *top[VS_A_MAX + 1];
	struct vsnl_err err = { 0 };
	const struct vs_genl_op *op;
	struct vs_extack ext;
	int codec, daemon;

	FUZZ_ASSERT(g->cmd == kr_kind(doc->kind)->cmd_new, "%s: command %u", doc->label,
		    g->cmd);
	vs_extack_clear(&ext);
	FUZZ_ASSERT(!vs_nl_msg_check(nlh, &ext), "%s: %s", doc->label, ext.err.msg);
	op = vs_genl_op_find(&vs_genl_vsched, g->cmd);
	FUZZ_ASSERT(op && op->maxattr <= VS_A_MAX, "command %u", g->cmd);
	daemon = vs_nla_validate(nlh, GENL_HDRLEN, op->policy, op->maxattr, tb, 0, &ext);
	codec = vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top,
				     VSNL_CODEC_REQUEST, &err);
	FUZZ_ASSERT(!codec == !daemon, "%s: the codec says %d (%s), the daemon %d (%s)",
		    doc->label, codec, err.msg, daemon, ext.err.msg);
	if (codec) {
		FUZZ_ASSERT(required_missing(err.msg) && required_missing(ext.err.msg),
			    "%s %s: the policy refuses what the reader wrote: %s (the daemon: %s)",
			    op->name, doc->label, err.msg, ext.err.msg);
		return;
	}
	FUZZ_ASSERT(top[obj_attr[doc->kind]], "%s without its object", doc->label);
}

/*
 * @doc's request in a buffer of @len bytes that held @fill: the same bytes
 * as @want when @len is the request's size; refused for its size when it
 * is less, *nlh untouched.
 */
static void put_exact(const struct kr_doc *doc, const struct nlmsghdr *want, size_t len,
		      int fill)
{
	struct vsnl_err err = { 0 };
	struct nlmsghdr *nlh = NULL;
	void *buf;
	int ret;

	buf = malloc(len);
	FUZZ_ASSERT(buf, "out of memory");
	memset(buf, fill, len);
	ret = kr_put_new(doc, buf, len, &nlh, &err);
	if (len == want->nlmsg_len) {
		FUZZ_ASSERT(!ret, "%s does not fit in its own %zu bytes: %s", doc->label, len,
			    err.msg);
		FUZZ_ASSERT(nlh == buf && !memcmp(nlh, want, len),
			    "%s: other bytes in another buffer", doc->label);
	} else {
		FUZZ_ASSERT(ret == -EMSGSIZE, "%s: %u bytes written into %zu: %d (%s)",
			    doc->label, want->nlmsg_len, len, ret, err.msg);
		FUZZ_ASSERT(!nlh, "%s: a refused put handed a message", doc->label);
		check_where(err.msg);
	}
	free(buf);
}

/* @doc put, refused or skipped, and what it wrote checked: its answer. */
static struct answer check_doc(const struct kr_doc *doc)
{
	struct vsnl_err err = { 0 };
	struct nlmsghdr *nlh = NULL;
	struct answer a = { 0 };
	u32 len;

	FUZZ_ASSERT((unsigned int)doc->kind < KR_NR_KINDS, "%s of kind %d", doc->label,
		    doc->kind);
	FUZZ_ASSERT(doc->file && !strcmp(doc->file, SOURCE), "%s: file %s", doc->label,
		    doc->file ? doc->file : "(none)");
	FUZZ_ASSERT(doc->line >= 1 && doc->line <= last_line(), "%s on line %u of %lu",
		    doc->label, doc->line, last_line());
	FUZZ_ASSERT(!kr_kind(doc->kind)->namespaced == !doc->ns, "%s: namespace %s",
		    doc->label, doc->ns ? doc->ns : "(none)");
	a.ret = kr_put_new(doc, big, sizeof(big), &nlh, &err);
	switch (a.ret) {
	case 0:
		break;
	case KR_SKIPPED:
		FUZZ_ASSERT(doc->kind == KR_POD, "%s skipped", doc->label);
		FUZZ_ASSERT(!nlh, "%s skipped, and a message handed", doc->label);
		FUZZ_ASSERT(err.msg[0], "%s skipped without a reason", doc->label);
		return a;
	case -EINVAL:
		FUZZ_ASSERT(!nlh, "%s refused, and a message handed", doc->label);
		check_where(err.msg);
		return a;
	case -EMSGSIZE:
		FUZZ_ASSERT(in_size > FITS_MAX, "%s of a %zu-byte file does not fit in %zu: %s",
			    doc->label, in_size, sizeof(big), err.msg);
		check_where(err.msg);
		return a;
	default:
		FUZZ_ASSERT(0, "%s: %d (%s)", doc->label, a.ret, err.msg);
	}
	FUZZ_ASSERT(doc->name, "%s put without a name", doc->label);
	FUZZ_ASSERT(nlh == (void *)big, "%s: the message not at the buffer's start", doc->label);
	len = nlh->nlmsg_len;
	FUZZ_ASSERT(len > NLMSG_HDRLEN + GENL_HDRLEN && len <= sizeof(big) && !(len & 3),
		    "%s: %u bytes", doc->label, len);
	check_request(doc, nlh);
	put_exact(doc, nlh, len, 0x00);
	put_exact(doc, nlh, len, 0xff);
	put_exact(doc, nlh, len - 1, 0xa5);
	memset(big, 0, len);
	a.len = len;
	return a;
}

/*
 * The text after a comment line of non-ASCII text (after its byte order
 * mark, if any) reads as the input did: as many documents, of the same
 * kinds, names and items, each a line further down, each put alike (the
 * same answer, a request of the same size); or it is refused as well.
 */
static void check_shifted(const struct kr_docs *docs, const struct answer *ans, int parsed)
{
	static const char comment[] = "# \xc3\xa9t\xc3\xa9 \xe2\x98\x83\n";	/* été ☃ */
	size_t bom = in_size >= 3 && !memcmp(in_data, "\xef\xbb\xbf", 3) ? 3 : 0;
	size_t clen = strlen(comment);
	struct vsnl_err err = { 0 };
	struct vsnl_ydocs ydocs;
	struct kr_docs shifted;
	char *text;
	int ret;

	if (in_size >= 2 && ((in_data[0] == 0xff && in_data[1] == 0xfe) ||
			     (in_data[0] == 0xfe && in_data[1] == 0xff)))
		return;		/* UTF-16: a comment in UTF-8 would change it */
	text = malloc(in_size + clen);
	FUZZ_ASSERT(text, "out of memory");
	memcpy(text, in_data, bom);
	memcpy(text + bom, comment, clen);
	memcpy(text + bom + clen, in_data + bom, in_size - bom);
	ret = read_docs(text, in_size + clen, &ydocs, &shifted, &err);
	FUZZ_ASSERT(!ret == !parsed, "%s, and after a comment line %s",
		    parsed ? "refused" : "read", parsed ? "read" : err.msg);
	FUZZ_ASSERT(parsed || shifted.nr == docs->nr, "%u documents, %u after a comment line",
		    docs->nr, shifted.nr);
	for (u32 i = 0; !parsed && i < docs->nr; i++) {
		const struct kr_doc *a = &docs->v[i], *b = &shifted.v[i];
		struct vsnl_err e = { 0 };
		struct nlmsghdr *nlh = NULL;
		int put;

		FUZZ_ASSERT(a->kind == b->kind && !a->name == !b->name &&
			    (!a->name || !strcmp(a->name, b->name)) && !a->ns == !b->ns &&
			    (!a->ns || !strcmp(a->ns, b->ns)) && a->index == b->index &&
			    a->item == b->item && !strcmp(a->label, b->label),
			    "%s, after a comment line %s", a->label, b->label);
		FUZZ_ASSERT(b->line == a->line + 1, "%s on line %u, after a comment line on %u",
			    a->label, a->line, b->line);
		put = kr_put_new(b, big, sizeof(big), &nlh, &e);
		FUZZ_ASSERT(put == ans[i].ret, "%s: %d, after a comment line %d (%s)", a->label,
			    ans[i].ret, put, e.msg);
		FUZZ_ASSERT(put || nlh->nlmsg_len == ans[i].len,
			    "%s: %u bytes, after a comment line %u", a->label, ans[i].len,
			    nlh->nlmsg_len);
		if (!put)
			memset(big, 0, nlh->nlmsg_len);
	}
	free_docs(&ydocs, &shifted);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vsnl_err err = { 0 };
	struct answer *ans = NULL;
	struct vsnl_ydocs ydocs;
	struct kr_docs docs;
	int parsed;

	in_data = data;
	in_size = size;
	parsed = read_docs((const char *)data, size, &ydocs, &docs, &err);
	if (parsed && parsed != -ENOMEM)
		check_where(err.msg);
	if (!parsed && docs.nr) {
		ans = calloc(docs.nr, sizeof(*ans));
		FUZZ_ASSERT(ans, "out of memory");
	}
	for (u32 i = 0; !parsed && i < docs.nr; i++)
		ans[i] = check_doc(&docs.v[i]);
	if (parsed != -ENOMEM)
		check_shifted(&docs, ans, parsed);
	free(ans);
	free_docs(&ydocs, &docs);
	return 0;
}
