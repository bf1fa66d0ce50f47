// SPDX-License-Identifier: Apache-2.0
/*
 * A pod on its way in: its scheduler and its priority admission (admit.h).
 *
 * Kubernetes' priority admission resolves a pod's priority once, at
 * creation, and stores it in the pod: every pod the API server holds has a
 * priority. A client that mirrors those pods (vskube, a checkpoint) gives it;
 * a client that creates pods (a manifest applied, a task added by hand) asks
 * for the admission with VS_TASK_A_ADMIT (Documentation/protocol.md).
 */
#include <string.h>

#include "controllers/admit.h"
#include "core/names.h"
#include "core/prioclass.h"

static bool empty(const char *s)
{
	return !s || !*s;
}

const char *vs_ctl_scheduler(const struct vs_ctl *ctl)
{
	return empty(ctl->scheduler) ? VS_DEFAULT_SCHEDULER : ctl->scheduler;
}

static int admit_scheduler(struct vs_ctl *ctl, const struct vs_task_spec *spec,
			   const char *name, bool *ours, struct vs_err *err)
{
	int ret;

	*ours = empty(name) || !strcmp(name, vs_ctl_scheduler(ctl));
	if (*ours)
		return 0;
	ret = vs_check_dns_subdomain(name, strlen(name), "scheduler name", err);
	if (ret)
		return ret;
	/* Volcano's cache leaves it to its scheduler until it is on a node */
	if (empty(spec->node))
		return vs_err_set(err, EINVAL, "a pod of scheduler \"%s\" (this one is \"%s\") "
				  "is on no node: its own scheduler places it", name,
				  vs_ctl_scheduler(ctl));
	return 0;
}

/* Kubernetes' priority admission, for a pod being created. */
static int admit_priority(struct vs_ctl *ctl, struct vs_task_spec *spec,
			  const struct vs_ctl_pod *pod, struct vs_err *err)
{
	const struct vs_prioclass *pc;

	if (!empty(spec->priority_class)) {
		pc = vs_prioclass_find(ctl->cl, spec->priority_class);
		if (!pc)
			return vs_err_set(err, ENOENT, "no PriorityClass \"%s\"",
					  spec->priority_class);
	} else {
		pc = vs_prioclass_default(ctl->cl);
		spec->priority_class = pc ? pc->name : NULL;
	}
	if (!pod->has_priority)
		spec->priority = pc ? pc->value : 0;
	if (!pod->has_policy)
		spec->preemption_policy = pc ? pc->preemption_policy : VS_PREEMPT_LOWER_PRIORITY;
	return 0;
}

int vs_admit_pod(struct vs_ctl *ctl, struct vs_task_spec *spec, const struct vs_ctl_pod *pod,
		 bool *ours, struct vs_err *err)
{
	int ret = admit_scheduler(ctl, spec, pod ? pod->scheduler : NULL, ours, err);

	if (!ret && pod && pod->admit)
		ret = admit_priority(ctl, spec, pod, err);
	if (ret)
		vs_err_prefix(err, "pod %s/%s: ", spec->ns ? spec->ns : "",
			      spec->name ? spec->name : "");
	return ret;
}
