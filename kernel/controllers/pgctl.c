// SPDX-License-Identifier: Apache-2.0
/*
 * The podgroup controller (Volcano's pg_controller_handler.go): PodGroups
 * for bare tasks, made when the task is added and collected when it goes.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "controllers/pgctl.h"
#include "controllers/qctl.h"
#include "core/log.h"

void vs_pgctl_name(const char *task_name, char *buf)
{
	size_t len = strlen(task_name);
	size_t room = VS_DNS_SUBDOMAIN_MAX - (sizeof(VS_PGCTL_PREFIX) - 1);
	size_t keep;

	if (len <= room) {
		snprintf(buf, VS_PGCTL_NAME_BUF, VS_PGCTL_PREFIX "%s", task_name);
		return;
	}
	/* the head, ending alphanumeric, then "-" and eight hex digits */
	keep = room - 9;
	while (keep && !isalnum((unsigned char)task_name[keep - 1]))
		keep--;
	snprintf(buf, VS_PGCTL_NAME_BUF, VS_PGCTL_PREFIX "%.*s-%08x", (int)keep, task_name,
		 vs_str_hash_bytes(task_name, len));
}

/* The task's request as vs_task_add() will compute it (GetPodQuotaUsage). */
static void pod_request(const struct vs_task_spec *spec, struct vs_res *req)
{
	*req = spec->req;
	if (spec->has_init_req)
		vs_res_set_max(req, &spec->init_req);
	vs_res_set(req, VS_RES_PODS, vs_res_get(req, VS_RES_PODS) + 1);
}

int vs_pgctl_task_add(struct vs_ctl *ctl, const struct vs_task_spec *spec, const char *queue,
		      struct vs_task **out, struct vs_err *err)
{
	struct vs_cluster *cl = ctl->cl;
	char name[VS_PGCTL_NAME_BUF];
	struct vs_task_spec ts = *spec;
	struct vs_job_spec js;
	struct vs_job *pg;
	bool made = false;
	int ret;

	/* the names first: the PodGroup's is made from them */
	ret = vs_check_dns_label(spec->ns, spec->ns ? strlen(spec->ns) : 0, "namespace", err);
	if (!ret)
		ret = vs_check_dns_subdomain(spec->name, spec->name ? strlen(spec->name) : 0,
					     "pod name", err);
	if (ret)
		return ret;
	if (vs_task_find(cl, spec->ns, spec->name))
		return vs_err_set(err, EEXIST, "pod %s/%s already exists", spec->ns, spec->name);

	vs_pgctl_name(spec->name, name);
	pg = vs_job_find(cl, spec->ns, name);
	if (pg && pg->vjob) {
		ret = vs_err_set(err, EPERM, "podgroup %s belongs to job %s/%s", name,
				 pg->vjob->ns, pg->vjob->name);
		goto out_prefix;
	}
	if (!pg) {
		ret = vs_qctl_admit_podgroup(ctl, queue, err);
		if (ret)
			goto out_prefix;
		vs_job_spec_init(&js, spec->ns, name);
		js.queue = queue;
		js.min_member = 1;
		pod_request(spec, &js.min_resources);
		js.has_min_resources = true;
		js.priority_class = spec->priority_class;
		js.created = spec->created;	/* made when the pod was seen */
		ret = vs_job_add(cl, &js, &pg, err);
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
		vs_v(4, "PodGroup <%s/%s> created for Pod <%s/%s>", pg->ns, pg->name, spec->ns,
		     spec->name);
		vs_ctl_podgroup_added(ctl, pg);
	}
	return 0;

out_prefix:
	vs_err_prefix(err, "pod %s/%s: ", spec->ns, spec->name);
	return ret;
}

void vs_pgctl_task_gone(struct vs_ctl *ctl, struct vs_job *pg, const char *task_name)
{
	char name[VS_PGCTL_NAME_BUF];

	if (pg->vjob || pg->nr_tasks)
		return;
	vs_pgctl_name(task_name, name);
	if (strcmp(pg->name, name))
		return;
	vs_v(4, "PodGroup <%s/%s> goes with its Pod %s", pg->ns, pg->name, task_name);
	vs_ctl_podgroup_remove(ctl, pg);
}
