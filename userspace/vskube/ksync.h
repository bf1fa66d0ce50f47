/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The core kept in step with the API server: vskube's way in.
 *
 * ksync runs an informer (informer.h) for each kind the core takes:
 * PriorityClasses, Queues, Nodes, PodGroups, Pods and HyperNodes (kread's
 * order), started in that order, each once the one before has listed, so
 * that what an object names is in the core before it. Every object goes through the manifest
 * reader without the core (userspace/kube/kread.h), so that an object read
 * from the API server becomes exactly the request "vsctl apply" makes of
 * the same manifest; the daemon applies Volcano's rules. A pod is sent as
 * the API server holds it, admitted already (no ADMIT: kr_doc.mirror).
 *
 * Loading. On start, and again whenever the core and the bridge may
 * have parted (vschedd restarted, a change the core refused), ksync
 * holds the daemon's periodic cycles (VS_CONN_A_HOLD), forgets everything
 * (VS_CMD_RESET: bind decisions never confirmed are forgotten with it,
 * and the pods are scheduled again), and sends what the informers list,
 * in batches of at most KSYNC_CHUNK objects, lets go of the hold once the
 * last kind has listed. No cycle sees half a cluster.
 *
 * Keeping up. Afterwards, the changes that arrive between two calls of
 * ksync_flush() go as one batch: deletions, last kind first (a HyperNode's
 * first, a pod's as its task's VS_TASK_EVENT_DELETED), then new and changed objects in kind order
 * (NEW with NLM_F_REPLACE, a pod as a new task), then what pods report
 * (VS_CMD_TASK_STATUS: running, succeeded, failed with the container's
 * exit code, being deleted). An object whose request equals the one
 * sent last is not sent again (nodes' status heartbeats change nothing
 * the core reads). A pod that names no PodGroup gets one from the
 * daemon's podgroup controller, as Volcano's makes it.
 *
 * HyperNodes are optional: an API server without them (Volcano before
 * v1.12, the CRD not installed: a 404 on the list), or one that forbids
 * them to the bridge (403), is said once in the log, and the load goes on
 * without them; the list is tried again with a backoff up to every
 * KSYNC_ABSENT_RETRY_MS, and at every load, and once it succeeds they are
 * watched as the others. HyperNodes listed before are kept through such
 * answers until they have lasted KSYNC_ABSENT_RETRY_MS (informer.h).
 *
 * Refusals. An object the reader refuses, or one not of its list's kind,
 * is logged with the field at fault and left out; the rest goes on. A message the daemon refuses in a
 * batch is left out and the batch sent again; after a few, each message
 * goes alone. A task report the core refuses means the two have parted:
 * ksync loads again (at most once per KSYNC_RESYNC_MIN_MS).
 */
#ifndef VSKUBE_KSYNC_H
#define VSKUBE_KSYNC_H

#include "lib/compiler.h"
#include "lib/vsnl.h"
#include "vskube/kclient.h"
#include "vskube/kstatus.h"

struct ksync;

/* Objects per batch while loading, and per batch after. */
#define KSYNC_CHUNK		20000u
/* The least time between two loads forced by refusals. */
#define KSYNC_RESYNC_MIN_MS	30000u
/* How often a kind the API server does not serve (HyperNodes) is looked for again. */
#define KSYNC_ABSENT_RETRY_MS	60000u

struct ksync_stats {
	u64 loads;			/* loads started (the first, and resyncs) */
	u64 batches;			/* batches applied */
	u64 sent;			/* messages applied */
	u64 unchanged;			/* objects not sent: the core has them as they are */
	u64 refused_read;		/* objects the reader refused */
	u64 refused_core;		/* messages the daemon refused */
};

struct ksync_opts {
	const char *scheduler;		/* the schedulerName of vsched's pods: "volcano" */
	u32 page;			/* list page size (0: the informers' 500) */
};

/*
 * For kstatus (kstatus_lookup_fn): what the informers saw of a PodGroup's
 * status or a pod's PodScheduled=False condition, once per object and
 * load: 1 and its digest the first time, 0 after (and for a pod without
 * the condition, or a queue), -ENOENT for a PodGroup the API server does
 * not have.
 */
int ksync_status_lookup(struct ksync *s, enum kstatus_kind kind, const char *ns,
			const char *name, u64 *digest);

/* The bridge's way in over the API client @c to the daemon's connection @nl. */
struct ksync *ksync_new(struct kcl *c, struct vsnl *nl, const struct ksync_opts *opts,
			struct vsnl_err *err);
void ksync_free(struct ksync *s);

/* Load the core from fresh lists (the start, and a resync). 0 or the daemon's error. */
int ksync_load(struct ksync *s, struct vsnl_err *err);

/*
 * Start what is due (the informers' retries, a resync the daemon's
 * refusals asked for) at @now_ms (kinf_clock_ms()); when next something is.
 */
u64 ksync_tick(struct ksync *s, u64 now_ms);

/*
 * Send what the informers told since the last call, as one batch (or a
 * few). 0, or the error of a daemon that cannot be reached: the caller
 * reconnects and loads again.
 */
int ksync_flush(struct ksync *s, struct vsnl_err *err);

/*
 * Add a message of the caller's to the next batch (a bind result: they
 * share the connection). @what names it in logs.
 */
int ksync_queue(struct ksync *s, const struct nlmsghdr *nlh, const char *what);

/* Every informer has listed and the load is in the core. */
bool ksync_synced(const struct ksync *s);

const struct ksync_stats *ksync_stats(const struct ksync *s);

/* The informers, for metrics: @i from 0 while not NULL. */
struct kinf *ksync_informer(const struct ksync *s, unsigned int i);

#endif /* VSKUBE_KSYNC_H */
