/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The status group: what Volcano's scheduler writes back to the API server
 * when a session closes (its job updater, its pods' PodScheduled
 * conditions, its queues' status.allocated), as VS_CMD_EVENT messages for
 * whoever writes them (vskube; Documentation/protocol.md, "The status
 * group").
 *
 * Volcano writes a PodGroup's status when it differs from what the
 * session opened with, ignoring the conditions' times and transition ids;
 * a pod's condition when its status, reason or message differ from the
 * pod's; a queue's allocated when it differs. vsched keeps no copy of what
 * the API server holds: it keeps a 32-bit hash of what it last told
 * (status_digest on PodGroups and queues, sched_digest on tasks) and tells
 * again what hashes differently. So the group tells changes: a bridge
 * hears every status from a reload (VS_CMD_RESET, then its objects), a
 * listener that joins later hears what changes from then on.
 *
 * The messages wait in core->status as the events group's wait in
 * core->events (events.h), and go out with them; core->status.on false
 * (nobody listens): nothing is computed.
 */
#ifndef VS_NETLINK_WRITEBACK_H
#define VS_NETLINK_WRITEBACK_H

#include "core/cluster.h"

struct vs_nl_core;

/*
 * At the close of a session, with its notes still there (the session
 * sink's job_status): @job's status (VS_EVENT_STATUS, VS_A_PODGROUP with
 * VS_PG_A_FIT_ERROR while it is Pending or Inqueue), then its Allocated,
 * Pending and Pipelined tasks' PodScheduled conditions
 * (VS_EVENT_UNSCHEDULABLE), each when it changed.
 */
void vs_nl_writeback_job(struct vs_nl_core *core, struct vs_job *job);

/*
 * After a cycle: each queue whose allocated resources changed
 * (VS_EVENT_STATUS, VS_A_QUEUE with its name and VS_QUEUE_A_ALLOCATED).
 * As Volcano's updateQueueStatus, a parent counts its children's when a
 * queue named "root" exists (hierarchical queues).
 */
void vs_nl_writeback_queues(struct vs_nl_core *core);

/*
 * The PodScheduled condition Volcano gives @task at the close of a session
 * (JobInfo.TaskSchedulingReason, with the job's FitError() @job_fit_error
 * where the task has no message of its own): the reason, and the message
 * in @buf of @len bytes (or @job_fit_error itself).
 */
const char *vs_nl_task_sched_reason(const struct vs_task *task, const char *job_fit_error,
				    char *buf, size_t len, const char **message);

#endif /* VS_NETLINK_WRITEBACK_H */
