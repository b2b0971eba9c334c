# Installing simsched (docs/library.md): `cmake --install BUILD --prefix P` puts
#   P/bin/simsched                      the tool
#   P/lib/libsimsched.so.V, .a          the library (SONAME libsimsched.so.SS_SOVERSION)
#   P/include/simsched/*.h              the public headers
#   P/lib/pkgconfig/simsched.pc         pkg-config
#   P/lib/cmake/simsched/               find_package(simsched)
#   P/share/simsched/{topologies,workloads}/   the shipped machines and workloads
#   P/share/doc/simsched/               the docs and every command's --help page
# Everything is relocatable: nothing installed names P.

# The headers' version (simsched/version.h) and SS_VERSION_STRING are the project's.
file(STRINGS ${CMAKE_SOURCE_DIR}/lib/include/simsched/version.h _ss_ver REGEX "^#define SS_(VERSION_(MAJOR|MINOR|PATCH)|SOVERSION) ")
foreach(line ${_ss_ver})
  string(REGEX REPLACE "^#define SS_([A-Z_]+) +([0-9]+).*" "\\1=\\2" kv "${line}")
  string(REPLACE "=" ";" kv "${kv}")
  list(GET kv 0 k)
  list(GET kv 1 v)
  set(SIMSCHED_H_${k} ${v})
endforeach()
file(STRINGS ${CMAKE_SOURCE_DIR}/lib/include/simsched/params.h _ss_verstr REGEX "^#define SS_VERSION_STRING ")
if(NOT "${SIMSCHED_H_VERSION_MAJOR}.${SIMSCHED_H_VERSION_MINOR}.${SIMSCHED_H_VERSION_PATCH}" STREQUAL PROJECT_VERSION
   OR NOT _ss_verstr MATCHES "\"${PROJECT_VERSION}\"")
  message(FATAL_ERROR "version mismatch: project ${PROJECT_VERSION}, simsched/version.h "
          "${SIMSCHED_H_VERSION_MAJOR}.${SIMSCHED_H_VERSION_MINOR}.${SIMSCHED_H_VERSION_PATCH}, params.h ${_ss_verstr}")
endif()

# libsimsched.so exports the public API only: the names in lib/libsimsched.symbols
# (checked against the headers and `nm -D` by tests/cli/exported_symbols.sh).
file(STRINGS ${CMAKE_SOURCE_DIR}/lib/libsimsched.symbols _ss_syms REGEX "^[A-Za-z_][A-Za-z0-9_]*$")
set(_ss_map "{\n  global:\n")
foreach(s ${_ss_syms})
  string(APPEND _ss_map "    ${s};\n")
endforeach()
string(APPEND _ss_map "  local: *;\n};\n")
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/libsimsched.map CONTENT "${_ss_map}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/lib/libsimsched.symbols)
set_target_properties(simsched_shared PROPERTIES OUTPUT_NAME simsched VERSION ${PROJECT_VERSION}
                      SOVERSION ${SIMSCHED_H_SOVERSION} LINK_DEPENDS ${CMAKE_BINARY_DIR}/libsimsched.map)
target_link_options(simsched_shared PRIVATE -Wl,--version-script=${CMAKE_BINARY_DIR}/libsimsched.map
                    -Wl,--no-undefined)
# the tool exports the same names (those it links) for the plugins it loads, and no others
set(_ss_dynlist "{\n")
foreach(s ${_ss_syms})
  string(APPEND _ss_dynlist "  ${s};\n")
endforeach()
string(APPEND _ss_dynlist "};\n")
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/libsimsched.dynlist CONTENT "${_ss_dynlist}")
target_link_options(simsched_cli PRIVATE -Wl,--dynamic-list=${CMAKE_BINARY_DIR}/libsimsched.dynlist)
set_property(TARGET simsched_cli APPEND PROPERTY LINK_DEPENDS ${CMAKE_BINARY_DIR}/libsimsched.dynlist)

# The --help page of every command, generated from the built tool.
set(SIMSCHED_HELP_DIR ${CMAKE_BINARY_DIR}/help)
add_custom_command(OUTPUT ${SIMSCHED_HELP_DIR}/simsched.txt
  COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:simsched_cli> -DOUT=${SIMSCHED_HELP_DIR}
          -P ${CMAKE_SOURCE_DIR}/cmake/help_pages.cmake
  DEPENDS simsched_cli ${CMAKE_SOURCE_DIR}/cmake/help_pages.cmake
  COMMENT "simsched --help pages")
add_custom_target(simsched_help ALL DEPENDS ${SIMSCHED_HELP_DIR}/simsched.txt)

install(TARGETS simsched_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS simsched simsched_shared EXPORT simschedTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Development)
file(GLOB SIMSCHED_PUBLIC_HEADERS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/lib/include/simsched/*.h)
install(FILES ${SIMSCHED_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/simsched)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/topologies ${CMAKE_SOURCE_DIR}/workloads
        DESTINATION ${CMAKE_INSTALL_DATADIR}/simsched)
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${SIMSCHED_HELP_DIR}/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/help)

# pkg-config: prefix relative to the .pc file's own directory
file(RELATIVE_PATH SIMSCHED_PC_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
set(SIMSCHED_PC_REQUIRES_PRIVATE "gmodule-no-export-2.0 yaml-0.1 libcjson")
if(HWLOC_FOUND)
  string(APPEND SIMSCHED_PC_REQUIRES_PRIVATE " hwloc")
endif()
configure_file(${CMAKE_SOURCE_DIR}/cmake/simsched.pc.in ${CMAKE_BINARY_DIR}/simsched.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/simsched.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# find_package(simsched): simsched::simsched (shared), simsched::simsched_static
set_target_properties(simsched PROPERTIES EXPORT_NAME simsched_static)
set_target_properties(simsched_shared PROPERTIES EXPORT_NAME simsched)
include(CMakePackageConfigHelpers)
install(EXPORT simschedTargets NAMESPACE simsched:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/simsched)
set(SIMSCHED_CONFIG_HWLOC ${HWLOC_FOUND})
file(RELATIVE_PATH SIMSCHED_CMAKE_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/cmake/simsched /p)
configure_file(${CMAKE_SOURCE_DIR}/cmake/simschedConfig.cmake.in ${CMAKE_BINARY_DIR}/simschedConfig.cmake @ONLY)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/simschedConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/simschedConfig.cmake ${CMAKE_BINARY_DIR}/simschedConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/simsched)
