// SPDX-License-Identifier: Apache-2.0
/*
 * The REST verbs on a resource: get, list, create, update, patch, delete,
 * the status subresource, and the pods' binding and eviction. Each verb
 * validates the whole request before it touches the store, so a refused
 * request changes nothing; a write then goes to the store in one call.
 * Messages and reasons are the apiserver's, so that what a client shows
 * (kubectl's "Error from server (NotFound): pods "x" not found") reads the
 * same against kapiserver as against a cluster.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kapi.h"

#define DEFAULT_NAMESPACE "default"

static bool is(const struct kapi_req *req, const char *method)
{
	return !strcmp(req->method, method);
}

static enum MHD_Result not_allowed(struct kapi_req *req)
{
	return kapi_reply_status(req, 405, "MethodNotAllowed", NULL, NULL,
				 "the server does not allow this method on the requested resource");
}

static enum MHD_Result not_found(struct kapi_req *req, const struct kapi_resource *res,
				 const char *name)
{
	char q[160];

	return kapi_reply_status(req, 404, "NotFound", res, name, "%s \"%s\" not found",
				 kapi_qualified(res, q, sizeof(q)), name);
}

static enum MHD_Result conflict(struct kapi_req *req, const struct kapi_resource *res,
				const char *sub, const char *name, const char *why)
{
	char q[160];

	return kapi_reply_status(req, 409, "Conflict", res, name,
				 "Operation cannot be fulfilled on %s%s%s \"%s\": %s",
				 kapi_qualified(res, q, sizeof(q)), sub ? "/" : "", sub ? sub : "",
				 name, why);
}

static enum MHD_Result bad_request(struct kapi_req *req, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static enum MHD_Result bad_request(struct kapi_req *req, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return kapi_reply_status(req, 400, "BadRequest", NULL, NULL, "%s", msg);
}

/* The body as a JSON object, or a 400 (415) queued and NULL. */
static json_t *parse_body(struct kapi_req *req, enum MHD_Result *ret)
{
	const char *type = MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND,
						       MHD_HTTP_HEADER_CONTENT_TYPE);
	json_error_t jerr;
	json_t *obj;

	/* kubectl's "create namespace" and the like send protobuf: JSON only here. */
	if (type && strstr(type, "protobuf")) {
		*ret = kapi_reply_status(req, 415, "UnsupportedMediaType", NULL, NULL,
					 "the body of the request was in an unknown format - "
					 "accepted media types include: application/json");
		return NULL;
	}
	if (!req->len) {
		*ret = bad_request(req, "the request body is empty");
		return NULL;
	}
	obj = json_loadb(req->body, req->len, 0, &jerr);
	if (!obj) {
		*ret = kapi_reply_status(req, 400, "BadRequest", NULL, NULL,
					 "couldn't get version/kind; json parse error: %s "
					 "(line %d, column %d)", jerr.text, jerr.line, jerr.column);
		return NULL;
	}
	if (!json_is_object(obj)) {
		json_decref(obj);
		*ret = bad_request(req, "the request body must be a JSON object");
		return NULL;
	}
	return obj;
}

/* kind and apiVersion must be want_kind and want_av; 0, or -1 with a 400 queued. */
static int check_type(struct kapi_req *req, json_t *obj, const char *want_kind,
		      const char *want_av, const char *alt_av, enum MHD_Result *ret)
{
	json_t *kind = json_object_get(obj, "kind");
	json_t *av = json_object_get(obj, "apiVersion");

	if (!json_is_string(kind) || !json_string_length(kind)) {
		*ret = bad_request(req, "Object 'Kind' is missing in the request body");
		return -1;
	}
	if (!json_is_string(av) || !json_string_length(av)) {
		*ret = bad_request(req, "Object 'apiVersion' is missing in the request body");
		return -1;
	}
	if (strcmp(json_string_value(av), want_av) &&
	    !(alt_av && !strcmp(json_string_value(av), alt_av))) {
		*ret = bad_request(req, "the API version in the data (%s) does not match the "
				   "expected API version (%s)", json_string_value(av), want_av);
		return -1;
	}
	if (strcmp(json_string_value(kind), want_kind)) {
		*ret = bad_request(req, "the kind in the data (%s) does not match the expected "
				   "kind (%s)", json_string_value(kind), want_kind);
		return -1;
	}
	return 0;
}

static bool string_map(json_t *v)
{
	const char *k;
	json_t *x;

	if (!v)
		return true;
	if (!json_is_object(v))
		return false;
	json_object_foreach(v, k, x)
		if (!json_is_string(x))
			return false;
	return true;
}

int kapi_check_meta(const struct kapi_resource *res, json_t *obj, const char *ns,
		    const char *url_name, char *why, size_t len)
{
	json_t *meta = json_object_get(obj, "metadata");
	json_t *name, *bns, *rv;
	const char *n;

	if (!meta) {
		meta = json_object();
		json_object_set_new(obj, "metadata", meta);
	}
	if (!json_is_object(meta)) {
		snprintf(why, len, "metadata: must be an object");
		return -1;
	}
	name = json_object_get(meta, "name");
	bns = json_object_get(meta, "namespace");
	rv = json_object_get(meta, "resourceVersion");
	if ((name && !json_is_string(name)) || (bns && !json_is_string(bns)) ||
	    (rv && !json_is_string(rv)) ||
	    (json_object_get(meta, "generateName") &&
	     !json_is_string(json_object_get(meta, "generateName")))) {
		snprintf(why, len, "metadata: name, namespace, generateName and "
			 "resourceVersion must be strings");
		return -1;
	}
	if (!string_map(json_object_get(meta, "labels")) ||
	    !string_map(json_object_get(meta, "annotations"))) {
		snprintf(why, len, "metadata: labels and annotations must be maps of strings");
		return -1;
	}
	n = name ? json_string_value(name) : "";
	if (url_name && strcmp(n, url_name)) {
		snprintf(why, len, "the name of the object (%s) does not match the name on the "
			 "URL (%s)", n, url_name);
		return -1;
	}
	if (res->namespaced) {
		if (bns && json_string_length(bns) && strcmp(json_string_value(bns), ns)) {
			snprintf(why, len, "the namespace of the provided object (%s) does not "
				 "match the namespace sent on the request (%s)",
				 json_string_value(bns), ns);
			return -1;
		}
		json_object_set_new(meta, "namespace", json_string(ns));
	} else {
		json_object_del(meta, "namespace");
	}
	for (const char *const *f = (const char *const[]){ "spec", "status", NULL }; *f; f++) {
		json_t *v = json_object_get(obj, *f);

		if (v && !json_is_object(v) && !json_is_null(v)) {
			snprintf(why, len, "%s: must be an object", *f);
			return -1;
		}
	}
	return 0;
}

/* kapi_check_meta(), with a 400 queued when it fails. */
static int check_meta(struct kapi_req *req, const struct kapi_resource *res, json_t *obj,
		      const char *ns, const char *url_name, enum MHD_Result *ret)
{
	char why[1024];

	if (!kapi_check_meta(res, obj, ns, url_name, why, sizeof(why)))
		return 0;
	*ret = bad_request(req, "%s", why);
	return -1;
}

static enum MHD_Result invalid_name(struct kapi_req *req, const struct kapi_resource *res,
				    const char *name)
{
	bool label = !strcmp(res->plural, "namespaces");

	if (!name[0])
		return kapi_reply_status(req, 422, "Invalid", res, name,
					 "%s \"\" is invalid: metadata.name: Required value: "
					 "name or generateName is required", res->kind);
	return kapi_reply_status(req, 422, "Invalid", res, name,
				 "%s \"%s\" is invalid: metadata.name: Invalid value: \"%s\": "
				 "a lowercase RFC 1123 %s must consist of lower case alphanumeric "
				 "characters, '-'%s, and must start and end with an alphanumeric "
				 "character", res->kind, name, name, label ? "label" : "subdomain",
				 label ? "" : " or '.'");
}

static const struct kapi_resource *namespaces_res(void)
{
	return kapi_resource_by_name("namespaces");
}

static enum MHD_Result reply_object(struct kapi_req *req, unsigned int code, json_t *obj)
{
	return kapi_reply_json(req, code, json_incref(obj));
}

/* ---- reads ---- */

static enum MHD_Result do_get(struct kapi_req *req, const struct kapi_resource *res,
			      const char *ns, const char *name)
{
	json_t *obj = kapi_store_get(&req->srv->store, res, ns, name);

	return obj ? reply_object(req, 200, obj) : not_found(req, res, name);
}

static enum MHD_Result gone(struct kapi_req *req, const char *what, uint64_t a, uint64_t b)
{
	return kapi_reply_status(req, 410, "Expired", NULL, NULL, "%s (%llu, compacted at %llu)",
				 what, (unsigned long long)a, (unsigned long long)b);
}

/* A continue token: where the last page ended, and the revision of the first. */
static char *continue_token(uint64_t rv, const char *key)
{
	json_t *t = json_pack("{s:s, s:I, s:s}", "v", "meta.k8s.io/v1", "rv", (json_int_t)rv,
			      "start", key);
	char *text = t ? json_dumps(t, JSON_COMPACT) : NULL;
	char *tok = text ? kapi_base64url_encode(text, strlen(text)) : NULL;

	free(text);
	json_decref(t);
	return tok;
}

static int parse_continue(const char *tok, uint64_t *rv, char **key)
{
	size_t len;
	char *text = kapi_base64url_decode(tok, &len);
	json_t *t = text ? json_loadb(text, len, 0, NULL) : NULL;
	json_t *r = json_object_get(t, "rv"), *s = json_object_get(t, "start");
	int ret = -1;

	if (json_is_integer(r) && json_integer_value(r) >= 0 && json_is_string(s)) {
		*rv = (uint64_t)json_integer_value(r);
		*key = strdup(json_string_value(s));
		ret = *key ? 0 : -1;
	}
	json_decref(t);
	free(text);
	return ret;
}

static int parse_selectors(struct kapi_req *req, const struct kapi_resource *res,
			   struct kapi_selector **labels, struct kapi_selector **fields,
			   enum MHD_Result *ret)
{
	char err[256] = "";

	*labels = kapi_selector_parse(kapi_arg(req, "labelSelector"), false, res, err,
				      sizeof(err));
	if (*labels)
		*fields = kapi_selector_parse(kapi_arg(req, "fieldSelector"), true, res, err,
					      sizeof(err));
	if (*labels && *fields)
		return 0;
	kapi_selector_free(*labels);
	*labels = NULL;
	*ret = bad_request(req, "%s", err);
	return -1;
}

static bool arg_true(const struct kapi_req *req, const char *name)
{
	const char *v = kapi_arg(req, name);

	return v && (!strcmp(v, "1") || !strcmp(v, "true"));
}

static enum MHD_Result do_list(struct kapi_req *req, const struct kapi_resource *res,
			       const char *ns)
{
	struct kapi_store *s = &req->srv->store;
	struct kapi_table *t = kapi_store_table(s, res);
	const char *limit_arg = kapi_arg(req, "limit"), *cont = kapi_arg(req, "continue");
	const char *rv_arg = kapi_arg(req, "resourceVersion");
	const char *match = kapi_arg(req, "resourceVersionMatch");
	struct kapi_selector *labels, *fields;
	uint64_t limit = 0, list_rv = s->rv, rv = 0, remaining = 0;
	char *start = NULL, *prefix = NULL, *last = NULL, av[160];
	enum MHD_Result ret;
	json_t *items, *meta, *list;
	bool more = false;
	size_t i, end;

	if (limit_arg && limit_arg[0] && !kapi_parse_rv(limit_arg, &limit))
		return bad_request(req, "limit: invalid value \"%s\"", limit_arg);
	if (rv_arg && rv_arg[0] && !kapi_parse_rv(rv_arg, &rv))
		return bad_request(req, "resourceVersion: invalid value \"%s\"", rv_arg);
	if (cont && cont[0]) {
		if (parse_continue(cont, &list_rv, &start))
			return bad_request(req, "continue key is not valid: \"%s\"", cont);
		if (list_rv < s->compacted) {
			free(start);
			return gone(req, "The provided continue parameter is too old to display a "
				    "consistent list result. You can start a new list without the "
				    "continue parameter", list_rv, s->compacted);
		}
	} else if (rv > s->rv) {
		return kapi_reply_status(req, 504, "Timeout", NULL, NULL,
					 "Too large resource version: %llu, current: %llu",
					 (unsigned long long)rv, (unsigned long long)s->rv);
	} else if (match && !strcmp(match, "Exact") && rv != s->rv) {
		/* kapiserver keeps no snapshots: only the current revision is exact. */
		return gone(req, "too old resource version", rv, s->compacted);
	}
	if (parse_selectors(req, res, &labels, &fields, &ret)) {
		free(start);
		return ret;
	}

	items = json_array();
	if (ns && asprintf(&prefix, "%s/", ns) < 0)
		prefix = NULL;
	if (start)
		i = kapi_table_seek(t, start, true);
	else
		i = prefix ? kapi_table_seek(t, prefix, false) : 0;
	/* The namespace's keys end before "ns0" ('0' follows '/'). */
	end = t->n;
	if (prefix) {
		prefix[strlen(prefix) - 1] = '0';
		end = kapi_table_seek(t, prefix, false);
		prefix[strlen(prefix) - 1] = '/';
	}
	for (; i < end; i++) {
		struct kapi_object *o = &t->v[i];

		if (!kapi_selector_match(labels, o->obj) || !kapi_selector_match(fields, o->obj))
			continue;
		if (limit && json_array_size(items) == limit) {
			/*
			 * More follow. As the apiserver, count them only when
			 * nothing is filtered: then without looking at them.
			 */
			more = true;
			if (kapi_selector_empty(labels) && kapi_selector_empty(fields))
				remaining = end - i;
			break;
		}
		json_array_append(items, o->obj);
		last = o->key;
	}

	meta = json_object();
	{
		char buf[24];

		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)list_rv);
		json_object_set_new(meta, "resourceVersion", json_string(buf));
	}
	if (more && last) {
		char *tok = continue_token(list_rv, last);

		if (tok)
			json_object_set_new(meta, "continue", json_string(tok));
		free(tok);
		if (remaining)
			json_object_set_new(meta, "remainingItemCount",
					    json_integer((json_int_t)remaining));
	}
	list = json_pack("{s:s, s:s, s:o, s:o}", "kind", res->list_kind, "apiVersion",
			 kapi_resource_api_version(res, av, sizeof(av)), "metadata", meta,
			 "items", items);
	free(prefix);
	free(start);
	kapi_selector_free(labels);
	kapi_selector_free(fields);
	return kapi_reply_json(req, 200, list);
}

static enum MHD_Result do_watch(struct kapi_req *req, const struct kapi_resource *res,
				const char *ns)
{
	struct kapi_selector *labels, *fields;
	enum MHD_Result ret;

	if (parse_selectors(req, res, &labels, &fields, &ret))
		return ret;
	/* The watch owns the selectors from here, whatever happens. */
	return kapi_watch_start(req, res, ns, labels, fields);
}

/* ---- writes ---- */

/* The status a create leaves, by the resource's rule (kapi_resource). */
static void create_status(const struct kapi_resource *res, json_t *obj)
{
	if (!(res->subs & KAPI_SUB_STATUS) || res->status_on_create)
		return;
	json_object_del(obj, "status");
	if (res->create_status && res->create_status[0])
		json_object_set_new(obj, "status", json_loads(res->create_status, 0, NULL));
}

static enum MHD_Result do_create(struct kapi_req *req, const struct kapi_resource *res,
				 const char *ns)
{
	struct kapi_store *s = &req->srv->store;
	char av[160], name[300], ts[32], uid[40];
	enum MHD_Result ret;
	json_t *obj, *meta;
	const char *n, *gen;

	obj = parse_body(req, &ret);
	if (!obj)
		return ret;
	if (check_type(req, obj, res->kind, kapi_resource_api_version(res, av, sizeof(av)),
		       NULL, &ret) ||
	    check_meta(req, res, obj, ns, NULL, &ret))
		goto out;
	meta = json_object_get(obj, "metadata");
	n = kapi_meta_str(obj, "name");
	gen = kapi_meta_str(obj, "generateName");
	if ((!n || !n[0]) && gen && gen[0]) {
		for (int tries = 0; tries < 8; tries++) {
			char suffix[8];

			kapi_random_suffix(suffix, 5);
			snprintf(name, sizeof(name), "%.*s%s", 247, gen, suffix);
			if (!kapi_store_get(s, res, ns, name))
				break;
		}
		json_object_set_new(meta, "name", json_string(name));
		n = kapi_meta_str(obj, "name");
	}
	if (!n || !kapi_valid_name(n, !strcmp(res->plural, "namespaces"))) {
		ret = invalid_name(req, res, n ? n : "");
		goto out;
	}
	if (res->namespaced && !kapi_store_get(s, namespaces_res(), NULL, ns)) {
		ret = not_found(req, namespaces_res(), ns);
		goto out;
	}
	if (kapi_store_get(s, res, ns, n)) {
		char q[160];

		ret = kapi_reply_status(req, 409, "AlreadyExists", res, n, "%s \"%s\" already exists",
					kapi_qualified(res, q, sizeof(q)), n);
		goto out;
	}
	/* What the server owns: whatever the client sent there is replaced. */
	kapi_uid(uid, sizeof(uid));
	kapi_creation_timestamp(req->srv, ts, sizeof(ts));
	json_object_set_new(meta, "uid", json_string(uid));
	json_object_set_new(meta, "creationTimestamp", json_string(ts));
	json_object_del(meta, "deletionTimestamp");
	json_object_del(meta, "resourceVersion");
	json_object_set_new(meta, "resourceVersion", json_string(""));
	create_status(res, obj);

	if (!kapi_store_put(s, res, json_incref(obj))) {
		ret = MHD_NO;
		goto out;
	}
	req->srv->counters.writes++;
	ret = reply_object(req, 201, obj);
out:
	json_decref(obj);
	return ret;
}

/* Compare two values of one object, leaving their resourceVersions aside. */
static bool same_but_rv(json_t *a, json_t *b)
{
	json_t *ca = json_deep_copy(a), *cb = json_deep_copy(b);
	bool same;

	json_object_del(json_object_get(ca, "metadata"), "resourceVersion");
	json_object_del(json_object_get(cb, "metadata"), "resourceVersion");
	same = json_equal(ca, cb);
	json_decref(ca);
	json_decref(cb);
	return same;
}

/*
 * Write obj (a new value of the existing object cur) as an update of the
 * resource, or of its status when status is set: a resourceVersion in obj
 * must be cur's (optimistic concurrency); uid and creationTimestamp stay;
 * the part the other endpoint owns is cur's. A write that changes nothing
 * stores nothing and takes no revision, as in the apiserver.
 */
static enum MHD_Result apply_update(struct kapi_req *req, const struct kapi_resource *res,
				    const char *name, json_t *cur, json_t *obj, bool status)
{
	const char *rv = kapi_meta_str(obj, "resourceVersion");
	json_t *meta = json_object_get(obj, "metadata"), *curmeta = json_object_get(cur, "metadata");
	json_t *next;
	uint64_t want;

	if (rv && rv[0]) {
		if (!kapi_parse_rv(rv, &want))
			return bad_request(req, "metadata.resourceVersion: invalid value \"%s\"", rv);
		if (strcmp(rv, kapi_meta_str(cur, "resourceVersion")))
			return conflict(req, res, NULL, name, "the object has been modified; please "
					"apply your changes to the latest version and try again");
	}
	if (status) {
		next = json_deep_copy(cur);
		if (json_object_get(obj, "status"))
			json_object_set(next, "status", json_object_get(obj, "status"));
		else
			json_object_del(next, "status");
	} else {
		next = json_deep_copy(obj);
		meta = json_object_get(next, "metadata");
		json_object_set(meta, "uid", json_object_get(curmeta, "uid"));
		json_object_set(meta, "creationTimestamp",
				json_object_get(curmeta, "creationTimestamp"));
		if (res->subs & KAPI_SUB_STATUS) {
			if (json_object_get(cur, "status"))
				json_object_set(next, "status", json_object_get(cur, "status"));
			else
				json_object_del(next, "status");
		}
	}
	if (!next)
		return MHD_NO;
	if (same_but_rv(next, cur)) {
		json_decref(next);
		return reply_object(req, 200, cur);
	}
	if (!kapi_store_put(&req->srv->store, res, json_incref(next))) {
		json_decref(next);
		return MHD_NO;
	}
	req->srv->counters.writes++;
	return kapi_reply_json(req, 200, next);
}

static enum MHD_Result do_update(struct kapi_req *req, const struct kapi_resource *res,
				 const char *ns, const char *name, bool status)
{
	json_t *cur, *obj;
	enum MHD_Result ret;
	char av[160];

	obj = parse_body(req, &ret);
	if (!obj)
		return ret;
	if (check_type(req, obj, res->kind, kapi_resource_api_version(res, av, sizeof(av)),
		       NULL, &ret) ||
	    check_meta(req, res, obj, ns, name, &ret))
		goto out;
	cur = kapi_store_get(&req->srv->store, res, ns, name);
	if (!cur)
		ret = not_found(req, res, name);
	else
		ret = apply_update(req, res, name, cur, obj, status);
out:
	json_decref(obj);
	return ret;
}

/*
 * A merge patch, or a strategic merge patch with kapi_merge_patch()'s
 * guesses at merge keys: enough for kubectl patch, label, annotate and
 * apply of the usual changes.
 */
static enum MHD_Result do_patch(struct kapi_req *req, const struct kapi_resource *res,
				const char *ns, const char *name, bool status)
{
	const char *type = MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND,
						       MHD_HTTP_HEADER_CONTENT_TYPE);
	json_t *cur, *patch, *obj = NULL;
	enum MHD_Result ret;
	char av[160];

	if (!type || (strncmp(type, "application/merge-patch+json", 28) &&
		      strncmp(type, "application/strategic-merge-patch+json", 38)))
		return kapi_reply_status(req, 415, "UnsupportedMediaType", NULL, NULL,
					 "the body of the request was in an unknown format - "
					 "accepted media types include: application/merge-patch+json, "
					 "application/strategic-merge-patch+json");
	patch = parse_body(req, &ret);
	if (!patch)
		return ret;
	cur = kapi_store_get(&req->srv->store, res, ns, name);
	if (!cur) {
		ret = not_found(req, res, name);
		goto out;
	}
	obj = kapi_merge_patch(cur, patch, !strncmp(type, "application/strategic-merge-patch+json",
						     38));
	if (!obj) {
		ret = MHD_NO;
		goto out;
	}
	if (check_type(req, obj, res->kind, kapi_resource_api_version(res, av, sizeof(av)),
		       NULL, &ret) ||
	    check_meta(req, res, obj, ns, name, &ret))
		goto out;
	ret = apply_update(req, res, name, cur, obj, status);
out:
	json_decref(obj);
	json_decref(patch);
	return ret;
}

/* Deleting a namespace deletes what it holds, at once (no Terminating phase). */
static void delete_contents(struct kapi_store *s, const char *ns)
{
	for (size_t r = 0; r < kapi_nr_resources; r++) {
		const struct kapi_resource *res = &kapi_resources[r];
		struct kapi_table *t = kapi_store_table(s, res);
		size_t plen = strlen(ns);

		if (!res->namespaced)
			continue;
		for (size_t i = 0; i < t->n;) {
			const char *key = t->v[i].key;

			if (!strncmp(key, ns, plen) && key[plen] == '/')
				kapi_store_delete(s, res, ns, key + plen + 1);
			else
				i++;
		}
	}
}

static enum MHD_Result do_delete(struct kapi_req *req, const struct kapi_resource *res,
				 const char *ns, const char *name)
{
	struct kapi_store *s = &req->srv->store;
	json_t *cur = kapi_store_get(s, res, ns, name), *opts, *pre;
	enum MHD_Result ret;
	const char *want;
	uint64_t rv;

	if (!cur)
		return not_found(req, res, name);
	/* DeleteOptions may carry preconditions; a body is optional. */
	if (req->len) {
		opts = parse_body(req, &ret);
		if (!opts)
			return ret;
		pre = json_object_get(opts, "preconditions");
		want = json_string_value(json_object_get(pre, "resourceVersion"));
		if (want && strcmp(want, kapi_meta_str(cur, "resourceVersion"))) {
			json_decref(opts);
			return conflict(req, res, NULL, name, "the object has been modified; please "
					"apply your changes to the latest version and try again");
		}
		want = json_string_value(json_object_get(pre, "uid"));
		if (want && strcmp(want, kapi_meta_str(cur, "uid"))) {
			json_decref(opts);
			return conflict(req, res, NULL, name, "Precondition failed: UID mismatch");
		}
		json_decref(opts);
	}
	if (res == namespaces_res())
		delete_contents(s, name);
	rv = kapi_store_delete(s, res, ns, name);
	if (!rv)
		return MHD_NO;
	req->srv->counters.writes++;
	/* The reply is the object as the DELETED event tells it. */
	return reply_object(req, 200, kapi_store_event(s, rv)->obj);
}

/* ---- pods/binding and pods/eviction ---- */

static void set_scheduled(json_t *pod)
{
	json_t *status = json_object_get(pod, "status"), *conds, *cond;
	char ts[32];
	size_t i;

	if (!json_is_object(status)) {
		status = json_object();
		json_object_set_new(pod, "status", status);
	}
	conds = json_object_get(status, "conditions");
	if (!json_is_array(conds)) {
		conds = json_array();
		json_object_set_new(status, "conditions", conds);
	}
	for (i = 0; i < json_array_size(conds); i++)
		if (!strcmp(kapi_field(json_array_get(conds, i), "type"), "PodScheduled"))
			break;
	kapi_timestamp(ts, sizeof(ts));
	cond = json_pack("{s:s, s:s, s:n, s:s}", "type", "PodScheduled", "status", "True",
			 "lastProbeTime", "lastTransitionTime", ts);
	if (i < json_array_size(conds))
		json_array_set_new(conds, i, cond);
	else
		json_array_append_new(conds, cond);
}

static enum MHD_Result do_binding(struct kapi_req *req, const struct kapi_resource *res,
				  const char *ns, const char *name)
{
	struct kapi_server *srv = req->srv;
	json_t *b, *pod, *next, *annots;
	const char *node, *uid, *k;
	enum MHD_Result ret;
	json_t *v;

	if (srv->fail_count) {
		srv->fail_count--;
		return kapi_reply_status(req, srv->fail_code, NULL, res, name, "%s",
					 srv->fail_message ? srv->fail_message : "injected failure");
	}
	b = parse_body(req, &ret);
	if (!b)
		return ret;
	if (check_type(req, b, "Binding", "v1", NULL, &ret) ||
	    check_meta(req, res, b, ns, name, &ret))
		goto out;
	node = kapi_field(b, "target.name");
	if (!node[0]) {
		ret = kapi_reply_status(req, 422, "Invalid", res, name, "Binding \"%s\" is invalid: "
					"target.name: Required value", name);
		goto out;
	}
	pod = kapi_store_get(&srv->store, res, ns, name);
	if (!pod) {
		ret = not_found(req, res, name);
		goto out;
	}
	uid = kapi_meta_str(b, "uid");
	if (uid && uid[0] && strcmp(uid, kapi_meta_str(pod, "uid"))) {
		ret = conflict(req, res, "binding", name, "Precondition failed: UID mismatch");
		goto out;
	}
	if (kapi_field(pod, "spec.nodeName")[0]) {
		char why[600];

		snprintf(why, sizeof(why), "pod %s is already assigned to node \"%s\"", name,
			 kapi_field(pod, "spec.nodeName"));
		ret = conflict(req, res, "binding", name, why);
		goto out;
	}
	next = json_deep_copy(pod);
	if (!json_is_object(json_object_get(next, "spec")))
		json_object_set_new(next, "spec", json_object());
	json_object_set_new(json_object_get(next, "spec"), "nodeName", json_string(node));
	set_scheduled(next);
	/* The binding's annotations go onto the pod, as the apiserver does. */
	annots = json_object_get(json_object_get(b, "metadata"), "annotations");
	if (json_object_size(annots)) {
		json_t *meta = json_object_get(next, "metadata");

		if (!json_is_object(json_object_get(meta, "annotations")))
			json_object_set_new(meta, "annotations", json_object());
		json_object_foreach(annots, k, v)
			json_object_set(json_object_get(meta, "annotations"), k, v);
	}
	if (!kapi_store_put(&srv->store, res, next)) {
		ret = MHD_NO;
		goto out;
	}
	srv->counters.writes++;
	srv->counters.bindings++;
	ret = kapi_reply_json(req, 201, kapi_status_new(201, NULL, NULL, NULL, NULL));
out:
	json_decref(b);
	return ret;
}

static enum MHD_Result do_eviction(struct kapi_req *req, const struct kapi_resource *res,
				   const char *ns, const char *name)
{
	struct kapi_server *srv = req->srv;
	enum MHD_Result ret;
	json_t *e;

	e = parse_body(req, &ret);
	if (!e)
		return ret;
	if (check_type(req, e, "Eviction", "policy/v1", "policy/v1beta1", &ret) ||
	    check_meta(req, res, e, ns, name, &ret))
		goto out;
	if (!kapi_store_get(&srv->store, res, ns, name)) {
		ret = not_found(req, res, name);
		goto out;
	}
	/* No PodDisruptionBudgets here: every eviction is allowed, and deletes at once. */
	if (!kapi_store_delete(&srv->store, res, ns, name)) {
		ret = MHD_NO;
		goto out;
	}
	srv->counters.writes++;
	srv->counters.evictions++;
	ret = kapi_reply_json(req, 201, kapi_status_new(201, NULL, NULL, NULL, NULL));
out:
	json_decref(e);
	return ret;
}

enum MHD_Result kapi_rest(struct kapi_req *req, const struct kapi_resource *res,
			  const char *ns, const char *name, const char *sub)
{
	bool status = sub && !strcmp(sub, "status");

	if (!name) {
		if (is(req, MHD_HTTP_METHOD_GET)) {
			req->watch = arg_true(req, "watch");
			return req->watch ? do_watch(req, res, ns) : do_list(req, res, ns);
		}
		if (is(req, MHD_HTTP_METHOD_POST) && (ns || !res->namespaced))
			return do_create(req, res, ns);
		return not_allowed(req);
	}
	if (res->namespaced && !ns)
		return kapi_reply_status(req, 404, "NotFound", NULL, NULL,
					 "the server could not find the requested resource");
	if (sub && !strcmp(sub, "binding"))
		return is(req, MHD_HTTP_METHOD_POST) ? do_binding(req, res, ns, name) :
						       not_allowed(req);
	if (sub && !strcmp(sub, "eviction"))
		return is(req, MHD_HTTP_METHOD_POST) ? do_eviction(req, res, ns, name) :
						       not_allowed(req);
	if (is(req, MHD_HTTP_METHOD_GET))
		return do_get(req, res, ns, name);
	if (is(req, MHD_HTTP_METHOD_PUT))
		return do_update(req, res, ns, name, status);
	if (is(req, MHD_HTTP_METHOD_PATCH))
		return do_patch(req, res, ns, name, status);
	if (is(req, MHD_HTTP_METHOD_DELETE) && !sub)
		return do_delete(req, res, ns, name);
	return not_allowed(req);
}

/* kapiserver starts with the namespaces a cluster has. */
int kapi_rest_init(struct kapi_server *srv)
{
	static const char *const names[] = {
		DEFAULT_NAMESPACE, "kube-system", "kube-public", "kube-node-lease",
	};
	const struct kapi_resource *res = namespaces_res();

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char uid[40], ts[32];
		json_t *ns;

		kapi_uid(uid, sizeof(uid));
		kapi_timestamp(ts, sizeof(ts));
		ns = json_pack("{s:s, s:s, s:{s:s, s:s, s:s, s:{s:s}}, s:{s:[s]}, s:{s:s}}",
			       "kind", "Namespace", "apiVersion", "v1", "metadata", "name", names[i],
			       "uid", uid, "creationTimestamp", ts, "labels",
			       "kubernetes.io/metadata.name", names[i], "spec", "finalizers",
			       "kubernetes", "status", "phase", "Active");
		if (!ns || !kapi_store_put(&srv->store, res, ns))
			return -1;
	}
	return 0;
}
