/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Label sets, taints and tolerations: the small, mostly read-only attribute
 * arrays that nodes and tasks carry.
 *
 * Every string in them is interned in the cluster's string table, so a
 * selector matches a label by comparing pointers. Each set is one immutable
 * allocation, sorted by key (label sets) so that two equal sets are equal
 * element by element; an empty set is a NULL pointer. An object that changes
 * its labels gets a new set and the old one is freed.
 */
#ifndef VS_CORE_LABELS_H
#define VS_CORE_LABELS_H

#include "core/compiler.h"
#include "core/err.h"
#include "core/strtab.h"

/* As callers describe them: plain C strings, validated on creation. */
struct vs_kv_spec {
	const char *key;
	const char *value;
};

struct vs_label {
	const char *key;	/* interned */
	const char *value;	/* interned */
};

struct vs_labels {
	u32 nr;
	struct vs_label kv[];	/* sorted by key (strcmp) */
};

/*
 * Build a set from @nr specs; *@out is NULL for an empty set. Keys must be
 * valid label keys and values valid label values (@what names the field in
 * messages: "label", "nodeSelector"); a key given twice is refused.
 */
int vs_labels_new(struct vs_strtab *strs, const struct vs_kv_spec *specs, u32 nr,
		  const char *what, struct vs_labels **out, struct vs_err *err);
void vs_labels_free(struct vs_strtab *strs, struct vs_labels *labels);

/* The value of the interned key @ikey, or NULL when the set lacks it. */
const char *vs_labels_get(const struct vs_labels *labels, const char *ikey);

static inline u32 vs_labels_count(const struct vs_labels *labels)
{
	return labels ? labels->nr : 0;
}

/* True when every label of @selector is in @labels with the same value. */
bool vs_labels_match(const struct vs_labels *labels, const struct vs_labels *selector);

/* Whether two sets (of one string table) hold the same labels; NULL is empty. */
bool vs_labels_equal(const struct vs_labels *a, const struct vs_labels *b);

/* ---- taints ---- */

enum vs_taint_effect {
	VS_TAINT_NO_SCHEDULE,
	VS_TAINT_PREFER_NO_SCHEDULE,
	VS_TAINT_NO_EXECUTE,
	VS_TAINT_EFFECT_ALL,		/* tolerations only: the empty effect */
};

struct vs_taint_spec {
	const char *key;
	const char *value;		/* may be NULL or "" */
	enum vs_taint_effect effect;
};

struct vs_taint {
	const char *key;		/* interned */
	const char *value;		/* interned, "" when none */
	enum vs_taint_effect effect;
};

struct vs_taints {
	u32 nr;
	struct vs_taint t[];
};

static inline u32 vs_taints_count(const struct vs_taints *taints)
{
	return taints ? taints->nr : 0;
}

/* Kubernetes' names: "NoSchedule", "PreferNoSchedule", "NoExecute" ("" -> ALL). */
int vs_taint_effect_parse(const char *s, bool allow_empty,
			  enum vs_taint_effect *out, struct vs_err *err);
const char *vs_taint_effect_name(enum vs_taint_effect effect);

/* Refuses bad keys and values, EFFECT_ALL, and a (key, effect) pair given twice. */
int vs_taints_new(struct vs_strtab *strs, const struct vs_taint_spec *specs, u32 nr,
		  struct vs_taints **out, struct vs_err *err);
void vs_taints_free(struct vs_strtab *strs, struct vs_taints *taints);

/* ---- tolerations ---- */

enum vs_toleration_op {
	VS_TOLERATION_EQUAL,		/* the default */
	VS_TOLERATION_EXISTS,
};

struct vs_toleration_spec {
	const char *key;		/* NULL or "": every key (Exists only) */
	enum vs_toleration_op op;
	const char *value;		/* NULL or "" */
	enum vs_taint_effect effect;	/* EFFECT_ALL matches every effect */
	bool has_seconds;
	s64 seconds;			/* tolerationSeconds, NoExecute only */
};

struct vs_toleration {
	const char *key;		/* interned, "" for every key */
	const char *value;		/* interned, "" when none */
	enum vs_toleration_op op;
	enum vs_taint_effect effect;
	bool has_seconds;
	s64 seconds;
};

struct vs_tolerations {
	u32 nr;
	struct vs_toleration t[];
};

int vs_toleration_op_parse(const char *s, enum vs_toleration_op *out,
			   struct vs_err *err);
const char *vs_toleration_op_name(enum vs_toleration_op op);

/*
 * Kubernetes' validation: an empty key needs operator Exists; Exists takes
 * no value; tolerationSeconds only with NoExecute (or every effect).
 */
int vs_tolerations_new(struct vs_strtab *strs, const struct vs_toleration_spec *specs,
		       u32 nr, struct vs_tolerations **out, struct vs_err *err);
void vs_tolerations_free(struct vs_strtab *strs, struct vs_tolerations *tols);

/* Does @tol tolerate @taint? (Kubernetes' Toleration.ToleratesTaint.) */
bool vs_toleration_tolerates(const struct vs_toleration *tol,
			     const struct vs_taint *taint);

#endif /* VS_CORE_LABELS_H */
