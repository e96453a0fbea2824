# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# benchcore_add_plugin(NAME <name> SOURCES <c files...> [LIBRARIES <libs...>]
#                      [BPF_SOURCES <x.bpf.c...>])
#
# Each BPF source x.bpf.c becomes the skeleton x.skel.h (struct x), which the
# plugin's C sources include; the BPF object is embedded in the .so. See
# FindBenchcoreBpf.cmake. With BENCHCORE_BPF=OFF such a plugin is skipped;
# otherwise, when BPF is not found, configuration stops saying what is
# missing.
#
# Builds <name>.so as a MODULE with hidden visibility, so that the only
# symbol it exports is the `benchcore_plugin` descriptor, into
# ${BENCHCORE_PLUGIN_OUTPUT_DIR}, and installs it into
# ${BENCHCORE_PLUGIN_INSTALL_DIR} with an RPATH that finds libbenchcore in
# ${BENCHCORE_LIBRARY_INSTALL_DIR}. This is the one install rule for every
# plugin, benchcore's own and out-of-tree ones alike; set
# BENCHCORE_PLUGIN_INSTALL to OFF around plugins that must not be installed
# (test fixtures).
#
# The same file serves out-of-tree plugins (installed with the CMake
# package): there benchcoreConfig.cmake sets BENCHCORE_LIBRARY_TARGET to the
# imported benchcore::benchcore and the two install dirs to absolute paths
# into the benchcore that was found.

# The RPATH for a binary installed into from_dir that loads libraries from
# lib_dir (either relative to the install prefix, or absolute): relative
# to $ORIGIN when the two move together (both under one install prefix, or
# lib_dir an ancestor of from_dir), lib_dir itself otherwise.
function(_benchcore_origin_rpath out from_dir lib_dir)
	if(NOT IS_ABSOLUTE "${from_dir}" AND NOT IS_ABSOLUTE "${lib_dir}")
		file(RELATIVE_PATH rel "/prefix/${from_dir}" "/prefix/${lib_dir}")
	else()
		foreach(v from_dir lib_dir)
			if(NOT IS_ABSOLUTE "${${v}}")
				set(${v} "${CMAKE_INSTALL_PREFIX}/${${v}}")
			endif()
			get_filename_component(${v} "${${v}}" ABSOLUTE)
		endforeach()
		string(FIND "${from_dir}/" "${lib_dir}/" at)
		if(NOT at EQUAL 0)
			set(${out} "${lib_dir}" PARENT_SCOPE)
			return()
		endif()
		file(RELATIVE_PATH rel "${from_dir}" "${lib_dir}")
	endif()
	# file(RELATIVE_PATH) ends a path to an ancestor with "/".
	string(REGEX REPLACE "/+$" "" rel "${rel}")
	if(rel STREQUAL "")
		set(${out} "$ORIGIN" PARENT_SCOPE)
	else()
		set(${out} "$ORIGIN/${rel}" PARENT_SCOPE)
	endif()
endfunction()

# The RPATH for a plugin installed into BENCHCORE_PLUGIN_INSTALL_DIR.
function(_benchcore_plugin_rpath out)
	_benchcore_origin_rpath(rpath "${BENCHCORE_PLUGIN_INSTALL_DIR}" "${BENCHCORE_LIBRARY_INSTALL_DIR}")
	set(${out} "${rpath}" PARENT_SCOPE)
endfunction()

function(benchcore_add_plugin)
	cmake_parse_arguments(ARG "" "NAME" "SOURCES;LIBRARIES;BPF_SOURCES" ${ARGN})
	if(NOT ARG_NAME OR NOT ARG_SOURCES)
		message(FATAL_ERROR "benchcore_add_plugin: NAME and SOURCES are required")
	endif()
	if(ARG_BPF_SOURCES AND DEFINED BENCHCORE_BPF AND NOT BENCHCORE_BPF)
		message(STATUS "benchcore: skipping plugin ${ARG_NAME}: BPF support is off (BENCHCORE_BPF=OFF)")
		return()
	endif()
	if(ARG_BPF_SOURCES AND NOT BenchcoreBpf_FOUND)
		if(NOT BENCHCORE_BPF_REASON)
			set(BENCHCORE_BPF_REASON "cannot build BPF programs: find_package(BenchcoreBpf) was not called")
		endif()
		message(FATAL_ERROR "benchcore: plugin ${ARG_NAME}: ${BENCHCORE_BPF_REASON} "
			"(Or pass -DBENCHCORE_BPF=OFF to skip the plugins with BPF_SOURCES.)")
	endif()
	set(target "benchcore_plugin_${ARG_NAME}")
	add_library(${target} MODULE ${ARG_SOURCES})
	set_target_properties(${target} PROPERTIES
		PREFIX ""
		OUTPUT_NAME "${ARG_NAME}"
		C_VISIBILITY_PRESET hidden
		LIBRARY_OUTPUT_DIRECTORY "${BENCHCORE_PLUGIN_OUTPUT_DIR}")
	if(BENCHCORE_LIBRARY_TARGET)
		target_link_libraries(${target} PRIVATE ${BENCHCORE_LIBRARY_TARGET} ${ARG_LIBRARIES})
	else()
		target_link_libraries(${target} PRIVATE libbenchcore ${ARG_LIBRARIES})
	endif()
	target_link_options(${target} PRIVATE "-Wl,--no-undefined")
	if(NOT DEFINED BENCHCORE_PLUGIN_INSTALL OR BENCHCORE_PLUGIN_INSTALL)
		_benchcore_plugin_rpath(rpath)
		set_target_properties(${target} PROPERTIES INSTALL_RPATH "${rpath}")
		install(TARGETS ${target} LIBRARY DESTINATION "${BENCHCORE_PLUGIN_INSTALL_DIR}")
	endif()
	foreach(bpf_src IN LISTS ARG_BPF_SOURCES)
		get_filename_component(bpf_stem "${bpf_src}" NAME)
		string(REGEX REPLACE "\\..*$" "" bpf_stem "${bpf_stem}")
		# Not named benchcore_plugin_*: that prefix means "a plugin .so".
		benchcore_bpf_skeleton(benchcore_skel_${ARG_NAME}_${bpf_stem} SOURCES "${bpf_src}")
		target_link_libraries(${target} PRIVATE benchcore_skel_${ARG_NAME}_${bpf_stem})
	endforeach()
endfunction()
