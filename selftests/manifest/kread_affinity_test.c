// SPDX-License-Identifier: Apache-2.0
/*
 * A pod spec's affinity read without the core (userspace/kube/kread_affinity.c):
 * the affinity nest put by kr_put_affinity(), checked by the codec as the
 * daemon checks it and rendered back, against what the old reader
 * (manifest.c, kf_affinity()) sent for the same Pod, kept in the tables as
 * rendered here, and every refusal in the old reader's words.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <criterion/criterion.h>

#include "vsched/vsched.h"
#include "kube/kread.h"
#include "lib/codec.h"
#include "lib/codec_gen.h"
#include "lib/file.h"

static struct vsnl_ydocs ydocs;
static struct kr_docs docs;
static struct vsnl_err err;
static char buf[16384];
static char shown[4096];
static size_t put_cap = sizeof(buf);

static void fini(void)
{
	put_cap = sizeof(buf);
	kr_docs_free(&docs);
	vsnl_ydocs_free(&ydocs);
}

TestSuite(kread_affinity, .fini = fini);

/* ---- the nest, rendered in a fixed order of attributes ---- */

/* What an attribute holds: a string, an s32 (or u32), or a nest of @parts. */
struct part {
	u16 type;
	const char *name;
	const struct part *parts;	/* NULL: a scalar */
	bool str;
};

#define STR(t, n)	{ .type = t, .name = n, .str = true }
#define NUM(t, n)	{ .type = t, .name = n }
#define NEST(t, n, p)	{ .type = t, .name = n, .parts = p }
#define END		{ .name = NULL }

static const struct part selreq_parts[] = {
	STR(VS_SELREQ_A_KEY, "key"),
	NUM(VS_SELREQ_A_OP, "op"),
	STR(VS_SELREQ_A_VALUE, "value"),
	END
};
static const struct part nsterm_parts[] = {
	NEST(VS_NSTERM_A_EXPR, "expr", selreq_parts),
	NEST(VS_NSTERM_A_FIELD, "field", selreq_parts),
	NUM(VS_NSTERM_A_WEIGHT, "weight"),
	END
};
static const struct part kv_parts[] = {
	STR(VS_KV_A_KEY, "k"),
	STR(VS_KV_A_VALUE, "v"),
	END
};
static const struct part labels_parts[] = {
	NEST(VS_LABELS_A_ITEM, "", kv_parts),
	END
};
static const struct part lsel_parts[] = {
	NEST(VS_LSEL_A_MATCH_LABELS, "labels", labels_parts),
	NEST(VS_LSEL_A_EXPR, "expr", selreq_parts),
	END
};
static const struct part podterm_parts[] = {
	NEST(VS_PODTERM_A_SELECTOR, "selector", lsel_parts),
	STR(VS_PODTERM_A_NAMESPACE, "ns"),
	NEST(VS_PODTERM_A_NS_SELECTOR, "nsSelector", lsel_parts),
	STR(VS_PODTERM_A_TOPOLOGY_KEY, "topologyKey"),
	NUM(VS_PODTERM_A_WEIGHT, "weight"),
	END
};
static const struct part aff_parts[] = {
	NEST(VS_AFF_A_NODE_REQUIRED, "nodeRequired", nsterm_parts),
	NEST(VS_AFF_A_NODE_PREFERRED, "nodePreferred", nsterm_parts),
	NEST(VS_AFF_A_POD_REQUIRED, "podRequired", podterm_parts),
	NEST(VS_AFF_A_POD_PREFERRED, "podPreferred", podterm_parts),
	NEST(VS_AFF_A_ANTI_REQUIRED, "antiRequired", podterm_parts),
	NEST(VS_AFF_A_ANTI_PREFERRED, "antiPreferred", podterm_parts),
	END
};

__printf(1, 2)
static void show(const char *fmt, ...)
{
	size_t len = strlen(shown);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(shown + len, sizeof(shown) - len, fmt, ap);
	va_end(ap);
}

/* @nest into shown[], "{name=value name{...}}", each part's attributes in @parts' order. */
static void render(const struct nlattr *nest, const struct part *parts)
{
	const struct nlattr *a;
	bool first = true;

	show("{");
	for (const struct part *p = parts; p->name; p++) {
		mnl_attr_for_each_nested(a, nest) {
			if (mnl_attr_get_type(a) != p->type)
				continue;
			show("%s%s", first ? "" : " ", p->name);
			first = false;
			if (p->parts)
				render(a, p->parts);
			else if (p->str)
				show("=%s", mnl_attr_get_str(a));
			else
				show("=%d", (s32)mnl_attr_get_u32(a));
		}
	}
	show("}");
}

/* The affinity nest @aff, checked by the codec as the daemon checks it, into shown[]. */
static int check_and_render(const struct nlattr *aff)
{
	struct vsnl_affinity_tb tb;
	int ret;

	shown[0] = '\0';
	memset(&err, 0, sizeof(err));
	ret = vsnl_affinity_parse(aff, &tb, VSNL_CODEC_REQUEST, &err);
	if (!ret)
		render(aff, aff_parts);
	return ret;
}

/* ---- the new reader ---- */

/* The documents of @text, as the file "m.yaml". */
static void read_docs(const char *text)
{
	kr_docs_free(&docs);
	vsnl_ydocs_free(&ydocs);
	memset(&err, 0, sizeof(err));
	cr_assert_eq(vsnl_yaml_parse_docs(text, strlen(text), "m.yaml", &ydocs, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(kr_docs_read("m.yaml", &ydocs, &docs, &err), 0, "%s", err.msg);
}

/*
 * The Pod @doc's spec.affinity by kr_put_affinity() into a task nest of
 * put_cap bytes: 0 and the nest rendered in shown[] (empty when none was
 * put), 1 when the codec refuses it as the daemon would (err says why), or
 * the reader's refusal (err).
 */
static int put_doc_aff(const struct kr_doc *doc)
{
	const struct vsnl_ynode *spec;
	struct kr kr = { .doc = doc, .err = &err, .cap = put_cap };
	const struct vsnl_ypair *kv = NULL;
	struct nlattr *task, *aff;
	size_t old;
	int ret;

	memset(&err, 0, sizeof(err));
	shown[0] = '\0';
	spec = vsnl_ymap_get(doc->root, "spec");
	cr_assert_not_null(spec);
	for (u32 i = 0; i < spec->map.nr; i++)
		if (!strcmp(spec->map.pairs[i].key, "affinity"))
			kv = &spec->map.pairs[i];
	kr.nlh = vsnl_msg_put(buf, put_cap, VS_CMD_TASK_NEW, 0);
	task = vsnl_vsched_start_task(kr.nlh, kr.cap, &err);
	cr_assert_not_null(task);
	aff = mnl_nlmsg_get_payload_tail(kr.nlh);
	old = kr_push(&kr, "spec");
	ret = kr_put_affinity(&kr, &vsnl_codec_task, VS_TASK_A_AFFINITY, kv);
	kr_pop(&kr, old);
	cr_assert_eq(kr.path_len, 0);
	if (ret)
		return ret;
	mnl_attr_nest_end(kr.nlh, task);
	if ((void *)aff == mnl_nlmsg_get_payload_tail(kr.nlh))
		return 0;		/* nothing put */
	cr_assert_eq(mnl_attr_get_type(aff), VS_TASK_A_AFFINITY);
	return check_and_render(aff) ? 1 : 0;
}

/* put_doc_aff() of the one document of @text. */
static int put_aff(const char *text)
{
	read_docs(text);
	cr_assert_eq(docs.nr, 1);
	return put_doc_aff(&docs.v[0]);
}

/* ---- the cases ---- */

#define POD	"apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\n" \
		"spec:\n  containers: [{name: c}]\n"
#define AFF(x)	POD "  affinity: " x "\n"
#define REQ	"requiredDuringSchedulingIgnoredDuringExecution"
#define PREF	"preferredDuringSchedulingIgnoredDuringExecution"
#define NODE_REQ(terms)	AFF("{nodeAffinity: {" REQ ": {nodeSelectorTerms: " terms "}}}")
#define EXPRS(e)	NODE_REQ("[{matchExpressions: [" e "]}]")
#define POD_REQ(t)	AFF("{podAffinity: {" REQ ": [" t "]}}")
#define AT6		"m.yaml:6: document 1 (Pod ns/p): spec.affinity"
#define NODE_TERM0	AT6 ".nodeAffinity." REQ ".nodeSelectorTerms[0]"
#define POD_TERM0	AT6 ".podAffinity." REQ "[0]"

Test(kread_affinity, every_part_is_put_as_the_protocol_nests_it)
{
	cr_assert_eq(put_aff(AFF("{nodeAffinity: {" REQ ": {nodeSelectorTerms: ["
				 "{matchExpressions: [{key: zone, operator: In, values: [a, b]}], "
				 "matchFields: [{key: metadata.name, operator: NotIn, values: [n1]}]}, "
				 "{matchExpressions: [{key: gpu, operator: Exists}]}]}, "
				 PREF ": [{weight: 5, preference: {matchExpressions: "
				 "[{key: disk, operator: Gt, values: [\"3\"]}]}}]}, "
				 "podAffinity: {" REQ ": [{labelSelector: {matchLabels: {app: web}, "
				 "matchExpressions: [{key: tier, operator: DoesNotExist}]}, "
				 "namespaces: [a, b], topologyKey: zone}], "
				 PREF ": [{weight: 100, podAffinityTerm: {labelSelector: {}, "
				 "namespaceSelector: {}, topologyKey: kubernetes.io/hostname}}]}, "
				 "podAntiAffinity: {" PREF ": [{weight: 1, podAffinityTerm: "
				 "{labelSelector: {matchExpressions: [{key: a, operator: Lt, "
				 "values: [\"7\"]}]}, topologyKey: zone}}], "
				 REQ ": [{labelSelector: {matchLabels: {app: db}}, topologyKey: h}]}}")),
		     0, "%s", err.msg);
	cr_assert_str_eq(shown,
		"{nodeRequired{expr{key=zone op=0 value=a value=b} "
		"field{key=metadata.name op=1 value=n1}} "
		"nodeRequired{expr{key=gpu op=2}} "
		"nodePreferred{expr{key=disk op=4 value=3} weight=5} "
		"podRequired{selector{labels{{k=app v=web}} expr{key=tier op=3}} ns=a ns=b "
		"topologyKey=zone} "
		"podPreferred{selector{} nsSelector{} topologyKey=kubernetes.io/hostname weight=100} "
		"antiRequired{selector{labels{{k=app v=db}}} topologyKey=h} "
		"antiPreferred{selector{expr{key=a op=5 value=7}} topologyKey=zone weight=1}}");
}

Test(kread_affinity, empty_parts_and_nulls_put_nothing_of_their_own)
{
	cr_assert_eq(put_aff(AFF("{nodeAffinity: null, podAffinity: {" REQ ": null}, "
				 "podAntiAffinity: {}}")), 0, "%s", err.msg);
	cr_assert_str_eq(shown, "");
	cr_assert_eq(put_aff(AFF("{}")), 0, "%s", err.msg);
	cr_assert_str_eq(shown, "");
	cr_assert_eq(put_aff(AFF("~")), 0, "%s", err.msg);
	cr_assert_str_eq(shown, "");
	cr_assert_eq(put_aff(POD), 0, "%s", err.msg);
	cr_assert_str_eq(shown, "");
	/* an empty operator is In, as the old reader took it */
	cr_assert_eq(put_aff(EXPRS("{key: zone, operator: \"\", values: [a]}")), 0, "%s",
		     err.msg);
	cr_assert_str_eq(shown, "{nodeRequired{expr{key=zone op=0 value=a}}}");
}

/* Read alike by both readers: the same nest, the old reader's kept. */
static const struct {
	const char *text;
	const char *shown;	/* the old reader's nest, rendered */
} same_cases[] = {
	{ AFF("{}"),
	  .shown = "" },
	{ AFF("{nodeAffinity: null, podAffinity: {" REQ ": null}, podAntiAffinity: {}}"),
	  .shown = "" },
	{ AFF("{nodeAffinity: {}, podAffinity: {" PREF ": []}}"),
	  .shown = "" },
	{ AFF("~"),
	  .shown = "" },
	{ POD,
	  .shown = "" },
	{ NODE_REQ("[{matchExpressions: [{key: zone, operator: In, values: [a, b]}], "
		   "matchFields: [{key: metadata.name, operator: NotIn, values: [n1]}]}, "
		   "{matchExpressions: [{key: gpu, operator: Exists}]}]"),
	  .shown = "{nodeRequired{expr{key=zone op=0 value=a value=b} field{key=metadata.name "
	  "op=1 value=n1}} nodeRequired{expr{key=gpu op=2}}}" },
	{ NODE_REQ("[{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}, {}]"),
	  .shown = "{nodeRequired{field{key=metadata.name op=0 value=n1}} nodeRequired{}}" },
	{ EXPRS("{key: zone, operator: \"\", values: [a]}"),
	  .shown = "{nodeRequired{expr{key=zone op=0 value=a}}}" },
	{ EXPRS("{key: zone, operator: DoesNotExist, values: null}"),
	  .shown = "{nodeRequired{expr{key=zone op=3}}}" },
	{ AFF("{nodeAffinity: {" PREF ": [{weight: 5, preference: {matchExpressions: "
	      "[{key: disk, operator: Gt, values: [\"3\"]}]}}, {weight: 7, preference: "
	      "{matchFields: [{key: metadata.name, operator: In, values: [x]}]}}], "
	      REQ ": {nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Lt, "
	      "values: [\"9\"]}]}]}}}"),
	  .shown = "{nodeRequired{expr{key=a op=5 value=9}} nodePreferred{expr{key=disk op=4 "
	  "value=3} weight=5} nodePreferred{field{key=metadata.name op=0 value=x} weight=7}}" },
	{ AFF("{podAntiAffinity: {" PREF ": [{weight: 100, podAffinityTerm: {labelSelector: {}, "
	      "namespaceSelector: {}, topologyKey: kubernetes.io/hostname}}]}, "
	      "podAffinity: {" REQ ": [{labelSelector: {matchLabels: {app: web, "
	      "app.kubernetes.io/name: x}, matchExpressions: [{key: tier, operator: NotIn, "
	      "values: [a]}]}, namespaces: [a, b], topologyKey: zone}, {topologyKey: zone}]}}"),
	  .shown = "{podRequired{selector{labels{{k=app v=web} {k=app.kubernetes.io/name "
	  "v=x}} expr{key=tier op=1 value=a}} ns=a ns=b topologyKey=zone} "
	  "podRequired{topologyKey=zone} antiPreferred{selector{} nsSelector{} "
	  "topologyKey=kubernetes.io/hostname weight=100}}" },
	{ AFF("{podAffinity: {" REQ ": [{labelSelector: {matchLabels: {}}, namespaces: [], "
	      "topologyKey: zone}], " PREF ": []}, nodeAffinity: {" PREF ": []}}"),
	  .shown = "{podRequired{selector{} topologyKey=zone}}" },
	{ POD "  affinity:\n    podAntiAffinity:\n      " REQ ":\n      - labelSelector:\n"
	  "          matchLabels: {app: db}\n        topologyKey: h\n",
	  .shown = "{antiRequired{selector{labels{{k=app v=db}}} topologyKey=h}}" },
};

Test(kread_affinity, affinities_are_what_the_old_reader_sends)
{
	for (u32 i = 0; i < ARRAY_SIZE(same_cases); i++) {
		cr_assert_eq(put_aff(same_cases[i].text), 0, "text %u: %s", i, err.msg);
		cr_assert_str_eq(shown, same_cases[i].shown, "text %u: %s, old %s", i, shown,
				 same_cases[i].shown);
	}
}

/* Refused by the reader, in the old reader's words. */
static const struct {
	const char *text, *msg;
} refused[] = {
	{ AFF("[x]"), AT6 " must be a mapping, not a list" },
	{ AFF("{nodeAfinity: {}}"),
	  AT6 ".nodeAfinity: unknown field (known: nodeAffinity, podAffinity, podAntiAffinity)" },
	{ AFF("{nodeAffinity: {required: {}}}"),
	  AT6 ".nodeAffinity.required: unknown field (known: " REQ ", " PREF ")" },
	{ AFF("{nodeAffinity: {" REQ ": [a]}}"),
	  AT6 ".nodeAffinity." REQ " must be a mapping, not a list" },
	{ AFF("{nodeAffinity: {" REQ ": {terms: []}}}"),
	  AT6 ".nodeAffinity." REQ ".terms: unknown field (known: nodeSelectorTerms)" },
	{ NODE_REQ("{}"),
	  AT6 ".nodeAffinity." REQ ".nodeSelectorTerms must be a list, not a mapping" },
	{ NODE_REQ("[x]"), NODE_TERM0 " must be a mapping, not a string" },
	{ NODE_REQ("[{matchExpression: []}]"),
	  NODE_TERM0 ".matchExpression: unknown field (known: matchExpressions, matchFields)" },
	{ NODE_REQ("[{matchFields: {}}]"), NODE_TERM0 ".matchFields must be a list, not a mapping" },
	{ NODE_REQ("[{matchFields: [[]]}]"),
	  NODE_TERM0 ".matchFields[0] must be a mapping, not a list" },
	{ EXPRS("{operator: In, values: [a]}"), NODE_TERM0 ".matchExpressions[0].key: required" },
	{ EXPRS("{key: ~, operator: In}"), NODE_TERM0 ".matchExpressions[0].key: required" },
	{ EXPRS("{key: a, values: [a]}"), NODE_TERM0 ".matchExpressions[0].operator: required" },
	{ EXPRS("{key: a, operator: Near}"),
	  NODE_TERM0 ".matchExpressions[0].operator: unknown operator \"Near\" "
	  "(In, NotIn, Exists, DoesNotExist, Gt or Lt)" },
	{ EXPRS("{key: a, operator: in}"),
	  NODE_TERM0 ".matchExpressions[0].operator: unknown operator \"in\" "
	  "(In, NotIn, Exists, DoesNotExist, Gt or Lt)" },
	{ EXPRS("{key: a, operator: 3}"),
	  NODE_TERM0 ".matchExpressions[0].operator must be a string, not an integer" },
	{ EXPRS("{key: [a], operator: In}"),
	  NODE_TERM0 ".matchExpressions[0].key must be a string, not a list" },
	{ EXPRS("{key: a, operator: In, values: a}"),
	  NODE_TERM0 ".matchExpressions[0].values must be a list of strings, not a string" },
	{ EXPRS("{key: a, operator: In, values: [a, 2]}"),
	  NODE_TERM0 ".matchExpressions[0].values[1] must be a string, not an integer" },
	{ EXPRS("{key: a, operator: In, value: [b]}"),
	  NODE_TERM0 ".matchExpressions[0].value: unknown field (known: key, operator, values)" },
	{ EXPRS("{key: a, operator: In}, {key: b, operator: Exists, values: [true]}"),
	  NODE_TERM0 ".matchExpressions[1].values[0] must be a string, not a boolean" },
	{ AFF("{nodeAffinity: {" PREF ": {}}}"),
	  AT6 ".nodeAffinity." PREF " must be a list, not a mapping" },
	{ AFF("{nodeAffinity: {" PREF ": [{weight: heavy, preference: {}}]}}"),
	  AT6 ".nodeAffinity." PREF "[0].weight must be an integer, not a string" },
	{ AFF("{nodeAffinity: {" PREF ": [{weight: 4294967296, preference: {}}]}}"),
	  AT6 ".nodeAffinity." PREF "[0].weight must be between -2147483648 and 2147483647" },
	{ AFF("{nodeAffinity: {" PREF ": [{weight: 1, pref: {}}]}}"),
	  AT6 ".nodeAffinity." PREF "[0].pref: unknown field (known: weight, preference)" },
	{ AFF("{nodeAffinity: {" PREF ": [{weight: 1, preference: []}]}}"),
	  AT6 ".nodeAffinity." PREF "[0].preference must be a mapping, not a list" },
	{ AFF("{nodeAffinity: {" PREF ": [{weight: 1, preference: {matchFields: "
	      "[{key: metadata.name}]}}]}}"),
	  AT6 ".nodeAffinity." PREF "[0].preference.matchFields[0].operator: required" },
	{ AFF("{podAffinity: {" REQ ": {}}}"),
	  AT6 ".podAffinity." REQ " must be a list, not a mapping" },
	{ POD_REQ("{topologyKey: 3}"), POD_TERM0 ".topologyKey must be a string, not an integer" },
	{ POD_REQ("{topologyKey: z, namespaces: ns}"),
	  POD_TERM0 ".namespaces must be a list of strings, not a string" },
	{ POD_REQ("{namespaces: [a, {b: c}], topologyKey: z}"),
	  POD_TERM0 ".namespaces[1] must be a string, not a mapping" },
	{ POD_REQ("{labelSelector: [], topologyKey: z}"),
	  POD_TERM0 ".labelSelector must be a mapping, not a list" },
	{ POD_REQ("{labelSelector: {matchLabels: {app: 3}}, topologyKey: z}"),
	  POD_TERM0 ".labelSelector.matchLabels.app must be a string, not an integer" },
	{ POD_REQ("{labelSelector: {matchLabels: {app.kubernetes.io/name: 3}}}"),
	  POD_TERM0 ".labelSelector.matchLabels[app.kubernetes.io/name] must be a string, "
	  "not an integer" },
	{ POD_REQ("{labelSelector: {matchLabels: [a]}, topologyKey: z}"),
	  POD_TERM0 ".labelSelector.matchLabels must be a mapping of strings, not a list" },
	{ POD_REQ("{labelSelector: {matchExpression: []}, topologyKey: z}"),
	  POD_TERM0 ".labelSelector.matchExpression: unknown field (known: matchLabels, "
	  "matchExpressions)" },
	{ POD_REQ("{labelSelector: {matchExpressions: [{key: a}]}, topologyKey: z}"),
	  POD_TERM0 ".labelSelector.matchExpressions[0].operator: required" },
	{ POD_REQ("{namespaceSelector: {matchExpressions: [{key: a, operator: Gte}]}}"),
	  POD_TERM0 ".namespaceSelector.matchExpressions[0].operator: unknown operator \"Gte\" "
	  "(In, NotIn, Exists, DoesNotExist, Gt or Lt)" },
	{ POD_REQ("{topologyKey: z, weight: 3}"),
	  POD_TERM0 ".weight: unknown field (known: labelSelector, namespaces, namespaceSelector, "
	  "topologyKey)" },
	{ AFF("{podAntiAffinity: {" PREF ": [{weight: 1, term: {}}]}}"),
	  AT6 ".podAntiAffinity." PREF "[0].term: unknown field (known: weight, podAffinityTerm)" },
	{ AFF("{podAntiAffinity: {" PREF ": [{weight: 1, podAffinityTerm: {topologyKey: z, "
	      "namespaceSelector: {matchLabels: {a: 1}}}}]}}"),
	  AT6 ".podAntiAffinity." PREF "[0].podAffinityTerm.namespaceSelector.matchLabels.a "
	  "must be a string, not an integer" },
	{ AFF("{podAntiAffinity: {" PREF ": [x]}}"),
	  AT6 ".podAntiAffinity." PREF "[0] must be a mapping, not a string" },
	{ AFF("{podAntiAffinity: []}"), AT6 ".podAntiAffinity must be a mapping, not a list" },
	/* the parts in the old reader's order: node, pod, anti, whatever the file's */
	{ AFF("{podAntiAffinity: [], podAffinity: 3, nodeAffinity: {x: 1}}"),
	  AT6 ".nodeAffinity.x: unknown field (known: " REQ ", " PREF ")" },
	{ AFF("{podAntiAffinity: [], podAffinity: 3}"),
	  AT6 ".podAffinity must be a mapping, not an integer" },
	/* lines */
	{ POD "  affinity:\n    nodeAffinity:\n      " REQ ":\n        nodeSelectorTerms:\n"
	  "        - matchExpressions:\n          - {key: a, operator: Near}\n",
	  "m.yaml:11: document 1 (Pod ns/p): spec.affinity.nodeAffinity." REQ
	  ".nodeSelectorTerms[0].matchExpressions[0].operator: unknown operator \"Near\" "
	  "(In, NotIn, Exists, DoesNotExist, Gt or Lt)" },
	{ POD "  affinity:\n    podAffinity:\n      " REQ ":\n      - topologyKey: z\n"
	  "        labelSelector:\n          matchExpressions:\n          - key: a\n"
	  "            values: [b]\n",
	  "m.yaml:12: document 1 (Pod ns/p): spec.affinity.podAffinity." REQ
	  "[0].labelSelector.matchExpressions[0].operator: required" },
};

Test(kread_affinity, refusals_are_the_old_readers)
{
	for (u32 i = 0; i < ARRAY_SIZE(refused); i++) {
		cr_assert_eq(put_aff(refused[i].text), -EINVAL, "text %u", i);
		cr_assert_str_eq(err.msg, refused[i].msg, "text %u", i);
	}
}

/*
 * What the old reader's core refused and the daemon's checks now: the
 * reader sends it (0), or the codec refuses it as the daemon would (1),
 * or the codec's policy refuses the value as it is put (-EINVAL, the
 * field named).
 */
static const struct {
	const char *text;
	int ret;
	const char *msg;	/* the new reader's, or the codec's check's */
	const char *old;	/* the old reader's refusal, for the record */
} daemons[] = {
	{ AFF("{nodeAffinity: {" PREF ": [{preference: {}}]}}"), 1,
	  "nodePreferred[0].weight: required but missing",
	  .old = "m.yaml:1: document 1 (Pod ns/p): pod ns/p: "
	  "affinity.nodeAffinity.preferred[0].weight: 0 is not in the range 1-100" },
	{ AFF("{nodeAffinity: {" PREF ": [{weight: 0, preference: {}}]}}"), -EINVAL,
	  AT6 ".nodeAffinity." PREF "[0].weight: nsterm.weight: 0 out of 1..100",
	  .old = "m.yaml:1: document 1 (Pod ns/p): pod ns/p: "
	  "affinity.nodeAffinity.preferred[0].weight: 0 is not in the range 1-100" },
	{ AFF("{podAntiAffinity: {" PREF ": [{weight: 101, podAffinityTerm: {topologyKey: z}}]}}"),
	  -EINVAL, AT6 ".podAntiAffinity." PREF "[0].weight: podterm.weight: 101 out of 1..100",
	  .old = "m.yaml:1: document 1 (Pod ns/p): pod ns/p: "
	  "affinity.podAntiAffinity.preferred[0].weight: 101 is not in the range 1-100" },
	{ AFF("{podAffinity: {" PREF ": [{weight: 3}]}}"), 1,
	  "podPreferred[0].topologyKey: required but missing",
	  .old = "m.yaml:1: document 1 (Pod ns/p): pod ns/p: "
	  "affinity.podAffinity.preferred[0].podAffinityTerm: topologyKey is required" },
	{ POD_REQ("{labelSelector: {}}"), 1, "podRequired[0].topologyKey: required but missing",
	  .old = "m.yaml:1: document 1 (Pod ns/p): pod ns/p: "
	  "affinity.podAffinity.required[0]: topologyKey is required" },
	{ POD_REQ("{topologyKey: \"\"}"), 0, "",
	  .old = "m.yaml:1: document 1 (Pod ns/p): pod ns/p: "
	  "affinity.podAffinity.required[0]: topologyKey is required" },
	{ POD_REQ("{namespaceSelector: {matchLabels: {team: a}}, topologyKey: z}"), 0, "",
	  .old = "m.yaml:1: document 1 (Pod ns/p): pod ns/p: "
	  "affinity.podAffinity.required[0].namespaceSelector: only the empty selector (every "
	  "namespace) is supported: vsched has no namespace objects to match labels against" },
	{ POD_REQ("{namespaces: [Not_A_Name], topologyKey: z}"), 0, "",
	  .old = "m.yaml:1: document 1 (Pod ns/p): pod ns/p: "
	  "affinity.podAffinity.required[0].namespaces[0]: invalid namespace \"Not_A_Name\": "
	  "must start and end with a lowercase letter or digit" },
	{ EXPRS("{key: a, operator: In}"), 0, "",
	  .old = "m.yaml:1: document 1 (Pod ns/p): pod ns/p: "
	  "affinity.nodeAffinity.required[0].matchExpressions[0]: operator In needs at least "
	  "one value" },
	{ EXPRS("{key: a, operator: Exists, values: [x]}"), 0, "",
	  .old = "m.yaml:1: document 1 (Pod ns/p): pod ns/p: "
	  "affinity.nodeAffinity.required[0].matchExpressions[0]: operator Exists takes no "
	  "values" },
	{ EXPRS("{key: \"bad key\", operator: Exists}"), 0, "",
	  .old = "m.yaml:1: document 1 (Pod ns/p): pod ns/p: "
	  "affinity.nodeAffinity.required[0].matchExpressions[0]: invalid label key \"bad "
	  "key\": only letters, digits, '-', '_' and '.' are allowed" },
	/* a required node affinity without a term has no protocol form: the reader refuses it */
	{ NODE_REQ("[]"), -EINVAL,
	  AT6 ".nodeAffinity." REQ ".nodeSelectorTerms: needs at least one term",
	  .old = "m.yaml:1: document 1 (Pod ns/p): pod ns/p: affinity.nodeAffinity.required: "
	  "needs at least one term" },
	{ NODE_REQ("~"), -EINVAL,
	  AT6 ".nodeAffinity." REQ ".nodeSelectorTerms: needs at least one term",
	  .old = "m.yaml:1: document 1 (Pod ns/p): pod ns/p: affinity.nodeAffinity.required: "
	  "needs at least one term" },
	{ AFF("{nodeAffinity: {" REQ ": {}}}"), -EINVAL,
	  AT6 ".nodeAffinity." REQ ".nodeSelectorTerms: needs at least one term",
	  .old = "m.yaml:1: document 1 (Pod ns/p): pod ns/p: affinity.nodeAffinity.required: "
	  "needs at least one term" },
};

Test(kread_affinity, what_the_old_core_refused_is_the_daemons)
{
	for (u32 i = 0; i < ARRAY_SIZE(daemons); i++) {
		int ret = put_aff(daemons[i].text);

		cr_assert_eq(ret, daemons[i].ret, "text %u: %d %s", i, ret, err.msg);
		cr_assert_str_eq(err.msg, daemons[i].msg, "text %u", i);
	}
}

/*
 * The pods of the manifests (selftests/manifests/), whose affinities hold
 * every field read, and the nest the old reader sent for each ("": none;
 * NULL: it skipped the pod, a pending pod of another scheduler).
 */
static const struct {
	const char *file, *pod, *shown;
} manifest_pods[] = {
	{ "affinity.yaml", "web-0",
	  "{nodeRequired{expr{key=zone op=0 value=a value=b} expr{key=pool op=1 value=batch} "
	  "expr{key=ssd op=2} field{key=metadata.name op=1 value=node-9}} "
	  "nodeRequired{expr{key=gpu op=3} expr{key=cores op=4 value=4} "
	  "expr{key=age op=5 value=30}} nodePreferred{expr{key=zone op=0 value=a} weight=10} "
	  "nodePreferred{field{key=metadata.name op=0 value=node-1} weight=1} "
	  "antiRequired{selector{labels{{k=app v=web}}} topologyKey=kubernetes.io/hostname} "
	  "antiPreferred{selector{expr{key=tier op=0 value=front value=back}} ns=aff ns=team-a "
	  "topologyKey=zone weight=50}}" },
	{ "affinity.yaml", "cache-0",
	  "{podRequired{selector{labels{{k=app v=web}} expr{key=tier op=2}} ns=aff "
	  "topologyKey=kubernetes.io/hostname} podPreferred{selector{} nsSelector{} "
	  "topologyKey=zone weight=100}}" },
	{ "workloads.yaml", "a-0", "" },
	{ "workloads.yaml", "a-1", "" },
	{ "workloads.yaml", "b-0", "" },
	{ "workloads.yaml", "gpu-0", "{nodeRequired{expr{key=accelerator op=0 value=gpu}}}" },
	{ "workloads.yaml", "solo", "" },
	{ "workloads.yaml", "web-7d9f8", "" },
	{ "workloads.yaml", "web-pending", NULL },
};

Test(kread_affinity, the_manifests_pods_are_what_the_old_reader_sends)
{
	static const char *const files[] = { "affinity.yaml", "workloads.yaml" };
	char src[PATH_MAX], path[PATH_MAX + 64];
	u32 nr_aff = 0, nr_pods = 0;

	for (u32 f = 0; f < ARRAY_SIZE(files); f++) {
		struct vsnl_err e = { 0 };
		size_t len = 0;
		char *text;

		snprintf(src, sizeof(src), "%s", __FILE__);
		snprintf(path, sizeof(path), "%s/../manifests/%s", dirname(src), files[f]);
		cr_assert_eq(vsnl_read_file(path, 1 << 20, VSNL_FILE_REGULAR, &text, &len, &e), 0,
			     "%s", e.msg);
		read_docs(text);
		for (u32 i = 0; i < docs.nr; i++) {
			const char *name = docs.v[i].name;
			u32 p;

			if (docs.v[i].kind != KR_POD)
				continue;
			for (p = 0; p < ARRAY_SIZE(manifest_pods); p++)
				if (!strcmp(manifest_pods[p].file, files[f]) &&
				    !strcmp(manifest_pods[p].pod, name))
					break;
			cr_assert_lt(p, ARRAY_SIZE(manifest_pods), "%s: pod %s: no old answer",
				     files[f], name);
			nr_pods++;
			if (!manifest_pods[p].shown)
				continue;
			cr_assert_eq(put_doc_aff(&docs.v[i]), 0, "%s: %s", name, err.msg);
			cr_assert_str_eq(shown, manifest_pods[p].shown, "%s: %s", files[f], name);
			nr_aff += !!*shown;
		}
		free(text);
	}
	cr_assert_eq(nr_pods, ARRAY_SIZE(manifest_pods), "the manifests' pods are not the table's");
	cr_assert_geq(nr_aff, 3, "the manifests' affinities are not compared");
}

Test(kread_affinity, an_affinity_larger_than_the_request_is_refused)
{
	put_cap = 64;
	cr_assert_eq(put_aff(EXPRS("{key: zone, operator: In, values: [a, b, c, d, e, f, g]}")),
		     -EMSGSIZE);
	put_cap = 256;
	cr_assert_eq(put_aff(EXPRS("{key: zone, operator: In, values: [a, b, c, d, e, f, g]}")),
		     0, "%s", err.msg);
	cr_assert_str_eq(shown, "{nodeRequired{expr{key=zone op=0 value=a value=b value=c "
			 "value=d value=e value=f value=g}}}");
}
