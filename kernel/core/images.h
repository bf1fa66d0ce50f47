/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Container images on nodes, as Volcano's scheduler cache summarises them
 * for kube-scheduler's ImageLocality (its addNodeImageStates): the cluster
 * keeps, per image name, the size the first node reporting it gave and how
 * many nodes report it now; a node keeps, per name it reports, the summary
 * taken when it was added or last updated: that size, and how many nodes
 * reported the name at that moment. Summaries are not refreshed when other
 * nodes come to have the image later: Volcano's are not either, and its
 * scores follow them.
 *
 * Names are interned; a node's summaries are sorted by name pointer, so
 * that a pod's image (interned too) is looked up by pointer.
 */
#ifndef VS_CORE_IMAGES_H
#define VS_CORE_IMAGES_H

#include "core/compiler.h"
#include "core/err.h"
#include "core/htable.h"

struct vs_strtab;

/* One entry of a node's status.images: its names (tags, digests) and size. */
struct vs_image_spec {
	const char *const *names;
	u32 nr_names;
	s64 size;			/* sizeBytes, >= 0 */
};

/* The cluster's images: one state per name some node reports. */
struct vs_image_table {
	struct vs_htable states;
};

struct vs_image_state;

struct vs_node_image {
	const char *name;		/* interned (its state's) */
	s64 size;			/* the name's size when the node was summarised */
	u32 num_nodes;			/* nodes reporting it then, this one included */
	struct vs_image_state *state;	/* a reference held */
};

struct vs_node_images {
	u32 nr;
	struct vs_node_image v[];	/* by name pointer */
};

int vs_image_table_init(struct vs_image_table *tab);
/* Every node's summaries must be freed first. */
void vs_image_table_destroy(struct vs_image_table *tab);
/* How many names some node reports now. */
size_t vs_image_table_count(const struct vs_image_table *tab);
/* How many nodes report @name (interned, or NULL) now. */
u32 vs_image_table_nodes(const struct vs_image_table *tab, const char *name);

/*
 * Summarise a node's images (each name once, the first size given for
 * it), counting the node in its names' states in @tab, into *@out (NULL
 * for none). Names must be non-empty and sizes non-negative: -EINVAL,
 * nothing changed; -ENOMEM likewise.
 */
int vs_node_images_new(struct vs_image_table *tab, struct vs_strtab *strs,
		       const struct vs_image_spec *specs, u32 nr, struct vs_node_images **out,
		       struct vs_err *err);

/*
 * The node no longer reports its names (deleted, or about to be summarised
 * again): uncounted. The summaries keep their states until they are freed,
 * so that an undo can count the node in them again: a name no node reports
 * is gone for the nodes that come next (they make a new state, with their
 * size), as Volcano's cache forgets it.
 */
void vs_node_images_release(const struct vs_node_images *imgs);

/* Undo vs_node_images_release(): the node counted again in the same states. Cannot fail. */
void vs_node_images_restore(const struct vs_node_images *imgs);

/* Free summaries (released first, if they were counted), and their states' last references. */
void vs_node_images_free(struct vs_image_table *tab, struct vs_strtab *strs,
			 struct vs_node_images *imgs);

/*
 * vs_cluster_check()'s audit: every live node's summaries given to
 * vs_node_images_audit() between the start and the end, which checks that
 * each state counts the nodes reporting its name now, that a name has one
 * live state, and that summaries are sorted and of their states.
 */
void vs_image_audit_start(const struct vs_image_table *tab);
int vs_node_images_audit(const struct vs_node_images *imgs, struct vs_err *err);
int vs_image_audit_end(const struct vs_image_table *tab, struct vs_err *err);

/* The images of a pod's containers, init ones first: interned, ":latest" when untagged. */
struct vs_task_images {
	u32 nr;				/* its containers */
	const char *name[];
};

/*
 * @names as a pod's images in *@out (NULL for none), each interned in
 * @strs as kube-scheduler's normalizedImageName makes it. A name must be
 * non-empty and at most 1024 bytes: -EINVAL, nothing kept; -ENOMEM likewise.
 */
int vs_task_images_new(struct vs_strtab *strs, const char *const *names, u32 nr,
		       struct vs_task_images **out, struct vs_err *err);
void vs_task_images_free(struct vs_strtab *strs, struct vs_task_images *im);

/* The summary of @name (interned) on the node, or NULL. */
const struct vs_node_image *vs_node_image_find(const struct vs_node_images *imgs,
					       const char *name);

#endif /* VS_CORE_IMAGES_H */
