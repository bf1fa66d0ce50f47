// SPDX-License-Identifier: Apache-2.0
/*
 * The resources kapiserver serves, as one table, and the discovery documents
 * kubectl and client-go read to map kinds to paths: /version, /api, /api/v1,
 * /apis, /apis/GROUP and /apis/GROUP/VERSION. Everything about a resource
 * that the REST verbs need is in its entry; nothing else names a resource.
 */
#include <stdio.h>
#include <string.h>

#include "kapi.h"

static const char *const pod_fields[] = {
	"spec.nodeName", "spec.schedulerName", "spec.serviceAccountName",
	"status.phase", "status.podIP", "status.nominatedNodeName", NULL,
};
static const char *const node_fields[] = { "spec.unschedulable", NULL };
static const char *const ns_fields[] = { "status.phase", NULL };
static const char *const event_fields[] = {
	"involvedObject.kind", "involvedObject.namespace", "involvedObject.name",
	"involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion",
	"involvedObject.fieldPath", "reason", "reportingComponent", "source", "type", NULL,
};
static const char *const all_category[] = { "all", NULL };

const struct kapi_resource kapi_resources[] = {
	{
		.group = "", .version = "v1", .plural = "namespaces", .singular = "namespace",
		.kind = "Namespace", .list_kind = "NamespaceList",
		.short_names = (const char *const[]){ "ns", NULL },
		.fields = ns_fields, .subs = KAPI_SUB_STATUS,
		.create_status = "{\"phase\": \"Active\"}",
	},
	{
		.group = "", .version = "v1", .plural = "nodes", .singular = "node",
		.kind = "Node", .list_kind = "NodeList",
		.short_names = (const char *const[]){ "no", NULL },
		.fields = node_fields, .subs = KAPI_SUB_STATUS,
		/* Nodes register themselves with their status: a create keeps it. */
		.status_on_create = true,
	},
	{
		.group = "", .version = "v1", .plural = "pods", .singular = "pod",
		.kind = "Pod", .list_kind = "PodList",
		.short_names = (const char *const[]){ "po", NULL },
		.categories = all_category, .fields = pod_fields,
		.subs = KAPI_SUB_STATUS | KAPI_SUB_BINDING | KAPI_SUB_EVICTION,
		.namespaced = true,
		.create_status = "{\"phase\": \"Pending\"}",
	},
	{
		.group = "", .version = "v1", .plural = "events", .singular = "event",
		.kind = "Event", .list_kind = "EventList",
		.short_names = (const char *const[]){ "ev", NULL },
		.fields = event_fields, .namespaced = true,
	},
	{
		.group = "scheduling.volcano.sh", .version = "v1beta1", .plural = "podgroups",
		.singular = "podgroup", .kind = "PodGroup", .list_kind = "PodGroupList",
		.short_names = (const char *const[]){ "pg", "podgroup-v1beta1", NULL },
		/*
		 * Volcano's CRD declares no status subresource: the status
		 * is the object's, kept by a create and changed by a write.
		 */
		.namespaced = true,
	},
	{
		.group = "scheduling.volcano.sh", .version = "v1beta1", .plural = "queues",
		.singular = "queue", .kind = "Queue", .list_kind = "QueueList",
		.short_names = (const char *const[]){ "q", "queue-v1beta1", NULL },
		.subs = KAPI_SUB_STATUS, .create_status = "",
	},
	{
		/* Volcano v1.12's CRD (volcano.sh/apis): cluster-scoped, a status subresource */
		.group = "topology.volcano.sh", .version = "v1alpha1", .plural = "hypernodes",
		.singular = "hypernode", .kind = "HyperNode", .list_kind = "HyperNodeList",
		.short_names = (const char *const[]){ "hn", NULL },
		.subs = KAPI_SUB_STATUS, .create_status = "",
	},
	{
		.group = "scheduling.k8s.io", .version = "v1", .plural = "priorityclasses",
		.singular = "priorityclass", .kind = "PriorityClass",
		.list_kind = "PriorityClassList",
		.short_names = (const char *const[]){ "pc", NULL },
	},
	{
		.group = "coordination.k8s.io", .version = "v1", .plural = "leases",
		.singular = "lease", .kind = "Lease", .list_kind = "LeaseList",
		.namespaced = true,
	},
};

const size_t kapi_nr_resources = sizeof(kapi_resources) / sizeof(kapi_resources[0]);

const struct kapi_resource *kapi_resource_find(const char *group, const char *version,
					       const char *plural)
{
	for (size_t i = 0; i < kapi_nr_resources; i++) {
		const struct kapi_resource *r = &kapi_resources[i];

		if (!strcmp(r->group, group) && !strcmp(r->version, version) &&
		    !strcmp(r->plural, plural))
			return r;
	}
	return NULL;
}

const struct kapi_resource *kapi_resource_by_name(const char *plural)
{
	for (size_t i = 0; i < kapi_nr_resources; i++)
		if (!strcmp(kapi_resources[i].plural, plural))
			return &kapi_resources[i];
	return NULL;
}

const char *kapi_resource_api_version(const struct kapi_resource *res, char *buf, size_t len)
{
	if (!res->group[0])
		return res->version;
	snprintf(buf, len, "%s/%s", res->group, res->version);
	return buf;
}

bool kapi_resource_has_field(const struct kapi_resource *res, const char *field)
{
	if (!strcmp(field, "metadata.name"))
		return true;
	if (!strcmp(field, "metadata.namespace"))
		return res->namespaced;
	for (const char *const *f = res->fields; f && *f; f++)
		if (!strcmp(*f, field))
			return true;
	return false;
}

static json_t *string_array(const char *const *v)
{
	json_t *a = json_array();

	for (; v && *v; v++)
		json_array_append_new(a, json_string(*v));
	return a;
}

json_t *kapi_discovery_version(void)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}",
			 "major", "1", "minor", "32", "gitVersion", "v1.32.0-vsched-kapiserver",
			 "gitCommit", "0000000000000000000000000000000000000000",
			 "gitTreeState", "clean", "buildDate", "2025-01-01T00:00:00Z",
			 "goVersion", "go1.23.0", "compiler", "gc", "platform", "linux/amd64");
}

json_t *kapi_discovery_core_versions(const char *server_addr)
{
	return json_pack("{s:s, s:[s], s:[{s:s, s:s}]}", "kind", "APIVersions",
			 "versions", "v1", "serverAddressByClientCIDRs",
			 "clientCIDR", "0.0.0.0/0", "serverAddress", server_addr);
}

static json_t *group_doc(const struct kapi_resource *r)
{
	char gv[128];

	snprintf(gv, sizeof(gv), "%s/%s", r->group, r->version);
	/* One version per group: it is the preferred one. */
	return json_pack("{s:s, s:[{s:s, s:s}], s:{s:s, s:s}}", "name", r->group,
			 "versions", "groupVersion", gv, "version", r->version,
			 "preferredVersion", "groupVersion", gv, "version", r->version);
}

json_t *kapi_discovery_groups(void)
{
	json_t *groups = json_array();

	for (size_t i = 0; i < kapi_nr_resources; i++) {
		const struct kapi_resource *r = &kapi_resources[i];
		size_t j;

		if (!r->group[0])
			continue;
		for (j = 0; j < i; j++)
			if (!strcmp(kapi_resources[j].group, r->group))
				break;
		if (j == i)
			json_array_append_new(groups, group_doc(r));
	}
	return json_pack("{s:s, s:s, s:o}", "kind", "APIGroupList", "apiVersion", "v1",
			 "groups", groups);
}

json_t *kapi_discovery_group(const char *group)
{
	json_t *doc;

	for (size_t i = 0; i < kapi_nr_resources; i++) {
		if (!group[0] || strcmp(kapi_resources[i].group, group))
			continue;
		doc = group_doc(&kapi_resources[i]);
		json_object_set_new(doc, "kind", json_string("APIGroup"));
		json_object_set_new(doc, "apiVersion", json_string("v1"));
		return doc;
	}
	return NULL;
}

static json_t *resource_doc(const struct kapi_resource *r)
{
	json_t *doc;

	doc = json_pack("{s:s, s:s, s:b, s:s, s:[s,s,s,s,s,s,s]}", "name", r->plural,
			"singularName", r->singular, "namespaced", r->namespaced,
			"kind", r->kind, "verbs", "create", "delete", "get", "list", "patch",
			"update", "watch");
	if (r->short_names)
		json_object_set_new(doc, "shortNames", string_array(r->short_names));
	if (r->categories)
		json_object_set_new(doc, "categories", string_array(r->categories));
	return doc;
}

static json_t *subresource_doc(const struct kapi_resource *r, const char *sub,
			       const char *group, const char *version, const char *kind,
			       bool get)
{
	char name[96];
	json_t *doc;

	snprintf(name, sizeof(name), "%s/%s", r->plural, sub);
	doc = json_pack("{s:s, s:s, s:b, s:s}", "name", name, "singularName", "",
			"namespaced", r->namespaced, "kind", kind);
	if (group)
		json_object_set_new(doc, "group", json_string(group));
	if (version)
		json_object_set_new(doc, "version", json_string(version));
	json_object_set_new(doc, "verbs", get ? json_pack("[s,s,s]", "get", "patch", "update") :
						json_pack("[s]", "create"));
	return doc;
}

json_t *kapi_discovery_resources(const char *group, const char *version)
{
	json_t *list = json_array();
	char gv[128];
	bool any = false;

	for (size_t i = 0; i < kapi_nr_resources; i++) {
		const struct kapi_resource *r = &kapi_resources[i];

		if (strcmp(r->group, group) || strcmp(r->version, version))
			continue;
		any = true;
		json_array_append_new(list, resource_doc(r));
		if (r->subs & KAPI_SUB_STATUS)
			json_array_append_new(list, subresource_doc(r, "status", NULL, NULL,
								    r->kind, true));
		if (r->subs & KAPI_SUB_BINDING)
			json_array_append_new(list, subresource_doc(r, "binding", NULL, NULL,
								    "Binding", false));
		if (r->subs & KAPI_SUB_EVICTION)
			json_array_append_new(list, subresource_doc(r, "eviction", "policy", "v1",
								    "Eviction", false));
	}
	if (!any) {
		json_decref(list);
		return NULL;
	}
	if (group[0])
		snprintf(gv, sizeof(gv), "%s/%s", group, version);
	else
		snprintf(gv, sizeof(gv), "%s", version);
	return json_pack("{s:s, s:s, s:s, s:o}", "kind", "APIResourceList", "apiVersion", "v1",
			 "groupVersion", gv, "resources", list);
}

/*
 * OpenAPI v3, only as much as kubectl reads to learn that the server
 * validates fields itself: the root lists a document per group version,
 * and each document has a PATCH operation per kind with the
 * fieldValidation parameter. kubectl then sends fieldValidation=Strict
 * (which kapiserver ignores) and validates nothing on its side; without
 * this, create -f needs --validate=false. No schemas: kubectl explain and
 * client-side apply do not work.
 */
json_t *kapi_openapi_root(void)
{
	json_t *paths = json_object();

	for (size_t i = 0; i < kapi_nr_resources; i++) {
		const struct kapi_resource *r = &kapi_resources[i];
		char path[160], url[200];

		if (r->group[0])
			snprintf(path, sizeof(path), "apis/%s/%s", r->group, r->version);
		else
			snprintf(path, sizeof(path), "api/%s", r->version);
		snprintf(url, sizeof(url), "/openapi/v3/%s?hash=0", path);
		json_object_set_new(paths, path, json_pack("{s:s}", "serverRelativeURL", url));
	}
	return json_pack("{s:o}", "paths", paths);
}

json_t *kapi_openapi_gv(const char *group, const char *version)
{
	json_t *paths = json_object();
	bool any = false;

	for (size_t i = 0; i < kapi_nr_resources; i++) {
		const struct kapi_resource *r = &kapi_resources[i];
		char path[200], prefix[128];
		json_t *op;

		if (strcmp(r->group, group) || strcmp(r->version, version))
			continue;
		any = true;
		if (r->group[0])
			snprintf(prefix, sizeof(prefix), "/apis/%s/%s", r->group, r->version);
		else
			snprintf(prefix, sizeof(prefix), "/api/%s", r->version);
		snprintf(path, sizeof(path), "%s%s/%s/{name}", prefix,
			 r->namespaced ? "/namespaces/{namespace}" : "", r->plural);
		op = json_pack("{s:{s:s, s:s, s:s}, s:s, s:[{s:s, s:s, s:{s:s}}]}",
			       "x-kubernetes-group-version-kind", "group", r->group,
			       "version", r->version, "kind", r->kind,
			       "x-kubernetes-action", "patch",
			       "parameters", "name", "fieldValidation", "in", "query",
			       "schema", "type", "string");
		json_object_set_new(paths, path, json_pack("{s:o}", "patch", op));
	}
	if (!any) {
		json_decref(paths);
		return NULL;
	}
	return json_pack("{s:s, s:{s:s, s:s}, s:o}", "openapi", "3.0.0", "info",
			 "title", "Kubernetes", "version", "v1.32.0", "paths", paths);
}
