# healthaudit — build, install and test. Works with GNU make and the make of macOS.
#
#   make                                   release build of the CLI
#   make install [PREFIX=/usr/local]       build, then install $(PREFIX)/bin/healthaudit
#   make uninstall [PREFIX=/usr/local]     remove it
#   make test                              the README's test command
#
# Only the binary is installed: the site templates are compiled into it. It still loads libcmark
# at run time (Debian/Ubuntu: the libcmark0.* package that libcmark-dev depends on; macOS: Homebrew's cmark), so
# run `make install` again after an upgrade of cmark that changes its version. On Linux the Swift
# runtime is linked statically, so the binary keeps working when the toolchain moves or goes.

PREFIX = /usr/local
BINDIR = $(PREFIX)/bin
# Staged installs (packagers): make install DESTDIR=/tmp/stage
DESTDIR =
SWIFT = swift
# Extra flags for `swift build`, e.g. SWIFT_BUILD_FLAGS="--arch arm64 --arch x86_64" on macOS.
SWIFT_BUILD_FLAGS =

.PHONY: all build install uninstall test clean

all: build

build:
	@static=""; if [ "`uname -s`" = Linux ]; then static="--static-swift-stdlib"; fi; \
	echo "$(SWIFT) build -c release --product healthaudit $$static $(SWIFT_BUILD_FLAGS)"; \
	$(SWIFT) build -c release --product healthaudit $$static $(SWIFT_BUILD_FLAGS)

install: build
	@bin=`$(SWIFT) build -c release --show-bin-path $(SWIFT_BUILD_FLAGS)` || exit 1; \
	echo "install $$bin/healthaudit -> $(DESTDIR)$(BINDIR)/healthaudit"; \
	mkdir -p "$(DESTDIR)$(BINDIR)" && \
	install -m 755 "$$bin/healthaudit" "$(DESTDIR)$(BINDIR)/healthaudit"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/healthaudit"

test:
	bash .ci/setup && $(SWIFT) test --explicit-target-dependency-import-check error

clean:
	$(SWIFT) package clean
