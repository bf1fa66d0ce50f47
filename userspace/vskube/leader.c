// SPDX-License-Identifier: Apache-2.0
/*
 * Leader election on a Lease: see leader.h. One attempt (client-go's
 * tryAcquireOrRenew) is a short chain of requests, each sent from the
 * previous one's callback: a leader whose last observation of the Lease is
 * still valid updates it straight from the copy it holds (one PUT); failing
 * that, or for anyone else, a GET, then a POST when there is no Lease or a
 * PUT when it is free, expired or ours. The attempt's end decides what comes
 * next: started(), the next renewal, a retry, or the loss of leadership.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>

#include "vskube/informer.h"
#include "vskube/leader.h"

#define KLE_API		"/apis/coordination.k8s.io/v1"

enum kle_state {
	KLE_IDLE,
	KLE_WAITING,		/* for @due (and, leading, no later than @poll_deadline) */
	KLE_TRYING,		/* an attempt's request in flight, until @deadline */
	KLE_RELEASING,		/* the release's request in flight, until @deadline */
	KLE_DONE,		/* released (or given up releasing): nothing more */
};

/* What a Lease's spec says, as client-go's LeaderElectionRecord. */
struct kle_record {
	char *holder;			/* never NULL once set: "" for none */
	s64 duration_s;
	s64 transitions;
	char acquire[48], renew[48];	/* RFC 3339; "" when absent */
};

struct kle {
	struct kcl *c;
	const struct kle_ops *ops;
	void *ctx;
	char *identity;
	char *ns, *name;
	char *desc;			/* "ns/name", for messages */
	char *path;			/* the Lease's */
	char *coll;			/* its namespace's leases, to create it */
	u32 lease_ms, renew_ms, retry_ms;

	enum kle_state state;
	struct kcl_req *req;
	u64 due, deadline;
	u64 poll_deadline;		/* leading: the renewals being tried must succeed by then */
	u64 attempt_start;
	u64 release_by;
	bool leading, releasing;

	/*
	 * The Lease as the server last answered it, the base of our next
	 * update (its resourceVersion makes the update conditional).
	 */
	json_t *lease;
	/*
	 * The record last observed, read or written by us, and when: others'
	 * records expire @obs.duration_s after we saw them change, on our
	 * clock. @obs_raw is the last spec read, to tell a change; as in
	 * client-go our own writes do not set it, so the first read after one
	 * counts as a change.
	 */
	struct kle_record obs;
	char *obs_raw;
	u64 obs_time;
	struct kle_record want;		/* what the write in flight says */
	char *reported;			/* the holder last told to new_leader() */
	u64 rnd;
	struct kle_stats st;
};

/* ---- options ---- */

/* "15s", "1.5s", "800ms": durations as Go prints them, as the flags take them. */
static const char *fmt_ms(char *buf, size_t size, u32 ms)
{
	int n;

	if (ms < 1000 || ms % 1000 == 0) {
		snprintf(buf, size, ms < 1000 ? "%ums" : "%us", ms < 1000 ? ms : ms / 1000);
		return buf;
	}
	n = snprintf(buf, size, "%u.%03u", ms / 1000, ms % 1000);
	while (n > 0 && (size_t)n < size && buf[n - 1] == '0')
		buf[--n] = '\0';
	snprintf(buf + n, size - n, "s");
	return buf;
}

/* A DNS label (@max 63: a namespace) or subdomain (253: a Lease's name), as Kubernetes names. */
static bool dns_name(const char *s, size_t max, bool dots)
{
	size_t n = s ? strlen(s) : 0;

	if (!n || n > max || !isalnum((unsigned char)s[0]) || !isalnum((unsigned char)s[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = s[i];

		if (!(islower(ch) || isdigit(ch) || ch == '-' || (dots && ch == '.')))
			return false;
	}
	return true;
}

static void defaults(const struct kle_config *cfg, u32 *lease, u32 *renew, u32 *retry)
{
	*lease = cfg->lease_ms ? cfg->lease_ms : KLE_LEASE_MS;
	*renew = cfg->renew_ms ? cfg->renew_ms : KLE_RENEW_MS;
	*retry = cfg->retry_ms ? cfg->retry_ms : KLE_RETRY_MS;
}

int kle_config_check(const struct kle_config *cfg, struct vsnl_err *err)
{
	char a[32], b[32];
	u32 lease, renew, retry;

	defaults(cfg, &lease, &renew, &retry);
	if (!dns_name(cfg->ns, 63, false))
		return vsnl_err_set(err, EINVAL, "--leader-elect-resource-namespace \"%s\": not a "
				    "namespace (lowercase letters, digits and '-', at most 63)",
				    cfg->ns ? cfg->ns : "");
	if (!dns_name(cfg->name, 253, true))
		return vsnl_err_set(err, EINVAL, "--leader-elect-resource-name \"%s\": not a Lease "
				    "name (lowercase letters, digits, '-' and '.', at most 253)",
				    cfg->name ? cfg->name : "");
	if (lease <= renew)
		return vsnl_err_set(err, EINVAL, "--leader-elect-lease-duration (%s) must be "
				    "greater than --leader-elect-renew-deadline (%s)",
				    fmt_ms(a, sizeof(a), lease), fmt_ms(b, sizeof(b), renew));
	/* client-go's JitterFactor: a retry may wait up to 1.2 periods more. */
	if ((u64)renew * 5 <= (u64)retry * 6)
		return vsnl_err_set(err, EINVAL, "--leader-elect-renew-deadline (%s) must be "
				    "greater than 1.2 times --leader-elect-retry-period (%s)",
				    fmt_ms(a, sizeof(a), renew), fmt_ms(b, sizeof(b), retry));
	/* The Lease says whole seconds: under one, others would see 0 and never wait. */
	if (lease < 1000)
		return vsnl_err_set(err, EINVAL, "--leader-elect-lease-duration (%s) must be at "
				    "least 1s: a Lease holds whole seconds",
				    fmt_ms(a, sizeof(a), lease));
	return 0;
}

/* client-go's users' identity: the hostname, '_', a random (version 4) UUID. */
static char *default_identity(void)
{
	char host[256], *id;
	u8 u[16];

	if (gethostname(host, sizeof(host)) || !host[0])
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	if (getrandom(u, sizeof(u), 0) != sizeof(u)) {
		/* No entropy yet: the clock and the process keep replicas apart still. */
		u64 a = kinf_clock_ms() ^ ((u64)getpid() << 32), b = (u64)time(NULL);

		memcpy(u, &a, 8);
		memcpy(u + 8, &b, 8);
	}
	u[6] = (u[6] & 0x0f) | 0x40;
	u[8] = (u[8] & 0x3f) | 0x80;
	if (asprintf(&id, "%s_%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		     host, u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10],
		     u[11], u[12], u[13], u[14], u[15]) < 0)
		return NULL;
	return id;
}

struct kle *kle_new(struct kcl *c, const struct kle_config *cfg, const struct kle_ops *ops,
		    void *ctx, struct vsnl_err *err)
{
	struct kle *le;

	if (kle_config_check(cfg, err))
		return NULL;
	if (!ops->started || !ops->stopped) {
		vsnl_err_set(err, EINVAL, "leader election needs started and stopped callbacks");
		return NULL;
	}
	le = calloc(1, sizeof(*le));
	if (!le)
		goto nomem;
	le->c = c;
	le->ops = ops;
	le->ctx = ctx;
	defaults(cfg, &le->lease_ms, &le->renew_ms, &le->retry_ms);
	le->identity = cfg->identity && *cfg->identity ? strdup(cfg->identity) :
							  default_identity();
	le->ns = strdup(cfg->ns);
	le->name = strdup(cfg->name);
	if (!le->identity || !le->ns || !le->name)
		goto nomem;
	if (asprintf(&le->desc, "%s/%s", cfg->ns, cfg->name) < 0) {
		le->desc = NULL;
		goto nomem;
	}
	if (asprintf(&le->coll, KLE_API "/namespaces/%s/leases", cfg->ns) < 0) {
		le->coll = NULL;
		goto nomem;
	}
	if (asprintf(&le->path, "%s/%s", le->coll, cfg->name) < 0) {
		le->path = NULL;
		goto nomem;
	}
	le->obs.holder = strdup("");
	le->reported = strdup("");
	if (!le->obs.holder || !le->reported)
		goto nomem;
	le->rnd = (u64)(uintptr_t)le ^ kinf_clock_ms() ^ ((u64)getpid() << 40);
	return le;

nomem:
	kle_free(le);
	vsnl_err_set(err, ENOMEM, "out of memory");
	return NULL;
}

static void record_clear(struct kle_record *r)
{
	free(r->holder);
	memset(r, 0, sizeof(*r));
}

void kle_free(struct kle *le)
{
	if (!le)
		return;
	if (le->req)
		kcl_cancel(le->req);
	json_decref(le->lease);
	record_clear(&le->obs);
	record_clear(&le->want);
	free(le->obs_raw);
	free(le->reported);
	free(le->identity);
	free(le->ns);
	free(le->name);
	free(le->desc);
	free(le->path);
	free(le->coll);
	free(le);
}

bool kle_is_leader(const struct kle *le)
{
	return le->leading;
}

bool kle_done(const struct kle *le)
{
	return le->state == KLE_DONE;
}

const char *kle_identity(const struct kle *le)
{
	return le->identity;
}

const char *kle_leader(const struct kle *le)
{
	return le->obs.holder;
}

const struct kle_stats *kle_stats(const struct kle *le)
{
	return &le->st;
}

static void trouble(struct kle *le, const char *fmt, ...) __printf(2, 3);

static void trouble(struct kle *le, const char *fmt, ...)
{
	char what[512];
	int n;
	va_list ap;

	if (!le->ops->trouble)
		return;
	n = snprintf(what, sizeof(what), "lease %s: ", le->desc);
	va_start(ap, fmt);
	vsnprintf(what + n, sizeof(what) - n, fmt, ap);
	va_end(ap);
	le->ops->trouble(le, what, le->ctx);
}

/* ---- the Lease on the wire ---- */

static int digits(const char *s, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + s[i] - '0';
	}
	return v;
}

/* RFC 3339, as Go's time.Parse reads a MicroTime: "2026-11-23T10:00:00.000000Z". */
static bool time_valid(const char *s)
{
	static const u8 mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, mo, d, n = 0;

	if (strlen(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
	    s[16] != ':')
		return false;
	y = digits(s, 4);
	mo = digits(s + 5, 2);
	d = digits(s + 8, 2);
	if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] ||
	    (mo == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400))))
		return false;
	if (digits(s + 11, 2) < 0 || digits(s + 11, 2) > 23 || digits(s + 14, 2) < 0 ||
	    digits(s + 14, 2) > 59 || digits(s + 17, 2) < 0 || digits(s + 17, 2) > 59)
		return false;
	s += 19;
	if (*s == '.') {
		while (isdigit((unsigned char)s[1 + n]))
			n++;
		if (n < 1 || n > 9)
			return false;
		s += 1 + n;
	}
	if (!strcmp(s, "Z"))
		return true;
	return (s[0] == '+' || s[0] == '-') && digits(s + 1, 2) >= 0 && digits(s + 1, 2) <= 23 &&
	       s[3] == ':' && digits(s + 4, 2) >= 0 && digits(s + 4, 2) <= 59 && !s[6];
}

/* Now, as a MicroTime: UTC, microseconds. */
static void time_now(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;
	char date[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, size, "%s.%06uZ", date, (u32)(ts.tv_nsec / 1000) % 1000000);
}

/* A value for a message: short, whatever it is. */
static const char *shown(json_t *v, char *buf, size_t size)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);

	snprintf(buf, size, "%.60s%s", s ? s : "?", s && strlen(s) > 60 ? "..." : "");
	free(s);
	return buf;
}

/* An integer field of the spec: absent or null is 0, as client-go reads a nil pointer. */
static int spec_int(json_t *spec, const char *key, s64 *out, struct vsnl_err *err)
{
	json_t *v = json_object_get(spec, key);
	char buf[80];

	*out = 0;
	if (!v || json_is_null(v))
		return 0;
	/* int32 in the API; a negative one the apiserver would have refused. */
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > INT32_MAX)
		return vsnl_err_set(err, EINVAL, "spec.%s is not an integer from 0 to %d: %s", key,
				    INT32_MAX, shown(v, buf, sizeof(buf)));
	*out = json_integer_value(v);
	return 0;
}

static int spec_time(json_t *spec, const char *key, char *out, size_t size, struct vsnl_err *err)
{
	json_t *v = json_object_get(spec, key);
	char buf[80];

	out[0] = '\0';
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v) || !time_valid(json_string_value(v)))
		return vsnl_err_set(err, EINVAL, "spec.%s is not an RFC 3339 time: %s", key,
				    shown(v, buf, sizeof(buf)));
	snprintf(out, size, "%s", json_string_value(v));
	return 0;
}

/*
 * Read a Lease the server sent: the object, its record, and the spec as
 * compact JSON with sorted keys (to tell a change of the record). Anything
 * not as the API defines it is refused with @err, never half-used.
 */
static int lease_parse(const char *body, size_t len, json_t **out, struct kle_record *rec,
		       char **raw, struct vsnl_err *err)
{
	json_t *obj, *spec, *holder;
	const char *rv;
	json_error_t jerr;
	char buf[80];

	memset(rec, 0, sizeof(*rec));
	obj = json_loadb(body, len, 0, &jerr);
	if (!json_is_object(obj)) {
		vsnl_err_set(err, EINVAL, "not a JSON object: %s",
			     obj ? "another value" : jerr.text);
		goto bad;
	}
	rv = json_string_value(json_object_get(json_object_get(obj, "metadata"),
					       "resourceVersion"));
	if (!rv || !*rv) {
		vsnl_err_set(err, EINVAL, "no metadata.resourceVersion");
		goto bad;
	}
	spec = json_object_get(obj, "spec");
	if (spec && !json_is_null(spec) && !json_is_object(spec)) {
		vsnl_err_set(err, EINVAL, "spec is not an object: %s",
			     shown(spec, buf, sizeof(buf)));
		goto bad;
	}
	holder = json_object_get(spec, "holderIdentity");
	if (holder && !json_is_null(holder) && !json_is_string(holder)) {
		vsnl_err_set(err, EINVAL, "spec.holderIdentity is not a string: %s",
			     shown(holder, buf, sizeof(buf)));
		goto bad;
	}
	if (spec_int(spec, "leaseDurationSeconds", &rec->duration_s, err) ||
	    spec_int(spec, "leaseTransitions", &rec->transitions, err) ||
	    spec_time(spec, "acquireTime", rec->acquire, sizeof(rec->acquire), err) ||
	    spec_time(spec, "renewTime", rec->renew, sizeof(rec->renew), err))
		goto bad;
	rec->holder = strdup(json_string_value(holder) ?: "");
	*raw = json_dumps(spec ?: json_null(), JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	if (!rec->holder || !*raw) {
		free(*raw);
		*raw = NULL;
		vsnl_err_set(err, ENOMEM, "out of memory");
		goto bad;
	}
	*out = obj;
	return 0;

bad:
	record_clear(rec);
	json_decref(obj);
	return -EINVAL;
}

static json_t *time_json(const char *t)
{
	return *t ? json_string(t) : json_null();
}

/* @base (the Lease read, or NULL to create it) with @rec as its spec. */
static char *lease_body(struct kle *le, json_t *base, const struct kle_record *rec)
{
	json_t *obj, *spec;
	char *body = NULL;

	obj = base ? json_deep_copy(base) :
		     json_pack("{s:{s:s, s:s}}", "metadata", "name", le->name, "namespace", le->ns);
	spec = json_pack("{s:s, s:I, s:o, s:o, s:I}", "holderIdentity", rec->holder,
			 "leaseDurationSeconds", (json_int_t)rec->duration_s, "acquireTime",
			 time_json(rec->acquire), "renewTime", time_json(rec->renew),
			 "leaseTransitions", (json_int_t)rec->transitions);
	if (obj && spec && !json_object_set_new(obj, "apiVersion",
						json_string("coordination.k8s.io/v1")) &&
	    !json_object_set_new(obj, "kind", json_string("Lease")) &&
	    !json_object_set(obj, "spec", spec))
		body = json_dumps(obj, JSON_COMPACT);
	json_decref(spec);
	json_decref(obj);
	return body;
}

static struct kcl_req *send_lease(struct kle *le, const char *method, const char *path,
				  json_t *base, const struct kle_record *rec, kcl_done_fn done)
{
	char *body = lease_body(le, base, rec);
	struct kcl_req *r;

	if (!body)
		return NULL;
	r = kcl_request(le->c, method, path, "application/json", body, strlen(body), done, le);
	free(body);
	return r;
}

/* Our record to write: the holder, the duration, renewed now. */
static int want_set(struct kle *le, const char *holder, s64 duration_s, const char *acquire,
		    s64 transitions)
{
	char *h = strdup(holder);

	if (!h)
		return -ENOMEM;
	record_clear(&le->want);
	le->want.holder = h;
	le->want.duration_s = duration_s;
	le->want.transitions = transitions;
	time_now(le->want.renew, sizeof(le->want.renew));
	if (acquire)
		snprintf(le->want.acquire, sizeof(le->want.acquire), "%s", acquire);
	else
		memcpy(le->want.acquire, le->want.renew, sizeof(le->want.acquire));
	return 0;
}

/* The record we wrote is what we observe now (client-go's setObservedRecord). */
static void observe_want(struct kle *le, u64 now)
{
	record_clear(&le->obs);
	le->obs = le->want;
	memset(&le->want, 0, sizeof(le->want));
	le->obs_time = now;
}

/* Keep the server's answer to a write as the base of the next one. */
static void keep_lease(struct kle *le, const char *body, size_t len)
{
	json_t *obj = json_loadb(body, len, 0, NULL);
	const char *rv = json_string_value(json_object_get(json_object_get(obj, "metadata"),
							   "resourceVersion"));

	json_decref(le->lease);
	le->lease = NULL;
	if (rv && *rv) {
		le->lease = obj;
		return;
	}
	/* Without it the next renewal reads the Lease first: slower, as safe. */
	trouble(le, "the server's answer to a write is not a Lease with a resourceVersion");
	json_decref(obj);
}

/* ---- attempts ---- */

static bool holds(const struct kle *le)
{
	return !strcmp(le->obs.holder, le->identity);
}

/* The record last observed is still valid: it has not changed for its duration, on our clock. */
static bool valid(const struct kle *le, u64 now)
{
	return le->obs_time + (u64)le->obs.duration_s * 1000 > now;
}

static s64 lease_s(const struct kle *le)
{
	return le->lease_ms / 1000;
}

/* client-go's wait.Jitter(retryPeriod, 1.2): between 1 and 2.2 periods. */
static void acquire_later(struct kle *le, u64 now)
{
	u64 spread = (u64)le->retry_ms * 6 / 5;

	le->rnd = le->rnd * 6364136223846793005ULL + 1442695040888963407ULL;
	le->state = KLE_WAITING;
	le->due = now + le->retry_ms + (le->rnd >> 33) % (spread + 1);
}

/* The next round of renewals, due at @due: it must succeed within the renew deadline. */
static void renew_at(struct kle *le, u64 due)
{
	le->state = KLE_WAITING;
	le->due = due;
	/*
	 * From when it is due rather than from when it starts (client-go):
	 * the same when the loop is on time, and a loop that was held up finds
	 * the deadline passed instead of granting itself another.
	 */
	le->poll_deadline = due + le->renew_ms;
}

static void report_leader(struct kle *le)
{
	char *h;

	if (!strcmp(le->reported, le->obs.holder))
		return;
	h = strdup(le->obs.holder);
	if (!h)
		return;
	free(le->reported);
	le->reported = h;
	if (le->ops->new_leader)
		le->ops->new_leader(le, h, le->ctx);
}

static void release_start(struct kle *le, u64 now);

static void lose(struct kle *le, u64 now)
{
	char a[32];

	if (le->req) {
		kcl_cancel(le->req);
		le->req = NULL;
	}
	le->leading = false;
	le->st.lost++;
	trouble(le, "not renewed within the renew deadline (%s): no longer the leader",
		fmt_ms(a, sizeof(a), le->renew_ms));
	acquire_later(le, now);
	le->ops->stopped(le, false, le->ctx);
}

/* An attempt ended, @ok when the Lease is ours (created, taken or renewed). */
static void attempt_end(struct kle *le, bool ok)
{
	u64 now = kinf_clock_ms(), next;

	le->req = NULL;
	report_leader(le);
	if (le->releasing) {
		if (holds(le))
			release_start(le, now);
		else
			le->state = KLE_DONE;
		return;
	}
	if (ok) {
		renew_at(le, now + le->retry_ms);
		if (le->leading) {
			le->st.renewed++;
			return;
		}
		le->leading = true;
		le->st.acquired++;
		le->ops->started(le, le->ctx);
		return;
	}
	if (!le->leading) {
		acquire_later(le, now);
		return;
	}
	/* Leading: retry every period (not sliding) until the deadline. */
	next = le->attempt_start + le->retry_ms;
	le->state = KLE_WAITING;
	le->due = next > now ? next : now;
}

static void failed(struct kle *le)
{
	le->st.failures++;
	attempt_end(le, false);
}

static void sent(struct kle *le, struct kcl_req *r, u64 *count)
{
	le->req = r;
	if (r) {
		(*count)++;
		return;
	}
	trouble(le, "out of memory");
	failed(le);
}

static void written(struct kle *le, long status, const char *body, size_t len, const char *why,
		    const char *method)
{
	if (status == 200 || status == 201) {
		keep_lease(le, body, len);
		observe_want(le, kinf_clock_ms());
		attempt_end(le, true);
		return;
	}
	if (status == 409) {
		/* Another candidate wrote first: the next attempt reads what it wrote. */
		le->st.conflicts++;
		attempt_end(le, false);
		return;
	}
	trouble(le, "%s: %s", method, status ? body : why);
	failed(le);
}

static void create_done(struct kcl_req *r, long status, const char *body, size_t len,
			const char *why, void *arg)
{
	((struct kle *)arg)->req = NULL;
	written(arg, status, body, len, why, "create");
}

static void update_done(struct kcl_req *r, long status, const char *body, size_t len,
			const char *why, void *arg)
{
	((struct kle *)arg)->req = NULL;
	written(arg, status, body, len, why, "update");
}

static void get_done(struct kcl_req *r, long status, const char *body, size_t len,
		     const char *why, void *arg)
{
	struct kle *le = arg;
	struct vsnl_err err = { 0 };
	struct kle_record rec;
	json_t *obj;
	char *raw;
	u64 now = kinf_clock_ms();

	le->req = NULL;
	if (status == 404) {
		if (le->releasing) {
			attempt_end(le, false);
			return;
		}
		if (want_set(le, le->identity, lease_s(le), NULL, 0)) {
			trouble(le, "out of memory");
			failed(le);
			return;
		}
		sent(le, send_lease(le, "POST", le->coll, NULL, &le->want, create_done),
		     &le->st.creates);
		return;
	}
	if (status != 200) {
		trouble(le, "get: %s", status ? body : why);
		failed(le);
		return;
	}
	if (lease_parse(body, len, &obj, &rec, &raw, &err)) {
		trouble(le, "a malformed Lease: %s", err.msg);
		failed(le);
		return;
	}
	json_decref(le->lease);
	le->lease = obj;
	if (!le->obs_raw || strcmp(le->obs_raw, raw)) {
		record_clear(&le->obs);
		le->obs = rec;
		free(le->obs_raw);
		le->obs_raw = raw;
		le->obs_time = now;
	} else {
		record_clear(&rec);
		free(raw);
	}
	if (le->obs.holder[0] && valid(le, now) && !holds(le)) {
		le->st.held++;
		attempt_end(le, false);
		return;
	}
	if (le->releasing) {
		/* Shutting down: write nothing more than the release. */
		attempt_end(le, false);
		return;
	}
	/* Ours: renew it as it is. Free or expired: take it, one more transition. */
	if (holds(le) ? want_set(le, le->identity, lease_s(le), le->obs.acquire,
				 le->obs.transitions) :
			want_set(le, le->identity, lease_s(le), NULL,
				 le->obs.transitions < INT32_MAX ? le->obs.transitions + 1 :
								  INT32_MAX)) {
		trouble(le, "out of memory");
		failed(le);
		return;
	}
	sent(le, send_lease(le, "PUT", le->path, le->lease, &le->want, update_done),
	     &le->st.updates);
}

static void send_get(struct kle *le)
{
	sent(le, kcl_request(le->c, "GET", le->path, NULL, NULL, 0, get_done, le), &le->st.gets);
}

/*
 * The leader's renewal from the Lease it last wrote: when that fails (409:
 * someone else wrote it), the same attempt goes on as anyone's, by a read.
 */
static void fast_done(struct kcl_req *r, long status, const char *body, size_t len,
		      const char *why, void *arg)
{
	struct kle *le = arg;

	le->req = NULL;
	if (status == 200) {
		keep_lease(le, body, len);
		observe_want(le, kinf_clock_ms());
		attempt_end(le, true);
		return;
	}
	if (status == 409)
		le->st.conflicts++;
	if (le->releasing) {
		attempt_end(le, false);
		return;
	}
	send_get(le);
}

static void attempt_start(struct kle *le, u64 now)
{
	le->st.attempts++;
	le->state = KLE_TRYING;
	le->attempt_start = now;
	/* Renewals have the round's deadline; anyone else's attempt as long. */
	le->deadline = le->leading ? le->poll_deadline : now + le->renew_ms;
	if (le->releasing && le->deadline > le->release_by)
		le->deadline = le->release_by;
	if (holds(le) && valid(le, now) && le->lease) {
		if (want_set(le, le->identity, lease_s(le), le->obs.acquire,
			     le->obs.transitions)) {
			trouble(le, "out of memory");
			failed(le);
			return;
		}
		sent(le, send_lease(le, "PUT", le->path, le->lease, &le->want, fast_done),
		     &le->st.updates);
		return;
	}
	send_get(le);
}

void kle_start(struct kle *le)
{
	if (le->state == KLE_IDLE)
		attempt_start(le, kinf_clock_ms());
}

/* ---- release ---- */

static void release_get_done(struct kcl_req *r, long status, const char *body, size_t len,
			     const char *why, void *arg);

static void release_put_done(struct kcl_req *r, long status, const char *body, size_t len,
			     const char *why, void *arg)
{
	struct kle *le = arg;

	le->req = NULL;
	if (status == 200) {
		le->st.released++;
		observe_want(le, kinf_clock_ms());
		le->state = KLE_DONE;
		return;
	}
	if (status == 409) {
		/* Written meanwhile (by us, a renewal in flight): read it again. */
		le->st.conflicts++;
		release_start(le, kinf_clock_ms());
		return;
	}
	trouble(le, "release: %s", status ? body : why);
	le->state = KLE_DONE;
}

static void release_get_done(struct kcl_req *r, long status, const char *body, size_t len,
			     const char *why, void *arg)
{
	struct kle *le = arg;
	struct vsnl_err err = { 0 };
	struct kle_record rec;
	json_t *obj;
	char *raw;

	le->req = NULL;
	le->state = KLE_DONE;
	if (status != 200) {
		trouble(le, "release: %s", status == 404 ? "the Lease is not there" :
			status ? body : why);
		return;
	}
	if (lease_parse(body, len, &obj, &rec, &raw, &err)) {
		trouble(le, "release: a malformed Lease: %s", err.msg);
		return;
	}
	free(raw);
	/*
	 * Only if the server says it is ours: client-go asks its last
	 * observation instead, and would clear the Lease of a leader that took
	 * over while we could not see it.
	 */
	if (strcmp(rec.holder, le->identity) ||
	    want_set(le, "", 1, NULL, rec.transitions)) {
		record_clear(&rec);
		json_decref(obj);
		return;
	}
	record_clear(&rec);
	le->state = KLE_RELEASING;
	le->req = send_lease(le, "PUT", le->path, obj, &le->want, release_put_done);
	json_decref(obj);
	if (!le->req) {
		trouble(le, "release: out of memory");
		le->state = KLE_DONE;
		return;
	}
	le->st.updates++;
}

static void release_start(struct kle *le, u64 now)
{
	if (now >= le->release_by) {
		trouble(le, "release: no time left");
		le->state = KLE_DONE;
		return;
	}
	le->state = KLE_RELEASING;
	le->deadline = le->release_by;
	le->req = kcl_request(le->c, "GET", le->path, NULL, NULL, 0, release_get_done, le);
	if (!le->req) {
		trouble(le, "release: out of memory");
		le->state = KLE_DONE;
		return;
	}
	le->st.gets++;
}

void kle_release(struct kle *le)
{
	u64 now = kinf_clock_ms();
	bool was = le->leading;

	if (le->releasing || le->state == KLE_DONE)
		return;
	le->releasing = true;
	le->leading = false;
	le->release_by = now + le->renew_ms;
	switch (le->state) {
	case KLE_TRYING:
		/* Let it finish: a write that made us the holder is undone then. */
		if (le->deadline > le->release_by)
			le->deadline = le->release_by;
		break;
	case KLE_WAITING:
		if (holds(le))
			release_start(le, now);
		else
			le->state = KLE_DONE;
		break;
	default:
		le->state = KLE_DONE;
		break;
	}
	if (was)
		le->ops->stopped(le, true, le->ctx);
}

/* ---- time ---- */

static u64 next_due(const struct kle *le)
{
	switch (le->state) {
	case KLE_WAITING:
		return le->leading && le->poll_deadline < le->due ? le->poll_deadline : le->due;
	case KLE_TRYING:
	case KLE_RELEASING:
		return le->deadline;
	default:
		return UINT64_MAX;
	}
}

u64 kle_tick(struct kle *le, u64 now)
{
	char a[32];

	switch (le->state) {
	case KLE_WAITING:
		if (le->leading && now >= le->poll_deadline)
			lose(le, now);
		else if (now >= le->due)
			attempt_start(le, now);
		break;
	case KLE_TRYING:
		if (now < le->deadline)
			break;
		if (le->leading) {
			lose(le, now);
			break;
		}
		kcl_cancel(le->req);
		le->req = NULL;
		trouble(le, "no answer within %s", fmt_ms(a, sizeof(a), le->renew_ms));
		failed(le);
		break;
	case KLE_RELEASING:
		if (now < le->deadline)
			break;
		kcl_cancel(le->req);
		le->req = NULL;
		trouble(le, "release: no answer within %s", fmt_ms(a, sizeof(a), le->renew_ms));
		le->state = KLE_DONE;
		break;
	default:
		break;
	}
	return next_due(le);
}
