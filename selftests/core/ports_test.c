// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for host ports (core/ports.h): the API server's validation, and
 * which two ports kube-scheduler's NodePorts takes for one.
 */
#include <string.h>
#include <criterion/criterion.h>

#include "core/ports.h"
#include "strtest.h"

STRS_SUITE(ports);

static struct vs_host_ports *one(u32 port, enum vs_port_protocol proto, const char *ip)
{
	struct vs_host_port_spec s = { .port = port, .protocol = proto, .ip = ip };
	struct vs_host_ports *p;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_host_ports_new(&strs, &s, 1, &p, &e), 0, "%s", e.msg);
	return p;
}

static bool conflict(u32 pa, enum vs_port_protocol qa, const char *ia,
		     u32 pb, enum vs_port_protocol qb, const char *ib)
{
	struct vs_host_ports *a = one(pa, qa, ia), *b = one(pb, qb, ib);
	bool ab = vs_host_ports_conflict(a, b), ba = vs_host_ports_conflict(b, a);

	cr_assert_eq(ab, ba, "a conflict goes both ways");
	vs_host_ports_free(&strs, a);
	vs_host_ports_free(&strs, b);
	return ab;
}

Test(ports, a_conflict_needs_protocol_port_and_overlapping_addresses)
{
	cr_assert(conflict(80, VS_PORT_TCP, NULL, 80, VS_PORT_TCP, NULL));
	cr_assert_not(conflict(80, VS_PORT_TCP, NULL, 81, VS_PORT_TCP, NULL));
	cr_assert_not(conflict(80, VS_PORT_TCP, NULL, 80, VS_PORT_UDP, NULL));
	cr_assert_not(conflict(80, VS_PORT_UDP, NULL, 80, VS_PORT_SCTP, NULL));
	/* an address against every address: "" and 0.0.0.0 are both every address */
	cr_assert(conflict(80, VS_PORT_TCP, "10.0.0.1", 80, VS_PORT_TCP, NULL));
	cr_assert(conflict(80, VS_PORT_TCP, "10.0.0.1", 80, VS_PORT_TCP, ""));
	cr_assert(conflict(80, VS_PORT_TCP, "10.0.0.1", 80, VS_PORT_TCP, "0.0.0.0"));
	cr_assert(conflict(80, VS_PORT_TCP, "0.0.0.0", 80, VS_PORT_TCP, NULL));
	/* two addresses: only the same one */
	cr_assert(conflict(80, VS_PORT_TCP, "10.0.0.1", 80, VS_PORT_TCP, "10.0.0.1"));
	cr_assert_not(conflict(80, VS_PORT_TCP, "10.0.0.1", 80, VS_PORT_TCP, "10.0.0.2"));
	cr_assert(conflict(80, VS_PORT_TCP, "fd00::1", 80, VS_PORT_TCP, "fd00::1"));
	/* as kube-scheduler compares them, strings: "::" is not every address */
	cr_assert_not(conflict(80, VS_PORT_TCP, "::", 80, VS_PORT_TCP, "fd00::1"));
}

Test(ports, any_pair_of_two_sets_decides)
{
	const struct vs_host_port_spec a[] = {
		{ .port = 53, .protocol = VS_PORT_UDP }, { .port = 8080 },
	};
	const struct vs_host_port_spec b[] = {
		{ .port = 53, .protocol = VS_PORT_TCP }, { .port = 9090 },
		{ .port = 8080, .ip = "192.168.0.1" },
	};
	struct vs_host_ports *pa, *pb;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_host_ports_new(&strs, a, 2, &pa, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_host_ports_new(&strs, b, 2, &pb, &e), 0, "%s", e.msg);
	cr_assert_not(vs_host_ports_conflict(pa, pb));
	vs_host_ports_free(&strs, pb);
	cr_assert_eq(vs_host_ports_new(&strs, b, 3, &pb, &e), 0, "%s", e.msg);
	cr_assert(vs_host_ports_conflict(pa, pb), "the last of b's takes a's 8080");
	cr_assert_not(vs_host_ports_conflict(pa, NULL));
	cr_assert_not(vs_host_ports_conflict(NULL, pb));
	cr_assert(vs_host_ports_equal(pa, pa));
	cr_assert_not(vs_host_ports_equal(pa, pb));
	cr_assert(vs_host_ports_equal(NULL, NULL));
	vs_host_ports_free(&strs, pa);
	vs_host_ports_free(&strs, pb);
}

static void refused(const struct vs_host_port_spec *s, u32 nr, const char *msg)
{
	struct vs_host_ports *p = (void *)1;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_host_ports_new(&strs, s, nr, &p, &e), -EINVAL);
	cr_assert_str_eq(e.msg, msg);
	cr_assert_null(p);
}

Test(ports, the_api_servers_rules_refuse_what_it_refuses)
{
	const struct vs_host_port_spec zero = { .port = 0 };
	const struct vs_host_port_spec big = { .port = 65536 };
	const struct vs_host_port_spec proto = { .port = 1, .protocol = VS_NR_PORT_PROTOCOLS };
	const struct vs_host_port_spec ip = { .port = 1, .ip = "10.0.0" };
	const struct vs_host_port_spec dup[] = {
		{ .port = 80 }, { .port = 80, .protocol = VS_PORT_UDP }, { .port = 80 },
	};
	/* "" and 0.0.0.0 are one address to NodePorts, two strings to the API server */
	const struct vs_host_port_spec two_spellings[] = {
		{ .port = 80 }, { .port = 80, .ip = "0.0.0.0" },
	};
	struct vs_host_ports *p;

	refused(&zero, 1, "hostPorts[0]: hostPort 0 is not in 1..65535");
	refused(&big, 1, "hostPorts[0]: hostPort 65536 is not in 1..65535");
	refused(&proto, 1, "hostPorts[0]: unknown protocol 3");
	refused(&ip, 1, "hostPorts[0]: hostIP \"10.0.0\" is not an IPv4 or IPv6 address");
	refused(dup, 3, "hostPorts[2]: duplicate TCP//80");
	cr_assert_eq(vs_host_ports_new(&strs, two_spellings, 2, &p, NULL), 0);
	cr_assert_eq(p->nr, 2);
	cr_assert_null(p->p[0].ip, "no address is kept as none");
	cr_assert_str_eq(p->p[1].ip, "0.0.0.0", "kept as given, so that a dump reads back");
	vs_host_ports_free(&strs, p);
	p = (void *)1;
	cr_assert_eq(vs_host_ports_new(&strs, NULL, 0, &p, NULL), 0);
	cr_assert_null(p, "no ports, no set");
}

Test(ports, protocols_and_ports_read_and_print_as_kubernetes_writes_them)
{
	enum vs_port_protocol pr = VS_PORT_SCTP;
	struct vs_err e = { { 0 } };
	struct vs_host_ports *p = one(8443, VS_PORT_UDP, "fd00::2");
	char buf[64];

	cr_assert_eq(vs_port_protocol_parse("", &pr, NULL), 0);
	cr_assert_eq(pr, VS_PORT_TCP, "the default");
	cr_assert_eq(vs_port_protocol_parse("SCTP", &pr, NULL), 0);
	cr_assert_eq(pr, VS_PORT_SCTP);
	cr_assert_eq(vs_port_protocol_parse("udp", &pr, &e), -EINVAL);
	cr_assert_str_eq(vs_port_protocol_name(VS_PORT_UDP), "UDP");
	vs_host_port_fmt(buf, sizeof(buf), &p->p[0]);
	cr_assert_str_eq(buf, "UDP/fd00::2/8443");
	vs_host_ports_free(&strs, p);
	p = one(80, VS_PORT_TCP, NULL);
	vs_host_port_fmt(buf, sizeof(buf), &p->p[0]);
	cr_assert_str_eq(buf, "TCP/0.0.0.0/80");
	vs_host_ports_free(&strs, p);
}
