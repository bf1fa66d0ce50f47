// SPDX-License-Identifier: Apache-2.0
/*
 * HyperNode manifests (topology.volcano.sh/v1alpha1) read by the manifest
 * reader without the core (kube/kread_hypernode.c): the request checked by
 * the codec as the daemon checks one, read back attribute by attribute,
 * and the reader's own refusals, by file, line, document and field.
 */
#include <errno.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <criterion/criterion.h>

#include "kube/kread.h"
#include "lib/codec.h"
#include "lib/codec_gen.h"
#include "vsched/vsched.h"

static struct vsnl_ydocs ydocs;
static struct kr_docs docs;
static struct vsnl_err err;
static char buf[8192];
static const struct nlattr *hn_nest;	/* the last request's HyperNode */

static void fini(void)
{
	kr_docs_free(&docs);
	vsnl_ydocs_free(&ydocs);
}

TestSuite(kread_hypernode, .fini = fini);

#define HEAD	"apiVersion: topology.volcano.sh/v1alpha1\nkind: HyperNode\nmetadata: {name: leaf-a}\n"

/* kread's request for the one document of @text: 0 and its HyperNode, or the error in err. */
static int put(const char *text, struct vsnl_hypernode_tb *hn)
{
	const struct nlattr *top[VS_A_MAX + 1];
	struct nlmsghdr *nlh = NULL;
	int ret;

	fini();
	memset(&err, 0, sizeof(err));
	ret = vsnl_yaml_parse_docs(text, strlen(text), "m.yaml", &ydocs, &err) ?:
	      kr_docs_read("m.yaml", &ydocs, &docs, &err);
	if (ret)
		return ret;
	cr_assert_eq(docs.nr, 1);
	cr_assert_eq(docs.v[0].kind, KR_HYPERNODE);
	ret = kr_put_new(&docs.v[0], buf, sizeof(buf), &nlh, &err);
	if (ret)
		return ret;
	cr_assert_eq(((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->cmd,
		     VS_CMD_HYPERNODE_NEW);
	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top,
					  VSNL_CODEC_REQUEST, &err), 0, "%s", err.msg);
	cr_assert_not_null(top[VS_A_HYPERNODE]);
	hn_nest = top[VS_A_HYPERNODE];
	cr_assert_eq(vsnl_hypernode_parse(top[VS_A_HYPERNODE], hn, VSNL_CODEC_REQUEST, &err), 0,
		     "%s", err.msg);
	return 0;
}

/* The members of the HyperNode @nest as "Type:selector" words, in order. */
static void members(const struct nlattr *nest, char *out, size_t size)
{
	const struct nlattr *a;
	size_t len = 0;

	out[0] = '\0';
	mnl_attr_for_each_nested(a, nest) {
		struct vsnl_hn_member_tb m;
		const struct nlattr *l, *item;
		u32 type = 9;

		if (mnl_attr_get_type(a) != VS_HN_A_MEMBER)
			continue;
		cr_assert_eq(vsnl_hn_member_parse(a, &m, VSNL_CODEC_REQUEST, &err), 0, "%s",
			     err.msg);
		cr_assert(vsnl_hn_member_get_type(&m, &type));
		len += (size_t)snprintf(out + len, size - len, "%s%s:", len ? " " : "",
					vsnl_hn_member_type_names[type]);
		if (vsnl_hn_member_get_exact_name(&m))
			len += (size_t)snprintf(out + len, size - len, "exact=%s",
						vsnl_hn_member_get_exact_name(&m));
		if (vsnl_hn_member_get_regex_pattern(&m))
			len += (size_t)snprintf(out + len, size - len, "regex=%s",
						vsnl_hn_member_get_regex_pattern(&m));
		l = vsnl_hn_member_get_match_labels(&m);
		if (l) {
			len += (size_t)snprintf(out + len, size - len, "labels=");
			mnl_attr_for_each_nested(item, l) {
				struct vsnl_kv_tb kv;

				cr_assert_eq(vsnl_kv_parse(item, &kv, VSNL_CODEC_REQUEST, &err), 0);
				len += (size_t)snprintf(out + len, size - len, "%s=%s,",
							vsnl_kv_get_key(&kv),
							vsnl_kv_get_value(&kv));
			}
		}
	}
}

Test(kread_hypernode, every_field_is_put)
{
	static const char text[] = HEAD
		"spec:\n"
		"  tier: 2\n"
		"  tierName: spine\n"
		"  members:\n"
		"  - type: Node\n"
		"    selector: {exactMatch: {name: n1}}\n"
		"  - type: Node\n"
		"    selector: {regexMatch: {pattern: '^gpu-[0-9]+$'}}\n"
		"  - type: HyperNode\n"
		"    selector: {labelMatch: {matchLabels: {rack: r1, zone: a}, matchExpressions: []}}\n"
		"status: {nodeCount: 3}\n";
	struct vsnl_hypernode_tb hn;
	char words[512];
	u32 tier = 0;

	cr_assert_eq(put(text, &hn), 0, "%s", err.msg);
	cr_assert_str_eq(vsnl_hypernode_get_name(&hn), "leaf-a");
	cr_assert(vsnl_hypernode_get_tier(&hn, &tier));
	cr_assert_eq(tier, 2);
	cr_assert_str_eq(vsnl_hypernode_get_tier_name(&hn), "spine");
	members(hn_nest, words, sizeof(words));
	cr_assert_str_eq(words, "Node:exact=n1 Node:regex=^gpu-[0-9]+$ "
			 "HyperNode:labels=rack=r1,zone=a,");
}

/* What the reader does not check is the daemon's: a HyperNode without tier or members is sent. */
Test(kread_hypernode, what_the_daemon_checks_is_sent_as_written)
{
	struct vsnl_hypernode_tb hn;
	u32 tier = 0;

	cr_assert_eq(put(HEAD "spec: {}\n", &hn), 0, "%s", err.msg);
	cr_assert_not(vsnl_hypernode_get_tier(&hn, &tier));
	cr_assert_null(vsnl_hypernode_get_tier_name(&hn));
	cr_assert_eq(put(HEAD "spec:\n  tier: 1\n  members:\n  - type: Node\n"
			 "    selector: {exactMatch: {name: n1}, regexMatch: {pattern: x}}\n",
			 &hn), 0, "%s", err.msg);
}

Test(kread_hypernode, refusals_name_the_field)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ HEAD "spec:\n  tier: -1\n",
		  "m.yaml:5: document 1 (HyperNode leaf-a): spec.tier must be between 0 and "
		  "2147483647" },
		{ HEAD "spec:\n  tier: one\n",
		  "m.yaml:5: document 1 (HyperNode leaf-a): spec.tier must be an integer, not a "
		  "string" },
		{ HEAD "spec:\n  members:\n  - type: Switch\n",
		  "m.yaml:6: document 1 (HyperNode leaf-a): spec.members[0].type: unknown member "
		  "type \"Switch\" (one of: Node, HyperNode)" },
		{ HEAD "spec:\n  members:\n  - type: Node\n    selector: {exactMatch: {nmae: n}}\n",
		  "m.yaml:7: document 1 (HyperNode leaf-a): spec.members[0].selector.exactMatch."
		  "nmae: unknown field (known: name)" },
		{ HEAD "spec:\n  members:\n  - type: Node\n    selctor: {}\n",
		  "m.yaml:7: document 1 (HyperNode leaf-a): spec.members[0].selctor: unknown "
		  "field (known: type, selector)" },
		{ HEAD "spec:\n  members:\n  - type: Node\n    selector:\n      labelMatch:\n"
		  "        matchExpressions: [{key: a, operator: Exists}]\n",
		  "m.yaml:9: document 1 (HyperNode leaf-a): spec.members[0].selector.labelMatch."
		  "matchExpressions: not supported: select the members by matchLabels, a name or "
		  "a pattern" },
		{ HEAD "spec:\n  members:\n  - type: Node\n    selector:\n      labelMatch:\n"
		  "        matchLabels: {rack: 1}\n",
		  "m.yaml:9: document 1 (HyperNode leaf-a): spec.members[0].selector.labelMatch."
		  "matchLabels.rack must be a string, not an integer" },
		{ HEAD "spec:\n  members: {type: Node}\n",
		  "m.yaml:5: document 1 (HyperNode leaf-a): spec.members must be a list, not a "
		  "mapping" },
		{ "apiVersion: topology.volcano.sh/v1alpha1\nkind: HyperNode\nmetadata: {}\n",
		  "m.yaml:1: document 1 (HyperNode): metadata.name: required" },
	};
	struct vsnl_hypernode_tb hn;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		cr_assert_eq(put(cases[i].text, &hn), -EINVAL, "case %zu", i);
		cr_assert_str_eq(err.msg, cases[i].msg, "case %zu", i);
	}
}

/* metadata.labels go with the HyperNode: label discovery tells its own by them. */
Test(kread_hypernode, labels_are_put)
{
	static const char text[] =
		"apiVersion: topology.volcano.sh/v1alpha1\nkind: HyperNode\n"
		"metadata:\n"
		"  name: leaf-a\n"
		"  labels: {volcano.sh/network-topology-source: label, rack: r1}\n"
		"spec:\n"
		"  tier: 1\n"
		"  members:\n"
		"  - {type: Node, selector: {exactMatch: {name: n1}}}\n";
	struct vsnl_hypernode_tb hn;
	const struct nlattr *l, *item;
	char words[256];
	size_t len = 0;

	cr_assert_eq(put(text, &hn), 0, "%s", err.msg);
	l = vsnl_hypernode_get_labels(&hn);
	cr_assert_not_null(l);
	words[0] = '\0';
	mnl_attr_for_each_nested(item, l) {
		struct vsnl_kv_tb kv;

		cr_assert_eq(vsnl_kv_parse(item, &kv, VSNL_CODEC_REQUEST, &err), 0);
		len += (size_t)snprintf(words + len, sizeof(words) - len, "%s=%s,",
					vsnl_kv_get_key(&kv), vsnl_kv_get_value(&kv));
	}
	cr_expect_str_eq(words, "volcano.sh/network-topology-source=label,rack=r1,");
}
