// SPDX-License-Identifier: Apache-2.0
/*
 * PodGroup conditions: the one condition of each type a job keeps, as
 * Volcano keeps them in the PodGroup's status, either a cycle's own (gang's
 * Unschedulable, the Scheduled of a job that got its tasks) or one given
 * by a message (the status the API server has). See job.h.
 */
#include <stdlib.h>
#include <string.h>

#include "core/enum.h"
#include "core/job.h"

size_t vs_pg_cond_text_size(const struct vs_pg_condition *c)
{
	const char *id = vs_pg_cond_transition_id(c);
	size_t n;

	if (!c->text)
		return 0;
	n = (size_t)(id - c->text) + strlen(id) + 1;
	return c->given ? n + strlen(vs_pg_cond_reason(c)) + 1 : n;
}

/*
 * Write "message\0id\0", and @owned_reason after them, into @c's buffer,
 * and point c->reason at that copy (or at @static_reason). gang rewrites
 * the condition of every job that is not ready, every cycle, mostly with
 * the text it had: the buffer is kept, and grows in steps, so that the
 * steady state allocates nothing. -ENOMEM leaves @c as it was.
 */
static int cond_write(struct vs_pg_condition *c, const char *static_reason,
		      const char *owned_reason, const char *message, const char *id)
{
	size_t m = message ? strlen(message) : 0, i = id ? strlen(id) : 0;
	size_t r = owned_reason ? strlen(owned_reason) : 0, n = m + i + (r ? r + 3 : 2);
	char *p;

	if (!m && !i && !r) {
		free(c->text);
		c->text = NULL;
		c->cap = 0;
		c->reason = static_reason;
		return 0;
	}
	if (n > c->cap) {
		size_t cap = n < 64 ? 64 : (n + 64) & ~(size_t)63;
		char *buf = cap <= UINT32_MAX ? malloc(cap) : NULL;

		if (!buf)
			return -ENOMEM;
		free(c->text);
		c->text = buf;
		c->cap = (u32)cap;
	}
	p = c->text;
	memcpy(p, m ? message : "", m + 1);
	p += m + 1;
	memcpy(p, i ? id : "", i + 1);
	p += i + 1;
	c->reason = static_reason;
	if (r) {
		memcpy(p, owned_reason, r + 1);
		c->reason = p;
	}
	return 0;
}

int vs_job_set_condition(struct vs_job *job, enum vs_pg_cond_type type, bool status,
			 const char *reason, const char *message, u64 transition)
{
	struct vs_pg_condition *c = &job->cond[type];
	int ret = cond_write(c, reason, NULL, message, NULL);

	if (ret)
		return ret;
	c->set = true;
	c->status = status;
	c->given = false;
	c->transition = transition;
	c->time = 0;
	return 0;
}

int vs_job_take_condition(struct vs_job *job, const struct vs_pg_condition_spec *spec)
{
	struct vs_pg_condition *c;
	int ret;

	if ((unsigned int)spec->type >= VS_PG_COND_NR)
		return 0;
	c = &job->cond[spec->type];
	if (c->set && !c->given)
		return 0;
	ret = cond_write(c, NULL, spec->reason, spec->message, spec->transition_id);
	if (ret)
		return ret;
	c->set = true;
	c->status = spec->status;
	c->given = true;
	c->transition = 0;
	c->time = spec->time;
	return 0;
}

int vs_job_copy_condition(struct vs_job *job, enum vs_pg_cond_type type,
			  const struct vs_pg_condition *from)
{
	struct vs_pg_condition *c = &job->cond[type];
	int ret;

	if (!from->set)
		ret = cond_write(c, NULL, NULL, NULL, NULL);
	else if (from->given)
		ret = cond_write(c, NULL, from->reason, vs_pg_cond_message(from),
				 vs_pg_cond_transition_id(from));
	else
		ret = cond_write(c, from->reason, NULL, vs_pg_cond_message(from), NULL);

	if (ret)
		return ret;
	c->set = from->set;
	c->status = from->status;
	c->given = from->given;
	c->transition = from->transition;
	c->time = from->time;
	return 0;
}

const char *vs_pg_cond_type_name(enum vs_pg_cond_type type)
{
	static const char *const names[] = {
		[VS_PG_COND_UNSCHEDULABLE] = "Unschedulable",
		[VS_PG_COND_SCHEDULED] = "Scheduled",
	};

	return vs_enum_name(names, ARRAY_SIZE(names), type);
}

