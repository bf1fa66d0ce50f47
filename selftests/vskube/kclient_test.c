// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for vskube's HTTP client (userspace/vskube/kclient.h) against a
 * small HTTP server of the test's own (libmicrohttpd, in its thread) that
 * answers with exactly the bytes each case needs: the bearer token and the
 * user agent sent, a token file read again once the server refuses the
 * token, bodies posted, watch streams whose lines are split
 * across chunks or end without a newline, watches refused with a Status,
 * the caller stopping a watch, a server that is not there, and
 * tls-server-name taking the URL's host while the connection goes to the
 * server's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <microhttpd.h>
#include <criterion/criterion.h>

#include "vskube/kclient.h"

static struct MHD_Daemon *httpd;
static u16 port;
static struct kc_config cfg;
static struct kcl *c;
static char accepted[32] = "Bearer tok";	/* the one token the server takes */

/* A streamed answer: these pieces, one per call of the reader. */
static const char *const pieces[] = { "{\"a\":1}\n{\"b\"", ":2}\n\n", "{\"c\":3}" };

static ssize_t stream_reader(void *cls, uint64_t pos, char *buf, size_t max)
{
	size_t *next = cls;
	size_t n;

	if (*next == ARRAY_SIZE(pieces))
		return MHD_CONTENT_READER_END_OF_STREAM;
	n = strlen(pieces[*next]);
	cr_assert_leq(n, max);
	memcpy(buf, pieces[(*next)++], n);
	return (ssize_t)n;
}

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int status, const char *text)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;

	resp = MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_MUST_COPY);
	MHD_add_response_header(resp, "Content-Type", "application/json");
	ret = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

struct upload {
	size_t len;
};

static enum MHD_Result handler(void *cls, struct MHD_Connection *conn, const char *url,
			       const char *method, const char *version, const char *data,
			       size_t *data_len, void **state)
{
	const char *auth = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Authorization");
	const char *ua = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "User-Agent");
	char text[256];

	if (!*state) {
		/* The first call has the headers only; a body comes in the next ones. */
		*state = calloc(1, sizeof(struct upload));
		return MHD_YES;
	}
	if (*data_len) {
		((struct upload *)*state)->len += *data_len;
		*data_len = 0;
		return MHD_YES;
	}
	if (!auth || strcmp(auth, accepted))
		return reply(conn, 401, "{\"kind\":\"Status\",\"code\":401}");
	if (!strcmp(url, "/who")) {
		const char *host = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Host");

		snprintf(text, sizeof(text), "{\"ua\":\"%s\",\"host\":\"%s\",\"method\":\"%s\"}",
			 ua ? ua : "", host ? host : "", method);
		return reply(conn, 200, text);
	}
	if (!strcmp(url, "/echo")) {
		const char *type = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
							       "Content-Type");

		snprintf(text, sizeof(text), "{\"len\":%zu,\"type\":\"%s\"}",
			 ((struct upload *)*state)->len, type ? type : "");
		return reply(conn, 201, text);
	}
	if (!strcmp(url, "/watch")) {
		struct MHD_Response *resp;
		enum MHD_Result ret;
		size_t *next = calloc(1, sizeof(*next));

		resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64, stream_reader, next,
							 free);
		ret = MHD_queue_response(conn, 200, resp);
		MHD_destroy_response(resp);
		return ret;
	}
	if (!strcmp(url, "/gone"))
		return reply(conn, 410, "{\"kind\":\"Status\",\"code\":410,\"reason\":\"Expired\"}");
	return reply(conn, 404, "{\"kind\":\"Status\",\"code\":404}");
}

static void completed(void *cls, struct MHD_Connection *conn, void **state,
		      enum MHD_RequestTerminationCode why)
{
	free(*state);
	*state = NULL;
}

static void setup(void)
{
	const union MHD_DaemonInfo *info;
	struct vsnl_err e = { 0 };
	char server[64];

	httpd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, 0, NULL,
				 NULL, handler, NULL, MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
				 MHD_OPTION_END);
	cr_assert_not_null(httpd);
	info = MHD_get_daemon_info(httpd, MHD_DAEMON_INFO_BIND_PORT);
	cr_assert_not_null(info);
	port = info->port;
	snprintf(server, sizeof(server), "http://127.0.0.1:%u", port);
	snprintf(accepted, sizeof(accepted), "Bearer tok");
	memset(&cfg, 0, sizeof(cfg));
	cfg.server = strdup(server);
	cfg.token = strdup("tok");
	c = kcl_new(&cfg, &e);
	cr_assert_not_null(c, "%s", e.msg);
}

static void teardown(void)
{
	kcl_free(c);
	kc_config_free(&cfg);
	MHD_stop_daemon(httpd);
}

TestSuite(kclient, .init = setup, .fini = teardown, .timeout = 60);

Test(kclient, a_request_carries_the_token_and_gets_the_body)
{
	struct vsnl_err e = { 0 };
	long status = 0;
	char *body = NULL;
	size_t len = 0;

	cr_assert_eq(kcl_call(c, "GET", "/who", NULL, NULL, &status, &body, &len, &e), 0, "%s",
		     e.msg);
	cr_assert_eq(status, 200);
	cr_assert(strstr(body, "\"ua\":\"vskube/"), "%s", body);
	cr_assert(strstr(body, "\"method\":\"GET\""), "%s", body);
	cr_assert_eq(len, strlen(body));
	free(body);

	cr_assert_eq(kcl_call(c, "POST", "/echo", "application/json", "{\"x\":12345}", &status,
			      &body, NULL, &e), 0, "%s", e.msg);
	cr_assert_eq(status, 201);
	cr_assert_str_eq(body, "{\"len\":11,\"type\":\"application/json\"}");
	free(body);

	cr_assert_eq(kcl_call(c, "DELETE", "/nothing", NULL, NULL, &status, NULL, NULL, &e), 0);
	cr_assert_eq(status, 404, "an answer is an answer, whatever its status");
	cr_assert_eq(kcl_pending(c), 0);
}

Test(kclient, without_the_token_the_server_says_401)
{
	struct vsnl_err e = { 0 };
	long status = 0;

	free(cfg.token);
	cfg.token = NULL;
	cr_assert_eq(kcl_call(c, "GET", "/who", NULL, NULL, &status, NULL, NULL, &e), 0);
	cr_assert_eq(status, 401);
}

static long get_who(void)
{
	struct vsnl_err e = { 0 };
	long status = 0;

	cr_assert_eq(kcl_call(c, "GET", "/who", NULL, NULL, &status, NULL, NULL, &e), 0, "%s",
		     e.msg);
	return status;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f);
	cr_assert_eq(fputs(text, f) >= 0 && fclose(f) == 0, true);
}

Test(kclient, a_token_file_is_read_again_once_the_server_refuses_its_token)
{
	char path[] = "/tmp/kcl-token-XXXXXX";
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	close(fd);
	write_file(path, "tok\n");
	cfg.token_file = strdup(path);
	cr_assert_eq(get_who(), 200);

	/* Rotated: the token in hand is good for a minute, unless the server says otherwise. */
	write_file(path, "tok2\n");
	snprintf(accepted, sizeof(accepted), "Bearer tok2");
	cr_assert_eq(get_who(), 401, "the old token until the server refuses it");
	cr_assert_eq(get_who(), 200, "the file read again after the 401");
	cr_assert_str_eq(cfg.token, "tok2");
	cr_assert_eq(get_who(), 200);

	/* A file that went away keeps the token we had. */
	unlink(path);
	snprintf(accepted, sizeof(accepted), "Bearer tok3");
	cr_assert_eq(get_who(), 401);
	cr_assert_eq(get_who(), 401);
	cr_assert_str_eq(cfg.token, "tok2");
}

struct seen {
	char lines[8][64];
	u32 nr;
	u32 stop_after;			/* 0: never */
	bool done;
	long status;
	char body[256];
	char why[128];
};

static int on_line(struct kcl_req *r, const char *line, size_t len, void *ctx)
{
	struct seen *s = ctx;

	cr_assert_eq(strlen(line), len);
	cr_assert_lt(s->nr, 8);
	snprintf(s->lines[s->nr++], sizeof(s->lines[0]), "%s", line);
	return s->stop_after && s->nr == s->stop_after;
}

static void on_done(struct kcl_req *r, long status, const char *body, size_t len,
		    const char *why, void *ctx)
{
	struct seen *s = ctx;

	s->done = true;
	s->status = status;
	snprintf(s->body, sizeof(s->body), "%s", body);
	snprintf(s->why, sizeof(s->why), "%s", why ? why : "");
}

static void run(void)
{
	struct vsnl_err e = { 0 };

	for (int i = 0; kcl_pending(c) && i < 100; i++)
		cr_assert_eq(kcl_poll(c, NULL, 0, 100, &e), 0, "%s", e.msg);
	cr_assert_eq(kcl_pending(c), 0, "the transfers did not end");
}

Test(kclient, a_watch_gives_whole_lines_whatever_the_chunks)
{
	struct seen s = { 0 };

	cr_assert_not_null(kcl_watch(c, "/watch", on_line, on_done, &s));
	run();
	cr_assert(s.done);
	cr_assert_eq(s.status, 200);
	cr_assert_str_eq(s.why, "");
	cr_assert_eq(s.nr, 3, "%u lines", s.nr);
	cr_assert_str_eq(s.lines[0], "{\"a\":1}");
	cr_assert_str_eq(s.lines[1], "{\"b\":2}", "a line split across two chunks");
	cr_assert_str_eq(s.lines[2], "{\"c\":3}", "the last line, without its newline");
}

Test(kclient, a_watch_refused_gives_its_status_and_no_lines)
{
	struct seen s = { 0 };

	cr_assert_not_null(kcl_watch(c, "/gone", on_line, on_done, &s));
	run();
	cr_assert_eq(s.nr, 0);
	cr_assert_eq(s.status, 410);
	cr_assert(strstr(s.body, "\"reason\":\"Expired\""), "%s", s.body);
}

Test(kclient, the_caller_stops_a_watch)
{
	struct seen s = { .stop_after = 1 };

	cr_assert_not_null(kcl_watch(c, "/watch", on_line, on_done, &s));
	run();
	cr_assert_eq(s.nr, 1);
	cr_assert(s.done);
	cr_assert_str_eq(s.why, "stopped");
}

Test(kclient, a_cancelled_request_calls_nothing)
{
	struct seen s = { 0 };
	struct kcl_req *r = kcl_watch(c, "/watch", on_line, on_done, &s);

	cr_assert_not_null(r);
	kcl_cancel(r);
	cr_assert_eq(kcl_pending(c), 0);
	run();
	cr_assert_not(s.done);
}

Test(kclient, no_server_is_an_error_that_says_where)
{
	struct vsnl_err e = { 0 };
	struct kc_config gone = { .server = (char *)"http://127.0.0.1:1" };
	struct kcl *c2 = kcl_new(&gone, &e);
	long status = 0;

	cr_assert_not_null(c2, "%s", e.msg);
	cr_assert_eq(kcl_call(c2, "GET", "/api", NULL, NULL, &status, NULL, NULL, &e), -EIO);
	cr_assert(strstr(e.msg, "GET http://127.0.0.1:1/api: "), "%s", e.msg);
	kcl_free(c2);
}

Test(kclient, tls_server_name_is_the_urls_host_and_the_server_is_reached)
{
	struct vsnl_err e = { 0 };
	struct kcl *c2;
	long status = 0;
	char *body = NULL, want[64];

	cfg.tls_server_name = strdup("api.example");
	c2 = kcl_new(&cfg, &e);
	cr_assert_not_null(c2, "%s", e.msg);
	cr_assert_eq(kcl_call(c2, "GET", "/who", NULL, NULL, &status, &body, NULL, &e), 0, "%s",
		     e.msg);
	cr_assert_eq(status, 200);
	snprintf(want, sizeof(want), "\"host\":\"api.example:%u\"", port);
	cr_assert(strstr(body, want), "%s", body);
	free(body);
	kcl_free(c2);
}
