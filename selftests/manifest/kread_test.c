// SPDX-License-Identifier: Apache-2.0
/*
 * The manifest reader without the core (userspace/kube/kread.c): documents
 * classified as manifest.c classifies them, the kinds it reads put as
 * requests by the generated codec and read back by the codec as the daemon
 * checks them, held to the old reader (manifest.c) on the same texts, the
 * requests' attributes and every refusal's message alike.
 */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <criterion/criterion.h>

#include "vsched/vsched.h"
#include "kube/kread.h"
#include "kube/manifest.h"
#include "lib/codec.h"
#include "lib/codec_gen.h"

static struct vsnl_ydocs ydocs;
static struct kr_docs docs;
static struct vsnl_err err;
static char buf[8192];

static void fini(void)
{
	kr_docs_free(&docs);
	vsnl_ydocs_free(&ydocs);
}

TestSuite(kread, .fini = fini);

/* Parse and classify @text as the file "m.yaml"; 0 or the error, in err. */
static int read_docs(const char *text)
{
	int ret;

	fini();
	memset(&err, 0, sizeof(err));
	ret = vsnl_yaml_parse_docs(text, strlen(text), "m.yaml", &ydocs, &err);
	return ret ?: kr_docs_read("m.yaml", &ydocs, &docs, &err);
}

/* The one object's request from @text, checked by the codec as the daemon checks a request. */
static int put_one(const char *text, struct vsnl_prioclass_tb *tb)
{
	struct nlmsghdr *nlh = NULL;
	struct vsnl_vsched_tb top;
	int ret = read_docs(text);

	if (ret)
		return ret;
	cr_assert_eq(docs.nr, 1);
	ret = kr_put_new(&docs.v[0], buf, sizeof(buf), &nlh, &err);
	if (ret)
		return ret;
	cr_assert_eq(((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->cmd, VS_CMD_PRIOCLASS_NEW);
	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top.attr,
					  VSNL_CODEC_REQUEST, &err), 0, "%s", err.msg);
	cr_assert_not_null(vsnl_vsched_get_prioclass(&top));
	cr_assert_eq(vsnl_prioclass_parse(vsnl_vsched_get_prioclass(&top), tb, VSNL_CODEC_REQUEST,
					  &err), 0, "%s", err.msg);
	return 0;
}

Test(kread, priority_class_is_put_with_its_value_default_and_policy)
{
	struct vsnl_prioclass_tb tb;
	uint32_t policy = 9;
	uint8_t dflt = 9;
	int32_t value = 0;

	cr_assert_eq(put_one("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
			     "metadata: {name: high, labels: {a: b}}\nvalue: 1000\n"
			     "globalDefault: true\npreemptionPolicy: Never\n"
			     "description: the top\n", &tb), 0, "%s", err.msg);
	cr_assert_str_eq(vsnl_prioclass_get_name(&tb), "high");
	cr_assert(vsnl_prioclass_get_value(&tb, &value));
	cr_assert_eq(value, 1000);
	cr_assert(vsnl_prioclass_get_global_default(&tb, &dflt));
	cr_assert_eq(dflt, 1);
	cr_assert(vsnl_prioclass_get_preemption_policy(&tb, &policy));
	cr_assert_eq(policy, VS_PREEMPTION_NEVER);
}

Test(kread, priority_class_without_a_policy_leaves_it_to_the_daemon)
{
	struct vsnl_prioclass_tb tb;
	uint32_t policy = 9;
	uint8_t dflt = 9;
	int32_t value = 1;

	cr_assert_eq(put_one("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
			     "metadata: {name: low}\nvalue: -5\npreemptionPolicy: \"\"\n", &tb), 0,
		     "%s", err.msg);
	cr_assert(vsnl_prioclass_get_value(&tb, &value));
	cr_assert_eq(value, -5);
	cr_assert(vsnl_prioclass_get_global_default(&tb, &dflt));
	cr_assert_eq(dflt, 0);
	cr_assert_not(vsnl_prioclass_get_preemption_policy(&tb, &policy));
}

Test(kread, documents_are_labelled_and_lists_give_their_items)
{
	cr_assert_eq(read_docs("---\n---\napiVersion: v1\nkind: List\nitems:\n"
			       "- {apiVersion: v1, kind: Pod, metadata: {name: p1}}\n"
			       "- apiVersion: scheduling.volcano.sh/v1beta1\n  kind: PodGroup\n"
			       "  metadata: {name: g, namespace: ns}\n"
			       "---\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"), 0,
		     "%s", err.msg);
	cr_assert_eq(docs.nr, 3);
	cr_assert_str_eq(docs.v[0].label, "document 2 items[0] (Pod default/p1)");
	cr_assert_eq(docs.v[0].kind, KR_POD);
	cr_assert_str_eq(docs.v[1].label, "document 2 items[1] (PodGroup ns/g)");
	cr_assert_str_eq(docs.v[1].ns, "ns");
	cr_assert_str_eq(docs.v[2].label, "document 3 (Node n1)");
	cr_assert_null(docs.v[2].ns);
	cr_assert_eq(docs.v[2].line, 11);	/* its mapping's, as manifest.c's */
}

/* Every kind has moved: none is answered "not read here yet" (-EOPNOTSUPP). */
Test(kread, every_kind_is_read_here)
{
	for (u32 k = 0; k < KR_NR_KINDS; k++) {
		const struct kr_kind_info *info = kr_kind((enum kr_kind)k);
		struct nlmsghdr *nlh = NULL;
		char text[256];

		snprintf(text, sizeof(text), "apiVersion: %s\nkind: %s\nmetadata: {name: x1}\n",
			 info->api, info->kind);
		cr_assert_eq(read_docs(text), 0, "%s", err.msg);
		cr_assert_neq(kr_put_new(&docs.v[0], buf, sizeof(buf), &nlh, &err), -EOPNOTSUPP,
			      "%s", err.msg);
	}
}

Test(kread, a_request_too_large_for_the_buffer_is_refused)
{
	struct nlmsghdr *nlh = NULL;

	cr_assert_eq(read_docs("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
			       "metadata: {name: high}\nvalue: 1\n"), 0);
	cr_assert_eq(kr_put_new(&docs.v[0], buf, 40, &nlh, &err), -EMSGSIZE);
	cr_assert_null(nlh);
}

/* ---- against the old reader ---- */

/* What the old reader says of @text: 0 and its one PriorityClass's request in @tb, or the error. */
static int old_put(const char *text, struct vsnl_prioclass_tb *tb, char *msg, size_t size)
{
	struct vsnl_vsched_tb top;
	struct mf_set set;
	struct mf_err e = { { 0 } };
	struct nlmsghdr *nlh;
	int ret;

	cr_assert_eq(mf_set_init(&set), 0);
	set.offline = true;
	ret = mf_set_parse(&set, "m.yaml", text, strlen(text), &e) ?: mf_set_build(&set, &e);
	snprintf(msg, size, "%s", e.msg);
	if (!ret) {
		cr_assert_eq(set.nr_objs, 1);
		nlh = vsnl_msg_put(buf, sizeof(buf), VS_CMD_PRIOCLASS_NEW, 0);
		cr_assert(mf_put_spec(&set.objs[0], nlh, sizeof(buf)));
		cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top.attr,
						  VSNL_CODEC_REQUEST, &err), 0, "%s", err.msg);
		cr_assert_eq(vsnl_prioclass_parse(vsnl_vsched_get_prioclass(&top), tb,
						  VSNL_CODEC_REQUEST, &err), 0, "%s", err.msg);
	}
	mf_set_free(&set);
	return ret;
}

#define PC_HEAD	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"

static const char *const pc_texts[] = {
	PC_HEAD "metadata: {name: high}\nvalue: 1000\n",
	PC_HEAD "metadata: {name: high}\nvalue: -2147483648\nglobalDefault: false\n",
	PC_HEAD "metadata: {name: d}\nvalue: 7\nglobalDefault: true\npreemptionPolicy: Never\n",
	PC_HEAD "metadata: {name: p}\nvalue: 7\npreemptionPolicy: PreemptLowerPriority\n",
	PC_HEAD "metadata: {name: p}\nvalue: 7\npreemptionPolicy:\ndescription: ~\n",
	/* refused, in the same words */
	PC_HEAD "metadata: {name: high}\n",
	PC_HEAD "value: 3\n",
	PC_HEAD "metadata: {namespace: x}\nvalue: 3\n",
	PC_HEAD "metadata: {name: high}\nvalue: 2147483648\n",
	PC_HEAD "metadata: {name: high}\nvalue: \"3\"\n",
	PC_HEAD "metadata: {name: high}\nvalue: 3\nglobalDefault: yes please\n",
	PC_HEAD "metadata: {name: high}\nvalue: 3\npreemptionPolicy: Sometimes\n",
	PC_HEAD "metadata: {name: high}\nvalue: 3\npreemptionPolicy: [Never]\n",
	PC_HEAD "metadata: {name: high}\nvalue: 3\ncolour: red\n",
	PC_HEAD "metadata: [high]\nvalue: 3\n",
	PC_HEAD "metadata: {name: high}\nvalue: 1.5\n",
	"apiVersion: scheduling.k8s.io/v1\nkind: Priority\nmetadata: {name: x}\n",
	"apiVersion: scheduling.k8s.io/v2\nkind: PriorityClass\nmetadata: {name: x}\n",
	"kind: PriorityClass\nmetadata: {name: x}\n",
	"apiVersion: 1\nkind: PriorityClass\n",
	"- a list\n",
	"---\n" PC_HEAD "metadata: {name: high}\nvalue: 3\nvalue: 4\n",
};

/* @from replaced by @to in @s (of @size bytes), once. */
static void replace(char *s, size_t size, const char *from, const char *to)
{
	char *at = strstr(s, from), tail[1024];

	if (!at)
		return;
	snprintf(tail, sizeof(tail), "%s", at + strlen(from));
	snprintf(at, size - (size_t)(at - s), "%s%s", to, tail);
}

Test(kread, priority_classes_read_as_the_old_reader_reads_them)
{
	for (u32 i = 0; i < ARRAY_SIZE(pc_texts); i++) {
		struct vsnl_prioclass_tb want, got;
		char msg[MF_ERR_MAX];
		int32_t a = 0, b = 0;
		uint32_t pa = 0, pb = 0;
		uint8_t da = 0, db = 0;
		int ret_old = old_put(pc_texts[i], &want, msg, sizeof(msg));
		int ret_new = put_one(pc_texts[i], &got);

		if (ret_old || ret_new) {
			cr_assert(ret_old && ret_new, "text %u: old %d (%s), new %d (%s)", i,
				  ret_old, msg, ret_new, err.msg);
			/* the kinds taken: the new reader takes HyperNodes too */
			replace(msg, sizeof(msg), "Pod, List", "Pod, HyperNode, List");
			cr_assert_str_eq(err.msg, msg, "text %u", i);
			continue;
		}
		cr_assert_str_eq(vsnl_prioclass_get_name(&got), vsnl_prioclass_get_name(&want));
		cr_assert(vsnl_prioclass_get_value(&want, &a) && vsnl_prioclass_get_value(&got, &b));
		cr_assert_eq(a, b, "text %u", i);
		cr_assert(vsnl_prioclass_get_global_default(&want, &da));
		cr_assert(vsnl_prioclass_get_global_default(&got, &db));
		cr_assert_eq(da, db, "text %u", i);
		/* the old reader sends the default; the new leaves it to the daemon */
		cr_assert(vsnl_prioclass_get_preemption_policy(&want, &pa));
		if (!vsnl_prioclass_get_preemption_policy(&got, &pb))
			pb = VS_PREEMPTION_LOWER_PRIORITY;
		cr_assert_eq(pa, pb, "text %u", i);
	}
}
