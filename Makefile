# SPDX-License-Identifier: GPL-2.0
#
# txnet top-level Makefile: module (out of tree, one build dir per kernel),
# txctl, selftests, and the QEMU test loop.  See README.md.
#
#   make                  module for the running kernel (if its headers are
#                         installed, else for Debian's 6.1) + txctl + selftests
#   make install          module for the running kernel + txctl (as root)
#   make run              boot 6.1 in QEMU, load txnet, run a small demo
#   make check            everything, tests in the VM; KVER="6.1 6.12 debug" for
#                         all three (CI); debug: a KASAN/lockdep/kmemleak kernel
#                         built once from Debian's linux-source (6-26 minutes)
#   make bench            every schedule in user space, beside the plain C loop
#   make table            every operation on every topology family: steps / lower bound
#   make optimum          small networks' true optimum (CBC) beside the bound and txnet's
#   make pictures         the README's pictures of runs, drawn by txctl in the VM
#   make fuzz             libFuzzer over the core, txctl's graph files, its schedule files (SECONDS=60 each)
#   make nlfuzz           the netlink fuzzer in the VM (COUNT=1000000, SEED=, KVER)
#   make C=1 / W=1 / V=1  passed through to kbuild (sparse, extra warnings, verbose)
#   make clean            build products; `make distclean` also the downloads

TOP      := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
B        := $(TOP)/build
KERNELS  := $(TOP)/selftests/vm/kernels
VMRUN    := $(TOP)/selftests/vm/run
KSFT_INC := $(B)/ksft/include

RUNNING   := $(shell uname -r)
HOST_KVER := $(if $(wildcard /lib/modules/$(RUNNING)/build),$(RUNNING),6.1)

# KVER: the kernels `make check`/`make run` test (6.1, 6.12, debug).  Given on
# the command line it also selects what `make`/`make module` builds.
ifeq ($(origin KVER),undefined)
KVER      := 6.1
MOD_KVERS := $(HOST_KVER)
else
MOD_KVERS := $(KVER)
endif
RUN_KVER := $(firstword $(KVER))

export DEBIAN_FRONTEND := noninteractive

# The sources a module build needs; build outputs kbuild leaves beside them
# are excluded, so an rsync --delete keeps them (and incremental builds).
MOD_SRC  := Kbuild kmod include
MOD_EXCL := --exclude='*.o' --exclude='.*' --exclude='*.ko' --exclude='*.mod' \
	    --exclude='*.mod.c' --exclude='*.a' --exclude='*.order' --exclude='*.symvers'

DEMO := set -e; \
	echo "== txctl create torus 8 8"; txctl create torus 8 8; \
	echo "== txctl show txnet0"; txctl show txnet0; \
	echo "== /sys/kernel/txnet/txnet0"; \
	for f in $$(find /sys/kernel/txnet/txnet0 -maxdepth 1 -type f | sort); do echo "$$f: $$(cat $$f)"; done; \
	echo "== txctl create ring 12 && txctl run txnet1 total-exchange"; \
	txctl create ring 12; txctl run txnet1 total-exchange; \
	echo "== cat /sys/kernel/txnet/txnet1/last/steps"; cat /sys/kernel/txnet/txnet1/last/steps

.PHONY: all module deps kernels ksft user selftests host-check user-check install uninstall \
	run check bench table optimum fuzz nlfuzz pictures clean distclean help

all: $(if $(filter $(HOST_KVER),$(RUNNING)),,deps) module user selftests

help:
	@sed -n '3,17p' $(TOP)/Makefile | sed 's/^# \{0,1\}//'

deps:
	@$(KERNELS) deps

kernels: deps
	@$(KERNELS) fetch $(KVER)

ksft:
	@$(TOP)/selftests/ksft-headers.sh
	@$(TOP)/selftests/ynl-tools.sh

module: $(addprefix module-,$(MOD_KVERS))

# module-<kver>: build/mod-<kver>/txnet.ko.  MOD_CLEAN=1 rebuilds from scratch
# (every file compiled and, with C=1, checked).
module-%:
	@hdr=$$($(KERNELS) headers $*) && \
	mkdir -p $(B)/mod-$* && \
	if command -v rsync >/dev/null; then \
		rsync -a --delete $(MOD_EXCL) $(MOD_SRC) $(B)/mod-$*/; \
	else \
		rm -rf $(addprefix $(B)/mod-$*/,$(MOD_SRC)) && cp -a $(MOD_SRC) $(B)/mod-$*/; \
	fi && \
	if [ "$(MOD_CLEAN)" = 1 ]; then $(MAKE) --no-print-directory -C $$hdr M=$(B)/mod-$* clean >/dev/null; fi && \
	echo "  MODULE  $* ($$hdr)" && \
	$(MAKE) --no-print-directory -C $$hdr M=$(B)/mod-$* modules

user:
	@if [ -f $(TOP)/user/Makefile ]; then $(MAKE) --no-print-directory -C $(TOP)/user; \
	else echo "  SKIP    user/ (no user/Makefile yet)"; fi

# selftests/txnet builds its programs and installs run_tests.sh etc. into
# build/selftests/, which selftests/vm/run packs as /selftests/ in the guest.
selftests: ksft
	@if [ -f $(TOP)/selftests/txnet/Makefile ]; then \
		$(MAKE) --no-print-directory -C $(TOP)/selftests/txnet KSFT_INC=$(KSFT_INC) O=$(B)/selftests; \
	else echo "  SKIP    selftests/txnet (no Makefile yet)"; fi

host-check:
	@if [ -f $(TOP)/selftests/host/Makefile ]; then $(MAKE) --no-print-directory -C $(TOP)/selftests/host check; \
	else echo "  SKIP    selftests/host (no Makefile yet)"; fi

# txctl's parts that need no kernel (its network description files), under ASan/UBSan
user-check:
	@$(MAKE) --no-print-directory -C $(TOP)/selftests/user check

install:
	@test -f $(B)/mod-$(RUNNING)/txnet.ko || \
		{ echo "no module for $(RUNNING): run 'make' first (needs /lib/modules/$(RUNNING)/build)"; exit 1; }
	$(MAKE) --no-print-directory -C /lib/modules/$(RUNNING)/build M=$(B)/mod-$(RUNNING) modules_install
	depmod -a $(RUNNING)
	@if [ -f $(TOP)/user/Makefile ]; then $(MAKE) --no-print-directory -C $(TOP)/user install; fi

uninstall:
	rm -f /lib/modules/$(RUNNING)/updates/txnet.ko* /lib/modules/$(RUNNING)/extra/txnet.ko*
	depmod -a $(RUNNING)

run: deps
	@$(KERNELS) fetch $(RUN_KVER)
	@$(MAKE) --no-print-directory module-$(RUN_KVER) user
	@$(VMRUN) --kernel $(RUN_KVER) -- '$(DEMO)'

# The README's pictures (Documentation/pictures/): txctl's SVGs of runs in the VM.
pictures: deps
	@$(KERNELS) fetch $(RUN_KVER)
	@$(MAKE) --no-print-directory module-$(RUN_KVER) user
	@$(TOP)/selftests/vm/pictures --kernel $(RUN_KVER) $(TOP)/Documentation/pictures

# Engine throughput at host speed; PAYLOAD=N bytes per packet (default 0),
# FILTER=TEXT for some networks only, SCALE=1 for the 128x128 torus, CPU=N
# to run on that CPU (default: the one it starts on; every case on one).
bench:
	@$(MAKE) --no-print-directory -C $(TOP)/selftests/bench run PAYLOAD=$(PAYLOAD) \
		FILTER="$(FILTER)" SCALE=$(SCALE) CPU=$(CPU)

# The true optimum of small networks beside the bound and txnet's ticks,
# by CBC (selftests/host/optimum_test.c, which make check runs too).
optimum:
	@$(MAKE) --no-print-directory -C $(TOP)/selftests/host $(abspath $(TOP)/build/host)/optimum_test
	@$(TOP)/build/host/optimum_test > $(B)/optimum.log; rc=$$?; \
		grep '^# optimum:' $(B)/optimum.log; grep '^not ok' $(B)/optimum.log; exit $$rc

# The steps/bound table of Documentation/txnet-schedules.rst, measured afresh.
table:
	@$(MAKE) --no-print-directory -C $(TOP)/selftests/bench table

# libFuzzer over kmod/core (selftests/fuzz/fuzz_core.c), then over txctl's
# network description files (fuzz_graph_file.c), schedule files
# (fuzz_schedule_file.c) and MSCCL-IR imports (fuzz_msccl.c); SECONDS=N each
# (default 60).
fuzz:
	@dpkg-query -W -f='$${Status}\n' clang libclang-rt-14-dev 2>/dev/null | \
		grep -c 'ok installed' | grep -qx 2 || \
		{ apt-get update -qq && apt-get install -y -qq clang libclang-rt-14-dev; }
	@$(MAKE) --no-print-directory -C $(TOP)/selftests/fuzz run SECONDS=$(or $(SECONDS),60)

# The netlink fuzzer (selftests/txnet/txnet_nlfuzz.c) alone in the VM of each
# kernel in KVER: COUNT messages (default 1000000), SEED=N to replay a run
# (default: a new seed, printed).  The VM's timeout grows with COUNT.  Output
# in build/logs/nlfuzz-<kver>.log; every kernel runs even if one fails.
COUNT ?= 1000000
nlfuzz: deps
	@$(KERNELS) fetch $(KVER)
	@$(MAKE) --no-print-directory $(addprefix module-,$(KVER)) user selftests
	@mkdir -p $(B)/logs; st=0; \
	for k in $(KVER); do \
		{ $(VMRUN) --kernel $$k --timeout $$((900 + $(COUNT) / 100)) -- \
			'TXNET_NLFUZZ_COUNT=$(COUNT) TXNET_NLFUZZ_SEED=$(SEED) /selftests/txnet_nlfuzz'; \
		  echo $$? > $(B)/logs/nlfuzz-$$k.rc; } 2>&1 | tee $(B)/logs/nlfuzz-$$k.log; \
		[ "$$(cat $(B)/logs/nlfuzz-$$k.rc)" = 0 ] || st=1; \
	done; exit $$st

# Logs in build/logs/; the last line printed is "N passed, N failed".
check:
	@MAKE="$(MAKE)" CHECK_FLAGS="$(CHECK_FLAGS)" $(TOP)/selftests/vm/check $(KVER)

clean:
	rm -rf $(B)/mod-* $(B)/vm $(B)/logs $(B)/selftests
	-@if [ -f $(TOP)/user/Makefile ]; then $(MAKE) --no-print-directory -C $(TOP)/user clean; fi
	-@if [ -f $(TOP)/selftests/txnet/Makefile ]; then $(MAKE) --no-print-directory -C $(TOP)/selftests/txnet O=$(B)/selftests clean; fi
	-@if [ -f $(TOP)/selftests/host/Makefile ]; then $(MAKE) --no-print-directory -C $(TOP)/selftests/host clean; fi
	-@$(MAKE) --no-print-directory -C $(TOP)/selftests/user clean
	-@$(MAKE) --no-print-directory -C $(TOP)/selftests/bench clean
	-@$(MAKE) --no-print-directory -C $(TOP)/selftests/fuzz clean

distclean: clean
	rm -rf $(B)
