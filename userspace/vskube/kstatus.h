/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vskube's write-back: what vschedd's status group tells (Documentation/
 * protocol.md, "The status group") written to the API server as Volcano's
 * scheduler writes it when a session closes, with the Events its recorder
 * makes beside:
 *
 * - a PodGroup's status: PATCH .../podgroups/NAME (a merge patch of the
 *   status's phase, conditions, running, succeeded, failed; the conditions'
 *   list is replaced whole, as Volcano's Update replaces it: Volcano's
 *   PodGroup CRD has no status subresource), then an Event
 *   on the PodGroup: Warning "Unschedulable" "N/M tasks in gang
 *   unschedulable: <FitError>" while it is Pending, Inqueue or Unknown,
 *   else Normal "Scheduled" "pod group is ready";
 * - a pod's PodScheduled=False condition: PATCH .../pods/NAME/status (a
 *   strategic merge patch: the condition is merged by its type), then a
 *   Warning "FailedScheduling" Event on the pod with the same message;
 * - a queue's allocated: PATCH .../queues/NAME/status (merge patch).
 *
 * The Events name the object with the uid and resourceVersion the PATCH
 * answered with (kubectl describe finds Events by uid). vschedd tells a
 * status when it changed, so an Event is recorded once per change where
 * Volcano records the PodGroup's every session and lets the API server's
 * event aggregation count the repeats.
 *
 * As Volcano compares a status with the object's in its informer's cache
 * (isPodGroupStatusUpdated, podConditionHaveUpdate) and writes only what
 * differs, a status the API server already holds is not written again:
 * the first status told of each object after a load is compared, through
 * the caller's lookup, with what the informers saw of the object
 * (kstatus_podgroup_digest(), kstatus_pod_digest()). Without that, every
 * PodGroup of a cluster would be written, and its Event recorded, each
 * time the bridge loads vschedd. A PodGroup the API server does not have
 * (the one vsched makes for a pod without one) is not written at all.
 * Later statuses of the object are written as told: vschedd tells only
 * changes, and the informers' view lags behind our own writes.
 *
 * Writes to one object are kept in order: a newer status of an object
 * whose write is under way waits for it, and replaces a newer one that
 * waits already. A write that finds the object gone (404: a pod deleted,
 * a PodGroup vsched made for a bare pod) is dropped; one that failed for
 * want of an answer, a 429 or a 5xx is tried again, up to three times.
 */
#ifndef VSKUBE_KSTATUS_H
#define VSKUBE_KSTATUS_H

#include <linux/netlink.h>
#include <jansson.h>

#include "lib/compiler.h"
#include "vskube/kclient.h"

struct kstatus;

enum kstatus_kind { KSTATUS_PODGROUP, KSTATUS_POD, KSTATUS_QUEUE };

/*
 * What the API server holds of an object, for the first status told of it:
 * 1 and @digest (kstatus_*_digest() of the object's status), 0 when there
 * is nothing to compare with (compared once already, or a pod without a
 * PodScheduled=False condition), -ENOENT when there is no such object.
 */
typedef int (*kstatus_lookup_fn)(void *ctx, enum kstatus_kind kind, const char *ns,
				 const char *name, u64 *digest);

/*
 * Digests of what kstatus writes, read from a status as the API server
 * has it (@status: the object's "status", or NULL): a PodGroup's phase,
 * running, succeeded, failed and conditions (type, status, reason,
 * message: the times and transition ids left out, as Volcano leaves them
 * out); a pod's PodScheduled condition when it is False (its reason and
 * message), else 0. Never 0 for a PodGroup; never with the top bit set,
 * which is the caller's to use.
 */
#define KSTATUS_DIGEST_FREE_BIT	(1ull << 63)
u64 kstatus_podgroup_digest(json_t *status);
u64 kstatus_pod_digest(json_t *status);

struct kstatus_stats {
	u64 podgroups;			/* PodGroup statuses written */
	u64 pods;			/* pod conditions written */
	u64 queues;			/* queue statuses written */
	u64 events;			/* Events recorded */
	u64 gone;			/* writes whose object was not there (404) */
	u64 failures;			/* writes and Events that failed for good */
	u64 coalesced;			/* statuses replaced by a newer one before being written */
	u64 unchanged;			/* not written: the API server has them already */
	u64 absent;			/* not written: no such object in the API server */
};

#define KSTATUS_INFLIGHT_DEFAULT	16u

/* @component names the Events' source: the scheduler's name, "volcano". */
struct kstatus *kstatus_new(struct kcl *c, const char *component, u32 inflight);
void kstatus_free(struct kstatus *s);

/* Compare first statuses with what @fn says the API server holds (NULL: write all). */
void kstatus_set_lookup(struct kstatus *s, kstatus_lookup_fn fn, void *ctx);

/* One VS_CMD_STATUS notification; 0, -EPROTO when it lacks what it must carry, -ENOMEM. */
int kstatus_note(struct kstatus *s, const struct nlmsghdr *nlh);

/* Writes started or waiting. */
u32 kstatus_pending(const struct kstatus *s);

const struct kstatus_stats *kstatus_stats(const struct kstatus *s);

#endif /* VSKUBE_KSTATUS_H */
