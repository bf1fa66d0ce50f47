// SPDX-License-Identifier: Apache-2.0
/*
 * VolcanoJobs: created (checked as Volcano's admission webhook checks them)
 * and destroyed in the cluster; phases, policy events and actions as text,
 * with Volcano's spelling. The job controller (kernel/controllers/) runs
 * them.
 */
#include <stdlib.h>
#include <string.h>

#include "core/enum.h"
#include "core/internal.h"
#include "core/vjob.h"

static const char *const phase_names[VS_VJOB_NR_PHASES] = {
	[VS_VJOB_PENDING]	= "Pending",
	[VS_VJOB_ABORTING]	= "Aborting",
	[VS_VJOB_ABORTED]	= "Aborted",
	[VS_VJOB_RUNNING]	= "Running",
	[VS_VJOB_RESTARTING]	= "Restarting",
	[VS_VJOB_COMPLETING]	= "Completing",
	[VS_VJOB_COMPLETED]	= "Completed",
	[VS_VJOB_TERMINATING]	= "Terminating",
	[VS_VJOB_TERMINATED]	= "Terminated",
	[VS_VJOB_FAILED]	= "Failed",
};

const char *vs_vjob_phase_name(enum vs_vjob_phase p)
{
	return vs_enum_name(phase_names, ARRAY_SIZE(phase_names), p);
}

static const char *const event_names[VS_EV_NR] = {
	[VS_EV_ANY]		= "*",
	[VS_EV_POD_FAILED]	= "PodFailed",
	[VS_EV_POD_EVICTED]	= "PodEvicted",
	[VS_EV_POD_PENDING]	= "PodPending",
	[VS_EV_POD_RUNNING]	= "PodRunning",
	[VS_EV_JOB_UNKNOWN]	= "Unknown",
	[VS_EV_TASK_COMPLETED]	= "TaskCompleted",
	[VS_EV_TASK_FAILED]	= "TaskFailed",
	[VS_EV_OUT_OF_SYNC]	= "OutOfSync",
	[VS_EV_COMMAND_ISSUED]	= "CommandIssued",
	[VS_EV_JOB_UPDATED]	= "JobUpdated",
};

const char *vs_vjob_event_name(enum vs_vjob_event e)
{
	return vs_enum_name(event_names, ARRAY_SIZE(event_names), e);
}

int vs_vjob_event_parse(const char *s, enum vs_vjob_event *out, struct vs_err *err)
{
	int v = vs_enum_parse(event_names, ARRAY_SIZE(event_names), s, "job event", err);

	if (v < 0)
		return v;
	*out = (enum vs_vjob_event)v;
	return 0;
}

static const char *const action_names[VS_ACT_NR] = {
	[VS_ACT_ABORT_JOB]	= "AbortJob",
	[VS_ACT_RESTART_JOB]	= "RestartJob",
	[VS_ACT_RESTART_TASK]	= "RestartTask",
	[VS_ACT_RESTART_POD]	= "RestartPod",
	[VS_ACT_TERMINATE_JOB]	= "TerminateJob",
	[VS_ACT_COMPLETE_JOB]	= "CompleteJob",
	[VS_ACT_RESUME_JOB]	= "ResumeJob",
	[VS_ACT_SYNC_JOB]	= "SyncJob",
	[VS_ACT_ENQUEUE_JOB]	= "EnqueueJob",
	[VS_ACT_SYNC_QUEUE]	= "SyncQueue",
	[VS_ACT_OPEN_QUEUE]	= "OpenQueue",
	[VS_ACT_CLOSE_QUEUE]	= "CloseQueue",
};

const char *vs_vjob_action_name(enum vs_vjob_action a)
{
	return vs_enum_name(action_names, ARRAY_SIZE(action_names), a);
}

int vs_vjob_action_parse(const char *s, enum vs_vjob_action *out, struct vs_err *err)
{
	int v = vs_enum_parse(action_names, ARRAY_SIZE(action_names), s, "job action", err);

	if (v < 0)
		return v;
	*out = (enum vs_vjob_action)v;
	return 0;
}

/* ---- the VolcanoJob in the cluster ---- */

void vs_vjob_spec_init(struct vs_vjob_spec *spec, const char *ns, const char *name)
{
	memset(spec, 0, sizeof(*spec));
	spec->ns = ns;
	spec->name = name;
}

void vs_vjob_free(struct vs_cluster *cl, struct vs_vjob *vjob)
{
	for (u32 i = 0; vjob->tasks && i < vjob->nr_tasks; i++) {
		struct vs_vjob_task *t = &vjob->tasks[i];

		vs_str_put(&cl->strs, t->name);
		vs_labels_free(&cl->strs, t->labels);
		vs_labels_free(&cl->strs, t->node_selector);
		vs_tolerations_free(&cl->strs, t->tolerations);
		vs_host_ports_free(&cl->strs, t->ports);
		vs_task_images_free(&cl->strs, t->images);
		vs_spread_constraints_free(&cl->strs, t->spread);
		vs_net_topology_put(cl, &t->partition.nt);
		free(t->policies);
		free(t->kept);
	}
	if (vjob->podgroup)
		vjob->podgroup->vjob = NULL;
	free(vjob->tasks);
	free(vjob->policies);
	vs_str_put(&cl->strs, vjob->ns);
	vs_str_put(&cl->strs, vjob->name);
	vs_str_put(&cl->strs, vjob->queue_name);
	vs_str_put(&cl->strs, vjob->priority_class);
	vs_net_topology_put(cl, &vjob->net_topology);
	vs_pool_free(&cl->vjob_pool, vjob);
}

static int policies_check(const struct vs_vjob_policy *p, u32 nr, struct vs_err *err)
{
	for (u32 i = 0; i < nr; i++) {
		if ((unsigned int)p[i].event >= VS_EV_NR ||
		    (unsigned int)p[i].action >= VS_ACT_NR)
			return vs_err_set(err, EINVAL, "policy %u: bad event or action", i);
		if (p[i].has_exit_code && p[i].exit_code == 0)
			return vs_err_set(err, EINVAL, "policy %u: exitCode 0 is not a failure", i);
	}
	return 0;
}

static struct vs_vjob_policy *policies_dup(const struct vs_vjob_policy *p, u32 nr)
{
	struct vs_vjob_policy *copy;

	if (!nr)
		return NULL;
	copy = calloc(nr, sizeof(*copy));
	if (copy)
		memcpy(copy, p, nr * sizeof(*copy));
	return copy;
}

/* The Job webhook's validatePartitionPolicy, in its order. */
static int partition_check(const struct vs_vjob_task_spec *t, struct vs_err *err)
{
	if (!t->has_partition)
		return 0;
	if (t->total_partitions < 1 || t->total_partitions > INT32_MAX)
		return vs_err_set(err, EINVAL,
				  "partitionPolicy: 'TotalPartitions' must be greater than 0");
	if (t->partition_size < 1 || t->partition_size > INT32_MAX)
		return vs_err_set(err, EINVAL,
				  "partitionPolicy: 'PartitionSize' must be greater than 0");
	if ((u64)t->total_partitions * t->partition_size != t->replicas)
		return vs_err_set(err, EINVAL, "partitionPolicy: 'Replicas' (%u) are not equal to "
				  "TotalPartitions*PartitionSize (%u*%u)", t->replicas,
				  t->total_partitions, t->partition_size);
	/* the minAvailable the mutating webhook would derive, as the validating one checks it */
	if (t->min_partitions > t->total_partitions)
		return vs_err_set(err, EINVAL, "partitionPolicy: minAvailable %llu "
				  "(MinPartitions*PartitionSize) is more than its %u replicas",
				  (unsigned long long)t->min_partitions * t->partition_size,
				  t->replicas);
	if (t->has_min_available && t->min_partitions &&
	    (u64)t->min_partitions * t->partition_size != t->min_available)
		return vs_err_set(err, EINVAL, "partitionPolicy: 'MinAvailable' (%u) is not equal "
				  "to MinPartitions*PartitionSize (%u*%u)", t->min_available,
				  t->min_partitions, t->partition_size);
	return vs_net_topology_check(&t->partition_nt, "partitionPolicy.networkTopology", err);
}

static int vjob_spec_check(const struct vs_cluster *cl, const struct vs_vjob_spec *spec,
			   struct vs_err *err)
{
	u64 replicas = 0;
	int ret;

	if (!spec->nr_tasks)
		return vs_err_set(err, EINVAL, "no tasks specified");
	for (u32 i = 0; i < spec->nr_tasks; i++) {
		const struct vs_vjob_task_spec *t = &spec->tasks[i];

		ret = vs_check_dns_label(t->name, t->name ? strlen(t->name) : 0, "task name", err);
		if (ret)
			return ret;
		for (u32 j = 0; j < i; j++)
			if (!strcmp(spec->tasks[j].name, t->name))
				return vs_err_set(err, EINVAL, "task name \"%s\" given twice", t->name);
		if (!t->replicas)
			return vs_err_set(err, EINVAL, "task %s: replicas must be at least 1", t->name);
		if (t->has_min_available && t->min_available > t->replicas)
			return vs_err_set(err, EINVAL,
					  "task %s: minAvailable %u is more than its %u replicas",
					  t->name, t->min_available, t->replicas);
		ret = vs_res_check_amounts(cl, &t->req, "request", err);
		if (!ret)
			ret = policies_check(t->policies, t->nr_policies, err);
		if (!ret)
			ret = partition_check(t, err);
		if (ret) {
			vs_err_prefix(err, "task %s: ", t->name);
			return ret;
		}
		replicas += t->replicas;
	}
	if (spec->has_min_available && spec->min_available > replicas)
		return vs_err_set(err, EINVAL, "minAvailable %u is more than the %llu replicas",
				  spec->min_available, (unsigned long long)replicas);
	ret = vs_net_topology_check(&spec->net_topology, "networkTopology", err);
	if (ret)
		return ret;
	if (replicas > cl->limits.tasks)
		return vs_err_set(err, ENOSPC, "%llu replicas: more pods than the cluster may hold "
				  "(%u, vschedd --limit tasks=N)", (unsigned long long)replicas,
				  cl->limits.tasks);
	if (!vs_str_empty(spec->priority_class)) {
		ret = vs_check_dns_subdomain(spec->priority_class, strlen(spec->priority_class),
					     "priority class name", err);
		if (ret)
			return ret;
	}
	ret = vs_check_dns_subdomain(vs_queue_name_or_default(spec->queue),
				     strlen(vs_queue_name_or_default(spec->queue)), "queue name", err);
	if (ret)
		return ret;
	return policies_check(spec->policies, spec->nr_policies, err);
}

int vs_vjob_add(struct vs_cluster *cl, const struct vs_vjob_spec *spec,
		struct vs_vjob **out, struct vs_err *err)
{
	struct vs_txn_ent *ent;
	struct vs_vjob *vjob;
	u32 task_min = 0;
	int ret = 0;

	ret = vs_check_dns_label(spec->ns, spec->ns ? strlen(spec->ns) : 0, "namespace", err);
	if (!ret)
		ret = vs_check_dns_subdomain(spec->name, spec->name ? strlen(spec->name) : 0,
					     "job name", err);
	if (ret)
		return ret;
	if (vs_vjob_find(cl, spec->ns, spec->name))
		return vs_err_set(err, EEXIST, "job %s/%s already exists", spec->ns, spec->name);
	ret = VS_LIMIT_CHECK(cl, vjobs, cl->nr_vjobs, err);
	if (!ret)
		ret = vjob_spec_check(cl, spec, err);
	if (!ret && vs_txn_prep(cl, VS_TXN_ADD_VJOB, NULL, 0, &ent))
		ret = vs_err_set(err, ENOMEM, "out of memory");
	if (ret)
		goto out_prefix;

	vjob = vs_pool_zalloc(&cl->vjob_pool);
	if (!vjob) {
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_prefix;
	}
	vjob->dims = &cl->dims;
	vjob->ns = vs_str_get_cstr(&cl->strs, spec->ns);
	vjob->name = vs_str_get_cstr(&cl->strs, spec->name);
	vjob->queue_name = vs_str_get_cstr(&cl->strs, vs_queue_name_or_default(spec->queue));
	vjob->priority_class = vs_cluster_intern_opt(cl, spec->priority_class, &ret);
	vjob->tasks = calloc(spec->nr_tasks, sizeof(*vjob->tasks));
	vjob->policies = policies_dup(spec->policies, spec->nr_policies);
	if (!ret && vs_net_topology_build(cl, &spec->net_topology, &vjob->net_topology))
		ret = -ENOMEM;
	if (ret || !vjob->ns || !vjob->name || !vjob->queue_name || !vjob->tasks ||
	    (spec->nr_policies && !vjob->policies)) {
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_free;
	}
	vjob->nr_policies = spec->nr_policies;
	for (u32 i = 0; i < spec->nr_tasks; i++) {
		const struct vs_vjob_task_spec *ts = &spec->tasks[i];
		struct vs_vjob_task *t = &vjob->tasks[i];
		bool nomem = false;

		vjob->nr_tasks++;
		t->name = vs_str_get_cstr(&cl->strs, ts->name);
		t->replicas = ts->replicas;
		/* the mutating webhook: minPartitions * partitionSize when minPartitions is set */
		if (ts->has_min_available)
			t->min_available = ts->min_available;
		else if (ts->has_partition && ts->min_partitions)
			t->min_available = ts->min_partitions * ts->partition_size;
		else
			t->min_available = ts->replicas;
		t->has_partition = ts->has_partition;
		if (ts->has_partition) {
			t->partition.total = ts->total_partitions;
			t->partition.size = ts->partition_size;
			t->partition.min = ts->min_partitions;
			nomem = vs_net_topology_build(cl, &ts->partition_nt, &t->partition.nt);
		}
		t->req = ts->req;
		t->policies = policies_dup(ts->policies, ts->nr_policies);
		t->nr_policies = t->policies ? ts->nr_policies : 0;
		ret = vs_labels_new(&cl->strs, ts->labels, ts->nr_labels, "label",
				    &t->labels, err);
		if (!ret)
			ret = vs_labels_new(&cl->strs, ts->node_selector, ts->nr_node_selector,
					    "nodeSelector", &t->node_selector, err);
		if (!ret)
			ret = vs_tolerations_new(&cl->strs, ts->tolerations, ts->nr_tolerations,
						 &t->tolerations, err);
		if (!ret)
			ret = vs_host_ports_new(&cl->strs, ts->ports, ts->nr_ports, &t->ports, err);
		if (!ret)
			ret = vs_task_images_new(&cl->strs, ts->images, ts->nr_images, &t->images,
						 err);
		if (!ret)
			ret = vs_spread_constraints_new(&cl->strs, ts->spread, ts->nr_spread,
							&t->spread, err);
		if (!ret && (nomem || !t->name || (ts->nr_policies && !t->policies)))
			ret = vs_err_set(err, ENOMEM, "out of memory");
		if (ret) {
			vs_err_prefix(err, "task %s: ", ts->name);
			goto out_free;
		}
		task_min += t->min_available;
	}
	/* Volcano's mutating webhook: an unset or zero minAvailable takes the tasks' sum. */
	vjob->min_available = spec->has_min_available && spec->min_available ?
			      spec->min_available : task_min;
	vjob->status.min_available = vjob->min_available;
	vjob->max_retry = spec->max_retry ? spec->max_retry : 3;
	vjob->phase = VS_VJOB_PENDING;
	vjob->seq = cl->seq++;
	vs_htable_add(&cl->vjob_index, &vjob->hnode, vs_ns_name_hash(vjob->ns, vjob->name));
	vs_name_tree_add(&cl->vjob_names, vjob);
	list_add_tail(&vjob->list, &cl->vjobs);
	cl->nr_vjobs++;
	if (ent) {
		ent->obj = vjob;
		vs_txn_push(cl, ent);
	}
	if (out)
		*out = vjob;
	return 0;

out_free:
	vs_vjob_free(cl, vjob);
out_prefix:
	vs_err_prefix(err, "job %s/%s: ", spec->ns, spec->name);
	return ret;
}

void vs_vjob_del(struct vs_cluster *cl, struct vs_vjob *vjob)
{
	struct vs_txn_ent *ent = vs_txn_prep_nofail(cl, VS_TXN_DEL_VJOB, vjob, 0);

	if (ent) {
		/* kept whole until the commit: its PodGroup lets go of it now */
		ent->place.list = vjob->list.prev;
		ent->place.link = vjob->podgroup;
		if (vjob->podgroup)
			vjob->podgroup->vjob = NULL;
		vjob->podgroup = NULL;
	}
	vs_htable_del(&cl->vjob_index, &vjob->hnode);
	vs_name_tree_del(&cl->vjob_names, vjob);
	list_del(&vjob->list);
	cl->nr_vjobs--;
	if (ent)
		vs_txn_push(cl, ent);
	else
		vs_vjob_free(cl, vjob);
}

