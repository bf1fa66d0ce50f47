// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for a session's sub-jobs (sched/subjob.h): which tasks a
 * subGroupPolicy groups together and how, the ids and order Volcano gives
 * them, and gang's conditions over them as a Statement places tasks.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "schedtest.h"
#include "sched/statement.h"
#include "sched/subjob.h"

#define GI (1024LL * 1024 * 1024)
#define GANG_CONF "actions: allocate\ntiers:\n- plugins:\n  - name: gang\n  - name: priority\n"

static struct vs_cluster cl;
static struct vs_sched sched;
static struct vs_session *ssn;

static void setup(void)
{
	cr_assert_eq(vs_cluster_init(&cl), 0);
	st_queue(&cl, "q");
}

static void teardown(void)
{
	vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
}

TestSuite(subjob, .init = setup, .fini = teardown);

/* PodGroup ns/pg with minMember @min and the policies @sgs. */
static struct vs_job *pg(u32 min, const struct vs_subgroup_policy_spec *sgs, u32 nr)
{
	struct vs_job_spec spec;
	struct vs_job *job;
	struct vs_err e = { { 0 } };

	vs_job_spec_init(&spec, "ns", "pg");
	spec.queue = "q";
	spec.min_member = min;
	spec.phase = VS_PG_INQUEUE;
	spec.subgroups = sgs;
	spec.nr_subgroups = nr;
	cr_assert_eq(vs_job_add(&cl, &spec, &job, &e), 0, "%s", e.msg);
	return job;
}

/* A pending pod of ns/pg asking 1 cpu, with @nr labels "k=v" and priority @prio. */
static struct vs_task *pod(const char *name, s32 prio, u32 nr, ...)
{
	struct vs_kv_spec labels[4];
	struct vs_task_spec spec;
	struct vs_task *task;
	struct vs_err e = { { 0 } };
	va_list ap;

	va_start(ap, nr);
	for (u32 i = 0; i < nr; i++) {
		labels[i].key = va_arg(ap, const char *);
		labels[i].value = va_arg(ap, const char *);
	}
	va_end(ap);
	vs_task_spec_init(&spec, "ns", name, "pg");
	spec.req = st_res(1000, GI);
	spec.priority = prio;
	spec.labels = labels;
	spec.nr_labels = nr;
	cr_assert_eq(vs_task_add(&cl, &spec, &task, &e), 0, "%s", e.msg);
	return task;
}

static const char *const grp_key[] = { "grp" };
static const char *const two_keys[] = { "grp", "idx" };

Test(subjob, tasks_grouped_by_the_first_policy_that_takes_them)
{
	static const struct vs_kv_spec role_w[] = { { "role", "worker" } };
	static const struct vs_label_selector_spec workers = { .match_labels = role_w,
								.nr_match_labels = 1 };
	const struct vs_subgroup_policy_spec sgs[] = {
		/* no matchLabelKeys: takes no pod */
		{ .name = "none", .sub_group_size = 1 },
		{ .name = "w", .sub_group_size = 2, .selector = &workers,
		  .match_label_keys = two_keys, .nr_match_label_keys = 2 },
		{ .name = "g", .sub_group_size = 3, .match_label_keys = grp_key,
		  .nr_match_label_keys = 1 },
	};
	struct vs_job *job = pg(1, sgs, ARRAY_SIZE(sgs));
	struct vs_task *w0 = pod("w0", 5, 3, "role", "worker", "grp", "a", "idx", "7");
	struct vs_task *w1 = pod("w1", 9, 3, "role", "worker", "grp", "a", "idx", "7");
	struct vs_task *m0 = pod("m0", 1, 2, "role", "master", "grp", "a");
	struct vs_task *e0 = pod("e0", -4, 2, "grp", "", "idx", "7");	/* empty value */
	struct vs_task *n0 = pod("n0", 0, 0);
	const struct vs_subjobs *sjs;
	const struct vs_subjob *sj;

	st_open(&sched, &cl, GANG_CONF, &ssn);
	sjs = vs_subjobs_of(ssn, job);
	cr_assert_not_null(sjs);
	cr_assert_eq(sjs->nr, 3);

	sj = vs_subjob_of(ssn, w0);
	cr_assert_eq(sj, vs_subjob_of(ssn, w1));
	cr_assert_str_eq(sj->uid, "ns/pg/w-a-7");
	cr_assert_eq(sj->min_available, 2);
	cr_assert_eq(sj->priority, 9);
	cr_assert_eq(sj->match_index, 0);	/* "a" is no number */
	cr_assert_eq(sj->nr_tasks, 2);

	sj = vs_subjob_of(ssn, m0);
	cr_assert_str_eq(sj->uid, "ns/pg/g-a");
	cr_assert_eq(sj->min_available, 3);

	/* the default sub-job, last: minimum one, its tasks' priority never below 0 */
	sj = vs_subjob_of(ssn, e0);
	cr_assert_eq(sj, vs_subjob_of(ssn, n0));
	cr_assert_eq(sj, &sjs->sj[2]);
	cr_assert_eq(sj->policy, VS_SUBJOB_DEFAULT);
	cr_assert_str_eq(sj->uid, "ns/pg");
	cr_assert_eq(sj->min_available, 1);
	cr_assert_eq(sj->priority, 0);
	vs_session_close(ssn);
}

Test(subjob, a_job_without_a_policy_has_none)
{
	struct vs_job *job = pg(1, NULL, 0);
	struct vs_task *t = pod("t", 0, 1, "grp", "a");

	st_open(&sched, &cl, GANG_CONF, &ssn);
	cr_assert_null(vs_subjobs_of(ssn, job));
	cr_assert_null(vs_subjob_of(ssn, t));
	cr_assert(vs_job_check_subjob_valid(ssn, job));
	vs_session_close(ssn);
}

Test(subjob, ids_past_128_bytes_are_hashed_and_numbers_index)
{
	static const char *const three_keys[] = { "grp", "idx", "z" };
	const struct vs_subgroup_policy_spec sgs[] = {
		{ .name = "g", .sub_group_size = 1, .match_label_keys = three_keys,
		  .nr_match_label_keys = 3 },
	};
	char x[64], y[64];
	struct vs_task *a, *b, *c;
	const struct vs_subjob *sj;

	memset(x, 'x', 63);
	x[63] = '\0';
	memset(y, 'y', 63);
	y[63] = '\0';
	pg(1, sgs, 1);
	a = pod("a", 0, 3, "grp", "12", "idx", "3", "z", "z");
	b = pod("b", 0, 3, "grp", x, "idx", "y", "z", "z");
	c = pod("c", 0, 3, "grp", x, "idx", y, "z", "z");
	st_open(&sched, &cl, GANG_CONF, &ssn);
	sj = vs_subjob_of(ssn, a);
	cr_assert_str_eq(sj->uid, "ns/pg/g-12-3-z");
	cr_assert_eq(sj->match_index, 12);
	/* 67 bytes: kept */
	cr_assert_eq(strlen(vs_subjob_of(ssn, b)->uid), strlen("ns/pg/g-") + 67);
	/* 129: FNV-1a of the id, its decimal digits spelled as SafeEncodeString spells them */
	cr_assert_str_eq(vs_subjob_of(ssn, c)->uid, "ns/pg/g-649bcf68c6");
	vs_session_close(ssn);
}

Test(subjob, gang_counts_ready_subgroups_as_a_statement_places)
{
	const struct vs_subgroup_policy_spec sgs[] = {
		{ .name = "g", .sub_group_size = 2, .min_sub_groups = 2,
		  .match_label_keys = grp_key, .nr_match_label_keys = 1 },
	};
	struct vs_job *job = pg(1, sgs, 1);
	struct vs_task *a0 = pod("a0", 0, 1, "grp", "a"), *a1 = pod("a1", 0, 1, "grp", "a");
	struct vs_task *b0 = pod("b0", 0, 1, "grp", "b"), *b1 = pod("b1", 9, 1, "grp", "b");
	struct vs_node *n = st_node(&cl, "n", 8000, 16 * GI, 10);
	struct vs_subjob *sa, *sb;
	struct vs_statement *st;

	st_open(&sched, &cl, GANG_CONF, &ssn);
	sa = vs_subjob_of(ssn, a0);
	sb = vs_subjob_of(ssn, b0);
	cr_assert(vs_job_check_subjob_valid(ssn, job));
	cr_assert_not(vs_ssn_job_ready(ssn, job));
	/* priority first: b holds the higher priority task */
	cr_assert_lt(vs_ssn_subjob_order(ssn, sb, sa), 0);

	st = vs_stmt_new(ssn);
	cr_assert_eq(vs_stmt_allocate(st, a0, n, NULL), 0);
	cr_assert_eq(vs_stmt_allocate(st, a1, n, NULL), 0);
	cr_assert(vs_ssn_subjob_ready(ssn, sa));
	cr_assert_not(vs_ssn_subjob_ready(ssn, sb));
	/* minMember 1 is met, one sub-group of two is not enough */
	cr_assert_not(vs_ssn_job_ready(ssn, job));
	/* ready ones go last, before priority */
	cr_assert_gt(vs_ssn_subjob_order(ssn, sa, sb), 0);
	cr_assert_eq(vs_stmt_pipeline(st, b0, n, false, NULL), 0);
	cr_assert_eq(vs_stmt_allocate(st, b1, n, NULL), 0);
	cr_assert_not(vs_ssn_subjob_ready(ssn, sb));
	cr_assert(vs_ssn_subjob_pipelined(ssn, sb));
	cr_assert_not(vs_ssn_job_ready(ssn, job));
	cr_assert(vs_ssn_job_pipelined(ssn, job));
	vs_stmt_discard(st);
	cr_assert_not(vs_ssn_subjob_ready(ssn, sa));
	vs_session_close(ssn);
}

Test(subjob, the_core_keeps_a_subjobs_allocated_hypernode_by_id)
{
	struct vs_job *job = pg(1, NULL, 0);

	cr_assert_null(vs_job_subjob_hn(job, "ns/pg/g-a"));
	cr_assert_eq(vs_job_set_subjob_hn(&cl, job, "ns/pg/g-a", "s0"), 0);
	cr_assert_eq(vs_job_set_subjob_hn(&cl, job, "ns/pg/g-b", "s1"), 0);
	cr_assert_eq(vs_job_set_subjob_hn(&cl, job, "ns/pg/g-a", "s2"), 0);
	cr_assert_str_eq(vs_job_subjob_hn(job, "ns/pg/g-a"), "s2");
	cr_assert_str_eq(vs_job_subjob_hn(job, "ns/pg/g-b"), "s1");
	cr_assert_eq(vs_job_set_subjob_hn(&cl, job, "ns/pg/g-a", NULL), 0);
	cr_assert_null(vs_job_subjob_hn(job, "ns/pg/g-a"));
	cr_assert_str_eq(vs_job_subjob_hn(job, "ns/pg/g-b"), "s1");
	cr_assert_eq(job->nr_sub_hns, 1);
	/* the rest goes with the job (the sanitizer build and valgrind would see a leak) */
}
