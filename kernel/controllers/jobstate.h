/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Inside the job controller: the state table (jobstate.c), the operations it
 * picks (jobctl.c) and the lifecycle policies (jobpolicy.c). Not for the
 * daemon: it calls jobctl.h.
 */
#ifndef VS_CONTROLLERS_JOBSTATE_H
#define VS_CONTROLLERS_JOBSTATE_H

#include "controllers/jobctl.h"

/* What a (phase, action) pair runs: Volcano's SyncJob, KillJob, KillTarget. */
enum vs_jc_op {
	VS_JC_SYNC,
	VS_JC_KILL,
	VS_JC_KILL_TARGET,
};

/*
 * Volcano's UpdateStatusFn closures, by what they do to the status the
 * operation computed.
 */
enum vs_jc_update {
	VS_JC_UPD_NONE,		/* nil: the phase stays */
	VS_JC_UPD_PENDING,	/* Running once minAvailable tasks run or finished */
	VS_JC_UPD_RUNNING,	/* Completed or Failed when all finished; back to Pending */
	VS_JC_UPD_RESTARTING,	/* Failed past maxRetry; Pending when enough are not terminating */
	VS_JC_UPD_RESTART,	/* -> Restarting, one more retry */
	VS_JC_UPD_ABORT,	/* -> Aborting */
	VS_JC_UPD_COMPLETE,	/* -> Completing */
	VS_JC_UPD_TERMINATE,	/* -> Terminating */
	VS_JC_UPD_ABORTING,	/* -> Aborted when nothing is alive */
	VS_JC_UPD_COMPLETING,	/* -> Completed when nothing is alive */
	VS_JC_UPD_TERMINATING,	/* -> Terminated when nothing is alive */
};

struct vs_jc_step {
	enum vs_jc_op op;
	bool keep_finished;	/* KillJob: PodRetainPhaseSoft, else PodRetainPhaseNone */
	enum vs_jc_update update;
};

/* The state table: what @action does to a job in @phase. */
void vs_jc_step_of(enum vs_vjob_phase phase, enum vs_vjob_action action, struct vs_jc_step *step);

/* A status being computed: the job's phase, retry count and counters. */
struct vs_jc_status {
	enum vs_vjob_phase phase;
	u32 retry_count;
	struct vs_vjob_status s;
};

/* Run @update on @st; true when it moved the phase. */
bool vs_jc_update_status(const struct vs_vjob *vjob, enum vs_jc_update update,
			 struct vs_jc_status *st);

/* The target of KillTarget: a task group, and optionally one of its tasks. */
struct vs_jc_target {
	struct vs_vjob_task *vt;	/* NULL: no such task group, nothing is killed */
	const char *pod;		/* NULL: every task of the group */
};

/* Run @action on @vjob by the table; @target is for RestartTask and RestartPod. */
int vs_jc_execute(struct vs_ctl *ctl, struct vs_vjob *vjob, enum vs_vjob_action action,
		  const struct vs_jc_target *target, struct vs_err *err);

/* The operations of jobctl.c that the table calls. */
int vs_jc_sync(struct vs_ctl *ctl, struct vs_vjob *vjob, enum vs_jc_update update,
	       struct vs_err *err);
void vs_jc_kill(struct vs_ctl *ctl, struct vs_vjob *vjob, bool keep_finished,
		const struct vs_jc_target *target, enum vs_jc_update update);

/*
 * Volcano's TaskStatusCount[task].Phase[Succeeded], read where the Running
 * function needs it: how many tasks of @vt succeeded; *@seen is false when
 * the job holds no task of that group that is not terminating.
 */
u32 vs_jc_task_succeeded(const struct vs_vjob *vjob, const struct vs_vjob_task *vt, bool *seen);

/* The sum of the task groups' replicas (Volcano's TotalTasks). */
u32 vs_jc_total_replicas(const struct vs_vjob *vjob);

/*
 * The two halves of calcPGMinResources, into @out: the first @count replicas
 * in group order (CalcFirstCountResources, for a minAvailable below the
 * groups' sum), and each group's minAvailable then spare replicas up to
 * @count (CalcPGMinResources). Groups go by @prio, higher first.
 */
void vs_jc_calc_first_count(const struct vs_vjob *vjob, const s32 *prio, u32 count,
			    struct vs_res *out);
void vs_jc_calc_pg_min(const struct vs_vjob *vjob, const s32 *prio, u32 count, struct vs_res *out);

/*
 * applyPolicies: the action for @event on a task of @vt (NULL for a job
 * event), with the exit code of a failed container. Task policies first,
 * then the job's; SyncJob when none matches or the event is internal.
 */
enum vs_vjob_action vs_jc_policy_action(const struct vs_vjob *vjob, const struct vs_vjob_task *vt,
					enum vs_vjob_event event, s32 exit_code);

#endif /* VS_CONTROLLERS_JOBSTATE_H */
