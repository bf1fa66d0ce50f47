/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The podgroup controller: Volcano's pkg/controllers/podgroup, in the core.
 *
 * Volcano schedules PodGroups, not pods: a pod submitted without the
 * scheduling.k8s.io/group-name annotation gets a PodGroup of its own,
 * "podgroup-<owner or pod UID>" (generatePodgroupName), with minMember 1,
 * minResources the pod's request, the pod's priority class and its
 * scheduling.volcano.sh/queue-name; the pods of one owner share it. The
 * task's owner UID (VS_TASK_A_OWNER_UID: its controller's UID, else the
 * pod's own) is that key; a task without one is named after itself,
 * "podgroup-<task name>" (a long name keeps its head and ends in a hash of
 * the whole, to stay a DNS subdomain). It goes when its last task goes, as
 * Kubernetes collects objects whose owners are all deleted.
 *
 * A pod of another scheduler on a node gets, instead, the shadow PodGroup
 * Volcano's cache keeps such pods in (createShadowPodGroup): the same name,
 * minMember 1, no queue (so "default"), no minResources, no priority
 * class; it is not admitted into a queue, nobody submitted it.
 */
#ifndef VS_CONTROLLERS_PGCTL_H
#define VS_CONTROLLERS_PGCTL_H

#include "controllers/controllers.h"
#include "core/names.h"

#define VS_PGCTL_PREFIX		"podgroup-"
#define VS_PGCTL_NAME_BUF	(VS_DNS_SUBDOMAIN_MAX + 1)

/* The PodGroup name made from @key (vs_pgctl_key()), into @buf (VS_PGCTL_NAME_BUF). */
void vs_pgctl_name(const char *key, char *buf);

/* What a bare task's PodGroup is named from: its owner UID, else its name. */
static inline const char *vs_pgctl_key(const char *owner_uid, const char *task_name)
{
	return owner_uid && *owner_uid ? owner_uid : task_name;
}

/*
 * Add a task whose spec names no PodGroup: its PodGroup is made (or, if one
 * of that name exists and no VolcanoJob owns it, reused) and the task joins
 * it. A new PodGroup of a pod of this scheduler (@ours) must pass the
 * PodGroup admission (its queue, "default" for NULL or "", exists and is
 * Open); one of another scheduler's pod is the shadow PodGroup, @queue
 * unread. All or nothing: a refused task leaves no PodGroup behind.
 */
int vs_pgctl_task_add(struct vs_ctl *ctl, const struct vs_task_spec *spec, const char *queue,
		      bool ours, struct vs_task **out, struct vs_err *err);

/*
 * A task whose key (vs_pgctl_key()) is @key left @pg: if @pg is the
 * PodGroup this controller names for that key and is empty now, it goes
 * too.
 */
void vs_pgctl_task_gone(struct vs_ctl *ctl, struct vs_job *pg, const char *key);

#endif /* VS_CONTROLLERS_PGCTL_H */
