/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A session's sub-jobs: the tasks of a PodGroup with a subGroupPolicy
 * split into the groups Volcano schedules one by one (its
 * api/sub_job_info.go, JobInfo.getOrCreateSubJob).
 *
 * A task belongs to the first policy whose labelSelector (absent: every
 * pod) selects it and whose matchLabelKeys all have a non-empty value in
 * its labels; those values name its sub-job. A policy without
 * matchLabelKeys takes no task. A task no policy takes is in the job's
 * default sub-job. A sub-job of a policy needs subGroupSize of its tasks
 * placed to be ready and is placed within the policy's networkTopology;
 * the default sub-job needs one and is placed within the job's.
 *
 * Volcano's cache keeps the sub-jobs of a job and its snapshot clones
 * them from the tasks, so that a session's sub-jobs are those its tasks
 * make; here they are made when the session opens, for the jobs with a
 * subGroupPolicy alone (a job without one is its own default sub-job and
 * costs nothing), in the session's arena. What a sub-job counts is read
 * from its tasks as they are, so that a Statement's placements count.
 */
#ifndef VS_SCHED_SUBJOB_H
#define VS_SCHED_SUBJOB_H

#include "core/cluster.h"

#define VS_SUBJOB_DEFAULT	((u32)-1)

struct vs_session;

struct vs_subjob {
	struct vs_job *job;
	/*
	 * Volcano's SubJobID: "ns/name" for the default sub-job, else
	 * "ns/name/policy-v1-v2..." (the values joined by "-"; over 128
	 * bytes, their FNV-1a hash spelled as Kubernetes' SafeEncodeString
	 * spells it). Sub-jobs that compare equal otherwise go in its order.
	 */
	const char *uid;
	u32 policy;			/* index in job->subgroups, or VS_SUBJOB_DEFAULT */
	const char **values;		/* the matchLabelKeys' values, interned */
	u32 nr_values;
	u32 min_available;		/* MinAvailable */
	s32 priority;			/* its tasks' highest priority, 0 at least */
	s64 match_index;		/* the first value as a number, else 0 */
	const struct vs_net_topology *nt;	/* NULL: none */
	struct vs_task **tasks;		/* creation order */
	u32 nr_tasks;
};

/* A job's sub-jobs, the default one (if any task is in it) last. */
struct vs_subjobs {
	struct vs_subjob *sj;
	u32 nr;
};

/*
 * Make the sub-jobs of the session's jobs with a subGroupPolicy, when the
 * session opens (its views made). -ENOMEM.
 */
int vs_subjobs_build(struct vs_session *ssn);

/* @job's sub-jobs, or NULL when it has no subGroupPolicy. */
const struct vs_subjobs *vs_subjobs_of(const struct vs_session *ssn, const struct vs_job *job);

/* The sub-job of @task, or NULL when its job has no subGroupPolicy. */
struct vs_subjob *vs_subjob_of(const struct vs_session *ssn, const struct vs_task *task);

/*
 * Call @fn on each task of @sj, or of @job when @sj is NULL (a job without
 * subGroupPolicy is its only sub-job), in creation order, while it returns
 * true; false when it stopped.
 */
bool vs_subjob_each_task(const struct vs_job *job, const struct vs_subjob *sj,
			 bool (*fn)(const struct vs_task *task, void *arg), void *arg);

/* ReadyTaskNum: Bound, Binding, Running, Allocated and Succeeded tasks. */
u32 vs_subjob_ready_num(const struct vs_subjob *sj);
/* WaitingTaskNum: Pipelined tasks. */
u32 vs_subjob_waiting_num(const struct vs_subjob *sj);
/* AllocatedTaskNum: tasks in an allocated status. */
u32 vs_subjob_allocated_num(const struct vs_subjob *sj);
/* IsReady: ready tasks and pending best-effort ones reach MinAvailable. */
bool vs_subjob_is_ready(const struct vs_subjob *sj);
/* IsPipelined: as IsReady, pipelined tasks counted too. */
bool vs_subjob_is_pipelined(const struct vs_subjob *sj);

/*
 * Volcano keys minSubGroups by policy name (SubJobGID): the group of
 * policy @policy is the first policy of its name, and its minimum the
 * last one's minSubGroups.
 */
u32 vs_subjob_group(const struct vs_job *job, u32 policy);
u32 vs_subjob_group_min(const struct vs_job *job, u32 group);

struct vs_arena;
/*
 * The sub-jobs of @job (with a subGroupPolicy) to place first, as
 * Volcano's organizeJobWorksheet and organizeEvictionWorksheet choose
 * them: of those not ready (SubJobReady), in sub-job order, the fewest
 * that bring each group to its minSubGroups with its ready ones.
 * required[i] for the job's i-th sub-job; scratch from @arena. -ENOMEM.
 */
int vs_subjobs_required(struct vs_session *ssn, struct vs_arena *arena,
			const struct vs_job *job, bool *required);

/*
 * Volcano's CheckSubJobValid, CheckSubJobReady and CheckSubJobPipelined:
 * each policy name with a minSubGroups has that many sub-jobs (valid), or
 * that many ready (pipelined) ones. True for a job without a
 * subGroupPolicy.
 */
bool vs_job_check_subjob_valid(const struct vs_session *ssn, const struct vs_job *job);
bool vs_job_check_subjob_ready(const struct vs_session *ssn, const struct vs_job *job);
bool vs_job_check_subjob_pipelined(const struct vs_session *ssn, const struct vs_job *job);

#endif /* VS_SCHED_SUBJOB_H */
