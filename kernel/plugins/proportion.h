/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the proportion plugin computed for a queue in the open session, for
 * tests and for tools that explain a queue (its deserved share, what it
 * holds). Read-only: the plugin owns the state and its event handlers keep
 * @allocated and @share current.
 */
#ifndef VS_PLUGINS_PROPORTION_H
#define VS_PLUGINS_PROPORTION_H

#include "core/fres.h"
#include "sched/framework.h"

/* Volcano's queueAttr. */
struct vs_proportion_queue {
	struct vs_fres deserved;
	struct vs_fres allocated;
	struct vs_fres request;
	struct vs_fres elastic;		/* sum over jobs of allocated beyond minResources */
	struct vs_fres inqueue;		/* admitted jobs' minResources not allocated yet */
	struct vs_fres real_capability;	/* what it may hold at most */
	struct vs_fres guarantee;
	double share;
	bool active;			/* has a job in the session (Volcano's queueOpts) */
	bool meet;			/* left the water-filling rounds */
};

/*
 * The attributes of @queue in the session of @p (the proportion plugin's
 * instance), or NULL when the queue has no job in the session.
 */
const struct vs_proportion_queue *vs_proportion_queue(const struct vs_plugin *p,
						      const struct vs_queue *queue);

#endif /* VS_PLUGINS_PROPORTION_H */
