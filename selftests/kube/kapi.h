/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kapiserver: a test Kubernetes API server for the bridge's tests
 * (Documentation/kube-test-apiserver.md).
 *
 * One process, one thread, one loop (kapiserver.c) around libmicrohttpd in
 * its external polling mode. The resources it serves are a table
 * (resources.c); every object lives in the store (store.c) as an immutable
 * jansson value: a write replaces the object and appends an event to the
 * history, which keeps the old and new values by reference. Watches
 * (watch.c) are suspended connections that read that history.
 *
 * Invariant: the history holds exactly the events of resourceVersions
 * compacted + 1 .. rv, one event for each; every write takes the next one.
 */
#ifndef KAPI_H
#define KAPI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <jansson.h>
#include <microhttpd.h>

#include "core/list.h"

/* Subresources a resource serves beside itself. */
#define KAPI_SUB_STATUS		(1u << 0)
#define KAPI_SUB_BINDING	(1u << 1)
#define KAPI_SUB_EVICTION	(1u << 2)

struct kapi_resource {
	const char *group;		/* "" for the core group */
	const char *version;
	const char *plural;		/* the path segment: "pods" */
	const char *singular;
	const char *kind;
	const char *list_kind;		/* "PodList" */
	const char *const *short_names;	/* NULL-terminated, or NULL */
	const char *const *categories;
	/* Field selector labels beyond metadata.name and metadata.namespace. */
	const char *const *fields;
	unsigned int subs;		/* KAPI_SUB_* */
	bool namespaced;
	/*
	 * With a status subresource, what a create does to the status given:
	 * keep it (nodes), or replace it with this JSON ("" drops it).
	 */
	bool status_on_create;
	const char *create_status;
};

extern const struct kapi_resource kapi_resources[];
extern const size_t kapi_nr_resources;

const struct kapi_resource *kapi_resource_find(const char *group, const char *version,
					       const char *plural);
const struct kapi_resource *kapi_resource_by_name(const char *plural);
/* "v1" or "group/version". */
const char *kapi_resource_api_version(const struct kapi_resource *res, char *buf, size_t len);
bool kapi_resource_has_field(const struct kapi_resource *res, const char *field);

/* Discovery documents; NULL when the group or version is not served. */
json_t *kapi_discovery_core_versions(const char *server_addr);
json_t *kapi_discovery_groups(void);
json_t *kapi_discovery_group(const char *group);
json_t *kapi_discovery_resources(const char *group, const char *version);
json_t *kapi_discovery_version(void);
/* The little of OpenAPI v3 that tells kubectl the server validates fields. */
json_t *kapi_openapi_root(void);
json_t *kapi_openapi_gv(const char *group, const char *version);

/* ---- the store ---- */

enum kapi_event_type {
	KAPI_ADDED,
	KAPI_MODIFIED,
	KAPI_DELETED,
};

struct kapi_event {
	uint64_t rv;
	const struct kapi_resource *res;
	enum kapi_event_type type;
	json_t *obj;	/* the new value; for DELETED, the last one at this rv */
	json_t *prev;	/* the value before, NULL for ADDED */
};

struct kapi_object {
	char *key;	/* "namespace/name" or "name": etcd's order */
	json_t *obj;
};

struct kapi_table {
	struct kapi_object *v;	/* sorted by key */
	size_t n, cap;
};

struct kapi_store {
	uint64_t rv;		/* the last resourceVersion given */
	uint64_t compacted;	/* events up to this one are gone */
	struct kapi_table *tables;	/* one per kapi_resources[] entry */
	struct kapi_event *hist;	/* ring of hist_cap, indexed by rv % cap */
	size_t hist_cap;
};

int kapi_store_init(struct kapi_store *s, size_t history);
void kapi_store_fini(struct kapi_store *s);
struct kapi_table *kapi_store_table(struct kapi_store *s, const struct kapi_resource *res);
/* The key of an object: "ns/name" for namespaced resources. */
char *kapi_key(const struct kapi_resource *res, const char *ns, const char *name);
/* The first index whose key is >= key (or > key when after). */
size_t kapi_table_seek(const struct kapi_table *t, const char *key, bool after);
json_t *kapi_store_get(struct kapi_store *s, const struct kapi_resource *res,
		       const char *ns, const char *name);
/*
 * Store obj (a reference is taken over) as the new value of its key, with
 * the next resourceVersion written into its metadata. Returns the rv, or 0
 * without memory (nothing changed then).
 */
uint64_t kapi_store_put(struct kapi_store *s, const struct kapi_resource *res, json_t *obj);
uint64_t kapi_store_delete(struct kapi_store *s, const struct kapi_resource *res,
			   const char *ns, const char *name);
/* The event of resourceVersion rv, NULL when compacted or not yet written. */
const struct kapi_event *kapi_store_event(const struct kapi_store *s, uint64_t rv);
void kapi_store_compact(struct kapi_store *s);

/* ---- selectors ---- */

struct kapi_selector;

/* Parse a labelSelector or fieldSelector; NULL and a message on error. */
struct kapi_selector *kapi_selector_parse(const char *text, bool fields,
					  const struct kapi_resource *res,
					  char *err, size_t errlen);
bool kapi_selector_match(const struct kapi_selector *sel, json_t *obj);
/* Whether @sel selects everything (no requirement). */
bool kapi_selector_empty(const struct kapi_selector *sel);
void kapi_selector_free(struct kapi_selector *sel);

/* ---- the server ---- */

struct kapi_options {
	const char *port_file;
	const char *load;		/* --load FILE, or NULL */
	unsigned int port;
	unsigned int bookmark_ms;	/* between BOOKMARK events */
	size_t history;			/* events kept for watches */
	unsigned int creation_step;	/* --creation-step S: s between creations, 0: none */
	bool verbose;
};

struct kapi_counters {
	uint64_t requests;
	uint64_t writes;
	uint64_t bindings;
	uint64_t evictions;
	uint64_t watches;	/* watches opened */
};

/* The last KAPI_LOG_SIZE requests, for tests to see who wrote what. */
#define KAPI_LOG_SIZE	1024

struct kapi_log_entry {
	uint64_t seq;		/* 0: unused */
	char method[12];
	unsigned int code;
	bool watch;		/* a GET with watch=1 (the path has no query) */
	char *path;
	char *agent;
};

struct kapi_server {
	struct kapi_options opts;
	struct kapi_store store;
	struct MHD_Daemon *daemon;
	unsigned int port;
	struct list_head watches;	/* struct kapi_watch.node */
	struct kapi_counters counters;
	/* /__test/fail-bindings: the next fail_count bindings fail so. */
	unsigned int fail_count;
	unsigned int fail_code;
	char *fail_message;
	struct kapi_log_entry log[KAPI_LOG_SIZE];	/* by seq % KAPI_LOG_SIZE */
	uint64_t log_seq;				/* the last one given */
	time_t last_created;				/* the last creationTimestamp given */
};

/* One request: its body is gathered over several calls of the handler. */
struct kapi_req {
	struct kapi_server *srv;
	struct MHD_Connection *conn;
	const char *method;
	const char *url;
	char *agent;		/* User-Agent, for the request log */
	char *body;
	size_t len, cap;
	bool too_large;
	bool watch;		/* a watch, for the log */
	unsigned int code;	/* the reply's status, for the log */
};

uint64_t kapi_now_ms(void);
const char *kapi_arg(const struct kapi_req *req, const char *name);

/* Replies: each queues a response and returns what the handler returns. */
enum MHD_Result kapi_reply_json(struct kapi_req *req, unsigned int code, json_t *obj);
enum MHD_Result kapi_reply_status(struct kapi_req *req, unsigned int code, const char *reason,
				  const struct kapi_resource *res, const char *name,
				  const char *fmt, ...) __attribute__((format(printf, 6, 7)));
json_t *kapi_status_new(unsigned int code, const char *reason, const struct kapi_resource *res,
			const char *name, const char *msg);
const char *kapi_reason(unsigned int code);
/* pods, or podgroups.scheduling.volcano.sh, as messages name resources. */
const char *kapi_qualified(const struct kapi_resource *res, char *buf, size_t len);

/* The HTTP daemon (http.c): listening on 127.0.0.1, srv->port set. */
int kapi_http_start(struct kapi_server *srv);
void kapi_http_stop(struct kapi_server *srv);

/* Requests under /api and /apis that name a resource (rest.c). */
enum MHD_Result kapi_rest(struct kapi_req *req, const struct kapi_resource *res,
			  const char *ns, const char *name, const char *sub);
/* The namespaces every cluster starts with: default, kube-system, ... */
int kapi_rest_init(struct kapi_server *srv);
/*
 * The metadata of an object to write: its shape, the name and namespace
 * the URL gives (url_name NULL on create), spec and status objects. Sets
 * the namespace (ns; dropped for a cluster-scoped kind). 0, or -1 with
 * the reason in why.
 */
int kapi_check_meta(const struct kapi_resource *res, json_t *obj, const char *ns,
		    const char *url_name, char *why, size_t len);

/*
 * kapiserver --load FILE (load.c): objects one JSON object a line, put in
 * the store as a restored etcd holds them. 0, or -1 with a message printed
 * that names the file and the line.
 */
int kapi_load(struct kapi_server *srv, const char *path);

/* Watches (watch.c). */
enum MHD_Result kapi_watch_start(struct kapi_req *req, const struct kapi_resource *res,
				 const char *ns, struct kapi_selector *labels,
				 struct kapi_selector *fields);
/* Resume the watches that have something to do; returns ms until the next. */
unsigned int kapi_watch_tick(struct kapi_server *srv);
unsigned int kapi_watch_drop_all(struct kapi_server *srv);
unsigned int kapi_watch_count(const struct kapi_server *srv);
void kapi_watch_stop_all(struct kapi_server *srv);

/* Test controls under /__test (testctl.c). */
enum MHD_Result kapi_testctl(struct kapi_req *req, const char *what);

/* Helpers (util.c). */
void kapi_timestamp(char *buf, size_t len);
/* A created object's creationTimestamp: now, or with --creation-step, later (util.c). */
void kapi_creation_timestamp(struct kapi_server *srv, char *buf, size_t len);
void kapi_uid(char *buf, size_t len);
void kapi_random_suffix(char *buf, size_t n);
/* Apply an RFC 7386 merge patch (or a strategic one, util.c) to a copy of target. */
json_t *kapi_merge_patch(json_t *target, json_t *patch, bool strategic);
char *kapi_base64url_encode(const char *data, size_t len);
char *kapi_base64url_decode(const char *text, size_t *len);
/* A lowercase RFC 1123 subdomain (label: at most 63, no dots). */
bool kapi_valid_name(const char *name, bool label);
/* The string at a dotted path ("spec.nodeName"), "" when absent. */
const char *kapi_field(json_t *obj, const char *path);
const char *kapi_meta_str(json_t *obj, const char *field);
bool kapi_parse_rv(const char *text, uint64_t *rv);

#endif /* KAPI_H */
