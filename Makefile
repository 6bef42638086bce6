# The two commands of README.md's quick start. Each first installs the Debian packages it needs
# (Scripts/setup.sh: as root it runs apt-get, otherwise it prints the sudo line and stops).
#
#   make          builds the sample gallery (site-config.json) into public/ with a release build
#   make test     checks the Swift files' format (Scripts/lint.sh: swift format lint --strict, .swift-format),
#                 runs the test suite, browser checks included (Scripts/test.sh: swift test, failing on
#                 any compiler warning in the project's own code), then each fuzz harness for 10 seconds
#                 (Scripts/fuzz.sh --smoke: a libFuzzer build with AddressSanitizer in .build-fuzz)
#   make package  builds dist/galleryssg_VERSION_amd64.deb and a .tar.gz (Scripts/package.sh)
#   make tsan     runs the suite but the browser checks under ThreadSanitizer (debug build in .build-tsan);
#                 fails on any report (Scripts/tsan.sh)
#   make fuzz     builds the parsers' libFuzzer harnesses (Fuzz/) with AddressSanitizer in .build-fuzz
#                 and runs each for FUZZ_SECONDS (default 600) seconds (Scripts/fuzz.sh)
#
# TEST_ARGS passes options to swift test, e.g. make test TEST_ARGS='--skip BrowserTests'.

.PHONY: all sample test package tsan fuzz

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

package:
	Scripts/setup.sh build
	Scripts/package.sh

tsan:
	Scripts/setup.sh test Scripts/tsan.sh

fuzz:
	Scripts/setup.sh build
	Scripts/fuzz.sh
