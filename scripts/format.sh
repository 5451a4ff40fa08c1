#!/bin/sh
# swift-format over every Swift file we write (.swift-format holds the style;
# generated code is left as its generator writes it: the attach protocol,
# the exported tour test).
#   scripts/format.sh         rewrites the files in place (make format)
#   scripts/format.sh --lint  fails, naming file and line, where a file is not formatted or a product's
#                             source uses @testable import (make lint; make test runs it)
set -e
cd "$(dirname "$0")/.."
command -v swift-format >/dev/null || { echo "scripts/format.sh: swift-format not found (Swift 6 toolchains ship it next to swift)" >&2; exit 1; }
files=$(find Sources Tests Benchmarks/Sources Package.swift -name '*.swift' -not -path '*/Generated/*' -not -path 'Tests/TourExportTests/*' | sort)
if [ "$1" = "--lint" ]; then
    # A product built with `@testable import` builds in debug only: `swift build -c release`,
    # the first command a user runs to install karc, would fail. Sources reach package API instead;
    # so do the targets under Tests/ that are not test targets (a fixture app, the test support library).
    if testable=$(grep -rnE '^[[:space:]]*@testable[[:space:]]+import' Sources Benchmarks/Sources Examples Tests/Fixtures Tests/TestSupport --include='*.swift'); then
        echo "$testable" | sed 's/$/: @testable import in a target swift build -c release builds: reach the module'"'"'s package API instead (release refuses it)/' >&2
        exit 1
    fi
    # shellcheck disable=SC2086
    swift-format lint --strict --parallel $files
else
    # shellcheck disable=SC2086
    swift-format format --in-place --parallel $files
fi
