#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# scripts/build.sh BUILD_DIR [extra cmake args...]: configure and build.
set -euo pipefail
build_dir=$1
shift
src_dir=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$src_dir" -B "$build_dir" -DBENCHCORE_WERROR=ON "$@" >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
