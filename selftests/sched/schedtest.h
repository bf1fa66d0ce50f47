/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the scheduler tests share: a scheduler started on a configuration
 * text, with a session open on it, failing the test with the loader's
 * message when the text is refused.
 */
#ifndef VS_SELFTESTS_SCHEDTEST_H
#define VS_SELFTESTS_SCHEDTEST_H

#include <string.h>
#include <criterion/criterion.h>

#include "testreg.h"
#include "sched/session.h"

/* Flags not written in @text are on, as in a volcano-scheduler.conf. */
static inline void st_open(struct vs_sched *sched, struct vs_cluster *cl, const char *text,
			   struct vs_session **ssn)
{
	struct vs_conf_names names;
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(text, strlen(text), "t.conf", &names,
				   VS_CONF_FLAGS_DEFAULT_ON, &conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_init(sched, cl, vs_test_registry(), conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_session_open(sched, ssn, &e), 0, "%s", e.msg);
}

/* Only the plugin @name, with @args (a YAML flow mapping) as its arguments. */
static inline void st_open_plugin(struct vs_sched *sched, struct vs_cluster *cl, const char *name,
				  const char *args, struct vs_session **ssn)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "actions: allocate\ntiers:\n- plugins:\n  - name: %s\n    arguments: %s\n",
		 name, args);
	st_open(sched, cl, text, ssn);
}

/* A cluster for one plugin's tests: the queue "default", and the podgroup ns/j in it. */
static inline void st_cluster_one_job(struct vs_cluster *cl)
{
	struct vs_queue_spec qs;
	struct vs_job_spec js;

	cr_assert_eq(vs_cluster_init(cl), 0);
	vs_queue_spec_init(&qs, "default");
	cr_assert_eq(vs_queue_add(cl, &qs, NULL, NULL), 0);
	vs_job_spec_init(&js, "ns", "j");
	cr_assert_eq(vs_job_add(cl, &js, NULL, NULL), 0);
}

/*
 * Through PrePredicate then Predicate, as allocate calls them: NULL when
 * @n will do for @t, else the refusal's words (in @fe).
 */
static inline const char *st_refusal(struct vs_session *ssn, const struct vs_task *t,
				     const struct vs_node *n, struct vs_fit_error *fe)
{
	memset(fe, 0, sizeof(*fe));
	cr_assert_eq(vs_ssn_pre_predicate(ssn, t, fe), 0, "%s", fe->reason);
	if (!vs_ssn_predicate(ssn, t, n, fe))
		return NULL;
	return fe->reason;
}

/* Resources of @mcpu millicores and @mem bytes, nothing else. */
static inline struct vs_res st_res(s64 mcpu, s64 mem)
{
	struct vs_res r;

	vs_res_clear(&r);
	vs_res_set(&r, VS_RES_CPU, mcpu);
	vs_res_set(&r, VS_RES_MEMORY, mem);
	return r;
}

/* A node of @cl with @mcpu, @mem and @pods allocatable. */
static inline struct vs_node *st_node(struct vs_cluster *cl, const char *name, s64 mcpu, s64 mem,
				      s64 pods)
{
	struct vs_node_spec spec;
	struct vs_node *n;
	struct vs_err e = { { 0 } };

	vs_node_spec_init(&spec, name);
	spec.allocatable = st_res(mcpu, mem);
	vs_res_set(&spec.allocatable, VS_RES_PODS, pods);
	cr_assert_eq(vs_node_add(cl, &spec, &n, &e), 0, "%s", e.msg);
	return n;
}

/* A queue of @cl with the defaults (weight 1, Open). */
static inline struct vs_queue *st_queue(struct vs_cluster *cl, const char *name)
{
	struct vs_queue_spec spec;
	struct vs_queue *q;
	struct vs_err e = { { 0 } };

	vs_queue_spec_init(&spec, name);
	cr_assert_eq(vs_queue_add(cl, &spec, &q, &e), 0, "%s", e.msg);
	return q;
}

/* A PodGroup @ns/@name of @queue, of @min_member, in @phase. */
static inline struct vs_job *st_job(struct vs_cluster *cl, const char *ns, const char *name,
				    const char *queue, u32 min_member, enum vs_pg_phase phase)
{
	struct vs_job_spec spec;
	struct vs_job *job;
	struct vs_err e = { { 0 } };

	vs_job_spec_init(&spec, ns, name);
	spec.queue = queue;
	spec.min_member = min_member;
	spec.phase = phase;
	cr_assert_eq(vs_job_add(cl, &spec, &job, &e), 0, "%s", e.msg);
	return job;
}

/*
 * A task @ns/@name of PodGroup @job, asking @mcpu and @mem, in @status;
 * @n is its node for the statuses that hold one.
 */
static inline struct vs_task *st_task_on(struct vs_cluster *cl, const char *ns, const char *name,
					 const char *job, s64 mcpu, s64 mem,
					 enum vs_task_status status, const struct vs_node *n)
{
	struct vs_task_spec spec;
	struct vs_task *task;
	struct vs_err e = { { 0 } };

	vs_task_spec_init(&spec, ns, name, job);
	spec.req = st_res(mcpu, mem);
	spec.status = status;
	spec.node = n ? n->name : NULL;
	cr_assert_eq(vs_task_add(cl, &spec, &task, &e), 0, "%s", e.msg);
	return task;
}

/* A pending task @ns/@name of PodGroup @job, asking @mcpu and @mem. */
static inline struct vs_task *st_task(struct vs_cluster *cl, const char *ns, const char *name,
				      const char *job, s64 mcpu, s64 mem)
{
	return st_task_on(cl, ns, name, job, mcpu, mem, VS_TASK_PENDING, NULL);
}

#endif /* VS_SELFTESTS_SCHEDTEST_H */
