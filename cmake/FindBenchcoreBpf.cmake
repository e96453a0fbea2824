# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# find_package(BenchcoreBpf [REQUIRED] [QUIET]), with this directory on
# CMAKE_MODULE_PATH: finds what turns name.bpf.c into a libbpf skeleton
# header that embeds the BPF object, so the object lives inside the
# plugin's .so. Finding creates no target and fails nothing by itself;
# REQUIRED and QUIET behave as for any find module.
#
# Inputs (cache variables, or plain ones set before find_package()):
#   BENCHCORE_BPF_INCLUDE_DIR  directory of benchcore.bpf.h (shared BPF headers)
#   BENCHCORE_VMLINUX_H        a vmlinux.h to compile against instead of one
#                              generated from /sys/kernel/btf/vmlinux
#   BENCHCORE_BPF_CLANG, BENCHCORE_BPFTOOL, BENCHCORE_LLVM_STRIP   tool overrides
#
# Results:
#   BenchcoreBpf_FOUND, BENCHCORE_BPF_FOUND   TRUE when skeletons can be built
#   BENCHCORE_BPF_REASON       when not found, one line saying what is missing
#                              and how to fix it
#   BenchcoreBpf_CLANG, BenchcoreBpf_BPFTOOL   the tools that will be run
#   BenchcoreBpf_VMLINUX_SOURCE   what vmlinux.h comes from: BENCHCORE_VMLINUX_H
#                              or /sys/kernel/btf/vmlinux
#   BenchcoreBpf_ARCH          the -D__TARGET_ARCH_<arch> value
#   BenchcoreBpf_INCLUDE_DIR   BENCHCORE_BPF_INCLUDE_DIR, checked
#
# and the function
#
#   benchcore_bpf_skeleton(<target> SOURCES <a.bpf.c> [<b.bpf.c>...]
#                          [SKEL_NAME <name>] [INCLUDE_DIRS <dirs...>]
#                          [DEFINES <NAME[=VALUE]...>])
#
# which creates the INTERFACE target <target>; linking it gives the include
# dir holding <name>.skel.h (name defaults to the first source's stem, "a"
# for a.bpf.c) and builds the skeleton before the linking target. Several
# sources are linked into one object with `bpftool gen object`. DEFINES
# are passed to clang as -D, so that one source can be built into several
# objects (each its own <target>). Its first
# call creates the build tree's one vmlinux.h rule; when BPF was not found,
# it stops configuration with BENCHCORE_BPF_REASON.
#
# This file is installed with the CMake package for out-of-tree plugins, so
# it assumes nothing about the benchcore source tree. BenchcoreBpf.cmake,
# beside it, is the same thing for include().

set(BENCHCORE_VMLINUX_H "" CACHE FILEPATH
	"vmlinux.h to compile BPF programs against (default: generated from /sys/kernel/btf/vmlinux)")

# The -D__TARGET_ARCH_<arch> value bpf_tracing.h uses to read pt_regs.
function(_benchcore_bpf_arch out)
	set(p "${CMAKE_SYSTEM_PROCESSOR}")
	if(p MATCHES "^(x86_64|amd64|AMD64|i.86)$")
		set(a x86)
	elseif(p MATCHES "^(aarch64|arm64)$")
		set(a arm64)
	elseif(p MATCHES "^arm")
		set(a arm)
	elseif(p MATCHES "^(ppc64|ppc64le|powerpc64)")
		set(a powerpc)
	elseif(p MATCHES "^s390")
		set(a s390)
	elseif(p MATCHES "^riscv")
		set(a riscv)
	elseif(p MATCHES "^loongarch")
		set(a loongarch)
	elseif(p MATCHES "^mips")
		set(a mips)
	else()
		set(a "")
	endif()
	set(${out} "${a}" PARENT_SCOPE)
endfunction()

# clang -target bpf does not search the host's system headers (asm/types.h
# and friends live there), so hand them over with -idirafter: they then come
# after our own -I dirs, as libbpf-bootstrap does.
function(_benchcore_bpf_sys_includes clang out)
	execute_process(COMMAND "${clang}" -v -E -
		INPUT_FILE /dev/null OUTPUT_QUIET ERROR_VARIABLE verbose
		RESULT_VARIABLE rc)
	set(flags "")
	if(rc EQUAL 0)
		string(REGEX MATCH "#include <...> search starts here:\n(.*)\nEnd of search list"
			_m "${verbose}")
		string(REPLACE "\n" ";" dirs "${CMAKE_MATCH_1}")
		foreach(d IN LISTS dirs)
			string(STRIP "${d}" d)
			if(d)
				list(APPEND flags -idirafter "${d}")
			endif()
		endforeach()
	endif()
	set(${out} "${flags}" PARENT_SCOPE)
endfunction()

find_program(BENCHCORE_BPF_CLANG NAMES clang clang-19 clang-18 clang-17 clang-16 clang-15 clang-14)
find_program(BENCHCORE_BPFTOOL NAMES bpftool HINTS /usr/sbin /usr/local/sbin /sbin)
find_program(BENCHCORE_LLVM_STRIP NAMES llvm-strip llvm-strip-19 llvm-strip-16 llvm-strip-14)
mark_as_advanced(BENCHCORE_BPF_CLANG BENCHCORE_BPFTOOL BENCHCORE_LLVM_STRIP)

# Each result is left empty when its check fails, and the reason collects
# every failed check, so that one message names everything at once.
set(BenchcoreBpf_CLANG "")
set(BenchcoreBpf_BPFTOOL "")
set(BenchcoreBpf_VMLINUX_SOURCE "")
set(_bc_missing "")
set(_bc_fix "")
if(BENCHCORE_BPF_CLANG AND EXISTS "${BENCHCORE_BPF_CLANG}")
	set(BenchcoreBpf_CLANG "${BENCHCORE_BPF_CLANG}")
else()
	list(APPEND _bc_missing "clang")
	list(APPEND _bc_fix "install clang (Debian: apt-get install clang) or pass -DBENCHCORE_BPF_CLANG=/path/to/clang")
endif()
if(BENCHCORE_BPFTOOL AND EXISTS "${BENCHCORE_BPFTOOL}")
	set(BenchcoreBpf_BPFTOOL "${BENCHCORE_BPFTOOL}")
else()
	list(APPEND _bc_missing "bpftool")
	list(APPEND _bc_fix "install bpftool (Debian: apt-get install bpftool) or pass -DBENCHCORE_BPFTOOL=/path/to/bpftool")
endif()
if(BENCHCORE_VMLINUX_H)
	if(EXISTS "${BENCHCORE_VMLINUX_H}" AND NOT IS_DIRECTORY "${BENCHCORE_VMLINUX_H}")
		get_filename_component(BenchcoreBpf_VMLINUX_SOURCE "${BENCHCORE_VMLINUX_H}" ABSOLUTE)
	else()
		list(APPEND _bc_missing "BENCHCORE_VMLINUX_H (${BENCHCORE_VMLINUX_H} does not exist)")
		list(APPEND _bc_fix "pass -DBENCHCORE_VMLINUX_H= with an existing vmlinux.h")
	endif()
elseif(EXISTS /sys/kernel/btf/vmlinux)
	set(BenchcoreBpf_VMLINUX_SOURCE /sys/kernel/btf/vmlinux)
else()
	list(APPEND _bc_missing "kernel BTF (/sys/kernel/btf/vmlinux)")
	list(APPEND _bc_fix "boot a kernel built with CONFIG_DEBUG_INFO_BTF=y or pass -DBENCHCORE_VMLINUX_H=/path/to/vmlinux.h")
endif()
_benchcore_bpf_arch(BenchcoreBpf_ARCH)
if(NOT BenchcoreBpf_ARCH)
	list(APPEND _bc_missing "a __TARGET_ARCH for ${CMAKE_SYSTEM_PROCESSOR}")
	list(APPEND _bc_fix "extend _benchcore_bpf_arch() in FindBenchcoreBpf.cmake")
endif()
set(BenchcoreBpf_INCLUDE_DIR "")
if(BENCHCORE_BPF_INCLUDE_DIR AND EXISTS "${BENCHCORE_BPF_INCLUDE_DIR}/benchcore.bpf.h")
	set(BenchcoreBpf_INCLUDE_DIR "${BENCHCORE_BPF_INCLUDE_DIR}")
else()
	list(APPEND _bc_missing "benchcore.bpf.h (BENCHCORE_BPF_INCLUDE_DIR='${BENCHCORE_BPF_INCLUDE_DIR}')")
	list(APPEND _bc_fix "set BENCHCORE_BPF_INCLUDE_DIR to the directory holding benchcore.bpf.h before find_package(BenchcoreBpf)")
endif()

set(BENCHCORE_BPF_REASON "")
if(_bc_missing)
	string(REPLACE ";" ", " _bc_missing "${_bc_missing}")
	string(REPLACE ";" "; " _bc_fix "${_bc_fix}")
	set(BENCHCORE_BPF_REASON
		"cannot build BPF programs: missing ${_bc_missing}. To fix: ${_bc_fix}.")
endif()

# Included as BenchcoreBpf.cmake from within another package's find_package()
# (or from a project's own find module), the names differ on purpose.
set(_bc_fphsa_name_arg "")
if(CMAKE_FIND_PACKAGE_NAME AND NOT CMAKE_FIND_PACKAGE_NAME STREQUAL "BenchcoreBpf"
   AND NOT CMAKE_VERSION VERSION_LESS 3.17)
	set(_bc_fphsa_name_arg NAME_MISMATCHED)
endif()
# FPHSA re-splits its arguments as a list, escaped or not: its copy of the
# reason says "," where ours says ";".
string(REPLACE ";" "," _bc_fphsa_reason "${BENCHCORE_BPF_REASON}")
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(BenchcoreBpf
	REQUIRED_VARS BenchcoreBpf_CLANG BenchcoreBpf_BPFTOOL BenchcoreBpf_VMLINUX_SOURCE
		      BenchcoreBpf_ARCH BenchcoreBpf_INCLUDE_DIR
	REASON_FAILURE_MESSAGE "${_bc_fphsa_reason}"
	${_bc_fphsa_name_arg})
set(BENCHCORE_BPF_FOUND ${BenchcoreBpf_FOUND})

if(BenchcoreBpf_FOUND AND NOT DEFINED BenchcoreBpf_SYS_INCLUDES)
	_benchcore_bpf_sys_includes("${BenchcoreBpf_CLANG}" BenchcoreBpf_SYS_INCLUDES)
endif()

# The build tree's one vmlinux.h, shared by every skeleton: made at build
# time by the benchcore_vmlinux_h target, which the first
# benchcore_bpf_skeleton() call creates. A pinned BENCHCORE_VMLINUX_H is
# copied there rather than used in place, so that it need not be named
# vmlinux.h and no other header beside it lands on the include path.
function(_benchcore_bpf_vmlinux_target out_dir)
	set(dir "${CMAKE_BINARY_DIR}/benchcore-bpf")
	set(file "${dir}/vmlinux.h")
	set(${out_dir} "${dir}" PARENT_SCOPE)
	if(TARGET benchcore_vmlinux_h)
		return()
	endif()
	if(NOT BenchcoreBpf_VMLINUX_SOURCE STREQUAL "/sys/kernel/btf/vmlinux")
		add_custom_command(OUTPUT "${file}"
			COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"
			COMMAND "${CMAKE_COMMAND}" -E copy "${BenchcoreBpf_VMLINUX_SOURCE}" "${file}"
			DEPENDS "${BenchcoreBpf_VMLINUX_SOURCE}"
			COMMENT "Using pinned vmlinux.h ${BenchcoreBpf_VMLINUX_SOURCE}"
			VERBATIM)
	else()
		add_custom_command(OUTPUT "${file}"
			COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"
			COMMAND "${BenchcoreBpf_BPFTOOL}" btf dump file /sys/kernel/btf/vmlinux
				format c > "${file}.tmp"
			COMMAND "${CMAKE_COMMAND}" -E rename "${file}.tmp" "${file}"
			# Booting another kernel changes the file: regenerate.
			DEPENDS /sys/kernel/btf/vmlinux
			COMMENT "Generating vmlinux.h from /sys/kernel/btf/vmlinux"
			VERBATIM)
	endif()
	add_custom_target(benchcore_vmlinux_h DEPENDS "${file}")
endfunction()

function(benchcore_bpf_skeleton target)
	cmake_parse_arguments(ARG "" "SKEL_NAME" "SOURCES;INCLUDE_DIRS;DEFINES" ${ARGN})
	if(NOT ARG_SOURCES)
		message(FATAL_ERROR "benchcore_bpf_skeleton(${target}): SOURCES is required")
	endif()
	if(NOT BenchcoreBpf_FOUND)
		if(NOT BENCHCORE_BPF_REASON)
			set(BENCHCORE_BPF_REASON "cannot build BPF programs: find_package(BenchcoreBpf) was not called")
		endif()
		message(FATAL_ERROR "benchcore: ${BENCHCORE_BPF_REASON}")
	endif()
	_benchcore_bpf_vmlinux_target(vmlinux_dir)
	list(GET ARG_SOURCES 0 first)
	get_filename_component(first_name "${first}" NAME)
	string(REGEX REPLACE "\\..*$" "" stem "${first_name}")
	if(ARG_SKEL_NAME)
		set(skel "${ARG_SKEL_NAME}")
	else()
		set(skel "${stem}")
	endif()

	set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/${target}")
	set(inc_flags -I "${vmlinux_dir}" -I "${BenchcoreBpf_INCLUDE_DIR}")
	foreach(d IN LISTS ARG_INCLUDE_DIRS)
		get_filename_component(d "${d}" ABSOLUTE)
		list(APPEND inc_flags -I "${d}")
	endforeach()
	set(def_flags "")
	foreach(d IN LISTS ARG_DEFINES)
		list(APPEND def_flags "-D${d}")
	endforeach()

	set(objs "")
	foreach(src IN LISTS ARG_SOURCES)
		get_filename_component(src_abs "${src}" ABSOLUTE)
		get_filename_component(src_name "${src}" NAME)
		string(REGEX REPLACE "\\.c$" "" obj_stem "${src_name}")
		set(obj "${out_dir}/${obj_stem}.o")
		# clang's depfile lets an edit to any included header rebuild
		# the object (Makefile generators take DEPFILE from CMake 3.20;
		# before that only benchcore.bpf.h and vmlinux.h are tracked).
		set(dep_args "")
		if(CMAKE_GENERATOR MATCHES "Ninja" OR CMAKE_VERSION VERSION_GREATER_EQUAL 3.20)
			set(dep_args DEPFILE "${obj}.d")
		endif()
		# CMP0116 NEW: CMake rewrites clang's absolute target path in
		# the depfile for Ninja; otherwise Ninja rebuilds every time.
		if(POLICY CMP0116)
			cmake_policy(PUSH)
			cmake_policy(SET CMP0116 NEW)
		endif()
		add_custom_command(OUTPUT "${obj}"
			COMMAND "${CMAKE_COMMAND}" -E make_directory "${out_dir}"
			COMMAND "${BenchcoreBpf_CLANG}" -g -O2 -target bpf
				-D__TARGET_ARCH_${BenchcoreBpf_ARCH} ${def_flags}
				${inc_flags} ${BenchcoreBpf_SYS_INCLUDES}
				-MD -MF "${obj}.d"
				-c "${src_abs}" -o "${obj}"
			DEPENDS "${src_abs}" "${vmlinux_dir}/vmlinux.h" benchcore_vmlinux_h
				"${BenchcoreBpf_INCLUDE_DIR}/benchcore.bpf.h"
			${dep_args}
			COMMENT "Compiling BPF object ${src_name}"
			VERBATIM)
		if(POLICY CMP0116)
			cmake_policy(POP)
		endif()
		list(APPEND objs "${obj}")
	endforeach()

	list(LENGTH objs nobjs)
	if(nobjs GREATER 1)
		set(linked "${out_dir}/${skel}.linked.o")
		add_custom_command(OUTPUT "${linked}"
			COMMAND "${BenchcoreBpf_BPFTOOL}" gen object "${linked}" ${objs}
			DEPENDS ${objs}
			COMMENT "Linking BPF object ${skel}"
			VERBATIM)
		set(final_obj "${linked}")
	else()
		set(final_obj "${objs}")
	endif()

	# DWARF is only bulk inside the plugin: BTF (what libbpf needs) stays.
	set(strip_cmd "")
	if(BENCHCORE_LLVM_STRIP)
		set(strip_cmd COMMAND "${BENCHCORE_LLVM_STRIP}" -g "${out_dir}/${skel}.stripped.o")
	endif()
	set(skel_h "${out_dir}/${skel}.skel.h")
	add_custom_command(OUTPUT "${skel_h}"
		COMMAND "${CMAKE_COMMAND}" -E copy "${final_obj}" "${out_dir}/${skel}.stripped.o"
		${strip_cmd}
		COMMAND "${BenchcoreBpf_BPFTOOL}" gen skeleton "${out_dir}/${skel}.stripped.o"
			name "${skel}" > "${skel_h}.tmp"
		COMMAND "${CMAKE_COMMAND}" -E rename "${skel_h}.tmp" "${skel_h}"
		DEPENDS "${final_obj}"
		COMMENT "Generating BPF skeleton ${skel}.skel.h"
		VERBATIM)

	add_custom_target(${target}_gen DEPENDS "${skel_h}")
	add_library(${target} INTERFACE)
	target_include_directories(${target} INTERFACE "${out_dir}")
	add_dependencies(${target} ${target}_gen)
endfunction()
