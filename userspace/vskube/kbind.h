/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vskube's way out: the core's decisions carried to the API server.
 *
 * The bridge subscribes to vschedd's decisions group on a connection of
 * their own (a request's wait on the other connection would pass
 * notifications by). Each bind decision becomes
 * POST /api/v1/namespaces/NS/pods/NAME/binding, as Volcano's binder and
 * kube-scheduler's DefaultBinder post a v1 Binding, and its answer goes
 * back to the core as a VS_CMD_BIND_RESULT (through ksync_queue(), in the
 * next batch): 201 bound; anything else a failure with the API server's
 * own message ("pods \"p1\" not found"), which puts the task back to
 * Pending with backoff. Each eviction becomes
 * POST .../pods/NAME/eviction (policy/v1); where the API refuses it (a
 * PodDisruptionBudget's 429, an API without the subresource) the pod is
 * deleted, as Volcano's evictor deletes it. The core hears that the pod
 * went from the pods' watch. Pipeline decisions need nothing.
 *
 * At most @inflight requests run at once (kube-scheduler binds in
 * parallel too, with a bounded pool); the rest wait in order.
 */
#ifndef VSKUBE_KBIND_H
#define VSKUBE_KBIND_H

#include "lib/compiler.h"
#include "lib/vsnl.h"
#include "vskube/kclient.h"
#include "vskube/kstatus.h"
#include "vskube/ksync.h"

struct kbind;

struct kbind_stats {
	u64 decisions;			/* bind and evict decisions read */
	u64 binds;			/* bindings the API server took */
	u64 bind_failures;
	u64 evictions;			/* pods evicted, or deleted where eviction was refused */
	u64 evict_deletes;		/* of which deleted */
	u64 evict_failures;
	u64 lost;			/* times the daemon dropped decisions (ENOBUFS) */
};

#define KBIND_INFLIGHT_DEFAULT	64u

/* @status (or NULL) takes the status group's notifications read on the same connection. */
struct kbind *kbind_new(struct kcl *c, struct ksync *s, struct kstatus *status, u32 inflight);
void kbind_free(struct kbind *b);

/*
 * Read what @dec (subscribed to the decisions group, and to the status
 * group for the kstatus given) has for us, without waiting, and start the
 * requests. 0, or the connection's error.
 */
int kbind_read(struct kbind *b, struct vsnl *dec, struct vsnl_err *err);

/* Requests started or waiting. */
u32 kbind_pending(const struct kbind *b);

const struct kbind_stats *kbind_stats(const struct kbind *b);

#endif /* VSKUBE_KBIND_H */
