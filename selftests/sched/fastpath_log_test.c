// SPDX-License-Identifier: Apache-2.0
/*
 * The fast path's indexes outlive a session (sched/fastpath.h): a node that
 * failed a template's predicates left its index, and must come back when
 * its spec changes (a cordon lifted, a taint removed, a label added), as
 * the touch log of the cluster tells. Each case: a roomy node the first
 * cycle cannot use, a small one that takes the first task; the roomy one
 * is then fixed through vs_node_update() alone (nothing of its accounting
 * changes), and the next task of the same template, which the small node
 * cannot hold, must be placed on it from the index, not by the scan
 * (fast_misses counts what the index missed and the scan found).
 */
#include <string.h>

#include "testreg.h"
#include "core/log.h"
#include "schedtest.h"

static struct vs_cluster cl;
static struct vs_sched sched;

static void setup(void)
{
	struct vs_conf_names names;
	struct vs_conf *conf;
	struct vs_queue_spec qs;
	struct vs_err e = { { 0 } };

	vs_log_file = tmpfile();
	cr_assert_eq(vs_cluster_init(&cl), 0);
	vs_queue_spec_init(&qs, "default");
	cr_assert_eq(vs_queue_add(&cl, &qs, NULL, &e), 0, "%s", e.msg);
	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(vs_conf_default_text, strlen(vs_conf_default_text), "default",
				   &names, VS_CONF_FLAGS_DEFAULT_ON, &conf, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_init(&sched, &cl, vs_test_registry(), conf, &e), 0, "%s", e.msg);
}

static void teardown(void)
{
	vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
	if (vs_log_file)
		fclose(vs_log_file);
	vs_log_file = NULL;
}

TestSuite(fastpath_log, .init = setup, .fini = teardown);

/* A job of one 2-cpu task, admitted. */
static struct vs_task *add_task(const char *name)
{
	struct vs_err e = { { 0 } };
	struct vs_job_spec js;
	struct vs_task_spec ts;
	struct vs_task *task;

	vs_job_spec_init(&js, "ns", name);
	js.queue = "default";
	js.min_member = 1;
	js.phase = VS_PG_INQUEUE;
	cr_assert_eq(vs_job_add(&cl, &js, NULL, &e), 0, "%s", e.msg);
	vs_task_spec_init(&ts, "ns", name, name);
	ts.req = st_res(2000, 1LL << 30);
	cr_assert_eq(vs_task_add(&cl, &ts, &task, &e), 0, "%s", e.msg);
	return task;
}

static void cycle(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_sched_run_cycle(&sched, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_cluster_check(&cl, &e), 0, "%s", e.msg);
}

/* The roomy node "big", spoilt by @spoil, the small one "small" (room for one task). */
static void run(void (*spoil)(struct vs_node_spec *spec))
{
	struct vs_err e = { { 0 } };
	struct vs_node_spec spec;
	struct vs_node *big;
	struct vs_task *t1, *t2;

	vs_node_spec_init(&spec, "big");
	spec.allocatable = st_res(16000, 32LL << 30);
	vs_res_set(&spec.allocatable, VS_RES_PODS, 20);
	spoil(&spec);
	cr_assert_eq(vs_node_add(&cl, &spec, &big, &e), 0, "%s", e.msg);
	st_node(&cl, "small", 2000, 4LL << 30, 20);

	t1 = add_task("a");
	cycle();
	cr_assert_not_null(t1->node);
	cr_assert_str_eq(t1->node->name, "small");
	cr_assert_gt(sched.stats.fast_placements, 0, "the index did not serve");

	/* fixed: its spec alone changes */
	vs_node_spec_init(&spec, "big");
	spec.allocatable = big->allocatable;
	cr_assert_eq(vs_node_update(&cl, big, &spec, &e), 0, "%s", e.msg);
	t2 = add_task("b");
	cycle();
	cr_assert_not_null(t2->node, "the fixed node was not found");
	cr_assert_str_eq(t2->node->name, "big");
	cr_assert_eq(sched.stats.fast_misses, 0, "the kept index missed the fixed node");
}

static void cordon(struct vs_node_spec *spec)
{
	spec->unschedulable = true;
}

static void not_ready(struct vs_node_spec *spec)
{
	spec->ready = false;
}

static void tainted(struct vs_node_spec *spec)
{
	static struct vs_taint_spec taint = { "gpu", "true", VS_TAINT_NO_SCHEDULE };

	spec->taints = &taint;
	spec->nr_taints = 1;
}

Test(fastpath_log, a_lifted_cordon_brings_a_node_back)
{
	run(cordon);
}

Test(fastpath_log, a_node_made_ready_comes_back)
{
	run(not_ready);
}

Test(fastpath_log, a_removed_taint_brings_a_node_back)
{
	run(tainted);
}
