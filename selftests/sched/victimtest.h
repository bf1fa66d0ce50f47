/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the preempt and reclaim tests share: a cluster built object by
 * object, a scheduler started on a configuration text, a decision sink that
 * records binds and evictions, and a cycle that checks every invariant of
 * the cluster afterwards. Each test file includes it once; Criterion runs
 * every test in a process of its own.
 */
#ifndef VS_SELFTESTS_VICTIMTEST_H
#define VS_SELFTESTS_VICTIMTEST_H

#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>

#include "testreg.h"
#include "sched/session.h"

#define VT_MI		(1024LL * 1024)
#define VT_MAX		32

static struct vs_cluster vt_cl;
static struct vs_sched vt_sched;
static bool vt_started;

/* What the sink received, as "ns/name" (evictions with their reason). */
static char vt_evicts[VT_MAX][128];
static char vt_reasons[VT_MAX][32];
static int vt_nr_evicts;
static char vt_binds[VT_MAX][128];
static int vt_nr_binds;

static inline void vt_sink_evict(void *ctx, struct vs_task *t, const char *reason)
{
	cr_assert_lt(vt_nr_evicts, VT_MAX);
	snprintf(vt_evicts[vt_nr_evicts], sizeof(vt_evicts[0]), "%s/%s", t->ns, t->name);
	snprintf(vt_reasons[vt_nr_evicts++], sizeof(vt_reasons[0]), "%s", reason);
}

static inline void vt_sink_bind(void *ctx, struct vs_task *t, struct vs_node *n)
{
	cr_assert_lt(vt_nr_binds, VT_MAX);
	snprintf(vt_binds[vt_nr_binds++], sizeof(vt_binds[0]), "%s/%s=%s", t->ns, t->name,
		 n->name);
}

static inline bool vt_evicted(const char *key)
{
	for (int i = 0; i < vt_nr_evicts; i++)
		if (!strcmp(vt_evicts[i], key))
			return true;
	return false;
}

static inline void vt_setup(void)
{
	vt_started = false;
	vt_nr_evicts = vt_nr_binds = 0;
	cr_assert_eq(vs_cluster_init(&vt_cl), 0);
}

static inline void vt_teardown(void)
{
	if (vt_started)
		vs_sched_destroy(&vt_sched);
	vs_cluster_destroy(&vt_cl);
}

/* Parse @text (flags not written are on, as in a volcano-scheduler.conf). */
static inline int vt_try_start(const char *text, struct vs_err *e)
{
	struct vs_conf_names names;
	struct vs_conf *conf;
	int ret;

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(text, strlen(text), "t.conf", &names,
				   VS_CONF_FLAGS_DEFAULT_ON, &conf, e), 0, "%s", e->msg);
	ret = vs_sched_init(&vt_sched, &vt_cl, vs_test_registry(), conf, e);
	if (ret)
		return ret;
	vt_started = true;
	vt_sched.sink = (struct vs_decision_sink){ .bind = vt_sink_bind,
						   .evict = vt_sink_evict };
	return 0;
}

static inline void vt_start(const char *text)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vt_try_start(text, &e), 0, "%s", e.msg);
}

static inline struct vs_res vt_res(s64 mcpu)
{
	struct vs_res r;

	vs_res_clear(&r);
	vs_res_set(&r, VS_RES_CPU, mcpu);
	vs_res_set(&r, VS_RES_MEMORY, mcpu * VT_MI);
	return r;
}

static inline struct vs_queue *vt_queue(const char *name, u32 weight, bool reclaimable)
{
	struct vs_queue_spec spec;
	struct vs_queue *q;

	vs_queue_spec_init(&spec, name);
	spec.weight = weight;
	spec.reclaimable = reclaimable;
	cr_assert_eq(vs_queue_add(&vt_cl, &spec, &q, NULL), 0);
	return q;
}

static inline struct vs_node *vt_node(const char *name, s64 mcpu, s64 pods)
{
	struct vs_node_spec spec;
	struct vs_node *n;

	vs_node_spec_init(&spec, name);
	spec.allocatable = vt_res(mcpu);
	vs_res_set(&spec.allocatable, VS_RES_PODS, pods);
	cr_assert_eq(vs_node_add(&vt_cl, &spec, &n, NULL), 0);
	return n;
}

static inline void vt_pclass(const char *name, s32 value)
{
	struct vs_prioclass_spec spec = { .name = name, .value = value };

	cr_assert_eq(vs_prioclass_add(&vt_cl, &spec, NULL, NULL), 0);
}

static inline struct vs_job *vt_job(const char *name, const char *queue, u32 min_member,
				    enum vs_pg_phase phase, const char *pclass)
{
	struct vs_job_spec spec;
	struct vs_job *j;

	vs_job_spec_init(&spec, "ns", name);
	spec.queue = queue;
	spec.min_member = min_member;
	spec.phase = phase;
	spec.priority_class = pclass;
	cr_assert_eq(vs_job_add(&vt_cl, &spec, &j, NULL), 0);
	return j;
}

/* A spec for a task of @mcpu: Running on @node, or Pending when @node is NULL. */
static inline void vt_task_spec(struct vs_task_spec *spec, const char *name, const char *job,
				s64 mcpu, const char *node)
{
	vs_task_spec_init(spec, "ns", name, job);
	spec->req = vt_res(mcpu);
	spec->status = node ? VS_TASK_RUNNING : VS_TASK_PENDING;
	spec->node = node;
}

static inline struct vs_task *vt_add(const struct vs_task_spec *spec)
{
	struct vs_err e = { { 0 } };
	struct vs_task *t;

	cr_assert_eq(vs_task_add(&vt_cl, spec, &t, &e), 0, "%s", e.msg);
	return t;
}

static inline struct vs_task *vt_task(const char *name, const char *job, s64 mcpu,
				      const char *node)
{
	struct vs_task_spec spec;

	vt_task_spec(&spec, name, job, mcpu, node);
	return vt_add(&spec);
}

static inline void vt_check(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_check(&vt_cl, &e), 0, "%s", e.msg);
}

static inline void vt_cycle(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_sched_run_cycle(&vt_sched, &e), 0, "%s", e.msg);
	vt_check();
}

/* Open a session without running anything. */
static inline struct vs_session *vt_open(void)
{
	struct vs_session *ssn;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_session_open(&vt_sched, &ssn, &e), 0, "%s", e.msg);
	return ssn;
}

/* Open a session and run the actions, to look at it before it closes. */
static inline struct vs_session *vt_run_open(void)
{
	struct vs_session *ssn;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_session_open(&vt_sched, &ssn, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_session_run_actions(ssn, &e), 0, "%s", e.msg);
	vt_check();
	return ssn;
}

#endif /* VS_SELFTESTS_VICTIMTEST_H */
