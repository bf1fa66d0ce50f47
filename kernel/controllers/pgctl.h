/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The podgroup controller: Volcano's pkg/controllers/podgroup, in the core.
 *
 * Volcano schedules PodGroups, not pods: a pod submitted without the
 * scheduling.k8s.io/group-name annotation gets a PodGroup of its own,
 * "podgroup-<owner or pod UID>", with minMember 1, minResources the pod's
 * request, the pod's priority class and its scheduling.volcano.sh/queue-name.
 * vsched has no UIDs and tasks have no owners, so the PodGroup is named
 * after the task: "podgroup-<task name>" (a long name keeps its head and
 * ends in a hash of the whole, to stay a DNS subdomain). It goes when its
 * task goes, as Kubernetes collects objects whose owner is deleted.
 */
#ifndef VS_CONTROLLERS_PGCTL_H
#define VS_CONTROLLERS_PGCTL_H

#include "controllers/controllers.h"
#include "core/names.h"

#define VS_PGCTL_PREFIX		"podgroup-"
#define VS_PGCTL_NAME_BUF	(VS_DNS_SUBDOMAIN_MAX + 1)

/* The PodGroup name of the bare task @task_name, into @buf (VS_PGCTL_NAME_BUF). */
void vs_pgctl_name(const char *task_name, char *buf);

/*
 * Add a task whose spec names no PodGroup: its PodGroup is made (or, if one
 * of that name exists and no VolcanoJob owns it, reused) and the task joins
 * it. A new PodGroup must pass the PodGroup admission (its queue, "default"
 * for NULL or "", exists and is Open). All or nothing: a refused task leaves
 * no PodGroup behind.
 */
int vs_pgctl_task_add(struct vs_ctl *ctl, const struct vs_task_spec *spec, const char *queue,
		      struct vs_task **out, struct vs_err *err);

/*
 * A task named @task_name left @pg: if @pg is the PodGroup this controller
 * names for it and is empty now, it goes too.
 */
void vs_pgctl_task_gone(struct vs_ctl *ctl, struct vs_job *pg, const char *task_name);

#endif /* VS_CONTROLLERS_PGCTL_H */
