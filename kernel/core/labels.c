// SPDX-License-Identifier: Apache-2.0
/*
 * Label sets, taints and tolerations: construction with Kubernetes'
 * validation, interning of every string, and the matching rules. See
 * labels.h.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/labels.h"
#include "core/names.h"

static size_t str_len(const char *s)
{
	return s ? strlen(s) : 0;
}

/* Intern @s (NULL as ""); NULL only when memory is exhausted. */
static const char *intern(struct vs_strtab *strs, const char *s)
{
	return vs_str_get(strs, s ? s : "", str_len(s));
}

static int cmp_label(const void *a, const void *b)
{
	const struct vs_label *la = a, *lb = b;

	return strcmp(la->key, lb->key);
}

void vs_labels_free(struct vs_strtab *strs, struct vs_labels *labels)
{
	if (!labels)
		return;
	for (u32 i = 0; i < labels->nr; i++) {
		vs_str_put(strs, labels->kv[i].key);
		vs_str_put(strs, labels->kv[i].value);
	}
	free(labels);
}

int vs_labels_new(struct vs_strtab *strs, const struct vs_kv_spec *specs, u32 nr,
		  const char *what, struct vs_labels **out, struct vs_err *err)
{
	struct vs_labels *labels;
	char keywhat[64], valwhat[64];
	int ret;

	*out = NULL;
	if (!nr)
		return 0;
	snprintf(keywhat, sizeof(keywhat), "%s key", what);
	snprintf(valwhat, sizeof(valwhat), "%s value", what);
	for (u32 i = 0; i < nr; i++) {
		ret = vs_check_label_key(specs[i].key, str_len(specs[i].key), keywhat, err);
		if (ret)
			return ret;
		ret = vs_check_label_value(specs[i].value, str_len(specs[i].value),
					   valwhat, err);
		if (ret) {
			vs_err_prefix(err, "%s \"%s\": ", what, specs[i].key);
			return ret;
		}
	}

	labels = calloc(1, sizeof(*labels) + nr * sizeof(labels->kv[0]));
	if (!labels)
		return vs_err_set(err, ENOMEM, "out of memory for %s", what);
	for (u32 i = 0; i < nr; i++) {
		labels->kv[labels->nr].key = intern(strs, specs[i].key);
		labels->kv[labels->nr].value = intern(strs, specs[i].value);
		if (!labels->kv[labels->nr].key || !labels->kv[labels->nr].value) {
			vs_str_put(strs, labels->kv[labels->nr].key);
			vs_str_put(strs, labels->kv[labels->nr].value);
			vs_labels_free(strs, labels);
			return vs_err_set(err, ENOMEM, "out of memory for %s", what);
		}
		labels->nr++;
	}
	qsort(labels->kv, labels->nr, sizeof(labels->kv[0]), cmp_label);
	for (u32 i = 1; i < labels->nr; i++) {
		if (labels->kv[i].key == labels->kv[i - 1].key) {
			ret = vs_err_set(err, EINVAL, "%s key \"%s\" given twice", what,
					 labels->kv[i].key);
			vs_labels_free(strs, labels);
			return ret;
		}
	}
	*out = labels;
	return 0;
}

const char *vs_labels_get(const struct vs_labels *labels, const char *ikey)
{
	/* Sets are small: a scan comparing pointers beats a binary search. */
	if (!labels)
		return NULL;
	for (u32 i = 0; i < labels->nr; i++)
		if (labels->kv[i].key == ikey)
			return labels->kv[i].value;
	return NULL;
}

bool vs_labels_match(const struct vs_labels *labels, const struct vs_labels *selector)
{
	if (!selector)
		return true;
	for (u32 i = 0; i < selector->nr; i++)
		if (vs_labels_get(labels, selector->kv[i].key) != selector->kv[i].value)
			return false;
	return true;
}

bool vs_labels_equal(const struct vs_labels *a, const struct vs_labels *b)
{
	u32 nr = vs_labels_count(a);

	if (nr != vs_labels_count(b))
		return false;
	/* sorted by key, interned: equal sets hold the same pointers in order */
	for (u32 i = 0; i < nr; i++)
		if (a->kv[i].key != b->kv[i].key || a->kv[i].value != b->kv[i].value)
			return false;
	return true;
}

/* ---- taints ---- */

static const char *const effect_names[] = {
	[VS_TAINT_NO_SCHEDULE]		= "NoSchedule",
	[VS_TAINT_PREFER_NO_SCHEDULE]	= "PreferNoSchedule",
	[VS_TAINT_NO_EXECUTE]		= "NoExecute",
	[VS_TAINT_EFFECT_ALL]		= "",
};

const char *vs_taint_effect_name(enum vs_taint_effect effect)
{
	if ((unsigned int)effect >= ARRAY_SIZE(effect_names))
		return "?";
	return effect_names[effect];
}

int vs_taint_effect_parse(const char *s, bool allow_empty,
			  enum vs_taint_effect *out, struct vs_err *err)
{
	if (!s || !*s) {
		if (!allow_empty)
			return vs_err_set(err, EINVAL,
					  "taint effect is required (NoSchedule, PreferNoSchedule or NoExecute)");
		*out = VS_TAINT_EFFECT_ALL;
		return 0;
	}
	for (unsigned int i = 0; i < VS_TAINT_EFFECT_ALL; i++) {
		if (!strcmp(s, effect_names[i])) {
			*out = (enum vs_taint_effect)i;
			return 0;
		}
	}
	return vs_err_set(err, EINVAL,
			  "unknown taint effect \"%s\" (NoSchedule, PreferNoSchedule or NoExecute)", s);
}

void vs_taints_free(struct vs_strtab *strs, struct vs_taints *taints)
{
	if (!taints)
		return;
	for (u32 i = 0; i < taints->nr; i++) {
		vs_str_put(strs, taints->t[i].key);
		vs_str_put(strs, taints->t[i].value);
	}
	free(taints);
}

int vs_taints_new(struct vs_strtab *strs, const struct vs_taint_spec *specs, u32 nr,
		  struct vs_taints **out, struct vs_err *err)
{
	struct vs_taints *taints;
	int ret;

	*out = NULL;
	if (!nr)
		return 0;
	for (u32 i = 0; i < nr; i++) {
		ret = vs_check_label_key(specs[i].key, str_len(specs[i].key), "taint key", err);
		if (ret)
			return ret;
		ret = vs_check_label_value(specs[i].value, str_len(specs[i].value),
					   "taint value", err);
		if (ret)
			return ret;
		if ((unsigned int)specs[i].effect >= VS_TAINT_EFFECT_ALL)
			return vs_err_set(err, EINVAL, "taint \"%s\": effect is required",
					  specs[i].key);
		for (u32 j = 0; j < i; j++)
			if (!strcmp(specs[j].key, specs[i].key) &&
			    specs[j].effect == specs[i].effect)
				return vs_err_set(err, EINVAL,
						  "taint \"%s\" with effect %s given twice",
						  specs[i].key,
						  vs_taint_effect_name(specs[i].effect));
	}

	taints = calloc(1, sizeof(*taints) + nr * sizeof(taints->t[0]));
	if (!taints)
		return vs_err_set(err, ENOMEM, "out of memory for taints");
	for (u32 i = 0; i < nr; i++) {
		struct vs_taint *t = &taints->t[i];

		t->key = intern(strs, specs[i].key);
		t->value = intern(strs, specs[i].value);
		t->effect = specs[i].effect;
		taints->nr++;
		if (!t->key || !t->value) {
			vs_taints_free(strs, taints);
			return vs_err_set(err, ENOMEM, "out of memory for taints");
		}
	}
	*out = taints;
	return 0;
}

/* ---- tolerations ---- */

int vs_toleration_op_parse(const char *s, enum vs_toleration_op *out,
			   struct vs_err *err)
{
	if (!s || !*s || !strcmp(s, "Equal")) {
		*out = VS_TOLERATION_EQUAL;
		return 0;
	}
	if (!strcmp(s, "Exists")) {
		*out = VS_TOLERATION_EXISTS;
		return 0;
	}
	return vs_err_set(err, EINVAL,
			  "unknown toleration operator \"%s\" (Equal or Exists)", s);
}

const char *vs_toleration_op_name(enum vs_toleration_op op)
{
	return op == VS_TOLERATION_EXISTS ? "Exists" : "Equal";
}

void vs_tolerations_free(struct vs_strtab *strs, struct vs_tolerations *tols)
{
	if (!tols)
		return;
	for (u32 i = 0; i < tols->nr; i++) {
		vs_str_put(strs, tols->t[i].key);
		vs_str_put(strs, tols->t[i].value);
	}
	free(tols);
}

int vs_tolerations_new(struct vs_strtab *strs, const struct vs_toleration_spec *specs,
		       u32 nr, struct vs_tolerations **out, struct vs_err *err)
{
	struct vs_tolerations *tols;
	int ret;

	*out = NULL;
	if (!nr)
		return 0;
	for (u32 i = 0; i < nr; i++) {
		const struct vs_toleration_spec *s = &specs[i];
		size_t klen = str_len(s->key), vlen = str_len(s->value);

		if (klen) {
			ret = vs_check_label_key(s->key, klen, "toleration key", err);
			if (ret)
				return ret;
		} else if (s->op != VS_TOLERATION_EXISTS) {
			return vs_err_set(err, EINVAL,
					  "toleration %u: an empty key needs operator Exists", i);
		}
		if (s->op == VS_TOLERATION_EXISTS && vlen)
			return vs_err_set(err, EINVAL,
					  "toleration %u: operator Exists takes no value", i);
		ret = vs_check_label_value(s->value, vlen, "toleration value", err);
		if (ret)
			return ret;
		if ((unsigned int)s->effect > VS_TAINT_EFFECT_ALL)
			return vs_err_set(err, EINVAL, "toleration %u: bad effect", i);
		if (s->has_seconds && s->effect != VS_TAINT_NO_EXECUTE &&
		    s->effect != VS_TAINT_EFFECT_ALL)
			return vs_err_set(err, EINVAL,
					  "toleration %u: tolerationSeconds needs effect NoExecute", i);
	}

	tols = calloc(1, sizeof(*tols) + nr * sizeof(tols->t[0]));
	if (!tols)
		return vs_err_set(err, ENOMEM, "out of memory for tolerations");
	for (u32 i = 0; i < nr; i++) {
		struct vs_toleration *t = &tols->t[i];

		t->key = intern(strs, specs[i].key);
		t->value = intern(strs, specs[i].value);
		t->op = specs[i].op;
		t->effect = specs[i].effect;
		t->has_seconds = specs[i].has_seconds;
		t->seconds = specs[i].seconds;
		tols->nr++;
		if (!t->key || !t->value) {
			vs_tolerations_free(strs, tols);
			return vs_err_set(err, ENOMEM, "out of memory for tolerations");
		}
	}
	*out = tols;
	return 0;
}

bool vs_toleration_tolerates(const struct vs_toleration *tol,
			     const struct vs_taint *taint)
{
	if (tol->effect != VS_TAINT_EFFECT_ALL && tol->effect != taint->effect)
		return false;
	/* An empty key with Exists tolerates every taint; interned: compare pointers. */
	if (*tol->key && tol->key != taint->key)
		return false;
	if (tol->op == VS_TOLERATION_EXISTS)
		return true;
	return tol->value == taint->value;
}
