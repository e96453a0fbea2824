# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Install rules: the CLI, libbenchcore (soname = ABI major), the public and
# BPF-side headers, the CMake package and benchcore.pc. Plugins install
# themselves (benchcore_add_plugin()).
#
# Everything installed is relocatable: binaries find libbenchcore through
# $ORIGIN-relative RPATHs, the CMake package computes its paths from its own
# location, benchcore.pc from ${pcfiledir}, and the loader finds the plugin
# directory from the executable's own path. So `cmake --install --prefix X`
# and moving the installed tree afterwards both keep working.
include_guard(GLOBAL)
include(CMakePackageConfigHelpers)

set(BENCHCORE_CMAKE_INSTALL_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/benchcore")
set(BENCHCORE_BPF_HEADER_INSTALL_DIR "${CMAKE_INSTALL_INCLUDEDIR}/benchcore/bpf")

# BENCHCORE_ABI_MAJOR / BENCHCORE_ABI_MINOR come from the top-level CMakeLists.txt.


# ------------------------------------------------------- CLI and library
# _benchcore_origin_rpath() is BenchcorePlugin.cmake's: one rule for every
# installed binary.
_benchcore_origin_rpath(_bc_bin_rpath "${CMAKE_INSTALL_BINDIR}" "${CMAKE_INSTALL_LIBDIR}")
set_target_properties(benchcore PROPERTIES
	INSTALL_RPATH "${_bc_bin_rpath}"
	EXPORT_NAME cli)
set_target_properties(libbenchcore PROPERTIES EXPORT_NAME benchcore)

install(TARGETS benchcore libbenchcore EXPORT benchcoreTargets
	RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
	LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
	INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")

install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/benchcore"
	DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
	FILES_MATCHING PATTERN "*.h")

# The shipped suites: core/suite.c finds them in <prefix>/<datadir>/benchcore/suites.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/suites/"
	DESTINATION "${CMAKE_INSTALL_DATADIR}/benchcore/suites"
	FILES_MATCHING PATTERN "*.suite")

# benchcore vm's boot code (cmd_vm.c finds it in <prefix>/<libexecdir>/
# benchcore): the same scripts the kernel matrix sources from the tree.
install(PROGRAMS "${PROJECT_SOURCE_DIR}/vm/boot.sh" "${PROJECT_SOURCE_DIR}/vm/guest.sh"
	"${PROJECT_SOURCE_DIR}/vm/init.sh"
	DESTINATION "${CMAKE_INSTALL_LIBEXECDIR}/benchcore")

# Shared BPF-side headers, so that an out-of-tree .bpf.c can include what
# the in-tree ones do. vmlinux.h is machine-specific and generated on the
# plugin author's machine instead.
if(DEFINED BENCHCORE_BPF_INCLUDE_DIR AND IS_DIRECTORY "${BENCHCORE_BPF_INCLUDE_DIR}")
	set(_bc_bpf_headers "${BENCHCORE_BPF_INCLUDE_DIR}")
else()
	set(_bc_bpf_headers "${PROJECT_SOURCE_DIR}/bpf")
endif()
install(DIRECTORY "${_bc_bpf_headers}/"
	DESTINATION "${BENCHCORE_BPF_HEADER_INSTALL_DIR}"
	FILES_MATCHING PATTERN "*.h"
	PATTERN "vmlinux.h" EXCLUDE
	PATTERN "*.skel.h" EXCLUDE)

# ------------------------------------------------------- plugins
# Installed by benchcore_add_plugin() itself (BenchcorePlugin.cmake), the
# one rule for benchcore's own plugins and out-of-tree ones.

# ------------------------------------------------------- CMake package
install(EXPORT benchcoreTargets
	NAMESPACE benchcore::
	DESTINATION "${BENCHCORE_CMAKE_INSTALL_DIR}")

configure_package_config_file(
	"${CMAKE_CURRENT_LIST_DIR}/benchcoreConfig.cmake.in"
	"${PROJECT_BINARY_DIR}/cmake/benchcoreConfig.cmake"
	INSTALL_DESTINATION "${BENCHCORE_CMAKE_INSTALL_DIR}"
	PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR
		  BENCHCORE_BPF_HEADER_INSTALL_DIR BENCHCORE_PLUGIN_INSTALL_DIR)

# 0.x releases may break the CMake API between minors; the plugin ABI has
# its own version, checked by the loader at run time.
write_basic_package_version_file(
	"${PROJECT_BINARY_DIR}/cmake/benchcoreConfigVersion.cmake"
	VERSION "${PROJECT_VERSION}"
	COMPATIBILITY SameMinorVersion)

# The same files the in-tree plugins are built with.
install(FILES
	"${PROJECT_BINARY_DIR}/cmake/benchcoreConfig.cmake"
	"${PROJECT_BINARY_DIR}/cmake/benchcoreConfigVersion.cmake"
	"${CMAKE_CURRENT_LIST_DIR}/BenchcorePlugin.cmake"
	"${CMAKE_CURRENT_LIST_DIR}/FindBenchcoreBpf.cmake"
	"${CMAKE_CURRENT_LIST_DIR}/BenchcoreBpf.cmake"
	DESTINATION "${BENCHCORE_CMAKE_INSTALL_DIR}")

# ------------------------------------------------------- pkg-config
set(_bc_pc_dir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
if(IS_ABSOLUTE "${_bc_pc_dir}")
	set(BENCHCORE_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
	file(RELATIVE_PATH _bc_pc_up "/prefix/${_bc_pc_dir}" "/prefix")
	string(REGEX REPLACE "/+$" "" _bc_pc_up "${_bc_pc_up}")
	set(BENCHCORE_PC_PREFIX "\${pcfiledir}/${_bc_pc_up}")
endif()
foreach(_bc_dir LIBDIR INCLUDEDIR)
	if(IS_ABSOLUTE "${CMAKE_INSTALL_${_bc_dir}}")
		set(BENCHCORE_PC_${_bc_dir} "${CMAKE_INSTALL_${_bc_dir}}")
	else()
		set(BENCHCORE_PC_${_bc_dir} "\${prefix}/${CMAKE_INSTALL_${_bc_dir}}")
	endif()
endforeach()
configure_file("${CMAKE_CURRENT_LIST_DIR}/benchcore.pc.in"
	"${PROJECT_BINARY_DIR}/benchcore.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/benchcore.pc" DESTINATION "${_bc_pc_dir}")

# ------------------------------------------------------- docs and examples
# Both examples, and every page of docs/ with the pictures they show: the
# installed pages link to each other, and a link to a page left out would
# lead nowhere (test_sdk_install checks every relative link).
install(DIRECTORY "${PROJECT_SOURCE_DIR}/examples/hello-plugin"
	"${PROJECT_SOURCE_DIR}/examples/lookup-plugin"
	DESTINATION "${CMAKE_INSTALL_DOCDIR}/examples")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/"
	DESTINATION "${CMAKE_INSTALL_DOCDIR}"
	FILES_MATCHING PATTERN "*.md" PATTERN "*.svg" PATTERN "*.png")
