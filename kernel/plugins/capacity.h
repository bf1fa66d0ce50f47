/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the capacity plugin computed for a queue in the open session, for
 * tests and for tools that explain a queue. Read-only: the plugin owns the
 * state, and its event handlers keep @allocated and @share current.
 */
#ifndef VS_PLUGINS_CAPACITY_H
#define VS_PLUGINS_CAPACITY_H

#include "core/fres.h"
#include "sched/framework.h"

/* Volcano's queueAttr in plugins/capacity. */
struct vs_capacity_queue {
	struct vs_fres deserved;	/* spec, within realCapability, at least guarantee */
	struct vs_fres allocated;
	struct vs_fres request;
	struct vs_fres elastic;		/* sum over jobs of allocated beyond minResources */
	struct vs_fres inqueue;		/* admitted jobs' minResources not allocated yet */
	struct vs_fres capability;	/* spec; cpu or memory left out is unlimited */
	struct vs_fres real_capability;	/* what it may hold at most */
	struct vs_fres guarantee;
	double share;			/* 1 for a queue that deserves nothing */
	bool active;			/* has attributes in Volcano's session */

	/* enableHierarchy only */
	const u32 *ancestors;		/* their sidx, root first, the parent last */
	u32 nr_ancestors;
	u32 nr_children;		/* 0: a leaf, the only kind that holds jobs */
};

/*
 * The attributes of @queue in the session of @p (the capacity plugin's
 * instance), or NULL when Volcano would have none for it (flat queues: no
 * job in the session).
 */
const struct vs_capacity_queue *vs_capacity_queue(const struct vs_plugin *p,
						  const struct vs_queue *queue);

#endif /* VS_PLUGINS_CAPACITY_H */
