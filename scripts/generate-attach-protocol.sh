#!/usr/bin/env bash
# Regenerates the attach protocol's Swift code (Sources/KarcAttachProtocol/Generated)
# from Protos/karc/attach/v1/attach.proto. Run it after changing the .proto;
# commit what it writes. The protoc plugins take ~10 minutes to build the
# first time (a release build of swift-protobuf's and grpc-swift-protobuf's
# generators, in .build-protoc-plugins, kept for the next run).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v protoc >/dev/null; then
    apt-get update -qq && apt-get install -y -qq protobuf-compiler
fi

plugins=.build-protoc-plugins
mkdir -p "$plugins/Dummy"
cat > "$plugins/Package.swift" <<'SWIFT'
// swift-tools-version: 6.0
import PackageDescription
// The versions Package.swift depends on: generated code and runtime must agree.
let package = Package(
    name: "protoc-plugins",
    dependencies: [
        .package(url: "https://github.com/apple/swift-protobuf", exact: "1.39.0"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", exact: "2.4.1"),
    ],
    targets: [.target(name: "Dummy", path: "Dummy")]
)
SWIFT
touch "$plugins/Dummy/Dummy.swift"
(cd "$plugins" && swift build -c release --product protoc-gen-swift && swift build -c release --product protoc-gen-grpc-swift-2)

out=Sources/KarcAttachProtocol/Generated
rm -rf "$out" && mkdir -p "$out"
protoc \
    --plugin=protoc-gen-swift="$plugins/.build/release/protoc-gen-swift" \
    --plugin=protoc-gen-grpc-swift-2="$plugins/.build/release/protoc-gen-grpc-swift-2" \
    -I Protos \
    --swift_out="$out" --swift_opt=Visibility=Package \
    --grpc-swift-2_out="$out" --grpc-swift-2_opt=Visibility=Package \
    Protos/karc/attach/v1/attach.proto
echo "wrote $out"
