// SPDX-License-Identifier: Apache-2.0
/*
 * Transactions: the journal the core's object functions write while one is
 * open, its undo and its commit. See txn.h; the entries are declared in
 * internal.h, for the object files that write them.
 */
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "core/log.h"

/* ---- writing the journal ---- */

void vs_txn_begin(struct vs_txn *txn, struct vs_cluster *cl)
{
	memset(txn, 0, sizeof(*txn));
	txn->cl = cl;
	vs_arena_init(&txn->arena, 0);
	txn->gen = ++cl->txn_gen;
	if (!txn->gen)		/* 0 is what a new object's stamp reads */
		txn->gen = ++cl->txn_gen;
	txn->seq = cl->seq;
	txn->created_max = cl->created_max;
	txn->total_allocatable = cl->total_allocatable;
	cl->txn = txn;
}

int vs_txn_prep_open(struct vs_cluster *cl, enum vs_txn_kind kind, void *obj, size_t extra,
		     struct vs_txn_ent **out)
{
	struct vs_txn_ent *ent;

	*out = NULL;
	ent = vs_arena_zalloc(&cl->txn->arena, sizeof(*ent) + extra);
	if (!ent)
		return -ENOMEM;
	ent->kind = kind;
	ent->obj = obj;
	ent->saved = extra ? ent + 1 : NULL;
	*out = ent;
	return 0;
}

void vs_txn_link(struct vs_cluster *cl, struct vs_txn_ent *ent)
{
	ent->prev = cl->txn->last;
	cl->txn->last = ent;
	cl->txn->nr++;
}

struct vs_txn_ent *vs_txn_prep_nofail(struct vs_cluster *cl, enum vs_txn_kind kind, void *obj,
				      size_t extra)
{
	struct vs_txn_ent *ent;

	if (vs_txn_prep(cl, kind, obj, extra, &ent)) {
		vs_error("transaction: out of memory journalling a change; it cannot be undone");
		cl->txn->broken = true;
	}
	return ent;
}

struct vs_txn_ent *vs_txn_note(struct vs_cluster *cl, enum vs_txn_kind kind, void *obj,
			       size_t extra)
{
	struct vs_txn_ent *ent = vs_txn_prep_nofail(cl, kind, obj, extra);

	vs_txn_push(cl, ent);
	return ent;
}

/* Save @n sums from @first on (consecutive in the object), once per transaction. */
static void touch(struct vs_cluster *cl, enum vs_txn_kind kind, void *obj, u32 *gen,
		  const struct vs_res *first, unsigned int n)
{
	struct vs_txn_ent *ent;

	if (!cl->txn || *gen == cl->txn->gen)
		return;
	ent = vs_txn_note(cl, kind, obj, n * sizeof(*first));
	if (!ent)
		return;
	memcpy(ent->saved, first, n * sizeof(*first));
	*gen = cl->txn->gen;
}

/* The sums each kind saves are consecutive in its object. */
#define FOLLOWS(type, a, b) \
	(offsetof(type, b) != offsetof(type, a) + sizeof(struct vs_res))

void vs_txn_save_node(struct vs_cluster *cl, struct vs_node *node)
{
	BUILD_BUG_ON(FOLLOWS(struct vs_node, idle, used) || FOLLOWS(struct vs_node, used, releasing) ||
		     FOLLOWS(struct vs_node, releasing, pipelined));
	BUILD_BUG_ON(FOLLOWS(struct vs_job, total_request, allocated));
	BUILD_BUG_ON(FOLLOWS(struct vs_queue, allocated, request));
	touch(cl, VS_TXN_SUMS_NODE, node, &node->txn_gen, &node->idle, 4);
}

void vs_txn_save_job(struct vs_cluster *cl, struct vs_job *job)
{
	touch(cl, VS_TXN_SUMS_JOB, job, &job->txn_gen, &job->total_request, 2);
	if (job->queue)
		vs_txn_touch_queue(cl, job->queue);
}

void vs_txn_save_queue(struct vs_cluster *cl, struct vs_queue *queue)
{
	touch(cl, VS_TXN_SUMS_QUEUE, queue, &queue->txn_gen, &queue->allocated, 2);
}

int vs_txn_prep_copy(struct vs_cluster *cl, enum vs_txn_kind kind, void *obj, size_t size,
		     struct vs_txn_ent **out)
{
	int ret = vs_txn_prep(cl, kind, obj, size, out);

	if (*out)
		memcpy((*out)->saved, obj, size);
	return ret;
}

int vs_txn_save_conditions(struct vs_cluster *cl, struct vs_pg_condition *cond)
{
	for (u32 i = 0; i < VS_PG_COND_NR; i++) {
		size_t n = vs_pg_cond_text_size(&cond[i]);
		char *text;

		if (!n)
			continue;
		text = vs_arena_alloc(&cl->txn->arena, n);
		if (!text)
			return -ENOMEM;
		memcpy(text, cond[i].text, n);
		if (cond[i].given)		/* its reason is in its text */
			cond[i].reason = text + (cond[i].reason - cond[i].text);
		cond[i].text = text;
	}
	return 0;
}

void vs_txn_task_place(const struct vs_task *task, struct vs_txn_place *p)
{
	p->list = task->job_node.prev;
	p->status_node = task->status_node.prev;
	p->node = task->node;
	p->node_node = task->node ? task->node_node.prev : NULL;
	p->status = task->status;
}

int vs_cluster_dim_get(struct vs_cluster *cl, const char *name, size_t len,
		       struct vs_err *err)
{
	struct vs_txn_ent *ent;
	int d, ret;

	/* A known name, the common case, journals nothing. */
	d = vs_res_dim_lookup(&cl->dims, name, len);
	if (d >= 0)
		return d;
	ret = vs_txn_prep(cl, VS_TXN_DIM, NULL, 0, &ent);
	if (ret)
		return vs_err_set(err, -ret, "resource \"%.*s\": out of memory for the undo "
				  "journal", (int)(len < 64 ? len : 64), name);
	d = vs_res_dim_get(&cl->dims, name, len, err);
	if (d < 0)
		return d;		/* refused: the entry is not pushed */
	if (ent)
		ent->dim = (unsigned int)d;
	vs_txn_push(cl, ent);
	return d;
}

void vs_queue_journal_state(struct vs_cluster *cl, struct vs_queue *queue)
{
	struct vs_txn_ent *ent = vs_txn_note(cl, VS_TXN_QUEUE_STATE, queue, 0);

	if (!ent)
		return;
	ent->qstate.state = queue->state;
	ent->qstate.closed_by_parent = queue->closed_by_parent;
}

/* A VolcanoJob's status as it was, with a copy of each task's kept replicas. */
struct vjob_saved {
	enum vs_vjob_phase phase;
	u32 retry_count;
	struct vs_vjob_status status;
	u8 **kept;			/* each task's array then, or NULL */
	u8 **kept_copy;			/* and what it held */
};

void vs_vjob_journal(struct vs_cluster *cl, struct vs_vjob *vjob)
{
	struct vs_txn_ent *ent;
	struct vjob_saved *s;
	struct vs_arena *a;
	u32 i;

	if (!cl->txn || vjob->txn_gen == cl->txn->gen)
		return;
	ent = vs_txn_prep_nofail(cl, VS_TXN_VJOB_STATE, vjob, sizeof(*s));
	if (!ent)
		return;
	a = &cl->txn->arena;
	s = ent->saved;
	s->phase = vjob->phase;
	s->retry_count = vjob->retry_count;
	s->status = vjob->status;
	s->kept = vs_arena_calloc(a, vjob->nr_tasks + 1, sizeof(*s->kept));
	s->kept_copy = vs_arena_calloc(a, vjob->nr_tasks + 1, sizeof(*s->kept_copy));
	for (i = 0; s->kept && s->kept_copy && i < vjob->nr_tasks; i++) {
		const struct vs_vjob_task *vt = &vjob->tasks[i];

		s->kept[i] = vt->kept;
		if (!vt->kept)
			continue;
		s->kept_copy[i] = vs_arena_alloc(a, vt->replicas);
		if (!s->kept_copy[i])
			break;
		memcpy(s->kept_copy[i], vt->kept, vt->replicas);
	}
	if (!s->kept || !s->kept_copy || i < vjob->nr_tasks) {
		vs_error("transaction: out of memory journalling job %s/%s; it cannot be undone",
			 vjob->ns, vjob->name);
		cl->txn->broken = true;
		return;
	}
	vs_txn_push(cl, ent);
	vjob->txn_gen = cl->txn->gen;
}

void vs_vjob_link(struct vs_cluster *cl, struct vs_vjob *vjob, struct vs_job *pg)
{
	struct vs_txn_ent *ent = vs_txn_note(cl, VS_TXN_VJOB_LINK, vjob, 0);

	if (ent) {
		ent->link.pg = vjob->podgroup;
		ent->link.vjob = pg ? pg->vjob : NULL;
		ent->saved = pg;	/* the PodGroup linked, whose link to put back */
	}
	if (vjob->podgroup && vjob->podgroup != pg)
		vjob->podgroup->vjob = NULL;
	vjob->podgroup = pg;
	if (pg)
		pg->vjob = vjob;
}

u32 vs_txn_kept(const struct vs_cluster *cl, enum vs_txn_kind kind)
{
	u32 n = 0;

	for (const struct vs_txn_ent *ent = cl->txn ? cl->txn->last : NULL; ent; ent = ent->prev)
		n += ent->kind == kind;
	return n;
}

/* ---- undoing ---- */

static void undo_add(struct vs_cluster *cl, struct vs_txn_ent *ent)
{
	struct vs_queue *queue;
	struct vs_node *node;
	struct vs_job *job;

	switch (ent->kind) {
	case VS_TXN_ADD_NODE:
		node = ent->obj;
		vs_node_del(cl, node, NULL);
		/* it took the last slot, which later adds, undone before, gave back */
		cl->nr_node_slots--;
		cl->nr_node_holes--;
		break;
	case VS_TXN_ADD_QUEUE:
		queue = ent->obj;
		/* the orphans it adopted go back, the last adopted first, where they were */
		for (u32 i = ent->adopt.nr; i--;) {
			job = list_last_entry(&queue->jobs, struct vs_job, queue_node);
			vs_job_queue_detach(cl, job);
			list_add(&job->queue_node, ent->adopt.prev[i]);
		}
		vs_queue_del(cl, queue, NULL);
		break;
	case VS_TXN_ADD_JOB:
		vs_job_del(cl, ent->obj, NULL);
		break;
	case VS_TXN_ADD_TASK:
		vs_task_del(cl, ent->obj);
		break;
	case VS_TXN_ADD_VJOB:
		vs_vjob_del(cl, ent->obj);
		break;
	case VS_TXN_ADD_PRIOCLASS:
		vs_prioclass_del(cl, ent->obj);
		break;
	default:
		break;
	}
}

/* Put @job back in the queue it was in (or among the orphans), after @prev. */
static void job_rejoin(struct vs_cluster *cl, struct vs_job *job, struct list_head *prev)
{
	vs_job_queue_join(cl, job);
	list_move(&job->queue_node, prev);
}

/* Put @task back on its node @p says, after what came before it there. */
static void task_relink_node(struct vs_task *task, const struct vs_txn_place *p)
{
	if (!p->node)
		return;
	vs_node_link_task(p->node, task);
	list_move(&task->node_node, p->node_node);
}

static void undo_del(struct vs_cluster *cl, struct vs_txn_ent *ent)
{
	struct vs_txn_place *p = &ent->place;
	struct vs_prioclass *pc;
	struct vs_queue *queue;
	struct vs_node *node;
	struct vs_vjob *vjob;
	struct vs_task *task;
	struct vs_job *job;

	switch (ent->kind) {
	case VS_TXN_DEL_NODE:
		node = ent->obj;
		vs_htable_add(&cl->node_index, &node->hnode, vs_str_hash(node->name));
		list_add(&node->list, p->list);
		cl->nr_nodes++;
		cl->nr_prefer_no_schedule_nodes += vs_node_prefers_no_schedule(node);
		cl->node_slot[node->sidx] = node;
		cl->nr_node_holes--;
		cl->node_gen++;
		vs_node_images_restore(node->images);
		vs_name_tree_add(&cl->node_names, node);
		vs_hypernodes_node_event(cl, node->name, node);
		break;
	case VS_TXN_DEL_QUEUE:
		queue = ent->obj;
		vs_htable_add(&cl->queue_index, &queue->hnode, vs_str_hash(queue->name));
		list_add(&queue->list, p->list);
		cl->nr_queues++;
		vs_name_tree_add(&cl->queue_names, queue);
		break;
	case VS_TXN_DEL_JOB:
		job = ent->obj;
		vs_htable_add(&cl->job_index, &job->hnode, vs_ns_name_hash(job->ns, job->name));
		list_add(&job->list, p->list);
		cl->nr_jobs++;
		vs_name_tree_add(&cl->job_names, job);
		job_rejoin(cl, job, p->queue_node);
		if (p->link) {
			job->vjob = p->link;
			job->vjob->podgroup = job;
		}
		break;
	case VS_TXN_DEL_TASK:
		task = ent->obj;
		job = task->job;
		list_add(&task->job_node, p->list);
		job->nr_tasks++;
		vs_job_account(cl, job, task, +1);
		list_move(&task->status_node, p->status_node);
		task_relink_node(task, p);
		vs_htable_add(&cl->task_index, &task->hnode, vs_ns_name_hash(task->ns, task->name));
		cl->nr_tasks++;
		cl->nr_pod_affinity_tasks += vs_task_has_pod_terms(task);
		cl->nr_pod_preferred_tasks += vs_task_has_preferred_pod_terms(task);
		vs_name_tree_add(&cl->task_names, task);
		break;
	case VS_TXN_DEL_VJOB:
		vjob = ent->obj;
		vs_htable_add(&cl->vjob_index, &vjob->hnode, vs_ns_name_hash(vjob->ns, vjob->name));
		list_add(&vjob->list, p->list);
		cl->nr_vjobs++;
		vs_name_tree_add(&cl->vjob_names, vjob);
		if (p->link) {
			vjob->podgroup = p->link;
			vjob->podgroup->vjob = vjob;
		}
		break;
	case VS_TXN_DEL_PRIOCLASS:
		pc = ent->obj;
		vs_htable_add(&cl->prioclass_index, &pc->hnode, vs_str_hash(pc->name));
		list_add(&pc->list, p->list);
		cl->nr_prioclasses++;
		vs_name_tree_add(&cl->prioclass_names, pc);
		break;
	default:
		break;
	}
}

/* What a replaced spec held now goes, and the old one's comes back. */
static void undo_node_spec(struct vs_cluster *cl, struct vs_node *node, const struct vs_node *old)
{
	cl->nr_prefer_no_schedule_nodes -= vs_node_prefers_no_schedule(node);
	vs_node_class_put(&cl->classes, &cl->strs, node->cls);
	vs_labels_free(&cl->strs, node->labels);
	vs_taints_free(&cl->strs, node->taints);
	vs_node_images_release(node->images);
	vs_node_images_free(&cl->images, &cl->strs, node->images);
	vs_node_images_restore(old->images);
	node->images = old->images;
	node->cls = old->cls;
	node->labels = old->labels;
	node->taints = old->taints;
	node->unschedulable = old->unschedulable;
	node->ready = old->ready;
	cl->nr_prefer_no_schedule_nodes += vs_node_prefers_no_schedule(node);
	/* idle follows; the sums come back whole from their own entry */
	vs_node_set_allocatable(node, &old->allocatable);
}

static void undo_queue_spec(struct vs_cluster *cl, struct vs_queue *queue,
			    const struct vs_queue *old)
{
	vs_str_put(&cl->strs, queue->parent);
	queue->parent = old->parent;		/* the entry's reference, handed back */
	queue->weight = old->weight;
	queue->capability = old->capability;
	queue->has_capability = old->has_capability;
	queue->guarantee = old->guarantee;
	queue->deserved = old->deserved;
	queue->has_deserved = old->has_deserved;
	queue->reclaimable = old->reclaimable;
	queue->priority = old->priority;
	queue->state = old->state;
}

/*
 * A job's attributes: its queue's name, its priority class, its roles, its
 * network topology and sub-group policies.
 */
static void job_attrs_put(struct vs_cluster *cl, const struct vs_job *job)
{
	for (u32 i = 0; i < job->nr_min_task_member; i++)
		vs_str_put(&cl->strs, job->min_task_member[i].role);
	free(job->min_task_member);
	vs_str_put(&cl->strs, job->queue_name);
	vs_str_put(&cl->strs, job->priority_class);
	vs_str_put(&cl->strs, job->net_topology.highest_tier_name);
	vs_subgroups_free(cl, job->subgroups, job->nr_subgroups);
}

static int undo_job_spec(struct vs_cluster *cl, struct vs_txn_ent *ent)
{
	const struct vs_job *old = ent->saved;
	struct vs_job *job = ent->obj;
	int ret = 0;

	vs_job_queue_detach(cl, job);
	job_attrs_put(cl, job);
	job->queue_name = old->queue_name;
	job->priority_class = old->priority_class;
	job->min_task_member = old->min_task_member;
	job->nr_min_task_member = old->nr_min_task_member;
	job->net_topology = old->net_topology;
	job->subgroups = old->subgroups;
	job->nr_subgroups = old->nr_subgroups;
	job->min_member = old->min_member;
	job->has_min_resources = old->has_min_resources;
	job->min_resources = old->min_resources;
	job->preemptable = old->preemptable;
	job->phase = old->phase;
	job_rejoin(cl, job, ent->place.queue_node);
	for (u32 i = 0; i < VS_PG_COND_NR; i++)
		ret |= vs_job_copy_condition(job, (enum vs_pg_cond_type)i, &old->cond[i]);
	return ret ? -ENOMEM : 0;
}

/* Out of its places now, into those it had, under its old status. */
static void undo_task_move(struct vs_cluster *cl, struct vs_txn_ent *ent)
{
	const struct vs_txn_place *p = &ent->place;
	struct vs_task *task = ent->obj;

	if (task->node)
		vs_node_remove_task(task->node, task);
	vs_job_account(cl, task->job, task, -1);
	task->status = p->status;
	vs_job_account(cl, task->job, task, +1);
	list_move(&task->status_node, p->status_node);
	task_relink_node(task, p);
}

static void undo_vjob_state(struct vs_vjob *vjob, const struct vjob_saved *s)
{
	vjob->phase = s->phase;
	vjob->retry_count = s->retry_count;
	vjob->status = s->status;
	for (u32 i = 0; i < vjob->nr_tasks; i++) {
		struct vs_vjob_task *vt = &vjob->tasks[i];

		if (!s->kept[i]) {
			free(vt->kept);		/* made since */
			vt->kept = NULL;
		} else {
			vt->kept = s->kept[i];
			memcpy(vt->kept, s->kept_copy[i], vt->replicas);
		}
	}
}

static int undo_one(struct vs_cluster *cl, struct vs_txn_ent *ent)
{
	struct vs_task *task = ent->obj;
	struct vs_node *node = ent->obj;
	struct vs_job *job = ent->obj;
	struct vs_queue *queue = ent->obj;
	struct vs_prioclass *pc = ent->obj;
	const struct vs_prioclass *opc = ent->saved;
	struct vs_job *pg;

	switch (ent->kind) {
	case VS_TXN_ADD_HYPERNODE ... VS_TXN_HYPERNODE_SPEC:
		vs_hypernode_undo(cl, ent);
		break;
	case VS_TXN_ADD_NODE ... VS_TXN_ADD_PRIOCLASS:
		undo_add(cl, ent);
		break;
	case VS_TXN_DEL_NODE ... VS_TXN_DEL_PRIOCLASS:
		undo_del(cl, ent);
		break;
	case VS_TXN_NODE_SPEC:
		undo_node_spec(cl, node, ent->saved);
		vs_hypernodes_node_event(cl, node->name, node);
		break;
	case VS_TXN_QUEUE_SPEC:
		undo_queue_spec(cl, queue, ent->saved);
		break;
	case VS_TXN_JOB_SPEC:
		return undo_job_spec(cl, ent);
	case VS_TXN_PRIOCLASS_SPEC:
		pc->value = opc->value;
		pc->global_default = opc->global_default;
		pc->preemption_policy = opc->preemption_policy;
		break;
	case VS_TXN_JOB_PHASE:
		vs_job_set_phase(cl, job, ent->phase);
		break;
	case VS_TXN_TASK_MOVE:
		undo_task_move(cl, ent);
		break;
	case VS_TXN_TASK_UNGATE:
		task->gated = true;
		task->job->nr_gated++;
		break;
	case VS_TXN_TASK_NOMINATED:
		/* vs_task_set_nominated() made task->bind before it journalled */
		vs_str_put(&cl->strs, task->bind->nominated);
		task->bind->nominated = ent->nominated;	/* the entry's reference */
		break;
	case VS_TXN_TASK_BIND:
		/* vs_task_set_bind_state() made task->bind before it journalled */
		vs_str_put(&cl->strs, task->bind->error);
		task->bind->error = ent->bind.error;	/* the entry's reference */
		task->bind->failures = ent->bind.failures;
		task->bind->retry_after_ns = ent->bind.retry_after_ns;
		break;
	case VS_TXN_QUEUE_STATE:
		queue->state = ent->qstate.state;
		queue->closed_by_parent = ent->qstate.closed_by_parent;
		break;
	case VS_TXN_VJOB_STATE:
		undo_vjob_state(ent->obj, ent->saved);
		break;
	case VS_TXN_VJOB_LINK:
		pg = ent->saved;
		if (pg)
			pg->vjob = ent->link.vjob;
		((struct vs_vjob *)ent->obj)->podgroup = ent->link.pg;
		if (ent->link.pg)
			ent->link.pg->vjob = ent->obj;
		break;
	case VS_TXN_JOB_WAKE:
		vs_job_rest(cl, job);
		break;
	case VS_TXN_SUMS_NODE:
		memcpy(&node->idle, ent->saved, 4 * sizeof(struct vs_res));
		break;
	case VS_TXN_SUMS_JOB:
		memcpy(&job->total_request, ent->saved, 2 * sizeof(struct vs_res));
		break;
	case VS_TXN_SUMS_QUEUE:
		memcpy(&queue->allocated, ent->saved, 2 * sizeof(struct vs_res));
		break;
	case VS_TXN_DIM:
		/* Undone newest first: it is the last name, and no object holds it any more. */
		vs_res_dims_rewind(&cl->dims, ent->dim);
		break;
	}
	return 0;
}

int vs_txn_abort(struct vs_txn *txn)
{
	struct vs_cluster *cl = txn->cl;
	int ret = txn->broken ? -EIO : 0;

	/* The undo goes through the object functions: nothing of it is journalled. */
	cl->txn = NULL;
	for (struct vs_txn_ent *ent = txn->last; ent; ent = ent->prev) {
		if (undo_one(cl, ent)) {
			vs_error("transaction: out of memory undoing a change; the state may differ");
			ret = -EIO;
		}
	}
	cl->seq = txn->seq;
	cl->created_max = txn->created_max;
	cl->total_allocatable = txn->total_allocatable;
	vs_arena_destroy(&txn->arena);
	return ret;
}

/* ---- committing ---- */

/* What an entry kept alive for its undo goes now. */
static void forget(struct vs_cluster *cl, struct vs_txn_ent *ent)
{
	const struct vs_node *onode = ent->saved;
	const struct vs_queue *oqueue = ent->saved;
	const struct vs_job *ojob = ent->saved;

	switch (ent->kind) {
	case VS_TXN_DEL_NODE:
		vs_node_free(cl, ent->obj);
		break;
	case VS_TXN_DEL_QUEUE:
		vs_queue_free(cl, ent->obj);
		break;
	case VS_TXN_DEL_JOB:
		vs_job_free(cl, ent->obj);
		break;
	case VS_TXN_DEL_TASK:
		vs_task_free(cl, ent->obj);
		break;
	case VS_TXN_DEL_VJOB:
		vs_vjob_free(cl, ent->obj);
		break;
	case VS_TXN_DEL_PRIOCLASS:
		vs_prioclass_free(cl, ent->obj);
		break;
	case VS_TXN_NODE_SPEC:
		vs_node_class_put(&cl->classes, &cl->strs, onode->cls);
		vs_labels_free(&cl->strs, onode->labels);
		vs_taints_free(&cl->strs, onode->taints);
		vs_node_images_free(&cl->images, &cl->strs, onode->images);
		break;
	case VS_TXN_QUEUE_SPEC:
		vs_str_put(&cl->strs, oqueue->parent);
		break;
	case VS_TXN_JOB_SPEC:
		job_attrs_put(cl, ojob);
		break;
	case VS_TXN_TASK_BIND:
		vs_str_put(&cl->strs, ent->bind.error);
		break;
	case VS_TXN_TASK_NOMINATED:
		vs_str_put(&cl->strs, ent->nominated);
		break;
	case VS_TXN_DEL_HYPERNODE:
	case VS_TXN_HYPERNODE_SPEC:
		vs_hypernode_forget(cl, ent);
		break;
	default:
		break;
	}
}

void vs_txn_commit(struct vs_txn *txn)
{
	struct vs_cluster *cl = txn->cl;

	cl->txn = NULL;
	for (struct vs_txn_ent *ent = txn->last; ent; ent = ent->prev)
		forget(cl, ent);
	vs_arena_destroy(&txn->arena);
}
