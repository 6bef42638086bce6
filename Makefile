# The two commands of README.md's quick start. Each first installs the Debian packages it needs
# (Scripts/setup.sh: as root it runs apt-get, otherwise it prints the sudo line and stops).
#
#   make          builds the sample gallery (site-config.json) into public/ with a release build
#   make test     checks the Swift files' format (Scripts/lint.sh: swift format lint --strict, .swift-format),
#                 runs the test suite, browser checks included (Scripts/test.sh: swift test, failing on
#                 any compiler warning in the project's own code), then each fuzz harness for 10 seconds
#                 (Scripts/fuzz.sh --smoke: a libFuzzer build with AddressSanitizer in .build-fuzz)
#   make package  builds dist/galleryssg_VERSION+debN_amd64.deb and a .tar.gz for this machine's Debian
#                 release (Scripts/package.sh); RELEASE=trixie or RELEASE=bookworm builds for that
#                 release in a container of it (Scripts/package-in.sh)
#   make package-test   installs that package in a fresh container of its release and builds the
#                 sample with it (Scripts/test-package.sh); RELEASE as for make package
#   make image    builds the container image galleryssg:latest and :VERSION with podman, or docker
#                 (Scripts/image.sh; it makes the .deb first when dist/ has none)
#   make image-test     runs the image as its users do (Scripts/image-test.sh): ownership of the
#                 files it writes, a clip, serve through a port, deploy to S3, the sharding recipe
#   make tsan     runs the suite but the browser checks under ThreadSanitizer (debug build in .build-tsan);
#                 fails on any report (Scripts/tsan.sh)
#   make fuzz     builds the parsers' libFuzzer harnesses (Fuzz/) with AddressSanitizer in .build-fuzz
#                 and runs each for FUZZ_SECONDS (default 600) seconds (Scripts/fuzz.sh)
#
# TEST_ARGS passes options to swift test, e.g. make test TEST_ARGS='--skip BrowserTests'.

.PHONY: all sample test package package-test image image-test tsan fuzz

# The tests import the targets plainly (no @testable), so they are built without testability:
# `swift test` would otherwise compile every module, dependencies included, with -enable-testing,
# and `make` after `make test` (or the other way round) would compile everything again.

all: sample

sample:
	Scripts/setup.sh build
	swift run -c release galleryssg build

# FUZZ_SMOKE=0 leaves out the fuzz harnesses' short runs (make test TEST_ARGS='--filter X' FUZZ_SMOKE=0).
FUZZ_SMOKE ?= 1

test:
	Scripts/lint.sh
	Scripts/setup.sh test Scripts/test.sh $(TEST_ARGS)
	if [ "$(FUZZ_SMOKE)" != 0 ]; then Scripts/fuzz.sh --smoke; fi

# The Debian release a package is for: this machine's by default.
RELEASE ?= $(shell . /etc/os-release && echo $$VERSION_CODENAME)
THIS_RELEASE := $(shell . /etc/os-release && echo $$VERSION_CODENAME)
DEBIAN_NUMBER = $(if $(filter trixie,$(RELEASE)),13,$(if $(filter bookworm,$(RELEASE)),12,unknown))
VERSION := $(shell sed -n 's/^ *static let number = "\(.*\)"$$/\1/p' Sources/galleryssg/Version.swift)

package:
ifeq ($(RELEASE),$(THIS_RELEASE))
	Scripts/setup.sh build
	Scripts/package.sh
else
	Scripts/setup.sh image
	Scripts/package-in.sh $(RELEASE)
endif

package-test:
	Scripts/setup.sh image
	Scripts/test-package.sh dist/galleryssg_$(VERSION)+deb$(DEBIAN_NUMBER)_amd64.deb

image:
	Scripts/setup.sh image
	RELEASE=bookworm Scripts/image.sh

image-test:
	Scripts/setup.sh image Scripts/image-test.sh

tsan:
	Scripts/setup.sh test Scripts/tsan.sh

fuzz:
	Scripts/setup.sh build
	Scripts/fuzz.sh
