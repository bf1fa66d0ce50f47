// SPDX-License-Identifier: Apache-2.0
/*
 * PriorityClasses: created, changed and destroyed in the cluster, with
 * Kubernetes' rule of at most one global default. See prioclass.h.
 */
#include <string.h>

#include "core/internal.h"
#include "core/prioclass.h"

struct vs_prioclass *vs_prioclass_default(const struct vs_cluster *cl)
{
	struct vs_prioclass *pc;

	list_for_each_entry(pc, &cl->prioclasses, list)
		if (pc->global_default)
			return pc;
	return NULL;
}

static int prioclass_spec_check(const struct vs_cluster *cl, const struct vs_prioclass *self,
				const struct vs_prioclass_spec *spec, struct vs_err *err)
{
	struct vs_prioclass *def;

	if ((unsigned int)spec->preemption_policy > VS_PREEMPT_NEVER)
		return vs_err_set(err, EINVAL, "bad preemption policy %d",
				  spec->preemption_policy);
	def = vs_prioclass_default(cl);
	if (spec->global_default && def && def != self)
		return vs_err_set(err, EINVAL, "%s is already the global default", def->name);
	return 0;
}

int vs_prioclass_add(struct vs_cluster *cl, const struct vs_prioclass_spec *spec,
		     struct vs_prioclass **out, struct vs_err *err)
{
	struct vs_txn_ent *ent;
	struct vs_prioclass *pc;
	int ret;

	ret = vs_check_dns_subdomain(spec->name, spec->name ? strlen(spec->name) : 0,
				     "priority class name", err);
	if (ret)
		return ret;
	if (vs_prioclass_find(cl, spec->name))
		return vs_err_set(err, EEXIST, "priority class %s already exists", spec->name);
	ret = VS_LIMIT_CHECK(cl, prioclasses, cl->nr_prioclasses, err);
	if (ret)
		return ret;
	ret = prioclass_spec_check(cl, NULL, spec, err);
	if (!ret && vs_txn_prep(cl, VS_TXN_ADD_PRIOCLASS, NULL, 0, &ent))
		ret = vs_err_set(err, ENOMEM, "out of memory");
	if (ret)
		goto out_prefix;
	pc = vs_pool_zalloc(&cl->prioclass_pool);
	if (pc)
		pc->name = vs_str_get_cstr(&cl->strs, spec->name);
	if (!pc || !pc->name) {
		vs_pool_free(&cl->prioclass_pool, pc);
		ret = vs_err_set(err, ENOMEM, "out of memory");
		goto out_prefix;
	}
	pc->seq = cl->seq++;
	pc->value = spec->value;
	pc->global_default = spec->global_default;
	pc->preemption_policy = spec->preemption_policy;
	vs_htable_add(&cl->prioclass_index, &pc->hnode, vs_str_hash(pc->name));
	vs_name_tree_add(&cl->prioclass_names, pc);
	list_add_tail(&pc->list, &cl->prioclasses);
	cl->nr_prioclasses++;
	if (ent) {
		ent->obj = pc;
		vs_txn_push(cl, ent);
	}
	if (out)
		*out = pc;
	return 0;

out_prefix:
	vs_err_prefix(err, "priority class %s: ", spec->name);
	return ret;
}

int vs_prioclass_update(struct vs_cluster *cl, struct vs_prioclass *pc,
			const struct vs_prioclass_spec *spec, struct vs_err *err)
{
	int ret = prioclass_spec_check(cl, pc, spec, err);
	struct vs_txn_ent *ent = NULL;

	if (!ret && vs_txn_prep_copy(cl, VS_TXN_PRIOCLASS_SPEC, pc, sizeof(*pc), &ent))
		ret = vs_err_set(err, ENOMEM, "out of memory");
	if (ret) {
		vs_err_prefix(err, "priority class %s: ", pc->name);
		return ret;
	}
	pc->value = spec->value;
	pc->global_default = spec->global_default;
	pc->preemption_policy = spec->preemption_policy;
	vs_txn_push(cl, ent);
	return 0;
}

void vs_prioclass_free(struct vs_cluster *cl, struct vs_prioclass *pc)
{
	vs_str_put(&cl->strs, pc->name);
	vs_pool_free(&cl->prioclass_pool, pc);
}

void vs_prioclass_del(struct vs_cluster *cl, struct vs_prioclass *pc)
{
	struct vs_txn_ent *ent = vs_txn_prep_nofail(cl, VS_TXN_DEL_PRIOCLASS, pc, 0);

	if (ent)
		ent->place.list = pc->list.prev;
	vs_htable_del(&cl->prioclass_index, &pc->hnode);
	vs_name_tree_del(&cl->prioclass_names, pc);
	list_del(&pc->list);
	cl->nr_prioclasses--;
	if (ent)
		vs_txn_push(cl, ent);	/* kept whole, freed by the commit */
	else
		vs_prioclass_free(cl, pc);
}

