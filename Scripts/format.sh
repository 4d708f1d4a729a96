#!/usr/bin/env bash
# Formats the Swift sources in place with the toolchain's swift-format (.swift-format settings).
# `Scripts/format.sh --lint` only checks, and fails on any difference (CI runs it that way).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--lint" ]; then
    swift format lint --strict --recursive Sources Tests Benchmarks Examples Fuzz/PhraseFuzz Package.swift
else
    swift format format --in-place --recursive Sources Tests Benchmarks Examples Fuzz/PhraseFuzz Package.swift
fi
