# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# include(BenchcoreBpf): the BPF build pipeline for projects that include
# the file rather than call find_package(BenchcoreBpf). It is the find
# module itself, run QUIET: it finds the tools, sets BENCHCORE_BPF_FOUND and
# BENCHCORE_BPF_REASON and defines benchcore_bpf_skeleton(), whose first call
# stops configuration with the reason when something is missing. See
# FindBenchcoreBpf.cmake.
set(BenchcoreBpf_FIND_QUIETLY TRUE)
include("${CMAKE_CURRENT_LIST_DIR}/FindBenchcoreBpf.cmake")
unset(BenchcoreBpf_FIND_QUIETLY)
