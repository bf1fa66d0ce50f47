// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for vskube's /metrics, /healthz and /readyz (userspace/vskube/
 * kserve.h). Each test starts a server on 127.0.0.1:0 and drives it from
 * its one thread as the bridge will: vskube's own HTTP client asks,
 * kcl_poll() waits on libcurl's sockets and kserve_fd() together, and
 * kserve_run() answers. Where the bytes on the wire matter (headers, HEAD,
 * requests no client library sends) a plain socket asks instead, in the
 * same loop. The expositions are compared byte for byte; the registry's
 * own cases (number forms, refused families) render it directly.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <criterion/criterion.h>

#include "vskube/kclient.h"
#include "vskube/kserve.h"

struct probe {
	bool fail;
	const char *why;
	u32 calls;
};

struct probes {
	struct probe health, ready;
	u32 logged;
	char last_log[256];
	u32 gathered;			/* gather() calls */
	int gather_ret;			/* what gather() answers */
	const char *queue;		/* a series gather() adds, NULL for none */
};

static int check(struct probe *p, struct vsnl_err *why)
{
	p->calls++;
	if (!p->fail)
		return 0;
	if (p->why)
		return vsnl_err_set(why, EAGAIN, "%s", p->why);
	return -EAGAIN;
}

static int healthz(void *ctx, struct vsnl_err *why)
{
	return check(&((struct probes *)ctx)->health, why);
}

static int readyz(void *ctx, struct vsnl_err *why)
{
	return check(&((struct probes *)ctx)->ready, why);
}

static void log_msg(void *ctx, const char *msg)
{
	struct probes *p = ctx;

	p->logged++;
	snprintf(p->last_log, sizeof(p->last_log), "%s", msg);
}

/* A family whose series exist only at the scrape, as the scheduler's queues. */
static int gather(void *ctx, struct vsnl_prom_reg *r)
{
	struct probes *p = ctx;
	const struct vsnl_prom_desc d = { .name = "volcano_queue_weight", .kind = VSNL_PROM_GAUGE,
				     .labels = { "queue_name" }, .values = &p->queue,
				     .nr_series = 1 };
	struct vsnl_err e = { 0 };
	struct vsnl_prom_metric *m;

	p->gathered++;
	if (!p->queue)
		return p->gather_ret;
	m = vsnl_prom_register(r, &d, &e);
	if (!m)
		return -EINVAL;
	vsnl_prom_set(m, 0, p->gathered);
	return p->gather_ret;
}

static const struct kserve_ops ops = {
	.healthz = healthz,
	.readyz = readyz,
	.log = log_msg,
	.gather = gather,
};

static struct probes probes;
static struct vsnl_prom_reg *reg;
static struct kserve *ks;
static struct kc_config cfg;
static struct kcl *c;

static u64 now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000 + (u64)ts.tv_nsec / 1000000;
}

static void setup(void)
{
	struct vsnl_err e = { 0 };
	char server[64];

	memset(&probes, 0, sizeof(probes));
	reg = vsnl_prom_reg_new();
	cr_assert_not_null(reg);
	ks = kserve_new("--listen-address", "127.0.0.1:0", reg, &ops, &probes, &e);
	cr_assert_not_null(ks, "%s", e.msg);
	cr_assert_neq(kserve_port(ks), 0);
	cr_assert_geq(kserve_fd(ks), 0);
	snprintf(server, sizeof(server), "http://127.0.0.1:%u", kserve_port(ks));
	memset(&cfg, 0, sizeof(cfg));
	cfg.server = strdup(server);
	c = kcl_new(&cfg, &e);
	cr_assert_not_null(c, "%s", e.msg);
}

static void teardown(void)
{
	kcl_free(c);
	kc_config_free(&cfg);
	kserve_free(ks);
	vsnl_prom_reg_free(reg);
}

TestSuite(kserve, .init = setup, .fini = teardown, .timeout = 60);

struct answer {
	bool done;
	long status;
	char *body;
	char why[CURL_ERROR_SIZE];
};

static void got(struct kcl_req *r, long status, const char *body, size_t len, const char *why,
		void *ctx)
{
	struct answer *a = ctx;

	a->done = true;
	a->status = status;
	a->body = strndup(body, len);
	snprintf(a->why, sizeof(a->why), "%s", why ? why : "");
}

/*
 * The bridge's loop: one wait on libcurl's sockets and the server's
 * descriptor, no longer than the server allows; the server runs when its
 * descriptor is readable or its timeout bounded the wait, as
 * libmicrohttpd asks, and only then.
 */
static void pump(const bool *done)
{
	struct vsnl_err e = { 0 };
	u64 deadline = now_ms() + 20000;

	while (!*done) {
		struct curl_waitfd w = { .fd = kserve_fd(ks), .events = CURL_WAIT_POLLIN };
		int t = kserve_timeout_ms(ks);

		cr_assert_eq(kcl_poll(c, &w, 1, t >= 0 && t < 1000 ? t : 1000, &e), 0, "%s",
			     e.msg);
		if (w.revents || t >= 0)
			cr_assert_eq(kserve_run(ks, &e), 0, "%s", e.msg);
		cr_assert_lt(now_ms(), deadline, "no answer in 20 s");
	}
}

/* @method @path through the client: the status and the body (the caller frees it). */
static long ask(const char *method, const char *path, char **body)
{
	struct answer a = { 0 };

	cr_assert_not_null(kcl_request(c, method, path, NULL, NULL, 0, got, &a));
	pump(&a.done);
	cr_assert_neq(a.status, 0, "%s %s: %s", method, path, a.why);
	*body = a.body;
	return a.status;
}

static void expect(const char *method, const char *path, long status, const char *body)
{
	char *got_body;
	long got_status = ask(method, path, &got_body);

	cr_expect_eq(got_status, status, "%s %s: %ld, not %ld", method, path, got_status, status);
	cr_expect_str_eq(got_body, body, "%s %s", method, path);
	free(got_body);
}

/*
 * @req written on a plain socket to @family's loopback, in the same loop;
 * what comes back until the server closes (or resets) the connection.
 */
static char *raw(int family, const char *req)
{
	struct sockaddr_in in = {
		.sin_family = AF_INET,
		.sin_port = htons(kserve_port(ks)),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct sockaddr_in6 in6 = {
		.sin6_family = AF_INET6,
		.sin6_port = htons(kserve_port(ks)),
		.sin6_addr = IN6ADDR_LOOPBACK_INIT,
	};
	size_t len = 0, cap = 4096, sent = 0, want = strlen(req);
	char *out = calloc(1, cap);
	u64 deadline = now_ms() + 20000;
	struct vsnl_err e = { 0 };
	int fd;

	cr_assert_not_null(out);
	fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	cr_assert_geq(fd, 0);
	/* The kernel completes a connection to a listening socket before accept(). */
	cr_assert_eq(connect(fd, family == AF_INET ? (struct sockaddr *)&in :
			     (struct sockaddr *)&in6, family == AF_INET ? sizeof(in) : sizeof(in6)),
		     0, "connect: %s", strerror(errno));
	cr_assert_eq(fcntl(fd, F_SETFL, O_NONBLOCK), 0);
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = fd, .events = POLLIN | (sent < want ? POLLOUT : 0) },
			{ .fd = kserve_fd(ks), .events = POLLIN },
		};
		int t = kserve_timeout_ms(ks);
		ssize_t n;

		cr_assert_geq(poll(p, 2, t >= 0 && t < 1000 ? t : 1000), 0);
		if (p[1].revents || t >= 0)
			cr_assert_eq(kserve_run(ks, &e), 0, "%s", e.msg);
		if (sent < want && (p[0].revents & POLLOUT)) {
			n = send(fd, req + sent, want - sent, MSG_NOSIGNAL);
			if (n > 0)
				sent += (size_t)n;
			else if (errno != EAGAIN)
				sent = want;	/* the server closed: read what it said */
		}
		if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			if (len + 1024 >= cap) {
				out = realloc(out, cap *= 2);
				cr_assert_not_null(out);
			}
			n = recv(fd, out + len, cap - len - 1, 0);
			if (n == 0 || (n < 0 && errno != EAGAIN))
				break;
			if (n > 0) {
				len += (size_t)n;
				out[len] = '\0';
			}
		}
		cr_assert_lt(now_ms(), deadline, "the server did not close the connection");
	}
	close(fd);
	return out;
}

/* A header's value in a raw answer, up to its line's end, in @buf. */
static const char *header(const char *resp, const char *name, char *buf, size_t len)
{
	const char *end = strstr(resp, "\r\n\r\n");
	size_t n = strlen(name);

	buf[0] = '\0';
	for (const char *l = strstr(resp, "\r\n"); l && l < end; l = strstr(l + 2, "\r\n")) {
		const char *eol;

		if (strncasecmp(l + 2, name, n) || l[2 + n] != ':')
			continue;
		eol = strstr(l + 2, "\r\n");
		snprintf(buf, len, "%.*s", (int)(eol - (l + 3 + n + 1)), l + 3 + n + 1);
		break;
	}
	return buf;
}

/* The exposition a scrape gets, byte for byte. */
static void expect_metrics(const char *want)
{
	expect("GET", "/metrics", 200, want);
}

/* What follows a raw answer's headers. */
static const char *body_of(const char *resp)
{
	const char *end = strstr(resp, "\r\n\r\n");

	cr_assert_not_null(end, "no end of headers in \"%s\"", resp);
	return end + 4;
}

static struct vsnl_prom_metric *must_register(const struct vsnl_prom_desc *d)
{
	struct vsnl_err e = { 0 };
	struct vsnl_prom_metric *m = vsnl_prom_register(reg, d, &e);

	cr_assert_not_null(m, "%s", e.msg);
	return m;
}

static const char *const results[] = { "success", "error" };

static const double latency_buckets[] = { 0.005, 0.1, 1, 2.5 };

Test(kserve, metrics_renders_each_kind_exactly)
{
	static const struct vsnl_prom_desc cycles = {
		.name = "vskube_cycles_total",
		.help = "Scheduling cycles run.",
		.kind = VSNL_PROM_COUNTER,
	};
	static const struct vsnl_prom_desc binds = {
		.name = "vskube_binds_total",
		.help = "Pods bound, by result.",
		.kind = VSNL_PROM_COUNTER,
		.labels = { "result" },
		.values = results,
		.nr_series = ARRAY_SIZE(results),
	};
	static const struct vsnl_prom_desc pending = {
		.name = "vskube_pending_pods",
		.help = "Pods waiting for a node.",
		.kind = VSNL_PROM_GAUGE,
	};
	static const struct vsnl_prom_desc latency = {
		.name = "vskube_bind_seconds",
		.help = "Time to bind, from the decision.",
		.kind = VSNL_PROM_HISTOGRAM,
		.buckets = latency_buckets,
		.nr_buckets = ARRAY_SIZE(latency_buckets),
	};
	struct vsnl_prom_metric *m_cycles = must_register(&cycles);
	struct vsnl_prom_metric *m_binds = must_register(&binds);
	struct vsnl_prom_metric *m_pending = must_register(&pending);
	struct vsnl_prom_metric *m_latency = must_register(&latency);

	vsnl_prom_inc(m_cycles, 0);
	vsnl_prom_add(m_cycles, 0, 2);
	vsnl_prom_add(m_binds, 0, 40);
	vsnl_prom_inc(m_binds, 1);
	vsnl_prom_set(m_pending, 0, 12);
	vsnl_prom_add(m_pending, 0, -4.5);
	/* On a bound counts in that bucket (le); above the last, in +Inf only. */
	vsnl_prom_observe(m_latency, 0, 0.005);
	vsnl_prom_observe(m_latency, 0, 0.05);
	vsnl_prom_observe(m_latency, 0, 0.1);
	vsnl_prom_observe(m_latency, 0, 2);
	vsnl_prom_observe(m_latency, 0, 7.25);
	expect_metrics("# HELP vskube_cycles_total Scheduling cycles run.\n"
		       "# TYPE vskube_cycles_total counter\n"
		       "vskube_cycles_total 3\n"
		       "# HELP vskube_binds_total Pods bound, by result.\n"
		       "# TYPE vskube_binds_total counter\n"
		       "vskube_binds_total{result=\"success\"} 40\n"
		       "vskube_binds_total{result=\"error\"} 1\n"
		       "# HELP vskube_pending_pods Pods waiting for a node.\n"
		       "# TYPE vskube_pending_pods gauge\n"
		       "vskube_pending_pods 7.5\n"
		       "# HELP vskube_bind_seconds Time to bind, from the decision.\n"
		       "# TYPE vskube_bind_seconds histogram\n"
		       "vskube_bind_seconds_bucket{le=\"0.005\"} 1\n"
		       "vskube_bind_seconds_bucket{le=\"0.1\"} 3\n"
		       "vskube_bind_seconds_bucket{le=\"1\"} 3\n"
		       "vskube_bind_seconds_bucket{le=\"2.5\"} 4\n"
		       "vskube_bind_seconds_bucket{le=\"+Inf\"} 5\n"
		       "vskube_bind_seconds_sum 9.405\n"
		       "vskube_bind_seconds_count 5\n");
}

Test(kserve, a_labelled_histogram_puts_le_last)
{
	static const char *const values[] = {
		"allocate", "success",
		"allocate", "error",
		"preempt", "success",
	};
	static const double buckets[] = { 1, 10 };
	static const struct vsnl_prom_desc d = {
		.name = "action_seconds",
		.kind = VSNL_PROM_HISTOGRAM,
		.labels = { "action", "result" },
		.values = values,
		.nr_series = 3,
		.buckets = buckets,
		.nr_buckets = ARRAY_SIZE(buckets),
	};
	struct vsnl_prom_metric *m = must_register(&d);
	size_t len;
	char *text;

	vsnl_prom_observe(m, 1, 0.5);
	vsnl_prom_observe(m, 1, 20);
	vsnl_prom_observe(m, 2, 10);
	text = vsnl_prom_render(reg, 0, &len);
	cr_assert_not_null(text);
	cr_expect_str_eq(text,
		"# TYPE action_seconds histogram\n"
		"action_seconds_bucket{action=\"allocate\",result=\"success\",le=\"1\"} 0\n"
		"action_seconds_bucket{action=\"allocate\",result=\"success\",le=\"10\"} 0\n"
		"action_seconds_bucket{action=\"allocate\",result=\"success\",le=\"+Inf\"} 0\n"
		"action_seconds_sum{action=\"allocate\",result=\"success\"} 0\n"
		"action_seconds_count{action=\"allocate\",result=\"success\"} 0\n"
		"action_seconds_bucket{action=\"allocate\",result=\"error\",le=\"1\"} 1\n"
		"action_seconds_bucket{action=\"allocate\",result=\"error\",le=\"10\"} 1\n"
		"action_seconds_bucket{action=\"allocate\",result=\"error\",le=\"+Inf\"} 2\n"
		"action_seconds_sum{action=\"allocate\",result=\"error\"} 20.5\n"
		"action_seconds_count{action=\"allocate\",result=\"error\"} 2\n"
		"action_seconds_bucket{action=\"preempt\",result=\"success\",le=\"1\"} 0\n"
		"action_seconds_bucket{action=\"preempt\",result=\"success\",le=\"10\"} 1\n"
		"action_seconds_bucket{action=\"preempt\",result=\"success\",le=\"+Inf\"} 1\n"
		"action_seconds_sum{action=\"preempt\",result=\"success\"} 10\n"
		"action_seconds_count{action=\"preempt\",result=\"success\"} 1\n");
	cr_expect_eq(len, strlen(text));
	free(text);
}

Test(kserve, label_values_and_help_are_escaped)
{
	static const char *const odd[] = { "say \"hi\"", "C:\\dir", "two\nlines" };
	static const struct vsnl_prom_desc d = {
		.name = "odd_total",
		.help = "Help with a \\ and a\nnewline, and \"quotes\" left alone.",
		.kind = VSNL_PROM_COUNTER,
		.labels = { "v" },
		.values = odd,
		.nr_series = ARRAY_SIZE(odd),
	};
	struct vsnl_prom_metric *m = must_register(&d);

	vsnl_prom_inc(m, 2);
	expect_metrics("# HELP odd_total Help with a \\\\ and a\\nnewline, "
		       "and \"quotes\" left alone.\n"
		       "# TYPE odd_total counter\n"
		       "odd_total{v=\"say \\\"hi\\\"\"} 0\n"
		       "odd_total{v=\"C:\\\\dir\"} 0\n"
		       "odd_total{v=\"two\\nlines\"} 1\n");
}

Test(kserve, numbers_are_written_as_prometheus_go_clients_write_them)
{
	static const char *const names[] = {
		"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k",
	};
	static const double v[] = {
		1e6, 123456, 1234567, 0.1 + 0.2, 1e-5, 0.0001, -2.5, (double)NAN, (double)INFINITY, -(double)INFINITY, 0,
	};
	static const struct vsnl_prom_desc d = {
		.name = "g",
		.kind = VSNL_PROM_GAUGE,
		.labels = { "n" },
		.values = names,
		.nr_series = ARRAY_SIZE(names),
	};
	struct vsnl_prom_metric *m = must_register(&d);
	size_t len;
	char *text;

	for (u32 i = 0; i < ARRAY_SIZE(v); i++)
		vsnl_prom_set(m, i, v[i]);
	text = vsnl_prom_render(reg, 16, &len);
	cr_assert_not_null(text);
	cr_expect_str_eq(text,
		"# TYPE g gauge\n"
		"g{n=\"a\"} 1e+06\n"
		"g{n=\"b\"} 123456\n"
		"g{n=\"c\"} 1.234567e+06\n"
		"g{n=\"d\"} 0.30000000000000004\n"
		"g{n=\"e\"} 1e-05\n"
		"g{n=\"f\"} 0.0001\n"
		"g{n=\"g\"} -2.5\n"
		"g{n=\"h\"} NaN\n"
		"g{n=\"i\"} +Inf\n"
		"g{n=\"j\"} -Inf\n"
		"g{n=\"k\"} 0\n");
	free(text);
}

Test(kserve, updates_that_do_not_fit_are_ignored)
{
	static const struct vsnl_prom_desc counter = { .name = "c_total", .kind = VSNL_PROM_COUNTER };
	static const struct vsnl_prom_desc hist = {
		.name = "h", .kind = VSNL_PROM_HISTOGRAM, .buckets = latency_buckets, .nr_buckets = 1,
	};
	struct vsnl_prom_metric *c_total = must_register(&counter);
	struct vsnl_prom_metric *h = must_register(&hist);

	vsnl_prom_add(c_total, 0, 5);
	vsnl_prom_add(c_total, 0, -1);		/* a counter never goes down */
	vsnl_prom_add(c_total, 0, (double)NAN);
	vsnl_prom_set(c_total, 0, 0);		/* nor is it set */
	vsnl_prom_inc(c_total, 1);			/* no such series */
	vsnl_prom_observe(c_total, 0, 1);
	vsnl_prom_add(h, 0, 1);
	vsnl_prom_inc(NULL, 0);
	vsnl_prom_observe(NULL, 0, 1);
	vsnl_prom_observe(h, 0, 0.5);
	cr_expect_eq(vsnl_prom_value(c_total, 0), 5);
	cr_expect_eq(vsnl_prom_value(h, 0), 0.5);
	cr_expect_eq(vsnl_prom_value(h, 7), 0);
}

Test(kserve, a_histogram_with_a_last_inf_bound_has_one_inf_bucket)
{
	static const double b[] = { 1, (double)INFINITY };
	static const struct vsnl_prom_desc d = {
		.name = "h", .kind = VSNL_PROM_HISTOGRAM, .buckets = b, .nr_buckets = 2,
	};
	struct vsnl_prom_metric *m = must_register(&d);
	size_t len;
	char *text;

	vsnl_prom_observe(m, 0, 3);
	text = vsnl_prom_render(reg, 0, &len);
	cr_assert_not_null(text);
	cr_expect_str_eq(text,
		"# TYPE h histogram\n"
		"h_bucket{le=\"1\"} 0\n"
		"h_bucket{le=\"+Inf\"} 1\n"
		"h_sum 3\n"
		"h_count 1\n");
	free(text);
}

static void refused(const struct vsnl_prom_desc *d, const char *msg)
{
	struct vsnl_err e = { 0 };

	cr_expect_null(vsnl_prom_register(reg, d, &e), "%s registered", d->name);
	cr_expect_str_eq(e.msg, msg);
}

Test(kserve, bad_families_are_refused_with_the_reason)
{
	static const char *const twice[] = { "a", "a" };
	static const char *const one[] = { "x" };
	static const double down[] = { 1, 0.5 };
	static const struct vsnl_prom_desc h = {
		.name = "lat", .kind = VSNL_PROM_HISTOGRAM, .buckets = down, .nr_buckets = 1,
	};

	must_register(&h);
	refused(&(struct vsnl_prom_desc){ .name = "1abc", .kind = VSNL_PROM_GAUGE },
		"metric \"1abc\": not a metric name");
	refused(&(struct vsnl_prom_desc){ .name = "a-b", .kind = VSNL_PROM_GAUGE },
		"metric \"a-b\": not a metric name");
	refused(&(struct vsnl_prom_desc){ .name = "lat", .kind = VSNL_PROM_GAUGE },
		"metric lat: its name is taken by lat");
	refused(&(struct vsnl_prom_desc){ .name = "lat_count", .kind = VSNL_PROM_COUNTER },
		"metric lat_count: its name is taken by lat");
	refused(&(struct vsnl_prom_desc){ .name = "x", .kind = 7 },
		"metric x: kind 7 is none of counter, gauge, histogram");
	refused(&(struct vsnl_prom_desc){ .name = "x", .kind = VSNL_PROM_COUNTER,
				       .labels = { "a:b" }, .values = one, .nr_series = 1 },
		"metric x: label \"a:b\": not a label name");
	refused(&(struct vsnl_prom_desc){ .name = "x", .kind = VSNL_PROM_COUNTER,
				       .labels = { "__name" }, .values = one, .nr_series = 1 },
		"metric x: label __name: names that begin with __ are Prometheus'");
	refused(&(struct vsnl_prom_desc){ .name = "x", .kind = VSNL_PROM_HISTOGRAM,
				       .labels = { "le" }, .values = one, .nr_series = 1 },
		"metric x: label le: a histogram's buckets use it");
	refused(&(struct vsnl_prom_desc){ .name = "x", .kind = VSNL_PROM_COUNTER,
				       .labels = { "a", "a" }, .values = twice, .nr_series = 1 },
		"metric x: label a: given twice");
	refused(&(struct vsnl_prom_desc){ .name = "x", .kind = VSNL_PROM_COUNTER,
				       .labels = { "a" }, .values = twice, .nr_series = 2 },
		"metric x: series 1: the same labels as series 0");
	refused(&(struct vsnl_prom_desc){ .name = "x", .kind = VSNL_PROM_COUNTER,
				       .values = one, .nr_series = 1 },
		"metric x: series given without labels");
	refused(&(struct vsnl_prom_desc){ .name = "x", .kind = VSNL_PROM_COUNTER, .labels = { "a" } },
		"metric x: labels without series");
	refused(&(struct vsnl_prom_desc){ .name = "x", .kind = VSNL_PROM_HISTOGRAM, .buckets = down,
				       .nr_buckets = 2 },
		"metric x: bucket 1: 0.5 is not above 1");
	refused(&(struct vsnl_prom_desc){ .name = "x", .kind = VSNL_PROM_GAUGE, .buckets = down,
				       .nr_buckets = 2 },
		"metric x: buckets given to a counter or a gauge");
}

Test(kserve, metrics_is_served_with_the_exposition_content_type)
{
	static const struct vsnl_prom_desc d = { .name = "up", .kind = VSNL_PROM_GAUGE };
	char *resp, buf[128];

	vsnl_prom_set(must_register(&d), 0, 1);
	resp = raw(AF_INET, "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
	cr_expect(!strncmp(resp, "HTTP/1.1 200 ", 13), "%s", resp);
	cr_expect_str_eq(header(resp, "Content-Type", buf, sizeof(buf)),
			 "text/plain; version=0.0.4; charset=utf-8");
	cr_expect_str_eq(header(resp, "Content-Length", buf, sizeof(buf)), "21");
	cr_expect_str_eq(body_of(resp), "# TYPE up gauge\nup 1\n");
	free(resp);
}

Test(kserve, head_answers_the_headers_without_the_body)
{
	static const struct vsnl_prom_desc d = { .name = "up", .kind = VSNL_PROM_GAUGE };
	char *resp, buf[128];

	must_register(&d);
	resp = raw(AF_INET, "HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
	cr_expect(!strncmp(resp, "HTTP/1.1 200 ", 13), "%s", resp);
	cr_expect_str_eq(header(resp, "Content-Length", buf, sizeof(buf)), "21");
	cr_expect_str_eq(body_of(resp), "");
	free(resp);
	resp = raw(AF_INET, "HEAD /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
	cr_expect(!strncmp(resp, "HTTP/1.1 200 ", 13), "%s", resp);
	cr_expect_str_eq(body_of(resp), "");
	free(resp);
}

Test(kserve, metrics_gathered_at_the_scrape_follow_the_fixed_ones)
{
	static const struct vsnl_prom_desc d = { .name = "up", .kind = VSNL_PROM_GAUGE };

	vsnl_prom_set(must_register(&d), 0, 1);
	probes.queue = "default";
	/* A registry of its own each time: the same family registers again. */
	expect_metrics("# TYPE up gauge\nup 1\n"
		       "# TYPE volcano_queue_weight gauge\n"
		       "volcano_queue_weight{queue_name=\"default\"} 1\n");
	probes.queue = "research";
	expect_metrics("# TYPE up gauge\nup 1\n"
		       "# TYPE volcano_queue_weight gauge\n"
		       "volcano_queue_weight{queue_name=\"research\"} 2\n");
	/* A gather that fails is left out of that scrape; the fixed registry is served. */
	probes.gather_ret = -EAGAIN;
	expect_metrics("# TYPE up gauge\nup 1\n");
	probes.gather_ret = 0;
	expect_metrics("# TYPE up gauge\nup 1\n"
		       "# TYPE volcano_queue_weight gauge\n"
		       "volcano_queue_weight{queue_name=\"research\"} 4\n");
	cr_expect_eq(probes.gathered, 4);
	/* The probes gather nothing. */
	expect("GET", "/healthz", 200, "ok");
	cr_expect_eq(probes.gathered, 4);
}

Test(kserve, an_empty_registry_is_an_empty_page)
{
	expect("GET", "/metrics", 200, "");
}

Test(kserve, healthz_says_ok_then_the_reason_it_is_not)
{
	expect("GET", "/healthz", 200, "ok");
	probes.health.fail = true;
	probes.health.why = "vschedd: connection refused";
	expect("GET", "/healthz", 500, "vschedd: connection refused");
	probes.health.why = NULL;
	expect("GET", "/healthz", 500, "not healthy");
	probes.health.fail = false;
	expect("GET", "/healthz?verbose=1", 200, "ok");
	cr_expect_eq(probes.health.calls, 4);
	cr_expect_eq(probes.ready.calls, 0);
}

Test(kserve, readyz_has_its_own_check)
{
	probes.ready.fail = true;
	probes.ready.why = "informers not synced: pods";
	expect("GET", "/readyz", 500, "informers not synced: pods");
	expect("GET", "/healthz", 200, "ok");
	probes.ready.fail = false;
	expect("GET", "/readyz", 200, "ok");
	probes.ready.fail = true;
	probes.ready.why = NULL;
	expect("GET", "/readyz", 500, "not ready");
}

Test(kserve, probes_without_checks_are_ok)
{
	struct vsnl_err e = { 0 };

	kserve_free(ks);
	ks = kserve_new("--listen-address", "127.0.0.1:0", reg, NULL, NULL, &e);
	cr_assert_not_null(ks, "%s", e.msg);
	kcl_free(c);
	free(cfg.server);
	cr_assert_gt(asprintf(&cfg.server, "http://127.0.0.1:%u", kserve_port(ks)), 0);
	c = kcl_new(&cfg, &e);
	cr_assert_not_null(c, "%s", e.msg);
	expect("GET", "/healthz", 200, "ok");
	expect("GET", "/readyz", 200, "ok");
}

Test(kserve, other_paths_are_not_found)
{
	expect("GET", "/", 404, "404 page not found\n");
	expect("GET", "/metrics/", 404, "404 page not found\n");
	expect("GET", "/healthz/ping", 404, "404 page not found\n");
	expect("GET", "/livez", 404, "404 page not found\n");
	expect("POST", "/nowhere", 404, "404 page not found\n");
}

Test(kserve, methods_other_than_get_and_head_are_not_allowed)
{
	char *resp, buf[64];

	expect("POST", "/metrics", 405, "405 method not allowed\n");
	expect("PUT", "/healthz", 405, "405 method not allowed\n");
	expect("DELETE", "/readyz", 405, "405 method not allowed\n");
	cr_expect_eq(probes.health.calls + probes.ready.calls, 0);
	resp = raw(AF_INET, "OPTIONS /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
	cr_expect(!strncmp(resp, "HTTP/1.1 405 ", 13), "%s", resp);
	cr_expect_str_eq(header(resp, "Allow", buf, sizeof(buf)), "GET, HEAD");
	free(resp);
}

Test(kserve, a_body_is_never_read)
{
	char *resp;

	/* A gigabyte announced: the answer comes at once and the connection closes. */
	resp = raw(AF_INET, "POST /metrics HTTP/1.1\r\nHost: x\r\n"
		   "Content-Length: 1000000000\r\n\r\nabc");
	cr_expect(!strncmp(resp, "HTTP/1.1 405 ", 13), "%s", resp);
	free(resp);
	resp = raw(AF_INET, "GET /healthz HTTP/1.1\r\nHost: x\r\n"
		   "Content-Length: 1000000000\r\n\r\nabc");
	cr_expect(!strncmp(resp, "HTTP/1.1 200 ", 13), "%s", resp);
	free(resp);
	expect("GET", "/healthz", 200, "ok");
}

Test(kserve, garbage_and_huge_requests_are_logged_and_the_server_goes_on)
{
	size_t big = 2 * KSERVE_CONN_MEMORY;
	char *req = malloc(big + 64), *resp;

	cr_assert_not_null(req);
	resp = raw(AF_INET, "\x01\x02\x03 nonsense\r\n\r\n");
	cr_expect(!strncmp(resp, "HTTP/1.1 400 ", 13), "%s", resp);
	free(resp);
	/* Headers larger than a connection may hold: refused (or cut off), not kept. */
	strcpy(req, "GET /metrics HTTP/1.1\r\nX-Big: ");
	memset(req + strlen(req), 'a', big);
	strcpy(req + strlen("GET /metrics HTTP/1.1\r\nX-Big: ") + big, "\r\n\r\n");
	resp = raw(AF_INET, req);
	cr_expect(!resp[0] || !strncmp(resp, "HTTP/1.1 4", 10), "%s", resp);
	/* libmicrohttpd says why it refused them, to the owner's log, a line each. */
	cr_expect_geq(probes.logged, 1);
	cr_expect_null(strchr(probes.last_log, '\n'), "%s", probes.last_log);
	free(resp);
	free(req);
	expect("GET", "/healthz", 200, "ok");
}

Test(kserve, a_port_taken_is_told_with_the_address)
{
	struct vsnl_err e = { 0 };
	char addr[32], want[128];

	snprintf(addr, sizeof(addr), "127.0.0.1:%u", kserve_port(ks));
	cr_expect_null(kserve_new("--listen-address", addr, reg, &ops, &probes, &e));
	snprintf(want, sizeof(want), "--listen-address \"%s\": ", addr);
	cr_expect(!strncmp(e.msg, want, strlen(want)), "%s", e.msg);
	cr_expect(strstr(e.msg, "Address already in use"), "%s", e.msg);
}

Test(kserve, every_address_is_ipv6_and_ipv4)
{
	struct vsnl_err e = { 0 };
	char *resp;

	kserve_free(ks);
	ks = kserve_new("--listen-address", ":0", reg, &ops, &probes, &e);
	cr_assert_not_null(ks, "%s", e.msg);
	resp = raw(AF_INET, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
	cr_expect(!strncmp(resp, "HTTP/1.1 200 ", 13), "%s", resp);
	free(resp);
	resp = raw(AF_INET6, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
	cr_expect(!strncmp(resp, "HTTP/1.1 200 ", 13), "%s", resp);
	free(resp);
}

Test(kserve, an_ipv6_loopback_in_brackets)
{
	struct vsnl_err e = { 0 };
	char *resp;

	kserve_free(ks);
	ks = kserve_new("--listen-address", "[::1]:0", reg, &ops, &probes, &e);
	cr_assert_not_null(ks, "%s", e.msg);
	resp = raw(AF_INET6, "GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
	cr_expect(!strncmp(resp, "HTTP/1.1 200 ", 13), "%s", resp);
	free(resp);
}

static void parses(const char *text, const char *host, u16 port)
{
	struct vsnl_err e = { 0 };
	struct kserve_addr a;

	cr_expect_eq(kserve_parse_addr(NULL, text, &a, &e), 0, "%s: %s", text, e.msg);
	cr_expect_str_eq(a.host, host, "%s", text);
	cr_expect_eq(a.port, port, "%s", text);
}

static void bad_addr(const char *text, const char *msg)
{
	struct vsnl_err e = { 0 };
	struct kserve_addr a;

	cr_expect_eq(kserve_parse_addr("--listen-address", text, &a, &e), -EINVAL, "%s parsed",
		     text);
	cr_expect_str_eq(e.msg, msg);
}

Test(kserve, listen_addresses_as_volcano_writes_them)
{
	parses(":8080", "", 8080);
	parses("127.0.0.1:8080", "127.0.0.1", 8080);
	parses("0.0.0.0:0", "0.0.0.0", 0);
	parses("[::1]:9090", "::1", 9090);
	parses("[::]:65535", "::", 65535);
	parses("[fe80::1%eth0]:80", "fe80::1%eth0", 80);
	parses("localhost:8080", "localhost", 8080);
	parses(":00080", "", 80);
}

Test(kserve, bad_listen_addresses_say_what_is_wrong)
{
	bad_addr("", "--listen-address \"\": empty (want HOST:PORT, :PORT or [IPv6]:PORT)");
	bad_addr(NULL, "--listen-address \"\": empty (want HOST:PORT, :PORT or [IPv6]:PORT)");
	bad_addr("8080", "--listen-address \"8080\": missing port "
		 "(want HOST:PORT, :PORT or [IPv6]:PORT)");
	bad_addr("localhost:", "--listen-address \"localhost:\": missing port "
		 "(want HOST:PORT, :PORT or [IPv6]:PORT)");
	bad_addr(":http", "--listen-address \":http\": port \"http\" is not a number "
		 "from 0 to 65535");
	bad_addr(":-1", "--listen-address \":-1\": port \"-1\" is not a number from 0 to 65535");
	bad_addr(": 80", "--listen-address \": 80\": port \" 80\" is not a number from 0 to 65535");
	bad_addr(":65536", "--listen-address \":65536\": port 65536 is not a number "
		 "from 0 to 65535");
	bad_addr(":123456", "--listen-address \":123456\": port \"123456\" is not a number "
		 "from 0 to 65535");
	bad_addr("::1:8080", "--listen-address \"::1:8080\": too many colons: an IPv6 address "
		 "goes in brackets, as [::1]:8080");
	bad_addr("[::1", "--listen-address \"[::1\": missing ']' after the IPv6 address");
	bad_addr("[::1]", "--listen-address \"[::1]\": missing port "
		 "(want HOST:PORT, :PORT or [IPv6]:PORT)");
	bad_addr("[::1]8080", "--listen-address \"[::1]8080\": '8' after ']': a ':' and the port "
		 "must follow");
	bad_addr("[]:80", "--listen-address \"[]:80\": no address between '[' and ']'");
	bad_addr("a]:80", "--listen-address \"a]:80\": a '[' or ']' out of place");
}

Test(kserve, a_message_names_the_flag_it_is_given)
{
	struct vsnl_err e = { 0 };
	struct kserve_addr a;

	cr_expect_eq(kserve_parse_addr("--healthz-address", "11251", &a, &e), -EINVAL);
	cr_expect_str_eq(e.msg, "--healthz-address \"11251\": missing port "
			 "(want HOST:PORT, :PORT or [IPv6]:PORT)");
	e = (struct vsnl_err){ 0 };
	cr_expect_null(kserve_new(NULL, ":x", reg, &ops, &probes, &e));
	cr_expect_str_eq(e.msg, "listen address \":x\": port \"x\" is not a number "
			 "from 0 to 65535");
}

Test(kserve, a_host_that_does_not_resolve_is_named)
{
	struct vsnl_err e = { 0 };

	/* A numeric form getaddrinfo() refuses without asking DNS. */
	cr_expect_null(kserve_new("--listen-address", "[::1::2]:80", reg, &ops, &probes, &e));
	cr_expect(!strncmp(e.msg, "--listen-address \"[::1::2]:80\": ::1::2: ", 40), "%s",
		  e.msg);
}
