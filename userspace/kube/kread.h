/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kubernetes manifests as protocol requests, without the core: the reader
 * vsctl apply and vskube read objects with (Documentation/architecture.md,
 * "Userspace"). It replaced a reader on the core's specs, whose keys,
 * refusals and messages it keeps.
 *
 * A file is read by libvsnl's YAML tree (lib/ytree.h) into its documents,
 * each with the line it starts on; a v1 List gives its items. Each
 * document's apiVersion and kind say what it is; its fields are then
 * walked against a table of keys per object, each key with a parser, as
 * kfields.c walks the core's tree: the open objects of Kubernetes (KR_OPEN)
 * take any key, the closed structures vsched reads whole refuse an unknown
 * one as a typo. What the walk reads is put at once, with the generated
 * codec (lib/codec_gen.h), into the object's NEW request: only translation
 * is done here (a Kubernetes field to its protocol attribute). Defaulting,
 * validation of names and values, and Volcano's and Kubernetes' rules are
 * the daemon's, which refuses a batch's message by its sequence number.
 *
 * What the reader itself refuses names the file, the line, the document
 * and the field by its path, in manifest.c's words:
 *
 *	m.yaml:14: document 3 (Pod ns/p1): spec.containers[0].resources.requests.cpu:
 *	invalid quantity "abc": no digits
 *
 * The kinds are moved here one at a time; kr_put_new() says which it reads.
 */
#ifndef KUBE_KREAD_H
#define KUBE_KREAD_H

#include <stddef.h>
#include <linux/netlink.h>

#include "lib/codec.h"
#include "lib/compiler.h"
#include "lib/vsnl.h"
#include "lib/ytree.h"

#define KR_PATH_MAX	512

/* The kinds, in the order objects are created (and deleted backwards): manifest.h's. */
enum kr_kind {
	KR_PRIOCLASS,
	KR_QUEUE,
	KR_NODE,
	KR_PODGROUP,
	KR_VJOB,
	KR_POD,
	KR_HYPERNODE,
	KR_NR_KINDS
};

/* What a kind is, in manifests and on the wire. */
struct kr_kind_info {
	const char *api;		/* "scheduling.volcano.sh/v1beta1" */
	const char *kind;		/* "PodGroup" */
	bool namespaced;
	u8 cmd_new, cmd_del;
	u16 attr;			/* VS_A_PODGROUP: the object's nest */
	u16 a_ns, a_name;		/* its key in that nest; a_ns 0 for cluster-scoped kinds */
};

const struct kr_kind_info *kr_kind(enum kr_kind kind);

/* One document of a file, or one item of a List. */
struct kr_doc {
	const char *file;		/* as named in messages */
	u32 index;			/* 1-based, in its file */
	u32 item;			/* 1 + its index in a List's items, else 0 */
	u32 line;			/* where it starts */
	enum kr_kind kind;
	const char *ns;			/* NULL for cluster-scoped kinds; "default" when not given */
	const char *name;		/* NULL when it has none (refused by kr_put_new()) */
	char label[320];		/* "document 3 (Pod ns/p1)", for messages */
	const struct vsnl_ynode *root;
	const char *scheduler;		/* whose pods are sent (NULL: "volcano"), the caller's to set */
	/*
	 * The caller's to set: the object exists already and is mirrored
	 * (vskube), not created (vsctl apply). A mirrored pod went through
	 * the API server's admission when it was created: it is sent as it
	 * is, without ADMIT (Documentation/protocol.md, "Pods on their way in").
	 */
	bool mirror;
};

/*
 * The documents of one file: @docs parsed by vsnl_yaml_parse_docs() (kept
 * by the caller while these live), each classified; empty documents are
 * skipped, as kubectl skips them, and a List's items are documents of
 * their own. 0, or -EINVAL (-ENOMEM) with @err naming the document.
 */
struct kr_docs {
	struct kr_doc *v;
	u32 nr;
};

int kr_docs_read(const char *file, const struct vsnl_ydocs *docs, struct kr_docs *out,
		 struct vsnl_err *err);
void kr_docs_free(struct kr_docs *docs);

/*
 * One object not read from a file (vskube's, from the API server's JSON)
 * into *@doc, as kr_docs_read() classifies a document: "document 1" of
 * @source, which messages name as they name a file ("pods ns/p1:1:
 * document 1 (Pod ns/p1): ..."). A List is refused: it is no one object.
 * @source and @root are kept by the caller while @doc lives.
 * 0, or -EINVAL with @err saying why.
 */
int kr_doc_of(const char *source, const struct vsnl_ynode *root, struct kr_doc *doc,
	      struct vsnl_err *err);

/*
 * The request that creates the object of @doc, in @buf (@cap bytes):
 * *@nlh, started by vsnl_msg_put(), its seq left for the batch. 0;
 * -EINVAL when the document is refused (@err says where), -EMSGSIZE when
 * the request does not fit, -EOPNOTSUPP for a kind not read here yet.
 * KR_SKIPPED for a document read and not to be sent, *@nlh untouched and
 * @err's msg saying why (no errno): a pod of another scheduler than
 * @doc's on no node, which that scheduler places and the daemon refuses.
 */
#define KR_SKIPPED	1

int kr_put_new(const struct kr_doc *doc, void *buf, size_t cap, struct nlmsghdr **nlh,
	       struct vsnl_err *err);

/*
 * The request that deletes the object @kind @ns/@name (@ns ignored for a
 * cluster-scoped kind): its DEL by key, written as kr_put_new() writes.
 * 0, -EINVAL (a key the policy refuses, @err says why), -EMSGSIZE.
 */
int kr_put_del(enum kr_kind kind, const char *ns, const char *name, void *buf, size_t cap,
	       struct nlmsghdr **nlh, struct vsnl_err *err);

/* ---- the walk, for the kinds' tables ---- */

struct kr {
	const struct kr_doc *doc;
	struct vsnl_err *err;
	struct nlmsghdr *nlh;		/* the request being written */
	size_t cap;
	char path[KR_PATH_MAX];		/* where the walk is: "spec.containers[0]" */
	size_t path_len;
	char name[KR_PATH_MAX + 64];	/* kr_name()'s answer */
};

/*
 * One key of an object: its parser reads the value into @slot, at @off in
 * the object being filled (and may put attributes of its own). A null
 * value is skipped; bit i of the walk's @seen tells that field i was
 * read. A NULL parser takes the key and ignores it; KR_ANY_OTHER (with a
 * NULL parser, last) takes every key the table does not name.
 */
struct kr_field {
	const char *key;
	int (*parse)(struct kr *kr, const struct vsnl_ypair *kv, void *slot);
	size_t off;
};

#define KR_ANY_OTHER	"*"

#define KR_FIELD(k, fn, type, member) { .key = k, .parse = fn, .off = offsetof(type, member) }
#define KR_IGNORE(k)	{ .key = k }
#define KR_OPEN		{ .key = KR_ANY_OTHER }

/* "FILE:LINE: DOC: message" into the walk's error; -EINVAL. */
__printf(3, 4)
int kr_err(struct kr *kr, u32 line, const char *fmt, ...);

/* How messages name @kv at the walk's place: "metadata.labels", "requests[nvidia.com/gpu]". */
const char *kr_name(struct kr *kr, const struct vsnl_ypair *kv);

/*
 * A path written step by step, as snprintf() writes: cut to fit @size with
 * its NUL, and the length it would have had returned. kr_path_append()
 * appends @n bytes of @s to @buf, which holds @len; kr_path_step() one
 * step: ".key", or "[key]" for a key that is empty or holds a dot or a
 * slash. kfields.c writes its paths with them too.
 */
size_t kr_path_append(char *buf, size_t size, size_t len, const char *s, size_t n);
size_t kr_path_step(char *buf, size_t size, size_t len, const char *key);

size_t kr_push(struct kr *kr, const char *key);
size_t kr_push_idx(struct kr *kr, u32 idx);
void kr_pop(struct kr *kr, size_t len);

/* "a mapping", "a string"...: what a value is, in manifest.c's words. */
const char *kr_type_name(const struct vsnl_ynode *n);

/* 0 if @kv holds @type, else "NAME must be WHAT, not TYPE". */
int kr_want(struct kr *kr, const struct vsnl_ypair *kv, enum vsnl_ytype type, const char *what);

/*
 * The list @kv item by item: @fn is given each item and its index, with
 * the path at "KEY[i]", and @ctx; the first refusal stops the walk and is
 * the answer. A value that is no list is refused.
 */
typedef int (*kr_item_fn)(struct kr *kr, const struct vsnl_ynode *item, u32 idx, void *ctx);
int kr_each_item(struct kr *kr, const struct vsnl_ypair *kv, kr_item_fn fn, void *ctx);

/* Walk the mapping @map against @fields, in file order; @what names a root that is no mapping. */
int kr_walk(struct kr *kr, const struct vsnl_ynode *map, const char *what,
	    const struct kr_field *fields, u32 nr, void *obj, u64 *seen);
/* kr_walk() of the value of @kv, one level down. */
int kr_walk_kv(struct kr *kr, const struct vsnl_ypair *kv, const struct kr_field *fields,
	       u32 nr, void *obj, u64 *seen);

/* Whether the field @key of @fields was read, by the walk's @seen. */
bool kr_has(const struct kr_field *fields, u32 nr, u64 seen, const char *key);
#define KR_HAS(fields, seen, key)	kr_has(fields, ARRAY_SIZE(fields), seen, key)

/* ---- parsers ---- */

int kr_str(struct kr *kr, const struct vsnl_ypair *kv, void *slot);	/* const char * */
int kr_bool(struct kr *kr, const struct vsnl_ypair *kv, void *slot);	/* bool */
int kr_s32(struct kr *kr, const struct vsnl_ypair *kv, void *slot);	/* s32 */
/* Kubernetes' int32 counts, 0..2^31-1, into a u32. */
int kr_count(struct kr *kr, const struct vsnl_ypair *kv, void *slot);
/* A mapping of strings (labels, annotations), checked; the slot is not written. */
int kr_str_map(struct kr *kr, const struct vsnl_ypair *kv, void *slot);
int kr_get_int(struct kr *kr, const struct vsnl_ypair *kv, s64 min, s64 max, s64 *out);
/*
 * A string among an enum's display names (lib/codec_gen.h's
 * vsnl_<enum>_names) into a u32; @what names it in the message that lists
 * them. "" is *@present false: the daemon's default.
 */
int kr_enum(struct kr *kr, const struct vsnl_ypair *kv, const char *const *names, u32 nr,
	    const char *what, u32 *out, bool *present);
/*
 * A time as Kubernetes writes one (RFC 3339: "2026-01-01T00:00:00Z", a
 * fraction and an offset allowed), in seconds since 1970: kr_parse_time()
 * 0 or -1; kr_time() a parser into a u64 (kfields.c's kf_time() too).
 */
int kr_parse_time(const char *s, u64 *t);
int kr_time(struct kr *kr, const struct vsnl_ypair *kv, void *slot);

/*
 * A codec put's answer @ret: an -EINVAL (the policy refuses the value)
 * becomes "FILE:LINE: DOC: FIELD: why" at @at's line (the document's when
 * @at is NULL); any other answer is returned as it is.
 */
int kr_put_ret(struct kr *kr, const struct vsnl_ynode *at, const char *field, int ret);

/* metadata: any key (the name and namespace are the document's, kr_docs_read()). */
int kr_meta(struct kr *kr, const struct vsnl_ypair *kv, void *slot);

/*
 * volcano.sh/preemptable of a pod's or a PodGroup's metadata: the
 * annotation, else the label (mappings of strings, or NULL), in Go's
 * strconv.ParseBool spellings, put as the u8 0/1 attribute @type of @set;
 * nothing when neither has it. Another value is refused, naming where it
 * is ("metadata.labels[volcano.sh/preemptable]: \"yes\" is not a boolean"),
 * where Volcano would warn and read false.
 */
int kr_put_preemptable(struct kr *kr, const struct vsnl_ypair *annotations,
		       const struct vsnl_ypair *labels, const struct vsnl_codec_set *set,
		       u16 type);

/* ---- resource lists and labels (kread_res.c) ---- */

/* Resources in a list: more is refused (the core takes 16 dimensions). */
#define KR_RES_MAX	32

/*
 * A resource list in the protocol's units (lib/quantity.h: millicores,
 * bytes, a count, milli-units), in the order first written; the names are
 * the tree's. @line is where the list was written, for the daemon's
 * refusals of a name.
 */
struct kr_res {
	struct kr_res_ent {
		const char *name;
		s64 v;
	} e[KR_RES_MAX];
	u32 nr;
	u32 line;
};

/* A parser: a mapping of quantities ("500m", 2, 1.5, "4Gi") into a struct kr_res. */
int kr_res(struct kr *kr, const struct vsnl_ypair *kv, void *slot);
/* The entry of @name, added (at 0) when @add; NULL when absent or full. */
struct kr_res_ent *kr_res_get(struct kr_res *r, const char *name, bool add);
/*
 * @r added to @to (the sum held at INT64_MAX - 1, the largest finite
 * quantity), and each of @r's at least in @to (kr_res_max()). -ENOSPC
 * when @to cannot take another name.
 */
int kr_res_add(struct kr_res *to, const struct kr_res *r);
int kr_res_max(struct kr_res *to, const struct kr_res *r);

/*
 * @r as the nest @type of @set (whose nested set is res): cpu, memory and
 * pods, then the others as scalars, in their order. Refusals are named by
 * @field, at @r's line.
 */
int kr_put_res(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
	       const struct kr_res *r, const char *field);

/*
 * The mapping of strings @kv (labels, a nodeSelector) as the nest @type of
 * @set (whose nested set is labels), one item per pair, in file order.
 * A NULL @kv puts nothing.
 */
int kr_put_labels(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		  const struct vsnl_ypair *kv);

/* ---- what pods and VolcanoJob task templates share (kread_podspec.c, kread_affinity.c) ---- */

/*
 * Parsers of a pod spec's containers: "containers" into the sum of their
 * requests (a limit without its request makes the request, as Kubernetes
 * defaults a container), "initContainers" into the largest of each.
 * The slot is a struct kr_res, its line the list's; an empty list of init
 * containers leaves it 0: a pod has an init-request only when it has init
 * containers (Volcano's GetPodResourceRequest).
 */
int kr_containers(struct kr *kr, const struct vsnl_ypair *kv, void *slot);
int kr_init_containers(struct kr *kr, const struct vsnl_ypair *kv, void *slot);

/* The most ports a pod's containers may list (Kubernetes sets no bound). */
#define KR_PORTS_MAX	128

/* kr_containers()'s slot: the containers' request and their ports, each checked. */
struct kr_containers {
	struct kr_res req;
	struct kr_port {
		u32 container, host;	/* host 0: none written */
		u32 protocol;		/* enum vs_port_protocol_uapi, defaulted */
		const char *ip;		/* hostIP, NULL when empty */
		u32 line;
		u32 in_container, idx;	/* containers[in_container].ports[idx] */
	} ports[KR_PORTS_MAX];
	u32 nr_ports;
};

/*
 * The host ports of @c, each a nest @type of @set (nested set host-port):
 * a port with a hostPort, or any port of a pod on the host's network
 * (@host_network), whose hostPort Kubernetes defaults to its containerPort.
 * The same protocol, hostIP and hostPort twice is refused, naming it
 * under @path ("spec.containers"), as the API server refuses it.
 */
int kr_put_host_ports(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		      const struct kr_containers *c, bool host_network, const char *path);

/*
 * spec.topologySpreadConstraints @kv, each a nest @type of @set (nested
 * set spread); maxSkew, topologyKey and whenUnsatisfiable required, the
 * names of the enums checked, the values left to the daemon. A NULL @kv
 * puts nothing.
 */
int kr_put_spreads(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		   const struct vsnl_ypair *kv);

/*
 * The images of the init containers, then of the containers, of the pod
 * spec @spec (at @path), each a string @type of @set, as ImageLocality
 * reads them; an empty one is left out, one not a string refused. The
 * walk of @spec checked the lists.
 */
int kr_put_images(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		  const struct vsnl_ynode *spec, const char *path);

/*
 * The list of tolerations @kv, each a nest @type of @set (nested set
 * toleration) of what it writes: an operator or effect by the spec's names
 * ("" is the default: Equal, every effect), tolerationSeconds. A NULL @kv
 * puts nothing.
 */
int kr_put_tolerations(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		       const struct vsnl_ypair *kv);

/*
 * A parser: a list of strings (affinity's values and namespaces, lifecycle
 * policies' events), checked whole; the slot is the const struct
 * vsnl_ypair * of the list, for the caller to put.
 */
int kr_strs(struct kr *kr, const struct vsnl_ypair *kv, void *slot);

/* A pod spec's affinity @kv as the nest @type of @set (nested set affinity). */
int kr_put_affinity(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		    const struct vsnl_ypair *kv);

/* ---- the kinds (one file each: kread_<kind>.c); each writes kr->nlh's object nest ---- */

/* Each string of @kv (kr_strs()) as an attribute @type of @set. */
int kr_put_strs(struct kr *kr, const struct vsnl_ypair *kv, const struct vsnl_codec_set *set,
		u16 type);
/* A LabelSelector {matchLabels, matchExpressions} as the nest @type (enum vs_lsel_attr) of @set. */
int kr_put_lsel(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		const struct vsnl_ypair *kv);

/* ---- topology requests (kread_topo.c), each written as it is read ---- */

/* A networkTopology {mode, highestTierAllowed, highestTierName} as the nest @type of @set. */
int kr_put_net_topology(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
			const struct vsnl_ypair *kv);
/* A PodGroup's subGroupPolicy list, each entry a nest @type of @set. */
int kr_put_subgroups(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		     const struct vsnl_ypair *kv);
/* A VolcanoJob task's partitionPolicy as the nest @type of @set. */
int kr_put_partition(struct kr *kr, const struct vsnl_codec_set *set, u16 type,
		     const struct vsnl_ypair *kv);

int kr_put_prioclass(struct kr *kr);
int kr_put_queue(struct kr *kr);
int kr_put_node(struct kr *kr);
int kr_put_podgroup(struct kr *kr);
int kr_put_hypernode(struct kr *kr);
int kr_put_pod(struct kr *kr);
int kr_put_vjob(struct kr *kr);

#endif /* KUBE_KREAD_H */
