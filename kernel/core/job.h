/* SPDX-License-Identifier: Apache-2.0 */
/*
 * struct vs_job: a PodGroup and its tasks (Volcano's JobInfo).
 *
 * The job indexes its tasks by status, as Volcano's TaskStatusIndex does:
 * by_status[s] lists exactly the tasks whose status is s, nr_by_status[s]
 * counts them, and the gang counts (ready, waiting, pending best-effort) are
 * read from those counters in O(1). Two resource totals are kept exact:
 *
 *   total_request == sum of req over every task
 *   allocated     == sum of req over tasks in an AllocatedStatus
 *
 * (past INT64_MAX - 1, VS_RES_INF: a saturated total is counted again
 * from the tasks when one leaves it, core/res.h).
 *
 * A job may name a queue that does not exist yet; it is then on the
 * cluster's list of orphans (queue == NULL) and joins the queue when one of
 * that name is created. The cycle skips it, as Volcano does.
 */
#ifndef VS_CORE_JOB_H
#define VS_CORE_JOB_H

#include <string.h>

#include "core/compiler.h"
#include "core/list.h"
#include "core/rbtree.h"
#include "core/queue.h"
#include "core/res.h"
#include "core/task.h"

struct vs_vjob;
struct vs_job_why;
struct vs_label_selector;
struct vs_label_selector_spec;

/* minTaskMember: the least number of tasks of one role that must run. */
struct vs_role_min {
	const char *role;		/* interned; "" for tasks without a role */
	u32 min;
};

/* networkTopology.mode, Volcano's NetworkTopologyMode: "hard" (the default) or "soft". */
enum vs_nt_mode {
	VS_NT_HARD,
	VS_NT_SOFT,
	VS_NT_NR_MODES
};

const char *vs_nt_mode_name(enum vs_nt_mode mode);
int vs_nt_mode_parse(const char *s, enum vs_nt_mode *out, struct vs_err *err);

/*
 * A PodGroup's (or a sub-group's) networkTopology, Volcano's
 * NetworkTopologySpec: how far up the HyperNode tree its pods may spread.
 * At most one of highestTierAllowed and highestTierName is set (the
 * webhook's rule); neither means Volcano's scheduler default.
 */
struct vs_net_topology {
	bool set;			/* the networkTopology field is there */
	enum vs_nt_mode mode;
	bool has_highest_tier;
	s32 highest_tier;		/* highestTierAllowed, >= 0 */
	const char *highest_tier_name;	/* interned, or NULL */
};

/*
 * One entry of spec.subGroupPolicy (Volcano's SubGroupPolicySpec): the
 * pods @selector selects, split by the values of @match_label_keys into
 * sub-groups of @sub_group_size pods, each placed within @nt, and at least
 * @min_sub_groups of them placed for the PodGroup to run.
 */
struct vs_subgroup_policy {
	const char *name;		/* interned; "" when unnamed */
	struct vs_net_topology nt;
	u32 sub_group_size;		/* subGroupSize, >= 1, default 1 */
	u32 min_sub_groups;		/* minSubGroups, default 0 */
	struct vs_label_selector *selector;	/* labelSelector, NULL when absent */
	const char **match_label_keys;	/* interned */
	u32 nr_match_label_keys;
};

/* A PodGroup's volcano.sh/preemptable (annotation, else label). */
enum vs_pg_preemptable {
	VS_PG_PREEMPTABLE_UNSET,	/* neither: preemptable */
	VS_PG_PREEMPTABLE_FALSE,
	VS_PG_PREEMPTABLE_TRUE,
};

/* PodGroup condition types, Volcano's PodGroupConditionType. */
enum vs_pg_cond_type {
	VS_PG_COND_UNSCHEDULABLE,	/* "Unschedulable" */
	VS_PG_COND_SCHEDULED,		/* "Scheduled" */
	VS_PG_COND_NR
};

/*
 * The latest condition of one type, as Volcano's UpdatePodGroupCondition
 * keeps one per type in the PodGroup's status. A condition is either a
 * cycle's own (gang's, at session close) or given: taken from the
 * PodGroup's status in a message (the API server's, through vskube), which
 * it keeps until a cycle sets that type, as Volcano's scheduler keeps the
 * conditions its informer saw.
 */
struct vs_pg_condition {
	bool set;
	bool status;			/* ConditionTrue */
	bool given;			/* from a message, not a cycle */
	u32 cap;			/* the size of the buffer text points to */
	/*
	 * A cycle's own: static text. A given one: in text, after the
	 * transitionID. NULL for "".
	 */
	const char *reason;
	/*
	 * Owned: "message\0transitionID\0", and a given one's reason after
	 * them. NULL when all are empty: a cycle's condition without a message
	 * (Scheduled) allocates nothing.
	 */
	char *text;
	u64 transition;			/* the cycle that set it; 0 for a given one */
	u64 time;			/* given lastTransitionTime, s since 1970; 0: none */
};

static inline const char *vs_pg_cond_reason(const struct vs_pg_condition *c)
{
	return c->reason ? c->reason : "";
}

static inline const char *vs_pg_cond_message(const struct vs_pg_condition *c)
{
	return c->text ? c->text : "";
}

/* A given condition's transitionID, "" for a cycle's own (its id is the cycle's number). */
static inline const char *vs_pg_cond_transition_id(const struct vs_pg_condition *c)
{
	return c->text ? c->text + strlen(c->text) + 1 : "";
}

/* A sub-job's AllocatedHyperNode: both interned. */
struct vs_subjob_hn {
	const char *uid;
	const char *hn;
};

struct vs_job {
	const char *ns;			/* interned */
	const char *name;		/* interned */
	u64 seq;
	u64 created;			/* s since 1970 (vs_created_cmp()), 0: unknown */
	struct hlist_node hnode;	/* cluster job index, by ns/name */
	struct list_head list;		/* cluster->jobs, creation order */

	const char *queue_name;		/* interned */
	struct vs_queue *queue;		/* NULL while no queue has that name */
	struct list_head queue_node;	/* queue->jobs, or cluster->orphan_jobs */

	u32 min_member;			/* minMember (MinAvailable) */
	struct vs_role_min *min_task_member;
	u32 nr_min_task_member;
	struct vs_res min_resources;
	bool has_min_resources;
	const char *priority_class;	/* interned, or NULL */
	enum vs_pg_phase phase;
	/*
	 * Volcano's JobInfo.Preemptable with whether the PodGroup says it
	 * (IsJobPreemptableForGangEviction: unset is preemptable).
	 */
	u8 preemptable;			/* enum vs_pg_preemptable */
	struct vs_vjob *vjob;		/* the VolcanoJob that made it, or NULL */
	/* The topology request; a session groups the tasks by @subgroups (sched/subjob.h). */
	struct vs_net_topology net_topology;
	struct vs_subgroup_policy *subgroups;	/* spec.subGroupPolicy, in its order */
	u32 nr_subgroups;

	struct list_head tasks;		/* every task, creation order */
	u32 nr_tasks;
	struct list_head by_status[VS_TASK_NR_STATUS];
	u32 nr_by_status[VS_TASK_NR_STATUS];
	u32 nr_pending_best_effort;
	u32 nr_gated;			/* tasks with scheduling gates (task->gated) */

	struct vs_res total_request;
	struct vs_res allocated;

	struct vs_pg_condition cond[VS_PG_COND_NR];
	/* The status last told to the status group (netlink/writeback.h), 0 when none was. */
	u32 status_digest;
	/*
	 * The scheduler's own: the HyperNode its tasks were placed within
	 * (Volcano's JobInfo.AllocatedHyperNode, kept by its cache from cycle
	 * to cycle and lost on a restart), and that of its default sub-job
	 * (SubJobInfo.AllocatedHyperNode), interned, or NULL.
	 */
	const char *allocated_hn;
	const char *sub_allocated_hn;
	/*
	 * The same of the sub-jobs its subGroupPolicy makes (sched/subjob.h),
	 * by their id, as Volcano's cache keeps them: heap, NULL when none.
	 */
	struct vs_subjob_hn *sub_hns;
	u32 nr_sub_hns;

	/*
	 * In cluster->active_jobs, by seq, while it has a queue and does not
	 * rest (core/rest.h): the jobs a session looks at. RB_EMPTY_NODE()
	 * while it is not.
	 */
	struct rb_node active_node;
	bool resting;
	u32 txn_gen;			/* its sums saved by that transaction (core/txn.h) */

	u32 sidx;			/* index in the open session's jobs, see session.h */
	/*
	 * Moves at every vs_task_place() and vs_task_unplace() of one of its
	 * tasks: what follows where its tasks are (the network-topology-aware
	 * plugin's counts) knows whether it saw every move.
	 */
	u32 place_gen;
	/*
	 * What the last session that scheduled it found (sched/explain.h):
	 * one heap block, or NULL when there was nothing to explain.
	 */
	struct vs_job_why *why;
	/* Last, out of the way of the fields scheduling reads: only listings walk it. */
	struct rb_node byname;		/* cluster->job_names */
	/* Only what prints or sends it reads this: out of the way too. */
	const struct vs_res_dims *dims;	/* its cluster's resource names */
};

/* The sidx of a job the session leaves out (its queue does not exist, or it rests). */
#define VS_SIDX_NONE	((u32)-1)

/* ReadyTaskNum: Bound + Binding + Running + Allocated + Succeeded. */
static inline u32 vs_job_ready_num(const struct vs_job *job)
{
	return job->nr_by_status[VS_TASK_BOUND] + job->nr_by_status[VS_TASK_BINDING] +
	       job->nr_by_status[VS_TASK_RUNNING] + job->nr_by_status[VS_TASK_ALLOCATED] +
	       job->nr_by_status[VS_TASK_SUCCEEDED];
}

/* ScheduledTaskNum: Running, Bound, Failed, Succeeded. */
static inline u32 vs_job_scheduled_num(const struct vs_job *job)
{
	u32 n = 0;

	for (unsigned int s = 0; s < VS_TASK_NR_STATUS; s++)
		if (VS_TASK_SCHEDULED_MASK & VS_TASK_BIT(s))
			n += job->nr_by_status[s];
	return n;
}

/* ReleasingScheduledTaskNum: Releasing tasks that had been placed on a node. */
static inline u32 vs_job_releasing_placed_num(const struct vs_job *job)
{
	const struct vs_task *task;
	u32 n = 0;

	list_for_each_entry(task, &job->by_status[VS_TASK_RELEASING], status_node)
		n += task->node != NULL;
	return n;
}

/* WaitingTaskNum: Pipelined. */
static inline u32 vs_job_waiting_num(const struct vs_job *job)
{
	return job->nr_by_status[VS_TASK_PIPELINED];
}

/* IsReady: enough tasks placed (best-effort pending ones count) for minMember. */
static inline bool vs_job_is_ready(const struct vs_job *job)
{
	return vs_job_ready_num(job) + job->nr_pending_best_effort >= job->min_member;
}

/* IsPipelined: as IsReady, counting pipelined tasks too. */
static inline bool vs_job_is_pipelined(const struct vs_job *job)
{
	return vs_job_waiting_num(job) + vs_job_ready_num(job) +
	       job->nr_pending_best_effort >= job->min_member;
}

/* IsStarving: fewer than minMember tasks placed or pipelined. */
static inline bool vs_job_is_starving(const struct vs_job *job)
{
	return vs_job_waiting_num(job) + vs_job_ready_num(job) < job->min_member;
}

/*
 * Volcano's per-role gang checks (JobInfo.CheckTaskValid, CheckTaskReady,
 * CheckTaskPipelined): every role with a minTaskMember has at least that
 * many tasks counted, where valid counts allocated, succeeded, pipelined and
 * pending tasks; ready counts allocated and succeeded ones and pending tasks
 * that request nothing; pipelined counts those and pipelined ones. When
 * minMember is below the sum of the role minimums the checks pass, as in
 * Volcano.
 */
bool vs_job_check_task_valid(const struct vs_job *job);
bool vs_job_check_task_ready(const struct vs_job *job);
bool vs_job_check_task_pipelined(const struct vs_job *job);

/* ValidTaskNum: allocated, succeeded, pipelined and pending tasks. */
static inline u32 vs_job_valid_task_num(const struct vs_job *job)
{
	u32 n = job->nr_by_status[VS_TASK_SUCCEEDED] + job->nr_by_status[VS_TASK_PIPELINED] +
		job->nr_by_status[VS_TASK_PENDING];

	for (unsigned int s = 0; s < VS_TASK_NR_STATUS; s++)
		if (vs_task_status_allocated((enum vs_task_status)s))
			n += job->nr_by_status[s];
	return n;
}

/*
 * Volcano's GetInqueueResource(job, job.Allocated): what of minResources the
 * job has not been allocated yet, per dimension minResources names (cpu and
 * memory always), counting only what is still missing.
 */
void vs_job_inqueue_resource(const struct vs_job *job, struct vs_res *out);

/*
 * Volcano's DeductSchGatedResources: @r less the requests of the job's
 * gated tasks, never below 0; cpu and memory always, another resource only
 * where @r has it. What a job reserves in its queue for tasks it cannot
 * place yet must not keep other jobs out.
 */
void vs_job_deduct_gated(const struct vs_job *job, struct vs_res *r);

/* CalculateAllocatedTaskNum: tasks in an allocated status. */
static inline u32 vs_job_allocated_task_num(const struct vs_job *job)
{
	u32 n = 0;

	for (unsigned int s = 0; s < VS_TASK_NR_STATUS; s++)
		if (vs_task_status_allocated((enum vs_task_status)s))
			n += job->nr_by_status[s];
	return n;
}

/*
 * Set the job's AllocatedHyperNode, or (@sub) its default sub-job's, to
 * @name (NULL: none); -ENOMEM leaves it.
 */
int vs_job_set_allocated_hn(struct vs_cluster *cl, struct vs_job *job, bool sub,
			    const char *name);

/* The AllocatedHyperNode of the job's sub-job @uid, or NULL. */
const char *vs_job_subjob_hn(const struct vs_job *job, const char *uid);

/* Set it to @name (NULL: none); -ENOMEM leaves it. */
int vs_job_set_subjob_hn(struct vs_cluster *cl, struct vs_job *job, const char *uid,
			 const char *name);

/* The minTaskMember of @role (interned), or 0 when the job sets none for it. */
u32 vs_job_role_min(const struct vs_job *job, const char *role);

/*
 * Both totals taken afresh from the task list, but @skip (may be NULL):
 * for the check, and to count a saturated total again (core/res.h).
 */
void vs_job_sums(const struct vs_job *job, const struct vs_task *skip,
		 struct vs_res *total, struct vs_res *allocated);

/*
 * Check the status index and both totals against the task list; 0, or
 * -EIO with what is wrong.
 */
int vs_job_check(const struct vs_job *job, struct vs_err *err);

/*
 * What @job gives its queue's attributes at session open (core/rest.h):
 * the one computation of them, for the jobs in a session's view and for
 * the resting ones.
 */
void vs_job_contrib(const struct vs_job *job, struct vs_job_contrib *c);

/* ---- the job in the cluster (job.c) ---- */

struct vs_cluster;

struct vs_role_min_spec {
	const char *role;		/* NULL or "" for tasks without a role */
	u32 min;
};

/* A PodGroup condition as a message gives it. */
struct vs_pg_condition_spec {
	enum vs_pg_cond_type type;
	bool status;			/* ConditionTrue */
	const char *reason;		/* NULL: "" */
	const char *message;		/* NULL: "" */
	const char *transition_id;	/* NULL: "" */
	u64 time;			/* lastTransitionTime, s since 1970; 0: none */
};

struct vs_net_topology_spec {
	bool set;			/* else the rest is ignored */
	enum vs_nt_mode mode;
	bool has_highest_tier;
	s32 highest_tier;
	const char *highest_tier_name;	/* NULL or "" for none */
};

struct vs_subgroup_policy_spec {
	const char *name;		/* NULL or "" for none */
	struct vs_net_topology_spec nt;
	u32 sub_group_size;		/* >= 1: a caller gives Volcano's default 1 */
	u32 min_sub_groups;
	const struct vs_label_selector_spec *selector;	/* NULL: none */
	const char *const *match_label_keys;
	u32 nr_match_label_keys;
};

/* The most sub-group policies a PodGroup may have. */
#define VS_SUBGROUPS_MAX	256

/*
 * Refuse what Volcano refuses of a networkTopology: a mode out of range
 * and a negative highestTierAllowed (the CRD's schema), a highestTierName
 * longer than 253 (the CRD's MaxLength), and both tiers set (the webhooks'
 * validateNetworkTopology). @what names it in the message.
 */
int vs_net_topology_check(const struct vs_net_topology_spec *nt, const char *what,
			  struct vs_err *err);

struct vs_arena;

/* A networkTopology as a spec (its strings the core's). */
void vs_net_topology_spec_of(const struct vs_net_topology *nt,
			     struct vs_net_topology_spec *spec);

/*
 * @nr sub-group policies as specs, in @arena (their strings the core's):
 * what makes them again. -ENOMEM, or 0 (*@out NULL for none).
 */
int vs_subgroups_spec_of(const struct vs_subgroup_policy *sg, u32 nr, struct vs_arena *arena,
			 const struct vs_subgroup_policy_spec **out);

struct vs_job_spec {
	const char *ns;
	const char *name;
	const char *queue;		/* NULL or "": the "default" queue */
	u32 min_member;
	const struct vs_role_min_spec *min_task_member;
	u32 nr_min_task_member;
	struct vs_res min_resources;
	bool has_min_resources;
	const char *priority_class;	/* NULL or "" for none */
	enum vs_pg_phase phase;
	enum vs_pg_preemptable preemptable;	/* volcano.sh/preemptable; default unset */
	struct vs_net_topology_spec net_topology;
	const struct vs_subgroup_policy_spec *subgroups;
	u32 nr_subgroups;
	/* status.conditions: taken by vs_job_add() and vs_job_update() */
	const struct vs_pg_condition_spec *cond;
	u32 nr_cond;
	u64 created;			/* see vs_created_cmp(); 0: unknown */
};

/* Volcano's defaults: minMember 1, queue "default", phase Pending. */
void vs_job_spec_init(struct vs_job_spec *spec, const char *ns, const char *name);

int vs_job_add(struct vs_cluster *cl, const struct vs_job_spec *spec,
	       struct vs_job **out, struct vs_err *err);

/* Change the spec; the job moves to another queue if it names one. */
int vs_job_update(struct vs_cluster *cl, struct vs_job *job,
		  const struct vs_job_spec *spec, struct vs_err *err);

/* Set the PodGroup phase, keeping the queue's counts by phase. */
void vs_job_set_phase(struct vs_cluster *cl, struct vs_job *job, enum vs_pg_phase phase);

/*
 * Let @job rest (core/rest.h) if it may: it has a queue, nothing pending,
 * allocated or pipelined, and a phase other than Pending. Its contribution
 * joins its queue's sums, it leaves the active jobs, and its sidx becomes
 * VS_SIDX_NONE. Any change to the job wakes it first. Session close calls
 * it for the jobs in view, after the job updater.
 */
void vs_job_rest(struct vs_cluster *cl, struct vs_job *job);

/* -EBUSY while it has tasks. */
int vs_job_del(struct vs_cluster *cl, struct vs_job *job, struct vs_err *err);

struct vs_job *vs_job_find(const struct vs_cluster *cl, const char *ns, const char *name);

/* ---- PodGroup conditions (condition.c) ---- */

/*
 * Set the PodGroup condition of @type as a cycle's own (replacing the one
 * before, as Volcano keeps one per type). @reason must be static; @message
 * is copied.
 * -ENOMEM leaves the old condition in place.
 */
int vs_job_set_condition(struct vs_job *job, enum vs_pg_cond_type type, bool status,
			 const char *reason, const char *message, u64 transition);

/*
 * Take a condition given by a message (the PodGroup's status as the API
 * server has it): it replaces a given one of its type, never a cycle's own.
 * 0 when taken or left; -ENOMEM leaves the old condition in place.
 */
int vs_job_take_condition(struct vs_job *job, const struct vs_pg_condition_spec *spec);

/* Make @job's condition of @type a copy of @from (set or not): an undo. */
int vs_job_copy_condition(struct vs_job *job, enum vs_pg_cond_type type,
			  const struct vs_pg_condition *from);

/* The size of @c's texts (text's used part), 0 when it has none. */
size_t vs_pg_cond_text_size(const struct vs_pg_condition *c);

/* "Unschedulable", "Scheduled". */
const char *vs_pg_cond_type_name(enum vs_pg_cond_type type);

#endif /* VS_CORE_JOB_H */
