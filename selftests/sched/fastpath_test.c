// SPDX-License-Identifier: Apache-2.0
/*
 * The fast path against its oracle: random clusters (node shapes, zone
 * labels, NoSchedule taints, cordoned and not-ready nodes, running and
 * releasing load, queues of several weights, gang jobs of tasks from a few
 * request shapes, some with node selectors, tolerations, host ports (which
 * the scan places) or scheduling gates (lifted between cycles), priorities) are
 * built twice from one seed and scheduled for three cycles, once with
 * allocate's node indexes and once with "exhaustive: true", which predicates
 * and scores every node for every task as Volcano does. Between cycles the
 * same things happen to both clusters (tasks finish, nodes change spec, go
 * and come, new jobs arrive), so the indexes kept from cycle to cycle must
 * follow every change, or be rebuilt. Every bind and every
 * pipeline, in order, and every PodGroup phase must be the same; the fast
 * run must have placed tasks from its indexes (else the test proves
 * nothing) and never missed a node the scan found. One cluster in ten has a
 * node with a PreferNoSchedule taint, whose scores are normalised over the
 * candidates: there the index must not serve at all. Pods carry labels, and
 * some required pod affinity or anti-affinity (among the job's own pods, or
 * against another tier's), which the index serves by asking the predicates
 * node by node; in some clusters preferred terms, where it does not serve;
 * and spread constraints over zones or nodes (DoNotSchedule ones, which the
 * index serves, marking the nodes over the skew in the role's error cache;
 * ScheduleAnyway ones, which the scan scores).
 *
 * FASTPATH_SEEDS in the environment runs more seeds (make bench does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testreg.h"
#include "bind/bind.h"
#include "core/log.h"
#include "schedtest.h"
#include "tracetest.h"

#define NAME	32
#define TRACE	(256u << 10)

struct run {
	struct vs_cluster cl;
	struct vs_sched sched;
	struct st_trace t;		/* of trace[] */
	char trace[TRACE];
	unsigned long long seed;
	u32 nr_queues;
	bool topo;			/* HyperNodes, and jobs with a network topology */
	/*
	 * add_jobs() makes jobs whose pod terms and spread always let them
	 * fit: their terms pick no pod, their skew is wide.
	 */
	bool steady;
};

static const char *const zones[] = { "a", "b", "c" };

/* Images nodes may report, and pods ask for (ImageLocality scores them). */
static const char *const img_a[] = { "img:a", "img@sha256:a" };
static const char *const img_b[] = { "img:b" };
static const struct vs_image_spec node_imgs[] = {
	{ img_a, 2, 300LL << 20 }, { img_b, 1, 900LL << 20 },
};
static const char *const pod_imgs[][2] = { { "img:a", NULL }, { "img:b", "img:a" },
					   { "other", NULL } };

/* Some of @node_imgs on a node, from the seed's stream. */
static void node_images(struct vs_node_spec *spec)
{
	u32 v = rnd(4);		/* none, a, b, both */

	spec->images = v == 2 ? &node_imgs[1] : node_imgs;
	spec->nr_images = v == 3 ? 2 : v ? 1 : 0;
}

/*
 * A draw of job @j's labels, pod terms and spread (@what), from the seed and
 * the job's name alone: the clusters the other draws build stay those they
 * were before pods had them.
 */
static u32 side_draw(const struct run *r, const char *prefix, u32 j, u32 what)
{
	u64 h = r->seed * 0x9e3779b97f4a7c15ULL + j * 0xbf58476d1ce4e5b9ULL + what;

	for (const char *c = prefix; *c; c++)
		h = (h ^ (u8)*c) * 0x100000001b3ULL;
	h ^= h >> 31;
	h *= 0x94d049bb133111ebULL;
	return (u32)(h >> 29);
}

/*
 * @nr_jobs gang jobs named @prefix<N> in queues q0..q<nr_queues - 1>; with
 * @may_run, a quarter of them run on the nodes n0..n<nr_nodes - 1>.
 */
static void add_jobs(struct run *r, const char *prefix, u32 nr_jobs, u32 nr_queues,
		     u32 nr_nodes, bool may_run)
{
	struct vs_err e = { { 0 } };
	char name[2 * NAME], qname[NAME], jname[NAME];
	static const s64 cpus[] = { 500, 1000, 1500, 2000, 4000 };
	static const s64 mems[] = { 1LL << 30, 2LL << 30, 4LL << 30 };
	u32 next = 0;

	for (u32 j = 0; j < nr_jobs; j++) {
		struct vs_job_spec js;
		struct vs_job *job;
		u32 nr_tasks = 1 + rnd(6), shape = rnd(8);
		s32 prio = (s32)rnd(3) * 100;
		bool running = may_run && !rnd(4);
		struct vs_kv_spec sel = { "zone", zones[rnd(3)] };
		bool with_sel = !rnd(4);
		struct vs_toleration_spec tol = { "gpu", VS_TOLERATION_EQUAL, "true",
						  VS_TAINT_NO_SCHEDULE, false, 0 };
		bool with_tol = !rnd(4);
		struct vs_host_port_spec port = { .port = 8080 + rnd(2) };
		bool with_port = !rnd(6), gated = !rnd(10);
		u32 img = rnd(5);	/* 3, 4: none */
		/*
		 * Labels, and required pod terms: apart by node or zone from
		 * the job's own pods, together in a zone with them, or away
		 * from the nodes of tier t0's pods; in some clusters preferred
		 * terms, for which the index must not serve.
		 */
		u32 terms = side_draw(r, prefix, j, 1) % 10, tier = side_draw(r, prefix, j, 2) % 2;
		struct vs_kv_spec labels[] = { { "app", jname }, { "tier", tier ? "t1" : "t0" } };
		struct vs_kv_spec t0 = { "tier", "t0" }, t9 = { "tier", "t9" };
		struct vs_label_selector_spec nobody = { .match_labels = &t9, .nr_match_labels = 1 };
		struct vs_label_selector_spec own = { .match_labels = labels, .nr_match_labels = 1 };
		struct vs_label_selector_spec tier0 = { .match_labels = &t0, .nr_match_labels = 1 };
		struct vs_pod_affinity_term_spec term = {
			.selector = terms == 3 ? &tier0 : &own,
			.topology_key = terms == 1 || terms == 2 ? "zone" : "kubernetes.io/hostname",
		};
		struct vs_weighted_pod_affinity_term_spec pref = { .weight = 50, .term = term };
		struct vs_pod_affinity_spec pa = { .required = &term, .nr_required = 1 };
		struct vs_affinity_spec aff = { 0 };
		/* spread among the job's pods: by zone or node, DoNotSchedule, or scored */
		u32 spreads = side_draw(r, prefix, j, 3) % 6;
		struct vs_spread_constraint_spec spread = {
			.max_skew = 1 + (s32)(side_draw(r, prefix, j, 4) % 2),
			.topology_key = spreads == 1 ? "kubernetes.io/hostname" : "zone",
			.when = spreads == 2 ? VS_SPREAD_SCHEDULE_ANYWAY : VS_SPREAD_DO_NOT_SCHEDULE,
			.selector = &own,
		};

		snprintf(jname, sizeof(jname), "%s%u", prefix, j);
		if (r->steady) {
			term.selector = &nobody;
			spread.max_skew = 1000;
			terms = terms == 2 ? 0 : terms;
		}
		if (terms == 4 && r->seed % 7 == 3) {
			pa = (struct vs_pod_affinity_spec){ .preferred = &pref, .nr_preferred = 1 };
			aff.pod_anti_affinity = &pa;
		} else if (terms == 2) {
			aff.pod_affinity = &pa;
		} else if (terms < 4) {
			aff.pod_anti_affinity = &pa;
		}
		snprintf(qname, sizeof(qname), "q%u", rnd(nr_queues));
		vs_job_spec_init(&js, "ns", jname);
		js.queue = qname;
		js.min_member = running ? 1 : 1 + rnd(nr_tasks);
		js.phase = running ? VS_PG_RUNNING : (rnd(2) ? VS_PG_INQUEUE : VS_PG_PENDING);
		if (r->topo && !running) {
			u32 v = rnd(4);	/* hard within tier 1 or 2, soft, or none */

			js.net_topology.set = v < 3;
			js.net_topology.mode = v < 2 ? VS_NT_HARD : VS_NT_SOFT;
			js.net_topology.has_highest_tier = v < 2;
			js.net_topology.highest_tier = (s32)v + 1;
		}
		cr_assert_eq(vs_job_add(&r->cl, &js, &job, &e), 0, "%s", e.msg);
		for (u32 t = 0; t < nr_tasks; t++) {
			struct vs_task_spec ts;
			struct vs_task *task;
			char node[NAME];

			snprintf(name, sizeof(name), "%s-%u", jname, t);
			vs_task_spec_init(&ts, "ns", name, jname);
			/* roles: each its predicate error cache; some jobs have two */
			ts.role = t && side_draw(r, prefix, j, 5) % 3 ? "worker" : "ps";
			ts.req = st_res(cpus[shape % 5], mems[shape % 3]);
			ts.priority = prio;
			if (with_sel) {
				ts.node_selector = &sel;
				ts.nr_node_selector = 1;
			}
			if (with_tol) {
				ts.tolerations = &tol;
				ts.nr_tolerations = 1;
			}
			if (with_port) {
				ts.ports = &port;
				ts.nr_ports = 1;
			}
			if (img < 3) {
				ts.images = pod_imgs[img];
				ts.nr_images = pod_imgs[img][1] ? 2 : 1;
			}
			ts.labels = labels;
			ts.nr_labels = ARRAY_SIZE(labels);
			if (aff.pod_affinity || aff.pod_anti_affinity)
				ts.affinity = &aff;
			if (spreads < 3) {
				ts.spread = &spread;
				ts.nr_spread = 1;
			}
			if (running) {
				/* Running where it fits, a few of them terminating (Releasing). */
				snprintf(node, sizeof(node), "n%u", (next++ * 7) % nr_nodes);
				ts.node = node;
				ts.status = rnd(5) ? VS_TASK_RUNNING : VS_TASK_RELEASING;
				if (vs_task_add(&r->cl, &ts, &task, &e)) {
					vs_err_clear(&e);
					ts.node = NULL;
					ts.status = VS_TASK_PENDING;
				} else {
					continue;
				}
			}
			ts.gated = gated && !rnd(2);
			cr_assert_eq(vs_task_add(&r->cl, &ts, &task, &e), 0, "%s", e.msg);
		}
	}
}

/*
 * HyperNode @name of @tier over the @nr nodes or HyperNodes @members (by
 * name), replacing one of that name.
 */
static void put_hypernode(struct run *r, const char *name, s32 tier, enum vs_hn_member_type type,
			  char (*members)[NAME], u32 nr)
{
	struct vs_hn_member_spec m[160];
	struct vs_hypernode_spec spec = { .name = name, .tier = tier, .members = m, .nr_members = nr };
	struct vs_hypernode *old = vs_hypernode_find(&r->cl, name);
	struct vs_err e = { { 0 } };

	cr_assert_leq(nr, ARRAY_SIZE(m));
	for (u32 i = 0; i < nr; i++)
		m[i] = (struct vs_hn_member_spec){ .type = type, .sel = VS_HN_EXACT,
						   .name = members[i] };
	if (old)
		vs_hypernode_del(&r->cl, old);
	cr_assert_eq(vs_hypernode_add(&r->cl, &spec, NULL, &e), 0, "%s", e.msg);
}

/*
 * Leaves of tier 1 over the nodes n0..n<nr_nodes - 1> (some under none,
 * a few under two) and spines of tier 2 over them: the nodes of a leaf
 * are not those of a range of slots, and some leaves are not pure.
 */
static void add_topology(struct run *r, u32 nr_nodes)
{
	u32 nr_leaves = 1 + rnd(6), nr_spines = 1 + rnd(2);
	static char members[8][160][NAME];
	u32 nr[8] = { 0 };
	char name[NAME];

	for (u32 i = 0; i < nr_nodes; i++) {
		u32 l = rnd(nr_leaves);

		if (!rnd(8))
			continue;
		snprintf(members[l][nr[l]++], NAME, "n%u", i);
		if (!rnd(20)) {
			l = (l + 1) % nr_leaves;
			snprintf(members[l][nr[l]++], NAME, "n%u", i);
		}
	}
	for (u32 l = 0; l < nr_leaves; l++) {
		if (!nr[l])
			snprintf(members[l][nr[l]++], NAME, "n0");
		snprintf(name, sizeof(name), "leaf%u", l);
		put_hypernode(r, name, 1, VS_HN_MEMBER_NODE, members[l], nr[l]);
	}
	if (nr_spines > nr_leaves)
		nr_spines = nr_leaves;
	for (u32 sp = 0; sp < nr_spines; sp++) {
		u32 n = 0;

		for (u32 l = sp; l < nr_leaves; l += nr_spines)
			snprintf(members[7][n++], NAME, "leaf%u", l);
		snprintf(name, sizeof(name), "spine%u", sp);
		put_hypernode(r, name, 2, VS_HN_MEMBER_HYPERNODE, members[7], n);
	}
}

/* The cluster of @seed into @r; the same seed, the same cluster. */
static void build(struct run *r, unsigned long long seed)
{
	struct vs_err e = { { 0 } };
	u32 nr_nodes, nr_queues, nr_jobs;
	char name[NAME], qname[NAME];

	rnd_state = seed;
	r->t = (struct st_trace){ .buf = r->trace, .cap = TRACE };
	cr_assert_eq(vs_cluster_init(&r->cl), 0);
	nr_nodes = 5 + rnd(60);
	for (u32 i = 0; i < nr_nodes; i++) {
		struct vs_node_spec spec;
		struct vs_kv_spec label[] = { { "zone", zones[rnd(3)] },
					      { "kubernetes.io/hostname", name } };
		struct vs_taint_spec taint = { "gpu", "true", VS_TAINT_NO_SCHEDULE };
		struct vs_taint_spec soft = { "spot", "true", VS_TAINT_PREFER_NO_SCHEDULE };
		struct vs_node *n;

		snprintf(name, sizeof(name), "n%u", i);
		vs_node_spec_init(&spec, name);
		spec.allocatable = st_res(2000 * (1 + rnd(8)), (2LL << 30) * (1 + rnd(8)));
		vs_res_set(&spec.allocatable, VS_RES_PODS, 3 + rnd(20));
		spec.labels = label;
		spec.nr_labels = ARRAY_SIZE(label);
		if (!rnd(6)) {
			spec.taints = &taint;
			spec.nr_taints = 1;
		}
		/* One cluster in ten has a node that scores per candidate set: no index then. */
		if (!i && !(seed % 10)) {
			spec.taints = &soft;
			spec.nr_taints = 1;
		}
		spec.unschedulable = !rnd(15);
		spec.ready = rnd(20) != 0;
		node_images(&spec);
		cr_assert_eq(vs_node_add(&r->cl, &spec, &n, &e), 0, "%s", e.msg);
	}
	nr_queues = 1 + rnd(3);
	r->seed = seed;
	r->nr_queues = nr_queues;
	for (u32 q = 0; q < nr_queues; q++) {
		struct vs_queue_spec spec;
		struct vs_queue *queue;

		snprintf(qname, sizeof(qname), "q%u", q);
		vs_queue_spec_init(&spec, qname);
		spec.weight = 1 + rnd(4);
		cr_assert_eq(vs_queue_add(&r->cl, &spec, &queue, &e), 0, "%s", e.msg);
	}
	nr_jobs = 2 + rnd(40);
	add_jobs(r, "j", nr_jobs, nr_queues, nr_nodes, true);
	if (r->topo)
		add_topology(r, nr_nodes);
	cr_assert_eq(vs_cluster_check(&r->cl, &e), 0, "%s", e.msg);
}

static bool soft_tainted(const struct vs_node *node)
{
	for (u32 i = 0; node->taints && i < node->taints->nr; i++)
		if (node->taints->t[i].effect == VS_TAINT_PREFER_NO_SCHEDULE)
			return true;
	return false;
}

/*
 * What happens to @r's cluster after cycle @r->t.cycle, the same in both runs
 * (from the seed and the cycle, and the cluster both runs left alike):
 * tasks finish, nodes change spec, go and come, new jobs arrive.
 */
static void churn(struct run *r)
{
	struct vs_err e = { { 0 } };
	struct vs_node *node, *ntmp;
	struct vs_job *job;
	struct vs_task *t, *tmp;
	char name[NAME];
	u32 i = 0;

	rnd_state = r->seed * 7919 + r->t.cycle;
	list_for_each_entry(job, &r->cl.jobs, list) {
		list_for_each_entry_safe(t, tmp, &job->by_status[VS_TASK_RUNNING], status_node)
			if (!rnd(3))
				cr_assert_eq(vs_task_set_status(&r->cl, t, VS_TASK_SUCCEEDED, &e), 0,
					     "%s", e.msg);
		/* some pods' gates are lifted */
		list_for_each_entry(t, &job->by_status[VS_TASK_PENDING], status_node)
			if (t->gated && !rnd(2))
				cr_assert_eq(vs_task_ungate(&r->cl, t, &e), 0, "%s", e.msg);
	}
	list_for_each_entry_safe(node, ntmp, &r->cl.nodes, list) {
		struct vs_node_spec spec;
		struct vs_kv_spec label[] = { { "zone", zones[rnd(3)] },
					      { "kubernetes.io/hostname", node->name } };
		struct vs_taint_spec taint = { "gpu", "true", VS_TAINT_NO_SCHEDULE };
		u32 what = rnd(12);

		i++;
		/* The PreferNoSchedule node stays: its cluster must keep the scan. */
		if (soft_tainted(node) || what > 3)
			continue;
		/* Rarely: a node gone (or added, below) makes every index start over. */
		if (what == 0 && !node->nr_tasks && !rnd(8)) {
			cr_assert_eq(vs_node_del(&r->cl, node, &e), 0, "%s", e.msg);
			continue;
		}
		vs_node_spec_init(&spec, node->name);
		spec.allocatable = node->allocatable;
		if (what == 1)
			vs_res_set(&spec.allocatable, VS_RES_CPU, 2000 * (1 + rnd(8)));
		spec.labels = label;
		spec.nr_labels = ARRAY_SIZE(label);
		if (!rnd(6)) {
			spec.taints = &taint;
			spec.nr_taints = 1;
		}
		spec.unschedulable = !rnd(8);
		spec.ready = rnd(10) != 0;
		node_images(&spec);	/* its summaries taken again, others' left stale */
		cr_assert_eq(vs_node_update(&r->cl, node, &spec, &e), 0, "%s", e.msg);
	}
	for (u32 n = rnd(6) ? 0 : 1 + rnd(2); n; n--) {
		struct vs_node_spec spec;
		struct vs_kv_spec label[] = { { "zone", zones[rnd(3)] },
					      { "kubernetes.io/hostname", name } };

		snprintf(name, sizeof(name), "m%u-%u", r->t.cycle, n);
		vs_node_spec_init(&spec, name);
		spec.allocatable = st_res(2000 * (1 + rnd(8)), (2LL << 30) * (1 + rnd(8)));
		vs_res_set(&spec.allocatable, VS_RES_PODS, 3 + rnd(20));
		spec.labels = label;
		spec.nr_labels = ARRAY_SIZE(label);
		node_images(&spec);
		cr_assert_eq(vs_node_add(&r->cl, &spec, &node, &e), 0, "%s", e.msg);
	}
	snprintf(name, sizeof(name), "c%u-", r->t.cycle);
	add_jobs(r, name, 1 + rnd(8), r->nr_queues, 0, false);
	/* Now and then the tree changes: the indexes are laid out anew. */
	if (r->topo && !rnd(3)) {
		u32 nr_nodes = 0;

		list_for_each_entry(node, &r->cl.nodes, list)
			nr_nodes++;
		add_topology(r, nr_nodes);
	}
	cr_assert_eq(vs_cluster_check(&r->cl, &e), 0, "%s", e.msg);
}

/*
 * Three cycles of @conf on @r, binds confirmed (Bound) between them, and
 * the cluster changing.
 */
static void schedule(struct run *r, const char *conf)
{
	struct vs_conf_names names;
	struct vs_conf *c;
	struct vs_err e = { { 0 } };

	vs_registry_names(vs_test_registry(), &names);
	cr_assert_eq(vs_conf_parse(conf, strlen(conf), "t.conf", &names,
				   VS_CONF_FLAGS_DEFAULT_ON, &c, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_sched_init(&r->sched, &r->cl, vs_test_registry(), c, &e), 0, "%s", e.msg);
	r->sched.sink = (struct vs_decision_sink){
		.bind = st_trace_bind, .evict = st_trace_evict, .pipeline = st_trace_pipeline,
		.ctx = &r->t,
	};
	for (r->t.cycle = 1; r->t.cycle <= 3; r->t.cycle++) {
		struct vs_job *job;
		struct vs_task *t, *tmp;

		cr_assert_eq(vs_sched_run_cycle(&r->sched, &e), 0, "%s", e.msg);
		cr_assert_eq(vs_cluster_check(&r->cl, &e), 0, "%s", e.msg);
		list_for_each_entry(job, &r->cl.jobs, list)
			list_for_each_entry_safe(t, tmp, &job->by_status[VS_TASK_BINDING],
						 status_node)
				cr_assert_eq(vs_bind_succeeded(&r->cl, t, &e), 0, "%s", e.msg);
		if (r->t.cycle < 3)
			churn(r);
	}
	/* The phases, after the trace. */
	{
		struct vs_job *job;

		list_for_each_entry(job, &r->cl.jobs, list)
			r->t.len += (size_t)snprintf(r->trace + r->t.len, TRACE - r->t.len,
						   "podgroup %s %s\n", job->name,
						   vs_pg_phase_name(job->phase));
	}
}

static void release(struct run *r)
{
	vs_sched_destroy(&r->sched);
	vs_cluster_destroy(&r->cl);
}

static const char conf_fast[] =
	"actions: \"enqueue, allocate, backfill\"\n"
	"tiers:\n"
	"- plugins:\n  - name: priority\n  - name: gang\n  - name: conformance\n"
	"- plugins:\n  - name: overcommit\n  - name: drf\n  - name: predicates\n"
	"  - name: proportion\n  - name: nodeorder\n  - name: binpack\n";

static const char conf_exhaustive[] =
	"actions: \"enqueue, allocate, backfill\"\n"
	"tiers:\n"
	"- plugins:\n  - name: priority\n  - name: gang\n  - name: conformance\n"
	"- plugins:\n  - name: overcommit\n  - name: drf\n  - name: predicates\n"
	"  - name: proportion\n  - name: nodeorder\n  - name: binpack\n"
	"configurations:\n- name: allocate\n  arguments:\n    exhaustive: true\n";

static const char conf_topo_fast[] =
	"actions: \"enqueue, allocate, backfill\"\n"
	"tiers:\n"
	"- plugins:\n  - name: priority\n  - name: gang\n  - name: conformance\n"
	"- plugins:\n  - name: overcommit\n  - name: drf\n  - name: predicates\n"
	"  - name: proportion\n  - name: nodeorder\n  - name: binpack\n"
	"  - name: network-topology-aware\n";

static const char conf_topo_exhaustive[] =
	"actions: \"enqueue, allocate, backfill\"\n"
	"tiers:\n"
	"- plugins:\n  - name: priority\n  - name: gang\n  - name: conformance\n"
	"- plugins:\n  - name: overcommit\n  - name: drf\n  - name: predicates\n"
	"  - name: proportion\n  - name: nodeorder\n  - name: binpack\n"
	"  - name: network-topology-aware\n"
	"configurations:\n- name: allocate\n  arguments:\n    exhaustive: true\n";

/* Allocate twice a session: the second runs on what the first left. */
static const char conf_twice_fast[] =
	"actions: \"enqueue, allocate, allocate, backfill\"\n"
	"tiers:\n"
	"- plugins:\n  - name: priority\n  - name: gang\n  - name: conformance\n"
	"- plugins:\n  - name: overcommit\n  - name: drf\n  - name: predicates\n"
	"  - name: proportion\n  - name: nodeorder\n  - name: binpack\n";

static const char conf_twice_exhaustive[] =
	"actions: \"enqueue, allocate, allocate, backfill\"\n"
	"tiers:\n"
	"- plugins:\n  - name: priority\n  - name: gang\n  - name: conformance\n"
	"- plugins:\n  - name: overcommit\n  - name: drf\n  - name: predicates\n"
	"  - name: proportion\n  - name: nodeorder\n  - name: binpack\n"
	"configurations:\n- name: allocate\n  arguments:\n    exhaustive: true\n";

static struct run fast, slow;

static void setup(void)
{
	vs_log_file = tmpfile();	/* the plugins' warnings */
}

static void teardown(void)
{
	if (vs_log_file)
		fclose(vs_log_file);
	vs_log_file = NULL;
}

TestSuite(fastpath, .init = setup, .fini = teardown, .timeout = 300);

static u32 nr_seeds(void)
{
	const char *env = getenv("FASTPATH_SEEDS");

	return env ? (u32)strtoul(env, NULL, 10) : 200;
}

/*
 * The cluster of seed @s (with HyperNodes when @topo) scheduled by the
 * fast path (@with_index) and by the exhaustive scan (@without): the
 * same decisions, the index never missing a node the scan found, and
 * not serving at all beside a PreferNoSchedule taint. Both are left for
 * the caller to read and release.
 */
static void decide_both(u32 s, bool topo, const char *with_index, const char *without)
{
	memset(&fast, 0, sizeof(fast));
	memset(&slow, 0, sizeof(slow));
	fast.topo = slow.topo = topo;
	build(&fast, s);
	build(&slow, s);
	schedule(&fast, with_index);
	schedule(&slow, without);
	cr_assert_eq(slow.sched.stats.fast_placements, 0, "seed %u: exhaustive used the index", s);
	cr_assert_eq(fast.sched.stats.fast_misses, 0, "seed %u: the index missed", s);
	if (!(s % 10))
		cr_assert_eq(fast.sched.stats.fast_placements, 0, "seed %u: a PreferNoSchedule "
			     "taint, and the index served", s);
	cr_assert_str_eq(fast.trace, slow.trace, "seed %u: the fast path decided otherwise", s);
}

Test(fastpath, random_clusters_decide_as_the_exhaustive_scan)
{
	u32 seeds = nr_seeds();
	u64 placed = 0, class_out = 0, elsewhere = 0;

	for (u32 s = 1; s <= seeds; s++) {
		decide_both(s, false, conf_fast, conf_exhaustive);
		placed += fast.sched.stats.fast_placements;
		class_out += fast.sched.stats.class_out;
		elsewhere += fast.sched.stats.fast_elsewhere;
		cr_assert_eq(slow.sched.stats.class_out, 0, "seed %u: exhaustive asked the classes", s);
		release(&fast);
		release(&slow);
	}
	cr_assert_gt(placed, seeds, "the indexes placed %llu tasks in %u clusters",
		     (unsigned long long)placed, seeds);
	/* Selectors, taints, cordons and not-ready nodes: classes kept nodes out. */
	cr_assert_gt(class_out, seeds, "node classes kept %llu nodes out in %u clusters",
		     (unsigned long long)class_out, seeds);
	/* Pod anti-affinity and affinity refused nodes the indexes offered, which stayed. */
	cr_assert_gt(elsewhere, seeds, "pods elsewhere refused %llu offered nodes in %u clusters",
		     (unsigned long long)elsewhere, seeds);
}

/*
 * The same with allocate run twice a session: what one allocate remembered
 * of its role caches (the spread domains it marked) must not pass for the
 * next one's.
 */
Test(fastpath, allocate_twice_a_session_decides_as_the_exhaustive_scan)
{
	u32 seeds = nr_seeds() / 2;
	u64 placed = 0;

	for (u32 s = 1; s <= seeds; s++) {
		decide_both(s, false, conf_twice_fast, conf_twice_exhaustive);
		placed += fast.sched.stats.fast_placements;
		release(&fast);
		release(&slow);
	}
	cr_assert_gt(placed, seeds, "the indexes placed %llu tasks in %u clusters",
		     (unsigned long long)placed, seeds);
}

/*
 * The same with HyperNodes (leaves whose nodes are scattered over the
 * slots, nodes under none or two, a tree that changes between cycles) and
 * network-topology-aware last: the indexes, laid out by leaf, serve the
 * tasks without a topology, and those with one in the dry runs of a leaf,
 * and must choose as the scan, whose scores add the plugin's HyperNode
 * bin-packing to every node, or its score by the job's HyperNode.
 */
Test(fastpath, random_topologies_decide_as_the_exhaustive_scan)
{
	u32 seeds = nr_seeds();
	u64 placed = 0, dry = 0;

	for (u32 s = 1; s <= seeds; s++) {
		decide_both(s, true, conf_topo_fast, conf_topo_exhaustive);
		placed += fast.sched.stats.fast_placements;
		dry += fast.sched.stats.fast_dry_placements;
		cr_assert_eq(slow.sched.stats.fast_dry_placements, 0, "seed %u: exhaustive used the "
			     "index in a dry run", s);
		release(&fast);
		release(&slow);
	}
	cr_assert_gt(placed, seeds, "the indexes placed %llu tasks in %u clusters",
		     (unsigned long long)placed, seeds);
	cr_assert_gt(dry, seeds, "the indexes placed %llu tasks in the dry runs of %u clusters",
		     (unsigned long long)dry, seeds);
}

/*
 * A steady state: every cycle, the tasks running finish and jobs of the
 * same kinds as before arrive. Once the templates, indexes, pools, arena
 * chunks and scratch have grown to the workload, a whole cycle (session
 * open, actions, close with its podgroup conditions) takes nothing from
 * the general heap. jemalloc counts what this thread allocated; in
 * SANITIZE=1 builds ASan's allocator replaces it and there is nothing to
 * count.
 */
#ifndef __SANITIZE_ADDRESS__
#include <jemalloc/jemalloc.h>

static u64 thread_counter(const char *name)
{
	u64 v = 0;
	size_t len = sizeof(v);

	cr_assert_eq(mallctl(name, &v, &len, NULL, 0), 0, "mallctl %s", name);
	return v;
}

/* A gang that waits for ever: its tasks ask for more than a node has, or for a zone none is in. */
static void add_waiting_job(struct run *r, const char *name, s64 cpu, const char *zone)
{
	struct vs_err e = { { 0 } };
	struct vs_kv_spec sel = { "zone", zone };
	struct vs_job_spec js;
	struct vs_job *job;
	char tname[NAME];

	vs_job_spec_init(&js, "ns", name);
	js.queue = "q0";
	js.min_member = 2;
	js.phase = VS_PG_INQUEUE;
	cr_assert_eq(vs_job_add(&r->cl, &js, &job, &e), 0, "%s", e.msg);
	for (u32 t = 0; t < 2; t++) {
		struct vs_task_spec ts;
		struct vs_task *task;

		snprintf(tname, sizeof(tname), "%s-%u", name, t);
		vs_task_spec_init(&ts, "ns", tname, name);
		ts.req = st_res(cpu, 1LL << 30);
		ts.node_selector = &sel;
		ts.nr_node_selector = 1;
		cr_assert_eq(vs_task_add(&r->cl, &ts, &task, &e), 0, "%s", e.msg);
	}
}
#endif

Test(fastpath, a_steady_cycle_allocates_nothing_from_the_heap)
{
#ifdef __SANITIZE_ADDRESS__
	cr_skip_test("AddressSanitizer's allocator replaces jemalloc's counters");
#else
	struct vs_err e = { { 0 } };
	u64 alloc = 0, dealloc = 0, placed = 0;
	char prefix[NAME];

	memset(&fast, 0, sizeof(fast));
	build(&fast, 4);	/* no PreferNoSchedule node: the indexes serve */
	schedule(&fast, conf_fast);
	/* Jobs that never fit: every cycle records why, and the podgroups say so. */
	add_waiting_job(&fast, "huge", 1000000, "a");
	add_waiting_job(&fast, "nowhere", 500, "z");
	for (u32 c = 0; c < 6; c++) {
		struct vs_job *job;
		struct vs_task *t, *tmp;
		u64 a, d, p;

		list_for_each_entry(job, &fast.cl.jobs, list)
			for (int s = VS_TASK_BOUND; s <= VS_TASK_RUNNING; s++)
				list_for_each_entry_safe(t, tmp, &job->by_status[s], status_node)
					cr_assert_eq(vs_task_set_status(&fast.cl, t, VS_TASK_SUCCEEDED,
									&e), 0, "%s", e.msg);
		rnd_state = 77;		/* the same kinds of job every cycle */
		fast.steady = true;
		snprintf(prefix, sizeof(prefix), "s%u-", c);
		add_jobs(&fast, prefix, 12, fast.nr_queues, 0, false);
		fast.t.len = 0;		/* the trace of this cycle only */
		p = fast.sched.stats.fast_placements;
		a = thread_counter("thread.allocated");
		d = thread_counter("thread.deallocated");
		cr_assert_eq(vs_sched_run_cycle(&fast.sched, &e), 0, "%s", e.msg);
		alloc = thread_counter("thread.allocated") - a;
		dealloc = thread_counter("thread.deallocated") - d;
		placed = fast.sched.stats.fast_placements - p;
		list_for_each_entry(job, &fast.cl.jobs, list)
			list_for_each_entry_safe(t, tmp, &job->by_status[VS_TASK_BINDING], status_node)
				cr_assert_eq(vs_bind_succeeded(&fast.cl, t, &e), 0, "%s", e.msg);
	}
	cr_assert_gt(placed, 0, "the indexes placed nothing in the last cycle");
	for (u32 i = 0; i < 2; i++) {
		const struct vs_job *job = vs_job_find(&fast.cl, "ns", i ? "nowhere" : "huge");
		const struct vs_pg_condition *cond = &job->cond[VS_PG_COND_UNSCHEDULABLE];

		cr_assert(cond->set && strstr(vs_pg_cond_message(cond), "not ready"),
			  "%s: no Unschedulable condition written", job->name);
	}
	cr_assert_eq(alloc, 0, "a steady cycle allocated %llu bytes", (unsigned long long)alloc);
	cr_assert_eq(dealloc, 0, "a steady cycle freed %llu bytes", (unsigned long long)dealloc);
	release(&fast);
#endif
}
