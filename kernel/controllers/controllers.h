/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The controllers: Volcano's vc-controller-manager, in the core.
 *
 * Three controllers keep the objects a user submits consistent with what the
 * scheduler needs, as in Volcano (seed 003):
 *
 *   the job controller (jobctl.h)      a VolcanoJob becomes a PodGroup and
 *                                      tasks; its phase follows their events
 *   the podgroup controller (pgctl.h)  a task without a PodGroup gets one
 *   the queue controller (qctl.h)      Open / Closing / Closed, and what a
 *                                      queue admits
 *
 * and, before them, what a pod meets on its way in (admit.h): the API
 * server's priority admission, and whether this scheduler or another
 * places it.
 *
 * Volcano runs them as informers feeding work queues drained by goroutines.
 * Here they are plain functions, synchronous and single-threaded like the
 * rest of the core: the daemon calls them when something happened (an
 * object was created, a task changed status or went away, a cycle ended, a
 * user issued a command) and each call runs to completion, changing the
 * cluster through the core's own functions, so vs_cluster_check() holds
 * after every call. This file holds what they share: the context with the
 * daemon's hooks, and the entry points that concern more than one
 * controller. Documentation/controllers.md says when to call what.
 */
#ifndef VS_CONTROLLERS_CONTROLLERS_H
#define VS_CONTROLLERS_CONTROLLERS_H

#include "core/cluster.h"

/*
 * Told about what the controllers did on their own initiative: the tasks and
 * PodGroups they made or removed, the VolcanoJobs and queues whose state
 * they changed, the HyperNodes label discovery made, changed or deleted
 * (for the daemon's events multicast group). Every member may be NULL. "removing" hooks run before the object is freed.
 */
struct vs_ctl_hooks {
	void (*task_added)(void *ctx, struct vs_task *task);
	void (*task_removing)(void *ctx, struct vs_task *task);
	void (*podgroup_added)(void *ctx, struct vs_job *pg);
	void (*podgroup_removing)(void *ctx, struct vs_job *pg);
	void (*vjob_changed)(void *ctx, struct vs_vjob *vjob, enum vs_vjob_phase old);
	void (*queue_changed)(void *ctx, struct vs_queue *queue, enum vs_queue_state old);
	/* label discovery's HyperNodes (hnctl.h): made, changed, about to be deleted */
	void (*hypernode_added)(void *ctx, struct vs_hypernode *hn);
	void (*hypernode_changed)(void *ctx, struct vs_hypernode *hn);
	void (*hypernode_removing)(void *ctx, struct vs_hypernode *hn);
};

/* Volcano's scheduler name, the default of vschedd --scheduler-name. */
#define VS_DEFAULT_SCHEDULER	"volcano"

struct vs_ctl {
	struct vs_cluster *cl;
	const struct vs_ctl_hooks *hooks;	/* NULL: nobody listens */
	void *hook_ctx;
	/* The pods this scheduler places (spec.schedulerName); NULL: VS_DEFAULT_SCHEDULER. */
	const char *scheduler;
};

/*
 * What a pod's request says beyond the task's spec: read when it arrives,
 * not kept. A NULL struct vs_ctl_pod is a pod of this scheduler, not
 * admitted, without a queue annotation.
 */
struct vs_ctl_pod {
	const char *queue;	/* scheduling.volcano.sh/queue-name; NULL or "": none */
	const char *scheduler;	/* spec.schedulerName; NULL or "": this scheduler */
	/*
	 * Run Kubernetes' priority admission (admit.h); has_priority and
	 * has_policy say the spec's priority and preemption policy were
	 * given, and are then kept.
	 */
	bool admit, has_priority, has_policy;
};

void vs_ctl_init(struct vs_ctl *ctl, struct vs_cluster *cl,
		 const struct vs_ctl_hooks *hooks, void *hook_ctx);

/*
 * A task submitted by a client, with what its request says of the pod
 * (@pod, NULL for nothing). First the pod's admission (admit.h): its
 * scheduler, its priority if asked. A spec that names no PodGroup then gets
 * one from the podgroup controller (in @pod->queue; the shadow PodGroup for
 * a pod of another scheduler). A spec that names the PodGroup of a
 * VolcanoJob is refused: only the job controller adds tasks to it.
 * Otherwise this is vs_task_add(). All or nothing.
 */
int vs_ctl_task_add(struct vs_ctl *ctl, const struct vs_task_spec *spec,
		    const struct vs_ctl_pod *pod, struct vs_task **out, struct vs_err *err);

/*
 * The outside world changed @task's status (it is already changed in the
 * core); @old is the status before, @exit_code the container's exit code
 * when it failed. Drives the job controller's event handling.
 */
int vs_ctl_task_updated(struct vs_ctl *ctl, struct vs_task *task, enum vs_task_status old,
			s32 exit_code, struct vs_err *err);

/*
 * The outside world deleted @task: remove it from the core (its node
 * resources are released), let the job controller handle the PodEvicted
 * event, collect a PodGroup the podgroup controller made for it, and let
 * the queue controller see the PodGroup go. @task is freed on return.
 */
int vs_ctl_task_del(struct vs_ctl *ctl, struct vs_task *task, struct vs_err *err);

/*
 * A client deletes a PodGroup: refused while it has tasks (-EBUSY), as
 * vs_job_del() is; its queue may close then. A VolcanoJob's PodGroup is
 * made again by the job controller on its next sync.
 */
int vs_ctl_podgroup_del(struct vs_ctl *ctl, struct vs_job *pg, struct vs_err *err);

/*
 * After each scheduling cycle, whose session close moved PodGroup phases
 * (Pending -> Inqueue -> Running -> Completed): sync every VolcanoJob that
 * has work to do (tasks to make, a phase to follow) and every queue (a
 * Closing queue whose PodGroups are gone becomes Closed). Returns the first
 * error and goes on with the other objects.
 */
int vs_ctl_after_cycle(struct vs_ctl *ctl, struct vs_err *err);

/* ---- for the controllers ---- */

void vs_ctl_task_added(struct vs_ctl *ctl, struct vs_task *task);
/* The hook, then vs_task_del(). */
void vs_ctl_task_remove(struct vs_ctl *ctl, struct vs_task *task);
void vs_ctl_podgroup_added(struct vs_ctl *ctl, struct vs_job *pg);
/* The hook, then vs_job_del() of a PodGroup without tasks; its queue is synced. */
void vs_ctl_podgroup_remove(struct vs_ctl *ctl, struct vs_job *pg);
void vs_ctl_vjob_changed(struct vs_ctl *ctl, struct vs_vjob *vjob, enum vs_vjob_phase old);
void vs_ctl_queue_changed(struct vs_ctl *ctl, struct vs_queue *queue, enum vs_queue_state old);
void vs_ctl_hypernode_added(struct vs_ctl *ctl, struct vs_hypernode *hn);
void vs_ctl_hypernode_changed(struct vs_ctl *ctl, struct vs_hypernode *hn);
/* The hook, then vs_hypernode_del(). */
void vs_ctl_hypernode_remove(struct vs_ctl *ctl, struct vs_hypernode *hn);

#endif /* VS_CONTROLLERS_CONTROLLERS_H */
