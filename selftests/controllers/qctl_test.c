// SPDX-License-Identifier: Apache-2.0
/*
 * The queue controller: every (state x action) pair with and without
 * PodGroups (Volcano's queue/state tests), Closing becoming Closed as
 * PodGroups go, the parent/child propagation, admission, and a closed
 * queue's work staying unadmitted through a real cycle.
 */
#include "ctltest.h"
#include "../sched/testreg.h"
#include "sched/session.h"

TestSuite(qctl, .init = ct_setup, .fini = ct_teardown);

static struct vs_job *podgroup(const char *name, const char *queue)
{
	struct vs_job_spec js;
	struct vs_job *pg;
	struct vs_err e = { { 0 } };

	vs_job_spec_init(&js, "ns", name);
	js.queue = queue;
	cr_assert_eq(vs_job_add(&cl, &js, &pg, &e), 0, "%s", e.msg);
	return pg;
}

static void run(struct vs_queue *q, enum vs_vjob_action action)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_qctl_execute(&ctl, q, action, &e), 0, "%s", e.msg);
	ct_check();
}

#define S(x)	VS_QUEUE_##x

/* [state][action: OpenQueue, CloseQueue, SyncQueue, a job action][no PodGroup, one] */
static const enum vs_queue_state table[VS_QUEUE_NR_STATES][4][2] = {
	[VS_QUEUE_OPEN] = {
		{ S(OPEN), S(OPEN) }, { S(CLOSED), S(CLOSING) },
		{ S(OPEN), S(OPEN) }, { S(OPEN), S(OPEN) },
	},
	[VS_QUEUE_CLOSED] = {
		{ S(OPEN), S(OPEN) }, { S(CLOSED), S(CLOSED) },
		{ S(CLOSED), S(CLOSED) }, { S(CLOSED), S(CLOSED) },
	},
	[VS_QUEUE_CLOSING] = {
		{ S(OPEN), S(OPEN) }, { S(CLOSED), S(CLOSING) },
		{ S(CLOSED), S(CLOSING) }, { S(CLOSED), S(CLOSING) },
	},
	[VS_QUEUE_UNKNOWN] = {
		{ S(OPEN), S(OPEN) }, { S(CLOSED), S(CLOSING) },
		{ S(UNKNOWN), S(UNKNOWN) }, { S(UNKNOWN), S(UNKNOWN) },
	},
};

Test(qctl, every_state_and_action_of_the_table)
{
	static const enum vs_vjob_action actions[4] = {
		VS_ACT_OPEN_QUEUE, VS_ACT_CLOSE_QUEUE, VS_ACT_SYNC_QUEUE, VS_ACT_ABORT_JOB,
	};

	for (unsigned int s = 0; s < VS_QUEUE_NR_STATES; s++) {
		for (unsigned int a = 0; a < 4; a++) {
			for (unsigned int pgs = 0; pgs < 2; pgs++) {
				enum vs_queue_state want = table[s][a][pgs];
				struct vs_queue *q;

				vs_cluster_destroy(&cl);
				ct_setup();
				q = ct_queue("q", (enum vs_queue_state)s, NULL);
				if (pgs)
					podgroup("pg", "q");
				run(q, actions[a]);
				cr_expect_eq(q->state, want, "%s x %s, %u podgroups: %s, want %s",
					     vs_queue_state_name(s),
					     vs_vjob_action_name(actions[a]), pgs,
					     vs_queue_state_name(q->state),
					     vs_queue_state_name(want));
				cr_expect_eq(q->closed_by_parent, false);
			}
		}
	}
}

Test(qctl, a_closing_queue_closes_when_its_last_podgroup_goes)
{
	struct vs_queue *q = ct_queue("q", VS_QUEUE_OPEN, NULL);
	struct vs_job *a = podgroup("a", "q"), *b = podgroup("b", "q");
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_qctl_command(&ctl, q, VS_ACT_CLOSE_QUEUE, &e), 0, "%s", e.msg);
	cr_assert_eq(q->state, VS_QUEUE_CLOSING);
	cr_assert_eq(counts.queue_changed, 1);
	cr_assert_eq(vs_ctl_podgroup_del(&ctl, a, &e), 0, "%s", e.msg);
	cr_assert_eq(q->state, VS_QUEUE_CLOSING);
	/* gone behind the controllers' back: the sync after the next cycle sees it */
	cr_assert_eq(vs_job_del(&cl, b, NULL), 0);
	cr_assert_eq(q->state, VS_QUEUE_CLOSING);
	cr_assert_eq(vs_qctl_sync_all(&ctl, &e), 0, "%s", e.msg);
	cr_assert_eq(q->state, VS_QUEUE_CLOSED);
	cr_assert_eq(counts.queue_changed, 2);
}

Test(qctl, a_podgroup_with_tasks_cannot_be_deleted)
{
	struct vs_queue *q = ct_queue("q", VS_QUEUE_CLOSING, NULL);
	struct vs_job *pg = podgroup("a", "q");
	struct vs_task_spec ts;
	struct vs_err e = { { 0 } };

	vs_task_spec_init(&ts, "ns", "t", "a");
	cr_assert_eq(vs_task_add(&cl, &ts, NULL, NULL), 0);
	cr_assert_eq(vs_ctl_podgroup_del(&ctl, pg, &e), -EBUSY);
	cr_assert(strstr(e.msg, "still has 1 tasks"), "%s", e.msg);
	cr_assert_eq(q->state, VS_QUEUE_CLOSING);
}

Test(qctl, closing_a_parent_closes_its_open_children_and_opening_it_reopens_them)
{
	struct vs_queue *p = ct_queue("p", VS_QUEUE_OPEN, NULL);
	struct vs_queue *c1 = ct_queue("c1", VS_QUEUE_OPEN, "p");
	struct vs_queue *c2 = ct_queue("c2", VS_QUEUE_OPEN, "p");
	struct vs_queue *g = ct_queue("g", VS_QUEUE_OPEN, "c1");
	struct vs_queue *other = ct_queue("other", VS_QUEUE_OPEN, NULL);

	podgroup("busy", "c1");
	run(c2, VS_ACT_CLOSE_QUEUE);
	cr_assert_eq(c2->state, VS_QUEUE_CLOSED);
	cr_assert(!c2->closed_by_parent, "closed by its own command");

	run(p, VS_ACT_CLOSE_QUEUE);
	cr_assert_eq(p->state, VS_QUEUE_CLOSED);
	cr_assert_eq(c1->state, VS_QUEUE_CLOSING, "it still has a podgroup");
	cr_assert(c1->closed_by_parent);
	cr_assert_eq(g->state, VS_QUEUE_CLOSED, "grandchildren close too");
	cr_assert(g->closed_by_parent);
	cr_assert(!c2->closed_by_parent);
	cr_assert_eq(other->state, VS_QUEUE_OPEN);

	run(p, VS_ACT_OPEN_QUEUE);
	cr_assert_eq(p->state, VS_QUEUE_OPEN);
	cr_assert_eq(c1->state, VS_QUEUE_OPEN);
	cr_assert_eq(g->state, VS_QUEUE_OPEN);
	cr_assert(!c1->closed_by_parent && !g->closed_by_parent);
	cr_assert_eq(c2->state, VS_QUEUE_CLOSED, "closed by its own command, it stays so");
}

Test(qctl, a_child_cannot_be_opened_under_a_closed_parent)
{
	struct vs_queue *p = ct_queue("p", VS_QUEUE_CLOSED, NULL);
	struct vs_queue *c = ct_queue("c", VS_QUEUE_CLOSED, "p");
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_qctl_command(&ctl, c, VS_ACT_OPEN_QUEUE, &e), -EPERM);
	cr_assert(strstr(e.msg, "queue c: cannot open queue c because its parent queue p is "
			 "closing or closed"), "%s", e.msg);
	cr_assert_eq(c->state, VS_QUEUE_CLOSED);
	cr_assert_eq(counts.queue_changed, 0);
	run(p, VS_ACT_OPEN_QUEUE);
	run(c, VS_ACT_OPEN_QUEUE);
	cr_assert_eq(c->state, VS_QUEUE_OPEN);
}

Test(qctl, a_queue_follows_its_parent_on_sync)
{
	struct vs_queue *p = ct_queue("p", VS_QUEUE_OPEN, NULL);
	struct vs_queue *c = ct_queue("c", VS_QUEUE_OPEN, "p");

	p->state = VS_QUEUE_CLOSED;	/* as a client's QUEUE SET would */
	run(c, VS_ACT_SYNC_QUEUE);
	cr_assert_eq(c->state, VS_QUEUE_CLOSED);
	cr_assert(c->closed_by_parent);
	p->state = VS_QUEUE_OPEN;
	run(c, VS_ACT_SYNC_QUEUE);
	cr_assert_eq(c->state, VS_QUEUE_OPEN);
	cr_assert(!c->closed_by_parent);
}

Test(qctl, root_is_never_closed_and_is_every_parentless_queue_s_parent)
{
	struct vs_queue *root = ct_queue("root", VS_QUEUE_OPEN, NULL);
	struct vs_queue *q = ct_queue("q", VS_QUEUE_OPEN, NULL);
	struct vs_err e = { { 0 } };

	run(root, VS_ACT_CLOSE_QUEUE);
	cr_assert_eq(root->state, VS_QUEUE_OPEN, "Volcano ignores it");
	cr_assert_eq(vs_qctl_command(&ctl, root, VS_ACT_CLOSE_QUEUE, &e), -EPERM,
		     "a user's command is told");
	cr_assert(strstr(e.msg, "the root queue cannot be closed"), "%s", e.msg);
	cr_assert_eq(q->state, VS_QUEUE_OPEN);
	root->state = VS_QUEUE_CLOSING;
	run(q, VS_ACT_SYNC_QUEUE);
	cr_assert_eq(q->state, VS_QUEUE_CLOSED, "q follows root, its parent by default");
}

Test(qctl, commands_are_open_and_close_only)
{
	struct vs_queue *q = ct_queue("q", VS_QUEUE_OPEN, NULL);
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_qctl_command(&ctl, q, VS_ACT_ABORT_JOB, &e), -EINVAL);
	cr_assert(strstr(e.msg, "queue q: AbortJob is not a queue command"), "%s", e.msg);
	vs_err_clear(&e);
	cr_assert_eq(vs_qctl_command(&ctl, q, VS_ACT_NR, &e), -EINVAL);
	cr_assert_eq(vs_qctl_command(&ctl, q, VS_ACT_CLOSE_QUEUE, &e), 0);
	cr_assert_eq(q->state, VS_QUEUE_CLOSED);
}

Test(qctl, podgroup_admission_wants_an_open_queue)
{
	struct vs_err e = { { 0 } };

	ct_queue("shut", VS_QUEUE_CLOSING, NULL);
	cr_assert_eq(vs_qctl_admit_podgroup(&ctl, "shut", &e), -EPERM);
	cr_assert(strstr(e.msg, "can only submit PodGroup to queue with state `Open`, queue "
			 "`shut` status is `Closing`"), "%s", e.msg);
	vs_err_clear(&e);
	cr_assert_eq(vs_qctl_admit_podgroup(&ctl, "gone", &e), -ENOENT);
	cr_assert(strstr(e.msg, "unable to find queue: queue gone does not exist"), "%s", e.msg);
	cr_assert_eq(vs_qctl_admit_podgroup(&ctl, NULL, NULL), 0, "the default queue");
	cr_assert_eq(vs_qctl_admit_podgroup(&ctl, "", NULL), 0);
	cr_assert_eq(vs_qctl_admit_podgroup(&ctl, "default", NULL), 0);
}

/* A closed queue's PodGroup is not admitted by the scheduler, so gets no tasks. */
Test(qctl, a_closing_queue_admits_no_more_work_through_a_cycle)
{
	struct vs_vjob_task_spec t[1] = { ct_vtask("w", 1, 1000) };
	struct vs_queue *q = ct_queue("q", VS_QUEUE_OPEN, NULL);
	struct vs_conf_names names;
	struct vs_sched sched;
	struct vs_vjob_spec spec;
	struct vs_conf *conf;
	struct vs_vjob *v;
	struct vs_err e = { { 0 } };

	ct_node("n1", 4000);
	vs_vjob_spec_init(&spec, "ns", "j");
	spec.queue = "q";
	spec.tasks = t;
	spec.nr_tasks = 1;
	v = ct_vjob_spec(&spec);
	ct_sync(v);
	run(q, VS_ACT_CLOSE_QUEUE);
	cr_assert_eq(q->state, VS_QUEUE_CLOSING);

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(vs_conf_default_text, strlen(vs_conf_default_text), "d.conf",
				   &names, VS_CONF_FLAGS_DEFAULT_ON, &conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, &e), 0, "%s", e.msg);
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(vs_sched_run_cycle(&sched, &e), 0, "%s", e.msg);
		cr_assert_eq(vs_ctl_after_cycle(&ctl, &e), 0, "%s", e.msg);
		ct_check();
	}
	vs_sched_destroy(&sched);
	cr_assert_eq(v->podgroup->phase, VS_PG_PENDING);
	cr_assert_eq(cl.nr_tasks, 0);
	cr_assert_eq(q->state, VS_QUEUE_CLOSING);
	cr_assert_eq(q->nr_jobs_by_phase[VS_PG_PENDING], 1, "the counts by phase are the core's");

	/* the job goes, and so does the last thing keeping the queue from closing */
	vs_jobctl_delete(&ctl, v);
	cr_assert_eq(q->state, VS_QUEUE_CLOSED);
}
