/* SPDX-License-Identifier: Apache-2.0 */
/*
 * struct vs_vjob: a VolcanoJob (batch.volcano.sh/v1alpha1 Job): task groups
 * with replicas and a pod template, minAvailable, queue, priority class,
 * lifecycle policies and maxRetry. The job controller turns it into a
 * PodGroup (struct vs_job) and tasks named <job>-<task>-<index>, and drives
 * its phase from their events.
 */
#ifndef VS_CORE_VJOB_H
#define VS_CORE_VJOB_H

#include "core/compiler.h"
#include "core/images.h"
#include "core/spread.h"
#include "core/job.h"
#include "core/labels.h"
#include "core/list.h"
#include "core/rbtree.h"
#include "core/res.h"

struct vs_job;

enum vs_vjob_phase {
	VS_VJOB_PENDING,
	VS_VJOB_ABORTING,
	VS_VJOB_ABORTED,
	VS_VJOB_RUNNING,
	VS_VJOB_RESTARTING,
	VS_VJOB_COMPLETING,
	VS_VJOB_COMPLETED,
	VS_VJOB_TERMINATING,
	VS_VJOB_TERMINATED,
	VS_VJOB_FAILED,
	VS_VJOB_NR_PHASES
};

const char *vs_vjob_phase_name(enum vs_vjob_phase p);

/* Lifecycle policy events and actions (batch.volcano.sh bus/v1alpha1). */
enum vs_vjob_event {
	VS_EV_ANY,			/* "*" */
	VS_EV_POD_FAILED,
	VS_EV_POD_EVICTED,
	VS_EV_POD_PENDING,
	VS_EV_POD_RUNNING,
	VS_EV_JOB_UNKNOWN,
	VS_EV_TASK_COMPLETED,
	VS_EV_TASK_FAILED,
	VS_EV_OUT_OF_SYNC,
	VS_EV_COMMAND_ISSUED,
	VS_EV_JOB_UPDATED,
	VS_EV_NR
};

enum vs_vjob_action {
	VS_ACT_ABORT_JOB,
	VS_ACT_RESTART_JOB,
	VS_ACT_RESTART_TASK,
	VS_ACT_RESTART_POD,
	VS_ACT_TERMINATE_JOB,
	VS_ACT_COMPLETE_JOB,
	VS_ACT_RESUME_JOB,
	VS_ACT_SYNC_JOB,
	VS_ACT_ENQUEUE_JOB,
	VS_ACT_SYNC_QUEUE,
	VS_ACT_OPEN_QUEUE,
	VS_ACT_CLOSE_QUEUE,
	VS_ACT_NR
};

int vs_vjob_event_parse(const char *s, enum vs_vjob_event *out, struct vs_err *err);
const char *vs_vjob_event_name(enum vs_vjob_event e);
int vs_vjob_action_parse(const char *s, enum vs_vjob_action *out, struct vs_err *err);
const char *vs_vjob_action_name(enum vs_vjob_action a);

struct vs_vjob_policy {
	enum vs_vjob_event event;
	enum vs_vjob_action action;
	bool has_exit_code;
	s32 exit_code;			/* instead of an event: the container exit code */
};

/*
 * A task's partitionPolicy (Volcano's PartitionPolicySpec): its replicas
 * split into @total partitions of @size pods, at least @min of them
 * placed, each within @nt. The job controller makes it a sub-group policy
 * of the PodGroup.
 */
struct vs_vjob_partition {
	u32 total;			/* totalPartitions, >= 1 */
	u32 size;			/* partitionSize, >= 1; total * size == replicas */
	u32 min;			/* minPartitions, default 0 */
	struct vs_net_topology nt;
};

/* One entry of spec.tasks: a group of identical replicas. */
struct vs_vjob_task {
	const char *name;		/* interned; the role of its tasks */
	u32 replicas;
	u32 min_available;		/* counts towards minTaskMember; default replicas */
	struct vs_res req;		/* the template's requests */
	struct vs_labels *labels;	/* the template's labels */
	struct vs_labels *node_selector;
	struct vs_tolerations *tolerations;
	struct vs_host_ports *ports;	/* the template's host ports, or NULL */
	struct vs_task_images *images;	/* its containers' images, or NULL */
	struct vs_spread_constraints *spread;	/* topologySpreadConstraints, shared by its pods */
	struct vs_vjob_policy *policies;
	u32 nr_policies;
	bool has_partition;
	struct vs_vjob_partition partition;

	/*
	 * NULL, or one enum vs_vjob_kept per replica: the finished tasks the
	 * job controller took out of the core with the PodGroup (Volcano keeps
	 * such pods after deleting the PodGroup; a vsched task needs one).
	 */
	u8 *kept;
};

/* What the job controller remembers of a finished replica it removed. */
enum vs_vjob_kept {
	VS_VJOB_KEPT_NONE,
	VS_VJOB_KEPT_SUCCEEDED,
	VS_VJOB_KEPT_FAILED,
};

/*
 * Volcano's JobStatus counters, as the job controller last wrote them
 * (kernel/controllers/): tasks by pod phase, and the tasks being deleted.
 */
struct vs_vjob_status {
	u32 pending;
	u32 running;
	u32 succeeded;
	u32 failed;
	u32 terminating;
	u32 unknown;
	u32 min_available;
	u32 version;			/* bumped by every kill of the whole job */
};

/*
 * What a checkpoint keeps of a VolcanoJob beyond its spec (VS_VJOB_A_STATE):
 * vs_jobctl_restore() puts it back on a job just made from that spec.
 */
struct vs_vjob_kept_spec {
	const char *task;		/* the task group's name */
	const u32 *succeeded;		/* replica indexes */
	u32 nr_succeeded;
	const u32 *failed;
	u32 nr_failed;
};

struct vs_vjob_state {
	enum vs_vjob_phase phase;
	u32 retry_count;
	struct vs_vjob_status status;
	bool podgroup;			/* it owns the PodGroup of its name */
	const struct vs_vjob_kept_spec *kept;
	u32 nr_kept;
};

struct vs_vjob {
	const char *ns;			/* interned */
	const char *name;		/* interned */
	u64 seq;
	struct hlist_node hnode;	/* cluster VolcanoJob index */
	struct rb_node byname;	/* cluster->vjob_names */
	struct list_head list;		/* cluster->vjobs */

	const char *queue_name;		/* interned */
	const char *priority_class;	/* interned, or NULL */
	u32 min_available;		/* default: the sum of the tasks' minAvailable */
	u32 max_retry;			/* default 3 */
	u32 retry_count;
	enum vs_vjob_phase phase;
	struct vs_vjob_status status;

	struct vs_vjob_task *tasks;
	u32 nr_tasks;
	struct vs_vjob_policy *policies;
	u32 nr_policies;
	struct vs_net_topology net_topology;	/* spec.networkTopology */

	struct vs_job *podgroup;	/* made by the job controller, or NULL */
	u32 txn_gen;			/* its status saved by that transaction (core/txn.h) */
	const struct vs_res_dims *dims;	/* its cluster's resource names */
};

/* ---- the VolcanoJob in the cluster (vjob.c) ---- */

struct vs_cluster;

struct vs_vjob_task_spec {
	const char *name;
	u32 replicas;
	u32 min_available;
	bool has_min_available;		/* else min_available = replicas */
	struct vs_res req;
	const struct vs_kv_spec *labels;
	u32 nr_labels;
	const struct vs_kv_spec *node_selector;
	u32 nr_node_selector;
	const struct vs_toleration_spec *tolerations;
	u32 nr_tolerations;
	const struct vs_host_port_spec *ports;
	u32 nr_ports;
	const char *const *images;
	u32 nr_images;
	const struct vs_spread_constraint_spec *spread;
	u32 nr_spread;
	const struct vs_vjob_policy *policies;
	u32 nr_policies;
	bool has_partition;
	u32 total_partitions;
	u32 partition_size;
	u32 min_partitions;
	struct vs_net_topology_spec partition_nt;
};

struct vs_vjob_spec {
	const char *ns;
	const char *name;
	const char *queue;		/* NULL or "": "default" */
	const char *priority_class;
	u32 min_available;
	bool has_min_available;		/* else (or if 0) the sum of the tasks' minAvailable */
	u32 max_retry;			/* 0 takes Volcano's default of 3 */
	const struct vs_vjob_task_spec *tasks;
	u32 nr_tasks;
	const struct vs_vjob_policy *policies;
	u32 nr_policies;
	struct vs_net_topology_spec net_topology;
};

void vs_vjob_spec_init(struct vs_vjob_spec *spec, const char *ns, const char *name);

/*
 * Refuses what Volcano's admission webhook refuses: no tasks, duplicate or
 * invalid task names, zero replicas, minAvailable above the replicas, a
 * task minAvailable above its replicas, a partitionPolicy whose partitions
 * do not make the replicas (or, with minPartitions, the task's
 * minAvailable), a networkTopology with both tiers. A task without
 * minAvailable takes minPartitions * partitionSize when minPartitions is
 * set, else its replicas (the mutating webhook).
 */
int vs_vjob_add(struct vs_cluster *cl, const struct vs_vjob_spec *spec,
		struct vs_vjob **out, struct vs_err *err);

/* The PodGroup it made is kept, without its owner. */
void vs_vjob_del(struct vs_cluster *cl, struct vs_vjob *vjob);

struct vs_vjob *vs_vjob_find(const struct vs_cluster *cl, const char *ns, const char *name);

#endif /* VS_CORE_VJOB_H */
