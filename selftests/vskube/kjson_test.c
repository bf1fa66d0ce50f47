// SPDX-License-Identifier: Apache-2.0
/*
 * The API server's JSON read as manifests are (userspace/vskube/kjson.h,
 * mf_set_add()): each kind, written as the API server sends it (JSON,
 * with the fields a real server adds), must become the very object the
 * same manifest in YAML becomes: the requests sent to vschedd are
 * compared byte for byte. A refused object says where, in JSON's terms.
 */
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <criterion/criterion.h>

#include "kube/manifest.h"
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

static struct mf_set a, b;

static void init(void)
{
	cr_assert_eq(mf_set_init(&a), 0);
	cr_assert_eq(mf_set_init(&b), 0);
}

static void fini(void)
{
	mf_set_free(&a);
	mf_set_free(&b);
}

TestSuite(kjson, .init = init, .fini = fini);

static void add_json(struct mf_set *set, const char *text, const char *source)
{
	struct mf_err err = { { 0 } };
	json_error_t jerr;
	json_t *j = json_loads(text, 0, &jerr);
	struct vs_arg *root = calloc(1, sizeof(*root));

	cr_assert_not_null(j, "%s", jerr.text);
	cr_assert_not_null(root);
	cr_assert_eq(kj_to_arg(j, source, root), 0);
	json_decref(j);
	cr_assert_eq(mf_set_add(set, source, root, &err), 0, "%s", err.msg);
}

/* The request vschedd would get for @o. */
static size_t request(const struct mf_obj *o, void *buf, size_t cap)
{
	const struct mf_kind_info *k = mf_kind(o->kind);
	struct nlmsghdr *nlh = vsnl_msg_put(buf, cap, k->cmd_new, 0);

	cr_assert_not_null(nlh);
	cr_assert(mf_put_spec(o, nlh, cap));
	return nlh->nlmsg_len;
}

Test(kjson, objects_from_the_api_server_are_the_manifests_objects)
{
	struct mf_err err = { { 0 } };
	static char sources[ARRAY_SIZE(json)][32];
	static unsigned char ba[8192] __attribute__((aligned(8)));
	static unsigned char bb[8192] __attribute__((aligned(8)));

	cr_assert_eq(mf_set_parse(&a, "m.yaml", yaml, strlen(yaml), &err), 0, "%s", err.msg);
	cr_assert_eq(mf_set_build(&a, &err), 0, "%s", err.msg);

	for (u32 i = 0; i < ARRAY_SIZE(json); i++) {
		snprintf(sources[i], sizeof(sources[i]), "object %u", i);
		add_json(&b, json[i], sources[i]);
	}
	cr_assert_eq(mf_set_build(&b, &err), 0, "%s", err.msg);

	cr_assert_eq(a.nr_objs, b.nr_objs);
	cr_assert_eq(a.nr_objs, 5);
	for (u32 i = 0; i < a.nr_objs; i++) {
		size_t la = request(&a.objs[i], ba, sizeof(ba));
		size_t lb = request(&b.objs[i], bb, sizeof(bb));

		cr_assert_eq(a.objs[i].kind, b.objs[i].kind);
		cr_assert_str_eq(a.objs[i].name, b.objs[i].name);
		cr_assert_eq(la, lb, "%s: %zu bytes from YAML, %zu from JSON", a.objs[i].name, la,
			     lb);
		cr_assert_eq(memcmp(ba, bb, la), 0, "%s: the requests differ", a.objs[i].name);
	}
	/* And the pod is what Volcano makes of it: max(containers, init) + a pod. */
	{
		struct vs_task *t = vs_task_find(&b.cl, "team", "p1");

		cr_assert_not_null(t);
		cr_assert_eq(vs_res_get(t->req, VS_RES_CPU), 2000);
		cr_assert_eq(vs_res_get(t->req, VS_RES_MEMORY), 1LL << 30);
		cr_assert_eq(vs_res_get(t->req, VS_RES_PODS), 1);
		/* Without a creationTimestamp: the latest the set was given, its PodGroup's. */
		cr_assert_eq(t->created, 1795428001);
	}
	/* metadata.creationTimestamp is each object's creation time, offset or not. */
	cr_assert_eq(vs_queue_find(&b.cl, "q1")->created, 1795428000);
	cr_assert_eq(vs_job_find(&b.cl, "team", "pg1")->created, 1795428001);
	/* The PodGroup's Unschedulable condition is kept as given; other types are left out. */
	{
		struct vs_job *j = vs_job_find(&b.cl, "team", "pg1");
		const struct vs_pg_condition *c;

		cr_assert_not_null(j);
		c = &j->cond[VS_PG_COND_UNSCHEDULABLE];
		cr_assert(c->set && c->given && c->status);
		cr_assert_str_eq(vs_pg_cond_reason(c), "NotEnoughResources");
		cr_assert_str_eq(vs_pg_cond_message(c), "2/2 tasks in gang unschedulable");
		cr_assert_str_eq(vs_pg_cond_transition_id(c), "6b1e-uuid");
		cr_assert_eq(c->time, 1767225600, "2026-01-01T00:00:00Z, with its offset");
		cr_assert(!j->cond[VS_PG_COND_SCHEDULED].set);
	}
}

Test(kjson, a_condition_time_must_be_kubernetes_own)
{
	struct mf_err err = { { 0 } };

	add_json(&b, "{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\",\"kind\":\"PodGroup\","
		 "\"metadata\":{\"name\":\"pg\",\"namespace\":\"ns\"},\"spec\":{},\"status\":"
		 "{\"conditions\":[{\"type\":\"Scheduled\",\"status\":\"True\","
		 "\"lastTransitionTime\":\"yesterday\"}]}}", "podgroups ns/pg");
	cr_assert_neq(mf_set_build(&b, &err), 0);
	cr_assert(strstr(err.msg, "podgroups ns/pg:1: "), "%s", err.msg);
	cr_assert(strstr(err.msg, "status.conditions[0].lastTransitionTime"), "%s", err.msg);
	cr_assert(strstr(err.msg, "\"yesterday\" is not a time"), "%s", err.msg);
}

Test(kjson, a_refused_object_says_where)
{
	struct mf_err err = { { 0 } };

	add_json(&b, "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"},"
		 "\"status\":{\"allocatable\":{\"cpu\":\"eight\"}}}", "nodes n1");
	cr_assert_neq(mf_set_build(&b, &err), 0);
	cr_assert(strstr(err.msg, "nodes n1:1: "), "%s", err.msg);
	cr_assert(strstr(err.msg, "status.allocatable.cpu"), "%s", err.msg);
}

Test(kjson, every_json_type_becomes_its_yaml_value)
{
	json_t *j = json_loads("{\"s\":\"x\",\"i\":-3,\"f\":1.5,\"t\":true,\"n\":null,"
			       "\"a\":[1,{\"k\":\"v\"}],\"e\":{}}", 0, NULL);
	struct vs_arg arg;
	const struct vs_arg *v;

	cr_assert_not_null(j);
	cr_assert_eq(kj_to_arg(j, "src", &arg), 0);
	json_decref(j);
	cr_assert_eq(arg.type, VS_ARG_MAP);
	cr_assert_eq(arg.map->nr, 7);
	cr_assert_str_eq(arg.map->kv[0].key, "s", "in the object's order");
	cr_assert_str_eq(arg.map->source, "src");
	cr_assert_str_eq(vs_args_find(arg.map, "s")->s, "x");
	cr_assert_eq(vs_args_find(arg.map, "i")->i, -3);
	cr_assert_eq(vs_args_find(arg.map, "f")->type, VS_ARG_FLOAT);
	cr_assert(vs_args_find(arg.map, "t")->b);
	cr_assert_eq(vs_args_find(arg.map, "n")->type, VS_ARG_NULL);
	v = vs_args_find(arg.map, "a");
	cr_assert_eq(v->type, VS_ARG_SEQ);
	cr_assert_eq(v->seq.nr, 2);
	cr_assert_str_eq(vs_args_find(v->seq.items[1].map, "k")->s, "v");
	cr_assert_eq(vs_args_find(arg.map, "e")->map->nr, 0);
	vs_arg_free(&arg);
}
