// SPDX-License-Identifier: Apache-2.0
/*
 * vs_cluster_check(): the whole state verified against what it is made of.
 * Every counter, total, list, index and pool of the cluster is recounted
 * from the objects and compared; the objects' own invariants are checked by
 * vs_node_check() and vs_job_check(). For tests, and for the daemon's
 * self-check (after cycles and restores, and on SIGUSR2).
 */
#include <string.h>

#include "core/internal.h"

static int check_queue(const struct vs_queue *queue, struct vs_err *err)
{
	struct vs_queue_rest rest = { 0 };
	struct vs_res allocated, request;
	struct vs_job_contrib c;
	const struct vs_job *job;
	u32 n = 0, phases[VS_PG_NR_PHASES] = { 0 };

	list_for_each_entry(job, &queue->jobs, queue_node) {
		if (job->queue != queue)
			return vs_err_set(err, EIO, "queue %s lists podgroup %s/%s of another queue",
					  queue->name, job->ns, job->name);
		if (job->resting) {
			if (!vs_job_may_rest(job) || !RB_EMPTY_NODE(&job->active_node))
				return vs_err_set(err, EIO, "podgroup %s/%s rests but may not",
						  job->ns, job->name);
			vs_job_contrib(job, &c);
			vs_queue_rest_add(&rest, &c);
		}
		phases[job->phase]++;
		n++;
	}
	if (n != queue->nr_jobs)
		return vs_err_set(err, EIO, "queue %s has %u podgroups but counts %u",
				  queue->name, n, queue->nr_jobs);
	if (memcmp(phases, queue->nr_jobs_by_phase, sizeof(phases)))
		return vs_err_set(err, EIO, "queue %s: podgroup counts by phase are wrong",
				  queue->name);
	vs_queue_sums(queue, &allocated, &request);
	if (memcmp(allocated.v, queue->allocated.v, sizeof(allocated.v)) ||
	    memcmp(request.v, queue->request.v, sizeof(request.v)))
		return vs_err_set(err, EIO, "queue %s: totals differ from its podgroups'",
				  queue->name);
	if (!vs_queue_rest_equal(&rest, &queue->rest))
		return vs_err_set(err, EIO, "queue %s: the sums of its %u resting podgroups are "
				  "wrong (%u counted)", queue->name, rest.nr_jobs,
				  queue->rest.nr_jobs);
	return 0;
}

/* VolcanoJobs and PriorityClasses: listed, indexed and counted alike. */
static int check_others(const struct vs_cluster *cl, struct vs_err *err)
{
	const struct vs_prioclass *pc;
	const struct vs_vjob *vjob;
	u32 vjobs = 0, pcs = 0;

	list_for_each_entry(vjob, &cl->vjobs, list) {
		if (vs_vjob_find(cl, vjob->ns, vjob->name) != vjob)
			return vs_err_set(err, EIO, "job %s/%s is not indexed", vjob->ns,
					  vjob->name);
		vjobs++;
	}
	list_for_each_entry(pc, &cl->prioclasses, list) {
		if (vs_prioclass_find(cl, pc->name) != pc)
			return vs_err_set(err, EIO, "priorityclass %s is not indexed", pc->name);
		pcs++;
	}
	if (vjobs != cl->nr_vjobs || pcs != cl->nr_prioclasses ||
	    vs_htable_count(&cl->vjob_index) != vjobs ||
	    vs_htable_count(&cl->prioclass_index) != pcs)
		return vs_err_set(err, EIO, "%u jobs and %u priorityclasses listed, %u and %u "
				  "counted, %zu and %zu indexed", vjobs, pcs, cl->nr_vjobs,
				  cl->nr_prioclasses, vs_htable_count(&cl->vjob_index),
				  vs_htable_count(&cl->prioclass_index));
	return 0;
}

/*
 * Each index whole: a name found above could still hide a broken chain.
 * Each name tree in order and holding every object of its kind once.
 */
static int check_indexes(const struct vs_cluster *cl, struct vs_err *err)
{
	const struct {
		const char *what;
		const struct vs_htable *t;
		const struct vs_name_tree *names;
		u32 count;
	} idx[] = {
		{ "node", &cl->node_index, &cl->node_names, cl->nr_nodes },
		{ "queue", &cl->queue_index, &cl->queue_names, cl->nr_queues },
		{ "podgroup", &cl->job_index, &cl->job_names, cl->nr_jobs },
		{ "task", &cl->task_index, &cl->task_names, cl->nr_tasks },
		{ "job", &cl->vjob_index, &cl->vjob_names, cl->nr_vjobs },
		{ "priorityclass", &cl->prioclass_index, &cl->prioclass_names, cl->nr_prioclasses },
		{ "hypernode", &cl->hypernode_index, &cl->hypernode_names, cl->hypernodes.nr },
	};

	for (size_t i = 0; i < ARRAY_SIZE(idx); i++) {
		if (vs_htable_check(idx[i].t))
			return vs_err_set(err, EIO, "the %s index is broken", idx[i].what);
		if (vs_name_tree_check(idx[i].names, idx[i].count))
			return vs_err_set(err, EIO, "the %s name order is broken", idx[i].what);
	}
	return 0;
}

/* Every object of a pool is one the cluster holds: none leaked, none freed twice. */
static int check_pools(const struct vs_cluster *cl, struct vs_err *err)
{
	const struct {
		const struct vs_pool *pool;
		u32 nr;
	} pools[] = {
		/* and those an open transaction deleted, kept whole until it ends */
		{ &cl->node_pool, cl->nr_nodes + vs_txn_kept(cl, VS_TXN_DEL_NODE) },
		{ &cl->queue_pool, cl->nr_queues + vs_txn_kept(cl, VS_TXN_DEL_QUEUE) },
		{ &cl->job_pool, cl->nr_jobs + vs_txn_kept(cl, VS_TXN_DEL_JOB) },
		{ &cl->task_pool, cl->nr_tasks + vs_txn_kept(cl, VS_TXN_DEL_TASK) },
		{ &cl->vjob_pool, cl->nr_vjobs + vs_txn_kept(cl, VS_TXN_DEL_VJOB) },
		{ &cl->prioclass_pool, cl->nr_prioclasses + vs_txn_kept(cl, VS_TXN_DEL_PRIOCLASS) },
		{ &cl->hypernode_pool, cl->hypernodes.nr + vs_txn_kept(cl, VS_TXN_DEL_HYPERNODE) },
	};

	for (size_t i = 0; i < ARRAY_SIZE(pools); i++)
		if (pools[i].pool->active_objs != pools[i].nr)
			return vs_err_set(err, EIO, "pool %s has %zu objects in use for %u",
					  pools[i].pool->name, pools[i].pool->active_objs,
					  pools[i].nr);
	return 0;
}

int vs_cluster_check(const struct vs_cluster *cl, struct vs_err *err)
{
	const struct vs_node *node;
	const struct vs_queue *queue;
	const struct vs_job *job, *prev = NULL;
	const struct vs_task *task;
	struct vs_res total;
	u32 nodes = 0, queues = 0, jobs = 0, tasks = 0, pns = 0, ipa = 0, pref = 0, active = 0, awake = 0;
	u32 prev_sidx = 0;
	int ret;

	vs_res_clear(&total);
	vs_image_audit_start(&cl->images);
	list_for_each_entry(node, &cl->nodes, list) {
		if (vs_node_find(cl, node->name) != node)
			return vs_err_set(err, EIO, "node %s is not indexed", node->name);
		if (node->sidx >= cl->nr_node_slots || cl->node_slot[node->sidx] != node)
			return vs_err_set(err, EIO, "node %s is not in its slot %u", node->name,
					  node->sidx);
		if (nodes && node->sidx <= prev_sidx)
			return vs_err_set(err, EIO, "node %s: slots out of creation order",
					  node->name);
		prev_sidx = node->sidx;
		if (!vs_node_class_is(node->cls, &cl->strs, node->labels, node->taints,
				      node->unschedulable, node->ready) ||
		    node->cls->id >= cl->classes.nr_ids ||
		    cl->classes.by_id[node->cls->id] != node->cls)
			return vs_err_set(err, EIO, "node %s is not in the class of its spec",
					  node->name);
		ret = vs_node_check(node, err) ?: vs_node_images_audit(node->images, err);
		if (ret)
			return ret;
		vs_res_add(&total, &node->allocatable);
		pns += vs_node_prefers_no_schedule(node);
		nodes++;
	}
	if (memcmp(total.v, cl->total_allocatable.v, sizeof(total.v)))
		return vs_err_set(err, EIO, "total allocatable differs from the nodes' sum");
	ret = vs_image_audit_end(&cl->images, err);
	if (ret)
		return ret;
	for (u32 i = 0, classes = 0, refs = 0; i <= cl->classes.nr_ids; i++) {
		const struct vs_node_class *c = i < cl->classes.nr_ids ? cl->classes.by_id[i] : NULL;

		if (c) {
			if (c->id != i || !c->nr_nodes)
				return vs_err_set(err, EIO, "node class %u: id %u, %u nodes", i,
						  c->id, c->nr_nodes);
			classes++;
			refs += c->nr_nodes;
		}
		/* the nodes a transaction deleted or changed keep theirs until it ends */
		if (i == cl->classes.nr_ids && (classes != cl->classes.nr ||
						refs != nodes + vs_txn_kept(cl, VS_TXN_DEL_NODE) +
						       vs_txn_kept(cl, VS_TXN_NODE_SPEC)))
			return vs_err_set(err, EIO, "%u node classes of %u nodes; %u and %u counted",
					  cl->classes.nr, nodes, classes, refs);
	}
	if (cl->nr_node_slots != nodes + cl->nr_node_holes)
		return vs_err_set(err, EIO, "%u node slots for %u nodes and %u holes",
				  cl->nr_node_slots, nodes, cl->nr_node_holes);

	list_for_each_entry(queue, &cl->queues, list) {
		if (vs_queue_find(cl, queue->name) != queue)
			return vs_err_set(err, EIO, "queue %s is not indexed", queue->name);
		ret = check_queue(queue, err);
		if (ret)
			return ret;
		queues++;
	}

	ret = vs_reqtab_audit_start(&cl->reqs, err);
	if (ret)
		return ret;
	vs_for_each_active_job(job, cl) {
		if (!job->queue || job->resting)
			return vs_err_set(err, EIO, "podgroup %s/%s is active but %s", job->ns,
					  job->name, job->resting ? "rests" : "has no queue");
		if (prev && prev->seq >= job->seq)
			return vs_err_set(err, EIO, "active podgroup %s/%s comes after %s/%s, made "
					  "later", job->ns, job->name, prev->ns, prev->name);
		prev = job;
		active++;
	}
	if (cl->active_last != (prev ? &prev->active_node : NULL))
		return vs_err_set(err, EIO, "the last active podgroup is not %s",
				  prev ? prev->name : "none");
	list_for_each_entry(job, &cl->jobs, list) {
		if (vs_job_find(cl, job->ns, job->name) != job)
			return vs_err_set(err, EIO, "podgroup %s/%s is not indexed", job->ns,
					  job->name);
		awake += job->queue && !job->resting;
		if (!job->queue && vs_queue_find(cl, job->queue_name))
			return vs_err_set(err, EIO, "podgroup %s/%s is orphaned but queue %s exists",
					  job->ns, job->name, job->queue_name);
		ret = vs_job_check(job, err);
		if (ret)
			return ret;
		list_for_each_entry(task, &job->tasks, job_node) {
			if (vs_task_find(cl, task->ns, task->name) != task)
				return vs_err_set(err, EIO, "task %s/%s is not indexed",
						  task->ns, task->name);
			if (!task->node != (task->acct == VS_ACCT_NONE))
				return vs_err_set(err, EIO, "task %s/%s: node and accounting disagree",
						  task->ns, task->name);
			ret = vs_reqtab_audit_ref(&cl->reqs, task->req, err);
			if (ret) {
				vs_err_prefix(err, "task %s/%s: ", task->ns, task->name);
				return ret;
			}
			ipa += vs_task_has_pod_terms(task);
			pref += vs_task_has_preferred_pod_terms(task);
			tasks++;
		}
		jobs++;
	}
	/* the tasks an open transaction deleted hold their requests until it ends */
	for (const struct vs_txn_ent *ent = cl->txn ? cl->txn->last : NULL; ent; ent = ent->prev) {
		if (ent->kind != VS_TXN_DEL_TASK)
			continue;
		ret = vs_reqtab_audit_ref(&cl->reqs, ((const struct vs_task *)ent->obj)->req, err);
		if (ret)
			return ret;
	}
	ret = vs_reqtab_audit_end(&cl->reqs, &cl->dims, err);
	if (ret)
		return ret;

	if (nodes != cl->nr_nodes || queues != cl->nr_queues || jobs != cl->nr_jobs ||
	    tasks != cl->nr_tasks)
		return vs_err_set(err, EIO, "object counts are wrong");
	if (active != awake || active != cl->nr_active_jobs)
		return vs_err_set(err, EIO, "%u podgroups listed active, %u awake with a queue, %u "
				  "counted", active, awake, cl->nr_active_jobs);
	if (pns != cl->nr_prefer_no_schedule_nodes || ipa != cl->nr_pod_affinity_tasks ||
	    pref != cl->nr_pod_preferred_tasks)
		return vs_err_set(err, EIO, "%u nodes with a PreferNoSchedule taint, %u counted; %u "
				  "tasks with pod affinity, %u counted; %u with preferred terms, "
				  "%u counted", pns, cl->nr_prefer_no_schedule_nodes, ipa,
				  cl->nr_pod_affinity_tasks, pref, cl->nr_pod_preferred_tasks);
	if (vs_htable_count(&cl->node_index) != nodes ||
	    vs_htable_count(&cl->queue_index) != queues ||
	    vs_htable_count(&cl->job_index) != jobs ||
	    vs_htable_count(&cl->task_index) != tasks)
		return vs_err_set(err, EIO, "an index holds objects that are not listed");
	return check_others(cl, err) ?: check_indexes(cl, err) ?: check_pools(cl, err) ?:
	       vs_hypernodes_check(cl, err);
}
