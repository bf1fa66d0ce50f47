/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the controller tests share: a cluster with a controller context whose
 * hooks count what the controllers did, builders for queues, nodes and
 * VolcanoJobs, and the invariant check every test ends with.
 */
#ifndef VS_SELFTESTS_CTLTEST_H
#define VS_SELFTESTS_CTLTEST_H

#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "controllers/jobctl.h"
#include "controllers/pgctl.h"
#include "controllers/qctl.h"

#define GI (1024LL * 1024 * 1024)

struct ct_counts {
	int task_added, task_removing, pg_added, pg_removing, vjob_changed, queue_changed;
	enum vs_vjob_phase phases[32];	/* every phase a VolcanoJob moved to, in order */
	int nr_phases;
};

static struct vs_cluster cl;
static struct vs_ctl ctl;
static struct ct_counts counts;

static void ct_task_added(void *c, struct vs_task *t) { counts.task_added++; }
static void ct_task_removing(void *c, struct vs_task *t) { counts.task_removing++; }
static void ct_pg_added(void *c, struct vs_job *pg) { counts.pg_added++; }
static void ct_pg_removing(void *c, struct vs_job *pg) { counts.pg_removing++; }

static void ct_vjob_changed(void *c, struct vs_vjob *v, enum vs_vjob_phase old)
{
	counts.vjob_changed++;
	if (v->phase != old && counts.nr_phases < (int)ARRAY_SIZE(counts.phases))
		counts.phases[counts.nr_phases++] = v->phase;
}

static void ct_queue_changed(void *c, struct vs_queue *q, enum vs_queue_state old)
{
	counts.queue_changed++;
}

static const struct vs_ctl_hooks ct_hooks = {
	.task_added		= ct_task_added,
	.task_removing		= ct_task_removing,
	.podgroup_added		= ct_pg_added,
	.podgroup_removing	= ct_pg_removing,
	.vjob_changed		= ct_vjob_changed,
	.queue_changed		= ct_queue_changed,
};

static inline void ct_check(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_check(&cl, &e), 0, "%s", e.msg);
}

static inline struct vs_res ct_res(s64 mcpu, s64 mem)
{
	struct vs_res r;

	vs_res_clear(&r);
	vs_res_set(&r, VS_RES_CPU, mcpu);
	vs_res_set(&r, VS_RES_MEMORY, mem);
	return r;
}

static inline struct vs_queue *ct_queue(const char *name, enum vs_queue_state state,
					const char *parent)
{
	struct vs_queue_spec qs;
	struct vs_queue *q;
	struct vs_err e = { { 0 } };

	vs_queue_spec_init(&qs, name);
	qs.state = state;
	qs.parent = parent;
	cr_assert_eq(vs_queue_add(&cl, &qs, &q, &e), 0, "%s", e.msg);
	return q;
}

static inline struct vs_node *ct_node(const char *name, s64 mcpu)
{
	struct vs_node_spec spec;
	struct vs_node *n;

	vs_node_spec_init(&spec, name);
	spec.allocatable = ct_res(mcpu, 16 * GI);
	vs_res_set(&spec.allocatable, VS_RES_PODS, 110);
	cr_assert_eq(vs_node_add(&cl, &spec, &n, NULL), 0);
	return n;
}

/* A cluster with an Open "default" queue. */
static inline void ct_setup(void)
{
	memset(&counts, 0, sizeof(counts));
	cr_assert_eq(vs_cluster_init(&cl), 0);
	vs_ctl_init(&ctl, &cl, &ct_hooks, NULL);
	ct_queue("default", VS_QUEUE_OPEN, NULL);
}

static inline void ct_teardown(void)
{
	ct_check();
	vs_cluster_destroy(&cl);
}

/* A task group of a VolcanoJob spec: @mcpu millicores and 1Gi per replica. */
static inline struct vs_vjob_task_spec ct_vtask(const char *name, u32 replicas, s64 mcpu)
{
	struct vs_vjob_task_spec t;

	memset(&t, 0, sizeof(t));
	t.name = name;
	t.replicas = replicas;
	t.req = ct_res(mcpu, GI);
	return t;
}

/* Add a VolcanoJob from @spec, after Volcano's admission. */
static inline struct vs_vjob *ct_vjob_spec(const struct vs_vjob_spec *spec)
{
	struct vs_vjob *v;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_jobctl_admit(&ctl, spec, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_vjob_add(&cl, spec, &v, &e), 0, "%s", e.msg);
	return v;
}

/* A VolcanoJob in ns, queue "default", of @nr task groups, with the defaults. */
static inline struct vs_vjob *ct_vjob(const char *name, const struct vs_vjob_task_spec *tasks,
				      u32 nr)
{
	struct vs_vjob_spec spec;

	vs_vjob_spec_init(&spec, "ns", name);
	spec.tasks = tasks;
	spec.nr_tasks = nr;
	return ct_vjob_spec(&spec);
}

/* The same with a job-wide minAvailable of @min_available. */
static inline struct vs_vjob *ct_vjob_min(const char *name, const struct vs_vjob_task_spec *tasks,
					  u32 nr, u32 min_available)
{
	struct vs_vjob_spec spec;

	vs_vjob_spec_init(&spec, "ns", name);
	spec.tasks = tasks;
	spec.nr_tasks = nr;
	spec.has_min_available = true;
	spec.min_available = min_available;
	return ct_vjob_spec(&spec);
}

static inline struct vs_task *ct_task(const char *name)
{
	return vs_task_find(&cl, "ns", name);
}

static inline void ct_sync(struct vs_vjob *v)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_jobctl_sync(&ctl, v, &e), 0, "%s", e.msg);
	ct_check();
}

/* The outside world moves @t to @status (on @node if it has none yet) and says so. */
static inline void ct_report(struct vs_task *t, enum vs_task_status status, s32 exit_code,
			     struct vs_node *node)
{
	enum vs_task_status old = t->status;
	struct vs_err e = { { 0 } };

	if (!t->node && node)
		cr_assert_eq(vs_task_place(&cl, t, node, status, &e), 0, "%s", e.msg);
	else
		cr_assert_eq(vs_task_set_status(&cl, t, status, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_ctl_task_updated(&ctl, t, old, exit_code, &e), 0, "%s", e.msg);
	ct_check();
}

#endif /* VS_SELFTESTS_CTLTEST_H */
