/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a pod meets before the controllers see it: Kubernetes' priority
 * admission (plugin/pkg/admission/priority), which the API server runs once,
 * when the pod is created, and the scheduler name that says whether this
 * scheduler places the pod or only accounts for it (Volcano's cache keeps a
 * pod of another scheduler that is on a node, in a shadow PodGroup, and
 * leaves a pending one to its scheduler).
 */
#ifndef VS_CONTROLLERS_ADMIT_H
#define VS_CONTROLLERS_ADMIT_H

#include "controllers/controllers.h"

/* The scheduler whose pods @ctl places. */
const char *vs_ctl_scheduler(const struct vs_ctl *ctl);

/*
 * Admit the pod of @spec (its copy, changed in place) with what @pod says
 * of it (NULL: nothing): its scheduler name must be a DNS subdomain, and a
 * pod of another scheduler must be on a node (-EINVAL otherwise); *@ours
 * says which. With @pod->admit, the priority admission: the class @spec
 * names (-ENOENT when the cluster has no such PriorityClass), else the
 * global default class, whose name @spec takes, gives the priority and the
 * preemption policy that @pod does not say were given; with neither,
 * priority 0 and PreemptLowerPriority. @spec's strings stay the caller's or
 * the cluster's.
 */
int vs_admit_pod(struct vs_ctl *ctl, struct vs_task_spec *spec, const struct vs_ctl_pod *pod,
		 bool *ours, struct vs_err *err);

#endif /* VS_CONTROLLERS_ADMIT_H */
