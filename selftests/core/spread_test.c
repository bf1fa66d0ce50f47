// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for topology spread constraints (core/spread.h): the API server's
 * validation of them, and which pods a constraint's selector picks once
 * the owner's matchLabelKeys values join it.
 */
#include <string.h>
#include <criterion/criterion.h>

#include "core/labels.h"
#include "core/spread.h"
#include "strtest.h"

STRS_SUITE(spread);

static const struct vs_kv_spec app_web[] = { { "app", "web" } };
static const struct vs_label_selector_spec sel_web = { .match_labels = app_web,
							.nr_match_labels = 1 };
static const struct vs_label_selector_spec sel_all = { 0 };

static struct vs_spread_constraint_spec zone(s32 skew, enum vs_spread_action when)
{
	return (struct vs_spread_constraint_spec){
		.max_skew = skew, .topology_key = "topology.kubernetes.io/zone", .when = when,
		.selector = &sel_web,
	};
}

static int build(const struct vs_spread_constraint_spec *s, u32 nr, struct vs_err *e)
{
	struct vs_spread_constraints *sc;
	int ret;

	memset(e, 0, sizeof(*e));
	ret = vs_spread_constraints_new(&strs, s, nr, &sc, e);
	if (!ret)
		vs_spread_constraints_free(&strs, sc);
	else
		cr_assert_null(sc);
	return ret;
}

static struct vs_labels *labels(const struct vs_kv_spec *kv, u32 nr)
{
	struct vs_labels *l;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_labels_new(&strs, kv, nr, "label", &l, &e), 0, "%s", e.msg);
	return l;
}

Test(spread, constraints_are_built_with_their_defaults)
{
	struct vs_spread_constraint_spec s[] = {
		zone(1, VS_SPREAD_DO_NOT_SCHEDULE), zone(2, VS_SPREAD_SCHEDULE_ANYWAY),
	};
	struct vs_spread_constraints *sc;
	struct vs_err e = { { 0 } };

	s[0].min_domains = 3;
	s[1].node_taints_policy = VS_INCLUSION_HONOR;
	s[1].node_affinity_policy = VS_INCLUSION_IGNORE;
	cr_assert_eq(vs_spread_constraints_new(&strs, s, 2, &sc, &e), 0, "%s", e.msg);
	cr_assert_eq(sc->nr, 2);
	cr_assert_str_eq(sc->c[0].topology_key, "topology.kubernetes.io/zone");
	cr_assert_eq(vs_spread_min_domains(&sc->c[0]), 3);
	cr_assert_eq(vs_spread_min_domains(&sc->c[1]), 1, "unset is 1");
	cr_assert(vs_spread_honors_affinity(&sc->c[0]), "nodeAffinityPolicy: Honor by default");
	cr_assert_not(vs_spread_honors_taints(&sc->c[0]), "nodeTaintsPolicy: Ignore by default");
	cr_assert_not(vs_spread_honors_affinity(&sc->c[1]));
	cr_assert(vs_spread_honors_taints(&sc->c[1]));
	vs_spread_constraints_free(&strs, sc);
	cr_assert_eq(vs_spread_constraints_new(&strs, NULL, 0, &sc, &e), 0);
	cr_assert_null(sc);
}

/* The API server's messages, by the entry and field. */
Test(spread, invalid_constraints_are_refused_by_field)
{
	static const char *const keys[] = { "pod-template-hash" };
	static const char *const app[] = { "app" };
	static const char *const bad_key[] = { "-x" };
	struct vs_spread_constraint_spec s[2];
	struct vs_err e;

	s[0] = zone(0, VS_SPREAD_DO_NOT_SCHEDULE);
	cr_assert_eq(build(s, 1, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "topologySpreadConstraints[0].maxSkew: 0 must be greater than "
			 "zero");
	s[0] = zone(1, VS_SPREAD_DO_NOT_SCHEDULE);
	s[0].topology_key = "";
	cr_assert_eq(build(s, 1, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "topologySpreadConstraints[0].topologyKey: can not be empty");
	s[0] = zone(1, VS_SPREAD_DO_NOT_SCHEDULE);
	s[1] = zone(2, VS_SPREAD_DO_NOT_SCHEDULE);
	cr_assert_eq(build(s, 2, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "topologySpreadConstraints[1].{topologyKey, whenUnsatisfiable}: "
			 "duplicate {topology.kubernetes.io/zone, DoNotSchedule} (entry 0)");
	s[1].when = VS_SPREAD_SCHEDULE_ANYWAY;
	cr_assert_eq(build(s, 2, &e), 0, "%s", e.msg);
	s[1].min_domains = 2;
	cr_assert_eq(build(s, 2, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "topologySpreadConstraints[1].minDomains: can only use "
			 "minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway");
	s[0].min_domains = -1;
	cr_assert_eq(build(s, 1, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "topologySpreadConstraints[0].minDomains: -1 must be greater "
			 "than zero");
	s[0] = zone(1, VS_SPREAD_DO_NOT_SCHEDULE);
	s[0].match_label_keys = keys;
	s[0].nr_match_label_keys = 1;
	s[0].selector = NULL;
	cr_assert_eq(build(s, 1, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "topologySpreadConstraints[0].matchLabelKeys: must not be "
			 "specified when labelSelector is not set");
	s[0].selector = &sel_web;
	cr_assert_eq(build(s, 1, &e), 0, "%s", e.msg);
	s[0].match_label_keys = app;
	cr_assert_eq(build(s, 1, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "topologySpreadConstraints[0].matchLabelKeys[0]: \"app\" exists "
			 "in both matchLabelKeys and labelSelector");
	s[0].match_label_keys = bad_key;
	cr_assert_eq(build(s, 1, &e), -EINVAL);
	cr_assert(strstr(e.msg, "topologySpreadConstraints[0].matchLabelKeys[0]: "), "%s", e.msg);
}

/*
 * A selector picks by its labels, the owner's matchLabelKeys values joined;
 * an empty one picks every pod but counts none (kube-scheduler's Empty()),
 * unless a joined value makes it non-empty; an absent one picks none.
 */
Test(spread, selectors_join_the_owners_match_label_keys)
{
	static const char *const hash[] = { "pod-template-hash" };
	static const struct vs_kv_spec k1[] = { { "app", "web" }, { "pod-template-hash", "1" } };
	static const struct vs_kv_spec k2[] = { { "app", "web" }, { "pod-template-hash", "2" } };
	static const struct vs_kv_spec k3[] = { { "app", "db" } };
	struct vs_spread_constraint_spec s[] = { zone(1, VS_SPREAD_DO_NOT_SCHEDULE) };
	struct vs_labels *v1 = labels(k1, 2), *v2 = labels(k2, 2), *db = labels(k3, 1);
	struct vs_spread_constraints *sc;
	struct vs_err e = { { 0 } };

	s[0].match_label_keys = hash;
	s[0].nr_match_label_keys = 1;
	cr_assert_eq(vs_spread_constraints_new(&strs, s, 1, &sc, &e), 0, "%s", e.msg);
	cr_assert(vs_spread_selects(&sc->c[0], v1, v1));
	cr_assert_not(vs_spread_selects(&sc->c[0], v1, v2), "another template's hash");
	cr_assert_not(vs_spread_selects(&sc->c[0], v1, db));
	cr_assert(vs_spread_selects(&sc->c[0], db, v2), "the owner has no hash: not joined");
	cr_assert_not(vs_spread_selector_empty(&sc->c[0], db));
	vs_spread_constraints_free(&strs, sc);

	s[0].selector = &sel_all;
	cr_assert_eq(vs_spread_constraints_new(&strs, s, 1, &sc, &e), 0, "%s", e.msg);
	cr_assert(vs_spread_selects(&sc->c[0], db, v1));
	cr_assert(vs_spread_selector_empty(&sc->c[0], db), "empty: counts no pod");
	cr_assert_not(vs_spread_selector_empty(&sc->c[0], v1), "the hash joined");
	cr_assert_not(vs_spread_selects(&sc->c[0], v1, v2));
	vs_spread_constraints_free(&strs, sc);

	s[0].selector = NULL;
	s[0].nr_match_label_keys = 0;
	cr_assert_eq(vs_spread_constraints_new(&strs, s, 1, &sc, &e), 0, "%s", e.msg);
	cr_assert_not(vs_spread_selects(&sc->c[0], v1, v1), "no selector: no pod");
	cr_assert_not(vs_spread_selector_empty(&sc->c[0], v1));
	vs_spread_constraints_free(&strs, sc);
	vs_labels_free(&strs, v1);
	vs_labels_free(&strs, v2);
	vs_labels_free(&strs, db);
}

Test(spread, names_parse_as_the_api_spells_them)
{
	enum vs_spread_action a;
	enum vs_inclusion_policy p;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_spread_action_parse("ScheduleAnyway", &a, &e), 0);
	cr_assert_eq(a, VS_SPREAD_SCHEDULE_ANYWAY);
	cr_assert_eq(vs_spread_action_parse("scheduleAnyway", &a, &e), -EINVAL);
	cr_assert(strstr(e.msg, "DoNotSchedule"), "%s", e.msg);
	cr_assert_eq(vs_inclusion_policy_parse(NULL, &p, &e), 0);
	cr_assert_eq(p, VS_INCLUSION_UNSET);
	cr_assert_eq(vs_inclusion_policy_parse("Honor", &p, &e), 0);
	cr_assert_eq(p, VS_INCLUSION_HONOR);
	cr_assert_str_eq(vs_inclusion_policy_name(VS_INCLUSION_IGNORE), "Ignore");
	cr_assert_eq(vs_inclusion_policy_parse("honor", &p, &e), -EINVAL);
}
