// SPDX-License-Identifier: Apache-2.0
/*
 * The API server's JSON read as manifests are, as ksync.c reads it
 * (userspace/vskube/kjson.h's kj_to_ynode(), then kube/kread.h's
 * kr_doc_of() and kr_put_new()): each kind, written as the API server
 * sends it (JSON, with the fields a real server adds), must become the
 * very request the same manifest in YAML becomes (vsctl apply's
 * kr_docs_read()), compared byte for byte. A pod mirrored from the API
 * server is sent as it is, without ADMIT. A refused object says where, in
 * JSON's terms.
 */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <criterion/criterion.h>

#include "kube/kread.h"
#include "lib/codec.h"
#include "lib/codec_gen.h"
#include "lib/vsnl.h"
#include "vskube/kjson.h"

/* A cluster as YAML manifests, and the same objects as JSON from an API server. */
static const char yaml[] =
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\n"
	"value: 1000\n"
	"---\n"
	"apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\n"
	"metadata: {name: q1, creationTimestamp: '2026-11-23T10:00:00Z'}\n"
	"spec:\n  weight: 3\n  capability: {cpu: '16', memory: 64Gi}\n"
	"---\n"
	"apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n"
	"  labels: {kubernetes.io/hostname: n1, zone: a}\n"
	"spec:\n  taints: [{key: gpu, value: 'true', effect: NoSchedule}]\n"
	"status:\n  allocatable: {cpu: '8', memory: 32Gi, pods: '110'}\n"
	"  conditions: [{type: Ready, status: 'True'}]\n"
	"---\n"
	"apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\n"
	"metadata: {name: pg1, namespace: team, creationTimestamp: '2026-11-23T10:00:01Z'}\n"
	"spec: {minMember: 2, queue: q1, priorityClassName: high}\n"
	"status:\n  phase: Pending\n  conditions:\n"
	"  - {type: Unschedulable, status: 'True', reason: NotEnoughResources,\n"
	"     message: 2/2 tasks in gang unschedulable, transitionID: 6b1e-uuid,\n"
	"     lastTransitionTime: '2026-01-01T00:00:00Z'}\n"
	"  - {type: SomethingElse, status: 'True'}\n"
	"---\n"
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p1\n  namespace: team\n"
	"  creationTimestamp: null\n"
	"  annotations: {scheduling.k8s.io/group-name: pg1, volcano.sh/task-spec: worker}\n"
	"spec:\n  schedulerName: volcano\n  priorityClassName: high\n"
	"  nodeSelector: {zone: a}\n"
	"  tolerations: [{key: gpu, operator: Exists, effect: NoSchedule}]\n"
	"  containers:\n  - name: c\n    resources: {requests: {cpu: 500m, memory: 1Gi}}\n"
	"  initContainers:\n  - name: i\n    resources: {requests: {cpu: '2'}}\n"
	"status: {phase: Pending}\n";

/* What the API server sends: list items without kind (added back by the reader), extra fields. */
static const char *const json[] = {
	"{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\","
	"\"metadata\":{\"name\":\"high\",\"uid\":\"u1\",\"resourceVersion\":\"7\"},\"value\":1000}",
	"{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"Queue\","
	"\"metadata\":{\"name\":\"q1\",\"resourceVersion\":\"8\","
	"\"creationTimestamp\":\"2026-11-23T10:00:00Z\"},"
	"\"spec\":{\"weight\":3,\"capability\":{\"cpu\":\"16\",\"memory\":\"64Gi\"}}}",
	"{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":"
	"{\"kubernetes.io/hostname\":\"n1\",\"zone\":\"a\"}},\"spec\":{\"taints\":[{\"key\":"
	"\"gpu\",\"value\":\"true\",\"effect\":\"NoSchedule\"}]},\"status\":{\"allocatable\":"
	"{\"cpu\":\"8\",\"memory\":\"32Gi\",\"pods\":\"110\"},\"conditions\":[{\"type\":\"Ready\","
	"\"status\":\"True\",\"lastHeartbeatTime\":\"2026-11-23T10:00:00Z\"}]}}",
	"{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\",\"metadata\":"
	"{\"name\":\"pg1\",\"namespace\":\"team\",\"creationTimestamp\":"
	"\"2026-11-23T11:00:01+01:00\"},\"spec\":{\"minMember\":2,\"queue\":\"q1\","
	"\"priorityClassName\":\"high\"},\"status\":{\"phase\":\"Pending\",\"conditions\":"
	"[{\"type\":\"Unschedulable\",\"status\":\"True\",\"reason\":\"NotEnoughResources\","
	"\"message\":\"2/2 tasks in gang unschedulable\",\"transitionID\":\"6b1e-uuid\","
	"\"lastTransitionTime\":\"2026-01-01T01:00:00+01:00\"},"
	"{\"type\":\"SomethingElse\",\"status\":\"True\"}]}}",
	"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p1\",\"namespace\":"
	"\"team\",\"annotations\":{\"scheduling.k8s.io/group-name\":\"pg1\","
	"\"volcano.sh/task-spec\":\"worker\"}},\"spec\":{\"schedulerName\":\"volcano\","
	"\"priorityClassName\":\"high\",\"nodeSelector\":{\"zone\":\"a\"},\"tolerations\":"
	"[{\"key\":\"gpu\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}],\"containers\":"
	"[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"}}}],"
	"\"initContainers\":[{\"name\":\"i\",\"resources\":{\"requests\":{\"cpu\":\"2\"}}}]},"
	"\"status\":{\"phase\":\"Pending\"}}",
};

#define NR_JSON	ARRAY_SIZE(json)

static struct vsnl_ydocs ydocs;
static struct kr_docs docs;
static struct vsnl_ynode roots[NR_JSON];
static struct vsnl_err err;

static void fini(void)
{
	kr_docs_free(&docs);
	vsnl_ydocs_free(&ydocs);
	for (u32 i = 0; i < NR_JSON; i++)
		vsnl_ynode_free(&roots[i]);
}

TestSuite(kjson, .fini = fini);

/* @text as ksync reads an object of @source: into roots[@i] and *@doc; 0 or the error. */
static int read_json(const char *text, const char *source, u32 i, struct kr_doc *doc)
{
	json_error_t jerr;
	json_t *j = json_loads(text, 0, &jerr);
	int ret;

	cr_assert_not_null(j, "%s", jerr.text);
	vsnl_ynode_free(&roots[i]);	/* a slot read again */
	cr_assert_eq(kj_to_ynode(j, source, &roots[i]), 0);
	json_decref(j);
	memset(&err, 0, sizeof(err));
	ret = kr_doc_of(source, &roots[i], doc, &err);
	doc->mirror = true;
	return ret;
}

/* The request for @doc in @buf: its length. */
static size_t request(const struct kr_doc *doc, void *buf, size_t cap)
{
	struct nlmsghdr *nlh = NULL;

	cr_assert_eq(kr_put_new(doc, buf, cap, &nlh, &err), 0, "%s", err.msg);
	return nlh->nlmsg_len;
}

/* The object nest @type of the request in @buf, checked as the daemon checks a request. */
static const struct nlattr *obj_of(const void *buf, u16 type)
{
	const struct nlattr *top[VS_A_MAX + 1];

	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_vsched, buf, GENL_HDRLEN, top,
					  VSNL_CODEC_REQUEST, &err), 0, "%s", err.msg);
	cr_assert_not_null(top[type]);
	return top[type];
}

Test(kjson, objects_from_the_api_server_are_the_manifests_objects)
{
	static const u16 attr[] = { VS_A_PRIOCLASS, VS_A_QUEUE, VS_A_NODE, VS_A_PODGROUP,
				    VS_A_TASK };
	static char sources[NR_JSON][32];
	static unsigned char ba[8192] __attribute__((aligned(8)));
	static unsigned char bb[8192] __attribute__((aligned(8)));
	struct vsnl_queue_tb qtb;
	struct vsnl_podgroup_tb gtb;
	struct vsnl_task_tb ttb;
	uint64_t t;

	cr_assert_eq(vsnl_yaml_parse_docs(yaml, strlen(yaml), "m.yaml", &ydocs, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(kr_docs_read("m.yaml", &ydocs, &docs, &err), 0, "%s", err.msg);
	cr_assert_eq(docs.nr, NR_JSON);

	for (u32 i = 0; i < NR_JSON; i++) {
		struct kr_doc doc;
		size_t la, lb;

		snprintf(sources[i], sizeof(sources[i]), "object %u", i);
		cr_assert_eq(read_json(json[i], sources[i], i, &doc), 0, "%s", err.msg);
		cr_assert_eq(doc.kind, docs.v[i].kind);
		cr_assert_str_eq(doc.name, docs.v[i].name);
		docs.v[i].mirror = true;
		la = request(&docs.v[i], ba, sizeof(ba));
		lb = request(&doc, bb, sizeof(bb));
		cr_assert_eq(la, lb, "%s: %zu bytes from YAML, %zu from JSON", doc.name, la, lb);
		cr_assert_eq(memcmp(ba, bb, la), 0, "%s: the requests differ", doc.name);
		obj_of(bb, attr[i]);
	}
	/* metadata.creationTimestamp is each object's creation time, offset or not */
	request(&docs.v[1], bb, sizeof(bb));
	cr_assert_eq(vsnl_queue_parse(obj_of(bb, VS_A_QUEUE), &qtb, VSNL_CODEC_REQUEST, &err), 0);
	cr_assert(vsnl_queue_get_created(&qtb, &t));
	cr_assert_eq(t, 1795428000);
	{
		struct kr_doc doc;

		cr_assert_eq(read_json(json[3], "podgroups team/pg1", 3, &doc), 0, "%s", err.msg);
		request(&doc, bb, sizeof(bb));
	}
	cr_assert_eq(vsnl_podgroup_parse(obj_of(bb, VS_A_PODGROUP), &gtb, VSNL_CODEC_REQUEST,
					 &err), 0);
	cr_assert(vsnl_podgroup_get_created(&gtb, &t));
	cr_assert_eq(t, 1795428001, "11:00:01+01:00 is 10:00:01Z");
	cr_assert_not_null(vsnl_podgroup_get_condition(&gtb), "the Unschedulable condition");
	/* the pod: its containers and init containers apart, the daemon sums them as Volcano */
	request(&docs.v[4], bb, sizeof(bb));
	cr_assert_eq(vsnl_task_spec_parse(obj_of(bb, VS_A_TASK), &ttb, VSNL_CODEC_REQUEST, &err), 0);
	cr_assert_not_null(vsnl_task_get_request(&ttb));
	cr_assert_not_null(vsnl_task_get_init_request(&ttb));
	cr_assert_str_eq(vsnl_task_get_priority_class(&ttb), "high");
}

/*
 * A pod the API server holds was admitted when it was created (its
 * spec.priority written by the Priority admission plugin): ksync sends it
 * as it is, and the daemon must not admit it again (its class may be gone).
 */
Test(kjson, a_mirrored_pod_is_not_admitted_again)
{
	static unsigned char buf[8192] __attribute__((aligned(8)));
	struct vsnl_task_tb tb;
	struct kr_doc doc;
	int32_t prio = 0;

	cr_assert_eq(read_json("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":"
			       "\"p\",\"namespace\":\"ns\"},\"spec\":{\"priorityClassName\":"
			       "\"gone\",\"priority\":7,\"containers\":[{\"name\":\"c\"}]}}",
			       "pods ns/p", 0, &doc), 0, "%s", err.msg);
	request(&doc, buf, sizeof(buf));
	cr_assert_eq(vsnl_task_spec_parse(obj_of(buf, VS_A_TASK), &tb, VSNL_CODEC_REQUEST, &err), 0);
	cr_assert_not(vsnl_task_get_admit(&tb));
	cr_assert(vsnl_task_get_priority(&tb, &prio));
	cr_assert_eq(prio, 7);
	cr_assert_str_eq(vsnl_task_get_priority_class(&tb), "gone");
	/* the same pod created by vsctl apply asks for the admission */
	doc.mirror = false;
	request(&doc, buf, sizeof(buf));
	cr_assert_eq(vsnl_task_spec_parse(obj_of(buf, VS_A_TASK), &tb, VSNL_CODEC_REQUEST, &err), 0);
	cr_assert(vsnl_task_get_admit(&tb));
}

Test(kjson, a_condition_time_must_be_kubernetes_own)
{
	static unsigned char buf[8192] __attribute__((aligned(8)));
	struct nlmsghdr *nlh = NULL;
	struct kr_doc doc;

	cr_assert_eq(read_json("{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":"
			       "\"PodGroup\",\"metadata\":{\"name\":\"pg\",\"namespace\":\"ns\"},"
			       "\"spec\":{},\"status\":{\"conditions\":[{\"type\":\"Scheduled\","
			       "\"status\":\"True\",\"lastTransitionTime\":\"yesterday\"}]}}",
			       "podgroups ns/pg", 0, &doc), 0, "%s", err.msg);
	cr_assert_eq(kr_put_new(&doc, buf, sizeof(buf), &nlh, &err), -EINVAL);
	cr_assert(strstr(err.msg, "podgroups ns/pg:1: document 1 (PodGroup ns/pg): "), "%s",
		  err.msg);
	cr_assert(strstr(err.msg, "status.conditions[0].lastTransitionTime"), "%s", err.msg);
	cr_assert(strstr(err.msg, "\"yesterday\" is not a time"), "%s", err.msg);
}

Test(kjson, a_refused_object_says_where)
{
	static unsigned char buf[8192] __attribute__((aligned(8)));
	struct nlmsghdr *nlh = NULL;
	struct kr_doc doc;

	cr_assert_eq(read_json("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":"
			       "\"n1\"},\"status\":{\"allocatable\":{\"cpu\":\"eight\"}}}",
			       "nodes n1", 0, &doc), 0, "%s", err.msg);
	cr_assert_eq(kr_put_new(&doc, buf, sizeof(buf), &nlh, &err), -EINVAL);
	cr_assert(strstr(err.msg, "nodes n1:1: document 1 (Node n1): "), "%s", err.msg);
	cr_assert(strstr(err.msg, "status.allocatable.cpu"), "%s", err.msg);
}

/* One object, not a file: a List is refused, and so is what is no object of a kind taken. */
Test(kjson, one_object_is_one_document)
{
	struct kr_doc doc;

	cr_assert_eq(read_json("{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[]}",
			       "pods ns/l", 0, &doc), -EINVAL);
	cr_assert_str_eq(err.msg, "pods ns/l:1: document 1: a List is not one object");
	cr_assert_eq(read_json("[1]", "pods ns/x", 1, &doc), -EINVAL);
	cr_assert(strstr(err.msg, "pods ns/x:1: document 1: a manifest must be a mapping"),
		  "%s", err.msg);
	cr_assert_eq(read_json("{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":"
			       "{\"name\":\"s\"}}", "pods ns/s", 2, &doc), -EINVAL);
	cr_assert(strstr(err.msg, "kind Secret (v1) is not one"), "%s", err.msg);
	cr_assert_eq(read_json("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":"
			       "{\"name\":\"p\"}}", "pods default/p", 3, &doc), 0, "%s", err.msg);
	cr_assert_eq(doc.kind, KR_POD);
	cr_assert_str_eq(doc.ns, "default");
	cr_assert_str_eq(doc.label, "document 1 (Pod default/p)");
	cr_assert_str_eq(doc.file, "pods default/p");
	cr_assert_eq(doc.item, 0);
}
