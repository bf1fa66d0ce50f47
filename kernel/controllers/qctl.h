/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The queue controller: Volcano's pkg/controllers/queue, in the core.
 *
 * A queue is Open, Closing, Closed or Unknown. Closing a queue that still
 * holds PodGroups makes it Closing, and it becomes Closed when the last of
 * them is gone; a queue that is not Open admits no new VolcanoJob or
 * PodGroup (vs_qctl_admit_*), and the scheduler's proportion plugin neither
 * admits nor places work in it. Queues form a tree by their parent: closing
 * a queue closes its open children ("closed by parent"), opening it opens
 * again the children it closed, and a child cannot be opened under a closed
 * parent. The PodGroup counts by phase that Volcano's SyncQueue writes in
 * the queue's status are queue->nr_jobs_by_phase, which the core keeps.
 *
 * The state table (Volcano's pkg/controllers/queue/state):
 *
 *            OpenQueue          CloseQueue                 other actions
 *   Open     SyncQueue: Open    CloseQueue: Closed if no   SyncQueue: Open
 *                               PodGroups, else Closing
 *   Closed   OpenQueue: Open    SyncQueue: Closed          SyncQueue: Closed
 *   Closing  OpenQueue: Open    SyncQueue: Closed if none  SyncQueue: Closed if
 *                               left, else Closing         none left, else Closing
 *   Unknown  OpenQueue: Open    CloseQueue: as Open's      SyncQueue: Unknown
 */
#ifndef VS_CONTROLLERS_QCTL_H
#define VS_CONTROLLERS_QCTL_H

#include "controllers/controllers.h"

/*
 * Run @action on @queue by the table: OpenQueue, CloseQueue, or anything
 * else as SyncQueue. Opening a queue under a Closing or Closed parent is
 * refused (-EPERM); "root" is never closed (0, nothing changes, as Volcano).
 */
int vs_qctl_execute(struct vs_ctl *ctl, struct vs_queue *queue, enum vs_vjob_action action,
		    struct vs_err *err);

/*
 * A user's command: OpenQueue or CloseQueue; other actions, and closing
 * "root", are refused.
 */
int vs_qctl_command(struct vs_ctl *ctl, struct vs_queue *queue, enum vs_vjob_action action,
		    struct vs_err *err);

/*
 * SyncQueue: after the queue was created, after one of its PodGroups was
 * created, deleted or changed phase. Follows the parent's state.
 */
int vs_qctl_sync(struct vs_ctl *ctl, struct vs_queue *queue, struct vs_err *err);

/* SyncQueue for every queue (after a cycle); the first error. */
int vs_qctl_sync_all(struct vs_ctl *ctl, struct vs_err *err);

/*
 * Volcano's admission of a VolcanoJob into queue @name: it must exist
 * (-ENOENT), be Open (-EPERM), not be "root" and have no child queues
 * (-EINVAL).
 */
int vs_qctl_admit_job(struct vs_ctl *ctl, const char *name, struct vs_err *err);

/*
 * Of a PodGroup: its queue (NULL or "" is "default", as the CRD defaults it)
 * must exist (-ENOENT) and be Open (-EPERM).
 */
int vs_qctl_admit_podgroup(struct vs_ctl *ctl, const char *name, struct vs_err *err);

#endif /* VS_CONTROLLERS_QCTL_H */
