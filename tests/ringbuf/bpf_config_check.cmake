# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# cmake -DSRC=<bpf_project> -DWORK=<scratch dir> -DCMAKE_DIR=<cmake/> \
#       -DBPF_INCLUDE=<bpf/> -DINCLUDE=<include/> -P bpf_config_check.cmake
#
# The BPF pipeline outside benchcore's tree: a project that only includes
# BenchcoreBpf.cmake configures and builds a skeleton; a missing clang,
# bpftool or vmlinux.h stops configuration with exactly one message that
# names what is missing and what to install or pass.
function(configure name out_var rc_var)
	file(REMOVE_RECURSE "${WORK}/${name}")
	execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SRC}" -B "${WORK}/${name}"
		"-DBENCHCORE_CMAKE_DIR=${CMAKE_DIR}" "-DBENCHCORE_BPF_INCLUDE_DIR=${BPF_INCLUDE}"
		"-DBENCHCORE_INCLUDE_DIR=${INCLUDE}" ${ARGN}
		OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
	set(${out_var} "${out}${err}" PARENT_SCOPE)
	set(${rc_var} ${rc} PARENT_SCOPE)
endfunction()

function(expect_refusal name needle)
	configure(${name} out rc ${ARGN})
	if(rc EQUAL 0)
		message(FATAL_ERROR "${name}: configuration succeeded, expected a refusal:\n${out}")
	endif()
	string(REGEX MATCHALL "cannot build BPF programs" hits "${out}")
	list(LENGTH hits n)
	if(NOT n EQUAL 1)
		message(FATAL_ERROR "${name}: expected exactly one message, got ${n}:\n${out}")
	endif()
	string(FIND "${out}" "${needle}" at)
	if(at EQUAL -1)
		message(FATAL_ERROR "${name}: message lacks '${needle}':\n${out}")
	endif()
	message(STATUS "${name}: refused as expected")
endfunction()

expect_refusal(no_clang "missing clang" -DBENCHCORE_BPF_CLANG=/nonexistent/clang)
expect_refusal(no_clang "apt-get install clang" -DBENCHCORE_BPF_CLANG=/nonexistent/clang)
expect_refusal(no_bpftool "missing bpftool" -DBENCHCORE_BPFTOOL=/nonexistent/bpftool)
expect_refusal(no_vmlinux "-DBENCHCORE_VMLINUX_H=" -DBENCHCORE_VMLINUX_H=/nonexistent/vmlinux.h)
expect_refusal(both "missing clang, bpftool"
	-DBENCHCORE_BPF_CLANG=/nonexistent/clang -DBENCHCORE_BPFTOOL=/nonexistent/bpftool)

configure(good out rc)
if(NOT rc EQUAL 0)
	message(FATAL_ERROR "good: configuration failed:\n${out}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK}/good"
	OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
	message(FATAL_ERROR "good: build failed:\n${out}${err}")
endif()
if(NOT EXISTS "${WORK}/good/probe_skel/probe.skel.h")
	message(FATAL_ERROR "good: no probe.skel.h in ${WORK}/good/probe_skel")
endif()
message(STATUS "good: skeleton built out of tree")
