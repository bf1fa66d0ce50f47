// SPDX-License-Identifier: Apache-2.0
/*
 * What the controllers share: the context and its hooks, and the entry
 * points for events that more than one controller handles (a task added,
 * changed or deleted; a PodGroup deleted; a cycle ended).
 */
#include <stdio.h>
#include <string.h>

#include "controllers/admit.h"
#include "controllers/jobctl.h"
#include "controllers/pgctl.h"
#include "controllers/qctl.h"
#include "core/hypernode.h"
#include "core/log.h"
#include "core/names.h"

void vs_ctl_init(struct vs_ctl *ctl, struct vs_cluster *cl,
		 const struct vs_ctl_hooks *hooks, void *hook_ctx)
{
	ctl->cl = cl;
	ctl->hooks = hooks;
	ctl->hook_ctx = hook_ctx;
	ctl->scheduler = NULL;
}

#define HOOK(ctl, fn, ...) do {						\
	if ((ctl)->hooks && (ctl)->hooks->fn)				\
		(ctl)->hooks->fn((ctl)->hook_ctx, __VA_ARGS__);		\
} while (0)

void vs_ctl_task_added(struct vs_ctl *ctl, struct vs_task *task)
{
	HOOK(ctl, task_added, task);
}

void vs_ctl_task_remove(struct vs_ctl *ctl, struct vs_task *task)
{
	HOOK(ctl, task_removing, task);
	vs_task_del(ctl->cl, task);
}

void vs_ctl_podgroup_added(struct vs_ctl *ctl, struct vs_job *pg)
{
	HOOK(ctl, podgroup_added, pg);
}

void vs_ctl_podgroup_remove(struct vs_ctl *ctl, struct vs_job *pg)
{
	struct vs_queue *queue = pg->queue;
	struct vs_err e = { { 0 } };

	HOOK(ctl, podgroup_removing, pg);
	if (vs_job_del(ctl->cl, pg, &e)) {
		/* the controllers empty a PodGroup before they remove it */
		vs_error("%s", e.msg);
		return;
	}
	/* the queue controller's deletePodGroup handler: a Closing queue may close */
	if (queue && vs_qctl_sync(ctl, queue, &e))
		vs_v(2, "%s", e.msg);
}

void vs_ctl_vjob_changed(struct vs_ctl *ctl, struct vs_vjob *vjob, enum vs_vjob_phase old)
{
	HOOK(ctl, vjob_changed, vjob, old);
}

void vs_ctl_queue_changed(struct vs_ctl *ctl, struct vs_queue *queue, enum vs_queue_state old)
{
	HOOK(ctl, queue_changed, queue, old);
}

void vs_ctl_hypernode_added(struct vs_ctl *ctl, struct vs_hypernode *hn)
{
	HOOK(ctl, hypernode_added, hn);
}

void vs_ctl_hypernode_changed(struct vs_ctl *ctl, struct vs_hypernode *hn)
{
	HOOK(ctl, hypernode_changed, hn);
}

void vs_ctl_hypernode_remove(struct vs_ctl *ctl, struct vs_hypernode *hn)
{
	HOOK(ctl, hypernode_removing, hn);
	vs_hypernode_del(ctl->cl, hn);
}

static bool empty(const char *s)
{
	return !s || !*s;
}

int vs_ctl_task_add(struct vs_ctl *ctl, const struct vs_task_spec *spec,
		    const struct vs_ctl_pod *pod, struct vs_task **out, struct vs_err *err)
{
	struct vs_task_spec ts = *spec;
	struct vs_job *pg;
	bool ours;
	int ret;

	ret = vs_admit_pod(ctl, &ts, pod, &ours, err);
	if (ret)
		return ret;
	spec = &ts;
	if (empty(spec->job))
		return vs_pgctl_task_add(ctl, spec, pod ? pod->queue : NULL, ours, out, err);
	pg = vs_job_find(ctl->cl, spec->ns, spec->job);
	if (pg && pg->vjob)
		return vs_err_set(err, EPERM, "pod %s/%s: podgroup %s belongs to job %s/%s, "
				  "whose tasks the job controller makes", spec->ns,
				  spec->name ? spec->name : "", pg->name, pg->vjob->ns,
				  pg->vjob->name);
	return vs_task_add(ctl->cl, spec, out, err);
}

int vs_ctl_task_updated(struct vs_ctl *ctl, struct vs_task *task, enum vs_task_status old,
			s32 exit_code, struct vs_err *err)
{
	return vs_jobctl_task_updated(ctl, task, old, exit_code, err);
}

int vs_ctl_task_del(struct vs_ctl *ctl, struct vs_task *task, struct vs_err *err)
{
	/* copies: the task's strings may go with it */
	char name[VS_DNS_SUBDOMAIN_MAX + 1], role[VS_LABEL_NAME_MAX + 1];
	char key[VS_DNS_SUBDOMAIN_MAX + 1];
	struct vs_job *pg = task->job;
	struct vs_vjob *vjob = pg->vjob;

	snprintf(name, sizeof(name), "%s", task->name);
	snprintf(role, sizeof(role), "%s", task->role);
	snprintf(key, sizeof(key), "%s", vs_pgctl_key(task->owner_uid, task->name));
	vs_task_del(ctl->cl, task);
	if (vjob)
		return vs_jobctl_task_deleted(ctl, vjob, role, name, err);
	vs_pgctl_task_gone(ctl, pg, key);
	return 0;
}

int vs_ctl_podgroup_del(struct vs_ctl *ctl, struct vs_job *pg, struct vs_err *err)
{
	struct vs_queue *queue = pg->queue;
	int ret = vs_job_del(ctl->cl, pg, err);

	if (!ret && queue)
		ret = vs_qctl_sync(ctl, queue, err);
	return ret;
}

int vs_ctl_after_cycle(struct vs_ctl *ctl, struct vs_err *err)
{
	int ret = vs_jobctl_sync_all(ctl, err);
	int qret = vs_qctl_sync_all(ctl, ret ? NULL : err);

	return ret ? ret : qret;
}
