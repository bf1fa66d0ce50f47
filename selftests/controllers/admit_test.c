// SPDX-License-Identifier: Apache-2.0
/*
 * Kubernetes' priority admission, asked for with a task: the class named
 * gives the priority and preemption policy that were not given, else the
 * global default class (which the task then names), else priority 0; a
 * class the cluster does not have is refused; without the request nothing
 * changes (Volcano's 1 for a pod without priority).
 */
#include "ctltest.h"
#include "controllers/admit.h"

TestSuite(admit, .init = ct_setup, .fini = ct_teardown);

static const struct vs_ctl_pod admit = { .admit = true };

static void prioclass(const char *name, s32 value, bool def, enum vs_preemption_policy policy)
{
	struct vs_prioclass_spec pcs = {
		.name = name, .value = value, .global_default = def, .preemption_policy = policy,
	};

	cr_assert_eq(vs_prioclass_add(&cl, &pcs, NULL, NULL), 0);
}

/* A bare task ns/@name naming @class (NULL: none), through @pod. */
static int add(const char *name, const char *class, const struct vs_ctl_pod *pod,
	       struct vs_task **out, struct vs_err *e)
{
	struct vs_task_spec ts;

	vs_task_spec_init(&ts, "ns", name, NULL);
	ts.priority_class = class;
	return vs_ctl_task_add(&ctl, &ts, pod, out, e);
}

Test(admit, a_named_class_gives_its_value_and_policy)
{
	struct vs_task *t;
	struct vs_err e = { { 0 } };

	prioclass("high", 1000, false, VS_PREEMPT_NEVER);
	cr_assert_eq(add("p", "high", &admit, &t, &e), 0, "%s", e.msg);
	cr_assert_eq(t->priority, 1000);
	cr_assert_eq(t->preemption_policy, VS_PREEMPT_NEVER);
	cr_assert_str_eq(t->priority_class, "high");
	cr_assert_str_eq(t->job->priority_class, "high", "the PodGroup made for it too");
}

Test(admit, no_class_takes_the_global_default_else_zero)
{
	struct vs_task *t;
	struct vs_err e = { { 0 } };

	cr_assert_eq(add("p0", NULL, &admit, &t, &e), 0, "%s", e.msg);
	cr_assert_eq(t->priority, 0, "no default class: 0, not Volcano's 1");
	cr_assert_null(t->priority_class);
	cr_assert_eq(t->preemption_policy, VS_PREEMPT_LOWER_PRIORITY);

	prioclass("base", 7, true, VS_PREEMPT_NEVER);
	cr_assert_eq(add("p1", NULL, &admit, &t, &e), 0, "%s", e.msg);
	cr_assert_eq(t->priority, 7);
	cr_assert_eq(t->preemption_policy, VS_PREEMPT_NEVER);
	cr_assert_str_eq(t->priority_class, "base", "the pod takes the default's name");
	cr_assert_str_eq(t->job->priority_class, "base");
}

Test(admit, a_missing_class_is_refused_and_changes_nothing)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(add("p", "gone", &admit, NULL, &e), -ENOENT);
	cr_assert_str_eq(e.msg, "pod ns/p: no PriorityClass \"gone\"");
	cr_assert_eq(cl.nr_jobs + cl.nr_tasks, 0);
}

Test(admit, what_was_given_is_kept)
{
	struct vs_ctl_pod given = { .admit = true, .has_priority = true, .has_policy = true };
	struct vs_task_spec ts;
	struct vs_task *t;
	struct vs_err e = { { 0 } };

	prioclass("high", 1000, false, VS_PREEMPT_NEVER);
	vs_task_spec_init(&ts, "ns", "p", NULL);
	ts.priority_class = "high";
	ts.priority = 3;
	ts.preemption_policy = VS_PREEMPT_LOWER_PRIORITY;
	cr_assert_eq(vs_ctl_task_add(&ctl, &ts, &given, &t, &e), 0, "%s", e.msg);
	cr_assert_eq(t->priority, 3);
	cr_assert_eq(t->preemption_policy, VS_PREEMPT_LOWER_PRIORITY);
}

Test(admit, without_the_request_a_task_is_taken_as_it_is)
{
	struct vs_task *t;
	struct vs_err e = { { 0 } };

	prioclass("base", 7, true, VS_PREEMPT_NEVER);
	cr_assert_eq(add("p0", "gone", NULL, &t, &e), 0, "%s", e.msg);
	cr_assert_eq(t->priority, 1, "Volcano's priority of a pod without one");
	cr_assert_str_eq(t->priority_class, "gone", "a class deleted since admission");
	cr_assert_eq(add("p1", NULL, &(struct vs_ctl_pod){ .queue = "default" }, &t, &e), 0,
		     "%s", e.msg);
	cr_assert_eq(t->priority, 1);
	cr_assert_null(t->priority_class);
}

Test(admit, it_applies_to_a_task_that_names_its_podgroup)
{
	struct vs_job_spec js;
	struct vs_task_spec ts;
	struct vs_task *t;
	struct vs_err e = { { 0 } };

	prioclass("high", 1000, false, VS_PREEMPT_LOWER_PRIORITY);
	vs_job_spec_init(&js, "ns", "pg");
	cr_assert_eq(vs_job_add(&cl, &js, NULL, NULL), 0);
	vs_task_spec_init(&ts, "ns", "p", "pg");
	ts.priority_class = "high";
	cr_assert_eq(vs_ctl_task_add(&ctl, &ts, &admit, &t, &e), 0, "%s", e.msg);
	cr_assert_eq(t->priority, 1000);
	cr_assert_eq(t->job->priority_class, NULL, "the PodGroup is not the pod's to change");
}
