// SPDX-License-Identifier: Apache-2.0
/*
 * A scenario's podgroups[].preemptable (harness/scenario_load.c): true or
 * false is the PodGroup's volcano.sh/preemptable, no key leaves it unset,
 * another value is refused naming the key, and "vsctl scenario run
 * --socket" sends it (harness/encode.h).
 */
#include <string.h>
#include <criterion/criterion.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "core/cluster.h"
#include "core/job.h"
#include "harness/encode.h"
#include "harness/scenario.h"

static const char text[] =
	"actions: [allocate]\n"
	"queues:\n"
	"  - {name: q1, weight: 1}\n"
	"podgroups:\n"
	"  - {name: pt, namespace: ns, queue: q1, preemptable: true}\n"
	"  - {name: pf, namespace: ns, queue: q1, preemptable: false}\n"
	"  - {name: plain, namespace: ns, queue: q1}\n";

static struct scenario scn;

static void fini(void)
{
	scenario_free(&scn);
}

TestSuite(harness_scenario_pg, .fini = fini);

static enum vs_pg_preemptable preemptable(const char *name)
{
	const struct vs_job *job = vs_job_find(&scn.cl, "ns", name);

	cr_assert_not_null(job, "no podgroup %s", name);
	return (enum vs_pg_preemptable)job->preemptable;
}

Test(harness_scenario_pg, preemptable_is_the_podgroups_and_absent_is_unset)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(scenario_load_text(&scn, "s.yaml", text, strlen(text), &e), 0, "%s", e.msg);
	cr_assert_eq(preemptable("pt"), VS_PG_PREEMPTABLE_TRUE);
	cr_assert_eq(preemptable("pf"), VS_PG_PREEMPTABLE_FALSE);
	cr_assert_eq(preemptable("plain"), VS_PG_PREEMPTABLE_UNSET);
}

Test(harness_scenario_pg, a_value_that_is_no_boolean_is_refused_by_its_key)
{
	static const char bad[] =
		"actions: [allocate]\n"
		"queues:\n"
		"  - {name: q1, weight: 1}\n"
		"podgroups:\n"
		"  - {name: pg, namespace: ns, queue: q1, preemptable: maybe}\n";
	struct vs_err e = { { 0 } };

	cr_assert_neq(scenario_load_text(&scn, "s.yaml", bad, strlen(bad), &e), 0);
	cr_assert(strstr(e.msg, "s.yaml:5") && strstr(e.msg, "preemptable") &&
		  strstr(e.msg, "true or false"), "%s", e.msg);
}

struct pg_seen {
	int v[3];			/* pt, pf, plain: 0, 1, -1 when absent */
	u32 nr;
};

static int record(const struct harness_msg *msg, void *arg)
{
	struct pg_seen *s = arg;
	const struct nlattr *a;
	const char *name = NULL;
	int v = -1;

	if (msg->kind != HARNESS_PODGROUP)
		return 0;
	mnl_attr_for_each(a, msg->nlh, GENL_HDRLEN) {
		const struct nlattr *b;

		if (mnl_attr_get_type(a) != VS_A_PODGROUP)
			continue;
		mnl_attr_for_each_nested(b, a) {
			if (mnl_attr_get_type(b) == VS_PG_A_NAME)
				name = mnl_attr_get_str(b);
			else if (mnl_attr_get_type(b) == VS_PG_A_PREEMPTABLE)
				v = mnl_attr_get_u8(b);
		}
	}
	cr_assert_not_null(name);
	cr_assert_str_eq(name, msg->name);
	cr_assert_lt(s->nr, 3);
	s->v[s->nr++] = v;
	return 0;
}

Test(harness_scenario_pg, a_remote_run_sends_it)
{
	static char buf[1 << 16] __attribute__((aligned(4)));
	struct vs_err e = { { 0 } };
	struct vsnl_err err = { 0 };
	struct pg_seen s = { { 0 }, 0 };

	cr_assert_eq(scenario_load_text(&scn, "s.yaml", text, strlen(text), &e), 0, "%s", e.msg);
	cr_assert_eq(harness_encode_cluster(&scn.cl, buf, sizeof(buf), record, &s, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(s.nr, 3);
	cr_assert_eq(s.v[0], 1);
	cr_assert_eq(s.v[1], 0);
	cr_assert_eq(s.v[2], -1);
}
