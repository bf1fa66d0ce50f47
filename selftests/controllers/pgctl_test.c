// SPDX-License-Identifier: Apache-2.0
/*
 * The podgroup controller: a task submitted without a PodGroup gets one of
 * its own, named after it, admitted into an open queue, collected when the
 * task goes; all or nothing; then scheduled by a real cycle.
 */
#include "ctltest.h"
#include "../sched/testreg.h"
#include "core/names.h"
#include "sched/session.h"

TestSuite(pgctl, .init = ct_setup, .fini = ct_teardown);

static int add_bare(const char *name, const char *queue, struct vs_task **out,
		    struct vs_err *e)
{
	struct vs_task_spec ts;

	vs_task_spec_init(&ts, "ns", name, NULL);
	ts.req = ct_res(500, GI);
	return vs_ctl_task_add(&ctl, &ts, &(struct vs_ctl_pod){ .queue = queue }, out, e);
}

Test(pgctl, a_bare_task_gets_a_podgroup_of_its_own)
{
	struct vs_prioclass_spec pcs = { .name = "batch", .value = 5 };
	struct vs_task_spec ts;
	struct vs_task *task;
	struct vs_job *pg;
	struct vs_err e = { { 0 } };

	ct_queue("q", VS_QUEUE_OPEN, NULL);
	cr_assert_eq(vs_prioclass_add(&cl, &pcs, NULL, NULL), 0);
	vs_task_spec_init(&ts, "ns", "p1", NULL);
	ts.req = ct_res(500, GI);
	ts.init_req = ct_res(2000, 0);
	ts.has_init_req = true;
	ts.priority_class = "batch";
	cr_assert_eq(vs_ctl_task_add(&ctl, &ts, &(struct vs_ctl_pod){ .queue = "q" }, &task, &e),
		     0, "%s", e.msg);
	pg = vs_job_find(&cl, "ns", "podgroup-p1");
	cr_assert_not_null(pg);
	cr_assert_eq(task->job, pg);
	cr_assert_eq(pg->min_member, 1);
	cr_assert_str_eq(pg->queue_name, "q");
	cr_assert_str_eq(pg->priority_class, "batch");
	cr_assert(pg->has_min_resources);
	cr_assert_eq(vs_res_get(&pg->min_resources, VS_RES_CPU), 2000, "init containers' max");
	cr_assert_eq(vs_res_get(&pg->min_resources, VS_RES_MEMORY), GI);
	cr_assert_eq(vs_res_get(&pg->min_resources, VS_RES_PODS), 1);
	cr_assert_eq(pg->phase, VS_PG_PENDING);
	cr_assert_null(pg->vjob);
	cr_assert_eq(counts.pg_added, 1);
	cr_assert_eq(counts.task_added, 0, "the task is the caller's, not the controller's");
}

Test(pgctl, a_task_naming_a_podgroup_joins_it)
{
	struct vs_job_spec js;
	struct vs_task_spec ts;
	struct vs_task *task;

	vs_job_spec_init(&js, "ns", "mine");
	cr_assert_eq(vs_job_add(&cl, &js, NULL, NULL), 0);
	vs_task_spec_init(&ts, "ns", "p1", "mine");
	cr_assert_eq(vs_ctl_task_add(&ctl, &ts, &(struct vs_ctl_pod){ .queue = "ignored" }, &task,
				     NULL), 0);
	cr_assert_str_eq(task->job->name, "mine");
	cr_assert_eq(cl.nr_jobs, 1);
	cr_assert_eq(counts.pg_added, 0);
}

Test(pgctl, an_existing_podgroup_of_the_name_is_reused)
{
	struct vs_job_spec js;
	struct vs_job *pg;
	struct vs_task *task;

	vs_job_spec_init(&js, "ns", "podgroup-p1");
	js.min_member = 1;
	cr_assert_eq(vs_job_add(&cl, &js, &pg, NULL), 0);
	cr_assert_eq(add_bare("p1", NULL, &task, NULL), 0);
	cr_assert_eq(task->job, pg);
	cr_assert_eq(cl.nr_jobs, 1);
	cr_assert_eq(counts.pg_added, 0);
}

Test(pgctl, a_refused_task_leaves_no_podgroup)
{
	struct vs_task_spec ts;
	struct vs_err e = { { 0 } };

	vs_task_spec_init(&ts, "ns", "p1", NULL);
	ts.status = VS_TASK_RUNNING;
	ts.node = "nowhere";
	cr_assert_eq(vs_ctl_task_add(&ctl, &ts, NULL, NULL, &e), -ENOENT);
	cr_assert(strstr(e.msg, "node nowhere does not exist"), "%s", e.msg);
	cr_assert_eq(cl.nr_jobs, 0);
	cr_assert_eq(counts.pg_added, 0);

	vs_err_clear(&e);
	cr_assert_eq(add_bare("Bad_Name", NULL, NULL, &e), -EINVAL);
	cr_assert(strstr(e.msg, "pod name"), "%s", e.msg);
	cr_assert_eq(add_bare("p2", NULL, NULL, NULL), 0);
	vs_err_clear(&e);
	cr_assert_eq(add_bare("p2", NULL, NULL, &e), -EEXIST);
	cr_assert(strstr(e.msg, "pod ns/p2 already exists"), "%s", e.msg);
	cr_assert_eq(cl.nr_jobs, 1);
}

Test(pgctl, a_closed_or_missing_queue_admits_no_podgroup)
{
	struct vs_err e = { { 0 } };

	ct_queue("shut", VS_QUEUE_CLOSED, NULL);
	cr_assert_eq(add_bare("p1", "shut", NULL, &e), -EPERM);
	cr_assert(strstr(e.msg, "pod ns/p1: can only submit PodGroup to queue with state "
			 "`Open`, queue `shut` status is `Closed`"), "%s", e.msg);
	vs_err_clear(&e);
	cr_assert_eq(add_bare("p1", "gone", NULL, &e), -ENOENT);
	cr_assert(strstr(e.msg, "unable to find queue"), "%s", e.msg);
	cr_assert_eq(cl.nr_jobs, 0);
	cr_assert_eq(cl.nr_tasks, 0);
}

Test(pgctl, the_podgroup_goes_with_its_task)
{
	struct vs_queue *q = ct_queue("q", VS_QUEUE_OPEN, NULL);
	struct vs_job_spec js;
	struct vs_task_spec ts;
	struct vs_task *task, *other;
	struct vs_err e = { { 0 } };

	cr_assert_eq(add_bare("p1", "q", &task, NULL), 0);
	vs_job_spec_init(&js, "ns", "shared");
	js.queue = "q";
	cr_assert_eq(vs_job_add(&cl, &js, NULL, NULL), 0);
	vs_task_spec_init(&ts, "ns", "p2", "shared");
	cr_assert_eq(vs_ctl_task_add(&ctl, &ts, NULL, &other, NULL), 0);
	cr_assert_eq(vs_qctl_command(&ctl, q, VS_ACT_CLOSE_QUEUE, NULL), 0);
	cr_assert_eq(q->state, VS_QUEUE_CLOSING);

	cr_assert_eq(vs_ctl_task_del(&ctl, task, &e), 0, "%s", e.msg);
	ct_check();
	cr_assert_null(vs_job_find(&cl, "ns", "podgroup-p1"));
	cr_assert_eq(counts.pg_removing, 1);
	cr_assert_eq(q->state, VS_QUEUE_CLOSING, "the shared podgroup is still there");

	cr_assert_eq(vs_ctl_task_del(&ctl, other, &e), 0, "%s", e.msg);
	cr_assert_not_null(vs_job_find(&cl, "ns", "shared"), "not the controller's to collect");
	cr_assert_eq(vs_ctl_podgroup_del(&ctl, vs_job_find(&cl, "ns", "shared"), &e), 0, "%s",
		     e.msg);
	cr_assert_eq(q->state, VS_QUEUE_CLOSED);
}

Test(pgctl, long_names_are_shortened_with_a_hash)
{
	char a[254], b[254], pa[VS_PGCTL_NAME_BUF], pb[VS_PGCTL_NAME_BUF];
	struct vs_err e = { { 0 } };

	memset(a, 'a', 253);
	a[253] = '\0';
	a[234] = '.';			/* the kept head ends on a dot, which must go */
	memcpy(b, a, sizeof(b));
	b[252] = 'b';
	vs_pgctl_name(a, pa);
	vs_pgctl_name(b, pb);
	cr_assert_leq(strlen(pa), 253);
	cr_assert_eq(vs_check_dns_subdomain(pa, strlen(pa), "podgroup name", &e), 0, "%s", e.msg);
	cr_assert_eq(strncmp(pa, "podgroup-", 9), 0);
	cr_assert_str_neq(pa, pb, "the hash tells them apart");
	vs_pgctl_name(a, pb);
	cr_assert_str_eq(pa, pb, "deterministic");
	cr_assert_eq(add_bare(a, NULL, NULL, &e), 0, "%s", e.msg);
	cr_assert_not_null(vs_job_find(&cl, "ns", pa));
	vs_pgctl_name("short", pa);
	cr_assert_str_eq(pa, "podgroup-short");
}

Test(pgctl, a_bare_task_cannot_take_a_volcano_job_s_podgroup)
{
	struct vs_vjob_task_spec t = ct_vtask("w", 1, 100);
	struct vs_vjob *v = ct_vjob("podgroup-x", &t, 1);
	struct vs_err e = { { 0 } };

	ct_sync(v);
	cr_assert_eq(add_bare("x", NULL, NULL, &e), -EPERM);
	cr_assert(strstr(e.msg, "podgroup podgroup-x belongs to job ns/podgroup-x"), "%s", e.msg);
	cr_assert_eq(cl.nr_tasks, 0);
}

Test(pgctl, a_bare_task_is_scheduled_by_a_cycle)
{
	struct vs_conf_names names;
	struct vs_sched sched;
	struct vs_conf *conf;
	struct vs_task *task;
	struct vs_err e = { { 0 } };

	ct_node("n1", 4000);
	cr_assert_eq(add_bare("web", NULL, &task, &e), 0, "%s", e.msg);
	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(vs_conf_default_text, strlen(vs_conf_default_text), "d.conf",
				   &names, VS_CONF_FLAGS_DEFAULT_ON, &conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_run_cycle(&sched, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_ctl_after_cycle(&ctl, &e), 0, "%s", e.msg);
	vs_sched_destroy(&sched);
	ct_check();
	cr_assert_eq(task->status, VS_TASK_BINDING);
	cr_assert_str_eq(task->node->name, "n1");
	cr_assert_eq(task->job->phase, VS_PG_INQUEUE);
}

/* ---- owners and other schedulers ---- */

/* A bare task ns/@name of owner @uid (NULL: none), of scheduler @sched on @node. */
static int add_owned(const char *name, const char *uid, const char *sched, const char *node,
		     struct vs_task **out, struct vs_err *e)
{
	struct vs_ctl_pod pod = { .queue = "q", .scheduler = sched };
	struct vs_task_spec ts;

	vs_task_spec_init(&ts, "ns", name, NULL);
	ts.req = ct_res(500, GI);
	ts.owner_uid = uid;
	ts.priority_class = "batch";
	if (node) {
		ts.status = VS_TASK_RUNNING;
		ts.node = node;
	}
	return vs_ctl_task_add(&ctl, &ts, &pod, out, e);
}

Test(pgctl, the_pods_of_one_owner_share_a_podgroup_until_the_last_goes)
{
	struct vs_task *a, *b, *c;
	struct vs_job *pg;
	struct vs_err e = { { 0 } };

	ct_queue("q", VS_QUEUE_OPEN, NULL);
	cr_assert_eq(add_owned("rs-a", "3f2a-77", NULL, NULL, &a, &e), 0, "%s", e.msg);
	cr_assert_eq(add_owned("rs-b", "3f2a-77", NULL, NULL, &b, &e), 0, "%s", e.msg);
	cr_assert_eq(add_owned("lone", NULL, NULL, NULL, &c, &e), 0, "%s", e.msg);
	pg = vs_job_find(&cl, "ns", "podgroup-3f2a-77");
	cr_assert_not_null(pg, "Volcano's generatePodgroupName: the owner's UID");
	cr_assert_eq(a->job, pg);
	cr_assert_eq(b->job, pg);
	cr_assert_str_eq(a->owner_uid, "3f2a-77");
	cr_assert_str_eq(c->job->name, "podgroup-lone", "no owner: named after the task");
	cr_assert_eq(cl.nr_jobs, 2);
	cr_assert_eq(counts.pg_added, 2);
	cr_assert_eq(pg->min_member, 1);
	cr_assert_str_eq(pg->queue_name, "q");

	cr_assert_eq(vs_ctl_task_del(&ctl, a, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_job_find(&cl, "ns", "podgroup-3f2a-77"), pg, "rs-b is still in it");
	cr_assert_eq(vs_ctl_task_del(&ctl, b, &e), 0, "%s", e.msg);
	cr_assert_null(vs_job_find(&cl, "ns", "podgroup-3f2a-77"), "it goes with the last");
	cr_assert_eq(counts.pg_removing, 1);

	vs_err_clear(&e);
	cr_assert_eq(add_owned("bad", "UID_1", NULL, NULL, NULL, &e), -EINVAL);
	cr_assert(strstr(e.msg, "owner UID"), "%s", e.msg);
	cr_assert_eq(cl.nr_jobs, 1);
}

Test(pgctl, a_pod_of_another_scheduler_on_a_node_gets_a_shadow_podgroup)
{
	struct vs_task *t, *mine;
	struct vs_job *pg;
	struct vs_err e = { { 0 } };

	/* not admitted into a queue: "q" is closed, and it is not ours to submit */
	ct_queue("q", VS_QUEUE_CLOSED, NULL);
	ct_node("n1", 4000);
	cr_assert_eq(add_owned("kube-a", "9e1c", "default-scheduler", "n1", &t, &e), 0, "%s",
		     e.msg);
	pg = t->job;
	cr_assert_str_eq(pg->name, "podgroup-9e1c");
	cr_assert_eq(pg->min_member, 1);
	cr_assert_str_eq(pg->queue_name, "default", "no queue");
	cr_assert_not(pg->has_min_resources);
	cr_assert_null(pg->priority_class);
	cr_assert_eq(t->status, VS_TASK_RUNNING);
	cr_assert_eq(counts.pg_added, 1);

	/* this scheduler's own pod, by name, is refused by the closed queue */
	ctl.scheduler = "mine";
	cr_assert_eq(add_owned("own", NULL, "mine", NULL, &mine, &e), -EPERM);
	cr_assert_eq(add_owned("own", NULL, "volcano", "n1", &mine, &e), 0, "%s", e.msg);
	cr_assert_not(mine->job->has_min_resources, "volcano is another scheduler now");
	cr_assert_eq(vs_ctl_task_del(&ctl, t, &e), 0, "%s", e.msg);
	cr_assert_null(vs_job_find(&cl, "ns", "podgroup-9e1c"), "a shadow goes as it came");
}

Test(pgctl, a_pending_pod_of_another_scheduler_is_refused)
{
	struct vs_err e = { { 0 } };

	ct_queue("q", VS_QUEUE_OPEN, NULL);
	cr_assert_eq(add_owned("kube-a", NULL, "default-scheduler", NULL, NULL, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "pod ns/kube-a: a pod of scheduler \"default-scheduler\" (this "
			 "one is \"volcano\") is on no node: its own scheduler places it");
	cr_assert_eq(cl.nr_jobs + cl.nr_tasks, 0);
	vs_err_clear(&e);
	cr_assert_eq(add_owned("kube-b", NULL, "Not_A_Name", NULL, NULL, &e), -EINVAL);
	cr_assert(strstr(e.msg, "pod ns/kube-b: invalid scheduler name"), "%s", e.msg);
	/* "" is the daemon's own, as a pod without spec.schedulerName */
	cr_assert_eq(add_owned("mine", NULL, "", NULL, NULL, &e), 0, "%s", e.msg);
	cr_assert(vs_job_find(&cl, "ns", "podgroup-mine")->has_min_resources);
}
