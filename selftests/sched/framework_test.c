// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the framework (sched/framework.h, session.h): Volcano's rules
 * for combining plugins across tiers, enable flags, plugins switching an
 * extension point off for a session, the order of open and close hooks, and
 * PodGroup phases at session close. Three mock plugins answer what each test
 * tells them to and count their calls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "registry/builtin.h"
#include "testreg.h"
#include "sched/framework.h"
#include "sched/session.h"

#define NR_MOCKS 3

/* What each mock answers, and how often it was asked. */
static struct mock {
	int order;			/* job/queue/task order result */
	enum vs_vote vote;
	bool ready, starving, overused, allocatable;
	int predicate;			/* 0 or -EINVAL */
	double score;
	u32 victims;			/* bit i: keep candidate i */
	bool abstain;			/* ... or have no say */
	bool disable_ready;		/* switch job_ready off in open */
	int open_ret;
	int calls, opens, closes;
} mocks[NR_MOCKS + 1];

static int open_order[NR_MOCKS * 4], nr_open_order;

static struct mock *M(struct vs_plugin *p)
{
	return p->priv;
}

static int m_open(struct vs_session *ssn, struct vs_plugin *p)
{
	int idx = p->ops->name[5] - 'a';	/* "mock-a" */

	p->priv = &mocks[idx];
	mocks[idx].opens++;
	open_order[nr_open_order++] = idx;
	if (mocks[idx].disable_ready)
		vs_plugin_disable(p, VS_EXT_JOB_READY);
	return mocks[idx].open_ret;
}

static void m_close(struct vs_session *ssn, struct vs_plugin *p)
{
	M(p)->closes++;
}

static int m_job_order(struct vs_session *ssn, struct vs_plugin *p,
		       const struct vs_job *l, const struct vs_job *r)
{
	M(p)->calls++;
	return M(p)->order;
}

static enum vs_vote m_vote(struct vs_session *ssn, struct vs_plugin *p,
			   const struct vs_job *job)
{
	M(p)->calls++;
	return M(p)->vote;
}

static bool m_ready(struct vs_session *ssn, struct vs_plugin *p, const struct vs_job *job)
{
	M(p)->calls++;
	return M(p)->ready;
}

static bool m_starving(struct vs_session *ssn, struct vs_plugin *p, const struct vs_job *job)
{
	M(p)->calls++;
	return M(p)->starving;
}

static bool m_overused(struct vs_session *ssn, struct vs_plugin *p, const struct vs_queue *q)
{
	M(p)->calls++;
	return M(p)->overused;
}

static int m_predicate(struct vs_session *ssn, struct vs_plugin *p, const struct vs_task *t,
		       const struct vs_node *n, struct vs_fit_error *fe)
{
	M(p)->calls++;
	if (M(p)->predicate)
		snprintf(fe->reason, sizeof(fe->reason), "refused by %s", p->ops->name);
	return M(p)->predicate;
}

static double m_score(struct vs_session *ssn, struct vs_plugin *p, const struct vs_task *t,
		      const struct vs_node *n)
{
	M(p)->calls++;
	return M(p)->score;
}

static enum vs_vote m_victims(struct vs_session *ssn, struct vs_plugin *p,
			      const struct vs_task *evictor, struct vs_task *const *cands,
			      u32 nr, bool *keep)
{
	M(p)->calls++;
	if (M(p)->abstain)
		return VS_VOTE_ABSTAIN;
	for (u32 i = 0; i < nr; i++)
		keep[i] = M(p)->victims & (1u << i);
	return VS_VOTE_PERMIT;
}

/* Batch scores: the candidate's position times the mock's score. */
static void m_batch(struct vs_session *ssn, struct vs_plugin *p, const struct vs_task *t,
		    struct vs_node *const *nodes, u32 nr, double *scores)
{
	M(p)->calls++;
	for (u32 i = 0; i < nr; i++)
		scores[i] += i * M(p)->score;
}

#define MOCK_OPS(x) {							\
	.name = "mock-" #x, .open = m_open, .close = m_close,		\
	.job_order = m_job_order, .job_enqueueable = m_vote,		\
	.job_pipelined = m_vote, .job_ready = m_ready,			\
	.job_starving = m_starving, .overused = m_overused,		\
	.predicate = m_predicate, .node_order = m_score,		\
	.preemptable = m_victims, .reclaimable = m_victims,		\
}

static const struct vs_plugin_ops mock_ops[NR_MOCKS] = {
	MOCK_OPS(a), MOCK_OPS(b), MOCK_OPS(c),
};

/* mock-d scores in batches only. */
static const struct vs_plugin_ops batch_ops = {
	.name = "mock-d", .open = m_open, .close = m_close, .batch_node_order = m_batch,
};

static int noop_execute(struct vs_session *ssn, const struct vs_args *args)
{
	return 0;
}

static const struct vs_action_ops noop_action = { .name = "noop", .execute = noop_execute };

static struct vs_cluster cl;
static struct vs_sched sched;
static struct vs_session *ssn;
static struct vs_job *job;

static void register_mocks(void)
{
	for (int i = 0; i < NR_MOCKS; i++)
		vs_registry_add_plugin(vs_test_registry(), &mock_ops[i]);
	vs_registry_add_plugin(vs_test_registry(), &batch_ops);
	vs_registry_add_action(vs_test_registry(), &noop_action);
}

static void setup(void)
{
	struct vs_queue_spec qs;
	struct vs_job_spec js;

	memset(mocks, 0, sizeof(mocks));
	nr_open_order = 0;
	register_mocks();
	cr_assert_eq(vs_cluster_init(&cl), 0);
	vs_queue_spec_init(&qs, "default");
	cr_assert_eq(vs_queue_add(&cl, &qs, NULL, NULL), 0);
	vs_job_spec_init(&js, "ns", "j");
	cr_assert_eq(vs_job_add(&cl, &js, &job, NULL), 0);
}

static void teardown(void)
{
	vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
}

TestSuite(framework, .init = setup, .fini = teardown);

/* Start a scheduler on @conf_text (flags written in the text only) and open a session. */
static void open_with(const char *conf_text)
{
	struct vs_conf_names names;
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(conf_text, strlen(conf_text), "test.conf", &names,
				   VS_CONF_FLAGS_DEFAULT_OFF, &conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_session_open(&sched, &ssn, &e), 0, "%s", e.msg);
}

#define ALL_FLAGS "enableJobOrder: true, enableJobEnqueued: true, enableJobPipelined: true, " \
		  "enableJobReady: true, enableJobStarving: true, enabledOverused: true, "    \
		  "enablePredicate: true, enableNodeOrder: true, "			      \
		  "enablePreemptable: true, enableReclaimable: true"

static const char two_tiers[] =
	"actions: noop\n"
	"tiers:\n"
	"- plugins:\n"
	"  - {name: mock-a, " ALL_FLAGS "}\n"
	"  - {name: mock-b, " ALL_FLAGS "}\n"
	"- plugins:\n"
	"  - {name: mock-c, " ALL_FLAGS "}\n";

Test(framework, job_order_takes_the_first_plugin_that_tells_jobs_apart)
{
	struct vs_job_spec js;
	struct vs_job *later;

	vs_job_spec_init(&js, "ns", "later");
	cr_assert_eq(vs_job_add(&cl, &js, &later, NULL), 0);
	open_with(two_tiers);

	mocks[1].order = 1;
	mocks[2].order = -1;
	cr_assert_eq(vs_ssn_job_order(ssn, job, later), 1);
	cr_assert_eq(mocks[2].calls, 0, "a later tier was consulted");

	/* nobody tells them apart: creation order */
	mocks[1].order = 0;
	mocks[2].order = 0;
	cr_assert_lt(vs_ssn_job_order(ssn, job, later), 0);
	cr_assert_gt(vs_ssn_job_order(ssn, later, job), 0);
	cr_assert_eq(vs_ssn_job_order(ssn, job, job), 0);
	vs_session_close(ssn);
}

/* A job, queue or task made with creation time @created (0: none given). */
static struct vs_job *timed_job(const char *ns, const char *name, u64 created)
{
	struct vs_job_spec js;
	struct vs_job *j;

	vs_job_spec_init(&js, ns, name);
	js.created = created;
	cr_assert_eq(vs_job_add(&cl, &js, &j, NULL), 0);
	return j;
}

static struct vs_queue *timed_queue(const char *name, u64 created)
{
	struct vs_queue_spec qs;
	struct vs_queue *q;

	vs_queue_spec_init(&qs, name);
	qs.created = created;
	cr_assert_eq(vs_queue_add(&cl, &qs, &q, NULL), 0);
	return q;
}

static struct vs_task *timed_task(const char *name, u64 created)
{
	struct vs_task_spec ts;
	struct vs_task *t;

	vs_task_spec_init(&ts, "ns", name, "j");
	ts.created = created;
	cr_assert_eq(vs_task_add(&cl, &ts, &t, NULL), 0);
	return t;
}

/*
 * Jobs the plugins leave equal go by creationTimestamp before the order
 * they arrived in: a client that loads a cluster from the API server's
 * lists (in name order) sends an old job after a new one. Within a second,
 * by Volcano's UID of a PodGroup's job, "namespace/name".
 */
Test(framework, equal_jobs_go_by_creation_time_then_arrival)
{
	struct vs_job *newer = timed_job("ns", "a-newer", 2000);
	struct vs_job *older = timed_job("ns", "b-older", 1000);
	struct vs_job *same = timed_job("ns", "c-same", 1000);
	/* none given: the latest the cluster was given */
	struct vs_job *untimed = timed_job("ns", "d-untimed", 0);
	struct vs_job *first = timed_job("ns", "a-same", 1000);
	/* "ns-b/x" before "ns/x": '-' is below '/', as Go compares the strings */
	struct vs_job *x1 = timed_job("ns", "x", 3000), *x2 = timed_job("ns-b", "x", 3000);
	/* without creation times (a cluster never given one): arrival, whatever the names */
	struct vs_job *u1 = timed_job("z", "z", 0), *u2 = timed_job("a", "a", 0);

	cr_assert_eq(untimed->created, 2000);
	cr_assert_eq(u1->created, 3000, "the latest given");
	u1->created = u2->created = 0;
	open_with(two_tiers);

	cr_assert_lt(vs_ssn_job_order(ssn, older, newer), 0, "older first, arrived later");
	cr_assert_gt(vs_ssn_job_order(ssn, newer, older), 0);
	cr_assert_lt(vs_ssn_job_order(ssn, older, same), 0, "the same second: by name");
	cr_assert_lt(vs_ssn_job_order(ssn, first, older), 0, "by name, though it arrived last");
	cr_assert_gt(vs_ssn_job_order(ssn, older, first), 0);
	cr_assert_lt(vs_ssn_job_order(ssn, x2, x1), 0, "ns-b/x before ns/x");
	cr_assert_lt(vs_ssn_job_order(ssn, newer, untimed), 0, "the same second: by name");
	cr_assert_lt(vs_ssn_job_order(ssn, u1, u2), 0, "no time: z/z arrived first");
	/* a plugin that tells them apart still decides */
	mocks[0].order = 1;
	cr_assert_gt(vs_ssn_job_order(ssn, older, newer), 0);
	vs_session_close(ssn);
}

Test(framework, equal_tasks_and_queues_go_by_creation_time_then_arrival)
{
	struct vs_queue *qnew = timed_queue("q-new", 50), *qold = timed_queue("q-old", 40);
	struct vs_task *t2new = timed_task("j-w-2", 300), *t1old = timed_task("j-w-1", 100);
	struct vs_task *plain_new = timed_task("plain-new", 300);
	struct vs_task *plain_old = timed_task("plain-old", 200);

	open_with(two_tiers);

	cr_assert_lt(vs_ssn_queue_order(ssn, qold, qnew), 0);
	cr_assert_gt(vs_ssn_queue_order(ssn, qnew, qold), 0);
	qold->created = qnew->created;
	cr_assert_gt(vs_ssn_queue_order(ssn, qold, qnew), 0, "the same second: q-new by name");
	/* the pod index comes first, then the creation time */
	cr_assert_lt(vs_ssn_task_order(ssn, t1old, t2new), 0);
	cr_assert_lt(vs_ssn_task_order(ssn, plain_old, plain_new), 0, "older, arrived later");
	cr_assert_lt(vs_ssn_task_order(ssn, t1old, plain_old), 0, "no index: by time");
	vs_session_close(ssn);
}

Test(framework, a_rejecting_vote_wins_anywhere)
{
	open_with(two_tiers);
	mocks[0].vote = VS_VOTE_PERMIT;
	mocks[1].vote = VS_VOTE_REJECT;
	cr_assert_not(vs_ssn_job_pipelined(ssn, job));
	cr_assert_not(vs_ssn_job_enqueueable(ssn, job));
	vs_session_close(ssn);
}

Test(framework, a_permit_in_a_tier_decides_without_later_tiers)
{
	open_with(two_tiers);
	mocks[0].vote = VS_VOTE_PERMIT;
	mocks[1].vote = VS_VOTE_ABSTAIN;
	mocks[2].vote = VS_VOTE_REJECT;
	cr_assert(vs_ssn_job_pipelined(ssn, job));
	cr_assert_eq(mocks[2].calls, 0, "tier 2 was consulted after tier 1 permitted");
	vs_session_close(ssn);
}

Test(framework, abstentions_in_a_tier_pass_to_the_next_and_default_to_yes)
{
	open_with(two_tiers);
	mocks[2].vote = VS_VOTE_REJECT;
	cr_assert_not(vs_ssn_job_pipelined(ssn, job));	/* tier 1 abstained, tier 2 rejects */
	mocks[2].vote = VS_VOTE_ABSTAIN;
	cr_assert(vs_ssn_job_pipelined(ssn, job));	/* nobody decided: yes */
	vs_session_close(ssn);
}

Test(framework, job_ready_needs_every_plugin)
{
	open_with(two_tiers);
	mocks[0].ready = mocks[1].ready = mocks[2].ready = true;
	cr_assert(vs_ssn_job_ready(ssn, job));
	mocks[2].ready = false;
	cr_assert_not(vs_ssn_job_ready(ssn, job));
	vs_session_close(ssn);
}

Test(framework, job_starving_is_decided_by_the_first_tier_with_a_plugin)
{
	open_with(two_tiers);
	mocks[0].starving = mocks[1].starving = true;
	mocks[2].starving = false;
	cr_assert(vs_ssn_job_starving(ssn, job));
	cr_assert_eq(mocks[2].calls, 0);
	mocks[1].starving = false;
	cr_assert_not(vs_ssn_job_starving(ssn, job));
	vs_session_close(ssn);
}

Test(framework, job_starving_without_plugins_is_false)
{
	open_with("actions: noop\ntiers:\n- plugins:\n  - {name: mock-a}\n");
	mocks[0].starving = true;
	cr_assert_not(vs_ssn_job_starving(ssn, job));
	cr_assert_eq(mocks[0].calls, 0, "a plugin with the flag off was called");
	vs_session_close(ssn);
}

Test(framework, overused_when_any_plugin_says_so)
{
	open_with(two_tiers);
	cr_assert_not(vs_ssn_overused(ssn, job->queue));
	mocks[2].overused = true;
	cr_assert(vs_ssn_overused(ssn, job->queue));
	vs_session_close(ssn);
}

Test(framework, flags_left_out_keep_a_plugin_out_of_that_point)
{
	/* mock-b takes part in node order only */
	open_with("actions: noop\ntiers:\n- plugins:\n"
		  "  - {name: mock-a, " ALL_FLAGS "}\n"
		  "  - {name: mock-b, enableNodeOrder: true}\n");
	mocks[0].ready = true;
	mocks[1].ready = false;
	cr_assert(vs_ssn_job_ready(ssn, job));
	cr_assert_eq(mocks[1].calls, 0);
	mocks[0].score = 2.5;
	mocks[1].score = 10;
	cr_assert_float_eq(vs_ssn_node_order(ssn, NULL, NULL), 12.5, 1e-9);
	vs_session_close(ssn);
}

Test(framework, node_scores_add_per_node_and_batch_scores)
{
	struct vs_node *nodes[3] = { NULL, NULL, NULL };
	double scores[3] = { -1, -1, -1 };

	open_with("actions: noop\ntiers:\n- plugins:\n"
		  "  - {name: mock-a, enableNodeOrder: true}\n"
		  "  - {name: mock-d, enableNodeOrder: true}\n"
		  "- plugins:\n"
		  "  - {name: mock-b, enableNodeOrder: true}\n");
	mocks[0].score = 1;
	mocks[1].score = 0.5;
	mocks[3].score = 10;
	vs_ssn_score_nodes(ssn, NULL, nodes, 3, scores);
	cr_assert_float_eq(scores[0], 1.5, 1e-9);
	cr_assert_float_eq(scores[1], 11.5, 1e-9);
	cr_assert_float_eq(scores[2], 21.5, 1e-9);
	cr_assert_eq(mocks[3].calls, 1, "one batch call for all candidates");
	vs_session_close(ssn);
}

Test(framework, batch_scores_need_the_node_order_flag)
{
	struct vs_node *nodes[2] = { NULL, NULL };
	double scores[2];

	open_with("actions: noop\ntiers:\n- plugins:\n  - {name: mock-d}\n");
	mocks[3].score = 10;
	vs_ssn_score_nodes(ssn, NULL, nodes, 2, scores);
	cr_assert_float_eq(scores[1], 0, 1e-9);
	cr_assert_eq(mocks[3].calls, 0);
	vs_session_close(ssn);
}

/* The victims vs_ssn_preemptable() leaves of four candidates, as a bit mask. */
static u32 victims_of(bool reclaim)
{
	static struct vs_task fake[4];
	struct vs_task *cands[4] = { &fake[0], &fake[1], &fake[2], &fake[3] };
	u32 nr, mask = 0;

	nr = reclaim ? vs_ssn_reclaimable(ssn, &fake[0], cands, 4)
		     : vs_ssn_preemptable(ssn, &fake[0], cands, 4);
	for (u32 i = 0; i < nr; i++) {
		if (i)
			cr_assert_gt(cands[i], cands[i - 1], "victims out of order");
		mask |= 1u << (cands[i] - fake);
	}
	return mask;
}

static const char three_in_one_tier[] =
	"actions: noop\n"
	"tiers:\n"
	"- plugins:\n"
	"  - {name: mock-a, " ALL_FLAGS "}\n"
	"  - {name: mock-b, " ALL_FLAGS "}\n"
	"  - {name: mock-c, " ALL_FLAGS "}\n";

Test(framework, victims_are_the_intersection_within_the_first_tier_that_leaves_some)
{
	open_with(two_tiers);
	mocks[0].victims = 0x7;		/* {0,1,2} */
	mocks[1].victims = 0xe;		/* {1,2,3} */
	mocks[2].victims = 0x8;
	cr_assert_eq(victims_of(false), 0x6);
	cr_assert_eq(mocks[2].calls, 0, "the second tier was consulted");
	cr_assert_eq(victims_of(true), 0x6, "reclaim follows the same rules");
	vs_session_close(ssn);
}

Test(framework, a_plugin_that_keeps_no_victim_passes_the_decision_to_the_next_tier)
{
	open_with(two_tiers);
	mocks[0].victims = 0;
	mocks[1].victims = 0xf;
	mocks[2].victims = 0x8;
	cr_assert_eq(victims_of(false), 0x8);
	cr_assert_eq(mocks[1].calls, 0, "the tier went on after an empty answer");
	mocks[2].victims = 0;
	cr_assert_eq(victims_of(false), 0, "no tier permits any");
	vs_session_close(ssn);
}

Test(framework, an_empty_intersection_lets_the_next_plugin_start_over)
{
	/* As Volcano's loop: intersecting to nothing is nil, and nil takes the next answer whole. */
	open_with(three_in_one_tier);
	mocks[0].victims = 0x1;
	mocks[1].victims = 0x2;
	mocks[2].victims = 0x6;
	cr_assert_eq(victims_of(false), 0x6);
	vs_session_close(ssn);
}

Test(framework, abstaining_plugins_have_no_say_on_victims)
{
	open_with(two_tiers);
	mocks[0].abstain = true;
	mocks[1].victims = 0x5;
	mocks[2].victims = 0x1;
	cr_assert_eq(victims_of(false), 0x5);
	mocks[1].abstain = true;
	cr_assert_eq(victims_of(false), 0x1, "an all-abstaining tier decides nothing");
	vs_session_close(ssn);
}

Test(framework, a_plugin_may_switch_a_point_off_for_one_session)
{
	mocks[1].disable_ready = true;
	open_with(two_tiers);
	mocks[0].ready = mocks[2].ready = true;
	mocks[1].ready = false;
	cr_assert(vs_ssn_job_ready(ssn, job));
	cr_assert_eq(mocks[1].calls, 0);
	vs_session_close(ssn);
}

Test(framework, predicates_stop_at_the_first_refusal_with_its_reason)
{
	struct vs_fit_error fe = { .reason = { 0 } };

	open_with(two_tiers);
	cr_assert_eq(vs_ssn_predicate(ssn, NULL, NULL, &fe), 0);
	mocks[1].predicate = -EINVAL;
	mocks[2].predicate = -EINVAL;
	cr_assert_eq(vs_ssn_predicate(ssn, NULL, NULL, &fe), -EINVAL);
	cr_assert_str_eq(fe.reason, "refused by mock-b");
	cr_assert_eq(mocks[2].calls, 1);	/* only from the first, passing round */
	vs_session_close(ssn);
}

Test(framework, hooks_open_and_close_in_tier_order)
{
	open_with(two_tiers);
	cr_assert_eq(nr_open_order, 3);
	cr_assert_eq(open_order[0], 0);
	cr_assert_eq(open_order[1], 1);
	cr_assert_eq(open_order[2], 2);
	vs_session_close(ssn);
	for (int i = 0; i < NR_MOCKS; i++)
		cr_assert_eq(mocks[i].closes, 1);
	cr_assert_eq(sched.arena.used, 0, "the session's memory was not released");
}

Test(framework, a_failing_open_closes_the_plugins_opened_before)
{
	struct vs_conf_names names;
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };

	mocks[1].open_ret = -EIO;
	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(two_tiers, strlen(two_tiers), "t", &names,
				   VS_CONF_FLAGS_DEFAULT_OFF, &conf, NULL), 0);
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, NULL), 0);
	cr_assert_eq(vs_session_open(&sched, &ssn, &e), -EIO);
	cr_assert(strstr(e.msg, "plugin mock-b failed to open"), "%s", e.msg);
	cr_assert_eq(mocks[0].closes, 1);
	cr_assert_eq(mocks[1].closes, 0);
	cr_assert_eq(mocks[2].opens, 0);
	cr_assert_eq(vs_sched_run_cycle(&sched, NULL), -EIO);
}

Test(framework, unknown_plugins_and_actions_are_refused_with_the_line)
{
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };
	static const char text[] = "actions: noop\ntiers:\n- plugins:\n  - name: mock-a\n";

	/* parsed without a registry, then checked against it */
	cr_assert_eq(vs_conf_parse(text, strlen(text), "t.conf", NULL,
				   VS_CONF_FLAGS_DEFAULT_ON, &conf, NULL), 0);
	free(conf->tiers[0].plugins[0].name);
	conf->tiers[0].plugins[0].name = strdup("mock-z");
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "t.conf:4: unknown plugin \"mock-z\"");
}

/* A scheduler knows the plugins of the registry it was handed, and no other. */
Test(framework, a_scheduler_knows_only_the_registry_it_is_handed)
{
	static const struct vs_plugin_ops only_here = { .name = "only-here" };
	static const char text[] = "actions: allocate\ntiers:\n- plugins:\n  - name: only-here\n";
	static struct vs_registry reg;
	struct vs_sched other;
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };

	vs_registry_builtin(&reg);
	cr_assert_eq(vs_registry_add_plugin(&reg, &only_here), 0);
	cr_assert_eq(vs_registry_add_plugin(&reg, &only_here), -EEXIST);
	cr_assert_null(vs_registry_plugin(vs_builtin_registry(), "only-here"));

	cr_assert_eq(vs_conf_parse(text, strlen(text), "t.conf", NULL, VS_CONF_FLAGS_DEFAULT_ON,
				   &conf, NULL), 0);
	cr_assert_eq(vs_sched_init(&other, &cl, vs_builtin_registry(), conf, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "t.conf:4: unknown plugin \"only-here\"");
	vs_sched_destroy(&other);

	cr_assert_eq(vs_conf_parse(text, strlen(text), "t.conf", NULL, VS_CONF_FLAGS_DEFAULT_ON,
				   &conf, NULL), 0);
	cr_assert_eq(vs_sched_init(&sched, &cl, &reg, conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_run_cycle(&sched, &e), 0, "%s", e.msg);
}

Test(framework, a_registry_holds_at_most_its_size)
{
	static struct vs_plugin_ops ops[VS_REGISTRY_MAX + 1];
	static char names[VS_REGISTRY_MAX + 1][16];
	static struct vs_registry reg;

	for (u32 i = 0; i <= VS_REGISTRY_MAX; i++) {
		snprintf(names[i], sizeof(names[i]), "p%u", i);
		ops[i].name = names[i];
	}
	for (u32 i = 0; i < VS_REGISTRY_MAX; i++)
		cr_assert_eq(vs_registry_add_plugin(&reg, &ops[i]), 0);
	cr_assert_eq(vs_registry_add_plugin(&reg, &ops[VS_REGISTRY_MAX]), -ENOSPC);
	cr_assert_eq(vs_registry_plugin_index(&reg, "p7"), 7);
	cr_assert_eq(vs_registry_plugin_index(&reg, "nope"), VS_REGISTRY_MAX);
}

Test(framework, job_priority_comes_from_its_class_or_the_default)
{
	struct vs_prioclass_spec hi = { .name = "high", .value = 100 };
	struct vs_prioclass_spec def = { .name = "normal", .value = 7, .global_default = true };
	struct vs_job_spec js;

	open_with(two_tiers);
	cr_assert_eq(vs_session_job_priority(ssn, job), 0);
	cr_assert_eq(vs_prioclass_add(&cl, &def, NULL, NULL), 0);
	cr_assert_eq(vs_session_job_priority(ssn, job), 7);
	cr_assert_eq(vs_prioclass_add(&cl, &hi, NULL, NULL), 0);
	vs_job_spec_init(&js, "ns", "j");
	js.priority_class = "high";
	cr_assert_eq(vs_job_update(&cl, job, &js, NULL), 0);
	cr_assert_eq(vs_session_job_priority(ssn, job), 100);
	vs_session_close(ssn);
}

Test(framework, tasks_fall_back_to_pod_index_then_creation_order)
{
	struct vs_task_spec ts;
	struct vs_task *w10, *w2, *plain, *other;

	vs_task_spec_init(&ts, "ns", "j-worker-10", "j");
	cr_assert_eq(vs_task_add(&cl, &ts, &w10, NULL), 0);
	vs_task_spec_init(&ts, "ns", "j-worker-2", "j");
	cr_assert_eq(vs_task_add(&cl, &ts, &w2, NULL), 0);
	vs_task_spec_init(&ts, "ns", "plain", "j");
	cr_assert_eq(vs_task_add(&cl, &ts, &plain, NULL), 0);
	vs_task_spec_init(&ts, "ns", "j-ps-2", "j");
	cr_assert_eq(vs_task_add(&cl, &ts, &other, NULL), 0);
	open_with(two_tiers);
	cr_assert_lt(vs_ssn_task_order(ssn, w2, w10), 0, "index 2 before index 10");
	cr_assert_gt(vs_ssn_task_order(ssn, w10, w2), 0);
	cr_assert_lt(vs_ssn_task_order(ssn, w10, plain), 0, "no index: creation order");
	cr_assert_lt(vs_ssn_task_order(ssn, w2, other), 0, "equal indexes: creation order");
	vs_session_close(ssn);
}

Test(framework, a_predicates_words_are_joined_and_cut_to_the_reason)
{
	struct vs_fit_error fe;
	char longname[200];

	memset(fe.reason, 'x', sizeof(fe.reason));
	vs_fit_say(&fe, "Insufficient ", "nvidia.com/gpu");
	cr_assert_str_eq(fe.reason, "Insufficient nvidia.com/gpu");
	vs_fit_say(&fe, "node(s) were unschedulable", NULL);
	cr_assert_str_eq(fe.reason, "node(s) were unschedulable");

	/* A name past the room is cut, and the reason still ends. */
	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	vs_fit_say(&fe, "Insufficient ", longname);
	cr_assert_eq(strlen(fe.reason), sizeof(fe.reason) - 1);
	cr_assert(!strncmp(fe.reason, "Insufficient nnn", 16));
	vs_fit_say(&fe, longname, "cpu");
	cr_assert_eq(strlen(fe.reason), sizeof(fe.reason) - 1);
	cr_assert_eq(fe.reason[0], 'n');
}
