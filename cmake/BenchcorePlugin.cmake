# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# benchcore_add_plugin(NAME <name> SOURCES <c files...> [LIBRARIES <libs...>])
#
# Builds <name>.so as a MODULE with hidden visibility, so that the only
# symbol it exports is the `benchcore_plugin` descriptor, into
# ${BENCHCORE_PLUGIN_OUTPUT_DIR}.
function(benchcore_add_plugin)
	cmake_parse_arguments(ARG "" "NAME" "SOURCES;LIBRARIES" ${ARGN})
	if(NOT ARG_NAME OR NOT ARG_SOURCES)
		message(FATAL_ERROR "benchcore_add_plugin: NAME and SOURCES are required")
	endif()
	set(target "benchcore_plugin_${ARG_NAME}")
	add_library(${target} MODULE ${ARG_SOURCES})
	set_target_properties(${target} PROPERTIES
		PREFIX ""
		OUTPUT_NAME "${ARG_NAME}"
		C_VISIBILITY_PRESET hidden
		LIBRARY_OUTPUT_DIRECTORY "${BENCHCORE_PLUGIN_OUTPUT_DIR}")
	target_link_libraries(${target} PRIVATE libbenchcore ${ARG_LIBRARIES})
	target_link_options(${target} PRIVATE "-Wl,--no-undefined")
endfunction()
