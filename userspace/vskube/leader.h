/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Leader election on a coordination.k8s.io/v1 Lease, as client-go's
 * leaderelection package does it with a LeaseLock (Volcano's scheduler runs
 * one so that of its replicas only one schedules).
 *
 * A candidate reads the Lease; when it does not exist the candidate creates
 * it with itself as the holder; when another holds it, the candidate waits
 * until the Lease has not changed for its leaseDurationSeconds, measured on
 * the candidate's own clock from when it saw the Lease change (the holder's
 * renewTime is never compared with our clock), and then takes it with an
 * update that carries the resourceVersion it read: of two candidates that
 * race, the server refuses the second (409 Conflict). The leader renews every
 * retry period; when no renewal has succeeded within the renew deadline it
 * has lost, stops leading, and tries to acquire again like any candidate
 * (its owner may exit instead, as Volcano does). On shutdown a leader may
 * release the Lease (holder "", a duration of 1 s) so that another takes
 * over at once.
 *
 * Everything runs in the owner's thread, as informers do: the client's
 * kcl_poll() moves the requests, kle_tick() starts what is due and says
 * when the next thing is.
 *
 *	struct kle *le = kle_new(c, &(struct kle_config){ .ns = "volcano-system",
 *				 .name = "vc-scheduler" }, &ops, me, &err);
 *	kle_start(le);
 *	for (;;) {
 *		u64 now = kinf_clock_ms(), next = kle_tick(le, now);
 *		kcl_poll(c, NULL, 0, next <= now ? 0 : next - now < 1000 ? next - now : 1000,
 *			 &err);
 *	}
 */
#ifndef VSKUBE_LEADER_H
#define VSKUBE_LEADER_H

#include "lib/compiler.h"
#include "lib/vsnl.h"
#include "vskube/kclient.h"

struct kle;

/* Volcano's scheduler defaults (--leader-elect-lease-duration and the others). */
#define KLE_LEASE_MS	15000
#define KLE_RENEW_MS	10000
#define KLE_RETRY_MS	2000

struct kle_config {
	const char *ns;			/* the Lease's namespace (--leader-elect-resource-namespace) */
	const char *name;		/* and name (--leader-elect-resource-name) */
	const char *identity;		/* NULL or "": the hostname, '_', a random UUID */
	/*
	 * 0 for the defaults above. The Lease carries whole seconds: the
	 * duration is truncated to them, as client-go does, and is at least 1 s.
	 */
	u32 lease_ms;			/* how long others wait before taking an unrenewed Lease */
	u32 renew_ms;			/* how long the leader keeps trying to renew */
	u32 retry_ms;			/* the period of the attempts */
};

struct kle_ops {
	/* We lead, from now until stopped(). Required. */
	void (*started)(struct kle *le, void *ctx);
	/*
	 * We no longer lead: @released when kle_release() gave the Lease up,
	 * otherwise the renew deadline passed (Volcano exits here). Required.
	 */
	void (*stopped)(struct kle *le, bool released, void *ctx);
	/* An attempt saw a holder other than the last one told ("" when the Lease is free). */
	void (*new_leader)(struct kle *le, const char *identity, void *ctx);
	/* Something failed and will be retried, or a Lease the server gave is malformed: for the log. */
	void (*trouble)(struct kle *le, const char *what, void *ctx);
};

struct kle_stats {
	u64 attempts;			/* tries to acquire or renew */
	u64 held;			/* attempts that found the Lease held by another, unexpired */
	u64 failures;			/* attempts that failed: errors, malformed Leases, no answer */
	u64 conflicts;			/* writes the server refused with 409: another wrote first */
	u64 gets, creates, updates;	/* requests sent */
	u64 acquired, renewed, lost, released;
};

/*
 * Check @cfg as client-go does (leaseDuration > renewDeadline >
 * retryPeriod * 1.2), with the defaults filled in: 0, or -EINVAL with @err
 * naming the option.
 */
int kle_config_check(const struct kle_config *cfg, struct vsnl_err *err);

/*
 * A candidate for the Lease @cfg names, on client @c; @ops and @ctx must
 * outlive it. NULL with @err when @cfg is refused or memory runs out. It does
 * nothing until kle_start().
 */
struct kle *kle_new(struct kcl *c, const struct kle_config *cfg, const struct kle_ops *ops,
		    void *ctx, struct vsnl_err *err);

/*
 * Stop at once, without releasing: others take the Lease when it expires.
 * Not from one of @le's callbacks.
 */
void kle_free(struct kle *le);

/* Start trying to acquire the Lease: the first attempt is sent now. */
void kle_start(struct kle *le);

/*
 * Start what is due at @now_ms (kinf_clock_ms()): an attempt, or the end of
 * one that has had no answer in time, or the loss of leadership when the
 * renew deadline has passed. The time of the next thing due, or UINT64_MAX.
 */
u64 kle_tick(struct kle *le, u64 now_ms);

/*
 * Give the Lease up, for a shutdown (client-go's ReleaseOnCancel): stop
 * leading now (stopped() is called from here, with @released), then write
 * the Lease with no holder if the server still says we hold it. An attempt
 * in flight is let finish first, so that a write that made us the holder is
 * undone too. The candidate then does nothing more: kle_done() says when the
 * release is over, whether it succeeded or not (trouble() says why not), at
 * the latest after the renew deadline.
 */
void kle_release(struct kle *le);

/* After kle_release(): nothing more will be sent. */
bool kle_done(const struct kle *le);

/* Between started() and stopped(). */
bool kle_is_leader(const struct kle *le);

/* Who we are, as written in the Lease's holderIdentity. */
const char *kle_identity(const struct kle *le);

/* The holder the last attempt saw ("": none, or none seen yet). */
const char *kle_leader(const struct kle *le);

const struct kle_stats *kle_stats(const struct kle *le);

#endif /* VSKUBE_LEADER_H */
