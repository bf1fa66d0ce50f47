// SPDX-License-Identifier: Apache-2.0
/*
 * Queues: created, changed and destroyed in the cluster (a new queue adopts
 * the PodGroups that waited for it), their totals counted afresh, and queue
 * states and PodGroup phases as text.
 */
#include <string.h>

#include "core/enum.h"
#include "core/internal.h"
#include "core/queue.h"

static const char *const state_names[VS_QUEUE_NR_STATES] = {
	[VS_QUEUE_OPEN]		= "Open",
	[VS_QUEUE_CLOSING]	= "Closing",
	[VS_QUEUE_CLOSED]	= "Closed",
	[VS_QUEUE_UNKNOWN]	= "Unknown",
};

const char *vs_queue_state_name(enum vs_queue_state s)
{
	return vs_enum_name(state_names, ARRAY_SIZE(state_names), s);
}

int vs_queue_state_parse(const char *s, enum vs_queue_state *out, struct vs_err *err)
{
	int v;

	if (!s || !*s) {
		*out = VS_QUEUE_OPEN;
		return 0;
	}
	v = vs_enum_parse(state_names, ARRAY_SIZE(state_names), s, "queue state", err);
	if (v < 0)
		return v;
	*out = (enum vs_queue_state)v;
	return 0;
}

static const char *const phase_names[VS_PG_NR_PHASES] = {
	[VS_PG_PENDING]		= "Pending",
	[VS_PG_RUNNING]		= "Running",
	[VS_PG_UNKNOWN]		= "Unknown",
	[VS_PG_INQUEUE]		= "Inqueue",
	[VS_PG_COMPLETED]	= "Completed",
};

const char *vs_pg_phase_name(enum vs_pg_phase p)
{
	return vs_enum_name(phase_names, ARRAY_SIZE(phase_names), p);
}

int vs_pg_phase_parse(const char *s, enum vs_pg_phase *out, struct vs_err *err)
{
	int v;

	if (!s || !*s) {
		*out = VS_PG_PENDING;
		return 0;
	}
	v = vs_enum_parse(phase_names, ARRAY_SIZE(phase_names), s, "podgroup phase", err);
	if (v < 0)
		return v;
	*out = (enum vs_pg_phase)v;
	return 0;
}

/* ---- the queue in the cluster ---- */

void vs_queue_spec_init(struct vs_queue_spec *spec, const char *name)
{
	memset(spec, 0, sizeof(*spec));
	spec->name = name;
	spec->weight = 1;
	spec->reclaimable = true;
	spec->state = VS_QUEUE_OPEN;
}

static int queue_spec_check(const struct vs_cluster *cl, const struct vs_queue_spec *spec,
			    struct vs_err *err)
{
	int ret;

	if (spec->weight < 1)
		return vs_err_set(err, EINVAL, "weight must be at least 1");
	if ((unsigned int)spec->state >= VS_QUEUE_NR_STATES)
		return vs_err_set(err, EINVAL, "bad state %d", spec->state);
	if (!vs_str_empty(spec->parent)) {
		ret = vs_check_dns_subdomain(spec->parent, strlen(spec->parent),
					     "parent queue name", err);
		if (ret)
			return ret;
		if (!strcmp(spec->parent, spec->name))
			return vs_err_set(err, EINVAL, "a queue cannot be its own parent");
	}
	ret = vs_res_check_amounts(cl, &spec->capability, "capability", err);
	if (!ret)
		ret = vs_res_check_amounts(cl, &spec->guarantee, "guarantee", err);
	if (!ret)
		ret = vs_res_check_amounts(cl, &spec->deserved, "deserved", err);
	return ret;
}

/* Apply a checked spec; only the parent string can fail to be interned. */
static int queue_apply(struct vs_cluster *cl, struct vs_queue *queue,
		       const struct vs_queue_spec *spec)
{
	int ret = 0;
	const char *parent = vs_cluster_intern_opt(cl, spec->parent, &ret);

	if (ret)
		return ret;
	vs_str_put(&cl->strs, queue->parent);
	queue->parent = parent;
	queue->weight = spec->weight;
	queue->capability = spec->capability;
	queue->has_capability = spec->has_capability;
	queue->guarantee = spec->guarantee;
	queue->deserved = spec->deserved;
	queue->has_deserved = spec->has_deserved;
	queue->reclaimable = spec->reclaimable;
	queue->priority = spec->priority;
	queue->state = spec->state;
	return 0;
}

int vs_queue_add(struct vs_cluster *cl, const struct vs_queue_spec *spec,
		 struct vs_queue **out, struct vs_err *err)
{
	struct vs_queue *queue;
	struct vs_job *job, *tmp;
	struct vs_txn_ent *ent;
	u32 nr_orphans = 0;
	int ret;

	ret = vs_check_dns_subdomain(spec->name, spec->name ? strlen(spec->name) : 0,
				     "queue name", err);
	if (ret)
		return ret;
	if (vs_queue_find(cl, spec->name))
		return vs_err_set(err, EEXIST, "queue %s already exists", spec->name);
	ret = VS_LIMIT_CHECK(cl, queues, cl->nr_queues, err);
	if (ret)
		return ret;
	ret = queue_spec_check(cl, spec, err);
	if (ret)
		goto out_prefix;
	/* Its undo sends the orphans it adopts back where they were. */
	if (cl->txn)
		list_for_each_entry(job, &cl->orphan_jobs, queue_node)
			nr_orphans += !strcmp(job->queue_name, spec->name);
	if (vs_txn_prep(cl, VS_TXN_ADD_QUEUE, NULL, nr_orphans * sizeof(struct list_head *),
			&ent)) {
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_prefix;
	}

	queue = vs_pool_zalloc(&cl->queue_pool);
	if (queue) {
		queue->name = vs_str_get_cstr(&cl->strs, spec->name);
		queue->dims = &cl->dims;
	}
	if (!queue || !queue->name || queue_apply(cl, queue, spec)) {
		if (queue)
			vs_str_put(&cl->strs, queue->name);
		vs_pool_free(&cl->queue_pool, queue);
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_prefix;
	}
	queue->seq = cl->seq++;
	queue->created = vs_created_take(cl, spec->created);
	INIT_LIST_HEAD(&queue->jobs);
	vs_res_clear(&queue->allocated);
	vs_res_clear(&queue->request);
	vs_htable_add(&cl->queue_index, &queue->hnode, vs_str_hash(queue->name));
	vs_name_tree_add(&cl->queue_names, queue);
	list_add_tail(&queue->list, &cl->queues);
	cl->nr_queues++;

	/* New in the transaction: its sums need no saving, it goes whole. */
	if (ent)
		queue->txn_gen = cl->txn->gen;
	/* Jobs that were waiting for this queue join it, keeping their order. */
	list_for_each_entry_safe(job, tmp, &cl->orphan_jobs, queue_node) {
		if (job->queue_name == queue->name) {
			if (ent)
				((struct list_head **)ent->saved)[ent->adopt.nr++] =
					job->queue_node.prev;
			list_del(&job->queue_node);
			vs_job_queue_attach(cl, job, queue);
		}
	}
	if (ent) {
		ent->obj = queue;
		ent->adopt.prev = ent->saved;
		vs_txn_push(cl, ent);
	}
	if (out)
		*out = queue;
	return 0;

out_prefix:
	vs_err_prefix(err, "queue %s: ", spec->name);
	return ret;
}

int vs_queue_update(struct vs_cluster *cl, struct vs_queue *queue,
		    const struct vs_queue_spec *spec, struct vs_err *err)
{
	int ret = queue_spec_check(cl, spec, err);
	struct vs_txn_ent *ent = NULL;

	/* The journal holds a reference to the old parent, which queue_apply() puts. */
	if (!ret && (vs_txn_prep_copy(cl, VS_TXN_QUEUE_SPEC, queue, sizeof(*queue), &ent) ||
		     (ent && queue->parent && !vs_str_get_cstr(&cl->strs, queue->parent))))
		ret = vs_err_set(err, ENOMEM, "out of memory");
	if (!ret && queue_apply(cl, queue, spec)) {
		if (ent)
			vs_str_put(&cl->strs, queue->parent);
		ret = vs_err_set(err, ENOMEM, "out of memory");
	}
	if (ret) {
		vs_err_prefix(err, "queue %s: ", queue->name);
		return ret;
	}
	vs_txn_push(cl, ent);
	return 0;
}

void vs_queue_free(struct vs_cluster *cl, struct vs_queue *queue)
{
	vs_str_put(&cl->strs, queue->parent);
	vs_str_put(&cl->strs, queue->name);
	vs_pool_free(&cl->queue_pool, queue);
}

int vs_queue_del(struct vs_cluster *cl, struct vs_queue *queue, struct vs_err *err)
{
	struct vs_txn_ent *ent;

	if (queue->nr_jobs)
		return vs_err_set(err, EBUSY, "queue %s still has %u podgroups", queue->name,
				  queue->nr_jobs);
	if (vs_txn_prep(cl, VS_TXN_DEL_QUEUE, queue, 0, &ent))
		return vs_err_set(err, ENOMEM, "queue %s: out of memory", queue->name);
	if (ent)
		ent->place.list = queue->list.prev;
	vs_htable_del(&cl->queue_index, &queue->hnode);
	vs_name_tree_del(&cl->queue_names, queue);
	list_del(&queue->list);
	cl->nr_queues--;
	if (ent)
		vs_txn_push(cl, ent);	/* kept whole, freed by the commit */
	else
		vs_queue_free(cl, queue);
	return 0;
}

/*
 * A queue's totals taken afresh from its jobs' (which are current): for
 * the check, and to count saturated ones again (core/res.h).
 */
void vs_queue_sums(const struct vs_queue *queue, struct vs_res *allocated,
		       struct vs_res *request)
{
	const struct vs_job *job;

	vs_res_clear(allocated);
	vs_res_clear(request);
	list_for_each_entry(job, &queue->jobs, queue_node) {
		vs_res_add(allocated, &job->allocated);
		vs_res_add(request, &job->total_request);
	}
}

