// SPDX-License-Identifier: Apache-2.0
/*
 * kapiserver --load FILE: the store's first objects, for clusters too
 * large to create one request at a time (a million pods). FILE holds one
 * JSON object a line (blank lines are passed over), each of a kind the
 * server serves. They are kept as they are, status included, as a
 * restored etcd would hold them: the server gives each a resourceVersion,
 * and a uid and a creationTimestamp when it has none. The metadata is
 * checked as a create checks it, a namespaced object's namespace must
 * exist (the file may create it on an earlier line), and a name may not
 * be taken; the first object refused stops the load, naming its line.
 *
 * A file in the store's order (namespace, then name, per kind) loads in
 * linear time: each object is appended to its table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kapi.h"

/* The resource an object's apiVersion and kind name, or NULL. */
static const struct kapi_resource *resource_of(json_t *obj)
{
	const char *av = json_string_value(json_object_get(obj, "apiVersion"));
	const char *kind = json_string_value(json_object_get(obj, "kind"));
	const char *slash;

	if (!av || !kind)
		return NULL;
	slash = strchr(av, '/');
	for (size_t i = 0; i < kapi_nr_resources; i++) {
		const struct kapi_resource *r = &kapi_resources[i];
		size_t glen = slash ? (size_t)(slash - av) : 0;

		if (strcmp(r->kind, kind) || strcmp(r->version, slash ? slash + 1 : av))
			continue;
		if (strlen(r->group) == glen && !strncmp(r->group, av, glen))
			return r;
	}
	return NULL;
}

/* One object of the file; 0, or -1 with why. */
static int load_one(struct kapi_server *srv, json_t *obj, char *why, size_t len)
{
	struct kapi_store *s = &srv->store;
	const struct kapi_resource *res;
	const char *ns = NULL, *name;
	char nsbuf[256];
	json_t *meta;

	if (!json_is_object(obj)) {
		snprintf(why, len, "not a JSON object");
		return -1;
	}
	res = resource_of(obj);
	if (!res) {
		snprintf(why, len, "apiVersion \"%s\" kind \"%s\" is not a kind this server serves",
			 json_string_value(json_object_get(obj, "apiVersion")) ?: "",
			 json_string_value(json_object_get(obj, "kind")) ?: "");
		return -1;
	}
	/* Copied: kapi_check_meta() replaces the string it came from. */
	if (res->namespaced) {
		const char *given = kapi_meta_str(obj, "namespace");

		snprintf(nsbuf, sizeof(nsbuf), "%s", given && *given ? given : "default");
		ns = nsbuf;
	}
	if (kapi_check_meta(res, obj, ns, NULL, why, len))
		return -1;
	name = kapi_meta_str(obj, "name");
	if (!name || !kapi_valid_name(name, !strcmp(res->plural, "namespaces"))) {
		snprintf(why, len, "%s: metadata.name: Invalid value: \"%s\"", res->kind,
			 name ? name : "");
		return -1;
	}
	if (ns && !kapi_store_get(s, kapi_resource_by_name("namespaces"), NULL, ns)) {
		snprintf(why, len, "%s %s/%s: namespaces \"%s\" not found", res->kind, ns, name, ns);
		return -1;
	}
	if (kapi_store_get(s, res, ns, name)) {
		snprintf(why, len, "%s %s%s%s already exists", res->kind, ns ? ns : "",
			 ns ? "/" : "", name);
		return -1;
	}
	meta = json_object_get(obj, "metadata");
	if (!kapi_meta_str(obj, "uid")) {
		char uid[40];

		kapi_uid(uid, sizeof(uid));
		json_object_set_new(meta, "uid", json_string(uid));
	}
	if (!kapi_meta_str(obj, "creationTimestamp")) {
		char ts[32];

		kapi_timestamp(ts, sizeof(ts));
		json_object_set_new(meta, "creationTimestamp", json_string(ts));
	}
	json_object_del(meta, "deletionTimestamp");
	if (!kapi_store_put(s, res, json_incref(obj))) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	return 0;
}

int kapi_load(struct kapi_server *srv, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, why[1024];
	size_t cap = 0, lineno = 0, n = 0;
	ssize_t len;
	int ret = 0;

	if (!f) {
		fprintf(stderr, "kapiserver: --load %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		json_error_t jerr;
		json_t *obj;

		lineno++;
		if (strspn(line, " \t\r\n") == (size_t)len)
			continue;
		obj = json_loadb(line, (size_t)len, 0, &jerr);
		if (!obj) {
			fprintf(stderr, "kapiserver: %s:%zu: not JSON: %s\n", path, lineno, jerr.text);
			ret = -1;
			break;
		}
		ret = load_one(srv, obj, why, sizeof(why));
		json_decref(obj);
		if (ret) {
			fprintf(stderr, "kapiserver: %s:%zu: %s\n", path, lineno, why);
			break;
		}
		n++;
	}
	if (!ret && ferror(f)) {
		fprintf(stderr, "kapiserver: --load %s: %s\n", path, strerror(errno));
		ret = -1;
	}
	free(line);
	fclose(f);
	if (!ret)
		fprintf(stderr, "kapiserver: loaded %zu objects from %s\n", n, path);
	return ret;
}
