// SPDX-License-Identifier: Apache-2.0
/*
 * The podgroup controller (Volcano's pg_controller_handler.go): PodGroups
 * for bare tasks, made when the first task of their key is added and
 * collected when the last goes; and the shadow PodGroups of other
 * schedulers' pods (Volcano's cache).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "controllers/pgctl.h"
#include "controllers/qctl.h"
#include "core/log.h"

void vs_pgctl_name(const char *key, char *buf)
{
	size_t len = strlen(key);
	size_t room = VS_DNS_SUBDOMAIN_MAX - (sizeof(VS_PGCTL_PREFIX) - 1);
	size_t keep;

	if (len <= room) {
		snprintf(buf, VS_PGCTL_NAME_BUF, VS_PGCTL_PREFIX "%s", key);
		return;
	}
	/* the head, ending alphanumeric, then "-" and eight hex digits */
	keep = room - 9;
	while (keep && !isalnum((unsigned char)key[keep - 1]))
		keep--;
	snprintf(buf, VS_PGCTL_NAME_BUF, VS_PGCTL_PREFIX "%.*s-%08x", (int)keep, key,
		 vs_str_hash_bytes(key, len));
}

/* The task's request as vs_task_add() will compute it (GetPodQuotaUsage). */
static void pod_request(const struct vs_task_spec *spec, struct vs_res *req)
{
	*req = spec->req;
	if (spec->has_init_req)
		vs_res_set_max(req, &spec->init_req);
	vs_res_set(req, VS_RES_PODS, vs_res_get(req, VS_RES_PODS) + 1);
}

/*
 * Volcano's createNormalPodPGIfNotExist for a pod of this scheduler (@ours),
 * admitted into @queue; else the shadow PodGroup of its cache.
 */
static int make_podgroup(struct vs_ctl *ctl, const struct vs_task_spec *spec, const char *name,
			 const char *queue, bool ours, struct vs_job **pg, struct vs_err *err)
{
	struct vs_job_spec js;
	int ret;

	vs_job_spec_init(&js, spec->ns, name);
	js.min_member = 1;
	js.created = spec->created;	/* made when the pod was seen */
	if (ours) {
		ret = vs_qctl_admit_podgroup(ctl, queue, err);
		if (ret)
			return ret;
		js.queue = queue;
		pod_request(spec, &js.min_resources);
		js.has_min_resources = true;
		js.priority_class = spec->priority_class;
	}
	return vs_job_add(ctl->cl, &js, pg, err);
}

int vs_pgctl_task_add(struct vs_ctl *ctl, const struct vs_task_spec *spec, const char *queue,
		      bool ours, struct vs_task **out, struct vs_err *err)
{
	struct vs_cluster *cl = ctl->cl;
	char name[VS_PGCTL_NAME_BUF];
	struct vs_task_spec ts = *spec;
	struct vs_job *pg;
	bool made = false;
	int ret;

	/* the names first: the PodGroup's is made from them */
	ret = vs_check_dns_label(spec->ns, spec->ns ? strlen(spec->ns) : 0, "namespace", err);
	if (!ret)
		ret = vs_check_dns_subdomain(spec->name, spec->name ? strlen(spec->name) : 0,
					     "pod name", err);
	if (!ret && spec->owner_uid && *spec->owner_uid)
		ret = vs_check_dns_subdomain(spec->owner_uid, strlen(spec->owner_uid),
					     "owner UID", err);
	if (ret)
		return ret;
	if (vs_task_find(cl, spec->ns, spec->name))
		return vs_err_set(err, EEXIST, "pod %s/%s already exists", spec->ns, spec->name);

	vs_pgctl_name(vs_pgctl_key(spec->owner_uid, spec->name), name);
	pg = vs_job_find(cl, spec->ns, name);
	if (pg && pg->vjob) {
		ret = vs_err_set(err, EPERM, "podgroup %s belongs to job %s/%s", name,
				 pg->vjob->ns, pg->vjob->name);
		goto out_prefix;
	}
	if (!pg) {
		ret = make_podgroup(ctl, spec, name, queue, ours, &pg, err);
		if (ret)
			goto out_prefix;
		made = true;
	}

	ts.job = name;
	ret = vs_task_add(cl, &ts, out, err);
	if (ret) {
		if (made)
			vs_job_del(cl, pg, NULL);
		return ret;
	}
	if (made) {
		vs_v(4, "%sPodGroup <%s/%s> created for Pod <%s/%s>", ours ? "" : "shadow ",
		     pg->ns, pg->name, spec->ns, spec->name);
		vs_ctl_podgroup_added(ctl, pg);
	}
	return 0;

out_prefix:
	vs_err_prefix(err, "pod %s/%s: ", spec->ns, spec->name);
	return ret;
}

void vs_pgctl_task_gone(struct vs_ctl *ctl, struct vs_job *pg, const char *key)
{
	char name[VS_PGCTL_NAME_BUF];

	if (pg->vjob || pg->nr_tasks)
		return;
	vs_pgctl_name(key, name);
	if (strcmp(pg->name, name))
		return;
	vs_v(4, "PodGroup <%s/%s> goes with the last Pod of %s", pg->ns, pg->name, key);
	vs_ctl_podgroup_remove(ctl, pg);
}
