/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The job controller: Volcano's pkg/controllers/job, in the core.
 *
 * A VolcanoJob (struct vs_vjob) gets a PodGroup named like the job, with
 * minMember = minAvailable, a minTaskMember per task, minResources computed
 * from the tasks' requests as Volcano's calcPGMinResources does, the job's
 * queue and priority class; and, once the scheduler has admitted that
 * PodGroup (it left Pending), one task per replica named
 * <job>-<task>-<index>, whose role is the task's name (volcano.sh/task-spec).
 *
 * Its phase follows Volcano's state machine (pkg/controllers/job/state): a
 * request (an event with an optional action) is turned into an action by the
 * lifecycle policies, and the pair (phase, action) chooses one of three
 * operations, each with a function that may move the phase:
 *
 *   SyncJob     make the PodGroup and the missing tasks, count the tasks
 *   KillJob     remove the tasks (but finished ones when asked to keep them)
 *               and the PodGroup
 *   KillTarget  remove the tasks of one task group, or one task
 *
 * Killing is immediate in vsched: a killed task leaves the core at once and
 * its node resources are released, and it counts as Terminating in the
 * status that kill writes, as a pod Volcano deleted does until it is gone.
 */
#ifndef VS_CONTROLLERS_JOBCTL_H
#define VS_CONTROLLERS_JOBCTL_H

#include "controllers/controllers.h"

/*
 * What Volcano's admission webhook checks beyond vs_vjob_add(): the job name
 * and every task name it will make are qualified names (at most 63
 * characters), and the queue exists, is Open, is not "root" and has no
 * child queues. Call before vs_vjob_add() (VJOB NEW); 0 or a negative errno
 * with the reasons in @err.
 */
int vs_jobctl_admit(struct vs_ctl *ctl, const struct vs_vjob_spec *spec, struct vs_err *err);

/*
 * One SyncJob request (Volcano's OutOfSync event): call after VJOB NEW, and
 * whenever the job's objects may have moved. Makes or updates the PodGroup,
 * makes the missing tasks once the PodGroup left Pending, counts the tasks
 * and moves the phase by the table. -ENOENT when the queue does not exist,
 * -EPERM when the PodGroup must be made but the queue is not Open.
 */
int vs_jobctl_sync(struct vs_ctl *ctl, struct vs_vjob *vjob, struct vs_err *err);

/* vs_jobctl_sync() of every VolcanoJob with something to do; the first error. */
int vs_jobctl_sync_all(struct vs_ctl *ctl, struct vs_err *err);

/*
 * A task of a VolcanoJob changed status (already applied in the core; @old is
 * the status before). The change becomes Volcano's event (PodFailed with
 * @exit_code, TaskCompleted, PodRunning, PodPending, or OutOfSync), the
 * policies choose the action, and the state machine runs it. A task that is
 * not a VolcanoJob's is ignored (0).
 */
int vs_jobctl_task_updated(struct vs_ctl *ctl, struct vs_task *task, enum vs_task_status old,
			   s32 exit_code, struct vs_err *err);

/*
 * The outside world deleted a task of @vjob whose role was @role and name
 * @name (already gone from the core): the PodEvicted event.
 */
int vs_jobctl_task_deleted(struct vs_ctl *ctl, struct vs_vjob *vjob, const char *role,
			   const char *name, struct vs_err *err);

/*
 * A command (Volcano's bus Command): AbortJob, RestartJob, RestartTask (with
 * @task), RestartPod (with @task and @pod), TerminateJob, CompleteJob,
 * ResumeJob, and SyncJob and EnqueueJob. The queue actions are refused, as
 * is a target the action does not take or that the job does not have.
 */
int vs_jobctl_command(struct vs_ctl *ctl, struct vs_vjob *vjob, enum vs_vjob_action action,
		      const char *task, const char *pod, struct vs_err *err);

/*
 * The VolcanoJob is deleted: its tasks and PodGroup go with it (Kubernetes'
 * garbage collection of owned objects), then the job. @vjob is freed.
 */
void vs_jobctl_delete(struct vs_ctl *ctl, struct vs_vjob *vjob);

/*
 * Volcano's calcPGMinResources: the resources of the first minAvailable
 * tasks (each replica counts its request and one pod). @prio, if not NULL,
 * gives each task group's priority (higher first; equal ones keep spec
 * order); vsched task templates carry no priority class, so the controller
 * passes NULL.
 */
void vs_jobctl_min_resources(const struct vs_vjob *vjob, const s32 *prio, struct vs_res *out);

/* The PodGroup a VolcanoJob owns is named like the job. */
/*
 * A checkpoint's VolcanoJob: @vjob, just made from its spec without the
 * controllers, takes the state @st: its phase, retries and status, the
 * finished replicas a kill kept, and (st->podgroup) the PodGroup of its
 * name, which must be there, restored before it, and no other job's.
 * Checks everything before changing anything: 0, or a negative errno with
 * the reason in @err and @vjob as it was.
 */
int vs_jobctl_restore(struct vs_cluster *cl, struct vs_vjob *vjob, const struct vs_vjob_state *st,
		      struct vs_err *err);

static inline const char *vs_jobctl_podgroup_name(const struct vs_vjob *vjob)
{
	return vjob->name;
}

#endif /* VS_CONTROLLERS_JOBCTL_H */
