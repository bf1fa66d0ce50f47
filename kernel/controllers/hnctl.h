/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HyperNode controller's label discovery: HyperNodes made from node
 * labels, as Volcano's hyperNode-controller makes them with its "label"
 * discoverer (pkg/controllers/hypernode/discovery/label).
 *
 * The configuration names network topology types, each a list of node
 * label keys from the top tier down to kubernetes.io/hostname. For each
 * type, the nodes that carry the same value of the key just above the
 * hostname form a HyperNode of tier 1 (its members those nodes, by
 * exactMatch); the tier-1 HyperNodes whose nodes carry the same value of
 * the next key form one of tier 2 (its members those HyperNodes), and so
 * on up. A node without a tier's key stops there: it is in no HyperNode of
 * that tier or above. One (key, value) is one HyperNode, whichever type
 * and parent reach it, as in Volcano.
 *
 * A discovered HyperNode carries the labels Volcano puts on it:
 * volcano.sh/network-topology-source=label and KEY=VALUE; its tierName is
 * KEY. Only HyperNodes with that source label are the controller's: it
 * makes, updates and deletes those, and leaves every other alone.
 *
 * Names are Volcano's, "hypernode-TYPE-tierN-XXXXX", TYPE the type's name
 * lowercased with what is not a letter, digit, '.' or '-' made '-'. Volcano
 * draws the five characters at random; here they come from a hash of KEY
 * and VALUE (attempt 0), so that a name depends on the labels alone, the
 * same in every run and after a restore. As in Volcano, a HyperNode of
 * ours labelled KEY=VALUE whose name begins "hypernode-TYPE-tierN" keeps
 * its name (the first by name), and a name some HyperNode has already is
 * passed over for the next attempt, up to 20.
 */
#ifndef VS_CONTROLLERS_HNCTL_H
#define VS_CONTROLLERS_HNCTL_H

#include "controllers/controllers.h"
#include "core/hypernode.h"

/* The label that marks a discovered HyperNode, and its value for this discoverer. */
#define VS_HNCTL_SOURCE_KEY	"volcano.sh/network-topology-source"
#define VS_HNCTL_SOURCE_LABEL	"label"
/* The node label that is the bottom of every type: nodes are tier 1's members. */
#define VS_HNCTL_HOSTNAME_KEY	"kubernetes.io/hostname"
/* Volcano's networkTopologyTypeLength and loopCount. */
#define VS_HNCTL_TYPE_NAME_MAX	20
#define VS_HNCTL_ATTEMPTS	20

struct vs_hnctl_type {
	char *name;
	char **keys;		/* tier 1's key first, up to the top tier's */
	u32 nr_keys;
};

/* What discovery does: no types, nothing. */
struct vs_hnctl_conf {
	struct vs_hnctl_type *types;	/* sorted by name */
	u32 nr_types;
};

/*
 * Add the type @name whose node label keys are @keys, top tier first and
 * kubernetes.io/hostname last, as the configuration writes them. -EINVAL,
 * with why, for a name that is empty, longer than 20 bytes or that makes
 * no valid HyperNode name, fewer than two keys, a last key that is not
 * kubernetes.io/hostname, a key that is no label key or repeats, a name
 * in use; @conf is unchanged then.
 */
int vs_hnctl_conf_add(struct vs_hnctl_conf *conf, const char *name, const char *const *keys,
		      u32 nr_keys, struct vs_err *err);
void vs_hnctl_conf_free(struct vs_hnctl_conf *conf);

/* Whether label discovery made @hn (it carries the source label "label"). */
bool vs_hnctl_owns(const struct vs_hypernode *hn);

/*
 * Discover the HyperNodes the nodes' labels make under @conf and bring the
 * controller's own to them: make the missing ones, update those that
 * differ, delete those no longer discovered. Explicit HyperNodes are not
 * touched. A name that cannot be found fails the whole sync before any
 * change (-EEXIST); a HyperNode that cannot be made or changed (a limit,
 * memory) is logged and the others go on; the first error is returned.
 * Not in a transaction of the core: call it between requests.
 */
int vs_hnctl_sync(struct vs_ctl *ctl, const struct vs_hnctl_conf *conf, struct vs_err *err);

#endif /* VS_CONTROLLERS_HNCTL_H */
