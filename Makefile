# SPDX-License-Identifier: GPL-2.0
CLANG ?= clang
BPFTOOL ?= bpftool
CC ?= cc
prefix ?= /usr/local
sbindir ?= $(prefix)/sbin
datadir ?= $(prefix)/share
mandir ?= $(datadir)/man
DESTDIR ?=

HOST_ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
ARCH ?= $(HOST_ARCH)
ifeq ($(filter x86 arm64,$(ARCH)),)
$(error unknown ARCH=$(ARCH) (use x86 or arm64))
endif
# A cross build (ARCH=arm64 on x86: `make static ARCH=arm64`) uses Debian's
# cross compiler and arm64 libraries (scripts/arm64-cross-deps.sh installs
# them) and keeps its objects apart from the host's.
ifneq ($(ARCH),$(HOST_ARCH))
CROSS_COMPILE ?= $(if $(filter arm64,$(ARCH)),aarch64-linux-gnu-,x86_64-linux-gnu-)
CC := $(CROSS_COMPILE)gcc
OUTPUT ?= .output/$(ARCH)
CROSS_DEPS := $(if $(filter arm64,$(ARCH)),cross-deps)
endif
OUTPUT ?= .output
VMLINUX_DIR := vmlinux/$(ARCH)
ifeq ($(wildcard $(VMLINUX_DIR)/vmlinux.h)$(filter vmlinux vmlinux-arm64,$(MAKECMDGOALS)),)
$(error no $(VMLINUX_DIR)/vmlinux.h for ARCH=$(ARCH): generate it with 'make vmlinux' on such a machine$(if $(filter arm64,$(ARCH)), or 'make vmlinux-arm64'))
endif

VERSION := $(shell cat VERSION)
CFLAGS ?= -g -O2
WARN := -Wall -Wextra -Werror
INCLUDES := -I$(OUTPUT) -Iinclude -Iuser
USER_CFLAGS = $(CPPFLAGS) $(CFLAGS) $(WARN) $(INCLUDES) -DAUDITSKIP_VERSION='"$(VERSION)"'
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) $(WARN) -Wno-unused-parameter \
	-Iinclude -I$(VMLINUX_DIR)

LIBS := -lbpf -lelf -lz -laudit -ljson-c -lcap-ng -lmicrohttpd -lgnutls -lyaml -lcrypt -lm
# Static binaries go into the guests' initramfs, which has no shared libraries.
# Debian ships no static GnuTLS dependencies for libmicrohttpd.a, so static
# builds have no HTTP server (--metrics says so), and so no web configuration
# (YAML), TLS key check (GnuTLS) or basic authentication (libcrypt) either.
HTTP_LIBS := -lmicrohttpd -lgnutls -lyaml -lcrypt
STATIC_LIBS := -static $(filter-out $(HTTP_LIBS),$(LIBS))

# The loader's sources, one folder per concern (README.md, Layout); every
# object but the command table's main goes into one archive that the binary,
# the unit tests and the fuzzers link, so a test pulls in only what it uses.
USER_SRCS := $(sort $(shell find user -name '*.c'))
MAIN_SRC := user/cli/main.c
LIB_SRCS := $(filter-out $(MAIN_SRC),$(USER_SRCS))
OBJ := $(OUTPUT)/obj
LIB_OBJS := $(patsubst user/%.c,$(OBJ)/%.o,$(LIB_SRCS))
LIB := $(OUTPUT)/libauditskip.a
SKELS := $(OUTPUT)/auditskip.skel.h $(OUTPUT)/calltime.skel.h $(OUTPUT)/hotspots.skel.h
# The HTTP server's sources; a static build compiles NO_HTTP_SRCS with
# AUDITSKIP_NO_HTTP and leaves the rest out.
HTTP_SRCS := $(wildcard user/http/*.c)
NO_HTTP_SRCS := user/http/metrics_server.c
STATIC_OBJ := $(OUTPUT)/static/obj
STATIC_LIB_OBJS := $(patsubst user/%.c,$(OBJ)/%.o,$(filter-out $(HTTP_SRCS) $(NO_HTTP_SRCS),$(LIB_SRCS))) \
	$(patsubst user/%.c,$(STATIC_OBJ)/%.o,$(NO_HTTP_SRCS))
STATIC_LIB := $(OUTPUT)/static/libauditskip.a
# The workload corpus is x86's (a native and an i386 build).
TOOLS := $(OUTPUT)/auditskip $(OUTPUT)/getpid_loop $(OUTPUT)/uring_openat $(OUTPUT)/audit_bench \
	$(OUTPUT)/empty_probes $(OUTPUT)/audit_exit_ns $(OUTPUT)/time_runs $(OUTPUT)/hostile_clients \
	$(OUTPUT)/bcrypt_hash \
	$(if $(filter x86,$(ARCH)),$(OUTPUT)/corpus $(OUTPUT)/corpus32 $(OUTPUT)/audit_records \
		$(OUTPUT)/witness $(OUTPUT)/witness32)
# Unit tests: tests/unit/test_NAME.c, linked with the archive and TEST_LIBS
# (no libbpf: what they test is computation, not the kernel).
UNIT_TESTS := $(patsubst tests/unit/%.c,$(OUTPUT)/%,$(wildcard tests/unit/test_*.c))
TEST_LIBS := -lcmocka -laudit -ljson-c -lcap-ng -lyaml -lcrypt -lm

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

.DELETE_ON_ERROR:
# Keep the BPF object next to its skeleton for inspection with bpftool.
.SECONDARY:
.PHONY: all static clean install scale-bench vmlinux vmlinux-arm64 test unit-test host-test vmtest vmtest-all \
	vmtest-table vmtest-arm64 cross-deps format format-check run reproduce overhead overhead-guest \
	soak soak-reload evidence evidence-chart bench-endpoint rules-test resync-bench duty-bench price-bench breakdown-guest fuzz fuzzers fuzz-regress kernels kernel-ab today kernel-tables man deb \
	check-layers mutants

all: $(TOOLS)

$(OUTPUT): $(CROSS_DEPS)
	$(Q)mkdir -p $@

cross-deps:
	$(Q)scripts/arm64-cross-deps.sh

# Dependencies on headers come from the compilers (-MMD -MP, the .d files
# included at the end), so a changed shared header rebuilds its users.
DEPFLAGS = -MMD -MP -MF $(@:.o=.d)

$(OUTPUT)/%.bpf.o: bpf/%.bpf.c $(VMLINUX_DIR)/vmlinux.h | $(OUTPUT)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(OUTPUT)/%.skel.h: $(OUTPUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

# Every user object waits for the skeletons: the first build has no .d file
# to say which ones include them.
$(OBJ)/%.o: user/%.c | $(SKELS)
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(STATIC_OBJ)/%.o: user/%.c | $(SKELS)
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) -DAUDITSKIP_NO_HTTP $(DEPFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(STATIC_LIB): $(STATIC_LIB_OBJS)
	$(Q)mkdir -p $(@D)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(OUTPUT)/auditskip: $(OBJ)/cli/main.o $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LIBS) -o $@

$(OUTPUT)/test_%: $(OBJ)/tests/test_%.o $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $^ $(TEST_LIBS) $(TEST_LIBS_$*) -o $@

$(OBJ)/tests/%.o: tests/unit/%.c | $(SKELS)
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) $(DEPFLAGS) -c $< -o $@

# rules and whatif need no kernel: the two alone, linked without libbpf
# (a link error if their code reached for it); tests/host/offline.sh runs it.
$(OUTPUT)/auditskip-offline: tests/tools/auditskip_offline.c $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(USER_CFLAGS) $^ $(filter-out -lcmocka,$(TEST_LIBS)) -lz -o $@

# model/ and audit/ are computation: they include nothing from live/,
# output/, http/, cli/ or libbpf, so offline commands and unit tests need
# no kernel; output/ renders the model and includes nothing from live/.
check-layers:
	$(Q)scripts/check-layers.sh

# The metrics page of three made-up hosts, rendered offline (tests/host/fleet.sh).
$(OUTPUT)/metrics_fixture: tests/tools/metrics_fixture.c $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(USER_CFLAGS) $^ $(filter-out -lcmocka,$(TEST_LIBS)) -lz -o $@

# The attach modes' facts for the guest suites, generated from modes[] by
# a program of the build machine's (an arm64 build runs it here too).
$(OUTPUT)/mode_facts: tests/tools/mode_facts.c user/live/modes.c user/live/modes.h | $(OUTPUT)
	$(call msg,HOSTCC,$@)
	$(Q)cc -O2 -Wall -Iinclude -Iuser $(filter %.c,$^) -o $@

$(OUTPUT)/static/mode-facts.sh: $(OUTPUT)/mode_facts
	$(Q)mkdir -p $(@D)
	$(call msg,GEN,$@)
	$(Q)$< >$@.tmp && mv $@.tmp $@

# Test tools: one source each in tests/tools/, TOOL_LIBS_<name> what it links.
TOOL_LIBS_uring_openat := -luring
TOOL_LIBS_bcrypt_hash := -lcrypt
TOOL_LIBS_witness := -laudit
$(OUTPUT)/%: tests/tools/%.c | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) $< $(TOOL_LIBS_$*) -o $@

$(OUTPUT)/static/%: tests/tools/%.c | $(OUTPUT)
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) $< -static $(TOOL_LIBS_$*) -o $@

# The i386 corpus: the x86 uapi headers come from the native directory, which
# is all Debian's gcc-multilib adds (an /usr/include/asm link) and which
# conflicts with Debian's cross compilers; gcc-12-multilib and libc6-dev-i386
# do not.
M32 := -m32 -isystem /usr/include/x86_64-linux-gnu
# CFLAGS_<name>32: what else the i386 build of tests/tools/<name>.c takes.
CFLAGS_witness32 := -DWITNESS32
$(OUTPUT)/%32: tests/tools/%.c | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(M32) $(CFLAGS_$*32) $(USER_CFLAGS) $< -o $@

$(OUTPUT)/static/%32: tests/tools/%.c | $(OUTPUT)
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(M32) $(CFLAGS_$*32) $(USER_CFLAGS) $< -static -o $@

# Benchmark tools: one source each in bench/, BENCH_DEPS_<name> what else
# it is built from (objects are linked, skeletons included), BENCH_LIBS_<name>
# what it links.
BENCH_DEPS_audit_bench := $(OBJ)/live/getpid_timing.o
BENCH_DEPS_empty_probes := $(OUTPUT)/empty_probes.skel.h
BENCH_DEPS_audit_exit_ns := $(OUTPUT)/audit_exit_ns.skel.h
BENCH_LIBS_empty_probes := -lbpf -lelf -lz
BENCH_LIBS_audit_exit_ns := -lbpf -lelf -lz
.SECONDEXPANSION:
$(OUTPUT)/%: bench/%.c $$(BENCH_DEPS_$$*) | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) $< $(filter %.o,$^) $(BENCH_LIBS_$*) -o $@

$(OUTPUT)/static/%: bench/%.c $$(BENCH_DEPS_$$*) | $(OUTPUT)
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) $< $(filter %.o,$^) -static $(BENCH_LIBS_$*) -o $@

# An arm64 kernel runs 32-bit ARM programs too (CONFIG_COMPAT): the guests'
# compat tests count the syscalls of a 32-bit getpid_loop.
# The corpus is x86's: an i386 build beside the native one.
ifeq ($(ARCH),arm64)
ARM32_CC ?= arm-linux-gnueabihf-gcc
STATIC_EXTRA := $(OUTPUT)/static/getpid_loop_arm32
else
STATIC_EXTRA := $(OUTPUT)/static/corpus $(OUTPUT)/static/corpus32 $(OUTPUT)/static/audit_records \
	$(OUTPUT)/static/witness $(OUTPUT)/static/witness32
endif

# Statically linked copies for the QEMU guests.
static: $(OUTPUT)/static/auditskip $(OUTPUT)/static/mode-facts.sh \
	$(OUTPUT)/static/getpid_loop $(OUTPUT)/static/uring_openat \
	$(OUTPUT)/static/audit_bench $(OUTPUT)/static/time_runs $(OUTPUT)/static/empty_probes \
	$(OUTPUT)/static/audit_exit_ns $(STATIC_EXTRA)

$(OUTPUT)/static/auditskip: $(OBJ)/cli/main.o $(STATIC_LIB)
	$(Q)mkdir -p $(@D)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $^ $(STATIC_LIBS) -o $@

$(OUTPUT)/static/getpid_loop_arm32: tests/tools/getpid_loop.c | $(OUTPUT)
	$(Q)mkdir -p $(@D)
	$(Q)$(ARM32_CC) $(USER_CFLAGS) $< -static -o $@

# The committed header was generated this way; see vmlinux/README.md.
vmlinux:
	mkdir -p $(VMLINUX_DIR)
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $(VMLINUX_DIR)/vmlinux_$(shell uname -r | cut -d. -f1-2).h
	ln -sf vmlinux_$(shell uname -r | cut -d. -f1-2).h $(VMLINUX_DIR)/vmlinux.h

# arm64's header from the BTF of Debian 12's newest 6.12 cloud arm64 kernel,
# read out of its image on any machine (see vmlinux/README.md).
vmlinux-arm64:
	$(Q)vmlinux/gen-arm64.sh

# Fuzzing (libFuzzer; clang with -fsanitize=fuzzer,address,undefined): one
# harness per parser of outside input, fuzz/fuzz_NAME.c, its seed corpus in
# fuzz/corpus/NAME/ and the inputs that once failed in fuzz/regress/NAME/.
# The harnesses link the loader's objects, built again with the sanitizers,
# from one archive: a new harness needs no change here.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 30
FUZZ_OUT := $(OUTPUT)/fuzz
# As the unit tests: no libbpf, what they parse is computation.
FUZZ_LIBS := -laudit -ljson-c -lcap-ng -lyaml -lcrypt -lm
FUZZ_CFLAGS = -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all $(WARN) $(INCLUDES) \
	-DAUDITSKIP_VERSION='"$(VERSION)"'
FUZZ_NAMES := $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZERS := $(addprefix $(FUZZ_OUT)/fuzz_,$(FUZZ_NAMES))
FUZZ_LIB_OBJS := $(patsubst user/%.c,$(FUZZ_OUT)/obj/%.o,$(LIB_SRCS))

$(FUZZ_OUT)/obj/%.o: user/%.c | $(SKELS)
	$(Q)mkdir -p $(@D)
	$(call msg,FUZZ-CC,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(DEPFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_OUT)/libloader.a: $(FUZZ_LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(FUZZ_OUT)/fuzz_%: fuzz/fuzz_%.c $(FUZZ_OUT)/libloader.a
	$(call msg,FUZZ-LD,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_OUT)/libloader.a $(FUZZ_LIBS) -o $@

fuzzers: $(FUZZERS)

# Each harness for FUZZ_SECONDS (default 30) from its corpus; what it finds
# is left in $(FUZZ_OUT)/findings/NAME/.
fuzz: $(FUZZERS)
	$(Q)FUZZ_OUT=$(FUZZ_OUT) fuzz/run.sh fuzz $(FUZZ_SECONDS)

# Every seed and regression input once through its harness (make test runs it).
fuzz-regress: $(FUZZERS)
	$(Q)FUZZ_OUT=$(FUZZ_OUT) fuzz/run.sh regress

# The main job: this machine's rules and what the fast path would skip.
run: all
	$(Q)scripts/run-main.sh

unit-test: $(UNIT_TESTS)
	$(Q)for t in $^; do $$t || exit 1; done

host-test: all
	$(Q)tests/host/run.sh

# Guest kernels (tests/vm/README.md): 5.10, 6.1, 6.12, 6.12-trixie (or
# deb13-6.12), 7.2. KERNEL=NAME picks one (or several, space-separated);
# the default is the kernels `make test` runs.
vmtest: static
	$(Q)tests/vm/run.sh $(KERNEL)

# Every kernel of the matrix; prints the attach-mode table before the summary.
vmtest-all: static
	$(Q)tests/vm/run.sh all

# The attach-mode table (doc/modes.md) from the last guest run.
vmtest-table:
	$(Q)tests/vm/matrix-table.sh

# The guest suites on Debian 12's 6.12 arm64 cloud kernel (QEMU TCG).
vmtest-arm64:
	$(Q)$(MAKE) --no-print-directory static ARCH=arm64 OUTPUT=.output/arm64
	$(Q)VMTEST_STATIC=$(CURDIR)/.output/arm64/static tests/vm/run-arm64.sh

# Everything .ci/run runs: unit tests, host tests, guest tests.
test: all static man $(UNIT_TESTS) $(FUZZERS) $(OUTPUT)/auditskip-offline $(OUTPUT)/metrics_fixture
	$(Q)tests/run-all.sh

# Every named mutant (tests/mutants/*.patch) in a clean clone against the
# suite that must catch it; the report is kept in tests/mutants/results.txt.
# make test runs the quick ones (tests/mutants/run.sh --quick).
mutants: all static
	$(Q)tests/mutants/run.sh -o tests/mutants/results.txt

# The Prometheus rules and their unit tests, the dashboard against a rendered
# page and the dashboard model's schema, and a fleet of three made-up hosts
# scraped by a real Prometheus: no root, no audit (make test runs both).
rules-test: $(OUTPUT)/metrics_fixture
	$(Q)OUT=$(OUTPUT) tests/host/prometheus-rules.sh
	$(Q)OUT=$(OUTPUT) tests/host/fleet.sh

# The patch series' tables, measured here, with auditskip's prediction.
reproduce: all static
	$(Q)bench/reproduce.sh -o bench/results/reproduce-$$(date +%F).md

# The trampoline modes' cost in QEMU guests, against their own empty programs.
overhead-guest: static
	$(Q)bench/overhead-guest.sh -o bench/results/overhead-guest-$$(date +%F).md

# What the skip would do for Debian's shipped rule sets on five real workloads (offline).
evidence: all
	$(Q)bench/evidence.sh -o bench/results/evidence-$$(date +%F).md

# evidence's chart drawn again from a result's markdown, nothing rerun (RESULT=bench/results/evidence-DATE.md).
evidence-chart:
	$(Q)test -n "$(RESULT)" || { echo "usage: make evidence-chart RESULT=bench/results/evidence-DATE.md" >&2; exit 1; }
	$(Q)bench/evidence-chart.sh $(RESULT)

# What auditskip itself adds per syscall, against bpftrace, in one run.
overhead: all
	$(Q)bench/overhead.sh -o bench/results/overhead-$$(date +%F).md

# --duty 1s/30s (DUTY=...) against a full count: added time, estimate.
duty-bench: all
	$(Q)bench/dutycycle.sh -o bench/results/dutycycle-$$(date +%F).md

# Where audit's time per syscall goes under Debian's larger rule sets, in a 6.12 guest.
breakdown-guest: static
	$(Q)bench/breakdown-guest.sh -o bench/results/breakdown-guest-$$(date +%F).md

# How steady the price of counting measured at a run's start is, against a full count's.
price-bench: all
	$(Q)bench/counting-price.sh -o bench/results/counting-price-$$(date +%F).md

# The metrics endpoint's scrape latency under hostile clients against quiet, loopback only.
bench-endpoint: all
	$(Q)bench/endpoint.sh -o bench/results/endpoint-$$(date +%F).md

# The loader's CPU at 10,000 exit rules in steady state, against none.
resync-bench: all
	$(Q)bench/resync.sh -o bench/results/resync-$$(date +%F).md

# Start-up, peak memory and reload catch-up at 0 to 10,000 exit rules.
scale-bench: all
	$(Q)bench/scale.sh -o bench/results/scale-$$(date +%F).md

# Ten minutes under load with rules changing: memory flat, counts exact.
soak: all
	$(Q)bench/soak.sh -o bench/results/soak-$$(date +%F).md

# An hour with a reload of Debian's 30-stig every 30 s, as augenrules does it.
soak-reload: all
	$(Q)SOAK_SECONDS=3600 CHANGE_EVERY=30 SOAK_RELOAD=/usr/share/doc/auditd/examples/rules/30-stig.rules \
		bench/soak.sh -o bench/results/soak-reload-$$(date +%F).md

# Unpatched and patched kernels from Debian's linux-source-$(KVER) and
# patches/$(KVER)/: KVER=6.12 (Debian 12) or KVER=7.2 (sid).
KVER ?= 6.12
kernels:
	$(Q)tests/kernel-ab/build-kernels.sh $(KVER)

# auditskip's predictions on the unpatched kernel against the patched one,
# and the time model against the time the patched kernel saves.
kernel-ab: kernels static
	$(Q)tests/kernel-ab/run.sh $(KVER)

# What a stock kernel saves today: 30-stig behind advise --never-prefix timed
# on the unpatched kernel (7.2, or KVER=6.12) against the patched one under
# advise's rewrite, and the 2023 design's port against its prediction (7.2
# only) (the A/B harness's time tests, -icount), the table kept in
# bench/results.
today: KVER := 7.2
today: kernels static
	$(Q)KERNEL_AB_TESTS=time KERNEL_AB_TIMEOUT=$${KERNEL_AB_TIMEOUT:-3600} \
		tests/kernel-ab/run.sh $(KVER); status=$$?; \
		{ sed 's/^VMTEST INFO //' .output/kernel-ab/$(KVER)/run/provenance.txt; echo; \
		  cat .output/kernel-ab/$(KVER)/run/timemodel.txt; echo; \
		  cat .output/kernel-ab/$(KVER)/run/outcome.txt; } >bench/results/today-$(KVER)-$$(date +%F).txt; \
		exit $$status

# Syscall numbers and perm= classes per kernel version, from kernel trees
# (KSRCS, oldest first: unpacked linux-source-5.10, -6.1, -6.12, -7.2, or
# only the files scripts/gen-kernel-tables.sh names).
kernel-tables:
	scripts/gen-kernel-tables.sh $(KSRCS) > user/audit/kernel_tables_data.h

# auditskip(8) from each command's own --help, so it always lists the options.
man: $(OUTPUT)/auditskip.8

$(OUTPUT)/auditskip.8: $(OUTPUT)/auditskip doc/auditskip.8.in scripts/gen-man.sh VERSION
	$(call msg,MAN,$@)
	$(Q)scripts/gen-man.sh $(OUTPUT)/auditskip "$(VERSION)" doc/auditskip.8.in >$@.tmp && mv $@.tmp $@

install: $(OUTPUT)/auditskip $(OUTPUT)/auditskip.8
	install -D -m 0755 $(OUTPUT)/auditskip $(DESTDIR)$(sbindir)/auditskip
	install -D -m 0644 $(OUTPUT)/auditskip.8 $(DESTDIR)$(mandir)/man8/auditskip.8
	install -D -m 0644 dashboards/auditskip.json $(DESTDIR)$(datadir)/auditskip/auditskip.json
	install -D -m 0644 dashboards/auditskip.rules.yml \
		$(DESTDIR)$(datadir)/auditskip/auditskip.rules.yml

# The Debian package (debian/), built in debian/build; the .deb, with its
# .buildinfo and .changes, ends up in $(OUTPUT)/deb/, checked by lintian.
DEB_VERSION = $(shell dpkg-parsechangelog -S Version)
DEB_FILES = auditskip_$(VERSION)_amd64.deb auditskip-dbgsym_$(VERSION)_amd64.deb \
	auditskip_$(VERSION)_amd64.buildinfo auditskip_$(VERSION)_amd64.changes
deb:
	$(if $(filter $(VERSION),$(DEB_VERSION)),,$(error debian/changelog is at $(DEB_VERSION) \
		but VERSION is $(VERSION): add an entry with 'dch -v $(VERSION)'))
	dpkg-buildpackage -us -uc -b -tc
	mkdir -p $(OUTPUT)/deb
	cd .. && mv -f $(DEB_FILES) $(CURDIR)/$(OUTPUT)/deb/
	lintian --fail-on error $(OUTPUT)/deb/auditskip_$(VERSION)_amd64.changes
	@echo "built $(OUTPUT)/deb/auditskip_$(VERSION)_amd64.deb"

# Every C file of the project but the generated ones, in .clang-format's style.
FORMAT_FILES = $(filter-out user/audit/kernel_tables_data.h,$(wildcard bpf/*.c bpf/*.h user/*/*.c user/*/*.h include/*.h tests/*/*.c tests/*/*.h bench/*.c fuzz/*.c))
format:
	clang-format -i $(FORMAT_FILES)

# Lists the files clang-format would change; fails if there is one (make test runs it).
format-check:
	@for f in $(FORMAT_FILES); do \
		if clang-format --dry-run -Werror $$f >/dev/null 2>&1; then echo "PASS format: $$f"; \
		else echo "FAIL format: $$f: run 'make format'"; fi; \
	done

clean:
	rm -rf $(OUTPUT)

# Only the compilers' files: a guest's initramfs tree under $(OUTPUT) has
# directories named *.d (etc/sudoers.d).
-include $(wildcard $(OUTPUT)/*.d) $(shell find $(OBJ) $(STATIC_OBJ) $(FUZZ_OUT)/obj -name '*.d' -type f 2>/dev/null)
