// SPDX-License-Identifier: Apache-2.0
/*
 * List and watch one kind of object: see informer.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vskube/informer.h"

#define KINF_PAGE		500
#define KINF_BACKOFF_MIN_MS	800
#define KINF_BACKOFF_MAX_MS	30000

enum kinf_state {
	KINF_IDLE,
	KINF_LISTING,
	KINF_WATCHING,
	KINF_WAITING,		/* for @due, then @then */
};

enum kinf_next { KINF_NEXT_LIST, KINF_NEXT_WATCH };

struct kinf {
	struct kcl *c;
	char *path, *query;
	u32 page;
	const struct kinf_ops *ops;
	void *ctx;

	enum kinf_state state;
	enum kinf_next then;
	u64 due;
	u32 backoff_ms;
	struct kcl_req *req;
	bool gone;			/* the watch said 410: list again */
	u32 optional_ms;		/* kinf_set_optional()'s retry; 0: the resource must exist */
	long absent;			/* the 404 or 403 of the last list of an optional kind */
	u64 absent_since;		/* when lists began to be answered so; 0: served */

	char rv[64];			/* where the watch goes on from */
	json_t *known;			/* key -> resourceVersion: what the owner was told */
	json_t *listed;			/* during a list: the keys it gave */
	char *cont;			/* the next page's continue token */
	bool synced;
	u64 rnd;
	struct kinf_stats st;
};

u64 kinf_clock_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000 + (u64)ts.tv_nsec / 1000000;
}

struct kinf *kinf_new(struct kcl *c, const char *path, const char *query, u32 page,
		      const struct kinf_ops *ops, void *ctx)
{
	struct kinf *inf = calloc(1, sizeof(*inf));

	if (!inf)
		return NULL;
	inf->c = c;
	inf->path = strdup(path);
	inf->query = query && *query ? strdup(query) : NULL;
	inf->page = page ? page : KINF_PAGE;
	inf->ops = ops;
	inf->ctx = ctx;
	inf->known = json_object();
	inf->backoff_ms = KINF_BACKOFF_MIN_MS;
	inf->rnd = (u64)(uintptr_t)inf ^ kinf_clock_ms();
	if (!inf->path || (query && *query && !inf->query) || !inf->known) {
		kinf_free(inf);
		return NULL;
	}
	return inf;
}

void kinf_free(struct kinf *inf)
{
	if (!inf)
		return;
	if (inf->req)
		kcl_cancel(inf->req);
	json_decref(inf->known);
	json_decref(inf->listed);
	free(inf->cont);
	free(inf->path);
	free(inf->query);
	free(inf);
}

bool kinf_synced(const struct kinf *inf)
{
	return inf->synced;
}

const char *kinf_rv(const struct kinf *inf)
{
	return inf->rv;
}

size_t kinf_count(const struct kinf *inf)
{
	return json_object_size(inf->known);
}

void kinf_set_optional(struct kinf *inf, u32 retry_ms)
{
	inf->optional_ms = retry_ms ? retry_ms : 1;
}

long kinf_absent(const struct kinf *inf)
{
	return inf->absent;
}

const struct kinf_stats *kinf_stats(const struct kinf *inf)
{
	return &inf->st;
}

const char *kinf_path(const struct kinf *inf)
{
	return inf->path;
}

static void trouble(struct kinf *inf, const char *fmt, ...) __printf(2, 3);

static void trouble(struct kinf *inf, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	if (!inf->ops->trouble)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	inf->ops->trouble(inf, what, inf->ctx);
}

/* Try @next again after the backoff, which doubles (with jitter, as client-go's). */
static void retry(struct kinf *inf, enum kinf_next next)
{
	u64 delay = inf->backoff_ms;

	inf->st.failures++;
	inf->rnd = inf->rnd * 6364136223846793005ULL + 1442695040888963407ULL;
	delay += (inf->rnd >> 33) % (delay + 1);
	inf->state = KINF_WAITING;
	inf->then = next;
	inf->due = kinf_clock_ms() + delay;
	inf->backoff_ms = inf->backoff_ms * 2 > KINF_BACKOFF_MAX_MS ? KINF_BACKOFF_MAX_MS :
								      inf->backoff_ms * 2;
}

/* The key an object is known by: "ns/name", or "name" for cluster-scoped kinds. */
static int obj_key(json_t *obj, char *key, size_t size, const char **rv)
{
	json_t *meta = json_object_get(obj, "metadata");
	const char *name = json_string_value(json_object_get(meta, "name"));
	const char *ns = json_string_value(json_object_get(meta, "namespace"));

	*rv = json_string_value(json_object_get(meta, "resourceVersion"));
	if (!name || !*name || !*rv)
		return -EINVAL;
	if ((size_t)snprintf(key, size, "%s%s%s", ns && *ns ? ns : "", ns && *ns ? "/" : "",
			     name) >= size)
		return -EINVAL;
	return 0;
}

static void set_rv(struct kinf *inf, const char *rv)
{
	snprintf(inf->rv, sizeof(inf->rv), "%s", rv);
}

static void start_list(struct kinf *inf);
static void start_watch(struct kinf *inf);

/* ---- list ---- */

/* What a relist did not give any more went while the informer was away. */
static void list_deletes(struct kinf *inf)
{
	const char *key;
	json_t *rv, *gone = json_array();
	size_t i;

	if (!gone)
		return;
	json_object_foreach(inf->known, key, rv)
		if (!json_object_get(inf->listed, key))
			json_array_append_new(gone, json_string(key));
	json_array_foreach(gone, i, rv) {
		const char *k = json_string_value(rv), *slash = strchr(k, '/');
		json_t *obj;

		/* Only its name is left: a relist has no last state of it to give. */
		obj = slash ? json_pack("{s:{s:s%, s:s, s:s}}", "metadata", "namespace", k,
					(size_t)(slash - k), "name", slash + 1, "resourceVersion",
					json_string_value(json_object_get(inf->known, k))) :
			      json_pack("{s:{s:s, s:s}}", "metadata", "name", k, "resourceVersion",
					json_string_value(json_object_get(inf->known, k)));
		json_object_del(inf->known, k);
		inf->st.events++;
		if (obj)
			inf->ops->event(inf, KINF_DELETED, obj, inf->ctx);
		json_decref(obj);
	}
	json_decref(gone);
}

/* A list that failed starts over, from its first page, after the backoff. */
static void list_retry(struct kinf *inf)
{
	free(inf->cont);
	inf->cont = NULL;
	json_decref(inf->listed);
	inf->listed = NULL;
	retry(inf, KINF_NEXT_LIST);
}

/* Whether @status says that the server has not, or does not let us have, an optional resource. */
static bool is_absent(const struct kinf *inf, long status)
{
	return inf->optional_ms && (status == 404 || status == 403);
}

/*
 * An optional resource the server does not serve. Never listed yet: an
 * empty list, so that the owner goes on without it. Listed before: the
 * answer may be a moment's (a restarted API server refuses for a moment,
 * its authorizer's cache or its CRD handlers not ready), so what the
 * informer knew stays, until the server has not served it for
 * optional_ms; then an empty list, whose end tells it deleted (a CRD
 * removed takes its objects with it). Listed again after a backoff that
 * doubles from 0.8 s up to optional_ms: there is nothing to watch.
 */
static void list_absent(struct kinf *inf, long status, const char *body)
{
	u64 now = kinf_clock_ms(), delay = inf->backoff_ms;

	free(inf->cont);
	inf->cont = NULL;
	json_decref(inf->listed);
	inf->listed = NULL;
	inf->st.absent++;
	if (!inf->absent_since)
		inf->absent_since = now;
	if (!inf->synced || inf->absent || now - inf->absent_since >= inf->optional_ms) {
		inf->rv[0] = '\0';
		inf->listed = json_object();
		if (inf->listed)
			list_deletes(inf);
		json_decref(inf->listed);
		inf->listed = NULL;
		inf->synced = true;
		if (inf->absent != status && inf->ops->absent)
			inf->ops->absent(inf, status, inf->ctx);
		inf->absent = status;
		if (inf->ops->synced)
			inf->ops->synced(inf, inf->ctx);
	} else {
		trouble(inf, "list %s: %s", inf->path, body);
	}
	if (delay > inf->optional_ms)
		delay = inf->optional_ms;
	inf->backoff_ms = 2 * delay > inf->optional_ms ? inf->optional_ms : 2 * delay;
	inf->state = KINF_WAITING;
	inf->then = KINF_NEXT_LIST;
	inf->due = now + delay;
}

static void list_done(struct kcl_req *r, long status, const char *body, size_t len,
		      const char *why, void *arg)
{
	struct kinf *inf = arg;
	json_t *doc, *items, *obj, *meta;
	const char *cont, *rv;
	json_error_t jerr;
	bool more;
	size_t i;

	inf->req = NULL;
	if (status == 410) {
		/* The continue token expired: the list starts over. */
		inf->st.gone++;
		free(inf->cont);
		inf->cont = NULL;
		json_decref(inf->listed);
		inf->listed = NULL;
		start_list(inf);
		return;
	}
	if (is_absent(inf, status)) {
		list_absent(inf, status, body);
		return;
	}
	if (status != 200) {
		trouble(inf, "list %s: %s", inf->path, status ? body : why);
		list_retry(inf);
		return;
	}
	doc = json_loadb(body, len, 0, &jerr);
	items = json_object_get(doc, "items");
	meta = json_object_get(doc, "metadata");
	if (!doc || !json_is_array(items) || !json_is_object(meta)) {
		trouble(inf, "list %s: not a list: %s", inf->path, doc ? "no items" : jerr.text);
		json_decref(doc);
		list_retry(inf);
		return;
	}
	inf->st.pages++;
	cont = json_string_value(json_object_get(meta, "continue"));
	rv = json_string_value(json_object_get(meta, "resourceVersion"));
	more = cont && *cont;
	if (more) {
		/*
		 * The next page is asked for before this one is told: the API
		 * server writes it while this one is translated and sent on.
		 */
		free(inf->cont);
		inf->cont = strdup(cont);
		if (!inf->cont) {
			json_decref(doc);
			list_retry(inf);
			return;
		}
		start_list(inf);
		kcl_kick(inf->c);
	}
	json_array_foreach(items, i, obj) {
		char key[512];
		const char *known, *irv;

		if (obj_key(obj, key, sizeof(key), &irv)) {
			trouble(inf, "list %s: item %zu has no name or resourceVersion", inf->path, i);
			continue;
		}
		json_object_set_new(inf->listed, key, json_true());
		known = json_string_value(json_object_get(inf->known, key));
		if (known && !strcmp(known, irv))
			continue;
		json_object_set_new(inf->known, key, json_string(irv));
		inf->st.events++;
		inf->ops->event(inf, known ? KINF_MODIFIED : KINF_ADDED, obj, inf->ctx);
	}
	if (more) {
		json_decref(doc);
		return;
	}
	if (!rv || !*rv) {
		trouble(inf, "list %s: no resourceVersion", inf->path);
		json_decref(doc);
		list_retry(inf);
		return;
	}
	set_rv(inf, rv);
	json_decref(doc);
	list_deletes(inf);
	json_decref(inf->listed);
	inf->listed = NULL;
	inf->synced = true;
	inf->backoff_ms = KINF_BACKOFF_MIN_MS;
	inf->absent_since = 0;
	if (inf->absent) {
		inf->absent = 0;
		if (inf->ops->absent)
			inf->ops->absent(inf, 0, inf->ctx);
	}
	if (inf->ops->synced)
		inf->ops->synced(inf, inf->ctx);
	start_watch(inf);
}

static void start_list(struct kinf *inf)
{
	char *url = NULL, *cont = NULL;

	if (!inf->listed && !(inf->listed = json_object())) {
		retry(inf, KINF_NEXT_LIST);
		return;
	}
	if (!inf->cont)
		inf->st.lists++;
	if (inf->cont && !(cont = curl_easy_escape(NULL, inf->cont, 0))) {
		retry(inf, KINF_NEXT_LIST);
		return;
	}
	if (asprintf(&url, "%s?limit=%u%s%s%s%s", inf->path, inf->page, cont ? "&continue=" : "",
		     cont ? cont : "", inf->query ? "&" : "", inf->query ? inf->query : "") < 0)
		url = NULL;
	curl_free(cont);
	inf->req = url ? kcl_request(inf->c, "GET", url, NULL, NULL, 0, list_done, inf) : NULL;
	free(url);
	if (!inf->req) {
		retry(inf, KINF_NEXT_LIST);
		return;
	}
	inf->state = KINF_LISTING;
}

/* ---- watch ---- */

static int watch_line(struct kcl_req *r, const char *line, size_t len, void *arg)
{
	struct kinf *inf = arg;
	json_t *ev = json_loadb(line, len, 0, NULL), *obj;
	const char *type, *rv;
	char key[512];

	obj = json_object_get(ev, "object");
	type = json_string_value(json_object_get(ev, "type"));
	if (!ev || !type || !json_is_object(obj)) {
		trouble(inf, "watch %s: not a watch event: %.100s", inf->path, line);
		json_decref(ev);
		return 1;
	}
	if (!strcmp(type, "ERROR")) {
		json_int_t code = json_integer_value(json_object_get(obj, "code"));

		if (code == 410) {
			inf->gone = true;
			inf->st.gone++;
		} else {
			trouble(inf, "watch %s: %s", inf->path,
				json_string_value(json_object_get(obj, "message")) ?: "an error");
		}
		json_decref(ev);
		return 1;
	}
	if (!strcmp(type, "BOOKMARK")) {
		rv = json_string_value(json_object_get(json_object_get(obj, "metadata"),
						       "resourceVersion"));
		if (rv && *rv)
			set_rv(inf, rv);
		inf->st.bookmarks++;
		json_decref(ev);
		return 0;
	}
	if (obj_key(obj, key, sizeof(key), &rv)) {
		trouble(inf, "watch %s: an object without a name or resourceVersion", inf->path);
		json_decref(ev);
		return 1;
	}
	inf->st.events++;
	inf->backoff_ms = KINF_BACKOFF_MIN_MS;
	if (!strcmp(type, "DELETED")) {
		json_object_del(inf->known, key);
		inf->ops->event(inf, KINF_DELETED, obj, inf->ctx);
	} else if (!strcmp(type, "ADDED") || !strcmp(type, "MODIFIED")) {
		bool known = json_object_get(inf->known, key) != NULL;

		json_object_set_new(inf->known, key, json_string(rv));
		inf->ops->event(inf, known ? KINF_MODIFIED : KINF_ADDED, obj, inf->ctx);
	} else {
		trouble(inf, "watch %s: an event of type %s", inf->path, type);
	}
	set_rv(inf, rv);
	json_decref(ev);
	return 0;
}

static void watch_done(struct kcl_req *r, long status, const char *body, size_t len,
		       const char *why, void *arg)
{
	struct kinf *inf = arg;

	inf->req = NULL;
	if (inf->gone || status == 410) {
		inf->gone = false;
		if (status == 410)
			inf->st.gone++;
		start_list(inf);
		return;
	}
	if (is_absent(inf, status)) {
		start_list(inf);	/* gone while watched: the list says what is left */
		return;
	}
	if (status == 200 && !why) {
		start_watch(inf);	/* timeoutSeconds, or the server closed: go on */
		return;
	}
	trouble(inf, "watch %s: %s", inf->path, status && status != 200 ? body :
		why ? why : "ended");
	retry(inf, KINF_NEXT_WATCH);
}

static void start_watch(struct kinf *inf)
{
	char *url;

	inf->st.watches++;
	if (asprintf(&url, "%s?watch=1&resourceVersion=%s&allowWatchBookmarks=true"
		     "&timeoutSeconds=%u%s%s", inf->path, inf->rv, KINF_WATCH_TIMEOUT_S,
		     inf->query ? "&" : "", inf->query ? inf->query : "") < 0)
		url = NULL;
	inf->req = url ? kcl_watch(inf->c, url, watch_line, watch_done, inf) : NULL;
	free(url);
	if (!inf->req) {
		retry(inf, KINF_NEXT_WATCH);
		return;
	}
	inf->state = KINF_WATCHING;
}

void kinf_start(struct kinf *inf)
{
	if (inf->state == KINF_IDLE)
		start_list(inf);
}

u64 kinf_tick(struct kinf *inf, u64 now)
{
	if (inf->state != KINF_WAITING)
		return UINT64_MAX;
	if (now < inf->due)
		return inf->due;
	if (inf->then == KINF_NEXT_LIST)
		start_list(inf);
	else
		start_watch(inf);
	return inf->state == KINF_WAITING ? inf->due : UINT64_MAX;
}
