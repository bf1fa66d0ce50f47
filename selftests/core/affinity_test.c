// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for affinity (core/affinity.h): every selector operator with
 * Kubernetes' rule for an absent key, node fields, how terms combine, the
 * preferred score, label selectors empty and absent, the namespaces a pod
 * affinity term looks in, every validation message with the field it names,
 * and a task that carries an affinity through vs_task_add() and
 * vs_task_del() without leaking a string.
 */
#include <string.h>
#include <criterion/criterion.h>

#include "core/affinity.h"
#include "core/cluster.h"
#include "strtest.h"

STRS_SUITE(affinity);

/* A requirement with values, and one without. */
#define VALS(...)	.values = (const char *const[]){ __VA_ARGS__ }, \
			.nr_values = ARRAY_SIZE(((const char *const[]){ __VA_ARGS__ }))
#define REQ(k, o, ...)	{ .key = (k), .op = (o), VALS(__VA_ARGS__) }
#define REQ0(k, o)	{ .key = (k), .op = (o) }
#define KV(...)		(const struct vs_kv_spec[]){ __VA_ARGS__ }, \
			ARRAY_SIZE(((const struct vs_kv_spec[]){ __VA_ARGS__ }))

/* Nodes and tasks as the matchers see them: a name or namespace, and labels. */
static struct vs_node node_make(const char *name, const struct vs_kv_spec *kv, u32 nr)
{
	struct vs_node n;

	memset(&n, 0, sizeof(n));
	n.name = vs_str_get_cstr(&strs, name);
	cr_assert_eq(vs_labels_new(&strs, kv, nr, "label", &n.labels, NULL), 0);
	return n;
}

static void node_put(struct vs_node *n)
{
	vs_labels_free(&strs, n->labels);
	vs_str_put(&strs, n->name);
}

static struct vs_task task_make(const char *ns, const struct vs_kv_spec *kv, u32 nr)
{
	struct vs_task t;

	memset(&t, 0, sizeof(t));
	t.ns = vs_str_get_cstr(&strs, ns);
	cr_assert_eq(vs_labels_new(&strs, kv, nr, "label", &t.labels, NULL), 0);
	return t;
}

static void task_put(struct vs_task *t)
{
	vs_labels_free(&strs, t->labels);
	vs_str_put(&strs, t->ns);
}

static struct vs_affinity *build(const struct vs_affinity_spec *spec)
{
	struct vs_affinity *aff;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_affinity_new(&strs, spec, &aff, &e), 0, "%s", e.msg);
	cr_assert_not_null(aff);
	return aff;
}

/* Does a required node affinity of the one requirement @r admit @node? */
static bool req_on_node(const struct vs_sel_req_spec *r, const struct vs_node *node)
{
	const struct vs_node_selector_term_spec term = { .exprs = r, .nr_exprs = 1 };
	const struct vs_node_selector_spec sel = { .terms = &term, .nr_terms = 1 };
	const struct vs_node_affinity_spec na = { .required = &sel };
	const struct vs_affinity_spec spec = { .node_affinity = &na };
	struct vs_affinity *aff = build(&spec);
	bool m = vs_node_affinity_required_match(aff, node);

	cr_assert_eq(vs_node_selector_term_match(&aff->node_affinity->required[0], node), m);
	vs_affinity_free(&strs, aff);
	return m;
}

/* A one-term required node affinity of @terms. */
static struct vs_affinity *node_required(const struct vs_node_selector_term_spec *terms, u32 nr)
{
	const struct vs_node_selector_spec sel = { .terms = terms, .nr_terms = nr };
	const struct vs_node_affinity_spec na = { .required = &sel };
	const struct vs_affinity_spec spec = { .node_affinity = &na };

	return build(&spec);
}

Test(affinity, operator_names_parse_and_unknown_lists_the_accepted_ones)
{
	static const char *const names[] = { "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt" };
	struct vs_err e = { { 0 } };
	enum vs_sel_op op;

	for (unsigned int i = 0; i < ARRAY_SIZE(names); i++) {
		cr_assert_eq(vs_sel_op_parse(names[i], &op, NULL), 0, "%s", names[i]);
		cr_assert_eq(op, (enum vs_sel_op)i);
		cr_assert_str_eq(vs_sel_op_name(op), names[i]);
	}
	cr_assert_eq(vs_sel_op_parse("in", &op, &e), -EINVAL);
	cr_assert_str_eq(e.msg,
			 "unknown operator \"in\" (In, NotIn, Exists, DoesNotExist, Gt or Lt)");
	cr_assert_eq(vs_sel_op_parse(NULL, &op, NULL), -EINVAL);
	cr_assert_str_eq(vs_sel_op_name(VS_SEL_NR_OPS), "?");
}

Test(affinity, in_matches_a_listed_value_and_needs_the_key)
{
	struct vs_node a = node_make("a", KV({ "zone", "z1" }));
	struct vs_node b = node_make("b", KV({ "zone", "z3" }));
	struct vs_node none = node_make("none", NULL, 0);
	const struct vs_sel_req_spec r = REQ("zone", VS_SEL_IN, "z1", "z2");

	cr_assert(req_on_node(&r, &a));
	cr_assert_not(req_on_node(&r, &b));
	cr_assert_not(req_on_node(&r, &none));
	node_put(&a);
	node_put(&b);
	node_put(&none);
}

Test(affinity, not_in_matches_an_absent_key)
{
	struct vs_node a = node_make("a", KV({ "zone", "z1" }));
	struct vs_node b = node_make("b", KV({ "zone", "z3" }));
	struct vs_node none = node_make("none", KV({ "disk", "ssd" }));
	const struct vs_sel_req_spec r = REQ("zone", VS_SEL_NOT_IN, "z1", "z2");

	cr_assert_not(req_on_node(&r, &a));
	cr_assert(req_on_node(&r, &b));
	cr_assert(req_on_node(&r, &none));
	node_put(&a);
	node_put(&b);
	node_put(&none);
}

Test(affinity, exists_needs_the_key_and_does_not_exist_its_absence)
{
	/* an empty value is still a label */
	struct vs_node gpu = node_make("gpu", KV({ "gpu", "" }));
	struct vs_node cpu = node_make("cpu", KV({ "zone", "z1" }));
	const struct vs_sel_req_spec ex = REQ0("gpu", VS_SEL_EXISTS);
	const struct vs_sel_req_spec dne = REQ0("gpu", VS_SEL_DOES_NOT_EXIST);

	cr_assert(req_on_node(&ex, &gpu));
	cr_assert_not(req_on_node(&ex, &cpu));
	cr_assert_not(req_on_node(&dne, &gpu));
	cr_assert(req_on_node(&dne, &cpu));
	node_put(&gpu);
	node_put(&cpu);
}

Test(affinity, gt_lt_compare_as_integers_and_a_non_integer_label_never_matches)
{
	struct vs_node n8 = node_make("n8", KV({ "cores", "8" }));
	struct vs_node n16 = node_make("n16", KV({ "cores", "016" }));	/* parses as 16 */
	struct vs_node big = node_make("big", KV({ "cores", "9223372036854775807" }));
	struct vs_node over = node_make("over", KV({ "cores", "9223372036854775808" }));
	struct vs_node word = node_make("word", KV({ "cores", "eight" }));
	struct vs_node none = node_make("none", NULL, 0);
	const struct vs_sel_req_spec gt = REQ("cores", VS_SEL_GT, "8");
	const struct vs_sel_req_spec lt = REQ("cores", VS_SEL_LT, "10");

	cr_assert_not(req_on_node(&gt, &n8));		/* strictly greater */
	cr_assert(req_on_node(&gt, &n16));
	cr_assert(req_on_node(&gt, &big));
	cr_assert_not(req_on_node(&gt, &over));		/* out of range: not an integer */
	cr_assert_not(req_on_node(&gt, &word));
	cr_assert_not(req_on_node(&gt, &none));
	cr_assert(req_on_node(&lt, &n8));
	cr_assert_not(req_on_node(&lt, &n16));		/* not compared as strings */
	cr_assert_not(req_on_node(&lt, &word));
	cr_assert_not(req_on_node(&lt, &none));
	node_put(&n8);
	node_put(&n16);
	node_put(&big);
	node_put(&over);
	node_put(&word);
	node_put(&none);
}

Test(affinity, match_fields_select_nodes_by_name)
{
	struct vs_node a = node_make("node-a", NULL, 0);
	struct vs_node b = node_make("node-b", KV({ "metadata.name", "node-a" }));
	const struct vs_sel_req_spec in = REQ(VS_NODE_FIELD_NAME, VS_SEL_IN, "node-a");
	const struct vs_sel_req_spec notin = REQ(VS_NODE_FIELD_NAME, VS_SEL_NOT_IN, "node-a");
	const struct vs_node_selector_term_spec t_in = { .fields = &in, .nr_fields = 1 };
	const struct vs_node_selector_term_spec t_notin = { .fields = &notin, .nr_fields = 1 };
	struct vs_affinity *aff;

	aff = node_required(&t_in, 1);
	cr_assert(vs_node_affinity_required_match(aff, &a));
	/* the name, not a label that happens to be called metadata.name */
	cr_assert_not(vs_node_affinity_required_match(aff, &b));
	vs_affinity_free(&strs, aff);
	aff = node_required(&t_notin, 1);
	cr_assert_not(vs_node_affinity_required_match(aff, &a));
	cr_assert(vs_node_affinity_required_match(aff, &b));
	vs_affinity_free(&strs, aff);
	node_put(&a);
	node_put(&b);
}

Test(affinity, terms_are_ored_and_requirements_within_a_term_anded)
{
	struct vs_node ssd_z1 = node_make("ssd-z1", KV({ "disk", "ssd" }, { "zone", "z1" }));
	struct vs_node ssd_z2 = node_make("ssd-z2", KV({ "disk", "ssd" }, { "zone", "z2" }));
	struct vs_node hdd_z1 = node_make("hdd-z1", KV({ "disk", "hdd" }, { "zone", "z1" }));
	struct vs_node named = node_make("special", KV({ "disk", "hdd" }));
	const struct vs_sel_req_spec ssd_and_z1[] = {
		REQ("disk", VS_SEL_IN, "ssd"),
		REQ("zone", VS_SEL_IN, "z1"),
	};
	const struct vs_sel_req_spec hdd = REQ("disk", VS_SEL_IN, "hdd");
	const struct vs_sel_req_spec special = REQ(VS_NODE_FIELD_NAME, VS_SEL_IN, "special");
	const struct vs_node_selector_term_spec terms[] = {
		{ .exprs = ssd_and_z1, .nr_exprs = 2 },
		/* expressions and fields of one term are ANDed too */
		{ .exprs = &hdd, .nr_exprs = 1, .fields = &special, .nr_fields = 1 },
	};
	struct vs_affinity *aff = node_required(terms, 2);

	cr_assert(vs_node_affinity_required_match(aff, &ssd_z1));
	cr_assert_not(vs_node_affinity_required_match(aff, &ssd_z2));
	cr_assert_not(vs_node_affinity_required_match(aff, &hdd_z1));
	cr_assert(vs_node_affinity_required_match(aff, &named));
	cr_assert_not(vs_node_selector_term_match(&aff->node_affinity->required[0], &named));
	cr_assert(vs_node_selector_term_match(&aff->node_affinity->required[1], &named));
	vs_affinity_free(&strs, aff);
	node_put(&ssd_z1);
	node_put(&ssd_z2);
	node_put(&hdd_z1);
	node_put(&named);
}

Test(affinity, empty_term_matches_no_node)
{
	struct vs_node n = node_make("n", KV({ "zone", "z1" }));
	const struct vs_node_selector_term_spec empty = { 0 };
	const struct vs_node_pref_term_spec pref = { .weight = 50, .preference = { 0 } };
	const struct vs_node_affinity_spec na = { .preferred = &pref, .nr_preferred = 1 };
	const struct vs_affinity_spec spec = { .node_affinity = &na };
	struct vs_affinity *aff = node_required(&empty, 1);

	cr_assert_not(vs_node_selector_term_match(&aff->node_affinity->required[0], &n));
	cr_assert_not(vs_node_affinity_required_match(aff, &n));
	vs_affinity_free(&strs, aff);
	aff = build(&spec);
	cr_assert_eq(vs_node_affinity_preferred_score(aff, &n), 0);
	vs_affinity_free(&strs, aff);
	node_put(&n);
}

Test(affinity, no_required_node_affinity_admits_every_node)
{
	struct vs_node n = node_make("n", NULL, 0);
	const struct vs_sel_req_spec r = REQ("zone", VS_SEL_IN, "z1");
	const struct vs_node_pref_term_spec pref = {
		.weight = 10, .preference = { .exprs = &r, .nr_exprs = 1 },
	};
	const struct vs_node_affinity_spec na = { .preferred = &pref, .nr_preferred = 1 };
	const struct vs_affinity_spec spec = { .node_affinity = &na };
	struct vs_affinity *aff = build(&spec);

	cr_assert(vs_node_affinity_required_match(NULL, &n));
	cr_assert(vs_node_affinity_required_match(aff, &n));	/* preferred only */
	cr_assert_eq(vs_node_affinity_preferred_score(NULL, &n), 0);
	vs_affinity_free(&strs, aff);
	node_put(&n);
}

Test(affinity, preferred_score_sums_the_weights_of_matching_terms)
{
	struct vs_node both = node_make("both", KV({ "disk", "ssd" }, { "zone", "z1" }));
	struct vs_node ssd = node_make("ssd", KV({ "disk", "ssd" }));
	struct vs_node none = node_make("none", NULL, 0);
	const struct vs_sel_req_spec r_ssd = REQ("disk", VS_SEL_IN, "ssd");
	const struct vs_sel_req_spec r_z1 = REQ("zone", VS_SEL_IN, "z1");
	const struct vs_sel_req_spec r_name = REQ(VS_NODE_FIELD_NAME, VS_SEL_IN, "both");
	const struct vs_node_pref_term_spec pref[] = {
		{ .weight = 100, .preference = { .exprs = &r_ssd, .nr_exprs = 1 } },
		{ .weight = 7, .preference = { .exprs = &r_z1, .nr_exprs = 1 } },
		{ .weight = 1, .preference = { .fields = &r_name, .nr_fields = 1 } },
	};
	const struct vs_node_affinity_spec na = { .preferred = pref, .nr_preferred = 3 };
	const struct vs_affinity_spec spec = { .node_affinity = &na };
	struct vs_affinity *aff = build(&spec);

	cr_assert_eq(vs_node_affinity_preferred_score(aff, &both), 108);
	cr_assert_eq(vs_node_affinity_preferred_score(aff, &ssd), 100);
	cr_assert_eq(vs_node_affinity_preferred_score(aff, &none), 0);
	vs_affinity_free(&strs, aff);
	node_put(&both);
	node_put(&ssd);
	node_put(&none);
}

/* The label selector of the first required pod affinity term of @aff. */
static const struct vs_label_selector *first_selector(const struct vs_affinity *aff)
{
	return aff->pod_affinity->required[0].selector;
}

static struct vs_affinity *pod_required(const struct vs_pod_affinity_term_spec *term)
{
	const struct vs_pod_affinity_spec pa = { .required = term, .nr_required = 1 };
	const struct vs_affinity_spec spec = { .pod_affinity = &pa };

	return build(&spec);
}

Test(affinity, label_selector_empty_matches_everything_absent_nothing)
{
	struct vs_task web = task_make("ns", KV({ "app", "web" }));
	struct vs_task bare = task_make("ns", NULL, 0);
	const struct vs_label_selector_spec empty = { 0 };
	const struct vs_pod_affinity_term_spec t_empty = { .selector = &empty,
							   .topology_key = "zone" };
	const struct vs_pod_affinity_term_spec t_absent = { .topology_key = "zone" };
	struct vs_affinity *aff;

	aff = pod_required(&t_empty);
	cr_assert_not_null(first_selector(aff));
	cr_assert(vs_label_selector_match(first_selector(aff), web.labels));
	cr_assert(vs_label_selector_match(first_selector(aff), NULL));
	vs_affinity_free(&strs, aff);

	aff = pod_required(&t_absent);
	cr_assert_null(first_selector(aff));
	cr_assert_not(vs_label_selector_match(NULL, web.labels));
	cr_assert_not(vs_pod_affinity_term_match(&aff->pod_affinity->required[0], web.ns, &web));
	cr_assert_not(vs_pod_affinity_term_match(&aff->pod_affinity->required[0], bare.ns, &bare));
	vs_affinity_free(&strs, aff);
	task_put(&web);
	task_put(&bare);
}

Test(affinity, label_selector_ands_match_labels_with_expressions)
{
	struct vs_task web_prod = task_make("ns", KV({ "app", "web" }, { "env", "prod" }));
	struct vs_task web_dev = task_make("ns", KV({ "app", "web" }, { "env", "dev" }));
	struct vs_task web = task_make("ns", KV({ "app", "web" }));
	struct vs_task db_prod = task_make("ns", KV({ "app", "db" }, { "env", "prod" }));
	const struct vs_sel_req_spec exprs[] = {
		REQ("env", VS_SEL_NOT_IN, "dev", "test"),
		REQ0("canary", VS_SEL_DOES_NOT_EXIST),
	};
	const struct vs_label_selector_spec sel = {
		.match_labels = KV({ "app", "web" }), .exprs = exprs, .nr_exprs = 2,
	};
	const struct vs_pod_affinity_term_spec term = { .selector = &sel, .topology_key = "zone" };
	struct vs_affinity *aff = pod_required(&term);
	const struct vs_label_selector *s = first_selector(aff);

	cr_assert(vs_label_selector_match(s, web_prod.labels));
	cr_assert_not(vs_label_selector_match(s, web_dev.labels));
	cr_assert(vs_label_selector_match(s, web.labels));	/* NotIn: env absent */
	cr_assert_not(vs_label_selector_match(s, db_prod.labels));
	cr_assert_not(vs_label_selector_match(s, NULL));
	vs_affinity_free(&strs, aff);
	task_put(&web_prod);
	task_put(&web_dev);
	task_put(&web);
	task_put(&db_prod);
}

Test(affinity, pod_term_without_namespaces_looks_in_the_owners_namespace)
{
	struct vs_task here = task_make("team-a", KV({ "app", "web" }));
	struct vs_task there = task_make("team-b", KV({ "app", "web" }));
	const struct vs_label_selector_spec sel = { .match_labels = KV({ "app", "web" }) };
	const struct vs_pod_affinity_term_spec term = { .selector = &sel, .topology_key = "zone" };
	struct vs_affinity *aff = pod_required(&term);
	const struct vs_pod_affinity_term *t = &aff->pod_affinity->required[0];

	cr_assert(vs_pod_affinity_term_match(t, here.ns, &here));
	cr_assert_not(vs_pod_affinity_term_match(t, here.ns, &there));
	cr_assert(vs_pod_affinity_term_match(t, there.ns, &there));	/* owned from team-b */
	vs_affinity_free(&strs, aff);
	task_put(&here);
	task_put(&there);
}

Test(affinity, pod_term_looks_in_the_listed_namespaces)
{
	struct vs_task a = task_make("team-a", KV({ "app", "web" }));
	struct vs_task b = task_make("team-b", KV({ "app", "web" }));
	struct vs_task c = task_make("team-c", KV({ "app", "web" }));
	const struct vs_label_selector_spec sel = { .match_labels = KV({ "app", "web" }) };
	const struct vs_pod_affinity_term_spec term = {
		.selector = &sel, .topology_key = "zone",
		.namespaces = (const char *const[]){ "team-b", "team-c" }, .nr_namespaces = 2,
	};
	struct vs_affinity *aff = pod_required(&term);
	const struct vs_pod_affinity_term *t = &aff->pod_affinity->required[0];

	/* the owner's namespace is not added to a list */
	cr_assert_not(vs_pod_affinity_term_match(t, a.ns, &a));
	cr_assert(vs_pod_affinity_term_match(t, a.ns, &b));
	cr_assert(vs_pod_affinity_term_match(t, a.ns, &c));
	vs_affinity_free(&strs, aff);
	task_put(&a);
	task_put(&b);
	task_put(&c);
}

Test(affinity, pod_term_empty_namespace_selector_looks_everywhere)
{
	struct vs_task a = task_make("team-a", KV({ "app", "web" }));
	struct vs_task b = task_make("team-b", KV({ "app", "web" }));
	struct vs_task db = task_make("team-b", KV({ "app", "db" }));
	const struct vs_label_selector_spec sel = { .match_labels = KV({ "app", "web" }) };
	const struct vs_label_selector_spec every = { 0 };
	const struct vs_pod_affinity_term_spec term = {
		.selector = &sel, .topology_key = "zone", .ns_selector = &every,
		/* ORed with the list, which it makes moot */
		.namespaces = (const char *const[]){ "team-c" }, .nr_namespaces = 1,
	};
	struct vs_affinity *aff = pod_required(&term);
	const struct vs_pod_affinity_term *t = &aff->pod_affinity->required[0];

	cr_assert(t->all_namespaces);
	cr_assert(vs_pod_affinity_term_match(t, a.ns, &a));
	cr_assert(vs_pod_affinity_term_match(t, a.ns, &b));
	cr_assert_not(vs_pod_affinity_term_match(t, a.ns, &db));	/* labels still count */
	vs_affinity_free(&strs, aff);
	task_put(&a);
	task_put(&b);
	task_put(&db);
}

Test(affinity, built_affinity_is_interned_parsed_and_sorted)
{
	const struct vs_sel_req_spec gt = REQ("cores", VS_SEL_GT, "42");
	const struct vs_node_selector_term_spec term = { .exprs = &gt, .nr_exprs = 1 };
	const struct vs_node_selector_spec req = { .terms = &term, .nr_terms = 1 };
	const struct vs_node_affinity_spec na = { .required = &req };
	const struct vs_label_selector_spec sel = {
		.match_labels = KV({ "zone", "z1" }, { "app", "web" }),
	};
	const struct vs_weighted_pod_affinity_term_spec anti = {
		.weight = 30, .term = { .selector = &sel, .topology_key = "zone" },
	};
	const struct vs_pod_affinity_spec pa = { .preferred = &anti, .nr_preferred = 1 };
	const struct vs_affinity_spec spec = { .node_affinity = &na, .pod_anti_affinity = &pa };
	struct vs_affinity *aff = build(&spec);
	const struct vs_weighted_pod_affinity_term *w;
	const char *zone = vs_str_find(&strs, "zone", 4);

	cr_assert_null(aff->pod_affinity);
	cr_assert_eq(aff->node_affinity->nr_required, 1);
	cr_assert_eq(aff->node_affinity->nr_preferred, 0);
	cr_assert_eq(aff->node_affinity->required[0].exprs[0].num, 42);
	cr_assert_eq(aff->node_affinity->required[0].exprs[0].key,
		     vs_str_find(&strs, "cores", 5));
	w = &aff->pod_anti_affinity->preferred[0];
	cr_assert_eq(w->weight, 30);
	cr_assert_eq(w->term.topology_key, zone);	/* the very pointer node labels use */
	cr_assert_str_eq(w->term.selector->match_labels->kv[0].key, "app");
	cr_assert_eq(w->term.selector->match_labels->kv[1].key, zone);
	cr_assert_eq(aff->pod_anti_affinity->nr_required, 0);
	vs_affinity_free(&strs, aff);
	vs_affinity_free(&strs, NULL);
}

Test(affinity, empty_spec_and_empty_parts_are_null)
{
	const struct vs_node_affinity_spec na = { 0 };
	const struct vs_pod_affinity_spec pa = { 0 };
	const struct vs_affinity_spec nothing = { 0 };
	const struct vs_affinity_spec empties = {
		.node_affinity = &na, .pod_affinity = &pa, .pod_anti_affinity = &pa,
	};
	const struct vs_sel_req_spec r = REQ0("gpu", VS_SEL_EXISTS);
	const struct vs_node_selector_term_spec term = { .exprs = &r, .nr_exprs = 1 };
	const struct vs_node_selector_spec req = { .terms = &term, .nr_terms = 1 };
	const struct vs_node_affinity_spec na_req = { .required = &req };
	const struct vs_affinity_spec some = { .node_affinity = &na_req, .pod_affinity = &pa };
	struct vs_affinity *aff = (void *)1;

	cr_assert_eq(vs_affinity_new(&strs, NULL, &aff, NULL), 0);
	cr_assert_null(aff);
	aff = (void *)1;
	cr_assert_eq(vs_affinity_new(&strs, &nothing, &aff, NULL), 0);
	cr_assert_null(aff);
	aff = (void *)1;
	cr_assert_eq(vs_affinity_new(&strs, &empties, &aff, NULL), 0);
	cr_assert_null(aff);
	aff = build(&some);
	cr_assert_not_null(aff->node_affinity);
	cr_assert_null(aff->pod_affinity);
	cr_assert_null(aff->pod_anti_affinity);
	vs_affinity_free(&strs, aff);
}

/* ---- validation ---- */

static void refused(const struct vs_affinity_spec *spec, const char *msg)
{
	struct vs_err e = { { 0 } };
	struct vs_affinity *aff = (void *)1;

	cr_assert_eq(vs_affinity_new(&strs, spec, &aff, &e), -EINVAL,
		     "accepted; expected \"%s\"", msg);
	cr_assert_null(aff);
	cr_assert(strstr(e.msg, msg), "message \"%s\" lacks \"%s\"", e.msg, msg);
	cr_assert_eq(vs_strtab_count(&strs), 0, "a refused spec left strings behind");
}

/* @r as the only expression of the second required term; the first is fine. */
static void node_expr_refused(struct vs_sel_req_spec r, const char *msg)
{
	const struct vs_sel_req_spec ok = REQ0("zone", VS_SEL_EXISTS);
	const struct vs_node_selector_term_spec terms[] = {
		{ .exprs = &ok, .nr_exprs = 1 },
		{ .exprs = &r, .nr_exprs = 1 },
	};
	const struct vs_node_selector_spec sel = { .terms = terms, .nr_terms = 2 };
	const struct vs_node_affinity_spec na = { .required = &sel };
	const struct vs_affinity_spec spec = { .node_affinity = &na };

	refused(&spec, msg);
}

Test(affinity, node_expression_validation_messages)
{
	node_expr_refused((struct vs_sel_req_spec)REQ0("zone", VS_SEL_IN),
			  "affinity.nodeAffinity.required[1].matchExpressions[0]: operator In needs at least one value");
	node_expr_refused((struct vs_sel_req_spec)REQ0("zone", VS_SEL_NOT_IN),
			  "required[1].matchExpressions[0]: operator NotIn needs at least one value");
	node_expr_refused((struct vs_sel_req_spec)REQ("zone", VS_SEL_EXISTS, "z1"),
			  "required[1].matchExpressions[0]: operator Exists takes no values");
	node_expr_refused((struct vs_sel_req_spec)REQ("zone", VS_SEL_DOES_NOT_EXIST, "z1"),
			  "operator DoesNotExist takes no values");
	node_expr_refused((struct vs_sel_req_spec)REQ0("cores", VS_SEL_GT),
			  "operator Gt needs exactly one value");
	node_expr_refused((struct vs_sel_req_spec)REQ("cores", VS_SEL_LT, "1", "2"),
			  "operator Lt needs exactly one value");
	node_expr_refused((struct vs_sel_req_spec)REQ("cores", VS_SEL_LT, "ten"),
			  "required[1].matchExpressions[0]: operator Lt needs an integer value, not \"ten\"");
	node_expr_refused((struct vs_sel_req_spec)REQ("cores", VS_SEL_GT, "99999999999999999999"),
			  "operator Gt needs an integer value");
	/* a negative number is no label value, and Kubernetes checks that first */
	node_expr_refused((struct vs_sel_req_spec)REQ("cores", VS_SEL_GT, "-1"),
			  "matchExpressions[0].values[0]: invalid label value \"-1\"");
	node_expr_refused((struct vs_sel_req_spec)REQ("zone", VS_SEL_IN, "z1", "bad value"),
			  "required[1].matchExpressions[0].values[1]: invalid label value \"bad value\"");
	node_expr_refused((struct vs_sel_req_spec)REQ("Bad/zone", VS_SEL_IN, "z1"),
			  "required[1].matchExpressions[0]: invalid label key \"Bad/zone\"");
	node_expr_refused((struct vs_sel_req_spec)REQ0(NULL, VS_SEL_EXISTS),
			  "required[1].matchExpressions[0]: label key is empty");
	node_expr_refused((struct vs_sel_req_spec){ .key = "zone", .op = (enum vs_sel_op)9 },
			  "required[1].matchExpressions[0]: bad operator 9");
}

/* @r as the only field of the only required term. */
static void node_field_refused(struct vs_sel_req_spec r, const char *msg)
{
	const struct vs_node_selector_term_spec term = { .fields = &r, .nr_fields = 1 };
	const struct vs_node_selector_spec sel = { .terms = &term, .nr_terms = 1 };
	const struct vs_node_affinity_spec na = { .required = &sel };
	const struct vs_affinity_spec spec = { .node_affinity = &na };

	refused(&spec, msg);
}

Test(affinity, node_field_validation_messages)
{
	node_field_refused((struct vs_sel_req_spec)REQ("metadata.labels", VS_SEL_IN, "n1"),
			   "affinity.nodeAffinity.required[0].matchFields[0]: field \"metadata.labels\" is not supported (only metadata.name)");
	node_field_refused((struct vs_sel_req_spec)REQ0(VS_NODE_FIELD_NAME, VS_SEL_EXISTS),
			   "matchFields[0]: operator Exists is not allowed here (In or NotIn)");
	node_field_refused((struct vs_sel_req_spec)REQ(VS_NODE_FIELD_NAME, VS_SEL_GT, "1"),
			   "matchFields[0]: operator Gt is not allowed here (In or NotIn)");
	node_field_refused((struct vs_sel_req_spec)REQ(VS_NODE_FIELD_NAME, VS_SEL_IN, "a", "b"),
			   "matchFields[0]: operator In on a field needs exactly one value");
	node_field_refused((struct vs_sel_req_spec)REQ0(VS_NODE_FIELD_NAME, VS_SEL_NOT_IN),
			   "matchFields[0]: operator NotIn on a field needs exactly one value");
	node_field_refused((struct vs_sel_req_spec)REQ(VS_NODE_FIELD_NAME, VS_SEL_IN, "Node_1"),
			   "matchFields[0].values[0]: invalid node name \"Node_1\"");
}

Test(affinity, node_affinity_validation_messages)
{
	const struct vs_node_selector_spec no_terms = { 0 };
	const struct vs_node_affinity_spec na_empty = { .required = &no_terms };
	const struct vs_sel_req_spec bad = REQ0("zone", VS_SEL_IN);
	const struct vs_sel_req_spec ok = REQ0("zone", VS_SEL_EXISTS);
	const struct vs_node_pref_term_spec w0 = { .weight = 0, .preference = { &ok, 1, NULL, 0 } };
	const struct vs_node_pref_term_spec w101[] = {
		{ .weight = 100, .preference = { &ok, 1, NULL, 0 } },
		{ .weight = 101, .preference = { &ok, 1, NULL, 0 } },
	};
	const struct vs_node_pref_term_spec pbad = { .weight = 1, .preference = { &bad, 1, NULL, 0 } };
	const struct vs_node_affinity_spec na_w0 = { .preferred = &w0, .nr_preferred = 1 };
	const struct vs_node_affinity_spec na_w101 = { .preferred = w101, .nr_preferred = 2 };
	const struct vs_node_affinity_spec na_pbad = { .preferred = &pbad, .nr_preferred = 1 };

	refused(&(struct vs_affinity_spec){ .node_affinity = &na_empty },
		"affinity.nodeAffinity.required: needs at least one term");
	refused(&(struct vs_affinity_spec){ .node_affinity = &na_w0 },
		"affinity.nodeAffinity.preferred[0].weight: 0 is not in the range 1-100");
	refused(&(struct vs_affinity_spec){ .node_affinity = &na_w101 },
		"affinity.nodeAffinity.preferred[1].weight: 101 is not in the range 1-100");
	refused(&(struct vs_affinity_spec){ .node_affinity = &na_pbad },
		"affinity.nodeAffinity.preferred[0].preference.matchExpressions[0]: operator In needs at least one value");
}

/* @sel as the label selector of podAffinity.required[0]. */
static void label_selector_refused(const struct vs_label_selector_spec *sel, const char *msg)
{
	const struct vs_pod_affinity_term_spec term = { .selector = sel, .topology_key = "zone" };
	const struct vs_pod_affinity_spec pa = { .required = &term, .nr_required = 1 };

	refused(&(struct vs_affinity_spec){ .pod_affinity = &pa }, msg);
}

Test(affinity, label_selector_validation_messages)
{
	const struct vs_sel_req_spec gt = REQ("cores", VS_SEL_GT, "1");
	const struct vs_sel_req_spec lt = REQ("cores", VS_SEL_LT, "1");
	const struct vs_sel_req_spec in0 = REQ0("app", VS_SEL_IN);
	const struct vs_sel_req_spec ex1 = REQ("app", VS_SEL_EXISTS, "web");

	label_selector_refused(&(struct vs_label_selector_spec){ .exprs = &gt, .nr_exprs = 1 },
			       "affinity.podAffinity.required[0].labelSelector.matchExpressions[0]: operator Gt is not allowed here (In, NotIn, Exists or DoesNotExist)");
	label_selector_refused(&(struct vs_label_selector_spec){ .exprs = &lt, .nr_exprs = 1 },
			       "operator Lt is not allowed here");
	label_selector_refused(&(struct vs_label_selector_spec){ .exprs = &in0, .nr_exprs = 1 },
			       "labelSelector.matchExpressions[0]: operator In needs at least one value");
	label_selector_refused(&(struct vs_label_selector_spec){ .exprs = &ex1, .nr_exprs = 1 },
			       "labelSelector.matchExpressions[0]: operator Exists takes no values");
	label_selector_refused(&(struct vs_label_selector_spec){
					.match_labels = KV({ "app", "web" }, { "app", "db" }) },
			       "affinity.podAffinity.required[0].labelSelector.matchLabels: key \"app\" given twice");
	label_selector_refused(&(struct vs_label_selector_spec){
					.match_labels = KV({ "-app", "web" }) },
			       "labelSelector.matchLabels: invalid label key \"-app\"");
	label_selector_refused(&(struct vs_label_selector_spec){
					.match_labels = KV({ "app", "web/1" }) },
			       "labelSelector.matchLabels: invalid label value \"web/1\"");
}

/* @term as podAntiAffinity.required[0] or, weighted, as preferred[0]. */
static void pod_term_refused(const struct vs_pod_affinity_term_spec *term, const char *msg,
			     const char *pref_msg)
{
	const struct vs_weighted_pod_affinity_term_spec w = { .weight = 1, .term = *term };
	const struct vs_pod_affinity_spec req = { .required = term, .nr_required = 1 };
	const struct vs_pod_affinity_spec pref = { .preferred = &w, .nr_preferred = 1 };

	refused(&(struct vs_affinity_spec){ .pod_anti_affinity = &req }, msg);
	refused(&(struct vs_affinity_spec){ .pod_anti_affinity = &pref }, pref_msg);
}

Test(affinity, pod_term_validation_messages)
{
	const struct vs_label_selector_spec ns_sel = { .match_labels = KV({ "team", "a" }) };
	const struct vs_sel_req_spec ns_req = REQ0("team", VS_SEL_EXISTS);
	const struct vs_label_selector_spec ns_sel_expr = { .exprs = &ns_req, .nr_exprs = 1 };
	const struct vs_weighted_pod_affinity_term_spec w0 = {
		.weight = 0, .term = { .topology_key = "zone" },
	};
	const struct vs_weighted_pod_affinity_term_spec w101 = {
		.weight = 101, .term = { .topology_key = "zone" },
	};

	pod_term_refused(&(struct vs_pod_affinity_term_spec){ .topology_key = NULL },
			 "affinity.podAntiAffinity.required[0]: topologyKey is required",
			 "affinity.podAntiAffinity.preferred[0].podAffinityTerm: topologyKey is required");
	pod_term_refused(&(struct vs_pod_affinity_term_spec){ .topology_key = "" },
			 "required[0]: topologyKey is required",
			 "preferred[0].podAffinityTerm: topologyKey is required");
	pod_term_refused(&(struct vs_pod_affinity_term_spec){ .topology_key = "a//b" },
			 "affinity.podAntiAffinity.required[0]: invalid topologyKey \"a//b\"",
			 "preferred[0].podAffinityTerm: invalid topologyKey \"a//b\"");
	pod_term_refused(&(struct vs_pod_affinity_term_spec){
				.topology_key = "zone",
				.namespaces = (const char *const[]){ "ok", "Not.OK" },
				.nr_namespaces = 2 },
			 "affinity.podAntiAffinity.required[0].namespaces[1]: invalid namespace \"Not.OK\"",
			 "preferred[0].podAffinityTerm.namespaces[1]: invalid namespace");
	pod_term_refused(&(struct vs_pod_affinity_term_spec){
				.topology_key = "zone", .ns_selector = &ns_sel },
			 "affinity.podAntiAffinity.required[0].namespaceSelector: only the empty selector (every namespace) is supported: vsched has no namespace objects",
			 "preferred[0].podAffinityTerm.namespaceSelector: only the empty selector");
	pod_term_refused(&(struct vs_pod_affinity_term_spec){
				.topology_key = "zone", .ns_selector = &ns_sel_expr },
			 "required[0].namespaceSelector: only the empty selector",
			 "preferred[0].podAffinityTerm.namespaceSelector: only the empty selector");

	refused(&(struct vs_affinity_spec){ .pod_affinity = &(struct vs_pod_affinity_spec){
			.preferred = &w0, .nr_preferred = 1 } },
		"affinity.podAffinity.preferred[0].weight: 0 is not in the range 1-100");
	refused(&(struct vs_affinity_spec){ .pod_anti_affinity = &(struct vs_pod_affinity_spec){
			.preferred = &w101, .nr_preferred = 1 } },
		"affinity.podAntiAffinity.preferred[0].weight: 101 is not in the range 1-100");
}

/* ---- through the cluster ---- */

static void cluster_setup(struct vs_cluster *cl)
{
	struct vs_queue_spec qs;
	struct vs_job_spec js;
	struct vs_node_spec ns;
	struct vs_err e = { { 0 } };
	const struct vs_kv_spec zone[] = { { "zone", "z1" } };

	cr_assert_eq(vs_cluster_init(cl), 0);
	vs_queue_spec_init(&qs, "default");
	cr_assert_eq(vs_queue_add(cl, &qs, NULL, &e), 0, "%s", e.msg);
	vs_job_spec_init(&js, "ns", "j");
	cr_assert_eq(vs_job_add(cl, &js, NULL, &e), 0, "%s", e.msg);
	vs_node_spec_init(&ns, "n1");
	ns.labels = zone;
	ns.nr_labels = 1;
	cr_assert_eq(vs_node_add(cl, &ns, NULL, &e), 0, "%s", e.msg);
	vs_node_spec_init(&ns, "n2");
	cr_assert_eq(vs_node_add(cl, &ns, NULL, &e), 0, "%s", e.msg);
}

static void check_cluster(const struct vs_cluster *cl)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_check(cl, &e), 0, "invariant broken: %s", e.msg);
}

Test(affinity, task_affinity_is_built_by_task_add_and_freed_with_the_task)
{
	struct vs_cluster cl;
	struct vs_task_spec ts;
	struct vs_task *t, *web;
	struct vs_err e = { { 0 } };
	const struct vs_kv_spec app[] = { { "app", "web" } };
	const struct vs_sel_req_spec r = REQ("zone", VS_SEL_IN, "z1", "z9");
	const struct vs_node_selector_term_spec term = { .exprs = &r, .nr_exprs = 1 };
	const struct vs_node_selector_spec req = { .terms = &term, .nr_terms = 1 };
	const struct vs_node_affinity_spec na = { .required = &req };
	const struct vs_label_selector_spec sel = { .match_labels = app, .nr_match_labels = 1 };
	const struct vs_pod_affinity_term_spec pt = {
		.selector = &sel, .topology_key = "kubernetes.io/hostname",
	};
	const struct vs_pod_affinity_spec anti = { .required = &pt, .nr_required = 1 };
	const struct vs_affinity_spec aff = { .node_affinity = &na, .pod_anti_affinity = &anti };
	size_t before;

	cluster_setup(&cl);
	vs_task_spec_init(&ts, "ns", "web", "j");
	ts.labels = app;
	ts.nr_labels = 1;
	cr_assert_eq(vs_task_add(&cl, &ts, &web, &e), 0, "%s", e.msg);
	before = vs_strtab_count(&cl.strs);

	vs_task_spec_init(&ts, "ns", "t", "j");
	ts.affinity = &aff;
	cr_assert_eq(vs_task_add(&cl, &ts, &t, &e), 0, "%s", e.msg);
	cr_assert_not_null(t->affinity);
	cr_assert_null(web->affinity);
	cr_assert(vs_node_affinity_required_match(t->affinity, vs_node_find(&cl, "n1")));
	cr_assert_not(vs_node_affinity_required_match(t->affinity, vs_node_find(&cl, "n2")));
	cr_assert(vs_pod_affinity_term_match(&t->affinity->pod_anti_affinity->required[0],
					     t->ns, web));
	cr_assert_not(vs_pod_affinity_term_match(&t->affinity->pod_anti_affinity->required[0],
						 t->ns, t));
	check_cluster(&cl);

	vs_task_del(&cl, t);
	cr_assert_eq(vs_strtab_count(&cl.strs), before, "%zu strings before, %zu after",
		     before, vs_strtab_count(&cl.strs));
	check_cluster(&cl);
	vs_cluster_destroy(&cl);
}

Test(affinity, task_with_bad_affinity_is_refused_and_leaves_nothing)
{
	struct vs_cluster cl;
	struct vs_task_spec ts;
	struct vs_task *t = NULL;
	struct vs_err e = { { 0 } };
	const struct vs_kv_spec labels[] = { { "app", "new-label" } };
	const struct vs_toleration_spec tol = { "new-taint", VS_TOLERATION_EXISTS, NULL,
						VS_TAINT_EFFECT_ALL, false, 0 };
	const struct vs_sel_req_spec r = REQ0("zone", VS_SEL_IN);
	const struct vs_node_selector_term_spec terms[] = {
		{ .exprs = &r, .nr_exprs = 0 },
		{ .exprs = &r, .nr_exprs = 1 },
	};
	const struct vs_node_selector_spec req = { .terms = terms, .nr_terms = 2 };
	const struct vs_node_affinity_spec na = { .required = &req };
	const struct vs_affinity_spec aff = { .node_affinity = &na };
	size_t before;

	cluster_setup(&cl);
	before = vs_strtab_count(&cl.strs);
	vs_task_spec_init(&ts, "ns", "t", "j");
	ts.labels = labels;
	ts.nr_labels = 1;
	ts.tolerations = &tol;
	ts.nr_tolerations = 1;
	ts.affinity = &aff;
	cr_assert_eq(vs_task_add(&cl, &ts, &t, &e), -EINVAL);
	cr_assert_str_eq(e.msg,
			 "pod ns/t: affinity.nodeAffinity.required[1].matchExpressions[0]: operator In needs at least one value");
	cr_assert_null(vs_task_find(&cl, "ns", "t"));
	cr_assert_eq(cl.nr_tasks, 0);
	/* the labels and tolerations built before the affinity were freed */
	cr_assert_eq(vs_strtab_count(&cl.strs), before);
	check_cluster(&cl);
	vs_cluster_destroy(&cl);
}
