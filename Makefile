# SPDX-License-Identifier: Apache-2.0
#
# vsched top-level Makefile, in the style of the kernel's Kbuild.
#
# Every directory that holds code has a Kbuild file listing its objects:
#
#	obj-y     += foo.o bar.o     objects built from foo.c and bar.c
#	obj-y     += sub/            descend into sub/ and take its objects too
#	ccflags-y += -Dsomething     extra flags for this directory's objects
#
# The tree under kernel/ becomes libvscore.a; each program links the objects
# of its own directory and the libraries it names below. One make process
# reads every Kbuild file (no recursive make), so dependencies are exact and
# -j works across the whole tree.
#
# Each command line is saved next to its target (.foo.o.cmd, as Kbuild does),
# with the headers the object depends on: a target is rebuilt when a
# prerequisite is newer or when its command line changed, so switching
# SANITIZE=1 or CFLAGS on and off always rebuilds what it must.

VERSION = 0.1.0

MAKEFLAGS += -rR --no-print-directory
.SUFFIXES:

# ---------------------------------------------------------------------------
# Where things are: srctree holds the sources, objtree the outputs (O=dir).

srctree := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))

ifeq ("$(origin O)", "command line")
objtree := $(abspath $(O))
else
objtree := $(srctree)
endif

ifeq ("$(origin V)", "command line")
KBUILD_VERBOSE := $(V)
endif
ifeq ($(KBUILD_VERBOSE),1)
quiet :=
Q :=
else
quiet := quiet_
Q := @
endif

# make FUZZ=1 (what "make fuzz" runs, in its own output tree): clang, with
# libFuzzer's coverage and AddressSanitizer and UndefinedBehaviorSanitizer.
ifeq ($(FUZZ),1)
ifneq ($(origin CC),command line)
CC := clang
endif
endif
ifeq ($(origin CC),default)
CC := gcc
endif
AR := ar

# ---------------------------------------------------------------------------
# Flags. C11 with GNU extensions; every warning is an error.

WARNINGS := -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow \
	-Wstrict-prototypes -Wmissing-prototypes -Wmissing-declarations \
	-Wold-style-definition -Wpointer-arith -Wformat=2 -Wundef -Wvla \
	-Wwrite-strings -Wimplicit-fallthrough -Wnull-dereference \
	-Wdouble-promotion

KBUILD_CFLAGS := -std=gnu11 -O2 -g -fno-common -fno-strict-aliasing \
	-D_GNU_SOURCE $(WARNINGS)
# kernel/ by -iquote: its netlink/ headers must not hide libnl-3's <netlink/...>.
KBUILD_CPPFLAGS := -iquote $(srctree)/kernel -I$(srctree)/uapi -I$(srctree)/userspace
KBUILD_LDFLAGS :=
LIBS_ALLOC := -ljemalloc

# make SANITIZE=1: AddressSanitizer and UndefinedBehaviorSanitizer, with the
# system allocator so that ASan sees every allocation (jemalloc would hide them).
# It is a debug build too.
ifeq ($(SANITIZE),1)
DEBUG ?= 1
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
KBUILD_CFLAGS := $(filter-out -O2,$(KBUILD_CFLAGS)) -O1 $(SAN_FLAGS)
KBUILD_LDFLAGS += $(SAN_FLAGS)
LIBS_ALLOC :=
endif

ifeq ($(FUZZ),1)
DEBUG ?= 1
SAN_FLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
KBUILD_CFLAGS := $(filter-out -O2,$(KBUILD_CFLAGS)) -O1 $(SAN_FLAGS)
KBUILD_LDFLAGS += $(filter-out -fsanitize=fuzzer-no-link%,$(SAN_FLAGS)) -fsanitize=address,undefined
LIBS_ALLOC :=
endif

# The heap count of core/mem.c comes from jemalloc when it is linked.
ifneq ($(LIBS_ALLOC),)
KBUILD_CFLAGS += -DVS_HAVE_JEMALLOC
endif

# make DEBUG=1: vschedd checks the whole core after every datagram of
# requests and every cycle (--self-check by default; Documentation/core.md).
ifeq ($(DEBUG),1)
KBUILD_CFLAGS += -DVS_DEBUG_CHECKS
endif

# Extra flags from the command line, as the kernel takes KCFLAGS.
KBUILD_CFLAGS += $(KCFLAGS)

# ---------------------------------------------------------------------------
# Kbuild.include: command echoing and rebuild-on-changed-command.

include $(srctree)/scripts/Kbuild.include

# ---------------------------------------------------------------------------
# Read the Kbuild files.

# $(call kbuild-read,dir/): include dir/Kbuild and record what it lists.
define kbuild-read
obj-y :=
ccflags-y :=
include $(srctree)/$(1)Kbuild
__objs-$(1) := $$(addprefix $(1),$$(filter %.o,$$(obj-y)))
__dirs-$(1) := $$(addprefix $(1),$$(filter %/,$$(obj-y)))
__ccflags-$(1) := $$(ccflags-y)
endef

# $(call kbuild-objs,dir/): the objects of dir/ and of every subdirectory it
# lists, recursively, as paths relative to the tree.
kbuild-objs = $(eval $(call kbuild-read,$(1)))$(strip $(__objs-$(1)) \
	$(foreach d,$(__dirs-$(1)),$(call kbuild-objs,$(d))))

# ---------------------------------------------------------------------------
# What gets built.

# libvscore.a: the core (kernel/). The daemon's main() is not part of it.
core-objs := $(call kbuild-objs,kernel/)

# libvsnl.a: the client library every userspace program talks to vschedd with.
vsnl-objs := $(call kbuild-objs,userspace/lib/)
LIBS_VSNL := -lnl-genl-3 -lnl-3 -lyaml

# libvsharness.a: the harness, the userspace that runs the core in-process
# (userspace/harness/): scenarios and vsbench's in-process commands. Only
# what uses it links libvscore.a besides the daemon and the tests.
harness-objs := $(call kbuild-objs,userspace/harness/)

# Programs: name, the directories whose Kbuild lists their objects, and the
# libraries they link.
progs := vsbench vsctl vschedd vskube

vsbench-dirs := userspace/vsbench/
vsbench-libs := $(objtree)/libvsharness.a $(objtree)/libvsnl.a $(objtree)/libvscore.a
vsbench-ldlibs := -ljansson $(LIBS_VSNL) -lmnl -lyaml -lz -lm

vsctl-dirs := userspace/vsctl/ userspace/kube/
vsctl-libs := $(objtree)/libvsharness.a $(objtree)/libvsnl.a $(objtree)/libvscore.a
vsctl-ldlibs := -ljansson $(LIBS_VSNL) -lmnl -lyaml -lz -lm

# The daemon: kernel/daemon/ is not in kernel/Kbuild, so not in libvscore.a.
vschedd-dirs := kernel/daemon/
vschedd-libs := $(objtree)/libvscore.a
vschedd-ldlibs := -lmnl -lyaml -lz -lm

# The bridge to Kubernetes; it reads objects with vsctl's manifest reader
# without the core (userspace/kube/kread*, below), so it links no core.
vskube-dirs := userspace/vskube/
vskube-libs := $(objtree)/libvsnl.a
LIBS_VSKUBE := -lcurl -lcrypto
vskube-ldlibs := $(LIBS_VSKUBE) -lmicrohttpd -ljansson $(LIBS_VSNL) -lmnl -lyaml -lz -lm
# The tests serve HTTP to it with libmicrohttpd.
LIBS_KUBE_TEST := -lmicrohttpd

# Programs the tests run and nothing installs: the test Kubernetes API
# server (Documentation/kube-test-apiserver.md), at $(objtree)/selftests/kube/.
test-progs := kapiserver vssoak vsmutate
kapiserver-path := selftests/kube/kapiserver
kapiserver-dirs := selftests/kube/
kapiserver-ldlibs := -lmicrohttpd -ljansson
# The soak of a real daemon (Documentation/fuzzing.md, "The soak").
vssoak-path := selftests/soak/vssoak
vssoak-dirs := selftests/soak/
vssoak-libs := $(objtree)/libvsnl.a $(objtree)/libvscore.a
vssoak-ldlibs := $(LIBS_VSNL) -lmnl -lz -lm
# The mutation fuzzer of a real daemon (Documentation/fuzzing.md); it reads
# checkpoints with the core's reader.
vsmutate-path := selftests/mutate/vsmutate
vsmutate-dirs := selftests/mutate/
vsmutate-libs := $(objtree)/libvscore.a
vsmutate-ldlibs := -lmnl -lyaml -lz -lm

# The unit tests: one Criterion binary for every suite under selftests/.
test-objs := $(call kbuild-objs,selftests/)
# What the client and manifest tests exercise of vsctl (libvsnl aside).
test-client-objs := $(call kbuild-objs,userspace/kube/)
test-bin := $(objtree)/selftests/vs-selftests

$(foreach p,$(progs) $(test-progs),$(eval $(p)-objs := \
	$(foreach d,$($(p)-dirs),$(call kbuild-objs,$(d)))))
# Of userspace/kube/, vskube takes the reader without the core alone.
vskube-objs += $(filter userspace/kube/kread%.o,$(call kbuild-objs,userspace/kube/))
test-prog-bins := $(foreach p,$(test-progs),$(objtree)/$($(p)-path))

# What the daemon's tests exercise of it: everything but main().
test-daemon-objs := $(filter-out kernel/daemon/main.o,$(vschedd-objs))
# And of vskube (the readers come with test-client-objs).
test-vskube-objs := $(filter-out userspace/vskube/main.o,$(call kbuild-objs,userspace/vskube/))

# The fuzz targets (Documentation/fuzzing.md): selftests/fuzz/fuzz_NAME.c
# holds LLVMFuzzerTestOneInput() of target NAME. make check links each with
# replay.c, a driver that runs it over its corpus and mutants of it; make
# fuzz links each with libFuzzer (FUZZ=1). What they read with besides the
# libraries: the programs' and the harness's objects but main(), as an archive, so
# that a target takes only what it calls.
fuzz-targets := quantity conf netlink scenario manifest kube ytree
fuzz-replay-obj := selftests/fuzz/replay.o
fuzz-target-objs := $(foreach t,$(fuzz-targets),selftests/fuzz/fuzz_$(t).o)
fuzz-progs-objs := $(sort $(filter-out %/main.o,$(vsctl-objs) $(vskube-objs) $(harness-objs)))
fuzz-progs-lib := $(objtree)/selftests/fuzz/libprogs.a
fuzz-libs := $(fuzz-progs-lib) $(objtree)/libvsnl.a $(objtree)/libvscore.a
fuzz-ldlibs := $(LIBS_VSKUBE) -lmicrohttpd -ljansson $(LIBS_VSNL) -lmnl -lyaml -lz -lm
fuzz-replay-bins := $(foreach t,$(fuzz-targets),$(objtree)/selftests/fuzz/replay-$(t))
fuzz-bins := $(foreach t,$(fuzz-targets),$(objtree)/selftests/fuzz/fuzz-$(t))
# The netlink target's seeds are written by a program, from manifests (make fuzz-seeds).
fuzz-seeds-obj := selftests/fuzz/gen_netlink_seeds.o
fuzz-seeds-bin := $(objtree)/selftests/fuzz/gen-netlink-seeds

all-objs := $(core-objs) $(vsnl-objs) $(harness-objs) $(test-objs) \
	$(foreach p,$(progs) $(test-progs),$($(p)-objs)) \
	$(call kbuild-objs,selftests/fuzz/)

# Per-directory ccflags-y become target-specific flags of that directory's objects.
$(foreach o,$(all-objs),$(eval $(objtree)/$(o): ccflags := $(__ccflags-$(dir $(o)))))

# ---------------------------------------------------------------------------
# Rules.

PHONY := all
all: $(objtree)/libvscore.a $(objtree)/libvsnl.a $(objtree)/libvsharness.a $(addprefix $(objtree)/,$(progs)) $(test-bin) \
	$(test-prog-bins) $(fuzz-replay-bins) $(fuzz-seeds-bin) $(objtree)/compile_commands.json

# Short names for the outputs, as "make vmlinux" works in the kernel: the
# real targets are paths in the output tree.
PHONY += $(progs) libvscore.a libvsnl.a libvsharness.a
$(progs) libvscore.a libvsnl.a libvsharness.a: %: $(objtree)/%
	@:

# Install the packages the build needs before anything is compiled; the
# script is a quick no-op when everything is present.
PHONY += deps
deps:
	$(Q)$(srctree)/scripts/install-deps.sh

c_flags = $(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS) $(ccflags)

quiet_cmd_cc_o_c = CC      $(rel-target)
      cmd_cc_o_c = $(CC) $(c_flags) -MMD -MP -MF $(depfile) -c -o $@ $<

$(objtree)/%.o: $(srctree)/%.c FORCE | deps $(vsnl-outputs)
	$(call if_changed_dep,cc_o_c)

# The protocol, written once (Documentation/protocol.md, "The spec"): the
# uapi header, the policy tables, the protocol's tables and the userspace
# codec are made from the spec by scripts/vsnl-gen.py. They are committed, so
# that a build runs the generator only when the spec or the generator is newer
# than they are; every object waits for them, and check-protocol-spec fails
# when they differ from what the spec makes.
vsnl-spec := $(srctree)/Documentation/netlink/vsched.yaml
vsnl-gen := $(srctree)/scripts/vsnl-gen.py
vsnl-outputs := $(srctree)/uapi/vsched/vsched.h $(srctree)/kernel/netlink/policies.c \
	$(srctree)/Documentation/protocol.md $(srctree)/userspace/lib/codec_gen.h \
	$(srctree)/userspace/lib/codec_gen.c

quiet_cmd_vsnl_gen = GEN     $(patsubst $(srctree)/%,%,$(vsnl-spec))
      cmd_vsnl_gen = python3 $(vsnl-gen) --srctree $(srctree)

$(vsnl-outputs) &: $(vsnl-spec) $(vsnl-gen) | deps
	$(Q)$(call echo-cmd,vsnl_gen) $(cmd_vsnl_gen)

PHONY += protocol
protocol: $(vsnl-outputs)

quiet_cmd_ar = AR      $(rel-target)
      cmd_ar = rm -f $@; $(AR) rcs $@ $(real-prereqs)

$(objtree)/libvscore.a: $(addprefix $(objtree)/,$(core-objs)) FORCE
	$(call if_changed,ar)

$(objtree)/libvsnl.a: $(addprefix $(objtree)/,$(vsnl-objs)) FORCE
	$(call if_changed,ar)

$(objtree)/libvsharness.a: $(addprefix $(objtree)/,$(harness-objs)) FORCE
	$(call if_changed,ar)

quiet_cmd_ld = LD      $(rel-target)
      cmd_ld = $(CC) $(KBUILD_LDFLAGS) -o $@ $(real-prereqs) $(ldlibs)

define prog-rule
$(objtree)/$(1): ldlibs = $($(1)-ldlibs) $(LIBS_ALLOC)
$(objtree)/$(1): $(addprefix $(objtree)/,$($(1)-objs)) $($(1)-libs) FORCE
	$$(call if_changed,ld)
endef
$(foreach p,$(progs),$(eval $(call prog-rule,$(p))))

define test-prog-rule
$(objtree)/$($(1)-path): ldlibs = $($(1)-ldlibs) $(LIBS_ALLOC)
$(objtree)/$($(1)-path): $(addprefix $(objtree)/,$($(1)-objs)) $($(1)-libs) FORCE
	$$(call if_changed,ld)
endef
$(foreach p,$(test-progs),$(eval $(call test-prog-rule,$(p))))

$(test-bin): ldlibs = -lcriterion -ljansson $(LIBS_VSNL) -lmnl -lyaml $(LIBS_VSKUBE) \
	$(LIBS_KUBE_TEST) -lz -lm \
	$(LIBS_ALLOC)
$(test-bin): $(addprefix $(objtree)/,$(test-objs) $(test-client-objs) $(test-daemon-objs) \
		$(test-vskube-objs)) \
		$(objtree)/libvsharness.a $(objtree)/libvsnl.a $(objtree)/libvscore.a FORCE
	$(call if_changed,ld)

$(fuzz-progs-lib): $(addprefix $(objtree)/,$(fuzz-progs-objs)) FORCE
	$(call if_changed,ar)

$(objtree)/selftests/fuzz/replay-%: ldlibs = $(fuzz-ldlibs) $(LIBS_ALLOC)
$(objtree)/selftests/fuzz/replay-%: $(objtree)/$(fuzz-replay-obj) \
		$(objtree)/selftests/fuzz/fuzz_%.o $(fuzz-libs) FORCE
	$(call if_changed,ld)

$(fuzz-seeds-bin): ldlibs = $(fuzz-ldlibs) $(LIBS_ALLOC)
$(fuzz-seeds-bin): $(objtree)/$(fuzz-seeds-obj) $(fuzz-libs) FORCE
	$(call if_changed,ld)

# libFuzzer brings main(); only in a FUZZ=1 tree.
$(objtree)/selftests/fuzz/fuzz-%: ldlibs = -fsanitize=fuzzer $(fuzz-ldlibs)
$(objtree)/selftests/fuzz/fuzz-%: $(objtree)/selftests/fuzz/fuzz_%.o $(fuzz-libs) FORCE
	$(call if_changed,ld)

# compile_commands.json for editors and clang tools, from the saved commands.
quiet_cmd_gen_cc_json = GEN     $(rel-target)
      cmd_gen_cc_json = $(srctree)/scripts/gen-compile-commands.sh \
			$(srctree) $(objtree) $(all-objs) > $@.tmp && mv $@.tmp $@

$(objtree)/compile_commands.json: $(addprefix $(objtree)/,$(all-objs)) FORCE
	$(call if_changed,gen_cc_json)

PHONY += compile_commands.json
compile_commands.json: $(objtree)/compile_commands.json

# ---------------------------------------------------------------------------
# Tests.

# make check: the fuzz corpus replayed, the shell tests, a short soak and
# mutation run, then every Criterion suite in one binary, which closes the
# output with its summary line. Each shell test is a target of its own, so
# that make -j runs them side by side (each makes its own temporary directory
# and socket); --output-sync keeps each one's lines together. Volcano's
# scheduler judges vsched too: every scenario (conformance) and the
# differential fuzzer's fixed seeds (conformance-check); they need Go.
MAKEFLAGS += --output-sync=target
PHONY += check unit-check
check: unit-check

# The smoke tests of the programs, the scenario suite and the documents'
# examples, each given the directory the programs are in ($(1)): make check
# runs them on the output tree, make memcheck on a tree whose programs run
# under valgrind. The bridge's end-to-end test runs against the real
# kube-apiserver, with the kubectl of the same release: make peers builds them
# (once; Go's caches in GO_DIR).
smoke-tests := vsbench-smoke vsbench-run vsbench-export vsbench-sweep vsbench-sim vsctl-smoke \
	vsctl-objects accounting-extremes vsctl-top manual-pages doc-getting-started \
	doc-vsctl doc-scheduling scenarios-run conformance-compare scenarios-remote apply-equivalence \
	demo-smoke vjob-lifecycle vskube-e2e vskube-faults protocol-spec pod-admission
smoke-vsbench-smoke = $(srctree)/selftests/vsbench-smoke.sh $(1)/vsbench
smoke-vsbench-run = $(srctree)/selftests/vsbench-run.sh $(1)/vsbench
smoke-vsbench-export = $(srctree)/selftests/vsbench-export.sh $(1)
smoke-vsbench-sweep = $(srctree)/selftests/vsbench-sweep.sh $(1)/vsbench
smoke-vsbench-sim = $(srctree)/selftests/vsbench-sim.sh $(1)/vsbench $(srctree)/selftests/vsbench
smoke-vsctl-smoke = $(srctree)/selftests/vsctl-smoke.sh $(1)/vsctl $(srctree)/selftests/vsctl
smoke-vsctl-objects = $(srctree)/selftests/vsctl-objects.sh $(1)
smoke-accounting-extremes = $(srctree)/selftests/accounting-extremes.sh $(1)
smoke-vsctl-top = $(srctree)/selftests/vsctl-top.sh $(1)
smoke-manual-pages = $(srctree)/selftests/manual-pages.sh $(1) $(srctree)
smoke-doc-getting-started = $(srctree)/selftests/doc-run.sh $(1) $(srctree) \
	Documentation/getting-started.md
smoke-doc-vsctl = $(srctree)/selftests/doc-run.sh $(1) $(srctree) Documentation/vsctl.md
smoke-doc-scheduling = $(srctree)/selftests/doc-run.sh $(1) $(srctree) Documentation/scheduling.md
smoke-scenarios-run = $(srctree)/selftests/scenarios-run.sh $(1)/vsctl $(srctree)/selftests/scenarios
smoke-conformance-compare = $(srctree)/selftests/conformance-compare.sh $(1) $(srctree)
smoke-scenarios-remote = $(srctree)/selftests/scenarios-remote.sh $(1) $(srctree)/selftests
smoke-apply-equivalence = $(srctree)/selftests/apply-equivalence.sh $(1) $(srctree)/selftests
smoke-demo-smoke = $(srctree)/selftests/demo-smoke.sh $(1) $(srctree)
smoke-vjob-lifecycle = $(srctree)/selftests/vjob-lifecycle.sh $(1)
smoke-vskube-e2e = $(srctree)/selftests/vskube-e2e.sh $(1) $(srctree)/selftests $(peers-dir)
smoke-vskube-faults = $(srctree)/selftests/vskube-faults.sh $(1) $(peers-dir)
smoke-protocol-spec = $(srctree)/selftests/protocol-spec.sh $(srctree)
smoke-pod-admission = $(srctree)/selftests/pod-admission.sh $(1) $(srctree)

check-progs := $(test-bin) $(addprefix $(objtree)/,$(progs)) $(test-prog-bins) $(fuzz-replay-bins)
# The tests that need kube-apiserver or kubectl wait for the peers; the rest
# run while Go compiles them.
peers-tests := kube-apiserver vskube-e2e vskube-faults

# The steps before Criterion, each a target (check-STEP).
check-steps := layers fuzz-replay kube-apiserver $(smoke-tests) vskube-scale soak mutate
# kernel/ keeps its layers, userspace/ off kernel/ but for its harness, and
# only the harness's users link the core (scripts/check-layers.sh;
# Documentation/architecture.md)
check-layers = $(srctree)/selftests/check-layers.sh $(srctree)
check-fuzz-replay = LSAN_OPTIONS=suppressions=$(srctree)/selftests/lsan.supp \
	$(srctree)/selftests/fuzz-replay.sh $(objtree) $(srctree) $(fuzz-targets)
check-kube-apiserver = $(srctree)/selftests/kube-apiserver.sh $(objtree) $(srctree)/selftests/kube \
	$(peers-dir)
$(foreach t,$(smoke-tests),$(eval check-$(t) = $$(call smoke-$(t),$$(objtree))))
check-vskube-scale = $(srctree)/selftests/vskube-scale.sh $(objtree)
check-soak = $(objtree)/selftests/soak/vssoak --vschedd $(objtree)/vschedd --seconds $(SOAK_CHECK_TIME)
check-mutate = $(srctree)/selftests/vsmutate.sh $(objtree) $(srctree) $(MUTATE_CHECK_COUNT) \
	$(MUTATE_CHECK_SEED)

PHONY += $(addprefix check-,$(check-steps))
$(addprefix check-,$(check-steps)): check-%: $(check-progs)
	$(Q)$(check-$*)
$(addprefix check-,$(peers-tests)) $(addprefix memcheck-,$(filter $(smoke-tests),$(peers-tests))): peers

unit-check: $(addprefix check-,$(check-steps)) conformance conformance-check
	$(Q)LSAN_OPTIONS=suppressions=$(srctree)/selftests/lsan.supp $(test-bin) --jobs=2 $(CHECK_ARGS)

# The soak (Documentation/hardening.md): make check runs it for
# SOAK_CHECK_TIME seconds, make soak for SOAK_TIME with SOAK_WORKERS clients.
SOAK_CHECK_TIME ?= 10
SOAK_TIME ?= 600
SOAK_WORKERS ?= 16

PHONY += soak
soak: $(objtree)/vschedd $(objtree)/selftests/soak/vssoak
	$(Q)$(objtree)/selftests/soak/vssoak --vschedd $(objtree)/vschedd --seconds $(SOAK_TIME) \
		--workers $(SOAK_WORKERS) -v

# The mutation fuzzer of a real daemon (Documentation/fuzzing.md): make
# check tests it and sends MUTATE_CHECK_COUNT mutants of MUTATE_CHECK_SEED
# (the same every time), make mutate runs it for MUTATE_TIME seconds;
# MUTATE_SEED fixes its seed (else one from the clock, printed).
MUTATE_CHECK_COUNT ?= 10000
MUTATE_CHECK_SEED ?= 1
MUTATE_TIME ?= 600
MUTATE_SEED ?=
mutate-corpus := $(srctree)/selftests/fuzz/corpus/netlink

PHONY += mutate
mutate: $(objtree)/vschedd $(objtree)/selftests/mutate/vsmutate
	$(Q)$(objtree)/selftests/mutate/vsmutate --vschedd $(objtree)/vschedd \
		--corpus $(mutate-corpus) --seconds $(MUTATE_TIME) $(if $(MUTATE_SEED),--seed $(MUTATE_SEED))

# Under valgrind's memcheck (Documentation/build.md): the fuzz corpus, the
# smoke tests, every unit test and a short soak.
# jemalloc replaces malloc, so memcheck is told where the allocator lives;
# programs and Criterion's tests run children, so children are traced (but
# not gnuplot, which vsbench sweep runs), each writing its own log, in a
# directory anyone may write to (vsctl-objects.sh runs vsctl as another
# user); a process exits at its first error, which fails its test; and
# every log must be empty in the end (scripts/memcheck-logs.sh): a leak in
# a test's process surfaces as it exits, when Criterion no longer looks.
# The smoke tests get $(MEMCHECK_LOGS)/tree, the programs' directory with
# each program run under memcheck (scripts/memcheck-tree.sh). Left out:
# kube-apiserver.sh (no program of ours) and vskube-scale.sh (it measures
# memory and time). CI runs it.
MEMCHECK_LOGS := $(objtree)/memcheck
MEMCHECK := valgrind -q --error-exitcode=1 --exit-on-first-error=yes --leak-check=full \
	--show-leak-kinds=definite --errors-for-leak-kinds=definite \
	--soname-synonyms=somalloc=*jemalloc* --trace-children=yes \
	--trace-children-skip=*gnuplot* --vgdb=no \
	--suppressions=$(srctree)/selftests/valgrind.supp --log-file=$(MEMCHECK_LOGS)/%p.log

# Mutants of each fuzz corpus input replayed under memcheck (make check: 300 to 1000).
MEMCHECK_MUTANTS := 100

# memcheck's steps: the logs' directory and the tree first; then the corpus
# of each fuzz target and each smoke test, side by side under make -j; then
# the unit tests and the soak; the logs are checked last.
PHONY += memcheck memcheck-prepare memcheck-unit memcheck-soak
memcheck-prepare: $(check-progs)
	$(Q)rm -rf $(MEMCHECK_LOGS) && mkdir -p $(MEMCHECK_LOGS) && chmod 1777 $(MEMCHECK_LOGS)
	$(Q)$(srctree)/scripts/memcheck-tree.sh $(objtree) $(MEMCHECK_LOGS)/tree '$(progs)' \
		'$(MEMCHECK)'

PHONY += $(addprefix memcheck-replay-,$(fuzz-targets))
$(addprefix memcheck-replay-,$(fuzz-targets)): memcheck-replay-%: memcheck-prepare
	$(Q)$(MEMCHECK) $(objtree)/selftests/fuzz/replay-$* -n $(MEMCHECK_MUTANTS) \
		$(srctree)/selftests/fuzz/corpus/$* >/dev/null 2>$(MEMCHECK_LOGS)/replay-$*.err || \
		{ tail -n 20 $(MEMCHECK_LOGS)/replay-$*.err >&2; exit 1; }

PHONY += $(addprefix memcheck-,$(smoke-tests))
$(addprefix memcheck-,$(smoke-tests)): memcheck-%: memcheck-prepare
	$(Q)$(call smoke-$*,$(MEMCHECK_LOGS)/tree)

memcheck-steps := $(addprefix memcheck-replay-,$(fuzz-targets)) $(addprefix memcheck-,$(smoke-tests))

# Criterion runs two tests at a time itself: it starts when the rest is done.
memcheck-unit: $(memcheck-steps)
	$(Q)$(MEMCHECK) $(test-bin) --jobs=2 $(CHECK_ARGS)

memcheck-soak: memcheck-prepare
	$(Q)$(MEMCHECK) $(objtree)/selftests/soak/vssoak --vschedd $(objtree)/vschedd \
		--seconds 5 --workers 4

memcheck: memcheck-unit memcheck-soak
	$(Q)$(srctree)/scripts/memcheck-logs.sh $(MEMCHECK_LOGS)

# ---------------------------------------------------------------------------
# The demo the README opens with: the most useful thing vsched can show today.

# A vschedd in standalone mode on a temporary socket, a synthetic cluster with
# more work than room loaded into it by vsbench load, three cycles, vsctl views.
DEMO_ARGS ?= --nodes 500 --jobs 3000 --tasks-per-job 8

PHONY += demo
demo: $(objtree)/vschedd $(objtree)/vsbench $(objtree)/vsctl
	$(Q)$(srctree)/scripts/demo.sh $(objtree) $(DEMO_ARGS)

# ---------------------------------------------------------------------------
# Fuzzing (Documentation/fuzzing.md): every target under libFuzzer for
# FUZZ_TIME seconds, built with clang into $(objtree)/fuzz-build. What it
# finds new goes to fuzz-build/corpus/NAME; a crash is written to
# fuzz-build/crash/ and ends the run. Then the mutation fuzzer as long,
# against that tree's daemon (AddressSanitizer, UBSan); a failure's
# reproducer goes to fuzz-build/mutate/.
FUZZ_TIME ?= 60
FUZZ_TARGETS ?= $(fuzz-targets)
fuzz-tree := $(objtree)/fuzz-build

PHONY += fuzz fuzz-bins
fuzz:
	$(Q)$(MAKE) -f $(srctree)/Makefile O=$(fuzz-tree) FUZZ=1 fuzz-bins
	$(Q)$(srctree)/selftests/fuzz-run.sh $(fuzz-tree) $(srctree) $(FUZZ_TIME) $(FUZZ_TARGETS)
	$(Q)rm -rf $(fuzz-tree)/mutate
	$(Q)$(fuzz-tree)/selftests/mutate/vsmutate --vschedd $(fuzz-tree)/vschedd \
		--corpus $(mutate-corpus) --seconds $(FUZZ_TIME) --out $(fuzz-tree)/mutate \
		$(if $(MUTATE_SEED),--seed $(MUTATE_SEED))

fuzz-bins: $(fuzz-bins) $(objtree)/vschedd $(objtree)/selftests/mutate/vsmutate

# The netlink target's seeds again, after a change of the protocol or the manifests.
PHONY += fuzz-seeds
fuzz-seeds: $(fuzz-seeds-bin)
	$(Q)rm -f $(srctree)/selftests/fuzz/corpus/netlink/seed-*
	$(Q)mkdir -p $(srctree)/selftests/fuzz/corpus/netlink
	$(Q)$(fuzz-seeds-bin) $(srctree)/selftests/fuzz/corpus/netlink \
		$(srctree)/selftests/manifests/cluster.yaml $(srctree)/selftests/manifests/workloads.yaml \
		$(srctree)/selftests/manifests/hypernodes.yaml

# ---------------------------------------------------------------------------
# What CI does not run: the fast path against the exhaustive scan, and
# sparse sessions against full ones, on many more random clusters than make
# check's 200, then the presets, each scheduled both ways in one run
# (Documentation/benchmarks.md).
BENCH_SEEDS ?= 3000
BENCH_PRESETS ?= 1k 10k

PHONY += bench
bench: $(test-bin) $(objtree)/vsbench
	$(Q)FASTPATH_SEEDS=$(BENCH_SEEDS) $(test-bin) --filter='fastpath/*'
	$(Q)VIEWS_SEEDS=$(BENCH_SEEDS) $(test-bin) --filter='views/*'
	$(Q)for p in $(BENCH_PRESETS); do \
		$(objtree)/vsbench run --preset $$p --cycles 2 --compare || exit 1; \
	done

# The presets swept and plotted against cluster size (Documentation/benchmarks.md,
# "Plots"): the table on stdout, the data and the SVGs in $(BENCH_PLOT_DIR).
BENCH_PLOT_PRESETS ?= tiny,1k,10k
BENCH_PLOT_DIR ?= $(objtree)/bench

PHONY += bench-plot
bench-plot: $(objtree)/vsbench
	$(Q)$(objtree)/vsbench sweep --presets $(BENCH_PLOT_PRESETS) --out $(BENCH_PLOT_DIR)

# vskube at scale (Documentation/benchmarks.md, "The bridge at scale"):
# NODES RUNNING PENDING loaded into kapiserver, synced by the bridge into a
# vschedd, the pending pods bound. make check runs it at 200 2000 200.
BENCH_KUBE ?= 50000 1000000 10000

PHONY += bench-kube
bench-kube: $(addprefix $(objtree)/,$(progs)) $(test-prog-bins)
	$(Q)$(srctree)/selftests/vskube-scale.sh $(objtree) $(BENCH_KUBE)

# ---------------------------------------------------------------------------
# Volcano's own scheduler as the conformance oracle (Documentation/conformance.md):
# a Go test program linking the Volcano release pinned in its go.mod. Go's
# module and build caches and the Go programs live in GO_DIR (scripts/go-env.sh):
# they do not depend on the C build's flags, so every output tree (O=build-san)
# shares the one of the source tree, and a first build happens once. The
# program is rebuilt when its go.mod, go.sum or sources change.
# GO_JOBS bounds Go's parallel compiles.
GO_DIR ?= $(srctree)/go
GO_JOBS ?= 2
override GO_DIR := $(abspath $(GO_DIR))
oracle-src := $(srctree)/selftests/oracle/volcano
oracle-bin := $(GO_DIR)/bin/volcano-oracle

quiet_cmd_go_build = GO      $(rel-target)
      cmd_go_build = cd $(oracle-src) && $(srctree)/scripts/go-env.sh $(GO_DIR) \
		go build -p $(GO_JOBS) -o $@ .

$(oracle-bin): $(oracle-src)/go.mod $(oracle-src)/go.sum $(wildcard $(oracle-src)/*.go)
	$(Q)mkdir -p $(dir $@)
	@$(call echo-cmd,go_build) $(cmd_go_build)

PHONY += oracle conformance conformance-fuzz conformance-check
oracle: $(oracle-bin)

# Volcano in process beside vsched, on the clusters of vsbench's presets, in
# one run (Documentation/benchmarks.md, "Volcano in process"): vsched's fast
# path and exhaustive scan, and the oracle timing Volcano's session on the
# exported cluster, with the binds compared. BENCH_INPROC_ALL_NODES: the
# presets Volcano also schedules searching every node, as vsched does.
BENCH_INPROC_PRESETS ?= tiny
BENCH_INPROC_ALL_NODES ?= tiny

PHONY += bench-inproc
bench-inproc: $(objtree)/vsbench $(objtree)/vsctl $(oracle-bin)
	$(Q)VSBENCH=$(objtree)/vsbench VSCTL=$(objtree)/vsctl ORACLE=$(oracle-bin) \
		ALL_NODES="$(BENCH_INPROC_ALL_NODES)" \
		$(srctree)/scripts/bench-inproc.sh $(BENCH_INPROC_PRESETS)

# Every scenario of selftests/scenarios/ through vsched and through the oracle.
conformance: $(objtree)/vsctl $(oracle-bin)
	$(Q)VSCTL=$(objtree)/vsctl ORACLE=$(oracle-bin) $(srctree)/scripts/conformance.sh

# Differential testing: random scenarios from FUZZ_SEED on, for FUZZ_TIME
# seconds, through both; each difference is shrunk and saved in FUZZ_SAVE.
FUZZ_SEED ?= $(shell date +%s)
FUZZ_SAVE ?= $(objtree)/conformance-fuzz
oracle-fuzz = $(oracle-bin) fuzz -vsctl $(objtree)/vsctl \
	-verdict $(srctree)/scripts/conformance-verdict.jq
conformance-fuzz: $(objtree)/vsctl $(oracle-bin)
	$(Q)mkdir -p $(FUZZ_SAVE)
	$(Q)$(oracle-fuzz) -seed $(FUZZ_SEED) -time $(FUZZ_TIME) -save $(FUZZ_SAVE)

# The fixed seeds make check runs: every one must agree.
CONFORMANCE_SEEDS ?= 300
conformance-check: $(objtree)/vsctl $(oracle-bin)
	$(Q)$(oracle-fuzz) -seed 1 -cases $(CONFORMANCE_SEEDS) -no-shrink
	$(Q)$(srctree)/selftests/oracle-session.sh $(oracle-bin) $(objtree)/vsctl

# ---------------------------------------------------------------------------
# The real peers (Documentation/kube-test-apiserver.md, "The real
# kube-apiserver"): kube-apiserver from the Kubernetes release pinned in
# selftests/peers/go.mod, a single-member etcd launcher on etcd's embed
# package, and Volcano's CRDs from the Volcano release the oracle pins. Built
# only when asked, into $(GO_DIR)/peers/; rebuilt when the pins or
# the launcher's sources change.
peers-src := $(srctree)/selftests/peers
peers-dir := $(GO_DIR)/peers
peers-apiserver := $(peers-dir)/kube-apiserver
peers-kubectl := $(peers-dir)/kubectl
peers-etcd := $(peers-dir)/etcd-embed
peers-crds := $(peers-dir)/crd/.volcano
# The version kube-apiserver reports (/version, kubectl version): without it
# a build from the module says v0.0.0-master.
peers-k8s-version = $(shell sed -n 's/^\tk8s.io\/kubernetes \(v[0-9.]*\).*/\1/p' \
	$(peers-src)/go.mod)
peers-k8s-words = $(subst ., ,$(peers-k8s-version:v%=%))
peers-ldflags = -s -w -X k8s.io/component-base/version.gitVersion=$(peers-k8s-version) \
	-X k8s.io/component-base/version.gitMajor=$(word 1,$(peers-k8s-words)) \
	-X k8s.io/component-base/version.gitMinor=$(word 2,$(peers-k8s-words))

quiet_cmd_go_peer = GO      $(rel-target)
      cmd_go_peer = cd $(peers-src) && $(srctree)/scripts/go-env.sh $(GO_DIR) \
		go build -p $(GO_JOBS) -ldflags='$(peers-ldflags)' -o $@ $(peer-pkg)

$(peers-apiserver): peer-pkg := k8s.io/kubernetes/cmd/kube-apiserver
$(peers-apiserver): $(peers-src)/go.mod $(peers-src)/go.sum
	$(Q)mkdir -p $(dir $@)
	@$(call echo-cmd,go_peer) $(cmd_go_peer)

# kubectl from the same release: the real-server tests drive the cluster with
# it, never with whatever kubectl the machine may have.
$(peers-kubectl): peer-pkg := k8s.io/kubernetes/cmd/kubectl
$(peers-kubectl): $(peers-src)/go.mod $(peers-src)/go.sum
	$(Q)mkdir -p $(dir $@)
	@$(call echo-cmd,go_peer) $(cmd_go_peer)

$(peers-etcd): peer-pkg := ./cmd/etcd-embed
$(peers-etcd): $(peers-src)/go.mod $(peers-src)/go.sum $(wildcard $(peers-src)/cmd/etcd-embed/*.go)
	$(Q)mkdir -p $(dir $@)
	@$(call echo-cmd,go_peer) $(cmd_go_peer)

# Volcano's CRDs (PodGroup, Queue, Job, Command, Numatopology), copied out of
# the module the oracle's go.mod pins, so that the API server and the oracle
# speak of the same Volcano.
quiet_cmd_volcano_crds = GEN     $(rel-target)
      cmd_volcano_crds = dir=$$(cd $(oracle-src) && $(srctree)/scripts/go-env.sh $(GO_DIR) \
		go mod download -json volcano.sh/volcano | \
		sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p') && \
	test -d "$$dir/config/crd/volcano/bases" && \
	rm -rf $(dir $@) && mkdir -p $(dir $@) && \
	cp "$$dir"/config/crd/volcano/bases/*.yaml $(dir $@) && \
	chmod u+w $(dir $@)*.yaml && basename "$$dir" >$@

$(peers-crds): $(oracle-src)/go.mod $(oracle-src)/go.sum
	@$(call echo-cmd,volcano_crds) $(cmd_volcano_crds)

# The CRDs of volcano.sh/apis that v1.10.0's lack: the HyperNode CRD, which
# v1.10.0 has not, and the PodGroup CRD in place of v1.10.0's, which has no
# networkTopology (the API server would prune it). Written from the types by
# controller-gen, both pinned in selftests/peers/crdgen/ (its go.mod says
# why), into the same directory after the copy above (which empties it, and
# with it this stamp, the pin of volcano.sh/apis they come from). The Queue
# CRD stays v1.10.0's: what the tests ask of Queues is in it.
peers-crdgen-src := $(peers-src)/crdgen
peers-apis-crds := $(peers-dir)/crd/.apis
peers-apis-pkgs := scheduling/v1beta1 topology/v1alpha1
peers-apis-files := scheduling.volcano.sh_podgroups.yaml topology.volcano.sh_hypernodes.yaml

quiet_cmd_apis_crds = GEN     $(rel-target)
      cmd_apis_crds = rm -rf $@.d && mkdir -p $@.d && cd $(peers-crdgen-src) && \
	$(srctree)/scripts/go-env.sh $(GO_DIR) go tool controller-gen crd \
		$(addprefix paths=volcano.sh/apis/pkg/apis/,$(peers-apis-pkgs)) output:crd:dir=$@.d && \
	for f in $(peers-apis-files); do mv $@.d/$$f $(dir $@) || exit 1; done && rm -rf $@.d && \
	sed -n 's/^require \(volcano.sh\/apis v[0-9.]*\)$$/\1/p' go.mod >$@ && test -s $@

$(peers-apis-crds): $(peers-crds) $(peers-crdgen-src)/go.mod $(peers-crdgen-src)/go.sum
	@$(call echo-cmd,apis_crds) $(cmd_apis_crds)

PHONY += peers
peers: $(peers-apiserver) $(peers-kubectl) $(peers-etcd) $(peers-crds) $(peers-apis-crds)

# The schedulers make bench-peers runs beside vsched on the real API server
# (Documentation/benchmarks.md, "The peers side by side"), and its load
# generator; built only for it, never by make check. kube-scheduler from the
# same Kubernetes pin (a tool of selftests/peers/go.mod); Volcano's
# vc-scheduler from the Volcano release the oracle pins, in a module of its
# own (selftests/peers/volcano/go.mod says why).
peers-volcano-src := $(peers-src)/volcano
peers-scheduler := $(peers-dir)/kube-scheduler
peers-vc-scheduler := $(peers-dir)/vc-scheduler
peers-load := $(peers-dir)/peers-load
peers-volcano-version = $(shell sed -n 's/^\tvolcano.sh\/volcano \(v[0-9.]*\).*/\1/p' \
	$(peers-volcano-src)/go.mod)

$(peers-scheduler): peer-pkg := k8s.io/kubernetes/cmd/kube-scheduler
$(peers-scheduler): $(peers-src)/go.mod $(peers-src)/go.sum
	$(Q)mkdir -p $(dir $@)
	@$(call echo-cmd,go_peer) $(cmd_go_peer)

$(peers-load): peer-pkg := ./cmd/peers-load
$(peers-load): $(peers-src)/go.mod $(peers-src)/go.sum $(wildcard $(peers-src)/cmd/peers-load/*.go)
	$(Q)mkdir -p $(dir $@)
	@$(call echo-cmd,go_peer) $(cmd_go_peer)

quiet_cmd_go_vc_scheduler = GO      $(rel-target)
      cmd_go_vc_scheduler = cd $(peers-volcano-src) && $(srctree)/scripts/go-env.sh $(GO_DIR) \
		go build -p $(GO_JOBS) \
		-ldflags='-s -w -X volcano.sh/volcano/pkg/version.Version=$(peers-volcano-version)' \
		-o $@ volcano.sh/volcano/cmd/scheduler

$(peers-vc-scheduler): $(peers-volcano-src)/go.mod $(peers-volcano-src)/go.sum
	$(Q)mkdir -p $(dir $@)
	@$(call echo-cmd,go_vc_scheduler) $(cmd_go_vc_scheduler)

PHONY += bench-peers-progs
bench-peers-progs: peers $(peers-scheduler) $(peers-vc-scheduler) $(peers-load)

# kube-scheduler, Volcano's scheduler and vsched side by side on the real API
# server (Documentation/benchmarks.md, "The peers side by side"): for each
# NODES:PODS of BENCH_PEERS_SIZES, each of BENCH_PEERS_SCHEDULERS on a fresh
# server; the table on stdout, the data and the plots in BENCH_PEERS_DIR.
BENCH_PEERS_SIZES ?= 1000:10000
BENCH_PEERS_SCHEDULERS ?= kube-scheduler volcano vsched
BENCH_PEERS_DIR ?= $(objtree)/bench-peers

PHONY += bench-peers
bench-peers: $(objtree)/vschedd $(objtree)/vskube bench-peers-progs
	$(Q)PEERS=$(peers-dir) OBJTREE=$(objtree) OUT=$(BENCH_PEERS_DIR) \
		SIZES="$(BENCH_PEERS_SIZES)" $(srctree)/scripts/bench-peers.sh $(BENCH_PEERS_SCHEDULERS)

# ---------------------------------------------------------------------------
# Installation: the programs, their manual pages and the bash completion.
# DESTDIR for staging, PREFIX (default /usr/local) for the layout.

PREFIX ?= /usr/local
bindir := $(DESTDIR)$(PREFIX)/bin
sbindir := $(DESTDIR)$(PREFIX)/sbin
man8dir := $(DESTDIR)$(PREFIX)/share/man/man8
completiondir := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
man-pages := $(wildcard $(srctree)/Documentation/*.8)
completions := $(wildcard $(srctree)/scripts/bash-completion/*)

PHONY += install
install: $(addprefix $(objtree)/,$(progs))
	$(Q)install -d $(bindir) $(sbindir) $(man8dir)
	$(Q)install -m 0755 $(objtree)/vschedd $(objtree)/vskube $(sbindir)/
	$(Q)install -m 0755 $(objtree)/vsctl $(objtree)/vsbench $(bindir)/
	$(Q)$(if $(man-pages),install -m 0644 $(man-pages) $(man8dir)/)
	$(Q)$(if $(completions),install -d $(completiondir) && \
		install -m 0644 $(completions) $(completiondir)/)

# ---------------------------------------------------------------------------
# Housekeeping.

PHONY += clean
clean:
	$(Q)rm -f $(objtree)/libvscore.a $(objtree)/libvsharness.a $(addprefix $(objtree)/,$(progs)) $(test-bin) \
		$(test-prog-bins) $(foreach b,$(test-prog-bins),$(dir $(b)).$(notdir $(b)).cmd) \
		$(objtree)/compile_commands.json $(objtree)/.compile_commands.json.cmd \
		$(objtree)/.libvscore.a.cmd $(objtree)/.libvsharness.a.cmd $(foreach p,$(progs),$(objtree)/.$(p).cmd) \
		$(objtree)/selftests/.vs-selftests.cmd $(fuzz-progs-lib) $(fuzz-replay-bins) \
		$(fuzz-bins) $(fuzz-seeds-bin) $(objtree)/selftests/fuzz/.*.cmd $(oracle-bin)
	$(Q)rm -rf $(peers-apiserver) $(peers-kubectl) $(peers-etcd) $(dir $(peers-crds)) \
		$(peers-scheduler) $(peers-vc-scheduler) $(peers-load)
	$(Q)for o in $(all-objs); do \
		rm -f $(objtree)/$$o $(objtree)/$$(dirname $$o)/.$$(basename $$o).cmd \
			$(objtree)/$$(dirname $$o)/.$$(basename $$o).d; \
	done

PHONY += help
help:
	@echo 'vsched $(VERSION): build targets'
	@echo ''
	@echo '  all (default)          - libvscore.a, the programs ($(progs)), the unit tests'
	@echo '                           and compile_commands.json'
	@echo '  check                  - build and run every test (needs Go: builds the oracle and'
	@echo '                           the peers first, the bridge is tested against kube-apiserver)'
	@echo '  memcheck               - every unit test, the fuzz corpus, the smoke tests'
	@echo '                           and a short soak under valgrind (CI runs it; ~23'
	@echo '                           minutes)'
	@echo '  soak                   - vssoak for SOAK_TIME seconds (600) with SOAK_WORKERS'
	@echo '                           clients (16): churn, subscribers, a restart half way'
	@echo '  demo                   - vschedd standalone, a synthetic cluster loaded, scheduled and shown'
	@echo '                           (DEMO_ARGS="..." passes vsbench load options)'
	@echo '  fuzz                   - every fuzz target under libFuzzer (clang) for FUZZ_TIME'
	@echo '                           seconds (60) each; FUZZ_TARGETS picks them (all)'
	@echo '  protocol               - the uapi header, the policies, protocol.md'"'"'s tables and the codec from'
	@echo '                           Documentation/netlink/vsched.yaml (make does it when it changes)'
	@echo '  fuzz-seeds             - write the netlink fuzz target'"'"'s seeds again from the test manifests'
	@echo '  bench                  - the fast path against the exhaustive scan: BENCH_SEEDS'
	@echo '                           random clusters, then BENCH_PRESETS ("1k 10k") both ways'
	@echo '  bench-plot             - vsbench sweep of BENCH_PLOT_PRESETS ("tiny,1k,10k"): table,'
	@echo '                           data and SVG plots against cluster size in BENCH_PLOT_DIR'
	@echo '                           ($$(O)/bench)'
	@echo '  bench-inproc           - Volcano'"'"'s session (the oracle) beside vsched'"'"'s fast path and'
	@echo '                           exhaustive scan on BENCH_INPROC_PRESETS ("tiny"), one table'
	@echo '  bench-kube             - vskube at scale: BENCH_KUBE ("50000 1000000 10000": nodes,'
	@echo '                           running and pending pods) through the test API server'
	@echo '  bench-peers            - kube-scheduler, Volcano'"'"'s vc-scheduler and vsched, each on a'
	@echo '                           fresh real kube-apiserver, on BENCH_PEERS_SIZES ("1000:10000":'
	@echo '                           NODES:PODS pairs): throughput, p50/p99 latency, CPU and peak'
	@echo '                           RSS; table, data and plots in BENCH_PEERS_DIR ($$(O)/bench-peers)'
	@echo '  bench-peers-progs      - what bench-peers runs: the peers, kube-scheduler, vc-scheduler'
	@echo '                           and peers-load, into $$(GO_DIR)/peers (not built by check)'
	@echo '  oracle                 - the conformance oracle: Volcano'"'"'s scheduler, pinned in'
	@echo '                           selftests/oracle/volcano/go.mod (needs Go, fetches modules)'
	@echo '  conformance            - every scenario through vsched and the oracle, compared'
	@echo '  conformance-fuzz       - random scenarios through both for FUZZ_TIME seconds (60)'
	@echo '                           from FUZZ_SEED (the time); differences shrunk into'
	@echo '                           FUZZ_SAVE ($$(O)/conformance-fuzz)'
	@echo '  conformance-check      - the fixed seeds 1..CONFORMANCE_SEEDS (300) through both,'
	@echo '                           all must agree (part of check)'
	@echo '  peers                  - kube-apiserver, kubectl and etcd pinned in'
	@echo '                           selftests/peers/go.mod, and Volcano'"'"'s CRDs, for'
	@echo '                           selftests/real-apiserver.sh and vskube-e2e.sh (needs Go,'
	@echo '                           fetches modules; GO_JOBS=2 parallel compiles; ~15 min cold)'
	@echo '  NAME                   - build one output: libvscore.a, libvsnl.a,'
	@echo '                           libvsharness.a or $(progs)'
	@echo '  compile_commands.json  - the compilation database for editors and clang tools'
	@echo '  install                - the programs, manual pages and bash completion'
	@echo '                           into $$(DESTDIR)$$(PREFIX) (PREFIX=/usr/local)'
	@echo '  deps                   - install the Debian packages the build needs'
	@echo '  clean                  - remove everything the build made'
	@echo ''
	@echo 'Variables (on the command line):'
	@echo '  V=1          show full command lines'
	@echo '  O=dir        build out of tree, into dir'
	@echo '  SANITIZE=1   build with AddressSanitizer and UndefinedBehaviorSanitizer (and DEBUG=1)'
	@echo '  FUZZ=1       build with clang for libFuzzer (what make fuzz does in fuzz-build/)'
	@echo '  DEBUG=1      vschedd checks the core after every operation (--self-check)'
	@echo '  KCFLAGS=...  extra compiler flags'
	@echo '  CHECK_ARGS=  extra arguments to the test binary (Criterion options,'
	@echo '               e.g. CHECK_ARGS="--filter=rbtree/*")'

# ---------------------------------------------------------------------------
# The saved command lines and header dependencies of everything built so far.

saved-cmds := $(wildcard $(foreach t,$(all-objs) libvscore.a libvsharness.a $(progs) \
	$(foreach p,$(test-progs),$($(p)-path)) \
	$(patsubst $(objtree)/%,%,$(fuzz-progs-lib) $(fuzz-replay-bins) $(fuzz-bins) \
		$(fuzz-seeds-bin)) \
	selftests/vs-selftests compile_commands.json,$(objtree)/$(dir $(t)).$(notdir $(t)).cmd))
-include $(saved-cmds)

PHONY += FORCE
FORCE:

.PHONY: $(PHONY)
