// SPDX-License-Identifier: Apache-2.0
/*
 * The conformance plugin (Volcano's plugins/conformance): preemption and
 * reclaim never evict what Kubernetes treats as the cluster's own
 * machinery, namely pods of the system-cluster-critical and
 * system-node-critical priority classes and every pod in kube-system.
 * Everything else may be a victim; which ones are is for other plugins.
 */
#include <string.h>

#include "plugins/plugins.h"
#include "sched/session.h"

static bool critical(const struct vs_task *t)
{
	/* The names are reserved by Kubernetes (the "system-" prefix). */
	if (t->priority_class && (!strcmp(t->priority_class, "system-cluster-critical") ||
				  !strcmp(t->priority_class, "system-node-critical")))
		return true;
	return !strcmp(t->ns, "kube-system");
}

static enum vs_vote conformance_evictable(struct vs_session *ssn, struct vs_plugin *p,
					  const struct vs_task *evictor,
					  struct vs_task *const *cands, u32 nr, bool *keep)
{
	for (u32 i = 0; i < nr; i++)
		keep[i] = !critical(cands[i]);
	return VS_VOTE_PERMIT;
}

static enum vs_vote conformance_unified_evictable(struct vs_session *ssn, struct vs_plugin *p,
						  const struct vs_evict_ctx *ctx,
						  struct vs_task *const *cands, u32 nr, bool *keep)
{
	return conformance_evictable(ssn, p, NULL, cands, nr, keep);
}

const struct vs_plugin_ops vs_plugin_conformance = {
	.name		= "conformance",
	.preemptable	= conformance_evictable,
	.reclaimable	= conformance_evictable,
	.unified_evictable = conformance_unified_evictable,
};
