/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kubernetes manifests as vsched objects, for "vsctl apply -f" and "vsctl
 * delete -f" (Documentation/vsctl.md, "vsctl apply and delete"), and for
 * the objects vskube reads from the API server (JSON is YAML too).
 *
 * A set of manifests is read in two steps. mf_set_parse() splits each file
 * into its YAML documents (and a v1 List into its items) and checks what
 * every document is: its apiVersion and kind among those taken (v1 Node and
 * Pod, scheduling.volcano.sh/v1beta1 PodGroup and Queue, batch.volcano.sh
 * /v1alpha1 Job, scheduling.k8s.io/v1 PriorityClass). mf_set_build() then
 * translates the documents, kind by kind in dependency order whatever the
 * order of the files, with Volcano's rules, into a private in-process
 * cluster: the objects there are exactly what the daemon would store, and
 * their NEW requests are written by the core's own fills.
 *
 * Any error stops the build with one message naming the file, the line,
 * the document and the field:
 *
 *	m.yaml:14: document 3 (Pod ns/p1): spec.containers[0].resources.requests.cpu:
 *	invalid quantity "abc": no digits
 */
#ifndef KUBE_MANIFEST_H
#define KUBE_MANIFEST_H

#include <linux/netlink.h>

#include "core/cluster.h"
#include "sched/conf.h"

/* The kinds, in the order objects are created (and deleted backwards). */
enum mf_kind {
	MF_PRIOCLASS,
	MF_QUEUE,
	MF_NODE,
	MF_PODGROUP,
	MF_VJOB,
	MF_POD,
	MF_NR_KINDS
};

#define MF_ERR_MAX	1024

struct mf_err {
	char msg[MF_ERR_MAX];
};

/* One document of a file (or one item of a List). */
struct mf_doc {
	const char *file;		/* as named on the command line; "stdin" for "-" */
	u32 index;			/* 1-based, in its file */
	u32 item;			/* 1 + its index in a List's items, else 0 */
	u32 line;			/* where it starts */
	enum mf_kind kind;
	const char *ns;			/* NULL for cluster-scoped kinds */
	const char *name;		/* NULL when it has none (an error, at build) */
	char label[320];		/* "document 3 (Pod ns/p1)", for messages */
	struct vs_arg *root;
};

/* One object to send: made from a document, or for it (a pod's own PodGroup). */
struct mf_obj {
	enum mf_kind kind;
	const struct mf_doc *doc;
	void *obj;			/* in the set's cluster; NULL when skipped */
	const char *ns, *name;		/* its key (ns NULL for cluster-scoped kinds) */
	bool implicit;			/* made for a pod, as Volcano's podgroup controller */
	bool has_status;		/* its manifest gave its status (PodGroup phase, Queue state) */
	const char *skipped;		/* not sent, and why */
	/* what the caller learns of the daemon: */
	bool exists;
	u32 seq;
};

struct mf_set {
	struct vs_cluster cl;
	const char *scheduler;		/* the schedulerName of vsched's pods: "volcano" */
	/*
	 * Without the daemon (--dry-run), a priority class the manifests do
	 * not hold cannot be looked up: @warn is told and the pod gets
	 * priority 0. With it, the daemon's classes are given before the
	 * build (mf_set_add_prioclass()) and an unknown one is an error.
	 */
	bool offline;
	void (*warn)(void *arg, const char *msg);
	void *warn_arg;
	/*
	 * Go on past a document that cannot be built (vskube: one bad
	 * object in the API server must not keep the others out): its
	 * message goes to @refused (with @warn_arg), what it made is left
	 * out, and the build goes on. Out of memory still stops it.
	 */
	bool keep_going;
	void (*refused)(void *arg, const struct mf_doc *doc, const char *msg);

	char **files;			/* the names, owned */
	u32 nr_files;
	struct vs_arg **roots;		/* the parsed documents, owned */
	u32 nr_roots;
	struct mf_doc *docs;
	u32 nr_docs, cap_docs;
	struct mf_obj *objs;		/* after the build: by kind, then in file order */
	u32 nr_objs, cap_objs;
	struct vs_prioclass **known;	/* the daemon's classes, not sent */
	u32 nr_known;
};

int mf_set_init(struct mf_set *set);
void mf_set_free(struct mf_set *set);

/*
 * Split the YAML @text of @file (named in messages) into its documents and
 * check their kinds. An empty document is skipped, as kubectl skips it.
 */
int mf_set_parse(struct mf_set *set, const char *file, const char *text, size_t len,
		 struct mf_err *err);

/*
 * Take one object already parsed (@root, allocated with calloc(): the set
 * owns and frees it, also after an error), as the first document of
 * @source (named in messages: "pods ns/p1"). vskube hands the API
 * server's objects in this way, from JSON.
 */
int mf_set_add(struct mf_set *set, const char *source, struct vs_arg *root, struct mf_err *err);

/* Read @path ("-": standard input, named "stdin" in messages) and parse it. */
int mf_set_read(struct mf_set *set, const char *path, struct mf_err *err);

/* A priority class the daemon has: pods may name it; it is not sent. */
int mf_set_add_prioclass(struct mf_set *set, const struct vs_prioclass_spec *spec,
			 struct mf_err *err);

/* Translate every document (once, after every file is parsed). */
int mf_set_build(struct mf_set *set, struct mf_err *err);

/* What a kind is, in manifests and on the wire. */
struct mf_kind_info {
	const char *api;		/* "scheduling.volcano.sh/v1beta1" */
	const char *kind;		/* "PodGroup" */
	const char *resource;		/* kubectl's name: "podgroup.scheduling.volcano.sh" */
	bool namespaced;
	u8 cmd_new, cmd_del, cmd_get;
	u16 attr, a_ns, a_name;		/* VS_A_PODGROUP and its key (a_ns 0: none) */
};

const struct mf_kind_info *mf_kind(enum mf_kind kind);

/*
 * Append the object to the request @nlh (its genlmsghdr in place) in a
 * buffer of @cap bytes: its spec, as the core's fills write it
 * (netlink/fill.h), or its key alone. False when it does not fit.
 */
bool mf_put_spec(const struct mf_obj *o, struct nlmsghdr *nlh, size_t cap);
bool mf_put_key(const struct mf_obj *o, struct nlmsghdr *nlh, size_t cap);

/* "m.yaml:14: document 3 (Pod ns/p1)", or for an object made for a document, that one's. */
void mf_obj_where(const struct mf_obj *o, char *buf, size_t size);

#endif /* KUBE_MANIFEST_H */
