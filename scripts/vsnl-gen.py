#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
vsnl-gen: vsched's protocol, written once.

Reads the family's spec (Documentation/netlink/vsched.yaml, in the shape of
Linux's YNL specs) and writes what follows from it:

  uapi/vsched/vsched.h          the constants: definitions, commands, the
                                attribute enums of every set, multicast groups
  kernel/netlink/policies.c     the attribute policies (struct vs_nla_policy
                                tables), the ops table with each command's
                                policy, permission and handlers, the family
  Documentation/protocol.md     the tables between the "vsnl-gen" markers
  userspace/lib/codec_gen.[ch]  the typed userspace codec: per attribute set
                                the same policy as a table, a parse into the
                                attributes and a checked put and a getter per
                                attribute (userspace/lib/codec.h)

Usage: vsnl-gen.py [--srctree DIR] [--spec FILE] [--out DIR] [--check]
  (none)      write the outputs under the source tree
  --out DIR   under DIR instead (for tests)
  --check     write nothing; exit 1 naming every output (under the source
              tree, or DIR) that differs from what the spec makes: edited
              by hand, or stale

A bad spec is refused before anything is written, with a message naming the
file, the line and the item ("vsched.yaml:120: attribute-set node, attribute
taint: unknown type 'u7'"). Standard library and PyYAML only.
"""
import argparse
import os
import re
import sys

try:
    import yaml
except ImportError:
    sys.exit('vsnl-gen: PyYAML is missing: install python3-yaml (scripts/install-deps.sh)')

OUT_HEADER = 'uapi/vsched/vsched.h'
OUT_POLICIES = 'kernel/netlink/policies.c'
OUT_DOC = 'Documentation/protocol.md'
OUT_CODEC_H = 'userspace/lib/codec_gen.h'
OUT_CODEC_C = 'userspace/lib/codec_gen.c'
SPEC_DEFAULT = 'Documentation/netlink/vsched.yaml'
DOC_BEGIN = '<!-- vsnl-gen: begin attribute tables (generated from Documentation/netlink/vsched.yaml: edit the spec) -->'
DOC_END = '<!-- vsnl-gen: end attribute tables -->'

# The spec's attribute types, and struct vs_nla_policy's for them (kernel/netlink/policy.h).
NLA_TYPES = {
    'u8': 'VS_NLA_U8', 'u16': 'VS_NLA_U16', 'u32': 'VS_NLA_U32', 's32': 'VS_NLA_S32',
    'u64': 'VS_NLA_U64', 's64': 'VS_NLA_S64', 'flag': 'VS_NLA_FLAG', 'string': 'VS_NLA_STRING',
    'nest': 'VS_NLA_NESTED',
}
INT_TYPES = ('u8', 'u16', 'u32', 's32', 'u64', 's64')
INT_RANGE = {'u8': (0, 2**8 - 1), 'u16': (0, 2**16 - 1), 'u32': (0, 2**32 - 1), 'u64': (0, 2**64 - 1),
             's32': (-2**31, 2**31 - 1), 's64': (-2**63, 2**63 - 1)}
# The project's own entry flags (VS_NLA_F_*); VS_NLA_F_RANGE follows from checks.
ATTR_FLAGS = (('required', 'VS_NLA_F_REQUIRED'), ('multi-attr', 'VS_NLA_F_MULTI'),
              ('read-only', 'VS_NLA_F_RO'), ('restore-only', 'VS_NLA_F_RESTORE'))
OP_FLAGS = {'admin-perm': 'VS_OP_ADMIN', 'grows': 'VS_OP_GROWS'}
C_IDENT = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*$')
SPEC_NAME = re.compile(r'^[a-z0-9][a-z0-9-]*$')


class SpecError(Exception):
    pass


class LineLoader(yaml.SafeLoader):
    """A SafeLoader that remembers the line of every mapping (key '__line__')."""

    def construct_mapping(self, node, deep=False):
        m = super().construct_mapping(node, deep=deep)
        m['__line__'] = node.start_mark.line + 1
        return m


class Spec:
    def __init__(self, path, text):
        self.path = path
        try:
            self.y = yaml.load(text, Loader=LineLoader)
        except yaml.YAMLError as e:
            raise SpecError('%s: not YAML: %s' % (path, e))
        if not isinstance(self.y, dict):
            raise SpecError('%s: not a mapping of the family' % path)
        self.check()

    # ---- errors ----

    def err(self, node, what):
        line = node.get('__line__') if isinstance(node, dict) else None
        where = '%s:%d' % (self.path, line) if line else self.path
        raise SpecError('%s: %s' % (where, what))

    def keys(self, node, allowed, what):
        if not isinstance(node, dict):
            self.err(None, '%s: not a mapping' % what)
        for k in node:
            if k != '__line__' and k not in allowed:
                self.err(node, "%s: unknown key '%s'" % (what, k))

    def need(self, node, key, what):
        if key not in node or node[key] is None:
            self.err(node, "%s: '%s' missing" % (what, key))
        return node[key]

    # ---- the checks, and the tables they build ----

    def check(self):
        y = self.y
        self.keys(y, ('name', 'version', 'family-id', 'protocol', 'uapi-header', 'doc', 'definitions',
                      'attribute-sets', 'operations', 'mcast-groups'), 'the family')
        self.name = self.need(y, 'name', 'the family')
        self.version = self.need(y, 'version', 'the family')
        self.family_id = self.need(y, 'family-id', 'the family')
        self.doc = y.get('doc')
        self.defs = {}          # name -> definition
        self.enums = {}         # name -> enum definition
        self.consts = {}        # name -> const definition
        self.cnames = {}        # C name -> what defines it, for duplicates
        for d in y.get('definitions') or []:
            self.check_definition(d)
        self.check_mcgrps()
        self.sets = {}
        self.set_list = []
        for s in y.get('attribute-sets') or []:
            self.check_set_head(s)
        for s in self.set_list:
            self.check_set(s)
        self.check_ops()

    def check_mcgrps(self):
        y = self.y
        self.mcgrps = []
        mc = y.get('mcast-groups') or {}
        self.keys(mc, ('list',), 'mcast-groups')
        seen = {}
        for i, g in enumerate(mc.get('list') or []):
            self.keys(g, ('name', 'doc', 'value'), 'mcast-group')
            n = self.need(g, 'name', 'mcast-group')
            if n in seen:
                self.err(g, "mcast-group '%s': defined twice" % n)
            g['value'] = g.get('value', i + 1)
            if g['value'] != i + 1:
                self.err(g, "mcast-group '%s': value %s, but groups count from 1 in order" % (n, g['value']))
            seen[n] = g
            self.mcgrps.append(g)
        # The groups' ids are an enum like any other (enum vs_mcgrp), for checks.
        self.enums['mcgrp'] = {'cenum': 'vs_mcgrp', 'ents': [
            {'name': g['name'], 'value': g['value'], 'cname': 'VS_MCGRP_' + cident(g['name']).upper()}
            for g in self.mcgrps]}

    def check_name(self, node, name, what):
        if not isinstance(name, str) or not SPEC_NAME.match(name):
            self.err(node, "%s: bad name '%s' (lower case, digits and '-')" % (what, name))

    def claim_cname(self, node, cname, what):
        if not C_IDENT.match(cname):
            self.err(node, "%s: '%s' is no C identifier" % (what, cname))
        if cname in self.cnames:
            self.err(node, '%s: %s is already %s' % (what, cname, self.cnames[cname]))
        self.cnames[cname] = what

    def check_definition(self, d):
        self.keys(d, ('name', 'type', 'value', 'c-name', 'c-value', 'doc', 'scope', 'header',
                      'enum-name', 'name-prefix', 'entries', 'display'), 'definition')
        n = self.need(d, 'name', 'definition')
        self.check_name(d, n, 'definition')
        what = "definition '%s'" % n
        if n in self.defs:
            self.err(d, '%s: defined twice' % what)
        t = self.need(d, 'type', what)
        self.defs[n] = d
        if t == 'const':
            v = self.need(d, 'value', what)
            if not isinstance(v, (int, str)) or isinstance(v, bool):
                self.err(d, '%s: value must be an integer or a string' % what)
            d['cname'] = d.get('c-name') or 'VS_' + n.upper().replace('-', '_')
            if d.get('c-value') is not None:
                cv = str(d['c-value'])
                expr = re.sub(r'(?<=\d)(u|LL|ULL|U)\b', '', cv)
                if not re.match(r'^[0-9()+\-*<> ]+$', expr) or eval(expr) != v:
                    self.err(d, "%s: c-value '%s' is not %s" % (what, cv, v))
            if d.get('scope', 'uapi') not in ('uapi', 'kernel'):
                self.err(d, "%s: scope is 'uapi' or 'kernel'" % what)
            if not d.get('header'):
                self.claim_cname(d, d['cname'], what)
            self.consts[n] = d
        elif t in ('enum', 'flags'):
            prefix = d.get('name-prefix') or 'VS_' + n.upper().replace('-', '_') + '_'
            d['prefix'] = prefix
            d['cenum'] = d.get('enum-name') or 'vs_' + n.replace('-', '_')
            ents = self.need(d, 'entries', what)
            # How clients show an entry: its name as written (display: name),
            # or in Kubernetes' CamelCase (display: camel, "no-schedule" is
            # "NoSchedule"); an entry's own display overrides either.
            disp = d.get('display')
            if disp not in (None, 'name', 'camel'):
                self.err(d, "%s: display is 'name' or 'camel'" % what)
            if disp and t != 'enum':
                self.err(d, '%s: only an enum has display names' % what)
            d['ents'] = []
            values = {}
            v = 0
            for e in ents:
                e = e if isinstance(e, dict) else {'name': e}
                self.keys(e, ('name', 'value', 'doc', 'display', '__line__'), '%s entry' % what)
                if 'display' in e and (not disp or not isinstance(e['display'], str)):
                    self.err(e, "%s: an entry's display is a string, in an enum with display" % what)
                en = self.need(e, 'name', '%s entry' % what)
                self.check_name(d, en, '%s entry' % what)
                if 'value' in e:
                    v = e['value']
                ev = v if t == 'enum' else 1 << v
                if ev in values.values():
                    self.err(e if '__line__' in e else d, "%s: entry '%s' has the value %d of '%s'" %
                             (what, en, ev, next(k for k, x in values.items() if x == ev)))
                if en in values:
                    self.err(e if '__line__' in e else d, "%s: entry '%s' twice" % (what, en))
                values[en] = ev
                cn = prefix + en.upper().replace('-', '_')
                self.claim_cname(d, cn, "%s entry '%s'" % (what, en))
                shown = e.get('display', camel(en, True) if disp == 'camel' else en)
                d['ents'].append({'name': en, 'value': ev, 'explicit': 'value' in e, 'cname': cn,
                                  'doc': e.get('doc'), 'display': shown if disp else None})
                v += 1
            self.enums[n] = d
        else:
            self.err(d, "%s: unknown type '%s' (const, enum, flags)" % (what, t))

    def check_set_head(self, s):
        self.keys(s, ('name', 'enum-name', 'name-prefix', 'doc', 'attributes', 'subset-of',
                      'unlisted', 'policy-name'), 'attribute-set')
        n = self.need(s, 'name', 'attribute-set')
        self.check_name(s, n, 'attribute-set')
        if n in self.sets:
            self.err(s, "attribute-set '%s': defined twice" % n)
        self.sets[n] = s
        self.set_list.append(s)

    def check_set(self, s):
        n = s['name']
        what = "attribute-set '%s'" % n
        attrs = self.need(s, 'attributes', what)
        if not isinstance(attrs, list):
            self.err(s, '%s: attributes must be a list' % what)
        if s.get('unlisted', 'reject') not in ('reject', 'keep-read-only'):
            self.err(s, "%s: unlisted is 'reject' or 'keep-read-only'" % what)
        if s.get('subset-of'):
            parent = self.sets.get(s['subset-of'])
            if parent is None:
                self.err(s, "%s: subset of '%s', which is no attribute-set" % (what, s['subset-of']))
            if parent.get('subset-of'):
                self.err(s, "%s: subset of '%s', itself a subset" % (what, parent['name']))
            s['parent'] = parent
            s['listed'] = self.check_listed(s, attrs, parent, what)
            return
        s['parent'] = None
        s['has-enum'] = s.get('enum-name', 'x') is not None
        s['cenum'] = s.get('enum-name') or 'vs_%s_attr' % n.replace('-', '_')
        s['prefix'] = s.get('name-prefix') or 'VS_%s_A_' % n.upper().replace('-', '_')
        s['by-name'] = {}
        s['by-value'] = {}
        if s['has-enum']:
            self.claim_cname(s, s['prefix'] + 'UNSPEC', what)
            self.claim_cname(s, s['prefix'] + 'MAX', what)
        v = 0
        for a in attrs:
            if not isinstance(a, dict):
                self.err(s, '%s: an attribute must be a mapping' % what)
            self.keys(a, ('name', 'type', 'value', 'enum', 'enum-as-flags', 'nested-attributes',
                          'path-name', 'checks', 'required', 'multi-attr', 'read-only', 'restore-only',
                          'display', 'doc'), '%s attribute' % what)
            an = self.need(a, 'name', '%s attribute' % what)
            self.check_name(a, an, '%s attribute' % what)
            awhat = "%s, attribute '%s'" % (what, an)
            if a.get('display') not in (None, 'time'):
                self.err(a, "%s: display is 'time' (seconds since 1970, shown in RFC 3339)" % awhat)
            if an in s['by-name']:
                self.err(a, '%s: defined twice' % awhat)
            v = a.get('value', v + 1)
            if not isinstance(v, int) or v < 1 or v > 63:
                self.err(a, '%s: value %s out of 1..63 (a set has at most VS_NLA_SET_MAX attributes)' %
                         (awhat, v))
            if v in s['by-value']:
                self.err(a, "%s: value %d is already attribute '%s'" % (awhat, v, s['by-value'][v]['name']))
            a['v'] = v
            a['cname'] = s['prefix'] + an.upper().replace('-', '_') if s['has-enum'] else None
            if a['cname']:
                self.claim_cname(a, a['cname'], awhat)
            a['path'] = a.get('path-name') or camel(an)
            self.check_attr(a, awhat)
            s['by-name'][an] = a
            s['by-value'][v] = a
        s['max'] = max(s['by-value']) if s['by-value'] else 0

    def check_listed(self, s, attrs, parent, what):
        """The attributes a subset (or a request) lists: name, or name and overrides."""
        out = {}
        for a in attrs:
            a = a if isinstance(a, dict) else {'name': a}
            self.keys(a, ('name', 'type', 'nested-attributes', 'path-name', 'checks', 'required',
                          'multi-attr', 'read-only', 'restore-only', '__line__'), '%s attribute' % what)
            an = self.need(a, 'name', '%s attribute' % what) if '__line__' in a else a['name']
            awhat = "%s, attribute '%s'" % (what, an)
            base = parent['by-name'].get(an)
            if base is None:
                self.err(a if '__line__' in a else s, "%s: no such attribute in '%s'" % (awhat, parent['name']))
            if an in out:
                self.err(a if '__line__' in a else s, '%s: listed twice' % awhat)
            m = dict(base)
            for k, val in a.items():
                if k in ('name', '__line__'):
                    continue
                if k == 'checks':
                    c = dict(base.get('checks') or {})
                    c.update(val or {})
                    m['checks'] = c
                else:
                    m[k] = val
            m['path'] = m.get('path-name') or camel(an)
            m['__line__'] = a.get('__line__', s.get('__line__'))
            self.check_attr(m, awhat)
            out[an] = m
        return out

    def resolve(self, node, what, val, enum):
        """A check's bound: an integer, an entry of the attribute's enum, or a const."""
        if isinstance(val, bool):
            self.err(node, '%s: %s is no bound' % (what, val))
        if isinstance(val, int):
            return val, None
        if not isinstance(val, str):
            self.err(node, '%s: bound %r is neither a number nor a name' % (what, val))
        if enum is not None:
            for e in enum['ents']:
                if e['name'] == val:
                    return e['value'], e['cname']
        c = self.consts.get(val)
        if c is not None and isinstance(c['value'], int):
            return c['value'], c['cname']
        self.err(node, "%s: bound '%s' is no entry of its enum and no integer definition" % (what, val))

    def check_attr(self, a, what):
        t = self.need(a, 'type', what)
        if t not in NLA_TYPES:
            self.err(a, "%s: unknown type '%s' (%s)" % (what, t, ', '.join(NLA_TYPES)))
        enum = None
        if a.get('enum') is not None:
            enum = self.enums.get(a['enum'])
            if enum is None:
                self.err(a, "%s: enum '%s' is no enum definition" % (what, a['enum']))
            if t not in INT_TYPES:
                self.err(a, '%s: an enum is an integer, not %s' % (what, t))
        if t == 'nest':
            ns = a.get('nested-attributes')
            if ns is None:
                self.err(a, '%s: a nest without nested-attributes' % what)
            if ns not in self.sets:
                self.err(a, "%s: nested-attributes '%s' is no attribute-set" % (what, ns))
        elif a.get('nested-attributes') is not None:
            self.err(a, '%s: nested-attributes on a %s' % (what, t))
        checks = a.get('checks') or {}
        if not isinstance(checks, dict):
            self.err(a, '%s: checks must be a mapping' % what)
        rng = {}
        for k, val in checks.items():
            if k == '__line__':
                continue
            if k == 'max-len':
                if t != 'string':
                    self.err(a, '%s: max-len on a %s' % (what, t))
                rng[k] = self.resolve(a, what, val, None)
            elif k in ('min', 'max'):
                if t not in INT_TYPES:
                    self.err(a, '%s: %s on a %s' % (what, k, t))
                rng[k] = self.resolve(a, what, val, enum)
            else:
                self.err(a, "%s: unknown check '%s' (min, max, max-len)" % (what, k))
        if a.get('enum-as-flags'):
            if enum is None:
                self.err(a, '%s: enum-as-flags without an enum' % what)
            mask = (1 << (max(e['value'] for e in enum['ents']) + 1)) - 1
            rng.setdefault('max', (mask, '(1 << (%s + 1)) - 1' % enum['ents'][-1]['cname']))
        if ('min' in rng or 'max' in rng) and t in INT_TYPES:
            lo, hi = INT_RANGE[t]
            rng.setdefault('min', (lo, None))
            rng.setdefault('max', (hi, None))
            if rng['min'][0] > rng['max'][0]:
                self.err(a, '%s: min %d above max %d' % (what, rng['min'][0], rng['max'][0]))
            for k in ('min', 'max'):
                if not lo <= rng[k][0] <= hi:
                    self.err(a, '%s: %s %d does not fit a %s' % (what, k, rng[k][0], t))
        a['rng'] = rng
        for k, _ in ATTR_FLAGS:
            if a.get(k) is not None and not isinstance(a[k], bool):
                self.err(a, '%s: %s is true or false' % (what, k))

    def check_ops(self):
        ops = self.y.get('operations') or {}
        self.keys(ops, ('list',), 'operations')
        self.ops = []
        names = set()
        top = None
        for s in self.set_list:
            if s['name'] == self.name:
                top = s
        if top is None or top.get('subset-of'):
            self.err(self.y, "no attribute-set '%s': the top level of every command" % self.name)
        self.top = top
        self.claim_cname(self.y, 'VS_CMD_UNSPEC', 'the commands')
        self.claim_cname(self.y, 'VS_CMD_MAX', 'the commands')
        mcnames = {g['name'] for g in self.mcgrps}
        for i, op in enumerate(ops.get('list') or []):
            self.keys(op, ('name', 'doc', 'flags', 'do', 'dump', 'event', 'mcgrp', 'value'), 'operation')
            n = self.need(op, 'name', 'operation')
            self.check_name(op, n, 'operation')
            what = "operation '%s'" % n
            if n in names:
                self.err(op, '%s: defined twice' % what)
            names.add(n)
            if op.get('value', i + 1) != i + 1:
                self.err(op, '%s: value %s, but commands count from 1 in order' % (what, op['value']))
            op['v'] = i + 1
            op['cname'] = 'VS_CMD_' + n.upper().replace('-', '_')
            self.claim_cname(op, op['cname'], what)
            for f in op.get('flags') or []:
                if f not in OP_FLAGS:
                    self.err(op, "%s: unknown flag '%s' (%s)" % (what, f, ', '.join(OP_FLAGS)))
            if not any(k in op for k in ('do', 'dump', 'event')):
                self.err(op, '%s: neither do, dump nor event' % what)
            if 'event' in op and ('do' in op or 'dump' in op):
                self.err(op, '%s: an event is sent by the daemon, it has no do or dump' % what)
            for k in ('do', 'dump'):
                if k not in op:
                    continue
                part = op[k] or {}
                self.keys(part, ('request', 'reply', 'handler', 'done'), '%s %s' % (what, k))
                for h in ('handler', 'done'):
                    if part.get(h) is not None and not C_IDENT.match(str(part[h])):
                        self.err(part, "%s %s: %s '%s' is no C identifier" % (what, k, h, part[h]))
                self.need(part, 'handler', '%s %s' % (what, k))
                if part.get('done') and k != 'dump':
                    self.err(part, '%s: done belongs to a dump' % what)
                req = part.get('request') or {}
                self.keys(req, ('attributes',), '%s %s request' % (what, k))
                part['listed'] = self.check_listed(part, req.get('attributes') or [], top,
                                                   '%s %s request' % (what, k))
                rep = part.get('reply') or {}
                self.keys(rep, ('attributes',), '%s %s reply' % (what, k))
                for an in rep.get('attributes') or []:
                    if an not in top['by-name']:
                        self.err(part, "%s %s reply: no attribute '%s' in '%s'" % (what, k, an, top['name']))
            if 'event' in op:
                ev = op['event'] or {}
                self.keys(ev, ('attributes',), '%s event' % what)
                for an in ev.get('attributes') or []:
                    if an not in top['by-name']:
                        self.err(op, "%s event: no attribute '%s' in '%s'" % (what, an, top['name']))
                if op.get('mcgrp') not in mcnames:
                    self.err(op, "%s: an event names its mcast-group (mcgrp: %s)" % (what, ', '.join(sorted(mcnames))))
            self.ops.append(op)


def camel(name, upper=False):
    """"pod-group" as "podGroup" (a JSON key), or "PodGroup" when upper."""
    p = name.split('-')
    return ''.join(x[:1].upper() + x[1:] if i or upper else x for i, x in enumerate(p))


def set_maxattr(s):
    """The highest attribute of a set or subset, as C has it."""
    p = s['parent'] or s
    return '%sMAX' % p['prefix'] if p['has-enum'] else str(p['max'])


def cident(name):
    return name.replace('-', '_')


# ---------------------------------------------------------------------------
# Comments.

def c_block(text, indent=''):
    lines = text.split('\n')
    if len(lines) == 1 and len(indent) + len(text) + 6 <= 100:
        return ['%s/* %s */' % (indent, text)]
    out = [indent + '/*']
    for l in lines:
        out.append((indent + ' * ' + l).rstrip())
    out.append(indent + ' */')
    return out


def tab_to(text, col):
    """text followed by tabs up to column col (tabs of 8), at least one."""
    width = len(text.expandtabs(8))
    return text + '\t' * max(1, (col - (width - width % 8) + 7) // 8)


def entry_lines(text, doc, indent, col):
    """One line of an enum or define with its doc: trailing when it is short, else above."""
    if not doc:
        return [indent + text]
    line = tab_to(indent + text, col) + '/* %s */' % doc
    if '\n' not in doc and len(line.expandtabs(8)) <= 100:
        return [line]
    return c_block(doc, indent) + [indent + text]


# ---------------------------------------------------------------------------
# uapi/vsched/vsched.h

def gen_header(sp):
    o = ['/* SPDX-License-Identifier: Apache-2.0 WITH Linux-syscall-note */',
         '/* Generated by scripts/vsnl-gen.py from Documentation/netlink/vsched.yaml: edit the spec. */']
    o += c_block(sp.doc)
    o += ['#ifndef _UAPI_VSCHED_VSCHED_H', '#define _UAPI_VSCHED_VSCHED_H', '', '#include <linux/types.h>', '']
    o.append('#define VSCHED_GENL_NAME\t"%s"' % sp.name)
    o.append('#define VSCHED_GENL_VERSION\t%d' % sp.version)
    o.append("/* The family's nlmsg_type: the first id after the controller's (GENL_ID_CTRL). */")
    o.append('#define VSCHED_GENL_ID\t\t0x%x' % sp.family_id)
    for d in sp.y.get('definitions') or []:
        if d['type'] == 'const':
            if d.get('scope', 'uapi') != 'uapi' or d.get('header'):
                continue
            v = d['value']
            val = '"%s"' % v if isinstance(v, str) else str(d.get('c-value') or v)
            text = tab_to('#define ' + d['cname'], 32 if len(d['cname']) > 15 else 24) + val
            o.append('')
            o += entry_lines(text, d.get('doc'), '', 48)
        else:
            o.append('')
            if d.get('doc'):
                o += c_block(d['doc'])
            o.append('enum %s {' % d['cenum'])
            for e in d['ents']:
                t = e['cname'] + (' = %d' % e['value'] if e['explicit'] or d['type'] == 'flags' else '') + ','
                o += entry_lines(t, e['doc'], '\t', 40)
            o.append('};')
    # multicast groups
    o += ['', '/* Multicast groups, by name (their ids are in CTRL_CMD_GETFAMILY\'s reply). */']
    for g in sp.mcgrps:
        text = tab_to('#define VSCHED_MCGRP_' + cident(g['name']).upper(), 32) + '"%s"' % g['name']
        o += entry_lines(text, g.get('doc'), '', 48)
    o += ['', 'enum vs_mcgrp {']
    for i, g in enumerate(sp.mcgrps):
        o.append('\tVS_MCGRP_%s%s,' % (cident(g['name']).upper(), ' = 1' if i == 0 else ''))
    o += ['\t__VS_MCGRP_MAX', '};', '#define VS_MCGRP_MAX (__VS_MCGRP_MAX - 1)']
    # commands
    o += ['', '/* ---- commands ---- */', '', 'enum vs_cmd {', '\tVS_CMD_UNSPEC,']
    for op in sp.ops:
        doc = op.get('doc')
        if doc and ('\n' in doc or len(doc) > 50):
            o.append('')
        o += entry_lines(op['cname'] + ',', doc, '\t', 32)
    o += ['', '\t__VS_CMD_MAX', '};', '#define VS_CMD_MAX (__VS_CMD_MAX - 1)']
    # attribute sets
    for s in sp.set_list:
        if s['parent'] is not None or not s['has-enum']:
            continue
        o.append('')
        if s.get('doc'):
            o += c_block(s['doc'])
        o.append('enum %s {' % s['cenum'])
        o.append('\t%sUNSPEC,' % s['prefix'])
        prev = 0
        for v in sorted(s['by-value']):
            a = s['by-value'][v]
            t = a['cname'] + (' = %d' % v if v != prev + 1 else '') + ','
            prev = v
            doc = a.get('doc')
            # A reader of the header sees what replies alone carry.
            if a.get('read-only') and not re.search(r'read-only|r/o', doc or ''):
                doc = (doc + ' (read-only)') if doc else 'read-only'
            o += entry_lines(t, doc, '\t', 40)
        o.append('\t__%sMAX' % s['prefix'])
        o.append('};')
        o.append('#define %sMAX (__%sMAX - 1)' % (s['prefix'], s['prefix']))
    o += ['', '#endif /* _UAPI_VSCHED_VSCHED_H */']
    return '\n'.join(o) + '\n'


# ---------------------------------------------------------------------------
# kernel/netlink/policies.c

class Tables:
    """The policy tables the ops reach, each once, nested ones first."""

    def __init__(self, sp):
        self.sp = sp
        self.order = []         # (cname, lines)
        self.by_key = {}        # content -> cname
        self.set_table = {}     # set name -> cname

    def rows(self, s):
        """(value, entry or None for refused, parent entry) of every attribute of s's table."""
        parent = s['parent'] or s
        listed = s.get('listed') if s['parent'] is not None else None
        keep_ro = s.get('unlisted') == 'keep-read-only'
        out = []
        for v in sorted(parent['by-value']):
            base = parent['by-value'][v]
            if listed is None:
                out.append((v, base, base))
            elif base['name'] in listed:
                out.append((v, listed[base['name']], base))
            elif keep_ro and base.get('read-only'):
                out.append((v, base, base))
            else:
                out.append((v, None, base))
        return out

    def entry(self, v, a, base):
        idx = base['cname'] or str(v)
        path = base['path'] if a is None else a['path']
        if a is None:
            return 'VS_NLA_REJECTED(%s, "%s"),' % (idx, path)
        flags = [c for k, c in ATTR_FLAGS if a.get(k)]
        t = a['type']
        rng = a['rng']
        if not base['cname']:
            # A set without a header enum (counts by a value + 1): the name is the id.
            f = ', .flags = %s' % ' | '.join(flags) if flags else ''
            return '[%d] = { .type = %s, .name = "%s", .id = "%s"%s },' % (v, NLA_TYPES[t], path, path, f)
        fl = ' | '.join(flags)
        if t == 'string':
            ln = c_num(rng['max-len']) if 'max-len' in rng else '0'
            return 'VS_NLA_STR(%s, "%s", %s%s),' % (idx, path, ln, ', .flags = ' + fl if fl else '')
        if t == 'nest':
            ns = self.sp.sets[a['nested-attributes']]
            tn = self.table(ns)
            return 'VS_NLA_NEST(%s, "%s", %s, %s%s),' % (idx, path, tn, set_maxattr(ns),
                                                        ', .flags = ' + fl if fl else '')
        if 'min' in rng or 'max' in rng:
            return 'VS_NLA_RANGE(%s, "%s", %s, %s, %s, %s),' % (idx, path, NLA_TYPES[t], c_num(rng['min']),
                                                                c_num(rng['max']), fl or '0')
        return 'VS_NLA_INT(%s, "%s", %s%s),' % (idx, path, NLA_TYPES[t], ', .flags = ' + fl if fl else '')

    def build(self, s):
        return [self.entry(v, a, base) for v, a, base in self.rows(s)]

    def table(self, s):
        if s['name'] in self.set_table:
            return self.set_table[s['name']]
        cname = s.get('policy-name') or cident(s['name']) + '_policy'
        lines = self.build(s)
        self.set_table[s['name']] = cname
        self.order.append((cname, s, lines, bool(s.get('policy-name'))))
        return cname

    def request(self, op, part, kind):
        fake = {'name': '%s-%s' % (op['name'], kind), 'parent': self.sp.top, 'listed': part['listed'],
                'unlisted': 'keep-read-only'}
        lines = self.build(fake)
        key = '\n'.join(lines)
        if key in self.by_key:
            return self.by_key[key]
        # Named for what it takes: the set of its one nest (node_key_attrs:
        # DEL and GET of a node), else its command's dump or its command.
        nests = [a['nested-attributes'] for a in part['listed'].values() if a.get('nested-attributes')]
        if not part['listed']:
            cname = 'no_attrs'
        elif len(part['listed']) == 1 and nests:
            cname = cident(nests[0]) + '_attrs'
        elif kind == 'dump':
            cname = cident(re.sub(r'-get$', '', op['name'])) + '_dump_attrs'
        else:
            cname = cident(op['name']) + '_attrs'
        taken = set(self.by_key.values()) | set(self.set_table.values())
        base, n = cname, 2
        while cname in taken:
            cname, n = '%s_%d' % (base, n), n + 1
        self.by_key[key] = cname
        self.order.append((cname, self.sp.top, lines, False))
        return cname


def wrap(line):
    """A table entry past 100 columns goes on with the arguments that do not fit."""
    if len(line.expandtabs(8)) <= 100:
        return line
    cut = line.rfind(', ', 0, 96 - line.expandtabs(8).count(' ') + line.count(' ') - 8)
    first = line[:cut + 1]
    while len(first.expandtabs(8)) > 100:
        cut = line.rfind(', ', 0, cut)
        first = line[:cut + 1]
    return first + '\n\t\t    ' + line[cut + 2:]


def c_num(r):
    v, sym = r
    if sym:
        return sym
    if v == 2**63 - 1:
        return 'INT64_MAX'
    if v > 2**31 - 1 or v < -2**31:
        return '%dLL' % v
    return str(v)


def gen_policies(sp):
    tb = Tables(sp)
    # The ops first: their tables pull in every nest they reach.
    ops = []
    for op in sp.ops:
        fl = []
        f = {}
        if 'do' in op:
            fl.append('VS_OP_DO')
        if 'dump' in op:
            fl.append('VS_OP_DUMP')
        if 'event' in op:
            fl.append('VS_OP_NOTIFY')
        fl += [OP_FLAGS[x] for x in op.get('flags') or []]
        if 'do' in op:
            f['policy'] = tb.request(op, op['do'], 'do')
            f['doit'] = op['do']['handler']
            if 'dump' in op:
                f['dump_policy'] = tb.request(op, op['dump'], 'dump')
        if 'dump' in op:
            if 'do' not in op:
                f['policy'] = tb.request(op, op['dump'], 'dump')
            f['dumpit'] = op['dump']['handler']
            if op['dump'].get('done'):
                f['done'] = op['dump']['done']
        ops.append((op, ' | '.join(fl), f))
    for s in sp.set_list:
        if s.get('policy-name'):
            tb.table(s)
    o = ['// SPDX-License-Identifier: Apache-2.0',
         '/* Generated by scripts/vsnl-gen.py from Documentation/netlink/vsched.yaml: edit the spec. */',
         '/*',
         " * vsched's family: the attribute policy of every nest and command of",
         ' * uapi/vsched/vsched.h, and the ops table that pairs each command with its',
         ' * policy, its permission and its handlers. These tables are the protocol:',
         ' * Documentation/protocol.md describes them, and what a request may carry is',
         ' * exactly what they accept.',
         ' *',
         ' * A table of a subset (node-key: what DEL and GET take of a node) refuses by',
         " * name every attribute of its set it does not list; a command's top level",
         " * also keeps the read-only attributes of the top set, refused as read-only.",
         ' */',
         '#include <stdint.h>', '']
    headers = sorted({d['header'] for d in sp.consts.values() if d.get('header')} |
                     {'netlink/batch.h', 'netlink/checkpoint.h', 'netlink/ctl.h', 'netlink/family.h',
                      'netlink/handlers.h'})
    o += ['#include "%s"' % h for h in headers]
    o += ['#include "vsched/vsched.h"', '']
    for d in sp.y.get('definitions') or []:
        if d['type'] != 'const':
            continue
        if d.get('header'):
            o.append('_Static_assert(%s == %s,' % (d['cname'], d['value']))
            o.append('\t       "%s: %s is not the spec\'s");' % (d['header'], d['cname']))
    o.append('')
    for d in sp.y.get('definitions') or []:
        if d['type'] == 'const' and d.get('scope') == 'kernel':
            text = tab_to('#define ' + d['cname'], 32) + str(d.get('c-value') or d['value'])
            o += (c_block(d['doc']) if d.get('doc') else []) + [text]
    for cname, s, lines, exported in tb.order:
        o.append('')
        size = '%s + 1' % set_maxattr(s)
        o.append('%sconst struct vs_nla_policy %s[%s] = {' % ('' if exported else 'static ', cname, size))
        o += [wrap('\t' + l) for l in lines]
        o.append('};')
    o += ['', '#define OP(_cmd, _flags)\t\t\t\t\t\t\t\\',
          '\t.cmd = (_cmd), .name = #_cmd, .flags = (_flags), .maxattr = %sMAX' % sp.top['prefix'], '',
          'static const struct vs_genl_op vs_genl_ops[] = {']
    for op, fl, f in ops:
        parts = ['OP(%s, %s)' % (op['cname'], fl)]
        for k in ('policy', 'dump_policy'):
            if k in f:
                parts.append('.%s = %s' % (k, f[k]))
        for k in ('doit', 'dumpit', 'done'):
            if k in f:
                parts.append('.%s = %s' % (k, f[k]))
        o.append('\t[%s] = {' % op['cname'])
        o.append('\t\t' + ', '.join(parts[:1]) + ',')
        for p in parts[1:]:
            o.append('\t\t%s,' % p)
        o.append('\t},')
    o += ['};', '', 'static const char *const vs_mcgrp_names[VS_MCGRP_MAX + 1] = {']
    for g in sp.mcgrps:
        u = cident(g['name']).upper()
        o.append('\t[VS_MCGRP_%s] = VSCHED_MCGRP_%s,' % (u, u))
    o += ['};', '',
          'const struct vs_genl_family vs_genl_vsched = {',
          '\t.name = VSCHED_GENL_NAME,',
          '\t.id = VSCHED_GENL_ID,',
          '\t.version = VSCHED_GENL_VERSION,',
          '\t.maxattr = %sMAX,' % sp.top['prefix'],
          '\t.ops = vs_genl_ops,',
          '\t.n_ops = ARRAY_SIZE(vs_genl_ops),',
          '\t.mcgrps = vs_mcgrp_names,',
          '\t.n_mcgrps = VS_MCGRP_MAX,',
          '};']
    return '\n'.join(o) + '\n'


# ---------------------------------------------------------------------------
# Documentation/protocol.md

def md(text):
    return ' '.join((text or '').split()).replace('|', '\\|')


def doc_type(sp, a):
    t = a['type']
    if t == 'nest':
        ns = sp.sets[a['nested-attributes']]
        t = 'nest: [%s](#attribute-set-%s)' % (ns['name'], (ns['parent'] or ns)['name'])
    if a.get('enum'):
        t += ' (enum %s%s)' % (sp.enums[a['enum']]['cenum'], ', as bits' if a.get('enum-as-flags') else '')
    return t


def doc_limits(a):
    r = a['rng']
    out = []
    if 'max-len' in r:
        v, s = r['max-len']
        out.append('at most %d bytes%s' % (v, ' (`%s`)' % s if s else ''))
    if 'min' in r:
        out.append('%d..%d' % (r['min'][0], r['max'][0]))
    return ', '.join(out)


def doc_flags(a):
    names = {'required': 'required', 'multi-attr': 'repeated', 'read-only': 'r/o',
             'restore-only': 'restore-only'}
    return ', '.join(v for k, v in names.items() if a.get(k))


def gen_doc_tables(sp):
    o = ['', 'Every attribute set of the spec, with the policy of its main table; a subset',
         '(what one command takes of a set) lists what it changes and takes, and refuses the rest.', '']
    for s in sp.set_list:
        if s['parent'] is not None:
            continue
        o.append('#### Attribute set %s' % s['name'])
        o.append('<a id="attribute-set-%s"></a>' % s['name'])
        o.append('')
        if s['has-enum']:
            o.append('`enum %s`%s' % (s['cenum'], ': ' + md(s['doc']) if s.get('doc') else ''))
        elif s.get('doc'):
            o.append(md(s['doc']))
        o.append('')
        o.append('| attribute | value | type | limits | flags | |')
        o.append('| --- | --- | --- | --- | --- | --- |')
        for v in sorted(s['by-value']):
            a = s['by-value'][v]
            o.append('| `%s` | %d | %s | %s | %s | %s |' % (a['cname'] or a['path'], v, doc_type(sp, a),
                                                         doc_limits(a), doc_flags(a), md(a.get('doc'))))
        subs = [x for x in sp.set_list if x['parent'] is s]
        if subs:
            o.append('')
        for x in subs:
            items = []
            for an, a in x['listed'].items():
                base = s['by-name'][an]
                extra = [e for e in (doc_limits(a) if a['rng'] != base['rng'] else '',
                                     doc_flags(a) if doc_flags(a) != doc_flags(base) else '',
                                     doc_type(sp, a) if a.get('nested-attributes') != base.get('nested-attributes')
                                     else '') if e]
                items.append('`%s`%s' % (an, ' (%s)' % '; '.join(extra) if extra else ''))
            rest = 'the rest kept when read-only' if x.get('unlisted') == 'keep-read-only' else 'the rest refused'
            doc = md(x.get('doc'))
            o.append('- subset **%s**: %s%s; %s.' % (x['name'], doc + ' Takes ' if doc else '',
                                                    ', '.join(items) or 'nothing', rest))
        o.append('')
    o.append('#### Commands')
    o.append('')
    o.append('| command | value | kinds | permission | request (top level) | handlers |')
    o.append('| --- | --- | --- | --- | --- | --- |')
    for op in sp.ops:
        kinds = [k for k in ('do', 'dump', 'event') if k in op]
        req = []
        for k in ('do', 'dump'):
            if k in op and op[k]['listed']:
                req.append('%s: %s' % (k, ', '.join(
                    '`%s`%s' % (an, ' (%s)' % a['nested-attributes'] if a.get('nested-attributes') else '')
                    for an, a in op[k]['listed'].items())))
        if 'event' in op:
            req.append('group `%s`: %s' % (op['mcgrp'], ', '.join('`%s`' % x for x in
                                                                 (op['event'] or {}).get('attributes') or [])))
        hs = ', '.join('`%s`' % op[k][h] for k in ('do', 'dump') if k in op for h in ('handler', 'done')
                       if op[k].get(h))
        perm = ', '.join(op.get('flags') or []) or 'anyone'
        o.append('| `%s` | %d | %s | %s | %s | %s |' % (op['cname'], op['v'], ', '.join(kinds), perm,
                                                      '; '.join(req) or 'none', hs or 'none (the daemon sends it)'))
    o.append('')
    return '\n'.join(o)


def gen_doc(sp, old, docpath):
    b = old.find(DOC_BEGIN)
    e = old.find(DOC_END)
    if b < 0 or e < b:
        raise SpecError('%s: no "%s" ... "%s" markers: the generated tables go between them' %
                        (docpath, DOC_BEGIN, DOC_END))
    return old[:b + len(DOC_BEGIN)] + '\n' + gen_doc_tables(sp) + old[e:]


# ---------------------------------------------------------------------------
# userspace/lib/codec_gen.h, codec_gen.c

CODEC_TYPES = {
    'u8': 'VSNL_CODEC_U8', 'u16': 'VSNL_CODEC_U16', 'u32': 'VSNL_CODEC_U32', 's32': 'VSNL_CODEC_S32',
    'u64': 'VSNL_CODEC_U64', 's64': 'VSNL_CODEC_S64', 'flag': 'VSNL_CODEC_FLAG',
    'string': 'VSNL_CODEC_STRING', 'nest': 'VSNL_CODEC_NESTED',
}
CODEC_FLAGS = (('required', 'VSNL_CODEC_F_REQUIRED'), ('multi-attr', 'VSNL_CODEC_F_MULTI'),
               ('read-only', 'VSNL_CODEC_F_RO'), ('restore-only', 'VSNL_CODEC_F_RESTORE'))


def shown_enums(sp):
    """The enums with display names, in the spec's order."""
    return [d for d in sp.enums.values() if d.get('display') and d['cenum'] != 'vs_mcgrp']


def names_table(d):
    return 'vsnl_%s_names' % cident(d['name'])
C_INT = {'u8': 'uint8_t', 'u16': 'uint16_t', 'u32': 'uint32_t', 's32': 'int32_t', 'u64': 'uint64_t',
         's64': 'int64_t'}


def codec_num(sp, r):
    """A bound in userspace: a uapi name where there is one, else the number."""
    v, sym = r
    uapi = {d['cname'] for d in sp.consts.values() if d.get('scope', 'uapi') == 'uapi' and not d.get('header')}
    uapi |= {e['cname'] for en in sp.enums.values() for e in en['ents']}
    if sym and (sym in uapi or sym.startswith('(1 << (')):
        return sym
    return c_num((v, None))


def gen_codec_c(sp):
    tb = Tables(sp)
    o = ['// SPDX-License-Identifier: Apache-2.0',
         '/* Generated by scripts/vsnl-gen.py from Documentation/netlink/vsched.yaml: edit the spec. */',
         '/*',
         " * The daemon's policies for clients (userspace/lib/codec.h): every attribute",
         ' * set and subset of the spec as a table, the rows kernel/netlink/policies.c',
         ' * has for it, so that what the codec puts and takes is what the daemon does.',
         ' */',
         '#include <stdint.h>',
         '',
         '#include "lib/codec_gen.h"']
    for d in shown_enums(sp):
        o += ['', 'const char *const %s[%s] = {' % (names_table(d), 'VSNL_NR_' + cident(d['name']).upper())]
        o += ['\t[%s] = "%s",' % (e['cname'], e['display']) for e in d['ents']]
        o.append('};')
    for s in sp.set_list:
        rows = []
        for v, a, base in tb.rows(s):
            idx = base['cname'] or str(v)
            if a is None:
                rows.append('[%s] = { .type = VSNL_CODEC_REJECT, .name = "%s" },' % (idx, base['path']))
                continue
            f = [c for k, c in CODEC_FLAGS if a.get(k)]
            if base.get('display') == 'time':
                f.append('VSNL_CODEC_F_TIME')
            parts = ['.type = %s' % CODEC_TYPES[a['type']]]
            r = a['rng']
            if 'min' in r or 'max' in r:
                f.append('VSNL_CODEC_F_RANGE')
            if f:
                parts.append('.flags = %s' % ' | '.join(f))
            if 'max-len' in r:
                parts.append('.len = %s' % codec_num(sp, r['max-len']))
            parts.append('.name = "%s"' % a['path'])
            if a['type'] == 'nest':
                parts.append('.nested = &vsnl_codec_%s' % cident(a['nested-attributes']))
            if 'min' in r or 'max' in r:
                parts.append('.min = %s' % codec_num(sp, r['min']))
                parts.append('.max = %s' % codec_num(sp, r['max']))
            en = sp.enums.get(base.get('enum')) if not base.get('enum-as-flags') else None
            if en is not None and en in shown_enums(sp):
                parts.append('.names = %s' % names_table(en))
                parts.append('.nr_names = VSNL_NR_%s' % cident(en['name']).upper())
            rows.append('[%s] = { %s },' % (idx, ', '.join(parts)))
        cn = cident(s['name'])
        o += ['', 'static const struct vsnl_codec_attr %s_attrs[%s + 1] = {' % (cn, set_maxattr(s))]
        o += [wrap('\t' + r) for r in rows]
        o += ['};', '',
              'const struct vsnl_codec_set vsnl_codec_%s = {' % cn,
              '\t.name = "%s",' % s['name'],
              '\t.maxattr = %s,' % set_maxattr(s),
              '\t.attrs = %s_attrs,' % cn,
              '};']
    return '\n'.join(o) + '\n'


def gen_codec_h(sp):
    o = ['/* SPDX-License-Identifier: Apache-2.0 */',
         '/* Generated by scripts/vsnl-gen.py from Documentation/netlink/vsched.yaml: edit the spec. */',
         '/*',
         ' * The typed codec of every attribute set (userspace/lib/codec.h). For a set',
         ' * such as node:',
         ' *   vsnl_codec_node                  the policy, as the daemon has it;',
         ' *   struct vsnl_node_tb              the last attribute of each type;',
         ' *   vsnl_node_parse(nest, tb, ...)   checks a nest and fills tb (a subset',
         ' *                                    such as node-key: vsnl_node_key_parse);',
         ' *   vsnl_node_put_NAME(nlh, cap, v)  puts an attribute the policy takes;',
         ' *   vsnl_node_start_NAME(nlh, cap)   starts a nest (mnl_attr_nest_end ends it);',
         ' *   vsnl_node_get_NAME(tb, ...)      reads a parsed attribute.',
         ' */',
         '#ifndef VSNL_CODEC_GEN_H',
         '#define VSNL_CODEC_GEN_H',
         '',
         '#include <stdbool.h>',
         '#include <stdint.h>',
         '',
         '#include <libmnl/libmnl.h>',
         '',
         '#include "lib/codec.h"',
         '#include "vsched/vsched.h"',
         '']
    for d in shown_enums(sp):
        nr = 'VSNL_NR_' + cident(d['name']).upper()
        o += ['', '/* enum %s by value, as clients show it ("?" past its end, as lib/render.c does) */' %
              d['cenum'],
              '#define %s\t(%s + 1)' % (nr, max(d['ents'], key=lambda e: e['value'])['cname']),
              'extern const char *const %s[%s];' % (names_table(d), nr)]
    o.append('')
    for s in sp.set_list:
        o.append('extern const struct vsnl_codec_set vsnl_codec_%s;' % cident(s['name']))
    for s in sp.set_list:
        if s['parent'] is None:
            o += ['', 'struct vsnl_%s_tb {' % cident(s['name']),
                  '\tconst struct nlattr *attr[%s + 1];' % set_maxattr(s), '};']
    for s in sp.set_list:
        cn = cident(s['name'])
        main = s['parent'] or s
        mn = cident(main['name'])
        o.append('')
        o += ['static inline int vsnl_%s_parse(const struct nlattr *nest, struct vsnl_%s_tb *tb,' % (cn, mn),
              '\t\tunsigned int mode, struct vsnl_err *err)',
              '{',
              '\treturn vsnl_codec_parse(&vsnl_codec_%s, nest, tb->attr, mode, err);' % cn,
              '}']
        if s['parent'] is not None or not s['has-enum']:
            continue
        for v in sorted(s['by-value']):
            a = s['by-value'][v]
            an = cident(a['name'])
            fn = 'vsnl_%s_%%s_%s' % (cn, an)
            at = 'tb->attr[%s]' % a['cname']
            t = a['type']
            o.append('')
            if t in C_INT:
                ct = C_INT[t]
                put = 'vsnl_codec_put_int' if t[0] == 's' else 'vsnl_codec_put_uint'
                o += ['static inline int %s(struct nlmsghdr *nlh, size_t cap, %s v,' % (fn % 'put', ct),
                      '\t\tstruct vsnl_err *err)',
                      '{',
                      '\treturn %s(nlh, cap, &vsnl_codec_%s, %s, v, err);' % (put, cn, a['cname']),
                      '}', '',
                      'static inline bool %s(const struct vsnl_%s_tb *tb, %s *v)' % (fn % 'get', cn, ct),
                      '{',
                      '\tif (!%s)' % at,
                      '\t\treturn false;',
                      '\t*v = (%s)mnl_attr_get_u%d(%s);' % (ct, {'u8': 8, 'u16': 16, 'u32': 32, 's32': 32,
                                                             'u64': 64, 's64': 64}[t], at),
                      '\treturn true;',
                      '}']
            elif t == 'string':
                o += ['static inline int %s(struct nlmsghdr *nlh, size_t cap, const char *v,' % (fn % 'put'),
                      '\t\tstruct vsnl_err *err)',
                      '{',
                      '\treturn vsnl_codec_put_str(nlh, cap, &vsnl_codec_%s, %s, v, err);' % (cn, a['cname']),
                      '}', '',
                      'static inline const char *%s(const struct vsnl_%s_tb *tb)' % (fn % 'get', cn),
                      '{',
                      '\treturn %s ? mnl_attr_get_str(%s) : NULL;' % (at, at),
                      '}']
            elif t == 'flag':
                o += ['static inline int %s(struct nlmsghdr *nlh, size_t cap, struct vsnl_err *err)' % (fn % 'put'),
                      '{',
                      '\treturn vsnl_codec_put_flag(nlh, cap, &vsnl_codec_%s, %s, err);' % (cn, a['cname']),
                      '}', '',
                      'static inline bool %s(const struct vsnl_%s_tb *tb)' % (fn % 'get', cn),
                      '{',
                      '\treturn %s;' % at,
                      '}']
            else:
                o += ['static inline struct nlattr *%s(struct nlmsghdr *nlh, size_t cap,' % (fn % 'start'),
                      '\t\tstruct vsnl_err *err)',
                      '{',
                      '\treturn vsnl_codec_nest_start(nlh, cap, &vsnl_codec_%s, %s, err);' % (cn, a['cname']),
                      '}', '',
                      '/* The last one; vsnl_%s_parse() checks and reads it. */' %
                      cident(a['nested-attributes']),
                      'static inline const struct nlattr *%s(const struct vsnl_%s_tb *tb)' % (fn % 'get', cn),
                      '{',
                      '\treturn %s;' % at,
                      '}']
    o += ['', '#endif /* VSNL_CODEC_GEN_H */']
    return '\n'.join(wrap(l) if l.startswith('\t') else l for l in o) + '\n'


# ---------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description='Generate vsched\'s protocol files from its spec.')
    ap.add_argument('--srctree', default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument('--spec')
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--out')
    args = ap.parse_args()
    spec = args.spec or os.path.join(args.srctree, SPEC_DEFAULT)
    shown = os.path.relpath(spec, args.srctree) if not args.spec else args.spec
    try:
        with open(spec) as f:
            text = f.read()
    except OSError as e:
        sys.exit('vsnl-gen: %s: %s' % (shown, e.strerror))
    root = args.out or args.srctree
    # The prose around the generated tables: the copy under root, else the source tree's.
    doc = os.path.join(root, OUT_DOC)
    if not os.path.exists(doc):
        doc = os.path.join(args.srctree, OUT_DOC)
    try:
        sp = Spec(shown, text)
        with open(doc) as f:
            old_doc = f.read()
        outputs = {OUT_HEADER: gen_header(sp), OUT_POLICIES: gen_policies(sp),
                   OUT_DOC: gen_doc(sp, old_doc, OUT_DOC), OUT_CODEC_H: gen_codec_h(sp),
                   OUT_CODEC_C: gen_codec_c(sp)}
    except SpecError as e:
        sys.exit('vsnl-gen: %s' % e)
    if args.check:
        stale = []
        for rel, text in outputs.items():
            try:
                with open(os.path.join(root, rel)) as f:
                    cur = f.read()
            except OSError:
                cur = None
            if cur != text:
                stale.append(rel)
        for rel in stale:
            print('vsnl-gen: %s differs from what %s makes: edited by hand, or stale '
                  '(edit the spec, then run make or scripts/vsnl-gen.py)' % (rel, shown), file=sys.stderr)
        sys.exit(1 if stale else 0)
    for rel, text in outputs.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = path + '.tmp'
        with open(tmp, 'w') as f:
            f.write(text)
        os.replace(tmp, path)


if __name__ == '__main__':
    main()
