// SPDX-License-Identifier: Apache-2.0
/*
 * The capacity plugin (Volcano's plugins/capacity): every queue states what
 * it deserves (spec.deserved) instead of being given a weighted share, and
 * may hold more than that, up to its realCapability, while others do not
 * claim it back.
 *
 * Flat queues (the default). At session open every queue that has a job in
 * the session gets its attributes: allocated (its tasks in an allocated
 * status), request (those and its pending tasks), inqueue (the minResources
 * its admitted jobs still miss), elastic (what its jobs hold beyond their
 * minResources), guarantee, capability, realCapability (the cluster less
 * every queue's guarantee, plus its own, within its capability) and
 * deserved (its spec, within realCapability and at least its guarantee). A
 * queue's share is the largest fraction of its deserved, over the resources
 * it deserves, that it holds; a queue that deserves nothing has a share of
 * 1, so that it comes after every queue still below what it deserves.
 *
 * Hierarchical queues (enableHierarchy). The queues form a tree by their
 * parent (none: a child of the queue named "root"); every queue gets
 * attributes, and a queue's totals are those of every job below it. Only
 * leaves hold jobs: a job in a queue with children, a parent that does not
 * exist, a cycle or a missing root leave the plugin "not ready" for the
 * session, and then it refuses everything it is asked. Root's capability is
 * unlimited unless set, and its deserved and guarantee are the sums of its
 * children's. Top down, a child inherits from its parent the cpu, memory
 * and scalars its capability leaves out, its deserved is raised to its
 * guarantee (not bounded by realCapability), and its realCapability is its
 * parent's less all the siblings' guarantees, plus its own, within its
 * capability. Allocatable and JobEnqueueable must hold at the leaf and at
 * every ancestor. With ancestorReclaimLevel L > 0, Reclaimable also asks the
 * victim's ancestors up to L levels that the reclaimer does not share, and
 * Preemptive lets a queue below its deserved at one of them reclaim.
 *
 * Extension points: QueueOrder (priority, then the lower share, then the
 * queue that deserves something; in a tree, leaves first, compared through
 * their ancestors below the deepest common one), VictimQueueOrder (tree
 * only: the queue closest in the tree to the reclaimer first), Allocatable
 * (the queue is open and allocated + request stays within realCapability
 * over the dimensions the request names), JobEnqueueable and JobEnqueued
 * (minResources + allocated + inqueue - elastic within realCapability),
 * Preemptive (within realCapability, and at or below deserved in one
 * dimension the request names), Reclaimable (victims, lowest first, from
 * queues above their deserved in a dimension the victim holds, never below
 * their guarantee) and the allocate/deallocate events. Capacity has no
 * Overused: Volcano's registers none.
 *
 * The amounts are integers in Volcano's units, but Volcano keeps them in
 * float64 and divides for the share; so does this file (struct vs_fres),
 * with Volcano's comparisons, so that every decision comes out as its does.
 * A queue's allocated, which the events add to and take from, is read from
 * an exact sum (core/sum.h): a float64 one that rounded a small amount away
 * beside a huge one would not come back to what the queue holds. Where
 * Volcano's float64 sums are exact (below 2^53) the doubles are its.
 */
#include <string.h>

#include "sched/victims.h"
#include "core/fres.h"
#include "core/log.h"
#include "core/sum.h"
#include "plugins/capacity.h"
#include "plugins/plugins.h"
#include "sched/session.h"

#define PODS_BIT	VS_RES_BIT(VS_RES_PODS)
#define NO_QUEUE	((u32)-1)
#define ROOT_QUEUE	"root"

struct capacity {
	struct vs_capacity_queue *queues;	/* by queue sidx */
	struct vs_sum *allocated;		/* queues[i].allocated, exactly */
	u32 nr_queues;
	struct vs_fres total;
	struct vs_fres total_guarantee;

	bool hierarchy;			/* enableHierarchy */
	bool ready;			/* the queue tree is sound; always, flat */
	s64 level;			/* ancestorReclaimLevel */

	/* Reclaimable's running allocations, by queue sidx, made on first use. */
	struct vs_fres *left;
	u32 *stamp;			/* left[i] is valid when stamp[i] == epoch */
	u32 epoch;
	struct vs_victim_queue victims;	/* BuildVictimsPriorityQueue of one call */
	u32 *anc;			/* one victim's ancestors to charge, by sidx */
};

static int capacity_check_conf(const struct vs_conf_plugin *cp, struct vs_err *err)
{
	const char *src = cp->args.source ? cp->args.source : "configuration";
	s64 level = 0;
	bool b;
	int ret;

	if ((ret = vs_args_get_int(&cp->args, "ancestorReclaimLevel", &level, err)) ||
	    (ret = vs_args_get_bool(&cp->args, "capacity.DynamicResourceAllocationEnable", &b,
				    err)) ||
	    (ret = vs_args_get_bool(&cp->args, "capacity.DRAConsumableCapacityEnable", &b, err)))
		return ret;
	if (level < 0) {
		const struct vs_arg *a = vs_args_find(&cp->args, "ancestorReclaimLevel");

		return vs_err_set(err, EINVAL,
				  "%s:%u: ancestorReclaimLevel %lld cannot be negative",
				  src, a ? a->line : cp->line, (long long)level);
	}
	return 0;
}

static void update_share(struct vs_capacity_queue *cq)
{
	vs_resmask_t names;
	double res = 0;

	/* no deserved: best effort, served after every queue below its share */
	if (vs_fres_is_empty(&cq->deserved)) {
		cq->share = 1;
		return;
	}
	names = vs_fres_names(&cq->deserved);
	while (names) {
		unsigned int d = __builtin_ctz(names);
		double s = vs_fshare(vs_fres_get(&cq->allocated, d), vs_fres_get(&cq->deserved, d));

		if (s > res)
			res = s;
		names &= names - 1;
	}
	cq->share = res;
}

/* Volcano's newQueueAttr: the spec, as NewResource reads it. */
static void spec_attr(struct vs_capacity_queue *cq, const struct vs_queue *queue)
{
	vs_fres_from_res(&cq->deserved, &queue->deserved);
	vs_fres_from_res(&cq->guarantee, &queue->guarantee);
	vs_fres_clear(&cq->capability);
	if (queue->has_capability)
		vs_fres_from_res(&cq->capability, &queue->capability);
}

/* Flat: realCapability from the cluster, the guarantees and the capability. */
static void flat_attr(struct capacity *cap, struct vs_capacity_queue *cq,
		      const struct vs_queue *queue)
{
	spec_attr(cq, queue);
	vs_fres_exceeded_part(&cq->real_capability, &cap->total, &cap->total_guarantee);
	vs_fres_add(&cq->real_capability, &cq->guarantee);
	if (!queue->has_capability)
		return;
	/* a capability that leaves cpu or memory out does not limit it */
	if (cq->capability.v[VS_RES_CPU] <= 0)
		cq->capability.v[VS_RES_CPU] = VS_FRES_INF;
	if (cq->capability.v[VS_RES_MEMORY] <= 0)
		cq->capability.v[VS_RES_MEMORY] = VS_FRES_INF;
	vs_fres_min_dimension(&cq->real_capability, &cq->capability, VS_DIM_INFINITY);
}

/* What @job adds to its queue's attributes. */
struct job_part {
	const struct vs_res *allocated_res;	/* exact, for the allocated sums */
	struct vs_fres allocated, request, inqueue, elastic;
};

static void job_part(struct job_part *jp, const struct vs_job *job)
{
	const struct vs_task *task;
	struct vs_fres f, min, dec;
	struct vs_res need;

	/* the core keeps job->allocated as the sum over AllocatedStatus tasks */
	jp->allocated_res = &job->allocated;
	vs_fres_from_res(&jp->allocated, &job->allocated);
	jp->request = jp->allocated;
	list_for_each_entry(task, &job->by_status[VS_TASK_PENDING], status_node) {
		vs_fres_from_res(&f, task->req);
		vs_fres_add(&jp->request, &f);
	}

	/*
	 * Admitted jobs reserve the part of minResources they have not been
	 * given yet; a running job only while it has minMember tasks placed.
	 */
	vs_fres_clear(&jp->inqueue);
	if (job->has_min_resources &&
	    (job->phase == VS_PG_INQUEUE ||
	     (job->phase == VS_PG_RUNNING && vs_job_allocated_task_num(job) >= job->min_member))) {
		vs_job_inqueue_resource(job, &need);
		vs_job_deduct_gated(job, &need);
		vs_fres_from_res(&jp->inqueue, &need);
	}

	vs_fres_clear(&min);
	if (job->has_min_resources)
		vs_fres_from_res(&min, &job->min_resources);
	vs_fres_diff(&jp->allocated, &min, VS_DIM_ZERO, &jp->elastic, &dec);
}

/*
 * Volcano adds each job to its leaf and then the leaf's change to every
 * ancestor; the amounts are integers, so adding the job's part to each is
 * the same to the bit, and the scalars present come out the same too.
 */
static void account_part(struct capacity *cap, u32 sidx, const struct job_part *jp)
{
	struct vs_capacity_queue *cq = &cap->queues[sidx];

	vs_sum_add(&cap->allocated[sidx], jp->allocated_res);
	vs_sum_to_fres(&cq->allocated, &cap->allocated[sidx]);
	vs_fres_add(&cq->request, &jp->request);
	vs_fres_add(&cq->inqueue, &jp->inqueue);
	vs_fres_add(&cq->elastic, &jp->elastic);
}

static void log_queue(const struct vs_queue *queue, const struct vs_capacity_queue *cq)
{
	char d[256], rc[256], a[256], r[256], e[256];

	if (!vs_v_enabled(4))
		return;
	vs_fres_fmt(queue->dims, d, sizeof(d), &cq->deserved);
	vs_fres_fmt(queue->dims, rc, sizeof(rc), &cq->real_capability);
	vs_fres_fmt(queue->dims, a, sizeof(a), &cq->allocated);
	vs_fres_fmt(queue->dims, r, sizeof(r), &cq->request);
	vs_fres_fmt(queue->dims, e, sizeof(e), &cq->elastic);
	vs_v(4, "The attributes of queue <%s> in capacity: deserved <%s>, realCapability <%s>, "
	     "allocate <%s>, request <%s>, elastic <%s>, share <%0.2f>",
	     queue->name, d, rc, a, r, e, cq->share);
}

static void build_flat(struct vs_session *ssn, struct capacity *cap)
{
	struct job_part jp;

	/*
	 * Volcano makes attributes only for the queues it meets through
	 * their jobs; the others are computed as well, so that a question
	 * about one (Volcano never asks) gets a sensible answer, but they
	 * stay inactive.
	 */
	for (u32 i = 0; i < ssn->nr_queues; i++)
		flat_attr(cap, &cap->queues[i], ssn->queues[i]);
	for (u32 i = 0; i < ssn->nr_jobs; i++) {
		const struct vs_job *job = ssn->jobs[i];
		struct vs_capacity_queue *cq = &cap->queues[job->queue->sidx];

		cq->active = true;
		job_part(&jp, job);
		account_part(cap, job->queue->sidx, &jp);
	}
	for (u32 i = 0; i < ssn->nr_queues; i++) {
		struct vs_capacity_queue *cq = &cap->queues[i];

		vs_fres_min_dimension(&cq->deserved, &cq->real_capability, VS_DIM_INFINITY);
		vs_fres_max(&cq->deserved, &cq->deserved, &cq->guarantee);
		update_share(cq);
		if (cq->active)
			log_queue(ssn->queues[i], cq);
	}
}

/* ---- hierarchical queues ---- */

/* The queue tree while it is built: parents and child lists by sidx. */
struct tree {
	u32 *parent;
	u32 *first_child;
	u32 *next_sibling;
	u32 root;
};

/* The sidx of @queue's parent, NO_QUEUE for root; false when it does not exist. */
static bool find_parent(struct vs_session *ssn, const struct vs_queue *queue, u32 *out)
{
	const char *name = queue->parent && *queue->parent ? queue->parent : ROOT_QUEUE;
	const struct vs_queue *parent;

	if (!strcmp(queue->name, ROOT_QUEUE)) {
		*out = NO_QUEUE;
		return true;
	}
	parent = vs_queue_find(ssn->cl, name);
	if (!parent || parent->sidx >= ssn->nr_queues || ssn->queues[parent->sidx] != parent) {
		vs_error("Failed to update Queue <%s> attributes, error: the queue %s has invalid "
			 "parent queue %s", queue->name, queue->name, name);
		return false;
	}
	*out = parent->sidx;
	return true;
}

/*
 * Every queue's ancestors, root first. Volcano's cycle check cannot fire
 * (it only recurses into parents it has not met) and leaves the queues of
 * a cycle with ancestors that depend on its map order; vsched refuses the
 * tree instead.
 */
static int link_tree(struct vs_session *ssn, struct capacity *cap, struct tree *t)
{
	u32 n = ssn->nr_queues;

	for (u32 i = 0; i < n; i++) {
		struct vs_capacity_queue *cq = &cap->queues[i];
		u32 depth = 0, q = i, *anc;

		while (t->parent[q] != NO_QUEUE && depth <= n) {
			q = t->parent[q];
			depth++;
		}
		if (depth > n) {
			vs_error("Failed to update Queue <%s> attributes, error: cycle detected in "
				 "queue hierarchy for queue %s", ssn->queues[i]->name,
				 ssn->queues[i]->name);
			cap->ready = false;
			return 0;
		}
		anc = vs_arena_alloc(ssn->arena, (depth ? depth : 1) * sizeof(*anc));
		if (!anc)
			return -ENOMEM;
		for (u32 k = depth, up = t->parent[i]; k > 0; k--, up = t->parent[up])
			anc[k - 1] = up;
		cq->ancestors = anc;
		cq->nr_ancestors = depth;
		/* the order of siblings does not matter: see settle_children() */
		if (t->parent[i] != NO_QUEUE) {
			cap->queues[t->parent[i]].nr_children++;
			t->next_sibling[i] = t->first_child[t->parent[i]];
			t->first_child[t->parent[i]] = i;
		}
	}
	return 0;
}

/*
 * Volcano's checkHierarchicalQueue for @p's children: the sums, what each
 * child inherits, and each child's realCapability. Every sum is of
 * integers, so the order of Volcano's map does not show.
 */
static void settle_children(struct capacity *cap, const struct tree *t, u32 p)
{
	struct vs_capacity_queue *pq = &cap->queues[p];
	struct vs_fres total_deserved, total_guarantee, avail;
	unsigned int d;
	u32 c;

	vs_fres_clear(&total_deserved);
	vs_fres_clear(&total_guarantee);
	for (c = t->first_child[p]; c != NO_QUEUE; c = t->next_sibling[c]) {
		struct vs_capacity_queue *cq = &cap->queues[c];
		u32 missing = pq->capability.present & ~cq->capability.present;

		vs_fres_max(&cq->deserved, &cq->deserved, &cq->guarantee);
		vs_fres_add(&total_deserved, &cq->deserved);
		vs_fres_add(&total_guarantee, &cq->guarantee);
		/* what a child's capability leaves out, it has from its parent */
		if (cq->capability.v[VS_RES_CPU] <= 0)
			cq->capability.v[VS_RES_CPU] = pq->capability.v[VS_RES_CPU];
		if (cq->capability.v[VS_RES_MEMORY] <= 0)
			cq->capability.v[VS_RES_MEMORY] = pq->capability.v[VS_RES_MEMORY];
		while (missing) {
			d = __builtin_ctz(missing);
			vs_fres_set(&cq->capability, d, pq->capability.v[d]);
			missing &= missing - 1;
		}
	}
	if (p == t->root) {
		pq->guarantee = total_guarantee;
		pq->deserved = total_deserved;
	}
	vs_fres_exceeded_part(&avail, &pq->real_capability, &total_guarantee);
	for (c = t->first_child[p]; c != NO_QUEUE; c = t->next_sibling[c]) {
		struct vs_capacity_queue *cq = &cap->queues[c];

		cq->real_capability = avail;
		vs_fres_add(&cq->real_capability, &cq->guarantee);
		vs_fres_min_dimension(&cq->real_capability, &cq->capability, VS_DIM_INFINITY);
	}
}

static int build_hierarchy(struct vs_session *ssn, struct capacity *cap)
{
	u32 n = ssn->nr_queues, max_depth = 0;
	struct vs_capacity_queue *rq;
	struct job_part jp;
	struct tree t;
	int ret;

	t.root = NO_QUEUE;
	t.parent = vs_arena_alloc(ssn->arena, (n + 1) * sizeof(u32));
	t.first_child = vs_arena_alloc(ssn->arena, (n + 1) * sizeof(u32));
	t.next_sibling = vs_arena_alloc(ssn->arena, (n + 1) * sizeof(u32));
	if (!t.parent || !t.first_child || !t.next_sibling)
		return -ENOMEM;
	for (u32 i = 0; i < n; i++) {
		struct vs_capacity_queue *cq = &cap->queues[i];

		cq->active = true;
		spec_attr(cq, ssn->queues[i]);
		t.first_child[i] = NO_QUEUE;
		if (!strcmp(ssn->queues[i]->name, ROOT_QUEUE))
			t.root = i;
		if (!find_parent(ssn, ssn->queues[i], &t.parent[i])) {
			cap->ready = false;
			return 0;
		}
	}
	ret = link_tree(ssn, cap, &t);
	if (ret || !cap->ready)
		return ret;

	for (u32 i = 0; i < ssn->nr_jobs; i++) {
		const struct vs_job *job = ssn->jobs[i];
		struct vs_capacity_queue *cq = &cap->queues[job->queue->sidx];

		if (cq->nr_children) {
			vs_error("The Queue <%s> of Job <%s/%s> is not leaf queue",
				 job->queue->name, job->ns, job->name);
			cap->ready = false;
			return 0;
		}
		job_part(&jp, job);
		account_part(cap, job->queue->sidx, &jp);
		for (u32 k = 0; k < cq->nr_ancestors; k++)
			account_part(cap, cq->ancestors[k], &jp);
	}

	if (t.root == NO_QUEUE) {
		vs_warn("Root queue \"%s\" not found in session queues, skipping hierarchy "
			"initialization", ROOT_QUEUE);
		cap->ready = false;
		return 0;
	}
	/*
	 * Root is the queue users do not see: unless its capability is set it
	 * limits nothing, whatever the cluster holds (every scalar the cluster
	 * has at MaxInt64, as Volcano sets it).
	 */
	rq = &cap->queues[t.root];
	if (vs_fres_is_empty(&rq->capability)) {
		unsigned int d;
		u32 m = cap->total.present;

		vs_fres_clear(&rq->capability);
		rq->capability.v[VS_RES_CPU] = VS_FRES_INF;
		rq->capability.v[VS_RES_MEMORY] = VS_FRES_INF;
		while (m) {
			d = __builtin_ctz(m);
			vs_fres_set(&rq->capability, d, (double)INT64_MAX);
			m &= m - 1;
		}
	}
	rq->real_capability = rq->capability;

	/* top down: a parent is settled before its children are */
	for (u32 i = 0; i < n; i++)
		if (cap->queues[i].nr_ancestors > max_depth)
			max_depth = cap->queues[i].nr_ancestors;
	for (u32 depth = 0; depth <= max_depth; depth++)
		for (u32 i = 0; i < n; i++)
			if (cap->queues[i].nr_ancestors == depth && cap->queues[i].nr_children)
				settle_children(cap, &t, i);

	for (u32 i = 0; i < n; i++) {
		update_share(&cap->queues[i]);
		log_queue(ssn->queues[i], &cap->queues[i]);
	}
	return 0;
}

static int capacity_open(struct vs_session *ssn, struct vs_plugin *p)
{
	struct capacity *cap = vs_arena_zalloc(ssn->arena, sizeof(*cap));
	struct vs_fres f;
	int ret = 0;

	if (!cap)
		return -ENOMEM;
	cap->queues = vs_arena_calloc(ssn->arena, ssn->nr_queues + 1, sizeof(*cap->queues));
	if (!cap->queues)
		return -ENOMEM;
	cap->nr_queues = ssn->nr_queues;
	cap->ready = true;
	cap->hierarchy = vs_conf_plugin_enabled(p->conf, VS_EN_HIERARCHY);
	vs_args_get_int(&p->conf->args, "ancestorReclaimLevel", &cap->level, NULL);
	if (cap->level < 0)
		cap->level = 0;
	vs_victim_queue_init(&cap->victims, ssn);
	cap->anc = vs_arena_alloc(ssn->arena, (ssn->nr_queues + 1) * sizeof(*cap->anc));
	cap->allocated = vs_arena_calloc(ssn->arena, ssn->nr_queues + 1, sizeof(*cap->allocated));
	if (!cap->anc || !cap->allocated)
		return -ENOMEM;

	vs_fres_from_res(&cap->total, &ssn->total_resource);
	/* every queue's guarantee, whether or not it has jobs */
	for (u32 i = 0; i < ssn->nr_queues; i++) {
		vs_fres_from_res(&f, &ssn->queues[i]->guarantee);
		vs_fres_add(&cap->total_guarantee, &f);
	}

	if (cap->hierarchy)
		ret = build_hierarchy(ssn, cap);
	else
		build_flat(ssn, cap);
	if (ret)
		return ret;
	if (cap->hierarchy)
		vs_v(4, "Hierarchy is enabled in capacity plugin");
	/* Volcano registers the orders only once the tree is built */
	if (!cap->ready)
		vs_plugin_disable(p, VS_EXT_QUEUE_ORDER);
	if (!cap->hierarchy || !cap->ready)
		vs_plugin_disable(p, VS_EXT_VICTIM_QUEUE_ORDER);
	p->priv = cap;
	return 0;
}

/* The attributes of @queue, active or not. */
static struct vs_capacity_queue *queue_attr(struct vs_plugin *p, const struct vs_queue *queue)
{
	struct capacity *cap = p->priv;

	return &cap->queues[queue->sidx];
}

static int compare_share(const struct vs_capacity_queue *lq, const struct vs_capacity_queue *rq)
{
	bool ld, rd;

	if (lq->share != rq->share)
		return lq->share < rq->share ? -1 : 1;
	/* equal shares: a queue that deserves something before a best-effort one */
	ld = !vs_fres_is_empty(&lq->deserved);
	rd = !vs_fres_is_empty(&rq->deserved);
	if (ld == rd)
		return 0;
	return ld ? -1 : 1;
}

/* Volcano's getQueueLevel: the last index where the ancestor lists agree. */
static u32 common_level(const struct vs_capacity_queue *l, const struct vs_capacity_queue *r)
{
	u32 n = l->nr_ancestors < r->nr_ancestors ? l->nr_ancestors : r->nr_ancestors;
	u32 level = 0;

	for (u32 i = 0; i < n; i++) {
		if (l->ancestors[i] != r->ancestors[i])
			break;
		level = i;
	}
	return level;
}

static int capacity_queue_order(struct vs_session *ssn, struct vs_plugin *p,
				const struct vs_queue *l, const struct vs_queue *r)
{
	struct capacity *cap = p->priv;
	const struct vs_capacity_queue *lq = queue_attr(p, l), *rq = queue_attr(p, r);
	u32 level, lp, rp;

	/* the higher priority first */
	if (l->priority != r->priority)
		return l->priority > r->priority ? -1 : 1;
	if (!cap->hierarchy)
		return compare_share(lq, rq);
	/* leaves before the queues above them */
	if (!lq->nr_children != !rq->nr_children)
		return lq->nr_children ? 1 : -1;
	if (lq->nr_children)
		return compare_share(lq, rq);
	/* two leaves: their ancestors just below the deepest one they share */
	level = common_level(lq, rq);
	lp = level + 1 < lq->nr_ancestors ? lq->ancestors[level + 1] : l->sidx;
	rp = level + 1 < rq->nr_ancestors ? rq->ancestors[level + 1] : r->sidx;
	return compare_share(&cap->queues[lp], &cap->queues[rp]);
}

static int capacity_victim_queue_order(struct vs_session *ssn, struct vs_plugin *p,
				       const struct vs_queue *l, const struct vs_queue *r,
				       const struct vs_queue *preemptor)
{
	const struct vs_capacity_queue *pq = queue_attr(p, preemptor);
	u32 ll = common_level(queue_attr(p, l), pq), rl = common_level(queue_attr(p, r), pq);

	/* the closer relative of the preemptor's queue gives up first */
	if (ll == rl)
		return 0;
	return ll > rl ? -1 : 1;
}

/*
 * Volcano's queueAllocatable for one queue: against realCapability, and
 * only over the dimensions the task asks for. (Scheduling gates, whose
 * reserved tasks Volcano adds to allocated here, are not modelled.)
 */
static bool queue_allocatable(struct vs_session *ssn, const struct vs_plugin *p,
			      const struct vs_queue *queue, const struct vs_capacity_queue *cq,
			      const struct vs_task *task, const struct vs_fres *req)
{
	struct vs_fres future = cq->allocated;
	vs_resmask_t over;

	vs_fres_add(&future, req);
	over = vs_fres_exceeding_dim(&future, &cq->real_capability, req);
	if (over && (vs_v_enabled(3) || vs_ssn_wants_why(ssn))) {
		char rc[256], a[256], r[256];

		vs_fres_fmt(&ssn->cl->dims, rc, sizeof(rc), &cq->real_capability);
		vs_fres_fmt(&ssn->cl->dims, a, sizeof(a), &cq->allocated);
		vs_fres_fmt(&ssn->cl->dims, r, sizeof(r), req);
		vs_v(3, "Queue <%s>: realCapability <%s>, allocated <%s>; Candidate <%s>: "
		     "resource request <%s>", queue->name, rc, a, task->name, r);
		vs_ssn_why(ssn, p, "queue %s: allocated <%s>, realCapability <%s>: the request "
			   "does not fit", queue->name, a, rc);
	}
	return !over;
}

static bool capacity_allocatable(struct vs_session *ssn, struct vs_plugin *p,
				 const struct vs_queue *queue, const struct vs_task *task)
{
	struct capacity *cap = p->priv;
	const struct vs_capacity_queue *cq = queue_attr(p, queue);
	struct vs_fres req;

	if (queue->state != VS_QUEUE_OPEN) {
		vs_v(3, "Queue <%s> current state: %s, cannot allocate task <%s>.", queue->name,
		     vs_queue_state_name(queue->state), task->name);
		vs_ssn_why(ssn, p, "queue %s is %s, not Open", queue->name,
			   vs_queue_state_name(queue->state));
		return false;
	}
	if (!cap->ready) {
		vs_v(3, "Capacity plugin failed to check queue's hierarchical structure!");
		vs_ssn_why(ssn, p, "the queues' hierarchy is not valid");
		return false;
	}
	if (cap->hierarchy && cq->nr_children) {
		vs_v(3, "Queue <%s> is not a leaf queue, can not allocate task <%s>.", queue->name,
		     task->name);
		vs_ssn_why(ssn, p, "queue %s is not a leaf queue", queue->name);
		return false;
	}
	vs_fres_from_res(&req, task->req);
	if (!queue_allocatable(ssn, p, queue, cq, task, &req))
		return false;
	/* and at every ancestor, from the parent up */
	for (u32 k = cap->hierarchy ? cq->nr_ancestors : 0; k > 0; k--) {
		u32 a = cq->ancestors[k - 1];

		if (!queue_allocatable(ssn, p, ssn->queues[a], &cap->queues[a], task, &req))
			return false;
	}
	return true;
}

/*
 * PreemptiveFn, for the preemptors reclaim asks about (one task, or a
 * gang's pending ones asking @ask in all): the queue may
 * reclaim when the task keeps it within realCapability and it is, with the
 * task, at or below deserved in one of the dimensions the task asks for
 * that either side holds; in a tree, failing that, one of its ancestors up
 * to ancestorReclaimLevel (root aside) may be.
 */
static bool capacity_preemptive(struct vs_session *ssn, struct vs_plugin *p,
				const struct vs_queue *queue, const struct vs_res *ask)
{
	struct capacity *cap = p->priv;
	const struct vs_capacity_queue *cq = queue_attr(p, queue);
	struct vs_fres req, future;

	if (!cap->ready) {
		vs_v(3, "Capacity plugin failed to check queue's hierarchical structure!");
		return false;
	}
	if (queue->state != VS_QUEUE_OPEN) {
		vs_v(3, "Queue <%s> current state: %s, is not open state, "
		     "can not reclaim for tasks.", queue->name, vs_queue_state_name(queue->state));
		return false;
	}
	vs_fres_from_res(&req, ask);
	future = cq->allocated;
	vs_fres_add(&future, &req);
	if (vs_fres_exceeding_dim(&future, &cq->real_capability, &req)) {
		vs_v(3, "Queue <%s> cannot reclaim because futureUsed exceeds realCapability.",
		     queue->name);
		return false;
	}
	if (vs_fres_le_partly_zero_filtered(&future, &cq->deserved, &req))
		return true;
	vs_v(4, "Queue <%s> itself can not reclaim.", queue->name);
	if (!cap->hierarchy)
		return false;
	for (s64 level = 1; level <= cap->level && level <= cq->nr_ancestors; level++) {
		u32 a = cq->ancestors[cq->nr_ancestors - level];

		if (!strcmp(ssn->queues[a]->name, ROOT_QUEUE))
			continue;
		future = cap->queues[a].allocated;
		vs_fres_add(&future, &req);
		if (vs_fres_le_partly_zero_filtered(&future, &cap->queues[a].deserved, &req)) {
			vs_v(3, "Queue's ancestor <%s> can reclaim.", ssn->queues[a]->name);
			return true;
		}
	}
	return false;
}

/* Volcano's jobEnqueueable for one queue. */
static bool queue_enqueueable(const struct vs_capacity_queue *cq, const struct vs_fres *min)
{
	struct vs_fres r = *min;

	vs_fres_add(&r, &cq->allocated);
	vs_fres_add(&r, &cq->inqueue);
	vs_fres_sub(&r, &cq->elastic);
	/* only what the job's minResources names is compared */
	return !vs_fres_exceeding_dim(&r, &cq->real_capability, min);
}

static enum vs_vote capacity_job_enqueueable(struct vs_session *ssn, struct vs_plugin *p,
					     const struct vs_job *job)
{
	struct capacity *cap = p->priv;
	const struct vs_capacity_queue *cq;
	struct vs_fres min;

	if (!job->queue)
		return VS_VOTE_ABSTAIN;
	if (!cap->ready) {
		vs_v(3, "Capacity plugin failed to check queue's hierarchical structure!");
		vs_ssn_why(ssn, p, "the queues' hierarchy is not valid");
		return VS_VOTE_REJECT;
	}
	cq = queue_attr(p, job->queue);
	if (cap->hierarchy && cq->nr_children) {
		vs_ssn_why(ssn, p, "queue %s is not a leaf queue", job->queue->name);
		return VS_VOTE_REJECT;
	}
	if (job->queue->state != VS_QUEUE_OPEN) {
		vs_v(3, "Queue <%s> current state: %s, is not open state, reject job <%s/%s>.",
		     job->queue->name, vs_queue_state_name(job->queue->state), job->ns, job->name);
		vs_ssn_why(ssn, p, "queue %s is %s, not Open", job->queue->name,
			   vs_queue_state_name(job->queue->state));
		return VS_VOTE_REJECT;
	}
	if (!job->has_min_resources)
		return VS_VOTE_PERMIT;

	vs_fres_from_res(&min, &job->min_resources);
	if (!queue_enqueueable(cq, &min))
		goto insufficient;
	for (u32 k = cap->hierarchy ? cq->nr_ancestors : 0; k > 0; k--)
		if (!queue_enqueueable(&cap->queues[cq->ancestors[k - 1]], &min))
			goto insufficient;
	return VS_VOTE_PERMIT;
insufficient:
	vs_v(3, "job <%s/%s>: queue resource quota insufficient", job->ns, job->name);
	vs_ssn_why(ssn, p, "queue resource quota insufficient: minResources do not fit queue "
		   "%s's realCapability with what it holds and admitted", job->queue->name);
	return VS_VOTE_REJECT;
}

static void capacity_job_enqueued(struct vs_session *ssn, struct vs_plugin *p,
				  const struct vs_job *job)
{
	struct capacity *cap = p->priv;
	struct vs_capacity_queue *cq;
	struct vs_res gated_out;
	struct vs_fres min;

	if (!job->has_min_resources || !job->queue)
		return;
	cq = queue_attr(p, job->queue);
	if (!cq->active)
		return;
	/* its gated tasks' requests do not keep other jobs out */
	gated_out = job->min_resources;
	vs_job_deduct_gated(job, &gated_out);
	vs_fres_from_res(&min, &gated_out);
	vs_fres_add(&cq->inqueue, &min);
	for (u32 k = cap->hierarchy ? cq->nr_ancestors : 0; k > 0; k--)
		vs_fres_add(&cap->queues[cq->ancestors[k - 1]].inqueue, &min);
}

/* ---- Reclaimable ---- */

/* Reclaimable's copy of queue @sidx's allocated for this call, made on first use. */
static struct vs_fres *left_of(struct vs_session *ssn, struct capacity *cap, u32 sidx)
{
	if (!cap->left) {
		cap->left = vs_arena_alloc(ssn->arena, (ssn->nr_queues + 1) * sizeof(*cap->left));
		cap->stamp = vs_arena_calloc(ssn->arena, ssn->nr_queues + 1, sizeof(*cap->stamp));
		if (!cap->left || !cap->stamp) {
			cap->left = NULL;
			return NULL;
		}
	}
	if (cap->stamp[sidx] != cap->epoch) {
		cap->stamp[sidx] = cap->epoch;
		cap->left[sidx] = cap->queues[sidx].allocated;
	}
	return &cap->left[sidx];
}

/* Volcano's queueAncestorAtDepth: the ancestor @depth levels up, or NO_QUEUE. */
static u32 ancestor_at(const struct vs_capacity_queue *cq, s64 depth)
{
	if (depth <= 0 || cq->nr_ancestors < depth)
		return NO_QUEUE;
	return cq->ancestors[cq->nr_ancestors - depth];
}

static bool is_root(struct vs_session *ssn, u32 sidx)
{
	return !strcmp(ssn->queues[sidx]->name, ROOT_QUEUE);
}

/* sharesAnyNonRootAncestorWithinLevel */
static bool share_ancestor(struct vs_session *ssn, const struct capacity *cap,
			   const struct vs_capacity_queue *a, const struct vs_capacity_queue *b)
{
	for (s64 i = 1; i <= cap->level; i++) {
		u32 x = ancestor_at(a, i);

		if (x == NO_QUEUE || is_root(ssn, x))
			continue;
		for (s64 j = 1; j <= cap->level; j++)
			if (ancestor_at(b, j) == x)
				return true;
	}
	return false;
}

/* Does @req hold a resource @deserved names (pods included)? hasRelevantDeserved */
static bool relevant_deserved(const struct vs_fres *req, const struct vs_fres *deserved)
{
	return vs_fres_names(req) & vs_fres_names(deserved);
}

/*
 * Is the victim (@req, of queue @vq holding @left) one to take back for the
 * evictor (@ereq, of queue @eq)? It must share a resource with the evictor,
 * leave its queue at or above its guarantee, and either hold nothing its
 * queue deserves (an immediate victim) or come from a queue above its
 * deserved in a dimension the victim holds. With ancestorReclaimLevel, the
 * victim's ancestors the evictor does not share must agree, each through
 * its own running allocation in @anc (their sidx, @nr_anc of them).
 */
static bool reclaim_victim(struct vs_session *ssn, struct capacity *cap,
			   const struct vs_capacity_queue *eq, const struct vs_fres *ereq,
			   const struct vs_capacity_queue *vq, const struct vs_fres *left,
			   const struct vs_fres *req, u32 *anc, u32 *nr_anc)
{
	bool tree = cap->hierarchy && cap->level > 0;
	struct vs_fres except;

	*nr_anc = 0;
	if (!(vs_fres_names(req) & vs_fres_names(ereq) & ~PODS_BIT))
		return false;
	except = *left;
	vs_fres_sub(&except, req);
	if (!vs_fres_less_equal(&vq->guarantee, &except, VS_DIM_ZERO))
		return false;
	/* pods count here: Volcano's Intersection does not leave them out */
	if (!relevant_deserved(req, &vq->deserved)) {
		/*
		 * An immediate victim, unless the two queues share an ancestor
		 * within the levels and the evictor's queue deserves none of
		 * what it asks for: no real contention then.
		 */
		if (tree && share_ancestor(ssn, cap, eq, vq) &&
		    !relevant_deserved(ereq, &eq->deserved))
			return false;
	} else if (!vs_fres_gt_partly_relevant(left, &vq->deserved, req)) {
		return false;
	}
	if (!tree)
		return true;

	for (s64 level = 1; level <= cap->level; level++) {
		u32 a = ancestor_at(vq, level), ea = ancestor_at(eq, level);
		const struct vs_capacity_queue *aq;
		struct vs_fres *aleft;

		if (a == NO_QUEUE || is_root(ssn, a) || ea == a)
			continue;
		aq = &cap->queues[a];
		aleft = left_of(ssn, cap, a);
		if (!aleft)
			return false;
		anc[(*nr_anc)++] = a;
		if (!relevant_deserved(req, &aq->deserved))
			continue;
		if (!vs_fres_gt_partly_relevant(aleft, &aq->deserved, req))
			return false;
	}
	return true;
}

/*
 * Volcano walks the candidates lowest first (BuildVictimsPriorityQueue),
 * taking each victim's request off its queue's (and the ancestors')
 * allocated before the next is judged, so the order decides which are
 * kept.
 */
static enum vs_vote capacity_reclaimable(struct vs_session *ssn, struct vs_plugin *p,
					 const struct vs_task *evictor,
					 struct vs_task *const *cands, u32 nr, bool *keep)
{
	struct capacity *cap = p->priv;
	const struct vs_capacity_queue *eq;
	struct vs_fres ereq;
	struct vs_victim *v;
	u32 nr_anc;

	/* Volcano's Reject, keeping none */
	if (!cap->ready) {
		vs_v(3, "Capacity plugin failed to check queue's hierarchical structure!");
		return VS_VOTE_PERMIT;
	}
	if (!evictor->job->queue || evictor->job->sidx == VS_SIDX_NONE)
		return VS_VOTE_PERMIT;
	eq = queue_attr(p, evictor->job->queue);
	if (vs_victim_queue_fill(&cap->victims, evictor, cands, nr))
		return VS_VOTE_PERMIT;
	vs_fres_from_res(&ereq, evictor->req);
	if (!++cap->epoch)
		cap->epoch = 1;		/* stamp 0 is "not copied" */
	while ((v = vs_pq_pop(&cap->victims.pq))) {
		const struct vs_queue *queue = v->task->job->queue;
		struct vs_fres req, *left;

		/* a task whose job the session lacks (its PodGroup is gone) */
		if (v->task->job->sidx == VS_SIDX_NONE || !queue ||
		    !cap->queues[queue->sidx].active)
			continue;
		left = left_of(ssn, cap, queue->sidx);
		if (!left) {
			vs_pq_clear(&cap->victims.pq);
			return VS_VOTE_PERMIT;
		}
		vs_fres_from_res(&req, v->task->req);
		if (!reclaim_victim(ssn, cap, eq, &ereq, &cap->queues[queue->sidx], left, &req,
				    cap->anc, &nr_anc))
			continue;
		vs_v(5, "[capacity] Reclaimee <%s/%s> is a victim from queue <%s> for "
		     "reclaimer <%s/%s>.", v->task->ns, v->task->name, queue->name, evictor->ns,
		     evictor->name);
		vs_fres_sub(left, &req);
		for (u32 k = 0; k < nr_anc; k++)
			vs_fres_sub(&cap->left[cap->anc[k]], &req);
		keep[v - cap->victims.slots] = true;
	}
	return VS_VOTE_PERMIT;
}

/*
 * Gang-aware: preemption stays within a queue, which capacity leaves
 * alone. Reclaim takes, in the candidates' order (the actions order them
 * by bundle), each victim that leaves its queue at or above its guarantee
 * and either holds nothing its queue deserves or comes from a queue above
 * its deserved in a dimension the victim holds; its request then comes
 * off that queue's allocated. Unlike Reclaimable, neither the reclaimer's
 * request nor the queues' ancestors are looked at (Volcano's
 * UnifiedEvictableFn of capacity).
 */
static enum vs_vote capacity_unified_evictable(struct vs_session *ssn, struct vs_plugin *p,
					       const struct vs_evict_ctx *ctx,
					       struct vs_task *const *cands, u32 nr, bool *keep)
{
	struct capacity *cap = p->priv;

	if (ctx->kind == VS_EVICT_GANG_PREEMPT) {
		memset(keep, 1, nr * sizeof(*keep));
		return VS_VOTE_PERMIT;
	}
	/* Volcano's Reject, keeping none */
	if (!cap->ready) {
		vs_v(3, "Capacity plugin failed to check queue's hierarchical structure!");
		return VS_VOTE_PERMIT;
	}
	if (!++cap->epoch)
		cap->epoch = 1;		/* stamp 0 is "not copied" */
	for (u32 i = 0; i < nr; i++) {
		const struct vs_queue *queue = cands[i]->job->queue;
		const struct vs_capacity_queue *vq;
		struct vs_fres req, except, *left;

		if (cands[i]->job->sidx == VS_SIDX_NONE || !queue ||
		    !cap->queues[queue->sidx].active)
			continue;
		vq = &cap->queues[queue->sidx];
		left = left_of(ssn, cap, queue->sidx);
		if (!left)
			return VS_VOTE_PERMIT;
		vs_fres_from_res(&req, cands[i]->req);
		except = *left;
		vs_fres_sub(&except, &req);
		if (!vs_fres_less_equal(&vq->guarantee, &except, VS_DIM_ZERO))
			continue;
		if (relevant_deserved(&req, &vq->deserved) &&
		    !vs_fres_gt_partly_relevant(left, &vq->deserved, &req))
			continue;
		vs_fres_sub(left, &req);
		keep[i] = true;
	}
	return VS_VOTE_PERMIT;
}

/* What the cycle made of every queue; overused as Volcano's metric has it: share above 1. */
static void capacity_close(struct vs_session *ssn, struct vs_plugin *p)
{
	if (ssn->inspect)
		return;
	for (u32 i = 0; i < ssn->nr_queues; i++) {
		struct vs_queue *queue = ssn->queues[i];
		const struct vs_capacity_queue *cq = vs_capacity_queue(p, queue);

		queue->seen = (struct vs_queue_seen){ .cycle = ssn->cycle };
		if (!cq)
			continue;
		queue->seen.deserved = cq->deserved;
		queue->seen.share = cq->share;
		queue->seen.overused = cq->share > 1;
	}
}

const struct vs_capacity_queue *vs_capacity_queue(const struct vs_plugin *p,
						  const struct vs_queue *queue)
{
	const struct capacity *cap = p->priv;

	if (!cap || queue->sidx >= cap->nr_queues)
		return NULL;
	return cap->queues[queue->sidx].active ? &cap->queues[queue->sidx] : NULL;
}

/* ---- events ---- */

/* The attributes of @task's queue, or NULL when capacity does not know it. */
static struct vs_capacity_queue *task_queue(struct vs_plugin *p, const struct vs_task *task)
{
	struct capacity *cap = p->priv;
	const struct vs_queue *queue = task->job->queue;

	if (!queue || !cap->queues[queue->sidx].active)
		return NULL;
	return &cap->queues[queue->sidx];
}

/*
 * @task's request in (@add) or out of its queue's allocated, and its
 * ancestors' with the hierarchy. Volcano updates the leaf's share only; the
 * ancestors' stay as at open.
 */
static void account(struct vs_plugin *p, struct vs_task *task, bool add)
{
	struct capacity *cap = p->priv;
	struct vs_capacity_queue *cq = task_queue(p, task);
	void (*op)(struct vs_sum *, const struct vs_res *) = add ? vs_sum_add : vs_sum_sub;
	u32 sidx;

	if (!cq)
		return;
	sidx = task->job->queue->sidx;
	op(&cap->allocated[sidx], task->req);
	vs_sum_to_fres(&cq->allocated, &cap->allocated[sidx]);
	update_share(cq);
	for (u32 k = cap->hierarchy ? cq->nr_ancestors : 0; k > 0; k--) {
		sidx = cq->ancestors[k - 1];
		op(&cap->allocated[sidx], task->req);
		vs_sum_to_fres(&cap->queues[sidx].allocated, &cap->allocated[sidx]);
	}
}

static void capacity_on_allocate(struct vs_session *ssn, struct vs_plugin *p,
				 struct vs_task *task)
{
	account(p, task, true);
}

static void capacity_on_deallocate(struct vs_session *ssn, struct vs_plugin *p,
				   struct vs_task *task, struct vs_node *node)
{
	account(p, task, false);
}

const struct vs_plugin_ops vs_plugin_capacity = {
	.name			= "capacity",
	.check_conf		= capacity_check_conf,
	.open			= capacity_open,
	.close			= capacity_close,
	.queue_order		= capacity_queue_order,
	.victim_queue_order	= capacity_victim_queue_order,
	.allocatable		= capacity_allocatable,
	.preemptive		= capacity_preemptive,
	.job_enqueueable	= capacity_job_enqueueable,
	.job_enqueued		= capacity_job_enqueued,
	.reclaimable		= capacity_reclaimable,
	.unified_evictable	= capacity_unified_evictable,
	.on_allocate		= capacity_on_allocate,
	.on_deallocate		= capacity_on_deallocate,
};
