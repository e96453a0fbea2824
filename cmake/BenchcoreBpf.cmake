# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# BPF build pipeline: turns name.bpf.c into a libbpf skeleton header that
# embeds the BPF object, so the object lives inside the plugin's .so.
#
#   benchcore_bpf_skeleton(<target> SOURCES <a.bpf.c> [<b.bpf.c>...]
#                          [SKEL_NAME <name>] [INCLUDE_DIRS <dirs...>])
#
# creates the INTERFACE target <target>; linking it gives the include dir
# holding <name>.skel.h (name defaults to the first source's stem, "a" for
# a.bpf.c) and builds the skeleton before the linking target. Several
# sources are linked into one object with `bpftool gen object`.
#
# This file is also installed for out-of-tree plugins, so it assumes nothing
# about the benchcore source tree. Inputs (cache variables or plain ones set
# before include()):
#   BENCHCORE_BPF_INCLUDE_DIR  directory of benchcore.bpf.h (shared BPF headers)
#   BENCHCORE_VMLINUX_H        a vmlinux.h to use instead of generating one
#                              from /sys/kernel/btf/vmlinux at build time
#   BENCHCORE_BPF_CLANG, BENCHCORE_BPFTOOL   tool overrides
#   BENCHCORE_BPF              OFF skips every BPF plugin instead of failing
include_guard(GLOBAL)

option(BENCHCORE_BPF "Build the BPF plugins (needs clang, bpftool and BTF)" ON)
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

set(BENCHCORE_BPF_FOUND FALSE)
if(BENCHCORE_BPF)
	find_program(BENCHCORE_BPF_CLANG NAMES clang clang-19 clang-18 clang-17 clang-16 clang-15 clang-14)
	find_program(BENCHCORE_BPFTOOL NAMES bpftool HINTS /usr/sbin /usr/local/sbin /sbin)
	find_program(BENCHCORE_LLVM_STRIP NAMES llvm-strip llvm-strip-19 llvm-strip-16 llvm-strip-14)
	_benchcore_bpf_arch(BENCHCORE_BPF_ARCH)

	set(_missing "")
	set(_fix "")
	if(NOT BENCHCORE_BPF_CLANG OR NOT EXISTS "${BENCHCORE_BPF_CLANG}")
		list(APPEND _missing "clang")
		list(APPEND _fix "install clang (Debian: apt-get install clang) or pass -DBENCHCORE_BPF_CLANG=/path/to/clang")
	endif()
	if(NOT BENCHCORE_BPFTOOL OR NOT EXISTS "${BENCHCORE_BPFTOOL}")
		list(APPEND _missing "bpftool")
		list(APPEND _fix "install bpftool (Debian: apt-get install bpftool) or pass -DBENCHCORE_BPFTOOL=/path/to/bpftool")
	endif()
	if(BENCHCORE_VMLINUX_H)
		if(NOT EXISTS "${BENCHCORE_VMLINUX_H}")
			list(APPEND _missing "BENCHCORE_VMLINUX_H (${BENCHCORE_VMLINUX_H} does not exist)")
			list(APPEND _fix "pass -DBENCHCORE_VMLINUX_H= with an existing vmlinux.h")
		endif()
	elseif(NOT EXISTS /sys/kernel/btf/vmlinux)
		list(APPEND _missing "kernel BTF (/sys/kernel/btf/vmlinux)")
		list(APPEND _fix "boot a kernel built with CONFIG_DEBUG_INFO_BTF=y or pass -DBENCHCORE_VMLINUX_H=/path/to/vmlinux.h")
	endif()
	if(NOT BENCHCORE_BPF_ARCH)
		list(APPEND _missing "a __TARGET_ARCH for ${CMAKE_SYSTEM_PROCESSOR}")
		list(APPEND _fix "extend _benchcore_bpf_arch() in BenchcoreBpf.cmake")
	endif()
	if(NOT BENCHCORE_BPF_INCLUDE_DIR OR NOT EXISTS "${BENCHCORE_BPF_INCLUDE_DIR}/benchcore.bpf.h")
		list(APPEND _missing "benchcore.bpf.h (BENCHCORE_BPF_INCLUDE_DIR='${BENCHCORE_BPF_INCLUDE_DIR}')")
		list(APPEND _fix "set BENCHCORE_BPF_INCLUDE_DIR to the directory holding benchcore.bpf.h before include(BenchcoreBpf)")
	endif()

	if(_missing)
		string(REPLACE ";" ", " _missing "${_missing}")
		string(REPLACE ";" "; " _fix "${_fix}")
		message(FATAL_ERROR "benchcore: cannot build BPF programs: missing ${_missing}. "
			"To fix: ${_fix}. (Or pass -DBENCHCORE_BPF=OFF to build without the BPF plugins.)")
	endif()

	_benchcore_bpf_sys_includes("${BENCHCORE_BPF_CLANG}" BENCHCORE_BPF_SYS_INCLUDES)
	set(BENCHCORE_BPF_FOUND TRUE)

	# One vmlinux.h per build tree, shared by every skeleton. It is made at
	# build time, in the directory that included this file, and reached
	# from elsewhere through the benchcore_vmlinux_h target.
	if(BENCHCORE_VMLINUX_H)
		get_filename_component(BENCHCORE_VMLINUX_DIR "${BENCHCORE_VMLINUX_H}" DIRECTORY)
		set(_vmlinux_file "${BENCHCORE_VMLINUX_H}")
		if(NOT TARGET benchcore_vmlinux_h)
			add_custom_target(benchcore_vmlinux_h)
		endif()
	else()
		set(BENCHCORE_VMLINUX_DIR "${CMAKE_BINARY_DIR}/benchcore-bpf")
		set(_vmlinux_file "${BENCHCORE_VMLINUX_DIR}/vmlinux.h")
		if(NOT TARGET benchcore_vmlinux_h)
			add_custom_command(OUTPUT "${_vmlinux_file}"
				COMMAND "${CMAKE_COMMAND}" -E make_directory "${BENCHCORE_VMLINUX_DIR}"
				COMMAND "${BENCHCORE_BPFTOOL}" btf dump file /sys/kernel/btf/vmlinux
					format c > "${_vmlinux_file}.tmp"
				COMMAND "${CMAKE_COMMAND}" -E rename "${_vmlinux_file}.tmp" "${_vmlinux_file}"
				# Booting another kernel changes the file: regenerate.
				DEPENDS /sys/kernel/btf/vmlinux
				COMMENT "Generating vmlinux.h from /sys/kernel/btf/vmlinux"
				VERBATIM)
			add_custom_target(benchcore_vmlinux_h DEPENDS "${_vmlinux_file}")
		endif()
	endif()
	set(BENCHCORE_VMLINUX_FILE "${_vmlinux_file}")
endif()

function(benchcore_bpf_skeleton target)
	cmake_parse_arguments(ARG "" "SKEL_NAME" "SOURCES;INCLUDE_DIRS" ${ARGN})
	if(NOT ARG_SOURCES)
		message(FATAL_ERROR "benchcore_bpf_skeleton(${target}): SOURCES is required")
	endif()
	if(NOT BENCHCORE_BPF_FOUND)
		message(FATAL_ERROR "benchcore_bpf_skeleton(${target}): BPF support is off (BENCHCORE_BPF=OFF)")
	endif()
	list(GET ARG_SOURCES 0 first)
	get_filename_component(first_name "${first}" NAME)
	string(REGEX REPLACE "\\..*$" "" stem "${first_name}")
	if(ARG_SKEL_NAME)
		set(skel "${ARG_SKEL_NAME}")
	else()
		set(skel "${stem}")
	endif()

	set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/${target}")
	set(inc_flags -I "${BENCHCORE_VMLINUX_DIR}" -I "${BENCHCORE_BPF_INCLUDE_DIR}")
	foreach(d IN LISTS ARG_INCLUDE_DIRS)
		get_filename_component(d "${d}" ABSOLUTE)
		list(APPEND inc_flags -I "${d}")
	endforeach()

	file(GLOB shared_headers "${BENCHCORE_BPF_INCLUDE_DIR}/*.h")
	set(objs "")
	foreach(src IN LISTS ARG_SOURCES)
		get_filename_component(src_abs "${src}" ABSOLUTE)
		get_filename_component(src_name "${src}" NAME)
		string(REGEX REPLACE "\\.c$" "" obj_stem "${src_name}")
		set(obj "${out_dir}/${obj_stem}.o")
		# clang's depfile lets an edit to any included header rebuild
		# the object (Makefile generators take DEPFILE from CMake 3.20;
		# before that only the shared headers are tracked).
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
			COMMAND "${BENCHCORE_BPF_CLANG}" -g -O2 -target bpf
				-D__TARGET_ARCH_${BENCHCORE_BPF_ARCH}
				${inc_flags} ${BENCHCORE_BPF_SYS_INCLUDES}
				-MD -MF "${obj}.d"
				-c "${src_abs}" -o "${obj}"
			DEPENDS "${src_abs}" "${BENCHCORE_VMLINUX_FILE}" benchcore_vmlinux_h
				${shared_headers}
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
			COMMAND "${BENCHCORE_BPFTOOL}" gen object "${linked}" ${objs}
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
		COMMAND "${BENCHCORE_BPFTOOL}" gen skeleton "${out_dir}/${skel}.stripped.o"
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
