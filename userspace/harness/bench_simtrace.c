// SPDX-License-Identifier: Apache-2.0
/*
 * The job traces "vsbench sim --trace" replays: CSV, a header naming the
 * columns, then one job per line (Documentation/simulation.md has the
 * columns). Every line is checked before anything runs, and the first
 * bad field is reported as FILE:LINE: column NAME: what is wrong, so a
 * trace either replays whole or not at all. The jobs come back sorted by
 * submission time (stable: lines submitted together keep their order).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "harness/bench.h"

enum trace_col {
	COL_SUBMIT,
	COL_NAME,
	COL_NAMESPACE,
	COL_QUEUE,
	COL_TASKS,
	COL_MIN_MEMBER,
	COL_CPU,
	COL_MEMORY,
	COL_DURATION,
	COL_PRIORITY,
	COL_QUEUE_WEIGHT,
	COL_NR
};

static const struct {
	const char *name;
	bool required;
} cols[COL_NR] = {
	[COL_SUBMIT]		= { "submit_s", true },
	[COL_NAME]		= { "name", true },
	[COL_NAMESPACE]		= { "namespace", false },
	[COL_QUEUE]		= { "queue", false },
	[COL_TASKS]		= { "tasks", true },
	[COL_MIN_MEMBER]	= { "min_member", false },
	[COL_CPU]		= { "cpu", true },
	[COL_MEMORY]		= { "memory", true },
	[COL_DURATION]		= { "duration_s", true },
	[COL_PRIORITY]		= { "priority", false },
	[COL_QUEUE_WEIGHT]	= { "queue_weight", false },
};

#define TRACE_MAX_FIELDS	32
#define TRACE_MAX_TASKS		100000
#define TRACE_MAX_SECONDS	1e6

struct parser {
	const char *prog, *file;
	unsigned int line;
	int at[COL_NR];			/* each column's field, -1 when absent */
	unsigned int nr_fields;		/* the header's */
	struct vsbench_trace *t;
	size_t cap_jobs, cap_queues;
};

/* FILE:LINE: column NAME: what is wrong; always -1. */
static __printf(3, 4) int bad(const struct parser *p, enum trace_col c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s:%u: column %s: ", p->prog, p->file, p->line, cols[c].name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

/* Split @line at commas into @f; the number of fields, or TRACE_MAX_FIELDS + 1. */
static unsigned int split(char *line, char **f)
{
	unsigned int n = 0;

	for (char *s = line;; s++) {
		char *c = strchr(s, ',');

		if (n == TRACE_MAX_FIELDS)
			return n + 1;
		if (c)
			*c = '\0';
		f[n++] = trim(s);
		if (!c)
			return n;
		s = c;
	}
}

static int parse_header(struct parser *p, char **f, unsigned int n)
{
	for (unsigned int c = 0; c < COL_NR; c++)
		p->at[c] = -1;
	if (n > TRACE_MAX_FIELDS) {
		fprintf(stderr, "%s: %s:%u: more than %d columns\n", p->prog, p->file, p->line,
			TRACE_MAX_FIELDS);
		return -1;
	}
	for (unsigned int i = 0; i < n; i++) {
		unsigned int c;

		for (c = 0; c < COL_NR && strcmp(f[i], cols[c].name); c++)
			;
		if (c == COL_NR) {
			fprintf(stderr, "%s: %s:%u: column %s: not a column of a trace (see "
				"Documentation/simulation.md)\n", p->prog, p->file, p->line,
				*f[i] ? f[i] : "\"\"");
			return -1;
		}
		if (p->at[c] >= 0)
			return bad(p, c, "named twice in the header");
		p->at[c] = (int)i;
	}
	for (unsigned int c = 0; c < COL_NR; c++)
		if (cols[c].required && p->at[c] < 0)
			return bad(p, c, "missing from the header");
	p->nr_fields = n;
	return 0;
}

static int parse_seconds(const struct parser *p, enum trace_col c, const char *s, bool zero,
			 double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v < 0 || (!zero && v == 0) ||
	    v > TRACE_MAX_SECONDS)
		return bad(p, c, "\"%s\" is not a number of seconds %s 0 (at most 1e6)", s,
			   zero ? ">=" : ">");
	*out = v;
	return 0;
}

static int parse_long(const struct parser *p, enum trace_col c, const char *s, long min,
		      long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < min || v > max)
		return bad(p, c, "\"%s\" is not a whole number from %ld to %ld", s, min, max);
	*out = v;
	return 0;
}

static int parse_name(const struct parser *p, enum trace_col c, const char *s, bool label,
		      char **out)
{
	struct vs_err err = { { 0 } };

	if ((label ? vs_check_dns_label : vs_check_dns_subdomain)(s, strlen(s), cols[c].name,
								   &err))
		return bad(p, c, "%s", err.msg);
	*out = strdup(s);
	if (!*out) {
		fprintf(stderr, "%s: out of memory\n", p->prog);
		return -1;
	}
	return 0;
}

static int parse_quantity(const struct parser *p, enum trace_col c, const char *s,
			  unsigned int milli, bool zero, s64 *out)
{
	struct vs_err err = { { 0 } };

	if (vs_quantity_parse(s, strlen(s), milli, out, &err))
		return bad(p, c, "%s", err.msg);
	if (!zero && !*out)
		return bad(p, c, "\"%s\" is zero: a task must request some", s);
	return 0;
}

/* The queue @name with @weight (0: not given), the same as on the lines before. */
static int add_queue(struct parser *p, const char *name, unsigned long weight)
{
	struct vsbench_trace *t = p->t;
	struct vsbench_trace_queue *q;

	for (size_t i = 0; i < t->nr_queues; i++) {
		q = &t->queues[i];
		if (strcmp(q->name, name))
			continue;
		if (weight && q->weight_line && q->weight != weight)
			return bad(p, COL_QUEUE_WEIGHT, "queue %s has weight %u on line %u, "
				   "not %lu", name, q->weight, q->weight_line, weight);
		if (weight && !q->weight_line) {
			q->weight = (u32)weight;
			q->weight_line = p->line;
		}
		return 0;
	}
	if (t->nr_queues == p->cap_queues) {
		size_t cap = p->cap_queues ? 2 * p->cap_queues : 16;
		struct vsbench_trace_queue *n = realloc(t->queues, cap * sizeof(*n));

		if (!n)
			goto nomem;
		t->queues = n;
		p->cap_queues = cap;
	}
	q = &t->queues[t->nr_queues];
	*q = (struct vsbench_trace_queue){ .name = strdup(name), .weight = weight ? (u32)weight : 1,
					   .weight_line = weight ? p->line : 0 };
	if (!q->name)
		goto nomem;
	t->nr_queues++;
	return 0;
nomem:
	fprintf(stderr, "%s: out of memory\n", p->prog);
	return -1;
}

static const char *field(const struct parser *p, char **f, enum trace_col c)
{
	return p->at[c] >= 0 ? f[p->at[c]] : "";
}

static int parse_job(struct parser *p, char **f, unsigned int n)
{
	struct vsbench_trace *t = p->t;
	struct vsbench_trace_job *j;
	char task[VS_DNS_SUBDOMAIN_MAX + 32];
	struct vs_err err = { { 0 } };
	const char *s;
	long v;

	if (n < p->nr_fields) {
		enum trace_col c = 0;

		while (p->at[c] != (int)n)
			c++;
		return bad(p, c, "missing: %u fields, the header names %u columns", n,
			   p->nr_fields);
	}
	if (n > p->nr_fields) {
		fprintf(stderr, "%s: %s:%u: more fields than the header's %u columns\n", p->prog,
			p->file, p->line, p->nr_fields);
		return -1;
	}
	if (t->nr_jobs == p->cap_jobs) {
		size_t cap = p->cap_jobs ? 2 * p->cap_jobs : 64;
		struct vsbench_trace_job *nj = realloc(t->jobs, cap * sizeof(*nj));

		if (!nj) {
			fprintf(stderr, "%s: out of memory\n", p->prog);
			return -1;
		}
		t->jobs = nj;
		p->cap_jobs = cap;
	}
	j = &t->jobs[t->nr_jobs];
	*j = (struct vsbench_trace_job){ .line = p->line };
	/* counted now, so that what a bad field leaves is freed with the trace */
	t->nr_jobs++;

	if (parse_seconds(p, COL_SUBMIT, field(p, f, COL_SUBMIT), true, &j->submit) ||
	    parse_name(p, COL_NAME, field(p, f, COL_NAME), false, &j->name))
		return -1;
	s = field(p, f, COL_NAMESPACE);
	if (parse_name(p, COL_NAMESPACE, *s ? s : "default", true, &j->ns))
		return -1;
	s = field(p, f, COL_QUEUE);
	if (parse_name(p, COL_QUEUE, *s ? s : "default", false, &j->queue))
		return -1;
	if (parse_long(p, COL_TASKS, field(p, f, COL_TASKS), 1, TRACE_MAX_TASKS, &v))
		return -1;
	j->tasks = (u32)v;
	/* the last task's name is the longest */
	snprintf(task, sizeof(task), "%s-task-%u", j->name, j->tasks - 1);
	if (vs_check_dns_subdomain(task, strlen(task), "pod name", &err))
		return bad(p, COL_NAME, "its pods' names are too long: %s", err.msg);
	s = field(p, f, COL_MIN_MEMBER);
	j->min_member = j->tasks;
	if (*s) {
		if (parse_long(p, COL_MIN_MEMBER, s, 1, j->tasks, &v))
			return -1;
		j->min_member = (u32)v;
	}
	if (parse_quantity(p, COL_CPU, field(p, f, COL_CPU), 3, false, &j->cpu) ||
	    parse_quantity(p, COL_MEMORY, field(p, f, COL_MEMORY), 0, true, &j->memory) ||
	    parse_seconds(p, COL_DURATION, field(p, f, COL_DURATION), false, &j->duration))
		return -1;
	s = field(p, f, COL_PRIORITY);
	if (*s) {
		if (parse_long(p, COL_PRIORITY, s, 0, 1000000000, &v))
			return -1;
		j->priority = (s32)v;
		j->has_priority = true;
	}
	s = field(p, f, COL_QUEUE_WEIGHT);
	v = 0;
	if (*s && parse_long(p, COL_QUEUE_WEIGHT, s, 1, 65535, &v))
		return -1;
	return add_queue(p, j->queue, (unsigned long)v);
}

static int cmp_submit(const void *a, const void *b)
{
	const struct vsbench_trace_job *x = a, *y = b;

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int cmp_name(const void *a, const void *b)
{
	const struct vsbench_trace_job *x = *(const struct vsbench_trace_job *const *)a;
	const struct vsbench_trace_job *y = *(const struct vsbench_trace_job *const *)b;
	int r = strcmp(x->ns, y->ns);

	if (!r)
		r = strcmp(x->name, y->name);
	return r ? r : (x->line < y->line ? -1 : x->line > y->line);
}

/* Two jobs of one name in one namespace: the later line is refused. */
static int check_unique(struct parser *p)
{
	struct vsbench_trace *t = p->t;
	const struct vsbench_trace_job **by;
	int ret = 0;

	if (t->nr_jobs < 2)
		return 0;
	by = malloc(t->nr_jobs * sizeof(*by));
	if (!by) {
		fprintf(stderr, "%s: out of memory\n", p->prog);
		return -1;
	}
	for (size_t i = 0; i < t->nr_jobs; i++)
		by[i] = &t->jobs[i];
	qsort(by, t->nr_jobs, sizeof(*by), cmp_name);
	for (size_t i = 1; i < t->nr_jobs && !ret; i++) {
		if (strcmp(by[i]->ns, by[i - 1]->ns) || strcmp(by[i]->name, by[i - 1]->name))
			continue;
		p->line = by[i]->line;
		ret = bad(p, COL_NAME, "job %s/%s is on line %u already", by[i]->ns, by[i]->name,
			  by[i - 1]->line);
	}
	free(by);
	return ret;
}

int vsbench_trace_load(const char *file, const char *prog, struct vsbench_trace *t)
{
	struct parser p = { .prog = prog, .file = file, .t = t };
	char *line = NULL, *f[TRACE_MAX_FIELDS + 1];
	bool header = false;
	size_t cap = 0;
	FILE *in;
	int ret = 0;

	*t = (struct vsbench_trace){ 0 };
	in = fopen(file, "r");
	if (!in) {
		fprintf(stderr, "%s: %s: %s\n", prog, file, strerror(errno));
		return -1;
	}
	while (!ret && getline(&line, &cap, in) >= 0) {
		char *s = trim(line);
		unsigned int n;

		p.line++;
		if (!*s || *s == '#')
			continue;
		n = split(s, f);
		if (!header) {
			ret = parse_header(&p, f, n);
			header = true;
		} else {
			ret = parse_job(&p, f, n);
		}
	}
	if (!ret && ferror(in)) {
		fprintf(stderr, "%s: %s: %s\n", prog, file, strerror(errno));
		ret = -1;
	}
	if (!ret && !t->nr_jobs) {
		fprintf(stderr, "%s: %s: no job%s\n", prog, file, header ? "" : " and no header");
		ret = -1;
	}
	free(line);
	fclose(in);
	if (!ret)
		ret = check_unique(&p);
	if (ret) {
		vsbench_trace_free(t);
		return -1;
	}
	qsort(t->jobs, t->nr_jobs, sizeof(*t->jobs), cmp_submit);
	return 0;
}

void vsbench_trace_free(struct vsbench_trace *t)
{
	for (size_t i = 0; i < t->nr_jobs; i++) {
		free(t->jobs[i].name);
		free(t->jobs[i].ns);
		free(t->jobs[i].queue);
	}
	for (size_t i = 0; i < t->nr_queues; i++)
		free(t->queues[i].name);
	free(t->jobs);
	free(t->queues);
	*t = (struct vsbench_trace){ 0 };
}
