/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Keeping up with one kind of object: list, then watch, as client-go's
 * reflector does.
 *
 * An informer lists its path in pages (limit and continue), takes the
 * list's resourceVersion, and watches from it with bookmarks. Every object
 * is handed to its owner as it is added, changed or deleted; a bookmark
 * moves the resourceVersion on. When the watch ends it is started again
 * from where it was; when the server says the resourceVersion is too old
 * (410 Gone, as an ERROR event or as the answer), the informer lists
 * again and reports the difference against what it knew: objects that
 * appeared, changed (another resourceVersion) or went while it was not
 * watching. Failures back off as client-go's do (from 0.8 s, doubling, up
 * to 30 s, with jitter), and a success resets the delay.
 *
 * The informer keeps, per object, its key and resourceVersion only; its
 * owner keeps what it needs of the objects themselves.
 */
#ifndef VSKUBE_INFORMER_H
#define VSKUBE_INFORMER_H

#include <jansson.h>

#include "lib/compiler.h"
#include "vskube/kclient.h"

enum kinf_event {
	KINF_ADDED,
	KINF_MODIFIED,
	KINF_DELETED,
};

struct kinf;

struct kinf_ops {
	/* An object was added, changed or deleted (@obj: its last state). */
	void (*event)(struct kinf *inf, enum kinf_event type, json_t *obj, void *ctx);
	/* A list ended: everything that exists has been told (first sync, or a relist). */
	void (*synced)(struct kinf *inf, void *ctx);
	/* Something failed and will be retried: for the log. */
	void (*trouble)(struct kinf *inf, const char *what, void *ctx);
	/*
	 * An optional informer's (kinf_set_optional()): the API server
	 * answered its list with @status 404 (no such resource) or 403
	 * (forbidden), the first time since it served it, or since the
	 * start; or, @status 0, it serves it again. NULL: nothing told.
	 */
	void (*absent)(struct kinf *inf, long status, void *ctx);
};

struct kinf_stats {
	u64 lists;			/* lists started (the first, and each relist) */
	u64 pages;
	u64 watches;			/* watch streams started */
	u64 events;			/* ADDED, MODIFIED, DELETED seen */
	u64 bookmarks;
	u64 gone;			/* 410s: the resourceVersion was too old */
	u64 failures;			/* lists or watches that failed and were retried */
	u64 absent;			/* lists of an optional kind answered 404 or 403 */
};

/*
 * An informer of @path ("/api/v1/pods") with an optional @query of
 * selectors ("fieldSelector=spec.schedulerName%3Dvolcano", URL-encoded;
 * NULL for none), lists in pages of @page objects (0: 500). It does
 * nothing until kinf_start().
 */
struct kinf *kinf_new(struct kcl *c, const char *path, const char *query, u32 page,
		      const struct kinf_ops *ops, void *ctx);
void kinf_free(struct kinf *inf);

void kinf_start(struct kinf *inf);

/*
 * Let the API server lack @inf's resource (a CRD not installed, or not
 * granted): a list answered 404 or 403 is then, at the first list, taken
 * as an empty list, ended as any other (synced(), and absent() told),
 * and listed again after a backoff that doubles up to @retry_ms, not
 * watched, until the server serves it. A kind listed before is kept
 * through such answers (a restarting server gives them for a moment) until
 * they have lasted @retry_ms: then the empty list tells what the informer
 * knew as deleted. A watch answered so lists again. Before kinf_start().
 */
void kinf_set_optional(struct kinf *inf, u32 retry_ms);

/* The status (404, 403) of an optional informer's last list, if it had none; else 0. */
long kinf_absent(const struct kinf *inf);

/* Milliseconds of CLOCK_MONOTONIC: the informers' clock. */
u64 kinf_clock_ms(void);

/*
 * Start what is due at @now_ms (kinf_clock_ms(): a retry after its
 * backoff); the time of the next thing due, or UINT64_MAX.
 */
u64 kinf_tick(struct kinf *inf, u64 now_ms);

/* Whether a list has completed (the owner knows every object). */
bool kinf_synced(const struct kinf *inf);

/* The resourceVersion the informer is at ("" before the first list). */
const char *kinf_rv(const struct kinf *inf);

/* The number of objects it knows. */
size_t kinf_count(const struct kinf *inf);

const struct kinf_stats *kinf_stats(const struct kinf *inf);
const char *kinf_path(const struct kinf *inf);

/* Watches end after this many seconds (timeoutSeconds), as client-go's do (5-10 min). */
#define KINF_WATCH_TIMEOUT_S	300

#endif /* VSKUBE_INFORMER_H */
