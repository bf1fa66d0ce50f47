// SPDX-License-Identifier: Apache-2.0
/*
 * The manifest reader without the core (userspace/kube/kread.c): documents
 * classified as manifest.c classifies them, the kinds it reads put as
 * requests by the generated codec and read back by the codec as the daemon
 * checks them, held to the old reader's answers (manifest.c's, kept in the
 * tables) on the same texts, the requests' attributes and every refusal's
 * message alike.
 */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <criterion/criterion.h>

#include "vsched/vsched.h"
#include "kube/kread.h"
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

/* ---- against the old reader's answers ---- */

/*
 * A PriorityClass's request as one line: the old reader sent the
 * preemption policy's default, kread leaves it to the daemon.
 */
static void pc_show(const struct vsnl_prioclass_tb *tb, char *out, size_t size)
{
	uint32_t policy = VS_PREEMPTION_LOWER_PRIORITY;
	int32_t value = 0;
	uint8_t dflt = 0;

	cr_assert(vsnl_prioclass_get_value(tb, &value));
	cr_assert(vsnl_prioclass_get_global_default(tb, &dflt));
	vsnl_prioclass_get_preemption_policy(tb, &policy);
	snprintf(out, size, "%s value=%d globalDefault=%u preemptionPolicy=%s",
		 vsnl_prioclass_get_name(tb), value, dflt, vsnl_preemption_policy_names[policy]);
}

#define PC_HEAD	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"

static const struct {
	const char *text;
	const char *req;	/* the old reader's request (pc_show()) */
	const char *msg;	/* or its refusal */
} pc_cases[] = {
	{ PC_HEAD "metadata: {name: high}\nvalue: 1000\n",
	  .req = "high value=1000 globalDefault=0 preemptionPolicy=PreemptLowerPriority" },
	{ PC_HEAD "metadata: {name: high}\nvalue: -2147483648\nglobalDefault: false\n",
	  .req = "high value=-2147483648 globalDefault=0 preemptionPolicy=PreemptLowerPriority" },
	{ PC_HEAD "metadata: {name: d}\nvalue: 7\nglobalDefault: true\npreemptionPolicy: Never\n",
	  .req = "d value=7 globalDefault=1 preemptionPolicy=Never" },
	{ PC_HEAD "metadata: {name: p}\nvalue: 7\npreemptionPolicy: PreemptLowerPriority\n",
	  .req = "p value=7 globalDefault=0 preemptionPolicy=PreemptLowerPriority" },
	{ PC_HEAD "metadata: {name: p}\nvalue: 7\npreemptionPolicy:\ndescription: ~\n",
	  .req = "p value=7 globalDefault=0 preemptionPolicy=PreemptLowerPriority" },
	/* refused, in the same words */
	{ PC_HEAD "metadata: {name: high}\n",
	  .msg = "m.yaml:1: document 1 (PriorityClass high): value: required" },
	{ PC_HEAD "value: 3\n",
	  .msg = "m.yaml:1: document 1 (PriorityClass): metadata.name: required" },
	{ PC_HEAD "metadata: {namespace: x}\nvalue: 3\n",
	  .msg = "m.yaml:1: document 1 (PriorityClass): metadata.name: required" },
	{ PC_HEAD "metadata: {name: high}\nvalue: 2147483648\n",
	  .msg = "m.yaml:4: document 1 (PriorityClass high): value must be between -2147483648 "
	  "and 2147483647" },
	{ PC_HEAD "metadata: {name: high}\nvalue: \"3\"\n",
	  .msg = "m.yaml:4: document 1 (PriorityClass high): value must be an integer, not a "
	  "string" },
	{ PC_HEAD "metadata: {name: high}\nvalue: 3\nglobalDefault: yes please\n",
	  .msg = "m.yaml:5: document 1 (PriorityClass high): globalDefault must be true or "
	  "false, not a string" },
	{ PC_HEAD "metadata: {name: high}\nvalue: 3\npreemptionPolicy: Sometimes\n",
	  .msg = "m.yaml:5: document 1 (PriorityClass high): preemptionPolicy: unknown "
	  "preemption policy \"Sometimes\" (one of: PreemptLowerPriority, Never)" },
	{ PC_HEAD "metadata: {name: high}\nvalue: 3\npreemptionPolicy: [Never]\n",
	  .msg = "m.yaml:5: document 1 (PriorityClass high): preemptionPolicy must be a string, "
	  "not a list" },
	{ PC_HEAD "metadata: {name: high}\nvalue: 3\ncolour: red\n",
	  .msg = "m.yaml:5: document 1 (PriorityClass high): colour: unknown field (known: "
	  "apiVersion, kind, metadata, value, globalDefault, preemptionPolicy, description)" },
	{ PC_HEAD "metadata: [high]\nvalue: 3\n",
	  .msg = "m.yaml:3: document 1 (PriorityClass): metadata must be a mapping, not a list" },
	{ PC_HEAD "metadata: {name: high}\nvalue: 1.5\n",
	  .msg = "m.yaml:4: document 1 (PriorityClass high): value must be an integer, not a "
	  "number" },
	{ "apiVersion: scheduling.k8s.io/v1\nkind: Priority\nmetadata: {name: x}\n",
	  .msg = "m.yaml:1: document 1: kind Priority (scheduling.k8s.io/v1) is not one vsctl "
	  "apply takes: PriorityClass, Queue, Node, PodGroup, Job, Pod, HyperNode, List" },
	{ "apiVersion: scheduling.k8s.io/v2\nkind: PriorityClass\nmetadata: {name: x}\n",
	  .msg = "m.yaml:1: document 1: apiVersion scheduling.k8s.io/v2: vsctl apply takes "
	  "PriorityClass of scheduling.k8s.io/v1" },
	{ "kind: PriorityClass\nmetadata: {name: x}\n",
	  .msg = "m.yaml:1: document 1: apiVersion: required" },
	{ "apiVersion: 1\nkind: PriorityClass\n",
	  .msg = "m.yaml:1: document 1: apiVersion: must be a string" },
	{ "- a list\n",
	  .msg = "m.yaml:1: document 1: a manifest must be a mapping, not a list" },
	{ "---\n" PC_HEAD "metadata: {name: high}\nvalue: 3\nvalue: 4\n",
	  .msg = "m.yaml:6: duplicate key \"value\" (first on line 5)" },
};

Test(kread, priority_classes_read_as_the_old_reader_reads_them)
{
	for (u32 i = 0; i < ARRAY_SIZE(pc_cases); i++) {
		struct vsnl_prioclass_tb got;
		char line[1024];
		int ret = put_one(pc_cases[i].text, &got);

		if (pc_cases[i].msg) {
			cr_assert_neq(ret, 0, "text %u: read, the old reader refused it", i);
			cr_assert_str_eq(err.msg, pc_cases[i].msg, "text %u", i);
			continue;
		}
		cr_assert_eq(ret, 0, "text %u: %s", i, err.msg);
		pc_show(&got, line, sizeof(line));
		cr_assert_str_eq(line, pc_cases[i].req, "text %u", i);
	}
}

/* Every kind's DEL is its key alone, in its nest, as the daemon's policy reads a request. */
Test(kread, a_deletion_is_the_key_of_its_kind)
{
	for (u32 k = 0; k < KR_NR_KINDS; k++) {
		const struct kr_kind_info *info = kr_kind((enum kr_kind)k);
		const struct vsnl_codec_set *set = vsnl_codec_vsched.attrs[info->attr].nested;
		const struct nlattr *top[VS_A_MAX + 1], *tb[64];
		struct nlmsghdr *nlh = NULL;
		u32 n = 0;

		cr_assert_lt(set->maxattr, ARRAY_SIZE(tb));
		memset(&err, 0, sizeof(err));
		cr_assert_eq(kr_put_del((enum kr_kind)k, "ns", "x1", buf, sizeof(buf), &nlh, &err),
			     0, "%s: %s", info->kind, err.msg);
		cr_assert_eq(((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->cmd, info->cmd_del);
		cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top,
						  VSNL_CODEC_REQUEST, &err), 0, "%s", err.msg);
		cr_assert_not_null(top[info->attr], "%s", info->kind);
		cr_assert_eq(vsnl_codec_parse(set, top[info->attr], tb, VSNL_CODEC_REQUEST, &err),
			     0, "%s", err.msg);
		cr_assert_str_eq(mnl_attr_get_str(tb[info->a_name]), "x1");
		if (info->namespaced)
			cr_assert_str_eq(mnl_attr_get_str(tb[info->a_ns]), "ns");
		else
			cr_assert_eq(info->a_ns, 0, "%s: no namespace in its key", info->kind);
		for (u32 a = 0; a <= set->maxattr; a++)
			n += tb[a] != NULL;
		cr_assert_eq(n, info->namespaced ? 2 : 1, "%s: its key alone", info->kind);
	}
}

Test(kread, a_deletion_the_policy_refuses_is_not_put)
{
	struct nlmsghdr *nlh = NULL;
	char name[400];

	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	cr_assert_eq(kr_put_del(KR_NODE, NULL, name, buf, sizeof(buf), &nlh, &err), -EINVAL);
	cr_assert_null(nlh);
	cr_assert_neq(err.msg[0], '\0');
	cr_assert_eq(kr_put_del(KR_POD, "ns", "p", buf, GENL_HDRLEN + 16, &nlh, &err), -EMSGSIZE);
	cr_assert_null(nlh);
}
